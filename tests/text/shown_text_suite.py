#!/usr/bin/env python3
"""pith's quick page text (pith::pdf::shown_text) against poppler, on the corpus.

usage: shown_text_suite.py PROBE [--corpus DIR]

`pith verify` settles the title check with pith's own reading of page 1 when it finds the
record's title there, and asks poppler only when it does not. That is sound only if a title
the quick reading finds is one poppler finds too. For every readable PDF in valid/, pdfa/,
signed/ and large/ this asks both readings (PROBE = shown_text_probe) about candidate titles:

  - each of the first 12 non-empty lines pdftotext prints for page 1, and each two
    consecutive lines joined (titles over two lines), as true candidates;
  - each true candidate with a letter added at its end, or its middle letter changed, and
    the first line of the next file, as false candidates.

Fails when the quick reading matches a candidate poppler does not (a finding pith would make
that poppler would not), or when it finds fewer than MIN_FIRST_LINE_SHARE of the first lines
poppler finds (the quick path stopped working). Prints the share of every kind.
Exit 0 pass, 1 fail, 77 without a corpus.
"""
import argparse
import os
import subprocess
import sys

MIN_FIRST_LINE_SHARE = 0.80  # 56 of 64 at the time of writing: see the printed figures
FOLDERS = ("valid", "pdfa", "signed", "large")


def pdftotext_lines(path):
    try:
        r = subprocess.run(["pdftotext", "-q", "-f", "1", "-l", "1", path, "-"], capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return []
    text = r.stdout.decode("utf-8", "replace")
    return [l.strip("\f ") for l in text.split("\n") if l.strip("\f ")]


def changed_middle(s):
    i = len(s) // 2
    return s[:i] + ("q" if s[i] != "q" else "z") + s[i + 1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("probe")
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "corpus"))
    args = ap.parse_args()
    if not os.path.isdir(args.corpus):
        print("SKIP: no corpus at %s" % args.corpus)
        return 77

    files = [os.path.join(args.corpus, d, f) for d in FOLDERS if os.path.isdir(os.path.join(args.corpus, d))
             for f in sorted(os.listdir(os.path.join(args.corpus, d))) if f.endswith(".pdf")]
    lines_of = {f: pdftotext_lines(f) for f in files}
    readable = [f for f in files if lines_of[f]]
    problems = []
    counts = {"first line": [0, 0], "line": [0, 0], "two lines": [0, 0]}  # [poppler matches, quick matches too]
    false_checked = 0
    for n, path in enumerate(readable):
        lines = lines_of[path][:12]
        true = [("first line" if i == 0 else "line", l) for i, l in enumerate(lines)]
        true += [("two lines", a + " " + b) for a, b in zip(lines, lines[1:])]
        false = [l + "x" for _, l in true] + [changed_middle(l) for _, l in true if len(l) >= 8]
        false.append(lines_of[readable[(n + 1) % len(readable)]][0])
        candidates = [t for _, t in true] + false
        r = subprocess.run([args.probe, path, "1"] + candidates, capture_output=True, timeout=300)
        rel = os.path.relpath(path, args.corpus)
        if r.returncode == 3:
            continue  # no quick text for this page: poppler decides
        if r.returncode != 0:
            problems.append("%s: probe exit %d: %s" % (rel, r.returncode, r.stderr.decode("utf-8", "replace").strip()))
            continue
        answers = r.stdout.decode().split("\n")[:-1]
        if len(answers) != len(candidates):
            problems.append("%s: %d answers for %d candidates" % (rel, len(answers), len(candidates)))
            continue
        for candidate, answer in zip(candidates, answers):
            quick, poppler = answer.split()
            if quick == "matches" and poppler != "matches":
                problems.append("%s: the quick reading finds %r, poppler does not" % (rel, candidate))
        for (kind, _), answer in zip(true, answers):
            quick, poppler = answer.split()
            if poppler == "matches":
                counts[kind][0] += 1
                counts[kind][1] += quick == "matches"
        false_checked += len(false)

    for kind, (found, quick) in counts.items():
        print("%-10s found by poppler %4d, by the quick reading too %4d (%.0f%%)" % (kind, found, quick, 100.0 * quick / max(found, 1)))
    print("false candidates checked: %d" % false_checked)
    found, quick = counts["first line"]
    if found and quick / found < MIN_FIRST_LINE_SHARE:
        problems.append("the quick reading finds only %d of %d first lines (want %.0f%%)" % (quick, found, 100 * MIN_FIRST_LINE_SHARE))
    for p in problems:
        print("FAIL", p)
    print("shown_text: %s (%d files)" % ("FAILED" if problems else "passed", len(readable)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
