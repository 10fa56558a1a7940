# SPDX-License-Identifier: MIT
# Tests of the closed list (src/drawing; doc/trust.md#the-closed-list).
# closed_list_probe: page 1's constructs outside the list, one line a file.
add_executable(closed_list_probe ${CMAKE_CURRENT_SOURCE_DIR}/drawing/closed_list_probe.cpp)
target_link_libraries(closed_list_probe PRIVATE pithcore)

# Each construct off the list refused by stamp and unverified by verify, named; each control
# on it stamped and trusted.
add_test(NAME closed_list_constructs
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/drawing/closed_list.py
          --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR})
set_tests_properties(closed_list_constructs PROPERTIES TIMEOUT 600 LABELS "verify;stamp")

# The corpus's real files (valid, PDF/A, signed, large) draw page 1 only with what the list holds.
add_test(NAME closed_list_corpus
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/drawing/corpus_listed.py
          --probe $<TARGET_FILE:closed_list_probe> --corpus ${PITH_TEST_CORPUS})
set_tests_properties(closed_list_corpus PROPERTIES TIMEOUT 600 LABELS "corpus;verify")
