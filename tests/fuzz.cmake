# libFuzzer over pith's content lexer (included by tests/CMakeLists.txt): tests/fuzz/run_fuzz.py
# builds the target with clang (-fsanitize=fuzzer,address,undefined) and fuzzes it for 60 s.
# Skipped (77) where clang or its libFuzzer runtime is missing.
add_test(NAME fuzz_content_lexer
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_fuzz.py --source ${CMAKE_SOURCE_DIR}
          --work ${CMAKE_CURRENT_BINARY_DIR}/fuzz --seconds 60)
set_tests_properties(fuzz_content_lexer PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "fuzz")
