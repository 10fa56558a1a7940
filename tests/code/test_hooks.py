#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The PITH_TEST_HOOKS build option, seen in the binaries (tests/code.cmake).

usage: test_hooks.py --pith PITH --hooks ON|OFF --source SRC OBJECT...
- The pith binary holds the name of every test hook (the "PITH_TEST_*" and "PITH_BATCH_TEST_*"
  string literals in SRC/src) when built with PITH_TEST_HOOKS=ON, and none of them when built
  with OFF (as `strings pith | grep PITH_TEST` would show).
- OBJECT...: the source files that hold the hooks, compiled once more with PITH_TEST_HOOKS=0 by
  this test's target: they hold none of the names, whatever this build's option, so the
  option's effect is checked in every build.
Exit 0 pass, 1 fail.
"""
import argparse
import os
import re
import sys

ANY_HOOK = re.compile(rb"PITH_(?:BATCH_)?TEST_[A-Z_]+")


def names(path):
    with open(path, "rb") as f:
        return sorted(set(ANY_HOOK.findall(f.read())))


def hooks_in_sources(source):
    found = set()
    for root, _, files in os.walk(os.path.join(source, "src")):
        for name in files:
            if name.endswith((".cpp", ".hpp", ".h")):
                with open(os.path.join(root, name), "rb") as f:
                    found.update(re.findall(rb'"(PITH_(?:BATCH_)?TEST_[A-Z_]+)"', f.read()))
    return sorted(found)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--hooks", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("objects", nargs="+")
    args = ap.parse_args()
    on = args.hooks.upper() in ("ON", "1", "TRUE", "YES")
    bad = []
    hooks = hooks_in_sources(args.source)
    if len(hooks) < 2:
        bad.append("found %d test hooks in %s/src: expected the batch and poppler ones" % (len(hooks), args.source))
    found = names(args.pith)
    print("%s (PITH_TEST_HOOKS=%s): %s" % (args.pith, "ON" if on else "OFF",
                                           b" ".join(found).decode() or "no hook names"))
    if on and hooks != found:
        bad.append("a hooks-ON pith should hold exactly %s" % b" ".join(hooks).decode())
    if not on and found:
        bad.append("a hooks-OFF pith holds hook names")
    for path in args.objects:
        held = names(path)
        print("%s (PITH_TEST_HOOKS=0): %s" % (path, b" ".join(held).decode() or "no hook names"))
        if held:
            bad.append("%s, compiled with PITH_TEST_HOOKS=0, holds hook names" % path)
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
