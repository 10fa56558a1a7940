#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pith's reader and poppler agree on every corpus and attack file's pages.

usage: reader_diff.py PROGRAM --corpus DIR [--attacks DIR]

pith reads a PDF with its own reader (src/pdf) to find the page it stamps and checks, and
verify's child reads the same bytes with poppler to see what a reader shows: if the two disagreed
on which objects are the pages, or in what order, pith would check one page and a viewer show
another. PROGRAM (tests/pdf/reader_diff.cpp) opens each file with both; this script checks that
they give the same page count, order and page objects (number and generation of each page
dictionary; -1 -1 for a page a reader counts but cannot load), or that neither has a page. Files: every row of the corpus's MANIFEST.tsv (with its
password), and every file of the attack suite's manifest.json (built by attacks_build). A
disagreement on a file listed in KNOWN (examined and explained) is printed, not failed.
Exit 0 when they agree, 1 otherwise (a missing corpus, corpus file or attack manifest too).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))
import manifest  # noqa: E402

# Files on which the readers disagree, each examined (poppler's answer checked with pdftotext,
# and qpdf --show-npages and mutool info as third and fourth readers): damaged files, which pith
# refuses without --allow-damaged, and a construct viewers read differently, which verify reports.
KNOWN = {
    "corpus/large/unreadablemetadata.pdf":
        "xref not found: poppler takes /Count (4) but loads none of the pages (pdftotext fails); "
        "pith, qpdf and MuPDF, rebuilding the cross-reference data, find no page",
    "corpus/malformed/deep-pages.pdf":
        "a loop in the page tree: poppler counts the page by /Count but cannot load it ('Loop in Pages "
        "tree'); pith finds no page",
    "corpus/malformed/qpdf-fuzz-388571629.pdf":
        "fuzzed header (%PDF-4294972...): pith refuses the file, poppler and qpdf read page 1 of 2",
    "corpus/malformed/pikepdf-fuzz-378014596.pdf":
        "truncated, no %%EOF: pith (as MuPDF) rebuilds the cross-reference data and finds a page; "
        "poppler and qpdf refuse the file",
    "corpus/malformed/minimal-aes256-malformed-perms.pdf":
        "AES-256 with a malformed /Perms: pith refuses the encryption, poppler opens the file",
    "corpus/malformed/xref-compressed-in-compressed.pdf":
        "page 28 is an object that a broken object stream defines: poppler reads 13 0 R there, qpdf "
        "83 0 R; pith skips it and calls the file damaged (the page tree lists an object that is no "
        "page); all agree on pages 1-27",
    "attacks/viewers-pages-count-zero.pdf":
        "a page-tree node says /Count 0 over a page: pith (as MuPDF) goes down by /Count and skips "
        "it, poppler walks /Kids; verify reports the ambiguity (pith.objects.ambiguous)",
}


def corpus_files(corpus):
    held = manifest.load(corpus)  # a missing corpus or corpus file fails
    for row in held.rows():
        yield "corpus/" + row["file"], held.path(row), row.get("password") or ""


def attack_files(work):
    listing = os.path.join(work, "manifest.json")
    if not os.path.exists(listing):  # attacks_build (the fixture) did not run or failed
        raise SystemExit("FAIL: no %s: the attack files are not there" % listing)
    with open(listing, encoding="utf-8") as f:
        for e in json.load(f)["files"]:
            yield "attacks/" + e["name"], os.path.join(work, e["name"]), ""


def describe(answer):
    if "error" in answer:
        return "refused (%s)" % answer["error"]
    pages = answer["pages"]
    head = " ".join("%d %d R" % (n, g) for n, g in pages[:6])
    return "%d pages [%s%s]" % (len(pages), head, " ..." if len(pages) > 6 else "")


def disagreement(answer):
    """'' when pith and poppler agree on the file, else what differs. A reader that refuses the
    file and one that finds no page in it agree: neither shows a page."""
    pith, poppler = answer["pith"], answer["poppler"]
    a, b = pith.get("pages", []), poppler.get("pages", [])
    if a == b:
        return ""
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return "pith: %s; poppler: %s; first difference on page %d" % (describe(pith), describe(poppler), first + 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--attacks")
    args = ap.parse_args()
    shared = os.environ.get("PITH_SHARED")
    if shared and os.path.exists(os.path.join(shared, "corpus", "MANIFEST.tsv")):
        args.corpus = os.path.join(shared, "corpus")
    files = list(corpus_files(args.corpus)) + (list(attack_files(args.attacks)) if args.attacks else [])
    names = {path: name for name, path, _ in files}
    stdin = "".join("%s\t%s\n" % (path, password) for _, path, password in files)
    out = subprocess.run([args.program], input=stdin.encode(), stdout=subprocess.PIPE, check=True).stdout
    answers = [json.loads(line) for line in out.decode().splitlines()]
    if len(answers) != len(files):
        print("FAIL: %d answers for %d files" % (len(answers), len(files)))
        return 1
    failed = listed = refused = pages = 0
    differing = set()
    for answer in answers:
        name = names[answer["file"]]
        why = disagreement(answer)
        refused += not answer["pith"].get("pages") and not answer["poppler"].get("pages")
        pages += len(answer["pith"].get("pages", []))
        if not why:
            continue
        differing.add(name)
        if name in KNOWN:
            listed += 1
            print("known    %s: %s -- %s" % (name, why, KNOWN[name]))
        else:
            failed += 1
            print("DIFFER   %s: %s" % (name, why))
    for name in sorted(set(KNOWN) & set(names.values()) - differing):
        failed += 1
        print("FAIL: %s is listed as a disagreement but the readers now agree: take it off the list" % name)
    print("%d files (%d pages by pith): %d agree (%d with no page for either), %d listed disagreements, %d failures"
          % (len(answers), pages, len(answers) - len(differing), refused, listed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
