# CLI-level tests for src/pdf (included by tests/CMakeLists.txt).
# pdf_update_probe: open a PDF, read catalog + every page, write a small incremental update.
add_executable(pdf_update_probe ${CMAKE_SOURCE_DIR}/bench/pdf_update_probe.cpp)
target_link_libraries(pdf_update_probe PRIVATE pithcore)

# Corpus test: every PDF under PITH_TEST_CORPUS (or $PITH_SHARED/corpus). Skips (77) without a corpus.
add_test(NAME pdf_corpus
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/pdf/corpus_check.py
          $<TARGET_FILE:pdf_update_probe> --corpus ${PITH_TEST_CORPUS})
set_tests_properties(pdf_corpus PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 3600 LABELS "corpus;pdf")

# shown_text_probe: prints pith::pdf::shown_text of a page (tests/text/shown_text_suite.py).
add_executable(shown_text_probe text/shown_text_probe.cpp)
target_link_libraries(shown_text_probe PRIVATE pithcore)
set_target_properties(shown_text_probe PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})  # beside pith-text.so
add_test(NAME shown_text_corpus
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/text/shown_text_suite.py
          $<TARGET_FILE:shown_text_probe> --corpus ${PITH_TEST_CORPUS})
set_tests_properties(shown_text_corpus PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "corpus;verify")
