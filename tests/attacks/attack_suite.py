#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs `pith verify` on every file build_attacks.py made and judges the answers.

usage: attack_suite.py --pith PITH --dir DIR [--counts FILE] [--class CLASS | --exclude-class CLASS]
       attack_suite.py --selftest

For each file in DIR/manifest.json: `pith verify --json --keyring DIR/KEYRING FILE`.
  attack:  never `trusted`; state == expect.state with its exit status; expect.code is in
           failure[] (invalid) or informational[] (unverified). An entry with expect.or =
           {"exit": 2, "error_code": CODE} may instead be refused: exit 2, state unreadable,
           error_code CODE (never a bare exit 2).
  control: `trusted`, exit 0, no failure.
There is no list of known failures: every wrong answer fails the run (an attack verify does not
catch yet is tracked in an issue and fails here until it is fixed). The selected classes must
hold exactly the number of files expected_counts.json states for each (a class emptied, a file
or a builder step dropped fails). One line per file, then "N passed, N failed".
Exit 0 when nothing failed, 1 otherwise, 77 without manifest.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pithrun import Failure, isolated_env, run_pith  # noqa: E402

EXIT = {"trusted": 0, "invalid": 1, "unreadable": 2, "absent": 3, "unverified": 4}


HERE = os.path.dirname(os.path.abspath(__file__))
COUNTS = os.path.join(HERE, "expected_counts.json")


