# SPDX-License-Identifier: MIT
# pith stamp's options on the example paper (no corpus needed).
add_test(NAME stamp_options
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/stamp/stamp_options.py
                 --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR})

# Re-stamping after later revisions: one badge, balanced content, as poppler and MuPDF read it
# (issue 15, 2.2); another number only with --replace, and then none of the old one.
add_test(NAME stamp_restamp_revisions
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/stamp/restamp_revisions.py
                 --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR})
set_tests_properties(stamp_restamp_revisions PROPERTIES LABELS "stamp")

# pith:priorSha256 is the hash of the bytes written, even while another process rewrites the
# input (issue 15, 2.3): the test hook PITH_TEST_STOP_AT_COPY stops pith before or after its copy
# of the input and the test rewrites the input there, so both branches run every time: changed
# before the copy, stamped with the new bytes and verifying as at rest; after it, refused
# (input.changed). Needs the test hooks.
add_test(NAME stamp_input_changing
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/stamp/input_changing.py
                 --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR})
set_tests_properties(stamp_input_changing PROPERTIES LABELS "stamp" TIMEOUT 120)
if(NOT PITH_TEST_HOOKS)
  set_tests_properties(stamp_input_changing PROPERTIES DISABLED TRUE)
endif()

# Automatic badge placement (issue 21) on synthetic pages made by the test: content in every
# corner, along each margin, everywhere (full-page image), each in every /Rotate and with offset
# boxes; pdftoppm before/after pixel masks, pdftotext, a contrast check and zbarimg.
add_test(NAME stamp_placement_pages
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/stamp/placement_pages.py
                 --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR})
set_tests_properties(stamp_placement_pages PROPERTIES TIMEOUT 600 LABELS "stamp")

# The same rule on every valid corpus file (tests/stamp/placement_corpus.py: today's top-right corner
# beside the automatic spot, inked share of the badge rectangle, zbarimg on each --qr stamp).
# Fails when a badge at a free spot lies on ink or a QR code does not decode (pages too small
# for a scannable one excepted: stamp warns), or a valid file is not measured (a missing corpus
# or file fails: tests/corpus/counts.tsv).
add_test(NAME stamp_placement_corpus
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/stamp/placement_corpus.py
                 --pith $<TARGET_FILE:pith> --corpus ${PITH_TEST_CORPUS})
set_tests_properties(stamp_placement_corpus PROPERTIES TIMEOUT 900 LABELS "stamp;corpus")
