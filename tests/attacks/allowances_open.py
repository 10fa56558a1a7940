# SPDX-License-Identifier: MIT
"""Attack files on the title judgement's allowances that verify `trusted` today (allowances.py
builds them): a logo's word drawn as another word (the pixels are not asked to read a logo) and a
logo's lowered vowel OCR reads as a consonant. Not in the default build until
the judgement catches them (`build_attacks.py --only allowances_open`, counts in
expected_counts_allowances_open.json)."""
import allowances


def build(b, a):
    allowances.build_open(b)