def read_counts(path):
    """{class: number of manifest files} as expected_counts.json states it ("control": the controls)."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)["classes"]


def count_problems(entries, expected, wanted):
    """What is wrong with the number of files per class among `entries`, the selected part of the
    manifest; `wanted(cls)` says whether a class is selected. Every selected class of the table
    must be there with exactly its count, and no class the table does not know."""
    got = {}
    for e in entries:
        got[e["class"]] = got.get(e["class"], 0) + 1
    problems = ["class %s: %d files, expected_counts.json says %d" % (c, got.get(c, 0), n)
                for c, n in sorted(expected.items()) if wanted(c) and got.get(c, 0) != n]
    problems += ["class %s (%d files) is not in expected_counts.json" % (c, n) for c, n in sorted(got.items()) if c not in expected]
    if not entries:
        problems.append("no files selected")
    return problems


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
    if report is None:
        return "no JSON report (exit %d)" % rc
    alt = want.get("or")
    if alt and rc == 2:  # refused: only with the error the manifest names
        got = report.get("error_code")
        if rc == alt.get("exit") and report.get("state") == "unreadable" and got and got == alt.get("error_code"):
            return None
        return "refused (exit 2) with %s %s, the manifest allows only unreadable %s" % (report.get("state"), got, alt.get("error_code"))
    if state != want["state"] or rc != EXIT[want["state"]]:
        return "want %s (exit %d), got %s (exit %d)" % (want["state"], EXIT[want["state"]], state, rc)
    section = "failure" if want["state"] == "invalid" else "informational"
    if want["code"] not in codes(report, section):
        return "%s lacks %s" % (section, want["code"])
    if entry["name"].startswith("record-absent") and "pith.title.match" in codes(report, "success"):
        return "pith.title.match claimed from an unsigned pith:title"
    return None


FAKE_PITH = """#!/usr/bin/env python3
# A stand-in for pith in the self-test: `verify --json ... FILE` prints the answer ANSWERS gives FILE.
import json, os, sys
answer = json.load(open(os.environ["FAKE_PITH_ANSWERS"]))[os.path.basename(sys.argv[-1])]
print(json.dumps(answer["report"]))
sys.exit(answer["exit"])
"""


def rep(state, failure=(), info=(), success=()):
    return {"state": state, "failure": [{"code": c} for c in failure],
            "informational": [{"code": c} for c in info], "success": [{"code": c} for c in success]}


def run_suite(tmp, files, answers, counts, *extra):
    """main() in a child on a made-up manifest and fake pith: (exit status, output)."""
    import subprocess
    d = os.path.join(tmp, "run-%d" % len(os.listdir(tmp)))
    os.makedirs(d)
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump({"files": files}, f)
    with open(os.path.join(d, "answers.json"), "w") as f:
        json.dump(answers, f)
    with open(os.path.join(d, "counts.json"), "w") as f:
        json.dump({"classes": counts}, f)
    # What the open-list mechanism read (gone): an open.txt naming the file changes nothing.
    with open(os.path.join(d, "open.txt"), "w") as f:
        f.write("".join("%s known open\n" % e["name"] for e in files))
    fake = os.path.join(tmp, "pith")
    if not os.path.exists(fake):
        with open(fake, "w") as f:
            f.write(FAKE_PITH)
        os.chmod(fake, 0o755)
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--pith", fake, "--dir", d,
                        "--counts", os.path.join(d, "counts.json")] + list(extra),
                       capture_output=True, text=True, env=dict(os.environ, FAKE_PITH_ANSWERS=os.path.join(d, "answers.json")))
    return p.returncode, p.stdout + p.stderr


def doc_counts_problem(repo, counts):
    """doc/tests.md states the attack suite's size: it must be expected_counts.json's."""
    with open(os.path.join(repo, "doc", "tests.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"(\d+) attack files in (\d+) classes.*?(\d+) honest controls", text, re.S)
    attacks = {c: n for c, n in counts.items() if c != "control"}
    want = (sum(attacks.values()), len(attacks), counts.get("control", 0))
    got = tuple(int(x) for x in m.groups()) if m else None
    return None if got == want else "doc/tests.md says %r (attack files, classes, controls), expected_counts.json %r" % (got, want)


def selftest():
    """judge() on made-up answers, then the whole suite on made-up manifests with a fake pith:
    a test that cannot fail is a defect, so show that each planted fault fails it."""
    import shutil
    import tempfile
    attack = {"name": "x.pdf", "class": "hidden", "keyring": "ring.json", "control": False, "expect": {"state": "invalid", "code": "pith.title.hidden"}}
    control = {"name": "c.pdf", "class": "control", "keyring": "ring.json", "control": True, "expect": {"state": "trusted", "code": None}}
    absent = {"name": "record-absent.pdf", "class": "absent", "control": False,
              "expect": {"state": "unverified", "code": "pith.record.absent"}}
    hybrid = dict(attack, expect={"state": "invalid", "code": "pith.xref.hybrid", "or": {"exit": 2, "error_code": "pdf.damaged"}})
    refused = dict(rep("unreadable"), error_code="pdf.damaged")
    cases = [(attack, 1, rep("invalid", ["pith.title.hidden"]), True),
             (attack, 0, rep("trusted"), False),
             (attack, 1, rep("invalid", ["pith.title.differs"]), False),
             (attack, 4, rep("unverified", info=["pith.title.hidden"]), False),
             (attack, 2, None, False),
             (attack, 2, refused, False),  # no "or" in the manifest: a refusal is wrong
             (hybrid, 2, None, False),  # a bare exit 2 is not enough
             (dict(hybrid, expect=dict(hybrid["expect"], **{"or": {"exit": 2}})), 2, refused, False),  # nor an "or" naming no code
             (hybrid, 2, refused, True),
             (hybrid, 2, dict(refused, error_code="pdf.syntax"), False),
             (hybrid, 1, rep("invalid", ["pith.xref.hybrid"]), True),
             (absent, 4, rep("unverified", info=["pith.record.absent"]), True),
             (absent, 4, rep("unverified", info=["pith.record.absent"], success=["pith.title.match"]), False),
             (control, 0, rep("trusted"), True),
             (control, 1, rep("invalid", ["pith.changed.page"]), False)]
    bad = ["judge case %d" % i for i, (e, rc, r, ok) in enumerate(cases) if (judge(e, rc, r) is None) != ok]

    # Whole runs (fake pith): (what is planted, files, answers, counts, extra arguments, exit wanted, text wanted).
    good = {"x.pdf": {"exit": 1, "report": rep("invalid", ["pith.title.hidden"])},
            "y.pdf": {"exit": 1, "report": rep("invalid", ["pith.title.hidden"])},
            "c.pdf": {"exit": 0, "report": rep("trusted")}}
    y = dict(attack, name="y.pdf")
    files = [attack, y, control]
    counts = {"hidden": 2, "control": 1}
    false_trusted = dict(good)
    false_trusted["x.pdf"] = {"exit": 0, "report": rep("trusted")}
    runs = [("nothing", files, good, counts, [], 0, "3 passed, 0 failed"),
            ("a false trusted named in open.txt", files, false_trusted, counts, [], 1, "FAIL x.pdf"),
            ("a file dropped from a class", [attack, control], good, counts, [], 1, "class hidden: 1 files"),
            ("a class emptied", [control], good, counts, ["--exclude-class", "control"], 1, "class hidden: 0 files"),
            ("an empty manifest", [], good, counts, [], 1, "no files selected"),
            ("a class the table does not know", files + [dict(attack, name="z.pdf", **{"class": "new"})],
             dict(good, **{"z.pdf": good["x.pdf"]}), counts, [], 1, "class new (1 files) is not in"),
            ("the controls dropped", [attack, y], good, counts, ["--class", "control"], 1, "class control: 0 files")]
    tmp = tempfile.mkdtemp(prefix="attack-suite-selftest-")
    try:
        for what, fs, answers, cs, extra, want_rc, want_text in runs:
            rc, out = run_suite(tmp, fs, answers, cs, *extra)
            ok = rc == want_rc and want_text in out
            print("selftest run, planted %-34s exit %d%s" % (what + ":", rc, "" if ok else "  WRONG:\n" + out))
            if not ok:
                bad.append(what)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    problem = doc_counts_problem(os.path.dirname(os.path.dirname(HERE)), read_counts(COUNTS))
    if problem:
        bad.append(problem)
    print("selftest: %d judge cases, %d runs: %s" % (len(cases), len(runs), "WRONG: %s" % bad if bad else "all verdicts right"))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith")
    ap.add_argument("--dir")
    ap.add_argument("--selftest", action="store_true", help="check the judge and the counts on made-up answers, then exit")
    ap.add_argument("--counts", default=COUNTS, help="files expected per class (default: expected_counts.json)")
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
    wanted = lambda c: (not args.cls or c == args.cls) and (not args.not_cls or c != args.not_cls)  # noqa: E731
    entries = [e for e in entries if wanted(e["class"])]
    passed = failed = 0
    for e in entries:
        try:
            rc, report, err = verify(args.pith, args.dir, e)
            problem = judge(e, rc, report)
        except Failure as x:
            rc, report, problem = -1, None, "pith failed: %s" % x
        state = (report or {}).get("state", "-")
        section = "informational" if state == "unverified" else "failure"
        shown = ",".join(codes(report, section)) or (report or {}).get("error_code") or "-"
        if problem is None:
            passed += 1
            print("ok   %-40s %-10s %s" % (e["name"], state, shown))
        else:
            failed += 1
            print("FAIL %-40s %-10s %s   [%s; want %s %s]" % (e["name"], state, shown, problem, e["expect"]["state"],
                                                           e["expect"]["code"] or ""))
    counted = count_problems(entries, read_counts(args.counts), wanted)
    for line in counted:
        print("FAIL count: " + line)
    print("%d passed, %d failed%s" % (passed, failed, "; %d count(s) wrong" % len(counted) if counted else ""))
    return 1 if failed or counted else 0


if __name__ == "__main__":
    sys.exit(main())
