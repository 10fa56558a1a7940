# SPDX-License-Identifier: MIT
# `pith verify` tamper suite and CLI contract (included by tests/CMakeLists.txt).
# tests/verify/verify_suite.py holds every case; each runs as its own ctest. `verify_setup`
# (a fixture) makes a test key, signs examples/record.json, stamps examples/article.pdf and
# checks it is trusted; the other cases derive tampered files from that PDF.
set(PITH_VERIFY_WORK ${CMAKE_CURRENT_BINARY_DIR}/verify-work)
set(PITH_VERIFY_CORPUS ${PITH_TEST_CORPUS})  # tests/CMakeLists.txt: shared corpus, else tests/corpus/files

function(pith_verify_test case)
  add_test(NAME verify_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/verify/verify_suite.py
            --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} --work ${PITH_VERIFY_WORK}
            --corpus ${PITH_VERIFY_CORPUS} ${case})
  set_tests_properties(verify_${case} PROPERTIES TIMEOUT ${ARGN} LABELS "verify")
  if(case STREQUAL "setup")
    set_tests_properties(verify_${case} PROPERTIES FIXTURES_SETUP pith_verify_trusted)
  else()
    set_tests_properties(verify_${case} PROPERTIES FIXTURES_REQUIRED pith_verify_trusted)
  endif()
endfunction()

pith_verify_test(setup 120)
pith_verify_test(trusted 120)
# Tamper suite: each case its own code, state invalid, exit 1.
pith_verify_test(record_edited 120)            # canonical record in XMP -> pith.hash.mismatch (+ number, receipt)
pith_verify_test(record_broken 120)            # canonical record not JSON -> pith.record.malformed
pith_verify_test(hash_edited 120)
pith_verify_test(badge_redrawn 120)            # pith's badge drawn otherwise than pith:badge says -> pith.badge.drawing.mismatch              # pith:canonicalSha256 -> pith.hash.mismatch only
pith_verify_test(number_edited 120)            # pith:number -> pith.number.mismatch (+ links)
pith_verify_test(number_edited_everywhere 120) # XMP, Info and link alike -> pith.number.mismatch only
pith_verify_test(link_changed 120)             # badge /URI to another number -> pith.links.mismatch
pith_verify_test(signature_flipped 120)        # one signature byte -> receipt.invalid
pith_verify_test(key_swapped 120)              # keyring's test-key holds another key -> receipt.invalid
pith_verify_test(key_revoked 120)              # revoked or expired key -> unverified (receipt.key_revoked / key_outside_validity)
pith_verify_test(prior_modified 120)           # a byte before pith's update -> pith.prior.mismatch
pith_verify_test(title_differs 180)            # paper A's record stamped on paper B -> pith.title.differs
pith_verify_test(title_glance 180)             # stamp: a glance, then the renders for what it does not find
pith_verify_test(title_after_front_matter 180) # cover + highlights, then the title on page 3; a borrowed title on page 2
pith_verify_test(page_appended 120)            # update adding a page -> pith.changed.page_tree
pith_verify_test(content_replaced 120)         # update replacing page content -> pith.changed.content
pith_verify_test(badge_text_changed 120)       # update redrawing the badge with another number -> pith.badge.text.mismatch + pith.changed.resource
pith_verify_test(metadata_stripped 120)        # catalog without /Metadata, Info without /PithNumber -> pith.metadata.absent
pith_verify_test(later_revision_ok 120)        # a Text annotation added later -> trusted + pith.changes.after; over the badge -> pith.changed.annotation
# States, exit codes, options, output.
pith_verify_test(absent 120)
pith_verify_test(absent_corpus 600)
pith_verify_test(seeds_unverified 300)
pith_verify_test(record_option 120)
pith_verify_test(several_files 300)
pith_verify_test(options_before_files 120)
pith_verify_test(no_color 180)
# Hostile XMP: no expansion, no network, a clear result, no crash, bounded time.
pith_verify_test(xmp_huge 600)
pith_verify_test(xmp_nested 600)
pith_verify_test(xmp_billion_laughs 300)
pith_verify_test(xmp_external_entity 300)
# Malformed corpus: never a crash or hang (any exit 0-4), and the issue's stricter rule (exit 2).
pith_verify_test(malformed_no_crash 1800)
pith_verify_test(malformed_exit2 1800)
pith_verify_test(installed 300)                 # cmake --install: pith finds pith-text.so, links no poppler
pith_verify_test(text_extraction_crash 120)    # poppler crash in its child -> pith.text.failed, invalid
pith_verify_test(badge_swallowed 120)          # content leaves an array open before the badge: not visible, unverified
# A stamped paper saved again by honest tools (issue 30): incremental edits stay trusted,
# rewrites are unverified (pith.rewritten), converters that drop the XMP unverified (pith.badge.only).
foreach(case countersign_pdfsig annotate_mutool xmp_exiftool rewrite_qpdf linearize_qpdf object_streams_qpdf rotate_qpdf clean_mutool
             clean_linearize_mutool rewrite_then_annotate ghostscript pdftocairo badge_only_title_differs
             badge_only_unknown writers writer_chromium)
  add_test(NAME resave_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/verify/resave_suite.py
            --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} ${case})
  set_tests_properties(resave_${case} PROPERTIES TIMEOUT 300 LABELS "verify")
endforeach()
# `pith verify --picture` (issue 34): the PNG and the HTML (in headless Chromium) outline every
# region of --json where its coordinates say, for a trusted paper, an attack and a qpdf rewrite;
# bad --picture paths are refused before any work, leaving no file.
foreach(case png html_chromium gallery_chromium errors)
  add_test(NAME verify_picture_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/verify/picture_test.py
            --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} --work ${PITH_VERIFY_WORK} ${case})
  set_tests_properties(verify_picture_${case} PROPERTIES TIMEOUT 120 LABELS "verify"
    FIXTURES_REQUIRED pith_verify_trusted)
endforeach()
# Chromium, the one tool a machine may well lack, skips (77) its own entries only; nothing else
# does: a missing tool, corpus or corpus file fails (CI allows no skip: .ci/allowed-skips).
set_tests_properties(resave_writer_chromium verify_picture_html_chromium verify_picture_gallery_chromium
                     PROPERTIES SKIP_RETURN_CODE 77)
