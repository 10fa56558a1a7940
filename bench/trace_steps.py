#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where the time of a pith command goes, step by step (pith's PITH_TRACE, src/core/trace.hpp).

    bench/trace_steps.py [--keep FILE] -- PITH_COMMAND...
    bench/trace_steps.py --read FILE

Runs the command once with PITH_TRACE pointing to a fresh file (or reads a trace written
before), then prints per step: where it ran (the command's own process, or a child it forked:
poppler's page text, the title block's pixels, a batch worker), how many times, the total and
the median in ms, and its total as a share of the command's wall time. Steps nest and children
overlap the main process, so the shares do not add up to 100 %: read them as "this much of the
wall clock was spent in, or waiting on, this step". Example, a multi-file verify and a batch:

    bench/trace_steps.py -- build/pith verify --keyring ring.json stamped/*.pdf
    bench/trace_steps.py -- build/pith batch -j 2 manifest.jsonl --report /dev/null
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(command, trace):
    env = dict(os.environ, PITH_TRACE=trace)
    start = time.monotonic()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def read(trace):
    with open(trace, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def table(spans, wall):
    """The rows: step, where, count, total ms, median ms, share of the wall clock."""
    first = min(s["start"] for s in spans)
    root = min(spans, key=lambda s: s["start"])["pid"]  # the command's own process began first
    by_step = {}
    for s in spans:
        where = "main" if s["pid"] == root else "child"
        by_step.setdefault((s["step"], where), []).append(s["ms"])
    if wall is None:  # a trace read back: from its first start to its last end
        wall = (max(s["start"] + s["ms"] for s in spans) - first) / 1000
    rows = sorted(by_step.items(), key=lambda kv: -sum(kv[1]))
    print(f"wall {wall:.3f} s, {len({s['subject'] for s in spans})} subjects, {len(spans)} spans")
    print(f"{'step':24} {'where':6} {'count':>6} {'total ms':>10} {'median ms':>10} {'of wall':>8}")
    for (step, where), ms in rows:
        print(f"{step:24} {where:6} {len(ms):6d} {sum(ms):10.1f} {statistics.median(ms):10.1f} "
              f"{sum(ms) / (wall * 1000) * 100:7.1f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", help="write the trace here (default: a temporary file)")
    ap.add_argument("--read", help="summarise this trace instead of running a command")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if args.read:
        return table(read(args.read), None)
    if not command:
        ap.error("give a command after --, or --read FILE")
    with tempfile.TemporaryDirectory(prefix="pith-trace-") as tmp:
        trace = os.path.abspath(args.keep) if args.keep else os.path.join(tmp, "trace.jsonl")
        if os.path.exists(trace):
            os.remove(trace)
        wall = run(command, trace)
        spans = read(trace) if os.path.exists(trace) else []
        if not spans:
            sys.exit("no spans were written: is this a pith built from this tree?")
        table(spans, wall)


if __name__ == "__main__":
    main()
