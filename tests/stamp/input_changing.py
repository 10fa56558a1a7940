#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pith:priorSha256 describes exactly the bytes pith stamp copied (issue 15, 2.3), even while
another process rewrites the input.

The input is the example paper plus an update that adds a 24 MiB stream nobody uses; a writer
process keeps flipping bytes inside that stream's data while pith stamps the file again and
again. Every run must either succeed with an output whose first priorLength bytes hash
to priorSha256 and equal the bytes pith parsed (the output verifies: no pith.prior.mismatch), or
refuse with "changed while pith was stamping it" and leave no output. Which of the two happens
depends on timing; that one of them always does does not."""
import argparse
import hashlib
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pdfedit  # noqa: E402

PAD = 24 << 20


def flip(path, start, stop):
    """Rewrites bytes inside the stream data that starts at `start` until `stop` is set."""
    with open(path, "r+b") as f:
        i = 0
        while not stop.is_set():
            f.seek(start + (i * 4099) % (PAD - 4096))
            f.write(b"AB"[i % 2:i % 2 + 1] * 4096)
            f.flush()
            i += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="pith-changing-")
    failures, outcomes = [], {"stamped": 0, "refused": 0}
    try:
        src = os.path.join(tmp, "in.pdf")
        with open(os.path.join(a.source, "examples", "article.pdf"), "rb") as f:
            data = f.read()
        _, trailer, _ = pdfedit.last_trailer(data)
        padded = pdfedit.append_update(data, {int(pdfedit.trailer_entry(trailer, "Size")): pdfedit.stream("", b"A" * PAD)})
        start = padded.index(b"A" * 4096)
        with open(src, "wb") as f:
            f.write(padded)
        record = os.path.join(a.source, "examples", "record.json")
        stop = multiprocessing.Event()
        writer = multiprocessing.Process(target=flip, args=(src, start, stop))
        writer.start()
        try:
            for i in range(a.runs + 1):
                if i == a.runs:  # the last run with the input at rest: it must be stamped
                    stop.set()
                    writer.join()
                out = os.path.join(tmp, "out-%d.pdf" % i)
                r = subprocess.run([a.pith, "stamp", src, "--record", record, "-o", out, "--no-badge"],
                                   capture_output=True, timeout=300)
                err = r.stderr.decode(errors="replace")
                if r.returncode == 2 and "changed while pith was stamping it" in err and err.strip().endswith("[input.changed]") and i < a.runs:
                    outcomes["refused"] += 1
                    if os.path.exists(out):
                        failures.append("run %d: refused but left %s" % (i, out))
                    continue
                if r.returncode != 0:
                    failures.append("run %d: exit %d: %s" % (i, r.returncode, err[:300]))
                    continue
                outcomes["stamped"] += 1
                x = subprocess.run([a.pith, "extract", out, "--json"], capture_output=True, timeout=300)
                pith = json.loads(x.stdout)["xmp"]["pith"]
                with open(out, "rb") as f:
                    stamped = f.read()
                n = int(pith["priorLength"])
                if hashlib.sha256(stamped[:n]).hexdigest() != pith["priorSha256"]:
                    failures.append("run %d: priorSha256 does not describe the %d bytes written" % (i, n))
                os.remove(out)
        finally:
            stop.set()
            writer.join()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL " + f)
    print("%d runs (the last at rest): %d stamped (priorSha256 exact), %d refused as changed; %d failure(s)"
          % (a.runs + 1, outcomes["stamped"], outcomes["refused"], len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
