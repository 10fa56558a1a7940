#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cost of reading the title from pixels (src/page/pixels.hpp) beside poppler and Tesseract
run alone on the same page (issue 29; figures in doc/dev/pixels.md).

For each PDF: a record of its own title (bench.py's own_record), stamped; then, best of --runs:
  verify        pith verify (trusted: every check, the pixel reading included)
  verify -ocr   the same with PITH_TEST_NO_OCR=1: the title block is rendered but Tesseract
                neither starts nor reads (unverified); the difference is Tesseract's share
  pixels        verify - verify -ocr
  ppm+tess      pdftoppm -r 150 -f 1 -l 1 (the whole page) then tesseract on it, run alone
  tess init     tesseract on a 1x1 image: loading its data, the floor of any OCR run
Wall time (s) and CPU time (user+sys, s) of each. Usage:
    bench/pixels_bench.py --pith build/pith [PDF ...]
Without PDFs: examples/article.pdf and the first 5 valid files of the corpus ($PITH_SHARED/corpus).
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import bench  # noqa: E402


def timed(cmd, runs, env=None, ok=(0, 4)):
    """(best wall s, CPU s of that run) of `cmd`; None when it fails."""
    best = None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if r.returncode not in ok:
            return None
        if best is None or wall < best[0]:
            best = (wall, cpu)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("pdfs", nargs="*")
    args = ap.parse_args()
    pith = os.path.abspath(args.pith)
    files = [Path(p) for p in args.pdfs] or ([ROOT / "examples" / "article.pdf"] +
                                            sorted((bench.CORPUS / "valid").glob("*.pdf"))[:5])
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = dict(os.environ, HOME=str(work), OMP_THREAD_LIMIT="1")
        subprocess.run([pith, "keygen", "--key-id", "bench", "--secret", str(work / "bench.key"), "--keyring",
                        str(work / "ring.json")], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        tiny = work / "tiny.pgm"
        tiny.write_bytes(b"P5 1 1 255\n\xff")
        init = timed(["tesseract", str(tiny), "-", "--oem", "1", "--psm", "6"], args.runs, env, ok=(0,))
        print("tesseract data load alone (1x1 image): %.3f s wall, %.3f s CPU" % init)
        print("%-44s %13s %13s %13s %13s %s" % ("file", "verify", "verify -ocr", "pixels", "ppm+tess", "state"))
        for pdf in files:
            record = bench.own_record(pith, pdf, work)
            stamped = work / "stamped.pdf"
            stamped.unlink(missing_ok=True)
            r = subprocess.run([pith, "stamp", str(pdf), "--record", str(record), "-o", str(stamped)],
                               capture_output=True, env=env)
            if r.returncode != 0:
                print("%-44s not stamped: %s" % (pdf.name[:44], r.stderr.decode(errors="replace").strip()[:80]))
                continue
            verify = [pith, "verify", "--keyring", str(work / "ring.json"), str(stamped)]
            state = subprocess.run(verify, capture_output=True, env=env).returncode
            full = timed(verify, args.runs, env)
            no_ocr = timed(verify, args.runs, dict(env, PITH_TEST_NO_OCR="1"))
            page = work / "page"
            ppm = timed(["pdftoppm", "-r", "150", "-f", "1", "-l", "1", "-singlefile", "-gray", str(stamped), str(page)],
                        args.runs, env, ok=(0,))
            tess = timed(["tesseract", str(page) + ".pgm", "-"], args.runs, env, ok=(0,))
            cell = lambda t: "%5.3f/%5.3f" % t if t else "      -      "  # noqa: E731
            pixels = (full[0] - no_ocr[0], full[1] - no_ocr[1]) if full and no_ocr else None
            floor = (ppm[0] + tess[0], ppm[1] + tess[1]) if ppm and tess else None
            print("%-44s %13s %13s %13s %13s %s" % (pdf.name[:44], cell(full), cell(no_ocr), cell(pixels), cell(floor),
                                                    {0: "trusted", 1: "invalid", 4: "unverified"}.get(state, state)))
        print("cells: wall/CPU seconds, best of %d; pixels = verify - verify -ocr (Tesseract's start and reading)" % args.runs)


if __name__ == "__main__":
    main()
