# The libraries pith's core links against, as one target: pith_dependencies.
#
# PITH_STATIC=ON (the default) links them statically, all but glibc and libqrencode (Debian
# ships no libqrencode.a): PoDoFo built from Debian 12's source package, and Debian's own static
# archives of OpenSSL's libcrypto, ICU, libsodium, pugixml, zlib and libstdc++.
# Why: Debian ships PoDoFo only as a shared library that pulls in fontconfig, libtiff, libjpeg,
# libpng and a dozen more. Mapping and relocating ~30 shared libraries costs ~3 ms of page faults
# at every start, more than `pdfinfo -meta` needs to read a small PDF; statically linked,
# `pith --version` takes ~1.7 ms instead of ~4.6 (bench/bench.py shows verify's figures).
# PoDoFo is built from the upstream tarball of Debian's libpodofo 0.9.8+dfsg-3, checked against
# the SHA-256 in Debian's signed source index (Debian's one patch fixes a declaration in a header
# pith does not use), without fontconfig, JPEG, TIFF and PNG, which pith never asks PoDoFo for.
#
# PITH_STATIC=OFF links Debian's shared libraries (libpodofo-dev and the others), for a build
# without network access or with sanitizers.
option(PITH_STATIC "Link PoDoFo (built from Debian's source), OpenSSL, ICU, libsodium, pugixml, zlib and libstdc++ statically" ON)
set(PITH_PODOFO_URL "http://deb.debian.org/debian/pool/main/libp/libpodofo/libpodofo_0.9.8+dfsg.orig.tar.xz"
    CACHE STRING "PoDoFo's source for PITH_STATIC: a URL or a local file")
set(PITH_PODOFO_SHA256 "1c827b14d52b95a636ca756804a6c1b971cd0c664144f7ab9e56f36c221dabc1")

find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
pkg_check_modules(QRENCODE REQUIRED IMPORTED_TARGET libqrencode)
add_library(pith_dependencies INTERFACE)

if(NOT PITH_STATIC)
  pkg_check_modules(PODOFO REQUIRED IMPORTED_TARGET libpodofo)
  pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium)
  pkg_check_modules(ICU REQUIRED IMPORTED_TARGET icu-uc)
  find_package(pugixml REQUIRED)
  find_package(ZLIB REQUIRED)
  find_package(OpenSSL REQUIRED)
  target_link_libraries(pith_dependencies INTERFACE PkgConfig::PODOFO PkgConfig::SODIUM PkgConfig::ICU
    pugixml::pugixml ZLIB::ZLIB OpenSSL::Crypto PkgConfig::QRENCODE Threads::Threads ${CMAKE_DL_LIBS})
  return()
endif()

include(ExternalProject)
set(podofo_prefix ${CMAKE_BINARY_DIR}/podofo)
ExternalProject_Add(podofo_build
  URL ${PITH_PODOFO_URL}
  URL_HASH SHA256=${PITH_PODOFO_SHA256}
  DOWNLOAD_NO_PROGRESS ON
  DOWNLOAD_EXTRACT_TIMESTAMP ON
  INSTALL_DIR ${podofo_prefix}
  CMAKE_ARGS
    -DCMAKE_INSTALL_PREFIX=<INSTALL_DIR> -DLIB_SUFFIX=
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O2\ -DNDEBUG
    -DCMAKE_CXX_FLAGS=-fstack-protector-strong\ -D_FORTIFY_SOURCE=2  # Debian's hardening flags
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -DPODOFO_BUILD_STATIC=ON -DPODOFO_BUILD_SHARED=OFF -DPODOFO_BUILD_LIB_ONLY=ON -DWANT_FONTCONFIG=OFF
    -DCMAKE_DISABLE_FIND_PACKAGE_FONTCONFIG=ON -DCMAKE_DISABLE_FIND_PACKAGE_LIBJPEG=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_TIFF=ON -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON -DCMAKE_DISABLE_FIND_PACKAGE_LUA=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_CppUnit=ON
  LOG_CONFIGURE ON LOG_BUILD ON LOG_INSTALL ON LOG_OUTPUT_ON_FAILURE ON
  BUILD_BYPRODUCTS ${podofo_prefix}/lib/libpodofo.a)
file(MAKE_DIRECTORY ${podofo_prefix}/include)  # an imported target's include directory must exist
add_library(podofo STATIC IMPORTED)
set_target_properties(podofo PROPERTIES IMPORTED_LOCATION ${podofo_prefix}/lib/libpodofo.a
  INTERFACE_INCLUDE_DIRECTORIES ${podofo_prefix}/include)
add_dependencies(podofo podofo_build)

# Static archives, each after the ones that use it: PoDoFo needs FreeType (its font cache, which
# `stamp --rewrite` creates), libidn (AES-256 passwords), libunistring, libcrypto and zlib.
set(archives freetype png16 brotlidec brotlicommon bz2 idn unistring sodium icuuc icudata pugixml crypto z)
set(paths podofo)
foreach(name ${archives})
  find_library(PITH_ARCHIVE_${name} NAMES lib${name}.a REQUIRED)
  list(APPEND paths ${PITH_ARCHIVE_${name}})
endforeach()
target_link_libraries(pith_dependencies INTERFACE ${paths} PkgConfig::QRENCODE Threads::Threads ${CMAKE_DL_LIBS})
target_link_options(pith_dependencies INTERFACE -static-libstdc++ -static-libgcc)
