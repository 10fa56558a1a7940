# libFuzzer over pith's lexers (included by tests/CMakeLists.txt): tests/fuzz/run_fuzz.py builds
# each target with clang (-fsanitize=fuzzer,address,undefined) and fuzzes it for 60 s:
# content_lexer (content streams), object_lexer (object syntax, compared with PoDoFo's tokenizer),
# reader (whole files through the PDF reader, as verify reads them).
# Skipped (77) where clang or its libFuzzer runtime is missing.
foreach(target content_lexer object_lexer reader)
  add_test(NAME fuzz_${target}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_fuzz.py --source ${CMAKE_SOURCE_DIR}
            --work ${CMAKE_CURRENT_BINARY_DIR}/fuzz/${target} --target ${target} --seconds 60)
  set_tests_properties(fuzz_${target} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "fuzz")
endforeach()
