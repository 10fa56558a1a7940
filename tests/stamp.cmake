# pith stamp's options on the example paper (no corpus needed).
add_test(NAME stamp_options
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/stamp/stamp_options.py
                 --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR})
