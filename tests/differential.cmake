# SPDX-License-Identifier: MIT
# Renderer differential (tests/differential/renderers.py, doc/tests.md): every file pith calls
# trusted shows the same title block in poppler's Splash and cairo, MuPDF and Ghostscript (OCR of
# each render, a pixel comparison with Splash where OCR cannot read every word). The inputs are
# the files other tests already make: the attack suite (fixture pith_attacks), the honest sample
# papers (pith_honest_papers) and the corpus stamped by honest_property_corpus
# (pith_corpus_stamped), kept with their verify reports. CI compares a fixed sample, held to the
# counts renderers.py states; the full product is a separate command (doc/tests.md).
find_program(PITH_DIFF_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT PITH_DIFF_PYTHON)
  set(PITH_DIFF_PYTHON ${Python3_EXECUTABLE})
endif()
set(_pith_diff ${CMAKE_CURRENT_SOURCE_DIR}/differential/renderers.py)

add_test(NAME differential_renderers_sample
  COMMAND ${PITH_DIFF_PYTHON} ${_pith_diff} --sample --pith $<TARGET_FILE:pith> --jobs 2
          --work ${CMAKE_CURRENT_BINARY_DIR}/differential-out/sample
          --attacks ${CMAKE_CURRENT_BINARY_DIR}/attacks-work
          --honest ${CMAKE_CURRENT_BINARY_DIR}/honest-out/sample-pdflatex
          --honest ${CMAKE_CURRENT_BINARY_DIR}/honest-out/sample-lualatex
          --corpus-stamped ${CMAKE_CURRENT_BINARY_DIR}/honest-out/property-corpus)
set_tests_properties(differential_renderers_sample PROPERTIES LABELS "differential" TIMEOUT 900
                     FIXTURES_REQUIRED "pith_attacks;pith_honest_papers;pith_corpus_stamped")

# The check on planted faults: a made-up render of another paper in MuPDF or Ghostscript, a
# trusted attack and a dropped input each fail a run (a fake pith answers; no fixture needed).
add_test(NAME differential_renderers_selftest
  COMMAND ${PITH_DIFF_PYTHON} ${_pith_diff} --selftest --pith $<TARGET_FILE:pith>
          --work ${CMAKE_CURRENT_BINARY_DIR}/differential-out/selftest)
set_tests_properties(differential_renderers_selftest PROPERTIES LABELS "differential" TIMEOUT 600)
