# SPDX-License-Identifier: MIT
# `pith verify` attack suite (issue 14; included by tests/CMakeLists.txt).
# attacks_build (fixture): tests/attacks/build_attacks.py signs records with a test key, builds
# the attack files and honest controls, and proves each file renders as its manifest claims with
# poppler, MuPDF, exiftool and qpdf (never pith). attacks_verify runs `pith verify` on each:
# no attack may be trusted, each must give its expected state and code, every control must be
# trusted. No list turns a wrong answer into a pass (an attack verify misses is tracked in an
# issue and fails here until fixed); each class must hold the number of files
# tests/attacks/expected_counts.json states.
# Python: Debian's /usr/bin/python3 when present (it has python3-pikepdf), else the one CMake found.
find_program(PITH_ATTACKS_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT PITH_ATTACKS_PYTHON)
  set(PITH_ATTACKS_PYTHON ${Python3_EXECUTABLE})
endif()
set(PITH_ATTACKS_WORK ${CMAKE_CURRENT_BINARY_DIR}/attacks-work)

add_test(NAME attacks_build
  COMMAND ${PITH_ATTACKS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/attacks/build_attacks.py
          --pith $<TARGET_FILE:pith> --out ${PITH_ATTACKS_WORK})
set_tests_properties(attacks_build PROPERTIES FIXTURES_SETUP pith_attacks SKIP_RETURN_CODE 77 TIMEOUT 600
                     LABELS "attacks")

# Controls first (a false invalid on an honest paper), then the attacks (a false trusted).
foreach(part controls attacks)
  if(part STREQUAL "controls")
    set(select --class control)
  else()
    set(select --exclude-class control)
  endif()
  add_test(NAME attacks_verify_${part}
    COMMAND ${PITH_ATTACKS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/attacks/attack_suite.py
            --pith $<TARGET_FILE:pith> --dir ${PITH_ATTACKS_WORK}
            ${select})
  set_tests_properties(attacks_verify_${part} PROPERTIES FIXTURES_REQUIRED pith_attacks SKIP_RETURN_CODE 77
                       TIMEOUT 300 LABELS "attacks")
endforeach()

# The judge itself: made-up verify answers it must accept or reject, then whole runs with a fake
# pith on made-up manifests, each with one planted fault that must fail the run (a false trusted
# named in an open.txt, a file dropped, a class emptied, an empty manifest); and doc/tests.md's
# count of the suite is expected_counts.json's (no real pith needed).
add_test(NAME attacks_judge_selftest
  COMMAND ${PITH_ATTACKS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/attacks/attack_suite.py --selftest)
set_tests_properties(attacks_judge_selftest PROPERTIES TIMEOUT 60 LABELS "attacks")

# Issue 29: pith and pdfsig agree on every signed attack and control (the publisher's signature
# covers the whole file exactly when pdfsig says so; never trusted where pdfsig says "not total
# document signed" unless what was appended is on the list of what may change after a stamp).
add_test(NAME attacks_signed_agreement
  COMMAND ${PITH_ATTACKS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/attacks/signed_agreement.py
          --pith $<TARGET_FILE:pith> --dir ${PITH_ATTACKS_WORK})
set_tests_properties(attacks_signed_agreement PROPERTIES FIXTURES_REQUIRED pith_attacks SKIP_RETURN_CODE 77
                     TIMEOUT 300 LABELS "attacks")
