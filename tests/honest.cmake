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
                   --pith $<TARGET_FILE:pith> --keep
                   --work ${CMAKE_CURRENT_BINARY_DIR}/honest-out/sample-${engine})
  # --keep: the trusted papers stay for the renderer differential (tests/differential.cmake)
  set_tests_properties(honest_sample_${engine} PROPERTIES LABELS "honest;latex" TIMEOUT 900
                       FIXTURES_SETUP pith_honest_papers)
endforeach()

# Stamp and verify agree on every corpus file outside malformed/: accepted => trusted,
# refused => a code from doc/errors.md; and stamp accepts at least the floor property_corpus.py
# states for the corpus (FLOORS: 73 of 114 files of the shared corpus, 19 of 22 of tests/corpus/files).
add_test(NAME honest_property_corpus
         COMMAND ${Python3_EXECUTABLE} ${_pith_honest}/property_corpus.py
                 --pith $<TARGET_FILE:pith> --corpus ${PITH_TEST_CORPUS} --keep
                 --out ${CMAKE_CURRENT_BINARY_DIR}/honest-out/property-corpus)
# --keep: the trusted files stay for the renderer differential (tests/differential.cmake)
set_tests_properties(honest_property_corpus PROPERTIES LABELS "honest;corpus" TIMEOUT 1200
                     SKIP_RETURN_CODE 77 FIXTURES_SETUP pith_corpus_stamped)

# The floors themselves (issue 46): run_honest.py's count check on planted faults (a class dropped,
# an empty run, a lost result), and property_corpus.py run with a pith whose stamp refuses every
# file with a documented code on tests/corpus/files: the property holds, the floor must fail it.
# A few seconds, no TeX.
add_test(NAME honest_count_selftest COMMAND ${Python3_EXECUTABLE} ${_pith_honest}/run_honest.py --selftest)
set_tests_properties(honest_count_selftest PROPERTIES LABELS "honest" TIMEOUT 60)
add_test(NAME honest_property_selftest
         COMMAND ${Python3_EXECUTABLE} ${_pith_honest}/property_corpus.py --pith $<TARGET_FILE:pith> --selftest)
set_tests_properties(honest_property_selftest PROPERTIES LABELS "honest" TIMEOUT 120)
