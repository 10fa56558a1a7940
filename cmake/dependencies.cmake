# SPDX-License-Identifier: MIT
# The libraries pith's core links against, as one target: pith_dependencies.
#
# Default (PITH_STATIC=OFF): Debian's shared libraries (libpodofo-dev, libssl-dev, libicu-dev,
# libsodium-dev, libpugixml-dev, zlib1g-dev), found with pkg-config and CMake's modules. No
# network access during configure or build; security updates of OpenSSL, zlib and ICU reach pith
# with the system's. Costs ~3 ms more at each start than the static build (doc/build.md).
#
# PITH_STATIC=ON, for release binaries: all but glibc and libqrencode (Debian ships no
# libqrencode.a) linked statically: PoDoFo built from a LOCAL copy of Debian 12's source
# tarball (PITH_PODOFO_TARBALL, checked against the SHA-256 in Debian's signed source index;
# nothing is downloaded), and Debian's own static archives of OpenSSL's libcrypto, ICU,
# libsodium, pugixml, zlib and libstdc++. Why: Debian ships PoDoFo only as a shared library that
# pulls in fontconfig, libtiff, libjpeg, libpng and a dozen more; mapping and relocating them
# costs ~3 ms of page faults at every start, more than `pdfinfo -meta` needs for a small PDF.
# PoDoFo is built without fontconfig, JPEG, TIFF and PNG, which pith never asks it for.
option(PITH_STATIC "Link PoDoFo (built from a local copy of Debian's source), OpenSSL, ICU, libsodium, pugixml, zlib and libstdc++ statically" OFF)
set(PITH_PODOFO_TARBALL "" CACHE FILEPATH
    "PITH_STATIC: a local copy of libpodofo_0.9.8+dfsg.orig.tar.xz (apt-get source libpodofo, or deb.debian.org/debian/pool/main/libp/libpodofo/)")
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

if(NOT PITH_PODOFO_TARBALL OR NOT EXISTS "${PITH_PODOFO_TARBALL}")
  message(FATAL_ERROR "PITH_STATIC=ON needs PoDoFo's source tarball on this machine (nothing is downloaded): "
    "-DPITH_PODOFO_TARBALL=/path/to/libpodofo_0.9.8+dfsg.orig.tar.xz (given: '${PITH_PODOFO_TARBALL}')")
endif()
file(SHA256 "${PITH_PODOFO_TARBALL}" podofo_sha256)
if(NOT podofo_sha256 STREQUAL PITH_PODOFO_SHA256)
  message(FATAL_ERROR "${PITH_PODOFO_TARBALL}: SHA-256 ${podofo_sha256}, not Debian's ${PITH_PODOFO_SHA256}")
endif()

include(ExternalProject)
set(podofo_prefix ${CMAKE_BINARY_DIR}/podofo)
ExternalProject_Add(podofo_build
  URL ${PITH_PODOFO_TARBALL}
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
