#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pith's XMP properties are named once: the constants of src/xmp/xmp.hpp are exactly the names of
templates/pith-xmp.json (the schema pith.sty shares), in its order, and code can name a property
only by a constant.

Checks the constants against the schema file, then compiles (syntax only, one unit) a read per
line: by a constant, which must compile (so that the include path and flags are right), and by a
misspelt constant, a string literal and a map subscript, each of which the compiler must reject
on its line.

usage: xmp_properties.py --cxx COMPILER --source SRC --scratch DIR
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

CASES = [  # (expression, compiles)
    ("pith::xmp::get(p, pith::xmp::property::priorLength)", True),
    ("pith::xmp::get(p, pith::xmp::property::priorLenght)", False),
    ('pith::xmp::get(p, "priorLength")', False),
    ('pith::xmp::get(p, {"priorLength"})', False),
    ('p["priorLength"]', False),
]
FIRST_LINE = 3  # of the reads, in the unit below
CONSTANT = re.compile(r'inline constexpr Property (\w+)\{"([^"]*)"\};')


def schema_problems(source):
    schema = [p["name"] for p in json.load(open(os.path.join(source, "templates", "pith-xmp.json")))["properties"]]
    header = open(os.path.join(source, "src", "xmp", "xmp.hpp")).read()
    constants = CONSTANT.findall(header)
    problems = ["constant %s names \"%s\"" % (c, n) for c, n in constants if c != n]
    if [n for _, n in constants] != schema:
        problems.append("src/xmp/xmp.hpp's constants %s are not templates/pith-xmp.json's names %s"
                        % ([n for _, n in constants], schema))
    print("%d properties in templates/pith-xmp.json, %d constants in src/xmp/xmp.hpp" % (len(schema), len(constants)))
    return problems


def rejected_lines(cxx, source, scratch):
    unit = os.path.join(scratch, "unit.cpp")
    with open(unit, "w") as f:
        f.write('#include "xmp/xmp.hpp"\n'
                "void read(pith::xmp::Properties& p) {\n")
        for expression, _ in CASES:
            f.write("    (void)%s;\n" % expression)
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
    problems = schema_problems(args.source)
    rejected, errors = rejected_lines(args.cxx, args.source, args.scratch)
    for i, (expression, expected) in enumerate(CASES):
        compiles = FIRST_LINE + i not in rejected
        print("%s: %s" % (expression, "compiles" if compiles else "rejected"))
        if compiles != expected:
            problems.append("%s %s" % (expression, "compiles" if compiles else "does not compile"))
    for p in problems:
        print("problem:", p, file=sys.stderr)
    if problems and errors:
        print("the compiler said:\n" + errors, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
