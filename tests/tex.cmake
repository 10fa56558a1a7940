# SPDX-License-Identifier: MIT
# `pith tex` prints byte for byte what tests/latex/pithtex.py (the reference pith.sty is tested with) prints.
add_test(NAME pith_tex_matches_reference
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tex/compare_pith_tex.py
                 --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR})
