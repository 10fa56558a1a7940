# SPDX-License-Identifier: MIT
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

# The Linux fast paths a default build imports, and that a PITH_PORTABLE build imports none.
add_test(NAME platform_symbols
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/platform_symbols.py
          --pith $<TARGET_FILE:pith> --portable $<IF:$<BOOL:${PITH_PORTABLE}>,ON,OFF>)
set_tests_properties(platform_symbols PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS "cli")

# The conventions of a command-line tool (tests/cli/cli_conventions.py): stdin and stdout as files,
# --help per subcommand, JSON lines, the man page, no terminal escapes from file contents.
foreach(case keygen_existing_id stamp_stdout unknown_command subcommand_help stdin verify_json_lines verify_jobs trace batch_dry_run_json man_page
             terminal_escapes)
  add_test(NAME cli_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_conventions.py
            --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} ${case})
  set_tests_properties(cli_${case} PROPERTIES TIMEOUT 300 LABELS "cli")
endforeach()

# The default build links the system's shared libraries; PITH_STATIC never downloads.
add_test(NAME build_options
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/build_options.py
          --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} --static $<IF:$<BOOL:${PITH_STATIC}>,ON,OFF>)
set_tests_properties(build_options PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "cli")

# Every error code of doc/errors.md, produced and seen in text, --json and batch reports (issue 17);
# a code counts only when this run saw it given (issue 46): the worker failures, a spoilt output and
# input.changed through the test hooks, internal.error by running its unit test case.
add_test(NAME cli_error_codes
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/error_codes.py
          --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} --unit $<TARGET_FILE:pith_tests>
          --hooks $<IF:$<BOOL:${PITH_TEST_HOOKS}>,ON,OFF>)
set_tests_properties(cli_error_codes PROPERTIES TIMEOUT 300 LABELS "cli")

# One option table per command (issue 33): every option of pith stamp and pith verify is in its
# --help, in doc/pith.1 and in doc/commands.md (with its manifest key), and is a batch manifest key
# unless the table says command line only; an unknown key is refused naming the known ones. Every
# other command's options (its CLI11 definition, as --help shows it) are exactly those of its
# section of doc/pith.1 and its options table in doc/commands.md (doc/batch.md for batch).
add_executable(pith_option_table ${CMAKE_CURRENT_SOURCE_DIR}/cli/option_table_dump.cpp)
target_link_libraries(pith_option_table PRIVATE pithcore)
add_test(NAME cli_option_table
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/option_table.py
          --pith $<TARGET_FILE:pith> --tables $<TARGET_FILE:pith_option_table> --source ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_option_table PROPERTIES TIMEOUT 60 LABELS "cli")

# One JSON form per result (issue 33): a batch report line says what pith stamp --json and
# pith verify --json say of the same file, with the same values.
foreach(case stamp verify)
  add_test(NAME cli_result_json_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/result_json.py
            --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} ${case})
  set_tests_properties(cli_result_json_${case} PROPERTIES TIMEOUT 120 LABELS "cli")
endforeach()
