# Stamp acceptance suite on the real PDF corpus (tests/corpus/stamp_suite.py, standard library only).
# One ctest test per corpus folder, plus badge geometry on the rotated corpus files and on
# hand-written PDFs. Outputs go to <build>/tests/corpus-out/<group>/ (results.tsv per group).
# Without the corpus the tests print "corpus not found at ...; skipping corpus tests" and exit 77,
# which ctest reports as skipped. The corpus is ${CMAKE_SOURCE_DIR}/../shared/corpus, or
# $PITH_SHARED/corpus when PITH_SHARED is set (at configure time or when the test runs).
# Internal parallelism: PITH_CORPUS_JOBS (default 1; ctest -j2 runs two groups at once).
if(DEFINED ENV{PITH_SHARED})
  set(PITH_CORPUS_DIR "$ENV{PITH_SHARED}/corpus")
else()
  set(PITH_CORPUS_DIR "${CMAKE_SOURCE_DIR}/../shared/corpus")
endif()

set(PITH_CORPUS_GROUPS valid encrypted signed pdfa large malformed rotated synthetic)
# Worst case measured on 2 cores is a few minutes per group; the timeouts leave ample room.
set(PITH_CORPUS_TIMEOUT_valid 900)
set(PITH_CORPUS_TIMEOUT_encrypted 600)
set(PITH_CORPUS_TIMEOUT_signed 600)
set(PITH_CORPUS_TIMEOUT_pdfa 600)
set(PITH_CORPUS_TIMEOUT_large 1200)
set(PITH_CORPUS_TIMEOUT_malformed 1200)
set(PITH_CORPUS_TIMEOUT_rotated 600)
set(PITH_CORPUS_TIMEOUT_synthetic 600)

foreach(group ${PITH_CORPUS_GROUPS})
  add_test(NAME corpus_stamp_${group}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/corpus/stamp_suite.py
            --pith $<TARGET_FILE:pith>
            --group ${group}
            --corpus ${PITH_CORPUS_DIR}
            --repo ${CMAKE_SOURCE_DIR}
            --out ${CMAKE_CURRENT_BINARY_DIR}/corpus-out/${group})
  set_tests_properties(corpus_stamp_${group} PROPERTIES
    SKIP_RETURN_CODE 77
    TIMEOUT ${PITH_CORPUS_TIMEOUT_${group}}
    LABELS "corpus;stamp")
endforeach()
