# Code checks (included by tests/CMakeLists.txt).
# No function in src/ over 60 lines, except those listed in tests/code/function-length-allow.txt;
# a listed function that has been split must leave the list (tools/longest-functions --allow).
add_test(NAME code_function_length
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/longest-functions --max 60
          --allow tests/code/function-length-allow.txt src
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(code_function_length PROPERTIES TIMEOUT 60 LABELS "code")
