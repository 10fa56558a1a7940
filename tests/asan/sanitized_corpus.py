#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds pith with AddressSanitizer and UBSan in its own build directory and runs stamp,
verify and extract on every corpus PDF (malformed ones included, also with --allow-damaged)
and on 60 mutations of two PDFs: no sanitizer report, no crash, no hang, no output left by
a failed stamp. Skipped (77) when the corpus is missing."""
import argparse
import os
import random
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
    for cmd in (["cmake", "-S", a.source, "-B", str(build), "-DPITH_SANITIZE=ON", "-DPITH_STATIC=OFF", "-DBUILD_TESTING=OFF",
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

    def run(label, args):
        nonlocal failures, runs
        runs += 1
        try:
            r = subprocess.run([pith] + args, capture_output=True, text=True, env=env, timeout=300)
        except subprocess.TimeoutExpired:
            failures += 1
            print(f"FAIL {label}: pith {args[0]} hung")
            return
        report = "AddressSanitizer" in r.stderr or "runtime error:" in r.stderr or "LeakSanitizer" in r.stderr
        if report or r.returncode < 0 or r.returncode in (98, 99):
            failures += 1
            print(f"FAIL {label}: pith {args[0]} exit {r.returncode}\n{r.stderr[-2500:]}")
        elif args[0] == "stamp" and r.returncode != 0 and out.exists():
            failures += 1
            print(f"FAIL {label}: a failed stamp left {out}")

    # Every corpus file; damaged ones are also read around (--allow-damaged), which is the
    # code that works hardest on bad input.
    for pdf in sorted(corpus.glob("*/*.pdf")):
        rel = str(pdf.relative_to(corpus))
        pw = ["--password", passwords[rel]] if passwords.get(rel) else []
        allow = ["--allow-damaged"] if rel.startswith("malformed/") else []
        run(rel, ["stamp", str(pdf), "--record", record, "-o", str(out), "--no-title-check"] + pw + allow)
        run(rel, ["verify", str(out if out.exists() else pdf)] + pw + allow)
        run(rel, ["extract", str(pdf)] + pw + allow)
        out.unlink(missing_ok=True)

    # Mutations (fixed seed) of a stamped and an unstamped file: bytes changed, cut out and
    # spliced in, PDF tokens inserted.
    stamped = build / "asan-stamped.pdf"
    subprocess.run([pith, "stamp", str(Path(a.source) / "examples" / "article.pdf"), "--record", record,
                    "-o", str(stamped)], capture_output=True, env=env)
    originals = [p.read_bytes() for p in (stamped, corpus / "valid" / "congress.pdf") if p.exists()]
    tokens = [b" ", b"\n", b"<<", b">>", b"[", b"]", b"R", b"0 0 R", b"endobj", b"stream", b"BT", b"(",
              b"/Linearized 1 /O 99", b"/Kids [1 0 R]", b"xref"]
    rng = random.Random(20261130)
    mutant = build / "asan-mutant.pdf"
    for i in range(60):
        data = bytearray(rng.choice(originals))
        for _ in range(rng.randint(1, 8)):
            k = rng.randrange(len(data))
            op = rng.random()
            if op < 0.5:
                data[k] = rng.randrange(256)
            elif op < 0.7:
                del data[k:k + rng.randint(1, 50)]
            elif op < 0.85:
                data[k:k] = rng.choice(tokens)
            else:
                data[k:k] = data[rng.randrange(len(data)):][:rng.randint(1, 200)]
        mutant.write_bytes(bytes(data))
        for args in (["stamp", str(mutant), "--record", record, "-o", str(out)],
                     ["stamp", str(mutant), "--record", record, "-o", str(out), "--allow-damaged"],
                     ["verify", str(mutant), "--allow-damaged"], ["extract", str(mutant)]):
            run(f"mutant {i}", args)
            out.unlink(missing_ok=True)
    print(f"{runs - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
