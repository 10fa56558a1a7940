#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A finding code that is not one of src/core/finding_codes.hpp's constants does not compile.

Compiles (syntax only, one unit) a call of Findings::fail per line: with the constant, which must
compile (so that the include path and flags are right), and with the code as a string literal, as
a std::string and as a misspelt constant, each of which the compiler must reject on its line.

usage: finding_codes_typed.py --cxx COMPILER --source SRC --scratch DIR
"""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import compiles  # noqa: E402

CASES = [  # (argument, compiles)
    ("pith::finding::pith_hash_mismatch", True),
    ('"pith.hash.mismatch"', False),
    ('std::string("pith.hash.mismatch")', False),
    ("pith::finding::pith_hash_mismacth", False),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--scratch", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.scratch, ignore_errors=True)
    results, errors = compiles.verdicts(args.cxx, args.source, args.scratch, "core/findings.hpp", "void emit(pith::Findings& f)",
                                        ['f.fail(%s, "planted")' % argument for argument, _ in CASES])
    failed = 0
    for (statement, ok), (_, expected) in zip(results, CASES):
        print(f"{statement}: {'compiles' if ok else 'rejected'}")
        failed += ok != expected
    if failed:
        print(f"expected only the constant to compile; the compiler said:\n{errors}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
