# SPDX-License-Identifier: MIT
# Nothing in the input's Info changes when pith stamps (issue 15 section 2): generated Info
# dictionaries (every literal-string form of PDF 32000-1 7.3.4.2, hex, UTF-16BE, PDFDocEncoding,
# names with #xx; fixed seed) and every corpus file, each Info read by qpdf before and after.
add_test(NAME info_roundtrip_generated
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/pdf/info_roundtrip.py --pith $<TARGET_FILE:pith>
          --record ${CMAKE_SOURCE_DIR}/examples/record.json generated --count 200 --seed 15)
set_tests_properties(info_roundtrip_generated PROPERTIES TIMEOUT 600 LABELS "pdf;stamp")
add_test(NAME info_roundtrip_corpus
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/pdf/info_roundtrip.py --pith $<TARGET_FILE:pith>
          --record ${CMAKE_SOURCE_DIR}/examples/record.json corpus --corpus ${PITH_TEST_CORPUS})
set_tests_properties(info_roundtrip_corpus PROPERTIES TIMEOUT 1800 LABELS "corpus;pdf;stamp")
