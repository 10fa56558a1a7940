# SPDX-License-Identifier: MIT
"""Attack files: a relation sign or an exponent of the record's title drawn otherwise (words.py's
words-sign and words-exponent). pith leaves formulas and symbols out of the title's comparison
with the pixels, so these verify `trusted`: not in the default build until it reads them
(`build_attacks.py --only formulas,headings_same_type`, counts in expected_counts_words.json)."""
import words


def build(b, a):
    words.build_formulas(b, a)
