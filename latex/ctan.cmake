# SPDX-License-Identifier: MIT
# pith.sty the l3build way, in a copy of latex/ (l3build writes next to
# build.lua):
#   cmake -DSRC=latex -DOUT=<dir> [-DSTEP=check|ctan] -P latex/ctan.cmake
# check: the regression tests in latex/testfiles (pdfTeX, XeTeX, LuaTeX).
# ctan (default): those tests, the manual, then <dir>/pith-ctan.zip, whose
# file list is checked and printed.  Used by the pith-ctan target and the
# latex_l3build test.
if(NOT SRC OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DSRC=latex -DOUT=dir [-DSTEP=check|ctan] -P ctan.cmake")
endif()
if(NOT STEP)
  set(STEP ctan)
endif()
find_program(L3BUILD l3build)
if(NOT L3BUILD)
  message(FATAL_ERROR "l3build not found: install texlive-latex-extra (see .ci/packages-latex.txt)")
endif()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
file(COPY ${SRC}/pith.sty ${SRC}/pith.tex ${SRC}/README.md ${SRC}/LICENSE
          ${SRC}/build.lua ${SRC}/testfiles DESTINATION ${OUT})
set(ENV{PITH_L3BUILD_DIR} ${OUT}/build)
if(NOT DEFINED ENV{SOURCE_DATE_EPOCH})
  set(ENV{SOURCE_DATE_EPOCH} 1783296000)
endif()
set(ENV{FORCE_SOURCE_DATE} 1)
execute_process(COMMAND ${L3BUILD} ${STEP} --halt-on-error
                WORKING_DIRECTORY ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  file(GLOB diffs ${OUT}/build/test/*.diff)
  set(shown "")
  foreach(d ${diffs})
    file(READ ${d} text)
    string(APPEND shown "\n--- ${d}\n${text}")
  endforeach()
  string(LENGTH "${log}" n)
  if(n GREATER 3000)
    math(EXPR from "${n} - 3000")
    string(SUBSTRING "${log}" ${from} 3000 log)
  endif()
  message(FATAL_ERROR "l3build ${STEP} failed (${rc}):\n${log}${shown}")
endif()
if(STEP STREQUAL "check")
  message(STATUS "l3build check: all tests passed")
  return()
endif()

# The archive: pith/ with the package, its manual (source and PDF), README
# and licence, and the TDS zip with the same files in their TDS places.
set(zip ${OUT}/pith-ctan.zip)
file(ARCHIVE_EXTRACT INPUT ${zip} DESTINATION ${OUT}/ctan-contents)
file(ARCHIVE_EXTRACT INPUT ${OUT}/ctan-contents/pith.tds.zip DESTINATION ${OUT}/tds-contents)
file(GLOB_RECURSE got RELATIVE ${OUT}/ctan-contents ${OUT}/ctan-contents/*)
file(GLOB_RECURSE got_tds RELATIVE ${OUT}/tds-contents ${OUT}/tds-contents/*)
list(SORT got)
list(SORT got_tds)
set(want pith.tds.zip pith/LICENSE pith/README.md pith/pith.pdf pith/pith.sty pith/pith.tex)
set(want_tds doc/latex/pith/LICENSE doc/latex/pith/README.md doc/latex/pith/pith.pdf
             doc/latex/pith/pith.tex tex/latex/pith/pith.sty)
if(NOT got STREQUAL want OR NOT got_tds STREQUAL want_tds)
  message(FATAL_ERROR "pith-ctan.zip holds\n  ${got}\n  tds: ${got_tds}\nexpected\n  ${want}\n  tds: ${want_tds}")
endif()
file(SHA256 ${OUT}/ctan-contents/pith/pith.sty a)
file(SHA256 ${SRC}/pith.sty b)
if(NOT a STREQUAL b)
  message(FATAL_ERROR "pith-ctan.zip's pith.sty differs from ${SRC}/pith.sty")
endif()
string(REPLACE ";" "\n  " list "${got}")
string(REPLACE ";" "\n  " list_tds "${got_tds}")
message(STATUS "built ${zip}:\n  ${list}\npith.tds.zip:\n  ${list_tds}")
