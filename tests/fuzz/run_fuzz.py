#!/usr/bin/env python3
"""Builds a fuzz target of tests/fuzz with clang (libFuzzer, ASan, UBSan) and fuzzes it.

usage: run_fuzz.py --source SRC --work DIR --target NAME [--seconds N]
  content_lexer  pith::pdf::ContentLexer (src/pdf/content.cpp) on any bytes
  object_lexer   pith::pdf::Lexer against PoDoFo's tokenizer (Debian's libpodofo, pkg-config)
  reader         the PDF reader on whole files (open, revisions, page 1, its check and text)
Starts from the seeds in tests/fuzz/seeds/NAME (for reader, also the corpus files under 24 KB
where ../shared/corpus is present). Exit 0 when N seconds pass with no crash and no
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
    ap.add_argument("--target", required=True, choices=["content_lexer", "object_lexer", "reader"])
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
    shared_corpus = os.path.join(os.environ.get("PITH_SHARED", os.path.join(args.source, "..", "shared")), "corpus")
    if args.target == "reader" and os.path.isdir(shared_corpus):
        for folder, _, names in os.walk(shared_corpus):
            for name in names:
                path = os.path.join(folder, name)
                if name.endswith(".pdf") and os.path.getsize(path) < 24 << 10:
                    shutil.copy(path, os.path.join(corpus, os.path.basename(folder) + "-" + name))
    target = os.path.join(args.work, args.target + "_fuzz")
    sources = [os.path.join(args.source, "tests", "fuzz", args.target + "_fuzz.cpp")]
    flags, options = [], ["-max_len=4096"]
    if args.target == "content_lexer":
        sources.append(os.path.join(args.source, "src", "pdf", "content.cpp"))
    else:
        packages = ["libpodofo"] + (["libsodium", "icu-uc", "zlib", "libcrypto"] if args.target == "reader" else [])
        found = subprocess.run(["pkg-config", "--cflags", "--libs", *packages], capture_output=True, text=True)
        if found.returncode != 0:
            print("FAIL: pkg-config: " + found.stderr.strip())
            return 1
        flags = found.stdout.split() + ["-lpthread"]
    if args.target == "reader":
        src = os.path.join(args.source, "src")
        sources += [os.path.join(src, "pdf", n) for n in sorted(os.listdir(os.path.join(src, "pdf"))) if n.endswith(".cpp")]
        sources += [os.path.join(src, "core", n) for n in ("cpus.cpp", "files.cpp", "crypto.cpp", "text.cpp")]
        # PoDoFo leaks a few bytes on some errors (not pith's to fix); PDFs are larger than lexer inputs.
        options = ["-max_len=65536", "-detect_leaks=0", "-timeout=20", "-rss_limit_mb=4096"]
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
    env = dict(os.environ)
    if "-detect_leaks=0" in options:  # that flag stops libFuzzer's checks, not LeakSanitizer's at exit
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS", ""), "detect_leaks=0"]))
    run = subprocess.run([target, "-max_total_time=%d" % args.seconds, *options,
                          "-artifact_prefix=" + args.work + "/", corpus],
                         capture_output=True, text=True, timeout=args.seconds + 300, env=env)
    summary = re.search(r"Done \d+ runs in \d+ second", run.stderr)
    if run.returncode != 0:
        print("FAIL: %s under libFuzzer (input saved in %s):\n%s" % (args.target, args.work, run.stderr[-4000:]))
        return 1
    print("%s: %s(s), no crash, no sanitizer report" % (args.target, summary.group(0) if summary else "fuzzed"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
