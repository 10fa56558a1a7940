# SPDX-License-Identifier: MIT
"""Attack files: other papers' titles below A's title in its type (a contents page, a page of two
abstracts), stamped with A's record. pith lets a line below the title in its type through
(honest pages set authors, dates and translations there), so these verify `trusted`: not in the
default build until a rule tells them apart (`build_attacks.py --only headings_same_type`,
counts in expected_counts_words.json). Built by headings.build_same_type()."""
import headings


def build(b, a):
    headings.build_same_type(b)
