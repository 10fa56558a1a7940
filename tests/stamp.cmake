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
