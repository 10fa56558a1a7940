# SPDX-License-Identifier: MIT
# CI's skip gate (.ci/skip-gate, run by .ci/run after each ctest): a planted skip and a disabled
# test in a scratch ctest project fail it, an allowed list lets them pass, and CI's own list
# (.ci/allowed-skips) is empty. A few seconds: one cmake configure without a compiler.
add_test(NAME ci_skip_gate_selftest
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ci/skip_gate_selftest.py
          ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/skip-gate-selftest)
set_tests_properties(ci_skip_gate_selftest PROPERTIES TIMEOUT 120 LABELS "ci;doc")
