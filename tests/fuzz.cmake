# SPDX-License-Identifier: MIT
# libFuzzer targets (tests/fuzz/*_fuzz.cpp), built by tests/fuzz/run_fuzz.py with clang
# (-fsanitize=fuzzer,address,undefined). ctest only REPLAYS: every input of the target's
# regression corpus (tests/fuzz/corpus/TARGET: whatever a campaign ever found) and its seeds,
# each once, so each run gives the same answer (no mutations: doc/fuzzing.md says why).
# Open-ended fuzzing is `run_fuzz.py --campaign TARGET --minutes N` (doc/fuzzing.md).
# content_lexer (content streams), object_lexer (object syntax, against PoDoFo's tokenizer),
# reader (whole files through the PDF reader), record_reader (JSON and records; its canonical
# form is compared with CPython's), xmp (reader and merger), stamp_verify (stamp, then verify).
# Skipped (77) where clang or its libFuzzer runtime is missing.
foreach(target content_lexer object_lexer reader record_reader xmp stamp_verify)
  add_test(NAME fuzz_${target}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_fuzz.py --source ${CMAKE_SOURCE_DIR}
            --build ${CMAKE_BINARY_DIR} --work ${CMAKE_CURRENT_BINARY_DIR}/fuzz/${target} --replay ${target}
            --oracle $<TARGET_FILE:json_canon_filter>)
  set_tests_properties(fuzz_${target} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800 LABELS "fuzz")
endforeach()
