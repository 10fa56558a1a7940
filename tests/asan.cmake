# SPDX-License-Identifier: MIT
# stamp, verify and extract over the whole corpus under AddressSanitizer + UBSan (own build).
if(NOT PITH_SANITIZE)
  if(DEFINED ENV{PITH_SHARED})
    set(PITH_ASAN_SHARED "$ENV{PITH_SHARED}")
  else()
    set(PITH_ASAN_SHARED "${CMAKE_SOURCE_DIR}/../shared")
  endif()
  add_test(NAME sanitized_corpus
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/asan/sanitized_corpus.py
                   --source ${CMAKE_SOURCE_DIR} --build ${CMAKE_BINARY_DIR}/asan --shared ${PITH_ASAN_SHARED})
  set_tests_properties(sanitized_corpus PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 2400 LABELS "asan")
endif()
