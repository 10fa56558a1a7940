#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One option table per command: the tables of pith stamp and pith verify (printed by
pith_option_table, built from the same library as pith) against everything made or written from
them; and the options of every other command against its man page section and its user docs.

usage: option_table.py --pith PITH --tables PITH_OPTION_TABLE --source SRC

For stamp and verify, every row must be an option of `pith CMD --help` and `--help` must show no
option the table lacks; every row must be in the command's section of doc/pith.1 and in the
option table of doc/commands.md, whose "manifest key" column must say the row's key (or "—" for a
row of the command line only); every key must be taken by a batch manifest line (pith batch
--dry-run; --verify for verify's), and an unknown key must be refused with a message that names
exactly the known keys.

For every command (the Subcommands of `pith --help`, and theirs, as `keys add`; and pith itself),
the options its --help shows (long and short, but -h/--help) must be exactly the options named on
the tag lines (after .TP) of its `.SS CMD` section of doc/pith.1 (pith itself: .SH OPTIONS before
the first .SS), and exactly those in the first column of the table under "Options of `pith CMD`"
in doc/commands.md (doc/batch.md for batch); doc/pith.1 has no .SS section for a command pith
lacks. Every default and choice list `--help` shows (TYPE=DEFAULT, a|b|c=DEFAULT) must be given by
the option's man entry and its docs row ("default X", "X (default)"), the choices written as the
flag's value (`--style plain|boxed`); a stamp row's choices must each be taken by a manifest line,
and another value refused. Exit 0 pass, 1 fail.
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


def help_text(pith, words):
    return subprocess.run([pith] + words + ["--help"], capture_output=True, text=True, check=True).stdout


def help_block(text, title):
    """The lines of CLI11's block `title` (Options:, Subcommands:), up to its blank line."""
    if title not in text:
        return []
    return text[text.index(title) + len(title):].split("\n\n")[0].splitlines()


def help_flags(text):
    """Every flag `--help` shows, long and short, but -h/--help."""
    flags = set()
    for line in help_block(text, "Options:"):
        m = re.match(r"^  (-[^ ]+)", line)
        if m:
            flags.update(m.group(1).split(","))
    return flags - {"-h", "--help"}


# CLI11 writes a value as TYPE=DEFAULT, or CHOICES=DEFAULT with CHOICES "a|b|c" (one_of(), a row's
# choices); a value name such as KEY=N,... is neither.
VALUE = re.compile(r"^(TEXT|INT|UINT|FLOAT|[a-z0-9-]+(?:\|[a-z0-9-]+)+)(?:=(\S+))?$")


def help_values(text):
    """{long flag: (choices or None, default or None)} of the options `--help` shows a value for."""
    values = {}
    for line in help_block(text, "Options:"):
        m = re.match(r"^  (-\S+) (\S+)", line)
        if not m:
            continue
        v = VALUE.match(m.group(2))
        if not v:
            continue
        choices = v.group(1) if "|" in v.group(1) else None
        if choices or v.group(2):
            values[m.group(1).split(",")[-1]] = (choices, v.group(2))
    return values


def plain(text):
    """A man page's or a Markdown table's text without fonts, escapes and code marks."""
    text = re.sub(r"\\f[BIRP]", "", text).replace("\\-", "-").replace("\\(aq", "'")
    return text.replace("\\|", "|").replace("`", "")


def states_default(text, value):
    """Whether `text` gives `value` as a default: "default X", "default Y and X", "X (default)",
    "X, the default"."""
    x = re.escape(value)
    return re.search(r"default:? (?:\S+ and )?%s(?![\w/])|(?<![\w-])%s,? \(?(?:the )?default" % (x, x),
                     plain(text)) is not None


def man_entry(body, flag):
    """The .TP entry of a man section whose tag names `flag`: its tag and paragraph."""
    for entry in re.split(r"^\.TP\n", body, flags=re.M)[1:]:
        if flag in man_flags(".TP\n" + entry.split("\n", 1)[0]):
            return entry
    return ""


def doc_row(md, command, flag):
    """The row of the table under "Options of `pith COMMAND`" whose first cell names `flag`."""
    title = "`pith %s`" % command if command else "`pith`"
    m = re.search(r"^#+ Options of %s\n" % re.escape(title), md, re.M)
    for line in section(md, m.group(0), r"^#").splitlines() if m else []:
        cells = re.split(r"(?<!\\)\|", line)
        if len(cells) > 2 and re.search(r"`%s[ `]" % re.escape(flag), cells[1]):
            return line
    return ""


def check_values(name, values, man_body, md, doc):
    """Each default and choice list --help shows is the one the man page and the user docs give."""
    what = "pith %s" % name if name else "pith"
    for flag, (choices, default) in sorted(values.items()):
        entry, row = man_entry(man_body, flag), doc_row(md, name, flag)
        if choices:
            check("%s %s" % (flag, choices) in plain(entry.split("\n", 1)[0]),
                  "doc/pith.1 (%s): %s is not written %s %s" % (what, flag, flag, choices))
            check("%s %s" % (flag, choices) in plain(re.split(r"(?<!\\)\|", row)[1] if row else ""),
                  "%s (Options of %s): %s is not written %s %s" % (doc, what, flag, flag, choices))
        if default:
            check(states_default(entry, default), "doc/pith.1 (%s): %s does not say its default %s" % (what, flag, default))
            check(states_default(row, default), "%s (Options of %s): %s does not say its default %s" %
                  (doc, what, flag, default))


def commands(pith):
    """{name: (its --help flags, help_values())}: pith itself (""), each subcommand and each of
    theirs ("keys add")."""
    found = {}

    def walk(words):
        text = help_text(pith, words)
        subs = re.findall(r"^  (\S+)", "\n".join(help_block(text, "Subcommands:")), re.M)
        flags = help_flags(text)
        if flags or not subs:
            found[" ".join(words)] = (flags, help_values(text))
        for sub in subs:
            walk(words + [sub])

    walk([])
    return found


def section(text, start, end_pattern):
    at = text.index(start) + len(start)
    m = re.compile(end_pattern, re.M).search(text, at)
    return text[at:m.start() if m else len(text)]


def man_sections(man):
    """{command: body} of each .SS of doc/pith.1's OPTIONS; "" for what comes before the first."""
    options = section(man, ".SH OPTIONS\n", r"^\.SH ")
    parts = re.split(r"^\.SS (.+)\n", options, flags=re.M)
    return dict(zip([""] + parts[1::2], parts[0::2]))


def man_flags(body):
    """The flags the tag lines (the line after each .TP) of a man section name."""
    flags = set()
    for tag in re.findall(r"^\.TP\n(.*)$", body, re.M):
        tag = re.sub(r"\\f[BIRP]", "", tag).replace("\\-", "-")
        flags.update(re.findall(r"(?<![\w-])(--?[a-z][a-z0-9-]*)", tag))
    return flags


def doc_flags(md, command):
    """The flags in the first column of the table under "Options of `pith COMMAND`", or None."""
    title = "`pith %s`" % command if command else "`pith`"
    m = re.search(r"^#+ Options of %s\n" % re.escape(title), md, re.M)
    if not m:
        return None
    flags = set()
    for line in section(md, m.group(0), r"^#").splitlines():
        cells = re.split(r"(?<!\\)\|", line)
        if len(cells) > 2 and cells[1].strip().startswith("`"):
            flags.update(re.findall(r"`(--?[a-z][a-z0-9-]*)", cells[1]))
    return flags


def check_documented(name, shown, in_man, in_doc, doc):
    what = "pith %s" % name if name else "pith"
    check(not shown - in_man, "doc/pith.1 (%s) lacks %s" % (what, sorted(shown - in_man)))
    check(not in_man - shown, "doc/pith.1 (%s) documents options it does not have: %s" %
          (what, sorted(in_man - shown)))
    check(in_doc is not None, "%s has no table under \"Options of `%s`\"" % (doc, what))
    if in_doc is not None:
        check(not shown - in_doc, "%s (Options of %s) lacks %s" % (doc, what, sorted(shown - in_doc)))
        check(not in_doc - shown, "%s (Options of %s) lists options it does not have: %s" %
              (doc, what, sorted(in_doc - shown)))


def check_all_commands(pith, source, man):
    """Every command's --help options against its man section and its user docs, both ways."""
    found = commands(pith)
    sections = man_sections(man)
    docs = {}
    for name, (shown, values) in sorted(found.items()):
        doc = "doc/batch.md" if name == "batch" else "doc/commands.md"
        if doc not in docs:
            docs[doc] = open(os.path.join(source, doc), encoding="utf-8").read()
        check(name in sections, "doc/pith.1 has no section .SS %s" % name)
        check_documented(name, shown, man_flags(sections.get(name, "")), doc_flags(docs[doc], name), doc)
        check_values(name, values, sections.get(name, ""), docs[doc], doc)
    stale = set(sections) - set(found)
    check(not stale, "doc/pith.1 has sections for commands pith lacks: %s" % sorted(stale))
    print("%d commands, %d options checked against doc/pith.1 and the user docs; %d defaults, %d choice lists" %
          (len(found), sum(len(f) for f, _ in found.values()),
           sum(1 for _, v in found.values() for c, d in v.values() if d),
           sum(1 for _, v in found.values() for c, d in v.values() if c)))


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
    for row in rows:
        if not (row["key"] and row["choices"]):
            continue
        # A row's choices are what its apply takes: each one, and nothing else.
        for choice in row["choices"].split("|"):
            rc, err = manifest_error(pith, tmp, {"input": "a.pdf", "output": "o.pdf", "record": "r.json", row["key"]: choice})
            check(row["key"] not in err, "%s: a manifest line refuses %s %r: %s" % (command, row["key"], choice, err.strip()))
        rc, err = manifest_error(pith, tmp, {"input": "a.pdf", "output": "o.pdf", "record": "r.json", row["key"]: "elsewhere"})
        check(rc == 2 and row["key"] in err, "%s: a manifest line takes %s \"elsewhere\" (%s only): exit %d" %
              (command, row["key"], row["choices"], rc))
    rc, err = manifest_error(pith, tmp, {"input": "a.pdf", "output": "o.pdf", "record": "r.json", "colour": "red"})
    m = re.search(r'unknown key "colour" \(known: ([^)]*)\)', err)
    check(rc == 2 and m is not None, "an unknown key: exit %d, %r" % (rc, err.strip()))
    return set(m.group(1).split(", ")) if m else set()


def check_command(args, tables, command, man, md, tmp):
    rows = tables[command]
    longs = {r["long"] for r in rows}
    shown = {f for f in help_flags(help_text(args.pith, [command])) if f.startswith("--")}
    check(not longs - shown, "%s --help lacks %s" % (command, sorted(longs - shown)))
    check(not shown - longs, "%s --help shows options the table lacks: %s" % (command, sorted(shown - longs)))
    in_man = man_flags(man_sections(man).get(command, ""))
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
    check_all_commands(args.pith, args.source, man)
    check(known == want, "the unknown-key message names %s; the table's keys are %s" %
          (sorted(known), sorted(want)))
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
