# SPDX-License-Identifier: MIT
# LaTeX side of pith: latex/pith.sty, its manual and the example paper.
# Included by tests/CMakeLists.txt.  The toolchain is listed in
# .ci/packages-latex.txt.  Every test runs python3 (standard library only)
# drivers from tests/latex/; nothing is skipped silently: a missing tool
# makes the tests fail with a message saying what to install.

set(PITH_LATEX_DIR ${CMAKE_SOURCE_DIR}/latex)
set(PITH_LATEX_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/latex)
set(PITH_LATEX_WORK ${CMAKE_BINARY_DIR}/latex-tests)

set(_pith_latex_tools pdflatex xelatex lualatex latex dvips ps2pdf qpdf
    exiftool pdftotext l3build)
set(_pith_latex_missing "")
foreach(tool ${_pith_latex_tools})
  string(TOUPPER "PITH_TOOL_${tool}" _var)
  find_program(${_var} ${tool})
  if(NOT ${_var})
    list(APPEND _pith_latex_missing ${tool})
  endif()
endforeach()

if(_pith_latex_missing)
  add_test(NAME latex_toolchain
           COMMAND sh -c "echo 'missing: ${_pith_latex_missing}; install the packages listed in .ci/packages-latex.txt'; exit 1")
  set_tests_properties(latex_toolchain PROPERTIES LABELS latex)
  return()
endif()

set(_pith_bin $<TARGET_FILE:pith>)

# pith.sty mirrors templates/pith-xmp.json
add_test(NAME latex_schema_sync
         COMMAND ${Python3_EXECUTABLE} ${PITH_LATEX_TESTS}/schema_sync.py
                 ${CMAKE_SOURCE_DIR})
set_tests_properties(latex_schema_sync PROPERTIES LABELS latex TIMEOUT 60)

# Every message pith.sty gives is in the manual's Messages section, with its kind
add_test(NAME latex_messages_documented
         COMMAND ${Python3_EXECUTABLE} ${PITH_LATEX_TESTS}/messages_documented.py
                 ${PITH_LATEX_DIR})
set_tests_properties(latex_messages_documented PROPERTIES LABELS latex TIMEOUT 60)

# The compile matrix: one test per engine x class (4 variants each), with -DPITH_TESTS_FULL=ON
# only: the pairwise sample below has every engine x class pair, and CI's time is its.
set(_pith_latex_engines pdflatex xelatex lualatex dvips)
set(_pith_latex_classes article report amsart revtex-aps revtex-aip
    ieeetran-journal ieeetran-conference acmart-sigconf acmart-acmsmall
    acmart-manuscript llncs elsarticle scrartcl)
if(PITH_TESTS_FULL)
  foreach(engine ${_pith_latex_engines})
    foreach(cls ${_pith_latex_classes})
      set(_name latex_matrix_${engine}_${cls})
      add_test(NAME ${_name}
               COMMAND ${Python3_EXECUTABLE} ${PITH_LATEX_TESTS}/run_matrix.py
                       --engine ${engine} --class ${cls} --no-compare
                       --pith ${_pith_bin}
                       --sty-dir ${PITH_LATEX_DIR}
                       --work ${PITH_LATEX_WORK}/matrix)
      set_tests_properties(${_name} PROPERTIES LABELS "latex;latex_matrix;full"
                           TIMEOUT 600)
    endforeach()
  endforeach()
endif()

# Issue 16: a pairwise covering sample of engine x class x variant x
# placement (every class, engine, variant and placement, and every pair of
# them, at least once: 76 combinations, listed by run_matrix.py
# --list-sample), each also compared with the same paper built without
# pith.  The full product is a separate command (doc/latex-matrix.md).
foreach(shard 1 2 3 4)
  add_test(NAME latex_matrix_sample_${shard}
           COMMAND ${Python3_EXECUTABLE} ${PITH_LATEX_TESTS}/run_matrix.py
                   --sample ${shard}/4
                   --pith ${_pith_bin}
                   --sty-dir ${PITH_LATEX_DIR}
                   --work ${PITH_LATEX_WORK}/sample-${shard})
  set_tests_properties(latex_matrix_sample_${shard} PROPERTIES
                       LABELS "latex;latex_matrix" TIMEOUT 900)
endforeach()

# Single-document cases: errors, options, robustness, pdfx, reproducibility,
# metadata never lost, engine XMP kept, messages, font fallback (issue 16)
foreach(group errors options robust pdfx reproducible example metadata keepxmp
              messages fonts)
  add_test(NAME latex_cases_${group}
           COMMAND ${Python3_EXECUTABLE} ${PITH_LATEX_TESTS}/run_cases.py
                   ${group} --pith ${_pith_bin}
                   --sty-dir ${PITH_LATEX_DIR}
                   --work ${PITH_LATEX_WORK}/cases-${group})
  set_tests_properties(latex_cases_${group} PROPERTIES LABELS latex
                       TIMEOUT 900)
endforeach()

# The manual compiles (the same command as the pith-manual build target)
add_test(NAME latex_manual
         COMMAND ${CMAKE_COMMAND}
                 -DSRC=${PITH_LATEX_DIR}/pith.tex
                 -DOUT=${PITH_LATEX_WORK}/manual
                 -DTEXINPUTS_DIR=${PITH_LATEX_DIR}
                 -P ${PITH_LATEX_DIR}/build_manual.cmake)
set_tests_properties(latex_manual PROPERTIES LABELS latex TIMEOUT 300)

# Issue 32, the LaTeX way: l3build's regression tests (latex/testfiles/*.lvt:
# the log lines naming the XMP route, the badge placement and each adapter,
# the author's mistakes and their messages, on pdfTeX, XeTeX and LuaTeX),
# then the manual and the CTAN archive, whose file list is checked.  The
# same command as the pith-ctan target.
add_test(NAME latex_l3build
         COMMAND ${CMAKE_COMMAND}
                 -DSRC=${PITH_LATEX_DIR}
                 -DOUT=${PITH_LATEX_WORK}/l3build
                 -P ${PITH_LATEX_DIR}/ctan.cmake)
set_tests_properties(latex_l3build PROPERTIES LABELS latex TIMEOUT 600)
