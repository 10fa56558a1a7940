#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PITH_TRACE (src/core/trace.hpp): with it, pith stamp and pith verify of the bundled example
append one JSON line per step to the file it names: the whole command's step ("stamp",
"verify") about the input, pith's own steps in its process and the children's (poppler's page
text, the title block rendered and read) in theirs, each inside the command's time; and
bench/trace_steps.py summarises the file. Without PITH_TRACE nothing is written.

usage: trace.py --pith PITH --source SOURCE_DIR      exit 0 pass, 1 fail
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def spans(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def check_command(name, command, env, trace, subject):
    p = subprocess.run(command, env=env, capture_output=True, text=True)
    # verify's state is not the point here (the example's key is in no keyring): it must not fail.
    check(p.returncode in (0, 4), "%s: exit %d: %s" % (name, p.returncode, p.stderr.strip()))
    lines = spans(trace)
    os.remove(trace)
    whole = [s for s in lines if s["step"] == name]
    check(len(whole) == 1, "%s: %d spans named %r, want 1" % (name, len(whole), name))
    if not whole:
        return
    top = whole[0]
    check(top["subject"] == subject, "%s: subject %r, want %r" % (name, top["subject"], subject))
    steps = {s["step"] for s in lines}
    for want in ("pdf.open", "pith_data.extract", "page_text.words", "pixels.render", "ocr.title_block", "pixels.wait"):
        check(want in steps, "%s: no %s step (have %s)" % (name, want, sorted(steps)))
    children = {s["pid"] for s in lines} - {top["pid"]}
    check(any(s["step"] == "ocr.title_block" and s["pid"] in children for s in lines),
          "%s: the title block is not read in a child" % name)
    end = top["start"] + top["ms"]
    late = [s["step"] for s in lines if s["start"] < top["start"] - 1 or s["start"] + s["ms"] > end + 1]
    check(not late, "%s: steps outside the command's time: %s" % (name, late))
    check(all(s["ms"] >= 0 for s in lines), "%s: a negative duration" % name)
    print("%s: %d spans, %d processes, %.0f ms" % (name, len(lines), len(children) + 1, top["ms"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    example = os.path.join(args.source, "examples", "article.pdf")
    record = os.path.join(args.source, "examples", "record.json")
    with tempfile.TemporaryDirectory(prefix="pith-trace-") as tmp:
        trace = os.path.join(tmp, "trace.jsonl")
        stamped = os.path.join(tmp, "stamped.pdf")
        env = dict(os.environ, PITH_TRACE=trace)
        check_command("stamp", [args.pith, "stamp", example, "--record", record, "-o", stamped], env, trace, example)
        check_command("verify", [args.pith, "verify", stamped], env, trace, stamped)
        quiet = {k: v for k, v in os.environ.items() if k != "PITH_TRACE"}
        subprocess.run([args.pith, "verify", stamped], env=quiet, capture_output=True)
        check(not os.path.exists(trace), "without PITH_TRACE a trace was written")
        summary = subprocess.run([sys.executable, os.path.join(args.source, "bench", "trace_steps.py"), "--",
                                  args.pith, "verify", stamped], capture_output=True, text=True)
        check(summary.returncode == 0 and "pixels.wait" in summary.stdout and "ocr.title_block" in summary.stdout,
              "bench/trace_steps.py: exit %d: %s" % (summary.returncode, (summary.stdout + summary.stderr).strip()))
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
