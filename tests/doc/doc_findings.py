#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every finding code in pith's checks is listed in doc/findings.md.

Codes are the string literals of src/verify, src/core and src/sign in the namespaces pith's
findings use (pith., record., receipt., stamp., signature., keyring.). A code is listed when
doc/findings.md names it in full (`pith.hash.match`), in a row's shorthand
(`pith.hash.match` / `.mismatch`: a line holding `pith.hash.` and `.mismatch`), or under a
wildcard (`signature.*`). `--self-test` checks the checker on a scratch tree.
"""
import argparse
import glob
import os
import re
import shutil
import sys

CODE = re.compile(r'"((?:pith|record|receipt|stamp|signature|keyring)\.[a-z_]+(?:\.[a-z_]+)*)"')


def source_codes(source):
    codes = set()
    for d in ("verify", "core", "sign"):
        for f in glob.glob(os.path.join(source, "src", d, "*.[ch]pp")):
            if os.path.basename(f) == "error.hpp":
                continue  # error codes, listed in doc/errors.md (cli_error_codes checks those)
            codes.update(CODE.findall(open(f, encoding="utf-8").read()))
    return codes


def listed(code, lines):
    prefix, _, last = code.rpartition(".")
    for line in lines:
        if f"`{code}`" in line or f"`{prefix}.*`" in line:
            return True
        if f"`{prefix}." in line and f"`.{last}`" in line:
            return True
    return False


def check(source):
    lines = open(os.path.join(source, "doc", "findings.md"), encoding="utf-8").read().split("\n")
    codes = source_codes(source)
    return codes, sorted(c for c in codes if not listed(c, lines))


def self_test(scratch):
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.join(scratch, "src", "verify"))
    os.makedirs(os.path.join(scratch, "doc"))
    open(os.path.join(scratch, "src", "verify", "v.cpp"), "w").write(
        'f.ok("pith.hash.match"); f.fail("pith.hash.mismatch"); f.info("signature.other");\n'
        'f.fail("pith.title.hidden"); f.fail("pith.link.host"); f.info("pdf.damaged");\n')
    open(os.path.join(scratch, "doc", "findings.md"), "w").write(
        "| `pith.hash.match` / `.mismatch` | x |\n| `signature.*` | y |\n| `pith.title.hidden` | z |\n")
    codes, missing = check(scratch)
    print(f"self-test: {len(codes)} codes, not listed: {missing}")
    return 0 if missing == ["pith.link.host"] and len(codes) == 5 else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--self-test", metavar="SCRATCH")
    args = ap.parse_args()
    if args.self_test:
        return self_test(args.self_test)
    codes, missing = check(args.source)
    print(f"{len(codes)} finding codes in src/verify, src/core, src/sign; {len(missing)} not in doc/findings.md")
    for c in missing:
        print(f"not listed in doc/findings.md: {c}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
