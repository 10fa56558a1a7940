# SPDX-License-Identifier: MIT
# The modules of src/ and the modules each one may include: the one statement of pith's layering.
# Data flows one way: every module depends only on modules declared before it. The ctest
# code_module_graph checks every #include in src/ against this list, and doc/design.md's graph
# against it; a new folder in src/ must be declared here.
#
# pith_module(NAME [LOADED | PROGRAM] [DEPENDS MODULE...])
#   src/NAME/*.cpp join the pithcore library, unless NAME is LOADED (a shared module that pith
#   loads with dlopen and talks to through a C ABI) or the PROGRAM (the command line).
set(PITH_LIB_SOURCES "")
set(PITH_MODULE_NAMES "")
function(pith_module name)
  cmake_parse_arguments(M "LOADED;PROGRAM" "" "DEPENDS" ${ARGN})
  foreach(dep IN LISTS M_DEPENDS)
    if(NOT dep IN_LIST PITH_MODULE_NAMES)
      message(FATAL_ERROR "cmake/modules.cmake: ${name} depends on ${dep}, which is not declared before it")
    endif()
  endforeach()
  set(PITH_MODULE_NAMES ${PITH_MODULE_NAMES} ${name} PARENT_SCOPE)
  if(NOT M_LOADED AND NOT M_PROGRAM)
    file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${name}/*.cpp)
    set(PITH_LIB_SOURCES ${PITH_LIB_SOURCES} ${sources} PARENT_SCOPE)
  endif()
endfunction()

pith_module(core)                                  # errors, files, hashes, keys, numbers, records, JSON
pith_module(poppler LOADED)                        # pith-text.so: what poppler reads of a page
pith_module(ocr LOADED)                            # pith-ocr.so: Tesseract on a region of pixels
pith_module(tex DEPENDS core)                      # TeX in record titles, as text
pith_module(xmp DEPENDS core)                      # the XMP packet and pith's schema
pith_module(pdf DEPENDS core)                      # reading PDFs and writing incremental updates
pith_module(page DEPENDS poppler ocr core)         # what a reader sees: words, ink, pixels, the title rules
pith_module(drawing DEPENDS page pdf core)         # the closed list of what a page may draw with
pith_module(badge DEPENDS pdf core)                # the badge: drawn, redrawn and compared
pith_module(pith_data DEPENDS page xmp pdf core)   # what pith leaves in a PDF: pith's update, badge names, XMP, links
pith_module(sign DEPENDS pdf core)                 # PDF signatures (PAdES), made and checked
pith_module(stamp DEPENDS pith_data badge page sign drawing xmp pdf core)
pith_module(verify DEPENDS pith_data badge page sign drawing xmp pdf core)
pith_module(registry DEPENDS badge core)           # the registry client and its web badge
pith_module(batch DEPENDS stamp verify registry pith_data page sign pdf core)
pith_module(cli PROGRAM DEPENDS batch stamp verify registry pith_data page sign tex xmp pdf core)
