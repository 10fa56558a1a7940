#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds pith with AddressSanitizer and UBSan in its own build directory and runs stamp,
verify and extract on corpus PDFs (malformed ones also with --allow-damaged) and on 60
mutations of two PDFs: no sanitizer report, no crash, no hang, no output left by
a failed stamp; each corpus file stamps (exit 0) but those STAMP_REFUSED names (exit 2), and
verify reads what stamp wrote. The corpus is --corpus (tests/CMakeLists.txt's), held to
tests/corpus/counts.tsv: a missing corpus or file fails. CI runs a covering sample (sample()),
`--full` every file."""
import argparse
import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "corpus"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))
import manifest  # noqa: E402
from pithrun import DAMAGED_CORPUS_FILES  # noqa: E402

# Corpus files pith stamp refuses (exit 2) with their password and, for malformed/ and damaged
# ones, --allow-damaged: verify reads the input of these; every other file must stamp.
STAMP_REFUSED = {
    "encrypted/pyhanko-minimal-pubkey-aes256.pdf": "public-key encryption (/Adobe.PubSec)",
    "signed/certified-with-indirect-refs-in-dir.pdf": "certified (DocMDP), needs --force",
    "signed/qpdf-acrobat-sign-restricted.pdf": "certified (DocMDP), needs --force",
    "signed/verapdf-a2b-6-1-12-t02-pass-a-signed.pdf": "certified (DocMDP), needs --force",
    "signed/verapdf-a4-6-1-11-t01-pass-a-signed.pdf": "certified (DocMDP), needs --force",
    "malformed/DERIVED-minimal-document-truncated-tail.pdf": "no catalog in what remains",
    "malformed/broken-objstream1.pdf": "an object missing from its object stream",
    "malformed/circular-page-tree.pdf": "page tree loops before a page",
    "malformed/issue-146.pdf": "truncated: no catalog",
    "malformed/issue-99.pdf": "no catalog",
    "malformed/minimal-aes256-malformed-perms.pdf": "AES-256 with a malformed /Perms",
    "malformed/qpdf-bad1-5-bytes.pdf": "no %PDF- header",
    "malformed/qpdf-fuzz-388571629.pdf": "no catalog",
    "malformed/qpdf-fuzz-69977a.pdf": "no %PDF- header",
    "malformed/qpdf-fuzz-69977d.pdf": "no startxref and no objects",
    "malformed/issue-117.pdf": "content numbers parsers read differently (\"2`1\"): off the closed list",
    "signed/pikepdf-form_210966-designer-signed.pdf": "an XFA form: off the closed list",
    "encrypted/pikepdf-form_dd0293-designer-aes.pdf": "an XFA form: off the closed list",
    "valid/podofo-TestIndexedRGB-pdfcreator.pdf": "document-level JavaScript: off the closed list",
    "encrypted/qpdf-enc-R6-U=view-attachments-cleartext-metadata.pdf": "Acrobat's attachment notice, a script: off the closed list",
    "encrypted/encrypted_doc_no_id.pdf": "page 1 has actions on events (/AA): off the closed list",
    "malformed/issue-297.pdf": "an open action that runs JavaScript: off the closed list",
    "valid/ctm_cm.pdf": "`0 cm`, an operator given too few operands: off the closed list",
}


def sample(files):
    """The files CI runs: every malformed, encrypted, damaged or refused file (the hostile input and
    the refusals, where a reader works hardest), and every third of the others, by name."""
    hostile = [f for f in files if f.startswith(("malformed/", "encrypted/")) or f in DAMAGED_CORPUS_FILES or f in STAMP_REFUSED]
    rest = [f for f in files if f not in hostile]
    return sorted(hostile + rest[::3])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--full", action="store_true", help="every corpus file, not CI's sample")
    a = ap.parse_args()
    rows = manifest.load(os.path.join(os.environ["PITH_SHARED"], "corpus") if os.environ.get("PITH_SHARED") else a.corpus)
    corpus = Path(rows.root)
    build = Path(a.build)
    # Linked as a fixed-address executable: a position-independent one spends half of each run's
    # start relocating the sanitizers' tables (1.7 million relocations), and this runs pith 520 times.
    for cmd in (["cmake", "-S", a.source, "-B", str(build), "-DPITH_SANITIZE=ON", "-DPITH_STATIC=OFF", "-DBUILD_TESTING=OFF",
                 "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_EXE_LINKER_FLAGS=-no-pie"],
                ["cmake", "--build", str(build), "--target", "pith", "-j", str(os.cpu_count() or 2)]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL: {' '.join(cmd)}\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
            return 1
    pith = str(build / "pith")
    record = str(Path(a.source) / "examples" / "record.json")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=98")
    out = build / "asan-out.pdf"
    failures = runs = 0

    def run(label, args):
        """pith's exit status, None when it hung."""
        nonlocal failures, runs
        runs += 1
        try:
            r = subprocess.run([pith] + args, capture_output=True, text=True, env=env, timeout=300)
        except subprocess.TimeoutExpired:
            failures += 1
            print(f"FAIL {label}: pith {args[0]} hung")
            return None
        report = "AddressSanitizer" in r.stderr or "runtime error:" in r.stderr or "LeakSanitizer" in r.stderr
        if report or r.returncode < 0 or r.returncode in (98, 99):
            failures += 1
            print(f"FAIL {label}: pith {args[0]} exit {r.returncode}\n{r.stderr[-2500:]}")
        elif args[0] == "stamp" and r.returncode != 0 and out.exists():
            failures += 1
            print(f"FAIL {label}: a failed stamp left {out}")
        return r.returncode

    # Every corpus file; damaged ones are also read around (--allow-damaged), which is the
    # code that works hardest on bad input.
    refused = 0
    chosen = {r["file"] for r in rows.rows()} if a.full else set(sample([r["file"] for r in rows.rows()]))
    for row in sorted(rows.rows(), key=lambda r: r["file"]):
        rel, pdf = row["file"], rows.path(row)
        if rel not in chosen:
            continue
        pw = ["--password", row["password"]] if row["password"] else []
        allow = ["--allow-damaged"] if rel.startswith("malformed/") or rel in DAMAGED_CORPUS_FILES else []
        rc = run(rel, ["stamp", pdf, "--record", record, "-o", str(out), "--no-title-check"] + pw + allow)
        want = 2 if rel in STAMP_REFUSED else 0
        if rc != want or (rc == 0) != out.exists():
            failures += 1
            print(f"FAIL {rel}: pith stamp exit {rc} (expected {want}: STAMP_REFUSED), output {'written' if out.exists() else 'absent'}")
        refused += rc == 2
        # verify reads what stamp wrote; the input only of a file stamp is expected to refuse.
        run(rel, ["verify", str(out) if want == 0 else pdf] + pw + allow)
        run(rel, ["extract", pdf] + pw + allow)
        out.unlink(missing_ok=True)
    print(f"{len(chosen)} of {len(rows.rows())} corpus files ({rows.kind} corpus{'' if a.full else ', sample'}): "
          f"{refused} refused by stamp as STAMP_REFUSED says")

    # Mutations (fixed seed) of a stamped and an unstamped file: bytes changed, cut out and
    # spliced in, PDF tokens inserted.
    stamped = build / "asan-stamped.pdf"
    if run("article.pdf", ["stamp", str(Path(a.source) / "examples" / "article.pdf"), "--record", record,
                           "-o", str(stamped)]) != 0:
        print("FAIL: examples/article.pdf does not stamp: no mutants of a stamped file")
        return 1
    originals = [p.read_bytes() for p in (stamped, corpus / "valid" / "congress.pdf")]  # congress.pdf: in both corpora
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
