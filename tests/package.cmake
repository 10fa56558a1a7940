# SPDX-License-Identifier: MIT
# The Debian package (cmake/package.cmake): built by cpack from this build, installed with dpkg,
# pith used from /usr/bin, then purged, leaving nothing behind (tests/package/deb_test.py). It
# installs into the system, so it needs root (CI is root; elsewhere it says skipped).
add_test(NAME package_deb
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/package/deb_test.py
          --build ${CMAKE_BINARY_DIR} --source ${CMAKE_SOURCE_DIR} --work ${CMAKE_CURRENT_BINARY_DIR}/package-deb)
set_tests_properties(package_deb PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "package" RUN_SERIAL TRUE)
