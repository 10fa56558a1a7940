#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Many papers at once beside the recognition of their title blocks: `pith verify FILE...` and
`pith batch -j 2` against the floor each could reach, in one run.

    bench/many_floor.py [--pith build/pith] [--rounds 3] [--honest DIR] [--no-corpus] [--compare PITH] [--json]

Two sets of papers:
  corpus  the corpus's valid/ files that `pith stamp` stamps with its title check (each with a
          record of its own title, signed by a bench key: bench.py's own_record);
  honest  the honest corpus's papers (tests/honest/run_honest.py --sample --keep --work DIR, then
          --honest DIR): each paper as it was before pith's stamp (stamped.pdf cut at the update
          pith appended), with a record of the title its report names, signed by the bench key.
For each set, in each round, one after the other (so a slow spell of a shared machine falls on
pith and its floor alike; the best round of each is kept):
  pith verify      `pith verify --keyring RING FILE...` of the set stamped by pith (default --jobs:
                   every CPU);
  verify floor     the title blocks rendered by `pdftoppm` (one after another) and read by ONE
                   `tesseract` process given them in a list file: what any pipeline that reads
                   the same titles from pixels pays at least, with Tesseract started once;
  pith batch -j 2  `pith batch -j 2` of the set's originals and records: stamp and check each;
  batch floor      the same title blocks in two halves, each rendered and read by its own
                   `tesseract` process (the two run at once, as batch's two workers).
The title blocks are those pith found: the `title` region of `pith verify --json` on page 1, the
page's full width from its top to a line and a half (at most 36 points) below the title's box,
rendered at 150 dpi in grey (floors.py's resolution; pith renders a title block at the
resolution that gives its type an x-height of 20 pixels, 133-300 dpi, about 200 for a paper's
title: the floor reads no more pixels than pith does). A file without a title region is left
out of its set. Tesseract runs on one thread (OMP_THREAD_LIMIT=1), as in pith.

With --compare PITH, another build's verify and batch are timed in the same rounds too (the
effect of a change, on the same files). Prints per set and command files/s, the floor's files/s and the ratio pith / floor (1.0: as fast
as the recognition alone), the machine's load average before and after, and with --json one
JSON object.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench import CORPUS, corpus_passwords, own_record  # noqa: E402

DPI = 150
TESSERACT_ENV = dict(os.environ, OMP_THREAD_LIMIT="1")  # one thread, as pith runs it


