#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What finding the badge's spot costs (issue 21): `pith batch --no-check` on the files
bench/batch_bench.py uses (valid/, signed/, pdfa/, large/ of the corpus), with two pith
binaries run alternately (so that both see the same load), best of --repeat.

    bench/placement_cost.py --pith build/pith --before /work/main/build/pith [--repeat 3]

Prints files/s and ms per file for -j 1 and -j 2, and the difference per file.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import batch_bench  # noqa: E402  (record_for: the same inline records)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pith", default=os.path.join(batch_bench.REPO, "build", "pith"))
    ap.add_argument("--before", required=True, help="the pith binary to compare with (e.g. main's)")
    ap.add_argument("--corpus", default=os.path.join(os.environ.get("PITH_SHARED", os.path.join(batch_bench.REPO, "..", "shared")), "corpus"))
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    files = sorted(os.path.join(a.corpus, g, f) for g in ("valid", "signed", "pdfa", "large")
                   if os.path.isdir(os.path.join(a.corpus, g)) for f in os.listdir(os.path.join(a.corpus, g)) if f.endswith(".pdf"))
    if not files:
        print("no corpus at %s" % a.corpus, file=sys.stderr)
        return 77
    work = tempfile.mkdtemp(prefix="pith-placement-cost-")
    try:
        manifest = os.path.join(work, "manifest.jsonl")
        with open(manifest, "w") as m:
            for i, f in enumerate(files):
                m.write(json.dumps({"input": f, "record": batch_bench.record_for(f, i),
                                    "output": os.path.join(work, "out", "%03d.pdf" % i)}) + "\n")
        best = {}
        for _ in range(a.repeat):
            for label, binary in (("before", a.before), ("after", a.pith)):
                for jobs in ("1", "2"):
                    shutil.rmtree(os.path.join(work, "out"), ignore_errors=True)
                    t = time.monotonic()
                    p = subprocess.run([binary, "batch", manifest, "-q", "--json", "--no-check", "-j", jobs], capture_output=True)
                    t = time.monotonic() - t
                    if p.returncode not in (0, 1):
                        raise SystemExit("pith batch failed: " + p.stderr.decode())
                    key = (label, jobs)
                    best[key] = min(best.get(key, t), t)
        n = len(files)
        print("%d files, best of %d, pith batch --no-check" % (n, a.repeat))
        for jobs in ("1", "2"):
            b, f = best[("before", jobs)], best[("after", jobs)]
            print("-j %s  before %6.1f files/s (%5.1f ms/file)   after %6.1f files/s (%5.1f ms/file)   +%.1f ms/file" % (
                jobs, n / b, 1000 * b / n, n / f, 1000 * f / n, 1000 * (f - b) / n))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
