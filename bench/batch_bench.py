#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Throughput of `pith batch` on the corpus, beside a shell loop over the peer tools.

    bench/batch_bench.py [--pith build/pith] [--corpus ../shared/corpus] [--repeat 3]

Files: every PDF in valid/, signed/, pdfa/ and large/ of the corpus (the readable ones a
publisher would stamp), each with an inline record whose title is page 1's first line
(pdftotext), as the corpus tests do, so that stamped outputs verify. In one run, on the same files, it times (best of --repeat):

  pith batch -j 1            stamp + verify each output (the default)
  pith batch -j 2
  pith batch -j 1 --no-check stamp only
  pith batch -j 2 --no-check
  peer loop                  for f: exiftool -XMP-dc:Description=... -o TMP f; qpdf TMP --overlay badge.pdf --to=1 -- OUT
                             (a sequential shell loop, one file at a time, like the -j 1 rows)
  pixels floor, 2 at a time  the title read from pixels alone (floors.py's TITLE_OCR: the top of
                             page 1 through pdftoppm and tesseract), two files at a time: what
                             `pith batch -j 2` with its check cannot go below, as stamp and check
                             each read the title's pixels (what stamp accepts, verify must trust)
  recognition alone          the same title blocks rendered beforehand (not timed) and read by two
                             tesseract processes that each start Tesseract once, as pith batch
                             does: the least the reading costs with everything else free

