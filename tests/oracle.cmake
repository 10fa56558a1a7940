# SPDX-License-Identifier: MIT
# Canonical JSON against CPython's json module (the registry's reference).
add_executable(json_canon_filter oracle/json_canon_filter.cpp)
target_link_libraries(json_canon_filter PRIVATE pithcore)
add_test(NAME json_differential_cpython
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/oracle/json_differential.py
                 --tool $<TARGET_FILE:json_canon_filter> --count 20000)
set_tests_properties(json_differential_cpython PROPERTIES TIMEOUT 600)
