#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A deliberately broken `pith`, to show that the suite's checks can fail.

usage: PITH_REAL=/path/to/pith PITH_MUTANT=NAME mutant_pith.py ARGS...
  (stamp_suite.py --pith accepts this script; it is executable)

NAME:
  rewrite      stamp, then rewrite the output with qpdf (not an incremental update any more)
  no-badge     stamp with --no-badge (no badge text, no link)
  corner       stamp top-right when bottom-left is asked and vice versa
  force        always pass --force (certified PDFs no longer refused)
  temp-left    on a failed stamp, leave a temp file next to the output
  multiline    on a failed stamp, print a two-line error
  no-pdfa      stamp, then remove the pdfaExtension schema text from the output's XMP (same length)
  verify-ok    verify always exits 0
"""
import os
import subprocess
import sys

real = os.environ["PITH_REAL"]
mutant = os.environ.get("PITH_MUTANT", "")
args = sys.argv[1:]


def out_path(a):
    for flag in ("-o", "--output"):
        if flag in a:
            return a[a.index(flag) + 1]
    return None


if args and args[0] == "stamp":
    if mutant == "no-badge":
        args.append("--no-badge")
    if mutant == "force":
        args.append("--force")
    if mutant == "corner" and "--corner" in args:
        i = args.index("--corner") + 1
        swap = {"top-right": "bottom-left", "bottom-left": "top-right"}
        args[i] = swap.get(args[i], args[i])
    p = subprocess.run([real] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sys.stdout.buffer.write(p.stdout)
    err = p.stderr
    out = out_path(args)
    if p.returncode != 0 and out:
        if mutant == "temp-left":
            open(out + ".tmp123", "w").close()
        if mutant == "multiline":
            err = err + b"  hint: something else\n"
    if p.returncode == 0 and out and mutant == "rewrite":
        subprocess.run(["qpdf", out, out + ".rw"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.replace(out + ".rw", out)
    if p.returncode == 0 and out and mutant == "no-pdfa":
        data = open(out, "rb").read()
        needle = b"https://pith.science/ns/xmp/1.0/</pdfaSchema:namespaceURI>"
        data = data.replace(needle, needle.replace(b"/1.0/", b"/9.9/"))
        open(out, "wb").write(data)
    sys.stderr.buffer.write(err)
    sys.exit(p.returncode)

if args and args[0] == "verify" and mutant == "verify-ok":
    p = subprocess.run([real] + args)
    sys.exit(0)
os.execv(real, [real] + args)
