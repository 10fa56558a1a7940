# SPDX-License-Identifier: MIT
# Stamp acceptance suite on the real PDF corpus (tests/corpus/stamp_suite.py, standard library only).
# One ctest test per corpus folder, plus badge geometry on the rotated corpus files and on
# hand-written PDFs. Outputs go to <build>/tests/corpus-out/<group>/ (results.tsv per group).
# The corpus is PITH_TEST_CORPUS (tests/CMakeLists.txt: the full shared corpus where present,
# else the committed subset tests/corpus/files), or $PITH_SHARED/corpus when PITH_SHARED is set
# when the test runs. Nothing skips: a missing corpus, corpus file (tests/corpus/counts.tsv) or
# tool fails. The committed subset has no file with rotated pages, so corpus_stamp_rotated is
# there only with the shared corpus (corpus_stamp_synthetic covers rotation on both).
# Internal parallelism: PITH_CORPUS_JOBS (default 1; ctest -j2 runs two groups at once).
set(PITH_CORPUS_DIR "${PITH_TEST_CORPUS}")

set(PITH_CORPUS_GROUPS valid encrypted signed pdfa large malformed synthetic)
if(NOT EXISTS "${PITH_CORPUS_DIR}/LICENSES.tsv")  # the committed subset is the corpus with its licences
  list(APPEND PITH_CORPUS_GROUPS rotated)
endif()
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
    TIMEOUT ${PITH_CORPUS_TIMEOUT_${group}}
    LABELS "corpus;stamp")
endforeach()

# Planted faults that must fail the suites (tests/corpus/planted_faults.py, a few seconds): a
# corpus copy without a file, without a file and its row, with an unlisted PDF; the Catch2 corpus
# cases and a Python corpus suite on such a copy; qpdf and xmllint missing from the PATH.
add_test(NAME corpus_planted_faults
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/corpus/planted_faults.py
          --pith $<TARGET_FILE:pith> --tests $<TARGET_FILE:pith_tests> --source ${CMAKE_SOURCE_DIR}
          --work ${CMAKE_CURRENT_BINARY_DIR}/planted-faults)
set_tests_properties(corpus_planted_faults PROPERTIES TIMEOUT 300 LABELS "corpus")
