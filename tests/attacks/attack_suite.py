#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs `pith verify` on every file build_attacks.py made and judges the answers.

usage: attack_suite.py --pith PITH --dir DIR [--open FILE] [--class CLASS | --exclude-class CLASS]

For each file in DIR/manifest.json: `pith verify --json --keyring DIR/KEYRING FILE`.
  attack:  never `trusted`; state == expect.state with its exit status; expect.code is in
           failure[] (invalid) or informational[] (unverified). An entry with expect.or =
           {"exit": 2} may instead be refused (exit 2, not trusted).
  control: `trusted`, exit 0, no failure.
A file named in open.txt (one name per line, then a reason; # comments) is reported OPEN with
pith's current answer and counted as skipped, never failed. One line per file, then
"N passed, N failed, N skipped". Exit 0 when nothing failed, 1 otherwise, 77 without manifest.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pithrun import Failure, isolated_env, run_pith  # noqa: E402

EXIT = {"trusted": 0, "invalid": 1, "unreadable": 2, "absent": 3, "unverified": 4}


def read_open(path):
    names = {}
    if path and os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, reason = line.partition(" ")
                names[name] = reason.strip()
    return names


def verify(pith, directory, entry):
    """(exit status, report dict or None, stderr)."""
    env = isolated_env(os.path.join(directory, "home"))
    trust = ["--trust", os.path.join(directory, entry["trust"])] if entry.get("trust") else []  # a publisher's signature
    rc, out, err = run_pith(pith, ["verify", "--json", "--keyring", os.path.join(directory, entry["keyring"])] + trust +
                            [os.path.join(directory, entry["name"])], env)
    try:
        report = json.loads(out)
        if isinstance(report, list):
            report = report[0]
    except ValueError:
        report = None
    return rc, report, err


def codes(report, section):
    return [f.get("code") for f in (report or {}).get(section, [])]


def judge(entry, rc, report):
    """None when pith's answer is right, else what is wrong."""
    state = (report or {}).get("state")
    if entry["control"]:
        if state != "trusted" or rc != 0 or codes(report, "failure"):
            return "control not trusted: false %s (exit %d)" % (state, rc)
        return None
    if state == "trusted" or rc == 0:
        return "FALSE TRUSTED (exit %d)" % rc
    want = entry["expect"]
    if want.get("or", {}).get("exit") == rc and rc == 2:
        return None  # refused as damaged, which the manifest accepts
    if report is None:
        return "no JSON report (exit %d)" % rc
    if state != want["state"] or rc != EXIT[want["state"]]:
        return "want %s (exit %d), got %s (exit %d)" % (want["state"], EXIT[want["state"]], state, rc)
    section = "failure" if want["state"] == "invalid" else "informational"
    if want["code"] not in codes(report, section):
        return "%s lacks %s" % (section, want["code"])
    if entry["name"].startswith("record-absent") and "pith.title.match" in codes(report, "success"):
        return "pith.title.match claimed from an unsigned pith:title"
    return None


def selftest():
    """judge() on made-up answers: a test that cannot fail is a defect, so show it fails."""
    attack = {"name": "x.pdf", "control": False, "expect": {"state": "invalid", "code": "pith.title.hidden"}}
    control = {"name": "c.pdf", "control": True, "expect": {"state": "trusted", "code": None}}
    absent = {"name": "record-absent.pdf", "control": False, "expect": {"state": "unverified", "code": "pith.record.absent"}}
    hybrid = dict(attack, expect={"state": "invalid", "code": "pith.xref.hybrid", "or": {"exit": 2}})

    def rep(state, failure=(), info=(), success=()):
        return {"state": state, "failure": [{"code": c} for c in failure],
                "informational": [{"code": c} for c in info], "success": [{"code": c} for c in success]}
    cases = [(attack, 1, rep("invalid", ["pith.title.hidden"]), True),
             (attack, 0, rep("trusted"), False),
             (attack, 1, rep("invalid", ["pith.title.differs"]), False),
             (attack, 4, rep("unverified", info=["pith.title.hidden"]), False),
             (attack, 2, None, False),
             (hybrid, 2, None, True),
             (absent, 4, rep("unverified", info=["pith.record.absent"]), True),
             (absent, 4, rep("unverified", info=["pith.record.absent"], success=["pith.title.match"]), False),
             (control, 0, rep("trusted"), True),
             (control, 1, rep("invalid", ["pith.changed.page"]), False)]
    bad = [i for i, (e, rc, r, ok) in enumerate(cases) if (judge(e, rc, r) is None) != ok]
    print("selftest: %d cases, %s" % (len(cases), "wrong verdicts in cases %s" % bad if bad else "all verdicts right"))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith")
    ap.add_argument("--dir")
    ap.add_argument("--selftest", action="store_true", help="check the judge on made-up answers, then exit")
    ap.add_argument("--open", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "open.txt"))
    ap.add_argument("--class", dest="cls", help="only entries of this class (controls: 'control')")
    ap.add_argument("--exclude-class", dest="not_cls", help="all entries but those of this class")
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    if not args.pith or not args.dir:
        ap.error("--pith and --dir are required")
    manifest = os.path.join(args.dir, "manifest.json")
    if not os.path.exists(manifest):
        print("skipped: no %s (attacks_build did not run or was skipped)" % manifest)
        return 77
    with open(manifest) as f:
        entries = json.load(f)["files"]
    if args.cls:
        entries = [e for e in entries if e["class"] == args.cls]
    if args.not_cls:
        entries = [e for e in entries if e["class"] != args.not_cls]
    opened = read_open(args.open)
    unknown = sorted(set(opened) - set(e["name"] for e in json.load(open(manifest))["files"]))
    passed = failed = skipped = 0
    for e in entries:
        try:
            rc, report, err = verify(args.pith, args.dir, e)
            problem = judge(e, rc, report)
        except Failure as x:
            rc, report, problem = -1, None, "pith failed: %s" % x
        state = (report or {}).get("state", "-")
        section = "informational" if state == "unverified" else "failure"
        shown = ",".join(codes(report, section)) or "-"
        if e["name"] in opened:
            skipped += 1
            tag = "OPEN" + ("(now ok: prune open.txt)" if problem is None else "")
            print("%-4s %-40s %-10s %s   [%s]" % (tag, e["name"], state, shown, problem or opened[e["name"]]))
        elif problem is None:
            passed += 1
            print("ok   %-40s %-10s %s" % (e["name"], state, shown))
        else:
            failed += 1
            print("FAIL %-40s %-10s %s   [%s; want %s %s]" % (e["name"], state, shown, problem, e["expect"]["state"],
                                                           e["expect"]["code"] or ""))
    for name in unknown:
        print("note: open.txt names %s, which the manifest does not have" % name)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
