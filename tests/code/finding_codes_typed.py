#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A finding code that is not one of src/core/finding_codes.hpp's constants does not compile, nor a
region's kind or outcome that is not one of src/core/findings.hpp's.

Compiles (syntax only, one unit) a statement per line: a call of Findings::fail with the
constant, and a region with typed kind and outcome, which must compile (so that the include path
and flags are right); the code as a string literal, as a std::string and as a misspelt constant,
a region's kind or outcome as a string or misspelt, and a finding made or compared with a string,
each of which the compiler must reject on its line.

usage: finding_codes_typed.py --cxx COMPILER --source SRC --scratch DIR
"""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import compiles  # noqa: E402

CASES = [  # (statement, compiles)
    ('f.fail(pith::finding::pith_hash_mismatch, "planted")', True),
    ('f.fail("pith.hash.mismatch", "planted")', False),
    ('f.fail(std::string("pith.hash.mismatch"), "planted")', False),
    ('f.fail(pith::finding::pith_hash_mismacth, "planted")', False),
    ('f.regions.push_back({1, 0, 0, 9, 9, pith::RegionKind::Annotation, pith::RegionOutcome::Fail, "planted"})', True),
    ('f.regions.push_back({1, 0, 0, 9, 9, "annotation", pith::RegionOutcome::Fail, "planted"})', False),
    ('f.regions.push_back({1, 0, 0, 9, 9, pith::RegionKind::Anotation, pith::RegionOutcome::Fail, "planted"})', False),
    ('f.regions.push_back({1, 0, 0, 9, 9, pith::RegionKind::Annotation, "fail", "planted"})', False),
    ('f.regions.back().kind == "title"', False),
    # A finding's code stays typed after it is made: read back, it compares with constants only.
    ('f.failure.push_back({pith::finding::pith_hash_mismatch, "planted"})', True),
    ('f.failure.push_back({"pith.hash.mismatch", "planted"})', False),
    ('f.failure.back().code == pith::finding::pith_hash_mismatch', True),
    ('f.failure.back().code == "pith.hash.mismatch"', False),
    ('f.failure.back().code = std::string("pith.hash.mismatch")', False),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--scratch", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.scratch, ignore_errors=True)
    results, errors = compiles.verdicts(args.cxx, args.source, args.scratch, "core/findings.hpp", "void emit(pith::Findings& f)",
                                        [statement for statement, _ in CASES])
    failed = 0
    for (statement, ok), (_, expected) in zip(results, CASES):
        print(f"{statement}: {'compiles' if ok else 'rejected'}")
        failed += ok != expected
    if failed:
        print(f"expected only the constants to compile; the compiler said:\n{errors}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
