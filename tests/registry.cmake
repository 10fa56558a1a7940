# SPDX-License-Identifier: MIT
# The registry client (pith fetch, keys, badge, --number/--arxiv, verify --online, batch manifests by
# number) against a local registry the test starts on 127.0.0.1 (tests/registry/registry_server.py);
# nothing leaves the loopback address. Without Chromium badge_chromium skips (77); any other missing
# tool (openssl, xmllint, mutool) fails.
foreach(case fetch_good cache hostile proxy tls new_user seeds_key_unknown no_network batch_1000 badge_svg badge_chromium)
  add_test(NAME registry_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/registry/registry_suite.py
            --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} ${case})
  set_tests_properties(registry_${case} PROPERTIES TIMEOUT 600 LABELS "registry")
endforeach()
set_tests_properties(registry_badge_chromium PROPERTIES SKIP_RETURN_CODE 77)
