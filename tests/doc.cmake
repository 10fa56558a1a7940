# SPDX-License-Identifier: MIT
# The README and the manuals (included by tests/CMakeLists.txt; doc/tests.md describes them).
# readme_commands runs every command README.md shows against this build's pith in a scratch
# folder and checks the set-up commands against .ci/run; its self-test shows it fails when the
# README and pith disagree. doc_links checks the relative links of README.md, doc/*.md and doc/dev/*.md;
# doc_findings that doc/findings.md and src/core/finding_codes.hpp hold the same finding codes and
# that no code is written as a string elsewhere in src/.
add_test(NAME readme_commands
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/doc/readme_commands.py
          --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR}
          --scratch ${CMAKE_CURRENT_BINARY_DIR}/readme-scratch)
add_test(NAME readme_commands_selftest
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/doc/readme_commands_selftest.py
          --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR}
          --scratch ${CMAKE_CURRENT_BINARY_DIR}/readme-selftest)
add_test(NAME doc_links
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/doc/doc_links.py --source ${CMAKE_SOURCE_DIR})
add_test(NAME doc_links_selftest
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/doc/doc_links.py --source ${CMAKE_SOURCE_DIR}
          --self-test ${CMAKE_CURRENT_BINARY_DIR}/doc-links-selftest)
add_test(NAME doc_findings
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/doc/doc_findings.py --source ${CMAKE_SOURCE_DIR})
add_test(NAME doc_findings_selftest
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/doc/doc_findings.py --source ${CMAKE_SOURCE_DIR}
          --self-test ${CMAKE_CURRENT_BINARY_DIR}/doc-findings-selftest)
set_tests_properties(readme_commands readme_commands_selftest doc_links doc_links_selftest
                     doc_findings doc_findings_selftest
  PROPERTIES TIMEOUT 900 LABELS "doc")
