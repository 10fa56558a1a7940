#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One JSON form per result (issue 33): a `pith batch` report line carries part of what
`pith stamp --json` and `pith verify --json` print for the same file (doc/batch.md, Report), with
the same values.

usage: result_json.py --pith PITH --source SRC CASE   (CASE: stamp, verify)
Exit 0 pass, 1 fail.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pithrun import Workdir, case_main, check  # noqa: E402

# Options that give a badge where asked, with a warning that it covers the paper's text.
STAMP_FLAGS = ["--at", "250,400", "--qr", "--style", "boxed"]
STAMP_KEYS = {"at": [250, 400], "qr": True, "style": "boxed"}


def batch_lines(ctx, lines, *flags):
    manifest = ctx.write("manifest.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
    report = ctx.path("report.jsonl")
    rc, _, err = ctx.run(["batch", manifest, "--report", report, "-q", "-j", "1"] + list(flags))
    files = [json.loads(x) for x in open(report) if json.loads(x).get("event") == "file"]
    check(len(files) == len(lines), "batch: %d file lines for %d manifest lines (exit %d: %s)" % (len(files), len(lines), rc, err))
    return sorted(files, key=lambda f: f["line"])


def case_stamp(ctx):
    rc, out, err = ctx.run(["stamp", ctx.article, "--record", ctx.record, "-o", ctx.path("cli.pdf"), "--json"] + STAMP_FLAGS)
    check(rc == 0, "pith stamp: exit %d: %s" % (rc, err))
    full = json.loads(out)
    check(full["badge"] and full["warnings"], "the options chosen give a badge and a warning: %r" % full)
    line = batch_lines(ctx, [dict(STAMP_KEYS, input=ctx.article, record=ctx.record, output=ctx.path("batch.pdf"))])[0]
    check(line["status"] == "stamped", "batch: %r" % line)
    same = {"number": full["number"], "warnings": full["warnings"], "badge_page": full["badge"]["page"],
            "badge_spot": full["badge"]["spot"], "badge_boxed": full["badge"]["boxed"]}
    for key, value in same.items():
        check(line.get(key) == value, "batch line %s = %r, pith stamp --json says %r" % (key, line.get(key), value))
    for key in ("latex_badge_kept", "replaced_previous_stamp"):  # only when true
        check(line.get(key, False) == full[key], "batch line %s = %r, pith stamp --json %r" % (key, line.get(key), full[key]))
    print("stamped line and pith stamp --json agree on %s" % sorted(same))


def case_verify(ctx):
    rc, _, err = ctx.run(["stamp", ctx.article, "--record", ctx.record, "-o", ctx.path("stamped.pdf")])
    check(rc == 0, "pith stamp: exit %d: %s" % (rc, err))
    ctx.write("not.pdf", b"%PDF-1.7\nthis is no PDF\n")
    files = ["stamped.pdf", "not.pdf"]
    rc, out, _ = ctx.run(["verify", "--json"] + files)
    reports = [json.loads(x) for x in out.splitlines()]
    lines = batch_lines(ctx, [{"input": f} for f in files], "--verify")
    for report, line in zip(reports, lines):
        check(set(report) >= {"file", "state", "number", "success", "informational", "failure", "regions"},
              "pith verify --json of %s lacks keys: %r" % (report["file"], sorted(report)))
        check(line["file"] == report["file"] and line["status"] == report["state"],
              "batch line %r, pith verify --json %r" % (line, report))
        if report["state"] == "unreadable":
            check(line["error"] == report["error"] and line["error_code"] == report["error_code"],
                  "unreadable: batch %r, pith verify %r" % (line, report))
        else:
            check(line["number"] == report["number"] and line["failures"] == [f["code"] for f in report["failure"]],
                  "batch line %r, pith verify --json %r" % (line, report))
    check([r["state"] for r in reports] == ["unverified", "unreadable"], "states: %r" % [r["state"] for r in reports])
    print("--verify lines and pith verify --json agree: %s" % [(r["file"], r["state"]) for r in reports])


def main():
    return case_main(globals(), Workdir, "pith-result-json-")


if __name__ == "__main__":
    sys.exit(main())
