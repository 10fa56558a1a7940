# SPDX-License-Identifier: MIT
# CLI-level tests for src/pdf (included by tests/CMakeLists.txt).
# pdf_update_probe: open a PDF, read catalog + every page, write a small incremental update.
add_executable(pdf_update_probe ${CMAKE_CURRENT_SOURCE_DIR}/pdf/pdf_update_probe.cpp)
target_link_libraries(pdf_update_probe PRIVATE pithcore)

# Corpus test: every PDF of PITH_TEST_CORPUS (or $PITH_SHARED/corpus); a missing corpus or file fails.
add_test(NAME pdf_corpus
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/pdf/corpus_check.py
          $<TARGET_FILE:pdf_update_probe> --corpus ${PITH_TEST_CORPUS})
set_tests_properties(pdf_corpus PROPERTIES TIMEOUT 3600 LABELS "corpus;pdf")


# pith's reader and poppler agree on the pages (count, order, page objects) of every corpus and
# attack file (issue 33): the page pith checks is the page a viewer shows. reader_diff links
# pithcore and poppler's core, each in a translation unit of its own.
add_executable(reader_diff pdf/reader_diff.cpp pdf/reader_diff_poppler.cpp)
target_link_libraries(reader_diff PRIVATE pithcore PkgConfig::POPPLER_CORE)
add_test(NAME pdf_reader_matches_poppler
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/pdf/reader_diff.py $<TARGET_FILE:reader_diff>
          --corpus ${PITH_TEST_CORPUS} --attacks ${PITH_ATTACKS_WORK})
set_tests_properties(pdf_reader_matches_poppler PROPERTIES FIXTURES_REQUIRED pith_attacks
                     TIMEOUT 120 LABELS "corpus;pdf;attacks")
