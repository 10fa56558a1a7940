# CLI tests for `pith record`, `pith keygen` and `pith sign`, and for inputs that are not files
# (included by tests/CMakeLists.txt).
# tests/cli/cli_suite.py holds the cases; each runs in its own temporary directory with an
# empty HOME and no PITH_KEYRING, so default keyring files cannot interfere.
foreach(case record_seeds record_hash_edited keygen sign sign_refuses bad_input_record bad_input_sign usage not_a_file)
  add_test(NAME cli_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_suite.py
            --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} ${case})
  set_tests_properties(cli_${case} PROPERTIES TIMEOUT 300 LABELS "cli")
endforeach()
