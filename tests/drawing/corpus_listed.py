# SPDX-License-Identifier: MIT
"""Every readable PDF of the shared corpus's valid, pdfa, signed and large groups draws page 1
only with what pith's closed list holds (closed_list_probe), but the few EXPECTED names: real
files from many producers (pdfTeX, LibreOffice, Word, Acrobat, Ghostscript, ...), none made for
pith, that the list must not refuse. The count of files is MANIFEST.tsv's, so a lost file fails too.

    corpus_listed.py --probe closed_list_probe --corpus DIR
"""
import argparse
import csv
import os
import subprocess
import sys

GROUPS = ("valid", "pdfa", "signed", "large")
# The files that do something off the list, and what: each must be named so, every other file
# must draw only with what the list holds.
EXPECTED = {
    "valid/podofo-TestIndexedRGB-pdfcreator.pdf": "document-level JavaScript",  # a form that submits itself
    "signed/pikepdf-form_210966-designer-signed.pdf": "an XFA form",  # Adobe LiveCycle Designer
    # pikepdf's test of a malformed `0 cm`: poppler drops the rest of the content stream there
    # (one image drawn), MuPDF draws on (three)
    "valid/ctm_cm.pdf": "content operator cm with 1 operands (it takes 6)",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probe", required=True)
    ap.add_argument("--corpus", required=True)
    a = ap.parse_args()
    with open(os.path.join(a.corpus, "MANIFEST.tsv"), newline="") as f:
        files = [row["file"] for row in csv.DictReader(f, delimiter="\t") if row["category"] in GROUPS]
    missing = [f for f in files if not os.path.isfile(os.path.join(a.corpus, f))]
    if not files or missing:
        print("FAIL corpus incomplete: %d files listed, missing %s" % (len(files), missing[:5]))
        return 1
    out = subprocess.run([a.probe] + [os.path.join(a.corpus, f) for f in files], capture_output=True, text=True,
                         timeout=600)
    lines = out.stdout.splitlines()
    failures = []
    for line in lines:
        path, what = line.split("\t", 1)
        rel = os.path.relpath(path, a.corpus)
        expected = EXPECTED.get(rel)
        if (expected is None and what != "-") or (expected is not None and expected not in what):
            failures.append(rel)
            print("FAIL %s: %s (expected %s)" % (rel, what, expected or "-"))
        elif expected:
            print("ok   %s: %s" % (rel, what))
    if out.returncode != 0 or len(lines) != len(files):
        print("FAIL the probe answered %d of %d files (exit %d): %s" % (len(lines), len(files), out.returncode,
                                                                      out.stderr[-300:]))
        return 1
    print("%d files of %s, %d expected to do something off the closed list; %d failure(s)"
          % (len(files), ", ".join(GROUPS), len(EXPECTED), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
