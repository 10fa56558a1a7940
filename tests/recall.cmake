# SPDX-License-Identifier: MIT
# Recall on PDFs pith was never tuned to (tests/recall/README.md): TeX Live's own documentation,
# each stamped with a signed record of the title its metadata gives and page 1 prints, no
# override flag. ctest runs the covering sample tests/recall/sample.tsv lists (files the
# packages of .ci/packages-latex.txt install, with recommends): it fails when fewer files reach
# pith than recall_run.py's SAMPLE_COMPARED states, on a file stamp accepted that verify does not
# call trusted, and on a refusal in no named class; refusals in a named class are reported.
# The full run over every PDF of the doc tree is a separate command (doc/tests.md).
add_test(NAME recall_sample
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/recall/recall_run.py --sample --jobs 2
                 --pith $<TARGET_FILE:pith> --work ${CMAKE_CURRENT_BINARY_DIR}/recall-out/sample)
set_tests_properties(recall_sample PROPERTIES LABELS "recall" TIMEOUT 900)

# The classifier and the title check on measured messages, and a refusal no class knows planted
# (it must come out unclassified, which fails recall_sample). A second, no pith.
add_test(NAME recall_selftest COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/recall/recall_run.py --selftest)
set_tests_properties(recall_selftest PROPERTIES LABELS "recall" TIMEOUT 60)
