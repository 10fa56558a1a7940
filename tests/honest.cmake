# SPDX-License-Identifier: MIT
# The honest corpus (issue 28, tests/honest/README.md): papers typeset with TeX Live's journal
# and conference classes, stamped with a signed record of their own title written as arXiv
# writes it, no override flag: every one must verify trusted. CI runs the covering sample
# (every class with each engine, every title form with each engine), one test per engine; the
# full product is a separate command (doc/tests.md). Outputs and the JSON report go to
# <build>/tests/honest-out/.
set(_pith_honest ${CMAKE_CURRENT_SOURCE_DIR}/honest)
foreach(engine pdflatex lualatex)
  add_test(NAME honest_sample_${engine}
           COMMAND ${Python3_EXECUTABLE} ${_pith_honest}/run_honest.py --sample --engine ${engine}
                   --pith $<TARGET_FILE:pith>
                   --work ${CMAKE_CURRENT_BINARY_DIR}/honest-out/sample-${engine})
  set_tests_properties(honest_sample_${engine} PROPERTIES LABELS "honest;latex" TIMEOUT 900)
endforeach()

# Stamp and verify agree on every corpus file outside malformed/: accepted => trusted,
# refused => a code from doc/errors.md.
add_test(NAME honest_property_corpus
         COMMAND ${Python3_EXECUTABLE} ${_pith_honest}/property_corpus.py
                 --pith $<TARGET_FILE:pith> --corpus ${PITH_TEST_CORPUS}
                 --out ${CMAKE_CURRENT_BINARY_DIR}/honest-out/property-corpus)
set_tests_properties(honest_property_corpus PROPERTIES LABELS "honest;corpus" TIMEOUT 1200
                     SKIP_RETURN_CODE 77)
