#!/usr/bin/env python3
"""Builds a fuzz target of tests/fuzz with clang (libFuzzer, ASan, UBSan) and fuzzes it.

usage: run_fuzz.py --source SRC --work DIR --target NAME [--seconds N]
  content_lexer  pith::pdf::ContentLexer (src/pdf/content.cpp) on any bytes
  object_lexer   pith::pdf::Lexer against PoDoFo's tokenizer (Debian's libpodofo, pkg-config)
Starts from the seeds in tests/fuzz/seeds/NAME. Exit 0 when N seconds pass with no crash and no
sanitizer report, 1 otherwise (the input is saved in DIR), 77 where clang or its libFuzzer
runtime is missing (Debian: clang-14, libclang-rt-14-dev).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--target", required=True, choices=["content_lexer", "object_lexer"])
    ap.add_argument("--seconds", type=int, default=60)
    args = ap.parse_args()
    clang = shutil.which("clang++") or shutil.which("clang++-14")
    if not clang:
        print("SKIP: no clang++ (Debian: clang-14, libclang-rt-14-dev)")
        return 77
    corpus = os.path.join(args.work, "corpus")
    os.makedirs(corpus, exist_ok=True)
    seeds = os.path.join(args.source, "tests", "fuzz", "seeds", args.target)
    for name in os.listdir(seeds):
        shutil.copy(os.path.join(seeds, name), corpus)
    target = os.path.join(args.work, args.target + "_fuzz")
    sources = [os.path.join(args.source, "tests", "fuzz", args.target + "_fuzz.cpp")]
    flags = []
    if args.target == "content_lexer":
        sources.append(os.path.join(args.source, "src", "pdf", "content.cpp"))
    else:
        podofo = subprocess.run(["pkg-config", "--cflags", "--libs", "libpodofo"], capture_output=True, text=True)
        if podofo.returncode != 0:
            print("FAIL: pkg-config finds no libpodofo (Debian: libpodofo-dev)")
            return 1
        flags = podofo.stdout.split()
    build = subprocess.run([clang, "-std=c++17", "-O1", "-g", "-fsanitize=fuzzer,address,undefined",
                            "-fno-sanitize-recover=undefined", "-I" + os.path.join(args.source, "src"),
                            *sources, *flags, "-o", target],
                           capture_output=True, text=True)
    if build.returncode != 0:
        if "clang_rt.fuzzer" in build.stderr or "cannot find" in build.stderr:
            print("SKIP: clang has no libFuzzer runtime (Debian: libclang-rt-14-dev)\n" + build.stderr[-1000:])
            return 77
        print("FAIL: building the fuzz target:\n" + build.stderr[-3000:])
        return 1
    run = subprocess.run([target, "-max_total_time=%d" % args.seconds, "-max_len=4096",
                          "-artifact_prefix=" + args.work + "/", corpus],
                         capture_output=True, text=True, timeout=args.seconds + 300)
    summary = re.search(r"Done \d+ runs in \d+ second", run.stderr)
    if run.returncode != 0:
        print("FAIL: %s under libFuzzer (input saved in %s):\n%s" % (args.target, args.work, run.stderr[-4000:]))
        return 1
    print("%s: %s(s), no crash, no sanitizer report" % (args.target, summary.group(0) if summary else "fuzzed"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
