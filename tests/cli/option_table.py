#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One option table per command (issue 33): the tables of pith stamp and pith verify (printed by
pith_option_table, built from the same library as pith) against everything made or written from
them.

usage: option_table.py --pith PITH --tables PITH_OPTION_TABLE --source SRC

For each command, every row must be an option of `pith CMD --help` and `--help` must show no
option the table lacks; every row must be in the command's section of doc/pith.1 and in the
option table of doc/commands.md, whose "manifest key" column must say the row's key (or "—" for a
row of the command line only); every key must be taken by a batch manifest line (pith batch
--dry-run; --verify for verify's), and an unknown key must be refused with a message that names
exactly the known keys. Exit 0 pass, 1 fail.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

failures = []

# Keys of a manifest line that are no option of pith stamp: the positional IN.pdf, and the id
# echoed in the report (doc/batch.md).
MANIFEST_ONLY = ["input", "id"]


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def help_flags(pith, command):
    text = subprocess.run([pith, command, "--help"], capture_output=True, text=True, check=True).stdout
    flags = set()
    for line in text[text.index("Options:"):].splitlines():
        m = re.match(r"^  (-[^ ]+)", line)
        if m:
            flags.update(f for f in m.group(1).split(",") if f.startswith("--"))
    return flags - {"--help"}


def section(text, start, end_pattern):
    at = text.index(start) + len(start)
    m = re.compile(end_pattern, re.M).search(text, at)
    return text[at:m.start() if m else len(text)]


def man_flags(man, command):
    body = section(man, ".SS %s\n" % command, r"^\.S[SH] ")
    return {"--" + m.replace("\\-", "-") for m in re.findall(r"\\-\\-((?:[a-z0-9]|\\-(?=[a-z]))+)", body)}


def commands_md_rows(md, command):
    """{flag: key cell} of the table under '### Options of `pith COMMAND`'."""
    body = section(md, "### Options of `pith %s`\n" % command, r"^#")
    rows = {}
    for line in body.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        for flag in re.findall(r"`(--[a-z0-9-]+)", cells[0]):
            rows[flag] = cells[1].strip("`")
    return rows


def manifest_error(pith, tmp, line, verify=False):
    path = os.path.join(tmp, "m.jsonl")
    with open(path, "w") as f:
        f.write(json.dumps(line) + "\n")
    p = subprocess.run([pith, "batch", path, "--dry-run"] + (["--verify"] if verify else []),
                       capture_output=True, text=True, cwd=tmp)
    return p.returncode, p.stderr


def check_manifest(pith, command, rows, tmp):
    keys = [r["key"] for r in rows if r["key"]]
    for key in keys:
        line = {"input": "a.pdf", "output": "o.pdf", key: 1}
        if key != "record":
            line["record"] = "r.json"
        rc, err = manifest_error(pith, tmp, line, verify=command == "verify")
        # A value of the wrong type is refused for its type, never as an unknown key.
        check("unknown key" not in err, "%s: a manifest line does not take %r: %s" % (command, key, err.strip()))
    rc, err = manifest_error(pith, tmp, {"input": "a.pdf", "output": "o.pdf", "record": "r.json", "colour": "red"})
    m = re.search(r'unknown key "colour" \(known: ([^)]*)\)', err)
    check(rc == 2 and m is not None, "an unknown key: exit %d, %r" % (rc, err.strip()))
    return set(m.group(1).split(", ")) if m else set()


def check_command(args, tables, command, man, md, tmp):
    rows = tables[command]
    longs = {r["long"] for r in rows}
    shown = help_flags(args.pith, command)
    check(not longs - shown, "%s --help lacks %s" % (command, sorted(longs - shown)))
    check(not shown - longs, "%s --help shows options the table lacks: %s" % (command, sorted(shown - longs)))
    in_man = man_flags(man, command)
    check(not longs - in_man, "doc/pith.1 (.SS %s) lacks %s" % (command, sorted(longs - in_man)))
    documented = commands_md_rows(md, command)
    for r in rows:
        cell = documented.get(r["long"])
        want = r["key"] or "—"
        check(cell == want, "doc/commands.md (Options of pith %s): %s has manifest key %r, the table %r" %
              (command, r["long"], cell, want))
    check(not set(documented) - longs, "doc/commands.md lists options pith %s does not have: %s" %
          (command, sorted(set(documented) - longs)))
    known = check_manifest(args.pith, command, rows, tmp)
    print("%s: %d options, %d of them manifest keys" % (command, len(rows), sum(1 for r in rows if r["key"])))
    return known


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--tables", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    args.pith = os.path.abspath(args.pith)
    tables = json.loads(subprocess.run([args.tables], capture_output=True, text=True, check=True).stdout)
    man = open(os.path.join(args.source, "doc", "pith.1"), encoding="utf-8").read()
    md = open(os.path.join(args.source, "doc", "commands.md"), encoding="utf-8").read()
    with tempfile.TemporaryDirectory(prefix="pith-option-table-") as tmp:
        known = check_command(args, tables, "stamp", man, md, tmp)
        check_command(args, tables, "verify", man, md, tmp)
    # The unknown-key message names exactly the stamp table's keys and the manifest's own.
    want = set(MANIFEST_ONLY) | {r["key"] for r in tables["stamp"] if r["key"]}
    check(known == want, "the unknown-key message names %s; the table's keys are %s" %
          (sorted(known), sorted(want)))
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
