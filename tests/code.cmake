# SPDX-License-Identifier: MIT
# Code checks (included by tests/CMakeLists.txt).

# A check of the source tree, NAME, and NAME_planted, which proves on a copy of the tree with the
# rule broken that the check fails (tests/lib/treecheck.py's command line).
function(pith_tree_check name script)
  add_test(NAME ${name} COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/code/${script} ${CMAKE_SOURCE_DIR})
  add_test(NAME ${name}_planted
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/code/${script} ${CMAKE_SOURCE_DIR} --planted)
  set_tests_properties(${name} ${name}_planted PROPERTIES TIMEOUT 60 LABELS "code")
endfunction()
# No function in src/ over 60 lines, except those listed in tests/code/function-length-allow.txt;
# a listed function that has been split must leave the list (tools/longest-functions --allow).
add_test(NAME code_function_length
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/longest-functions --max 60
          --allow tests/code/function-length-allow.txt src
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(code_function_length PROPERTIES TIMEOUT 60 LABELS "code")

# The tool itself, on a file whose functions' lengths are known.
add_test(NAME code_longest_functions_tool
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/code/longest_functions_test.py)
set_tests_properties(code_longest_functions_tool PROPERTIES TIMEOUT 60 LABELS "code")

# Test hooks only in test builds (PITH_TEST_HOOKS, CMakeLists.txt): pith holds the hooks' names
# exactly when the option is ON, and the sources that hold hooks (found by their names),
# compiled here once more with the option OFF, hold none.
file(GLOB_RECURSE PITH_ALL_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/*.cpp)
set(PITH_HOOK_SOURCES "")
foreach(source ${PITH_ALL_SOURCES})
  file(STRINGS ${source} hooks REGEX "\"PITH_(BATCH_)?TEST_[A-Z_]+\"")
  if(hooks)
    list(APPEND PITH_HOOK_SOURCES ${source})
  endif()
endforeach()
add_library(pith_hooks_off OBJECT ${PITH_HOOK_SOURCES})
target_link_libraries(pith_hooks_off PRIVATE pithcore)
target_compile_definitions(pith_hooks_off PRIVATE PITH_TEST_HOOKS=0)
add_test(NAME code_test_hooks
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/code/test_hooks.py
          --pith $<TARGET_FILE:pith> --hooks $<IF:$<BOOL:${PITH_TEST_HOOKS}>,ON,OFF> --source ${CMAKE_SOURCE_DIR}
          $<TARGET_OBJECTS:pith_hooks_off>
  COMMAND_EXPAND_LISTS)
set_tests_properties(code_test_hooks PROPERTIES TIMEOUT 60 LABELS "code")

# Every source file names its licence (SPDX-License-Identifier; tests/code/spdx.py --fix adds it).
add_test(NAME code_spdx COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/code/spdx.py ${CMAKE_SOURCE_DIR})
set_tests_properties(code_spdx PROPERTIES TIMEOUT 60 LABELS "code")

# The module graph (cmake/modules.cmake, doc/design.md "Modules"): every #include in src/ runs
# one way, and the check is proved to catch a planted back-arrow and a stale design.md.
pith_tree_check(code_module_graph module_graph.py)

# A folder of src/ is a namespace (pith::FOLDER; src/core is pith), proved to catch a file in
# another namespace.
pith_tree_check(code_folder_namespaces folder_namespaces.py)

# PoDoFo stays behind src/pdf (doc/dev/podofo.md): no PoDoFo name and no PoDoFo member call outside
# it (pith's functions of pdf/types.hpp and pdf/objects.hpp instead); the check is proved to catch a
# planted use of each kind.
pith_tree_check(code_podofo_boundary podofo_boundary.py)

# Finding codes are typed constants (src/core/finding_codes.hpp), and so are a region's kind and
# outcome (src/core/findings.hpp): the compiler rejects one written as a string or misspelt
# (doc_findings checks the codes against doc/findings.md).
add_test(NAME code_finding_codes_typed
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/code/finding_codes_typed.py
          --cxx ${CMAKE_CXX_COMPILER} --source ${CMAKE_SOURCE_DIR}
          --scratch ${CMAKE_CURRENT_BINARY_DIR}/finding-codes-typed)
set_tests_properties(code_finding_codes_typed PROPERTIES TIMEOUT 300 LABELS "code")

# One title judgement (src/page/title_judgement.cpp): stamp and verify reach the title's verdict
# only through it, so what stamp accepts, verify's title check calls trusted; the check is proved
# to catch a title rule called from stamp, a title finding made in verify and a half dropped.
pith_tree_check(code_title_judgement title_judgement.py)

# pith's XMP property names once (src/xmp/xmp.hpp's constants = templates/pith-xmp.json's names,
# which pith.sty shares): a property named by a misspelt constant, a string or a map subscript
# does not compile.
add_test(NAME code_xmp_properties
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/code/xmp_properties.py
          --cxx ${CMAKE_CXX_COMPILER} --source ${CMAKE_SOURCE_DIR}
          --scratch ${CMAKE_CURRENT_BINARY_DIR}/xmp-properties)
set_tests_properties(code_xmp_properties PROPERTIES TIMEOUT 300 LABELS "code")

# Lines in src/ within 120 characters: a ratchet (tests/code/line-length-allow.txt, which only
# shrinks), proved to catch a long line in a file it does not list and one more in a file it does.
pith_tree_check(code_line_length line_length.py)
