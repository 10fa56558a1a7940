#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pith's XMP properties are named once: the constants of src/xmp/xmp.hpp are exactly the names of
templates/pith-xmp.json (the schema pith.sty shares), in its order, and code can name a property
only by a constant.

Checks the constants against the schema file (and that the check notices a property renamed in
a copy of it), then compiles (syntax only, one unit) a read per
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
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import compiles  # noqa: E402

CASES = [  # (expression, compiles)
    ("pith::xmp::get(p, pith::xmp::property::priorLength)", True),
    ("pith::xmp::get(p, pith::xmp::property::priorLenght)", False),
    ('pith::xmp::get(p, "priorLength")', False),
    ('pith::xmp::get(p, {"priorLength"})', False),
    ('p["priorLength"]', False),
]
CONSTANT = re.compile(r'inline constexpr Property (\w+)\{"([^"]*)"\};')


def schema_problems(source, schema_file=None):
    schema_file = schema_file or os.path.join(source, "templates", "pith-xmp.json")
    schema = [p["name"] for p in json.load(open(schema_file))["properties"]]
    header = open(os.path.join(source, "src", "xmp", "xmp.hpp")).read()
    constants = CONSTANT.findall(header)
    problems = ["constant %s names \"%s\"" % (c, n) for c, n in constants if c != n]
    if [n for _, n in constants] != schema:
        problems.append("src/xmp/xmp.hpp's constants %s are not templates/pith-xmp.json's names %s"
                        % ([n for _, n in constants], schema))
    print("%d properties in templates/pith-xmp.json, %d constants in src/xmp/xmp.hpp" % (len(schema), len(constants)))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--scratch", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.scratch, ignore_errors=True)
    problems = schema_problems(args.source)
    # The check itself, on a schema file with one property renamed: it must say so.
    planted = json.load(open(os.path.join(args.source, "templates", "pith-xmp.json")))
    planted["properties"][0]["name"] += "Planted"
    os.makedirs(args.scratch)
    json.dump(planted, open(os.path.join(args.scratch, "planted.json"), "w"))
    if not schema_problems(args.source, os.path.join(args.scratch, "planted.json")):
        problems.append("a property renamed in the schema file went unnoticed")
    results, errors = compiles.verdicts(args.cxx, args.source, args.scratch, "xmp/xmp.hpp", "void read(pith::xmp::Properties& p)",
                                        ["(void)" + expression for expression, _ in CASES])
    for (expression, expected), (_, ok) in zip(CASES, results):
        print("%s: %s" % (expression, "compiles" if ok else "rejected"))
        if ok != expected:
            problems.append("%s %s" % (expression, "compiles" if ok else "does not compile"))
    for p in problems:
        print("problem:", p, file=sys.stderr)
    if problems and errors:
        print("the compiler said:\n" + errors, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
