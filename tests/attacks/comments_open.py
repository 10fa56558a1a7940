# SPDX-License-Identifier: MIT
"""Attack files kept out of the default build (`build_attacks.py --only comments_open`, counts in
expected_counts_comments.json): comments appended after the stamp that pith accepts today
(`trusted`, pith.changes.after) though their appearance strokes the word RETRACTED above the
title or over the abstract, or is not what a viewer draws from the comment's own data (an ink
list of one short stroke, a highlight's quad points that poppler redraws as a box where MuPDF and
Ghostscript draw the word). They join the default build with the rule that catches them (issue
42, class 4). Built by comments_drawn.build_open()."""
import comments_drawn

CHECKS = comments_drawn.CHECKS


def build(b, a):
    comments_drawn.build_open(b)
