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
import re
import shutil
import subprocess
import sys

CASES = [  # (argument, compiles)
    ("pith::finding::pith_hash_mismatch", True),
    ('"pith.hash.mismatch"', False),
    ('std::string("pith.hash.mismatch")', False),
    ("pith::finding::pith_hash_mismacth", False),
]
FIRST_LINE = 3  # of the calls, in the unit below


def rejected_lines(cxx, source, scratch):
    unit = os.path.join(scratch, "unit.cpp")
    with open(unit, "w") as f:
        f.write('#include "core/findings.hpp"\n'
                "void emit(pith::Findings& f) {\n")
        for argument, _ in CASES:
            f.write("    f.fail(%s, \"planted\");\n" % argument)
        f.write("}\n")
    r = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", "-I", os.path.join(source, "src"), unit],
                       capture_output=True, text=True, timeout=300)
    return {int(n) for n in re.findall(r"unit\.cpp:(\d+):\d+: error", r.stderr)}, r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--scratch", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.scratch, ignore_errors=True)
    os.makedirs(args.scratch)
    rejected, errors = rejected_lines(args.cxx, args.source, args.scratch)
    failed = 0
    for i, (argument, expected) in enumerate(CASES):
        ok = FIRST_LINE + i not in rejected
        print(f"f.fail({argument}, ...): {'compiles' if ok else 'rejected'}")
        failed += ok != expected
    if failed:
        print(f"expected only the constant to compile; the compiler said:\n{errors}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
