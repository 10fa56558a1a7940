# SPDX-License-Identifier: MIT
# The Debian package (doc/build.md, "The Debian package"): what `cmake --install` installs, under
# /usr, with the shared libraries it links declared by dpkg-shlibdeps and Tesseract's English
# data, which pith-ocr.so loads at run time. `cpack --config build/CPackConfig.cmake` in any
# build directory; a release package comes from a build without test hooks.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pith)
set(CPACK_PACKAGE_VENDOR "pith")
set(CPACK_PACKAGE_CONTACT "pith maintainers <maintainers@pith.science>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "put a verifiable Pith number on scientific papers, and check one")
set(CPACK_PACKAGE_DESCRIPTION "pith stamps a paper's Pith number, the content address of its canonical
metadata record, into a finished PDF as metadata and a linked badge, and checks
one: the record, the registry's Ed25519 receipt, the badge and the title the
first page shows. The package also holds pith.sty, the LaTeX package that prints
the number in a paper.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # pith_VERSION_ARCH.deb
set(CPACK_STRIP_FILES ON)               # debug information stays in the build
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://pith.science")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The languages whose data reads accented Latin letters are recommended: without them a title
# with such a letter is not confirmed.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "tesseract-ocr-eng")
string(CONCAT CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "tesseract-ocr-deu, tesseract-ocr-fra, tesseract-ocr-hun, tesseract-ocr-spa, tesseract-ocr-dan, tesseract-ocr-isl, "
    "tesseract-ocr-ces, tesseract-ocr-pol, tesseract-ocr-por, tesseract-ocr-tur, tesseract-ocr-ron")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "texlive-latex-base, tesseract-ocr-chi-sim, tesseract-ocr-chi-tra, tesseract-ocr-jpn, tesseract-ocr-kor, tesseract-ocr-rus, tesseract-ocr-ell, tesseract-ocr-ara, tesseract-ocr-heb, tesseract-ocr-hin")
# TeX finds pith.sty in /usr/share/texmf once its file list is renewed.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${CMAKE_SOURCE_DIR}/cmake/deb/postinst;${CMAKE_SOURCE_DIR}/cmake/deb/postrm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
