# SPDX-License-Identifier: MIT
# CLI-level tests for src/pdf (included by tests/CMakeLists.txt).
# pdf_update_probe: open a PDF, read catalog + every page, write a small incremental update.
add_executable(pdf_update_probe ${CMAKE_CURRENT_SOURCE_DIR}/pdf/pdf_update_probe.cpp)
target_link_libraries(pdf_update_probe PRIVATE pithcore)

# Corpus test: every PDF under PITH_TEST_CORPUS (or $PITH_SHARED/corpus). Skips (77) without a corpus.
add_test(NAME pdf_corpus
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/pdf/corpus_check.py
          $<TARGET_FILE:pdf_update_probe> --corpus ${PITH_TEST_CORPUS})
set_tests_properties(pdf_corpus PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 3600 LABELS "corpus;pdf")

