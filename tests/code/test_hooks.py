#!/usr/bin/python3
"""The PITH_TEST_HOOKS build option, seen in the binaries (tests/code.cmake).

usage: test_hooks.py --pith PITH --hooks ON|OFF OBJECT...
- The pith binary holds the name of every test hook (PITH_TEST_*, PITH_BATCH_TEST_*) when built
  with PITH_TEST_HOOKS=ON, and none of them when built with OFF (as `strings pith | grep
  PITH_TEST` would show).
- OBJECT...: the source files that hold the hooks, compiled once more with PITH_TEST_HOOKS=0 by
  this test's target: they hold none of the names, whatever this build's option, so the
  option's effect is checked in every build.
Exit 0 pass, 1 fail.
"""
import argparse
import re
import sys

HOOKS = [b"PITH_TEST_PAGE_TEXT_CRASH", b"PITH_TEST_PLACEMENT_CRASH", b"PITH_TEST_PLACEMENT_HANG",
         b"PITH_BATCH_TEST_CRASH", b"PITH_BATCH_TEST_SEGV", b"PITH_BATCH_TEST_HANG",
         b"PITH_BATCH_TEST_SPIN", b"PITH_BATCH_TEST_MEMORY", b"PITH_BATCH_TEST_SLEEP"]
ANY_HOOK = re.compile(rb"PITH_(?:BATCH_)?TEST_[A-Z_]+")


def names(path):
    with open(path, "rb") as f:
        return sorted(set(ANY_HOOK.findall(f.read())))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--hooks", required=True)
    ap.add_argument("objects", nargs="+")
    args = ap.parse_args()
    on = args.hooks.upper() in ("ON", "1", "TRUE", "YES")
    bad = []
    found = names(args.pith)
    print("%s (PITH_TEST_HOOKS=%s): %s" % (args.pith, "ON" if on else "OFF",
                                           b" ".join(found).decode() or "no hook names"))
    if on and sorted(HOOKS) != found:
        bad.append("a hooks-ON pith should hold exactly %s" % b" ".join(sorted(HOOKS)).decode())
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
