# SPDX-License-Identifier: MIT
# Bounded work on hostile input (issue 15, section 1; included by tests/CMakeLists.txt).
# tests/bombs/make_bombs.py writes each shape (small on disk: ToUnicode, content, XMP Flate+LZW
# and object stream decompression bombs, 40 million names, 12,000 revisions, recursive and
# fanning-out forms, nesting 100,000 deep); bomb_suite.py runs pith verify, extract and stamp on
# each (and verify on the stamped paper when pith can stamp it) and requires every run to take
# under 10 s of CPU time (user + system, pith and its children: work, which load does not stretch;
# the wall-clock time is printed beside it, and 60 s of it is a hang) and 512 MiB resident with pith's clear pdf.too_large error and never `trusted`, a
# refused stamp to leave no file, and `pith verify BOMB good.pdf` to verify good.pdf.
# child_address_space: poppler's child reads the page of a stamped paper 2.5 GiB long (sparse),
# which a fixed 2 GiB address-space limit on the child made it fail to load pith-text.so.
# One ctest per shape, so that a failure names it; each makes its file on first use.
find_program(PITH_BOMBS_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT PITH_BOMBS_PYTHON)
  set(PITH_BOMBS_PYTHON ${Python3_EXECUTABLE})
endif()
set(PITH_BOMB_SHAPES tounicode_shared contents_repeated names_40m xmp_flate_lzw objstm_4x480 revisions_12k
                     recursive_forms deep_nesting child_address_space)
# The list is every shape make_bombs.py writes: a shape dropped here fails bombs_shapes_listed.
add_test(NAME bombs_shapes_listed
  COMMAND ${PITH_BOMBS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/bombs/bomb_suite.py
          --pith $<TARGET_FILE:pith> --work ${CMAKE_CURRENT_BINARY_DIR}/bombs-work --record x --listed ${PITH_BOMB_SHAPES})
set_tests_properties(bombs_shapes_listed PROPERTIES TIMEOUT 60 LABELS "bombs")
foreach(shape ${PITH_BOMB_SHAPES})
  add_test(NAME bombs_${shape}
    COMMAND ${PITH_BOMBS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/bombs/bomb_suite.py
            --pith $<TARGET_FILE:pith> --work ${CMAKE_CURRENT_BINARY_DIR}/bombs-work/${shape}
            --record ${CMAKE_SOURCE_DIR}/examples/record.json ${shape})
  # RUN_SERIAL: the bounds are measured; CPU time and peak memory hardly depend on load, but the
  # 60 s wall-clock hang limit does.
  set_tests_properties(bombs_${shape} PROPERTIES TIMEOUT 300 RUN_SERIAL TRUE LABELS "bombs")
endforeach()
