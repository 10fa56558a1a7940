#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pith stamp and pith verify beside the floor each could reach, in one run (issue 31).

    bench/floors.py [--pith build/pith] [--runs 3] [--no-batch] [PDF ...]

The floors are what any tool doing the same work must at least do, run as the tools that do it
best today:
  stamp   cp IN OUT, then pdftotext -f 1 -l 1 -bbox IN: copy the bytes and lay page 1 out (the
          title check and the badge's free spot need page 1's words and where they are);
  verify  pdfinfo -meta (read the metadata), pdftoppm -f 1 -l 1 -r 72 (look at page 1);
  both    then the title read from pixels: the top 40% of page 1 at 150 dpi through tesseract
          (stamp reads it too since issue 29: what stamp accepts, verify must call trusted).
pith stamps with its title check and verifies with every check (each file is stamped with a
record of its own title, signed by a bench key: bench.py's own_record), so verify says trusted
where the paper allows it.

Rows: every file (default: the corpus's valid/ files and the combined large file of bench.py),
with the best wall time of --runs rounds, the CPU time (user + system, children included) of
that run, and pith's time as a multiple of the floor's. Then the medians, the peak memory of
stamp and verify on page 1 alone against the whole large file (memory independent of the page
count), and `pith batch -j 2` files/s from bench/batch_bench.py.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench import CORPUS, corpus_passwords, default_files, own_record, run, run_rounds  # noqa: E402

# The title read from pixels: the top 40% of page 1 at 150 dpi through tesseract. Since issue 29
# stamp reads it too (what stamp accepts, verify must call trusted), so both floors include it.
TITLE_RENDER = r"""
pdfinfo "$1" > "$2/info.txt" &&
rows=$(awk '/^Page size/ {print int($5 * 150 / 72 * 0.4); exit}' "$2/info.txt") &&
pdftoppm -f 1 -l 1 -r 150 -gray -x 0 -y 0 -W 100000 -H "$rows" "$1" > "$2/top.pgm"
"""
TITLE_OCR = TITLE_RENDER.rstrip() + """ &&
tesseract "$2/top.pgm" - > /dev/null 2>&1
"""
STAMP_FLOOR = 'cp "$1" "$2/floor.pdf" && pdftotext -f 1 -l 1 -bbox "$1" /dev/null && ' + TITLE_OCR
VERIFY_FLOOR = 'pdfinfo -meta "$1" > /dev/null && pdftoppm -f 1 -l 1 -r 72 "$1" > /dev/null && ' + TITLE_OCR


def cell(r, floor=None):
    """bench.run's (wall, MB, CPU) as wall and CPU, with the ratio of the walls to `floor`'s."""
    if r is None:
        return f"{'failed':>24}"
    ratio = f" {r[0] / floor[0]:4.1f}x" if floor else "      "
    return f"{r[0]:6.3f}s {r[2]:6.3f}cpu{ratio}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pith", default=str(HERE.parent / "build" / "pith"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-batch", action="store_true", help="leave out the pith batch row")
    ap.add_argument("pdfs", nargs="*")
    a = ap.parse_args()
    os.environ["OMP_THREAD_LIMIT"] = "1"  # tesseract on one core, as pith runs it
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        passwords = corpus_passwords()
        large = [f for f in default_files(work) if f.name == "combined-large.pdf"]
        files = [Path(p) for p in a.pdfs] or sorted((CORPUS / "valid").glob("*.pdf")) + large
        keyring = work / "ring.json"
        subprocess.run([a.pith, "keygen", "--key-id", "bench", "--secret", str(work / "bench.key"), "--keyring", str(keyring)],
                       check=True, capture_output=True)
        print(f"{'file':34} {'pages':>5} | {'stamp floor':>24} | {'pith stamp':>24} | {'verify floor':>24} | {'pith verify':>24} | state")
        ratios = {"stamp": [], "verify": []}
        for f in files:
            if passwords.get(f):
                continue  # the floors' tools are not given passwords
            record = own_record(a.pith, f, work)
            out = work / "stamped.pdf"
            stamp = [a.pith, "stamp", str(f), "--record", str(record), "-o", str(out), "--allow-damaged"]
            best = run_rounds({"stamp floor": (["sh", "-c", STAMP_FLOOR, "sh", str(f), str(work)], (0,), None),
                               "pith stamp": (stamp, (0, 2), None)}, a.runs)
            if not out.exists():  # refused by its title check: verify judges the file stamped without it
                subprocess.run(stamp + ["--no-title-check"], capture_output=True)
            verify = [a.pith, "verify", str(out if out.exists() else f), "--allow-damaged", "--keyring", str(keyring)]
            state = subprocess.run(verify + ["--json"], capture_output=True, text=True).stdout
            state = json.loads(state)["state"] if state.startswith("{") else "unreadable"
            best.update(run_rounds({"verify floor": (["sh", "-c", VERIFY_FLOOR, "sh", str(f), str(work)], (0,), None),
                                    "pith verify": (verify, (0, 1, 2, 3, 4), None)}, a.runs))
            pages = subprocess.run(["pdfinfo", str(f)], capture_output=True, text=True).stdout
            pages = next((l.split()[-1] for l in pages.splitlines() if l.startswith("Pages:")), "?")
            for op in ("stamp", "verify"):
                if best[f"pith {op}"] and best[f"{op} floor"]:
                    ratios[op].append((best[f"pith {op}"][0] / best[f"{op} floor"][0], f.name,
                                       best[f"pith {op}"][2] / max(best[f"{op} floor"][2], 1e-3)))
            print(f"{f.name[:34]:34} {pages:>5} | {cell(best['stamp floor'])} | {cell(best['pith stamp'], best['stamp floor'])} | "
                  f"{cell(best['verify floor'])} | {cell(best['pith verify'], best['verify floor'])} | {state}")
            out.unlink(missing_ok=True)
        print()
        for op, rs in ratios.items():
            if rs:
                print(f"pith {op} / its floor: median {statistics.median(r[0] for r in rs):.2f}x wall, "
                      f"{statistics.median(r[2] for r in rs):.2f}x CPU over {len(rs)} files "
                      f"(wall: best {min(rs)[0]:.2f}x {min(rs)[1]}, worst {max(rs)[0]:.2f}x {max(rs)[1]})")
        if large:
            memory(a.pith, large[0], work, keyring)
        if not a.no_batch:
            print("\npith batch (bench/batch_bench.py --repeat 1):", flush=True)
            subprocess.run([sys.executable, str(HERE / "batch_bench.py"), "--pith", a.pith, "--repeat", "1"])


def memory(pith, large, work, keyring):
    """Peak RSS of stamp and verify on page 1 of the large file alone and on the whole file."""
    first = work / "page1.pdf"
    subprocess.run(["qpdf", "--empty", "--pages", str(large), "1", "--", str(first)], check=True)
    for f in (first, large):
        record = own_record(pith, f, work)
        out = work / "mem.pdf"
        s = run([pith, "stamp", str(f), "--record", str(record), "-o", str(out), "--allow-damaged"], 1, (0, 2))
        v = run([pith, "verify", str(out), "--keyring", str(keyring)], 1, (0, 1, 2, 3, 4)) if out.exists() else None
        pages = "1" if f == first else "all"
        print(f"peak memory, {pages:>3} pages of {large.name} ({f.stat().st_size / 1e6:.1f} MB): "
              f"stamp {s[1] if s else float('nan'):.0f} MB, verify {v[1] if v else float('nan'):.0f} MB")
        out.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
