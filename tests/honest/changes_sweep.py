#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Honest edits after a stamp, over the corpus: no false pith.changed.* (issue 29).

Each corpus file (valid/, signed/, large/ of $PITH_SHARED/corpus, else ../shared/corpus, or the PDFs given) is stamped
(`pith stamp --no-title-check` with a test record: the title check is not what this measures),
then edited as readers do -- a highlight saved incrementally by MuPDF (`mutool run`), an XMP
rights statement added by exiftool -- and verified. The change analysis must find nothing on
the list of what may not change after a stamp: a `pith.changed.*` or `pith.xref.chain` failure
is a false invalid. Also prints pith verify's wall time on the stamped file and on each edit
(the edit's verify compares every object of both documents).

usage: tests/honest/changes_sweep.py --pith build/pith [PDF ...]
Exit 1 when any edit gets a pith.changed.* failure.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("PITH_SHARED", ROOT.parent / "shared")) / "corpus"

HIGHLIGHT = """var doc = new PDFDocument(scriptArgs[0]);
var page = doc.loadPage(0);
var b = page.bound();
var annot = page.createAnnotation('Highlight');
annot.setQuadPoints([[b[0] + 20, b[3] - 40, b[0] + 80, b[3] - 40, b[0] + 20, b[3] - 30, b[0] + 80, b[3] - 30]]);
annot.update();
doc.save(scriptArgs[1], 'incremental');
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith", required=True)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    pith = os.path.abspath(args.pith)
    files = args.files or sorted(str(p) for d in ("valid", "signed", "large") for p in (CORPUS / d).glob("*.pdf"))
    work = Path(tempfile.mkdtemp(prefix="pith-changes-sweep-"))
    env = dict(os.environ, HOME=str(work / "home"), SOURCE_DATE_EPOCH="1780000000")

    def run(cmd, **kw):
        return subprocess.run(cmd, capture_output=True, env=env, timeout=600, **kw)

    run([pith, "keygen", "--key-id", "sweep", "--secret", str(work / "k.key"), "--keyring", str(work / "ring.json")])
    run([pith, "sign", str(ROOT / "examples" / "record.json"), "--secret", str(work / "k.key"), "-o", str(work / "rec.json")])
    (work / "hl.js").write_text(HIGHLIGHT)

    def verify(path):
        t = time.time()
        r = run([pith, "verify", "--json", "--keyring", str(work / "ring.json"), path])
        dt = time.time() - t
        try:
            report = json.loads(r.stdout)
        except ValueError:
            return dt, None
        return dt, [f["code"] + ": " + f["explanation"] for f in report["failure"]
                    if f["code"].startswith("pith.changed.") or f["code"] == "pith.xref.chain"]

    bad = checked = 0
    print("%-48s %9s %8s  %-16s %-16s" % ("file", "bytes", "stamped", "mupdf highlight", "exiftool xmp"))
    for src in files:
        name = os.path.basename(src)
        stamped = str(work / (name + ".stamped.pdf"))
        if run([pith, "stamp", src, "--record", str(work / "rec.json"), "-o", stamped, "--no-title-check"]).returncode:
            print("%-48s %9d  (not stamped)" % (name, os.path.getsize(src)))
            continue
        base_time, _ = verify(stamped)
        cells = []
        for tool in ("mupdf", "exiftool"):
            out = str(work / ("%s.%s.pdf" % (name, tool)))
            cmd = (["mutool", "run", str(work / "hl.js"), stamped, out] if tool == "mupdf" else
                   ["exiftool", "-q", "-XMP-xmpRights:UsageTerms=CC BY 4.0", "-o", out, stamped])
            if run(cmd).returncode or not os.path.exists(out):
                cells.append("(tool failed)")
                continue
            dt, failures = verify(out)
            checked += 1
            if failures is None:
                cells.append("(no report)")
            elif failures:
                bad += 1
                cells.append("FALSE INVALID %.2fs" % dt)
                print("    %s after %s: %s" % (name, tool, "; ".join(failures)))
            else:
                cells.append("ok %.2fs" % dt)
        print("%-48s %9d %7.2fs  %-16s %-16s" % (name, os.path.getsize(src), base_time, *cells))
    print("%d edits verified, %d with a pith.changed.* failure" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
