#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Timings of publisher-signed stamping: pith stamp unsigned, signed with RSA 3072 and with ECDSA
P-256 (pith stamp --sign-cert/--sign-key), and the checks of the signed output: pdfsig (poppler +
NSS, the signature only) and pith verify --trust (every pith check and the signature).

Same method as bench/bench.py (whose helpers it uses): rounds of one run of every command per
file, best wall time and that run's peak RSS, with a column's time as a multiple of the
unsigned stamp's (stamping) or of pith verify's (checking). A test PKI is made with openssl.
Usage:
    bench/sign_bench.py --pith build/pith [PDF ...]
Without PDFs: the selection bench/bench.py uses (../shared/corpus, plus a large combined file).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import RECORD, ROOT, cell, corpus_passwords, default_files, run_rounds  # noqa: E402


def make_pki(work):
    def sh(*args):
        subprocess.run(args, check=True, capture_output=True)
    sh("openssl", "req", "-x509", "-newkey", "rsa:3072", "-nodes", "-keyout", str(work / "ca.key"), "-out", str(work / "ca.pem"),
       "-days", "30", "-subj", "/CN=Bench CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
    (work / "leaf.ext").write_text("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n")
    for name, newkey in (("rsa", ["-newkey", "rsa:3072"]), ("ec", ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"])):
        sh("openssl", "req", "-new", *newkey, "-nodes", "-keyout", str(work / f"{name}.key"), "-out", str(work / f"{name}.csr"),
           "-subj", f"/CN=Bench {name}")
        sh("openssl", "x509", "-req", "-in", str(work / f"{name}.csr"), "-CA", str(work / "ca.pem"), "-CAkey", str(work / "ca.key"),
           "-CAcreateserial", "-out", str(work / f"{name}.pem"), "-days", "30", "-extfile", str(work / "leaf.ext"))
        os.chmod(work / f"{name}.key", 0o600)
    db = work / "nssdb"
    db.mkdir()
    sh("certutil", "-N", "-d", f"sql:{db}", "--empty-password")
    sh("certutil", "-A", "-d", f"sql:{db}", "-n", "Bench CA", "-t", "CT,C,C", "-i", str(work / "ca.pem"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pith", default=str(ROOT / "build" / "pith"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("pdfs", nargs="*")
    args = ap.parse_args()
    for tool in ("openssl", "certutil", "pdfsig"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not installed (certutil: libnss3-tools)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        make_pki(work)
        passwords = corpus_passwords()
        files = [Path(p) for p in args.pdfs] or default_files(work)
        sign = {name: ["--sign-cert", str(work / f"{name}.pem"), "--sign-key", str(work / f"{name}.key")] for name in ("rsa", "ec")}
        print("STAMP (best of %d; time as a multiple of the unsigned stamp's) and CHECK THE SIGNED FILE (as a multiple of pith verify's)" % args.runs)
        print(f"{'file':30} {'MB':>6} | {'stamp':>20} | {'stamp --sign RSA':>20} | {'stamp --sign EC':>20} || "
              f"{'pith verify --trust':>20} | {'pdfsig':>20}")
        for f in files:
            pw = ["--password", passwords[f]] if passwords.get(f) else []
            outs = {k: work / f"out-{k}.pdf" for k in ("plain", "rsa", "ec")}
            # One record for every file: --no-title-check in all three, which differ only in signing.
            base = [args.pith, "stamp", str(f), "--record", str(RECORD), "--allow-damaged", "--no-title-check", *pw, "-o"]
            stamping = {"plain": (base + [str(outs["plain"])], (0,), outs["plain"]),
                        "rsa": (base + [str(outs["rsa"])] + sign["rsa"], (0,), outs["rsa"]),
                        "ec": (base + [str(outs["ec"])] + sign["ec"], (0,), outs["ec"])}
            best = run_rounds(stamping, args.runs)
            checking = {}
            if outs["rsa"].exists():
                checking = {"verify": ([args.pith, "verify", str(outs["rsa"]), "--allow-damaged", "--trust", str(work / "ca.pem"), *pw],
                                       (0, 1, 2, 3, 4), None),
                            "pdfsig": (["pdfsig", "-nssdir", f"sql:{work / 'nssdb'}", *(["-upw", passwords[f]] if passwords.get(f) else []),
                                        str(outs["rsa"])], range(256), None)}
            checked = run_rounds(checking, args.runs) if checking else {}
            plain, verify = best.get("plain"), checked.get("verify")
            row = [cell(plain, None), cell(best.get("rsa"), plain), cell(best.get("ec"), plain)]
            row += [cell(verify, None), cell(checked.get("pdfsig"), verify)]
            print(f"{f.name[:30]:30} {f.stat().st_size / 1e6:6.2f} | " + " | ".join(row[:3]) + " || " + " | ".join(row[3:]))


if __name__ == "__main__":
    main()
