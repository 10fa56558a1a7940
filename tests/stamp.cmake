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