All outputs go to a temporary directory (never into the corpus; exiftool is never given
-overwrite_original). Prints a table and, with --json, one JSON object.
"""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
import pdfwriter  # noqa: E402
from floors import TITLE_OCR, TITLE_RENDER  # noqa: E402


def badge_pdf(path):
    """A one-page overlay with the badge text in the top-right corner (what pith draws, roughly)."""
    content = b"BT /F1 8 Tf 0.17 0.24 0.31 rg 520 820 Td (pith:YRUNQITD) Tj ET"
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> "
            b"/Annots [<< /Type /Annot /Subtype /Link /Rect [518 816 580 830] /Border [0 0 0] "
            b"/A << /S /URI /URI (https://pith.science/pith/YRUNQITD2RKQXO2YH7SDTYYAQ3) >> >>] >>",
            pdfwriter.stream("", content),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    pdfwriter.write(path, pdfwriter.classic(objs, version="1.4", binary=False))


def record_for(path, i):
    """An inline record (no receipt) whose title is the first line of page 1, so outputs verify."""
    title = None
    p = subprocess.run(["pdftotext", "-q", "-f", "1", "-l", "1", path, "-"], capture_output=True, timeout=60)
    if p.returncode == 0:
        title = next((l.rstrip("\f") for l in p.stdout.decode("utf-8", "replace").split("\n") if l.strip()), None)
    meta = {"submitted_at": "2024-01-01T00:00:00Z"}
    rec = {"record_type": "pith_number_record",
           "canonical_record": {"metadata": meta, "schema_version": "1.0", "source": {"id": "bench-%d" % i, "kind": "test", "version": 1}}}
    if title is not None:
        meta["title_canon_sha256"] = hashlib.sha256(title.lower().encode("utf-8")).hexdigest()
        rec["paper"] = {"title": title}
    return rec


def timed(cmd, **kw):
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return time.monotonic() - t, p


def pixels_floor(files, work, repeat):
    """The title of every file read from pixels alone, two files at a time (best of `repeat`)."""
    def one(i, f):
        d = os.path.join(work, "ocr-%03d" % i)
        os.makedirs(d, exist_ok=True)
        return subprocess.run(["sh", "-c", TITLE_OCR, "sh", f, d], capture_output=True, timeout=300).returncode == 0

    best, read = None, 0
    env_limit = os.environ.get("OMP_THREAD_LIMIT")
    os.environ["OMP_THREAD_LIMIT"] = "1"  # tesseract on one core, as pith runs it
    try:
        for _ in range(repeat):
            t = time.monotonic()
            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                read = sum(pool.map(one, range(len(files)), files))
            t = time.monotonic() - t
            best = t if best is None else min(best, t)
    finally:
        if env_limit is None:
            del os.environ["OMP_THREAD_LIMIT"]
        else:
            os.environ["OMP_THREAD_LIMIT"] = env_limit
    return {"run": "pixels floor, 2 at a time (pdftoppm + tesseract)", "files": len(files), "ok": read, "failed": len(files) - read,
            "seconds": round(best, 3), "files_per_second": round(len(files) / best, 1)}


def recognition_floor(files, work, repeat):
    """The title blocks of pixels_floor() rendered beforehand, then read by two tesseract processes
    at once, each given half of them in a list (Tesseract starts once per process)."""
    images = []
    for i, f in enumerate(files):
        d = os.path.join(work, "rec-%03d" % i)
        os.makedirs(d, exist_ok=True)
        if subprocess.run(["sh", "-c", TITLE_RENDER, "sh", f, d], capture_output=True, timeout=300).returncode == 0:
            images.append(os.path.join(d, "top.pgm"))
    lists = []
    for k in range(2):
        lists.append(os.path.join(work, "rec-list-%d.txt" % k))
        with open(lists[-1], "w") as out:
            out.write("\n".join(images[k::2]) + "\n")
    env = dict(os.environ, OMP_THREAD_LIMIT="1")  # tesseract on one core, as pith runs it
    best = None
    for _ in range(repeat):
        t = time.monotonic()
        procs = [subprocess.Popen(["tesseract", l, os.path.join(work, "rec-out-%d" % k)], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for k, l in enumerate(lists)]
        read = all(p.wait() == 0 for p in procs)
        t = time.monotonic() - t
        best = t if best is None else min(best, t)
    return {"run": "recognition alone, 2 tesseract processes", "files": len(files), "ok": len(images) if read else 0,
            "failed": len(files) - (len(images) if read else 0), "seconds": round(best, 3), "files_per_second": round(len(images) / best, 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pith", default=os.path.join(REPO, "build", "pith"))
    ap.add_argument("--corpus", default=os.path.join(os.environ.get("PITH_SHARED", os.path.join(REPO, "..", "shared")), "corpus"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    files = sorted(f for g in ("valid", "signed", "pdfa", "large") for f in glob.glob(os.path.join(a.corpus, g, "*.pdf")))
    if not files:
        print("no corpus at %s" % a.corpus, file=sys.stderr)
        return 77
    for tool in ("exiftool", "qpdf"):
        if not shutil.which(tool):
            print("%s is not installed" % tool, file=sys.stderr)
            return 77
    size = sum(os.path.getsize(f) for f in files)
    work = tempfile.mkdtemp(prefix="pith-batch-bench-")
    try:
        manifest = os.path.join(work, "manifest.jsonl")
        with open(manifest, "w") as m:
            for i, f in enumerate(files):
                m.write(json.dumps({"input": f, "record": record_for(f, i), "output": os.path.join(work, "out", "%03d.pdf" % i)}) + "\n")
        rows = []

        def pith_row(label, extra):
            best, summary = None, None
            for _ in range(a.repeat):
                shutil.rmtree(os.path.join(work, "out"), ignore_errors=True)
                t, p = timed([a.pith, "batch", manifest, "-q", "--json"] + extra)
                if p.returncode not in (0, 1):
                    raise SystemExit("pith batch failed: " + p.stderr)
                if best is None or t < best:
                    best, summary = t, json.loads(p.stdout)
            rows.append({"run": label, "files": len(files), "ok": summary["ok"], "failed": summary["failed"],
                         "seconds": round(best, 3), "files_per_second": round(len(files) / best, 1)})

        pith_row("pith batch -j 1", ["-j", "1"])
        pith_row("pith batch -j 2", ["-j", "2"])
        pith_row("pith batch -j 1 --no-check", ["-j", "1", "--no-check"])
        pith_row("pith batch -j 2 --no-check", ["-j", "2", "--no-check"])

        badge = os.path.join(work, "badge.pdf")
        badge_pdf(badge)
        listing = os.path.join(work, "files.txt")
        with open(listing, "w") as f:
            f.write("\n".join(files) + "\n")
        loop = r'''
mkdir -p "$W/peer"; ok=0; failed=0; i=0
while IFS= read -r f; do
  i=$((i+1)); tmp="$W/peer/$i-xmp.pdf"; out="$W/peer/$i.pdf"
  if timeout 60 exiftool -q -q -XMP-dc:Description="pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3" -o "$tmp" "$f" 2>/dev/null &&
     timeout 60 qpdf "$tmp" --overlay "$B" --to=1 -- "$out" 2>/dev/null; then ok=$((ok+1))
  elif [ -s "$out" ]; then ok=$((ok+1))   # qpdf exit 3: written with warnings
  else failed=$((failed+1)); fi
  rm -f "$tmp"
done < "$L"
echo "$ok $failed"
'''
        best, counts = None, None
        for _ in range(a.repeat):
            shutil.rmtree(os.path.join(work, "peer"), ignore_errors=True)
            t, p = timed(["sh", "-c", loop], env=dict(os.environ, W=work, B=badge, L=listing))
            if best is None or t < best:
                best, counts = t, p.stdout.split()
        rows.append({"run": "peer loop (exiftool + qpdf --overlay)", "files": len(files), "ok": int(counts[0]), "failed": int(counts[1]),
                     "seconds": round(best, 3), "files_per_second": round(len(files) / best, 1)})

        rows.append(pixels_floor(files, work, a.repeat))
        rows.append(recognition_floor(files, work, a.repeat))

        info = {"corpus": os.path.abspath(a.corpus), "files": len(files), "megabytes": round(size / 1e6, 1), "cores": os.cpu_count(),
                "repeat": a.repeat, "rows": rows}
        if a.json:
            print(json.dumps(info, indent=2))
        else:
            print("%d files (%.1f MB) from valid/ signed/ pdfa/ large/, %d cores, best of %d\n" % (len(files), size / 1e6, os.cpu_count(), a.repeat))
            print("%-40s %6s %6s %9s %8s" % ("run", "ok", "failed", "seconds", "files/s"))
            for r in rows:
                print("%-40s %6d %6d %9.2f %8.1f" % (r["run"], r["ok"], r["failed"], r["seconds"], r["files_per_second"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