def signed_record(pith, work, name, title):
    """A record of `title` signed by the bench key (bench.own_record's shape)."""
    import hashlib
    meta = {"submitted_at": "2024-01-01T00:00:00Z", "title_canon_sha256": hashlib.sha256(title.lower().encode()).hexdigest()}
    record = {"record_type": "pith_number_record", "paper": {"title": title},
              "canonical_record": {"metadata": meta, "schema_version": "1.0", "source": {"id": name, "kind": "bench", "version": 1}}}
    unsigned, signed = work / (name + ".json"), work / (name + "-signed.json")
    unsigned.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    subprocess.run([pith, "sign", str(unsigned), "--secret", str(work / "bench.key"), "-o", str(signed)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return signed


def before_stamp(stamped, out):
    """`stamped` without the update pith appended: its bytes up to the %%EOF before the last."""
    data = stamped.read_bytes()
    last = data.rstrip().rfind(b"%%EOF")
    end = data.rfind(b"%%EOF", 0, last) + len(b"%%EOF")
    while end < len(data) and data[end:end + 1] in (b"\r", b"\n"):
        end += 1
    out.write_bytes(data[:end])
    return out


def corpus_set(pith, work):
    """The corpus's valid/ files (not password-protected), each with a record of its own title."""
    passwords = corpus_passwords()
    out = []
    for i, f in enumerate(sorted((CORPUS / "valid").glob("*.pdf"))):
        if passwords.get(f):
            continue
        d = work / ("c%03d" % i)
        d.mkdir()
        shutil.copy(work / "bench.key", d / "bench.key")
        out.append((f, own_record(pith, f, d)))
    return out


def honest_set(pith, work, honest):
    """The honest papers of a run_honest.py --keep work dir, as they were before their stamp."""
    report = json.loads((honest / "report.json").read_text(encoding="utf-8"))
    out = []
    for r in report["results"]:
        stamped = honest / r["paper"] / "stamped.pdf"
        if r["result"] != "PASS" or not stamped.exists():
            continue
        original = before_stamp(stamped, work / (r["paper"] + ".pdf"))
        out.append((original, signed_record(pith, work, r["paper"], r["record_title"])))
    return out


def stamp_all(pith, papers, work, keyring):
    """Each paper stamped by pith (title check on); those it refuses are left out. The title
    block of each, from verify's report: (original, record, stamped, crop rows at DPI)."""
    out = []
    for k, (pdf, record) in enumerate(papers):
        stamped = work / ("s%03d.pdf" % k)
        if subprocess.run([pith, "stamp", str(pdf), "--record", str(record), "-o", str(stamped)],
                          capture_output=True).returncode != 0:
            continue
        report = subprocess.run([pith, "verify", str(stamped), "--keyring", str(keyring), "--json"],
                                capture_output=True, text=True).stdout
        report = json.loads(report) if report.startswith("{") else {}
        title = [r for r in report.get("regions", []) if r.get("kind") == "title" and r.get("page") == 1]
        info = subprocess.run(["pdfinfo", str(stamped)], capture_output=True, text=True).stdout
        size = next((l.split() for l in info.splitlines() if l.startswith("Page size:")), None)
        if not title or not size:
            continue
        height = float(size[4])
        bottom = height - min(t["y0"] for t in title)
        line = min(36.0, 1.5 * max(t["y1"] - t["y0"] for t in title))
        out.append((pdf, record, stamped, int((min(height, bottom + line)) * DPI / 72) + 1))
    return out


def render(stamped, rows, base):
    subprocess.run(["pdftoppm", "-f", "1", "-l", "1", "-r", str(DPI), "-gray", "-x", "0", "-y", "0", "-W", "100000",
                    "-H", str(rows), "-singlefile", str(stamped), str(base)], check=True, capture_output=True)
    return str(base) + ".pgm"


def floor_lane(papers, work, lane):
    """Render each title block, then read them all with one tesseract process (a list file)."""
    images = [render(stamped, rows, work / ("lane%d-%03d" % (lane, k))) for k, (_, _, stamped, rows) in enumerate(papers)]
    listing = work / ("lane%d.txt" % lane)
    listing.write_text("\n".join(images) + "\n")
    subprocess.run(["tesseract", str(listing), str(work / ("lane%d-out" % lane))], env=TESSERACT_ENV, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def timed(f):
    t = time.monotonic()
    f()
    return time.monotonic() - t


def verify_floor(papers, work):
    return timed(lambda: floor_lane(papers, work, 0))


def batch_floor(papers, work):
    def both():
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda k: floor_lane(papers[k::2], work, k + 1), range(2)))
    return timed(both)


def pith_verify(pith, papers, keyring):
    def run():
        p = subprocess.run([pith, "verify", "--keyring", str(keyring)] + [str(s) for _, _, s, _ in papers],
                           capture_output=True)
        if p.returncode not in (0, 1, 2, 3, 4):
            raise SystemExit("pith verify failed: %s" % p.stderr.decode(errors="replace"))
    return timed(run)


def pith_batch(pith, papers, work):
    manifest = work / "manifest.jsonl"
    with open(manifest, "w") as m:
        for k, (pdf, record, _, _) in enumerate(papers):
            m.write(json.dumps({"input": str(pdf), "record": str(record), "output": str(work / "out" / ("%03d.pdf" % k))}) + "\n")

    def run():
        shutil.rmtree(work / "out", ignore_errors=True)
        p = subprocess.run([pith, "batch", str(manifest), "-j", "2", "-q", "--json"], capture_output=True, text=True)
        summary = json.loads(p.stdout) if p.stdout.startswith("{") else {}
        if summary.get("ok") != len(papers):
            raise SystemExit("pith batch stamped %s of %d: %s" % (summary.get("ok"), len(papers), p.stderr[-500:]))
    return timed(run)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pith", default=str(HERE.parent / "build" / "pith"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--honest", type=Path, help="a tests/honest/run_honest.py --keep work dir")
    ap.add_argument("--no-corpus", action="store_true", help="leave out the corpus's valid/ files")
    ap.add_argument("--compare", help="another pith binary timed in the same rounds (an earlier build)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    pith = os.path.abspath(a.pith)
    load = [os.getloadavg()[0]]
    rows = []
    with tempfile.TemporaryDirectory(prefix="pith-many-floor-") as tmp:
        work = Path(tmp)
        keyring = work / "ring.json"
        subprocess.run([pith, "keygen", "--key-id", "bench", "--secret", str(work / "bench.key"), "--keyring", str(keyring)],
                       check=True, capture_output=True)
        sets = []
        if not a.no_corpus:
            (work / "corpus").mkdir()
            shutil.copy(work / "bench.key", work / "corpus" / "bench.key")
            sets.append(("corpus valid/", corpus_set(pith, work / "corpus")))
        if a.honest:
            (work / "honest").mkdir()
            shutil.copy(work / "bench.key", work / "honest" / "bench.key")
            sets.append(("honest", honest_set(pith, work / "honest", a.honest)))
        for name, papers in sets:
            d = work / ("run-" + name.split()[0])
            d.mkdir()
            stamped = stamp_all(pith, papers, d, keyring)
            best = {}
            piths = [("", pith)] + ([(" (" + a.compare + ")", os.path.abspath(a.compare))] if a.compare else [])
            for _ in range(a.rounds):
                steps = []  # pith and its floor one after the other, for verify then for batch
                for op, floor in (("verify", verify_floor), ("batch", batch_floor)):
                    for k, (tag, p) in enumerate(piths):
                        run = pith_verify if op == "verify" else pith_batch
                        steps.append((("pith verify" if op == "verify" else "pith batch -j 2") + tag,
                                      lambda run=run, p=p: run(p, stamped, keyring if run is pith_verify else d)))
                        if k == 0:
                            steps.append((op + " floor", lambda floor=floor: floor(stamped, d)))
                for label, f in steps:
                    best[label] = min(best.get(label, 1e300), f())
                    load.append(os.getloadavg()[0])
            n = len(stamped)
            for tag, _ in piths:
                for op, command in (("verify", "pith verify FILE..."), ("batch", "pith batch -j 2")):
                    p, f = best[("pith verify" if op == "verify" else "pith batch -j 2") + tag], best[op + " floor"]
                    rows.append({"set": name, "files": n, "of": len(papers), "command": command + tag,
                                 "pith_files_per_s": round(n / p, 2), "floor_files_per_s": round(n / f, 2),
                                 "ratio": round(f / p, 2), "pith_s": round(p, 2), "floor_s": round(f, 2)})
    load.append(os.getloadavg()[0])
    if a.json:
        print(json.dumps({"rounds": a.rounds, "cores": os.cpu_count(), "load": load, "rows": rows}, indent=1))
        return 0
    print("%d cores, best of %d rounds, load average (1 min) %.2f before, %.2f-%.2f during\n" % (
        os.cpu_count(), a.rounds, load[0], min(load[1:]), max(load[1:])))
    print("| set | files | command | pith files/s | floor files/s | pith / floor |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %d of %d | `%s` | %.2f (%.2f s) | %.2f (%.2f s) | %.2fx |" % (
            r["set"], r["files"], r["of"], r["command"], r["pith_files_per_s"], r["pith_s"], r["floor_files_per_s"],
            r["floor_s"], r["ratio"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
