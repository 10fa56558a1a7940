# SPDX-License-Identifier: MIT
# Compile a LaTeX document with pdflatex (twice, for references): the manual and the example paper.
#   cmake -DSRC=latex/pith.tex -DOUT=<dir> -DTEXINPUTS_DIR=latex -P build_manual.cmake
# Used by the pith-manual target and by the latex_manual test.
if(NOT SRC OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DSRC=file.tex -DOUT=dir [-DTEXINPUTS_DIR=dir] -P build_manual.cmake")
endif()
find_program(PDFLATEX pdflatex REQUIRED)
file(MAKE_DIRECTORY ${OUT})
if(TEXINPUTS_DIR)
  set(ENV{TEXINPUTS} "${TEXINPUTS_DIR}//:$ENV{TEXINPUTS}")
endif()
if(NOT DEFINED ENV{SOURCE_DATE_EPOCH})
  set(ENV{SOURCE_DATE_EPOCH} 1783296000)
endif()
set(ENV{FORCE_SOURCE_DATE} 1)
get_filename_component(_name ${SRC} NAME_WE)
foreach(pass 1 2)
  execute_process(
    COMMAND ${PDFLATEX} -interaction=nonstopmode -halt-on-error
            -output-directory ${OUT} ${SRC}
    WORKING_DIRECTORY ${OUT}
    RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pdflatex ${SRC} failed (pass ${pass}); see ${OUT}/${_name}.log\n${log}")
  endif()
endforeach()
message(STATUS "built ${OUT}/${_name}.pdf")
