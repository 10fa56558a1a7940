# SPDX-License-Identifier: MIT
# stamp, verify and extract over the whole corpus (PITH_TEST_CORPUS) under AddressSanitizer + UBSan
# (own build); a missing corpus or corpus file fails. A covering sample of the corpus; every file
# with -DPITH_TESTS_FULL=ON.
if(NOT PITH_SANITIZE)
  set(_pith_asan_full "")
  if(PITH_TESTS_FULL)
    set(_pith_asan_full --full)
  endif()
  add_test(NAME sanitized_corpus
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/asan/sanitized_corpus.py
                   --source ${CMAKE_SOURCE_DIR} --build ${CMAKE_BINARY_DIR}/asan --corpus ${PITH_TEST_CORPUS} ${_pith_asan_full})
  set_tests_properties(sanitized_corpus PROPERTIES TIMEOUT 2400 LABELS "asan")
endif()
