#!/usr/bin/env python3
"""Builds pith with AddressSanitizer and UBSan in its own build directory and runs stamp,
verify and extract on every corpus PDF (malformed ones included): no sanitizer report, no
crash, no hang. Skipped (77) when the corpus is missing."""
import argparse
import os
import subprocess
import sys
from pathlib import Path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--shared", required=True)
    a = ap.parse_args()
    corpus = Path(os.environ.get("PITH_SHARED", a.shared)) / "corpus"
    if not corpus.is_dir():
        print(f"corpus not found at {corpus}; skipping the sanitizer run")
        return 77
    build = Path(a.build)
    for cmd in (["cmake", "-S", a.source, "-B", str(build), "-DPITH_SANITIZE=ON", "-DBUILD_TESTING=OFF",
                 "-DCMAKE_BUILD_TYPE=Debug"],
                ["cmake", "--build", str(build), "--target", "pith", "-j", str(os.cpu_count() or 2)]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL: {' '.join(cmd)}\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
            return 1
    pith = str(build / "pith")
    record = str(Path(a.source) / "examples" / "record.json")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=98")
    passwords = {}
    for line in (corpus / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        cols = line.split("\t")
        passwords[cols[0]] = cols[7]
    out = build / "asan-out.pdf"
    failures = runs = 0
    for pdf in sorted(corpus.glob("*/*.pdf")):
        rel = str(pdf.relative_to(corpus))
        pw = ["--password", passwords[rel]] if passwords.get(rel) else []
        for args in (["stamp", str(pdf), "--record", record, "-o", str(out)] + pw,
                     ["verify", str(out if out.exists() else pdf)] + pw,
                     ["extract", str(pdf)] + pw):
            runs += 1
            try:
                r = subprocess.run([pith] + args, capture_output=True, text=True, env=env, timeout=300)
            except subprocess.TimeoutExpired:
                failures += 1
                print(f"FAIL {rel}: pith {args[0]} hung")
                continue
            report = "AddressSanitizer" in r.stderr or "runtime error:" in r.stderr or "LeakSanitizer" in r.stderr
            if report or r.returncode < 0 or r.returncode in (98, 99):
                failures += 1
                print(f"FAIL {rel}: pith {args[0]} exit {r.returncode}\n{r.stderr[-2500:]}")
        out.unlink(missing_ok=True)
    print(f"{runs - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
