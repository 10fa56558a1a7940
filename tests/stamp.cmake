# pith stamp's options on the example paper (no corpus needed).
add_test(NAME stamp_options
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/stamp/stamp_options.py
                 --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR})

# Automatic badge placement (issue 21) on synthetic pages made by the test: content in every
# corner, along each margin, everywhere (full-page image), each in every /Rotate and with offset
# boxes; pdftoppm before/after pixel masks, pdftotext, a contrast check and zbarimg.
add_test(NAME stamp_placement_pages
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/stamp/placement_pages.py
                 --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR})
set_tests_properties(stamp_placement_pages PROPERTIES TIMEOUT 600 LABELS "stamp")

# The same rule on every valid corpus file (bench/placement_corpus.py: today's top-right corner
# beside the automatic spot, inked share of the badge rectangle, zbarimg on each --qr stamp).
# Fails when a badge at a free spot lies on ink or a QR code does not decode (pages too small
# for a scannable one excepted: stamp warns). Skipped (77) without the corpus.
if(NOT DEFINED PITH_CORPUS_DIR)  # tests/corpus.cmake sets it
  set(PITH_CORPUS_DIR "${CMAKE_SOURCE_DIR}/../shared/corpus")
endif()
add_test(NAME stamp_placement_corpus
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/bench/placement_corpus.py
                 --pith $<TARGET_FILE:pith> --corpus ${PITH_CORPUS_DIR})
set_tests_properties(stamp_placement_corpus PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "stamp;corpus")
