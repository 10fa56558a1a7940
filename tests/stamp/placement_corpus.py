#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How much of the badge lands on what page 1 already paints, on every valid corpus file
(issue 21): today's placement (the top-right corner, `--corner top-right`, or the binary given
with --before) beside the automatic one, plus zbarimg on every file stamped with --qr.

    tests/stamp/placement_corpus.py --pith build/pith [--before /work/main/build/pith]
                                     [--corpus DIR] [--no-qr] [--json]

For each file of category "valid" in MANIFEST.tsv: page 1 is rendered before stamping
(pdftoppm, 72 dpi, grey); the badge's rectangle is the link rectangle `pith stamp --json`
reports, mapped to the displayed page (CropBox, /Rotate from pdfinfo -box); "inked" is the
share of its pixels darker than 255-24. With --qr the badge's area is rendered at 300 dpi and
zbarimg must read exactly the resolver URL. Prints one line per file and a summary table;
exits 1 when the automatic placement inks a badge on a page where it found a free spot, a
QR code does not decode, or a valid file is not measured (every one must be: the corpus's count
is tests/corpus/counts.tsv's).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
sys.path.insert(0, os.path.join(REPO, "tests", "corpus"))
import manifest  # noqa: E402
from pgm import read_pgm  # noqa: E402
from pithrun import DAMAGED_CORPUS_FILES  # noqa: E402
INK = 24
RESOLVER = "https://example.org/r/"
# Files whose QR code zbarimg cannot read, with why (examined by hand); one that starts to decode
# fails too, to come off the list.
QR_UNREADABLE = {
    "valid/ctm_cm.pdf": "damaged (stamped with --allow-damaged): poppler stops drawing page 1 at its broken "
                        "content ('cm' with too few operands), pith's badge included",
}


def run(args, timeout=300):
    return subprocess.run(args, capture_output=True, timeout=timeout)



def page_geometry(pdf):
    """(CropBox, /Rotate) of page 1 as pdfinfo gives them."""
    out = run(["pdfinfo", "-box", "-f", "1", "-l", "1", pdf]).stdout.decode(errors="replace")
    crop = re.search(r"Page\s+1 CropBox:\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)", out)
    rot = re.search(r"Page\s+1 rot:\s+(\d+)", out)
    if not crop:
        return None, 0
    return [float(x) for x in crop.groups()], int(rot.group(1)) % 360 if rot else 0


def display_rect(rect, crop, rotate, scale=1.0):
    """Default-user-space rect -> (x0, y0, x1, y1) in pixels of the displayed page (72 dpi * scale)."""
    cx0, cy0, cx1, cy1 = crop
    w, h = cx1 - cx0, cy1 - cy0
    pts = []
    for x, y in ((rect[0], rect[1]), (rect[2], rect[3]), (rect[0], rect[3]), (rect[2], rect[1])):
        u, v = x - cx0, y - cy0
        pts.append({0: (u, h - v), 90: (v, u), 180: (w - u, v), 270: (h - v, w - u)}[rotate])
    xs, ys = [p[0] * scale for p in pts], [p[1] * scale for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def inked(image, rect):
    w, h, px = image
    x0, y0, x1, y1 = (max(0, int(rect[0])), max(0, int(rect[1])), min(w, int(rect[2] + 0.999)), min(h, int(rect[3] + 0.999)))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    dark = sum(px[y * w + x] < 255 - INK for y in range(y0, y1) for x in range(x0, x1))
    return dark / ((x1 - x0) * (y1 - y0))


def stamp(pith, pdf, record, out, extra):
    start = time.perf_counter()
    # one record for every file: the title check (not what this measures) would refuse them all
    r = run([pith, "stamp", pdf, "--record", record, "-o", out, "--json", "--no-title-check", "--allow-unlisted", "--resolver", RESOLVER, *extra])
    spent = time.perf_counter() - start
    try:
        return json.loads(r.stdout), spent
    except ValueError:
        return None, spent


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith", default=os.path.join(REPO, "build", "pith"))
    ap.add_argument("--before", help="pith binary of today's placement (default: --pith with --corner top-right)")
    ap.add_argument("--corpus", help="default: the corpus tests/CMakeLists.txt picks (tests/corpus/manifest.py)")
    ap.add_argument("--record", default=os.path.join(REPO, "examples", "record.json"))
    ap.add_argument("--no-qr", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    corpus = manifest.load(a.corpus)  # a missing corpus or file fails here
    a.corpus = corpus.root
    files = [row["file"] for row in corpus.rows("valid")]
    tmp = tempfile.mkdtemp(prefix="pith-placement-corpus-")
    rows, problems = [], []
    time_before = time_after = 0.0
    try:
        for name in files:
            pdf = os.path.join(a.corpus, name)
            crop, rotate = page_geometry(pdf)
            if run(["pdftoppm", "-q", "-cropbox", "-r", "72", "-gray", "-f", "1", "-l", "1", "-singlefile", pdf,
                    os.path.join(tmp, "before")]).returncode != 0 or crop is None:
                rows.append({"file": name, "skipped": "pdftoppm or pdfinfo cannot read page 1"})
                continue
            before = read_pgm(os.path.join(tmp, "before.pgm"))
            damaged = ["--allow-damaged"] if name in DAMAGED_CORPUS_FILES else []  # refused without it
            today, t0 = stamp(a.before or a.pith, pdf, a.record, os.path.join(tmp, "today.pdf"),
                              damaged + ([] if a.before else ["--corner", "top-right"]))
            auto, t1 = stamp(a.pith, pdf, a.record, os.path.join(tmp, "auto.pdf"), damaged)
            if not today or not auto or not today.get("badge") or not auto.get("badge") or auto["badge"]["page"] != 1:
                rows.append({"file": name, "skipped": "pith stamp refused it or drew no badge on page 1"})
                continue
            time_before += t0
            time_after += t1
            row = {"file": name, "rotate": rotate,
                   "today": inked(before, display_rect(today["badge"]["rect"], crop, rotate)),
                   "auto": inked(before, display_rect(auto["badge"]["rect"], crop, rotate)),
                   "spot": auto["badge"]["spot"], "boxed": auto["badge"]["boxed"], "measured": auto["badge"]["measured"]}
            if row["auto"] > 0 and not row["boxed"]:
                problems.append("%s: the badge at a free spot (%s) lies on %.1f%% ink" % (name, row["spot"], 100 * row["auto"]))
            if not a.no_qr:
                qr, _ = stamp(a.pith, pdf, a.record, os.path.join(tmp, "qr.pdf"), damaged + ["--qr"])
                url = RESOLVER + qr["number"].rsplit(":", 1)[1] if qr else ""
                x0, y0, x1, y1 = display_rect(qr["badge"]["rect"], crop, rotate, 300 / 72) if qr else (0, 0, 0, 0)
                pad = 40
                run(["pdftoppm", "-q", "-cropbox", "-r", "300", "-gray", "-f", "1", "-l", "1", "-singlefile",
                     "-x", str(max(0, int(x0) - pad)), "-y", str(max(0, int(y0) - pad)),
                     "-W", str(int(x1 - x0) + 2 * pad), "-H", str(int(y1 - y0) + 2 * pad),
                     os.path.join(tmp, "qr.pdf"), os.path.join(tmp, "qr")])
                z = run(["zbarimg", "-q", "--raw", os.path.join(tmp, "qr.pgm")]).stdout.decode(errors="replace").strip()
                row["qr"] = bool(qr) and z == url
                # A page too small for the badge shrinks it, QR code and all: stamp says so.
                row["qr_too_small"] = bool(qr) and any("may not scan" in w for w in qr.get("warnings", []))
                if name in QR_UNREADABLE:
                    if row["qr"]:
                        problems.append("%s: the QR code decodes now: take it off QR_UNREADABLE" % name)
                elif not row["qr"] and not row["qr_too_small"]:
                    problems.append("%s: zbarimg read %r, not %s" % (name, z, url))
            rows.append(row)
            if not a.json:
                print("%-60s today %5.1f%%  auto %5.1f%%  %s%s%s" % (
                    name, 100 * row["today"], 100 * row["auto"], row["spot"], ", boxed" if row["boxed"] else "",
                    "" if a.no_qr else (", QR ok" if row["qr"] else ", QR unreadable (page too small, warned)" if row["qr_too_small"]
                                       else ", QR unreadable (known: %s)" % QR_UNREADABLE[name] if name in QR_UNREADABLE
                                       else ", QR FAILS")))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    done = [r for r in rows if "skipped" not in r]
    # Every valid file is measured: one pdftoppm or pith cannot read is a problem, not a smaller loop.
    problems += ["%s: %s" % (r["file"], r["skipped"]) for r in rows if "skipped" in r]
    summary = {
        "files": len(files), "stamped": len(done), "skipped": [r["file"] for r in rows if "skipped" in r],
        "today_mean_inked": sum(r["today"] for r in done) / max(1, len(done)),
        "today_files_inked": sum(r["today"] > 0 for r in done),
        "auto_mean_inked": sum(r["auto"] for r in done) / max(1, len(done)),
        "auto_files_inked": sum(r["auto"] > 0 for r in done),
        "no_free_spot": sum(r["boxed"] for r in done),
        "not_at_top_right": sum(r["spot"] != "top-right corner" for r in done),
        "qr_decoded": None if a.no_qr else sum(r.get("qr", False) for r in done),
        "qr_too_small": None if a.no_qr else sum(r.get("qr_too_small", False) and not r.get("qr") for r in done),
        "free_spot_inked": sum(r["auto"] > 0 for r in done if not r["boxed"]),
        "ms_per_file_today": 1000 * time_before / max(1, len(done)),
        "ms_per_file_auto": 1000 * time_after / max(1, len(done)),
        "problems": problems,
    }
    if a.json:
        print(json.dumps({"summary": summary, "files": rows}, indent=1))
    else:
        print()
        print("valid corpus files              %d (stamped %d, skipped %d)" % (len(files), len(done), len(summary["skipped"])))
        print("badge area already inked        today: mean %.2f%%, %d files > 0   automatic: mean %.2f%%, %d files > 0" % (
            100 * summary["today_mean_inked"], summary["today_files_inked"], 100 * summary["auto_mean_inked"],
            summary["auto_files_inked"]))
        print("no free spot (boxed)            %d" % summary["no_free_spot"])
        print("badge at a free spot but inked  %d" % summary["free_spot_inked"])
        print("moved from the top-right corner %d" % summary["not_at_top_right"])
        if not a.no_qr:
            print("QR codes zbarimg decodes        %d of %d (%d more on pages too small for a scannable QR code, warned)" % (
                summary["qr_decoded"], len(done), summary["qr_too_small"]))
        print("pith stamp wall time per file   today %.1f ms, automatic %.1f ms (one process per file)" % (
            summary["ms_per_file_today"], summary["ms_per_file_auto"]))
        for p in problems:
            print("PROBLEM " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
