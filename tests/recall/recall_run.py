#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Recall on PDFs pith was never tuned to: TeX Live's documentation.

usage: recall_run.py --pith PITH --work DIR [--sample | --full] [--root DIR]... [--limit N]
                     [--jobs N] [--report FILE] [--list]
       recall_run.py --reclassify REPORT [OUT]
       recall_run.py --selftest

Each PDF is given the title a registry would hold for it, found without pith: its own metadata
title (pdfinfo's Info Title, else the XMP dc:title pdfinfo -meta prints), kept only where page 1
prints it: its letters and digits, lower-cased, follow each other in pdftotext's text of page 1,
from the start of a word to the end of one (so a logo set in pieces, "L A TEX", or a title over
two lines still counts). Other files are skipped with a reason (SKIP_REASONS). A kept file gets
a record of that title signed by a test key (tests/corpus/stamp_suite.py's Ctx.make_record),
`pith stamp --json` with no override flag, then `pith verify --json --keyring`.

The report (WORK/report.json) holds every file: the skip reason, or the title, the stamp exit,
code and message, the verify state and failure codes; every refusal is put in a named class
(REFUSAL_CLASSES, tests/recall/README.md) from stamp's code and message and the title. It prints
the counts: tried, skipped by reason, stamped, trusted, refused by class.

--sample (the default) runs the files tests/recall/sample.tsv lists (ctest's covering sample);
it fails when a listed file is missing (naming the Debian package that ships it), when fewer
files than SAMPLE_COMPARED reach pith, on any file stamp accepted that verify does not call
trusted, and on a refusal in no named class. Refusals in a named class are reported, not failed:
their share is measured, not yet at the project's goal (doc/known-limits.md).
--selftest checks the classes and the title check on measured messages and planted ones (no pith).
--full runs every PDF under the roots (default: TeX Live's doc tree); it fails only on an
accepted file that is not trusted. Python standard library, poppler-utils (pdfinfo, pdftotext).
"""
import argparse
import collections
import html
import json
import os
import re
import shutil
import subprocess
import sys
import time
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(HERE, "..", "corpus"))
import stamp_suite  # noqa: E402  (keys, records, stamp and verify runs: one place)

DOC_ROOT = "/usr/share/texlive/texmf-dist/doc"
SAMPLE = os.path.join(HERE, "sample.tsv")
# The files of sample.tsv that reach pith (the rest are skipped on purpose, one per reason):
# measured on Debian 12's TeX Live 2022 with .ci/packages-latex.txt installed with recommends.
SAMPLE_COMPARED = 31
TOOL_TIMEOUT = 120
STAMP_TIMEOUT = 300  # a large manual on a loaded machine; pith's own limits apply first

SKIP_REASONS = {
    "unreadable": "pdfinfo cannot read the file",
    "encrypted": "encrypted",
    "no_title": "no metadata title (Info Title and XMP dc:title empty or absent)",
    "file_name": "the metadata title is a file name",
    "placeholder": "the metadata title is a placeholder (Untitled, title, ())",
    "no_text": "page 1 has no text layer",
    "inside_lines": "page 1 prints the title's words in order only inside longer lines (a sentence, a longer heading)",
    "later_page": "the title is printed on page 2 or 3, not on page 1",
    "not_printed": "the metadata title is not printed on pages 1-3",
}


# ------------------------------------------------------------------ the title a registry holds

def run(cmd, timeout=TOOL_TIMEOUT):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def pdfinfo(path):
    """{field: value} of pdfinfo, or None when it cannot read the file."""
    rc, out = run(["pdfinfo", path])
    if rc != 0:
        return None
    info = {}
    for line in out.splitlines():
        k, sep, v = line.partition(":")
        if sep and k and k not in info:
            info[k.strip()] = v.strip()
    return info


def xmp_title(path):
    """The XMP dc:title's first rdf:li (pdfinfo -meta prints the packet), or ""."""
    rc, out = run(["pdfinfo", "-meta", path])
    if rc != 0:
        return ""
    m = re.search(r"<dc:title[^>]*>(.*?)</dc:title>", out, re.S)
    if not m:
        return ""
    li = re.search(r"<rdf:li[^>]*>(.*?)</rdf:li>", m.group(1), re.S)
    return html.unescape(re.sub(r"<[^>]*>", "", li.group(1) if li else m.group(1))).strip()


FILE_NAME = re.compile(r"^\S+\.(tex|dtx|ltx|sty|cls|pdf|dvi|ps|eps|txt|doc|docx|fdd|ins|mp|lua|w)$|^[\w./-]*/[\w./-]*$",
                       re.I)


PLACEHOLDER = re.compile(r"^(untitled|title|no title|\W*)$", re.I)


def letters(text):
    """(lower-cased letters and digits of text, and for each one a set of marks: "w" a word starts
    there, "e" one ends there, "l" it is the first of its line, "r" the last). NFKD drops
    accents' combining marks, NFKC ligatures ("ﬁ")."""
    s = unicodedata.normalize("NFKC", text)
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).lower()
    s = re.sub(r"(\w)-\n(\w)", r"\1\2", s)  # a word hyphenated at the end of a line
    chars, marks = [], []
    for line in s.split("\n"):
        first = len(chars)
        prev = False
        for i, c in enumerate(line):
            alnum = c.isalnum()
            if alnum:
                chars.append(c)
                nxt = line[i + 1] if i + 1 < len(line) else " "
                marks.append(("" if prev else "w") + ("" if nxt.isalnum() else "e"))
            prev = alnum
        if len(chars) > first:
            marks[first] += "l"
            marks[-1] += "r"
    return "".join(chars), marks


def printed(title, text, whole_lines=True):
    """Whether the title's letters and digits follow each other in text from the start of a word
    to the end of one, each of the title's words ending where a word of the text ends (its words
    in order, wherever the lines break; the text may split a word further, as pdftotext splits
    a logo, "L A TEX"), and with whole_lines, from the start of a line to the end of one: lines of
    their own, as a title is set, not words inside a sentence or a longer heading."""
    t, tmarks = letters(title)
    s, marks = letters(text)
    if not t:
        return False
    first, last = ("l", "r") if whole_lines else ("w", "e")
    ends = [k for k, m in enumerate(tmarks) if "e" in m]
    i = s.find(t)
    while i >= 0:
        if first in marks[i] and last in marks[i + len(t) - 1] and all("e" in marks[i + k] for k in ends):
            return True
        i = s.find(t, i + 1)
    return False


def page_text(path, page):
    rc, out = run(["pdftotext", "-q", "-f", str(page), "-l", str(page), path, "-"])
    return out if rc == 0 else ""


def registry_title(path):
    """(title, None) for a file a registry would hold with the title page 1 prints, else
    (title or None, skip reason key)."""
    info = pdfinfo(path)
    if info is None:
        return None, "unreadable"
    if info.get("Encrypted", "no").startswith("yes"):
        return None, "encrypted"
    title = " ".join(info.get("Title", "").split()) or " ".join(xmp_title(path).split())
    if not title:
        return None, "no_title"
    stem = os.path.splitext(os.path.basename(path))[0]
    if FILE_NAME.match(title) or title.lower() == stem.lower():
        return title, "file_name"
    if PLACEHOLDER.match(title):
        return title, "placeholder"
    text = page_text(path, 1)
    if not text.strip():
        return title, "no_text"
    if printed(title, text):
        return title, None
    if printed(title, text, whole_lines=False):
        return title, "inside_lines"
    pages = int(info.get("Pages", "1") or 1)
    if any(printed(title, page_text(path, p)) for p in range(2, min(pages, 3) + 1)):
        return title, "later_page"
    return title, "not_printed"


# ------------------------------------------------------------------ refusal classes

# A TeX-family logo as a registry writes it in plain text (LaTeX, LaTeX2e, LaTeX2ε, XeTeX,
# LuaLaTeX, BibTeX, ConTeXt, abnTeX2, ...): TeX typesets it in pieces of several sizes.
LOGO = re.compile(r"tex|metafont|metapost", re.I)


def ocr_missing(message):
    """The words the pixels did not read, as stamp's message lists them ('without "a", "b"')."""
    m = re.search(r'without ((?:"[^"]*"(?:, | and )?)+)', message)
    return re.findall(r'"([^"]*)"', m.group(1)) if m else []


def folded_title_words(title, plain):
    """The title's words, folded as pith's message prints them (lower case, accents dropped),
    those with (plain=False) or without (plain=True) a letter outside ASCII."""
    out = set()
    for w in re.findall(r"\w+", title):
        f = "".join(c for c in unicodedata.normalize("NFKD", w) if not unicodedata.combining(c)).lower()
        if (w.isascii() and w.lower() == f) == plain:
            out.add(f)
    return out


def pixels(message):
    return "pixels (OCR) read" in message


def refusal_class(code, message, title):
    """The named class of a refusal (REFUSAL_CLASSES), or "unclassified"."""
    for name, _, test in REFUSAL_CLASSES:
        if test(code or "", message, title):
            return name
    return "unclassified"


REFUSAL_CLASSES = [
    # (name, what it is, test on (code, message, title)); the first that matches names the
    # refusal. Named from the messages of the full run and page 1 of a sample of each
    # (doc/dev/recall.md).
    ("outranked_in_pixels",
     "a line the pixels show outranks the title: a logo or an institution of two words or more above "
     "it in larger type, a picture placeholder's word in huge type, an author's name set larger",
     lambda c, m, t: "but the pixels also show" in m),
    ("tex_logo_text_layer",
     "a TeX logo in the title (LaTeX2ε): the text layer sets it in pieces (\"L A TEX 2 ε\") that the "
     "record's word does not match",
     lambda c, m, t: c == "stamp.title_not_shown" and "does not show the record's title" in m
     and bool(LOGO.search(t))),
    ("tex_logo_ocr",
     "a TeX logo in the title (LaTeX, LaTeX2e, abnTeX2): the text layer matches, OCR misreads the "
     "logo's raised and lowered letters (\"ETRX\", \"IeTpX\"), and its glyphs read one by one do not "
     "give its letters",
     lambda c, m, t: (pixels(m) and any(LOGO.search(w) for w in ocr_missing(m))) or "its glyphs read one by one" in m),
    ("accent_ocr",
     "an accented letter misread by OCR (\"für\" read \"fiir\"); the text layer matches",
     lambda c, m, t: pixels(m) and bool(ocr_missing(m))
     and set(ocr_missing(m)) <= folded_title_words(t, plain=False) | {w for w in ocr_missing(m) if LOGO.search(w)}),
    ("ocr_misread",
     "OCR misreads the title's words (a display or decorative font, letters spaced out, \"F o nt\", "
     "the title's lines read in another order); the text layer matches",
     lambda c, m, t: pixels(m)),
    ("faint_word",
     "a word of the title in a light colour (a beamer theme's), too faint for pith's contrast rule",
     lambda c, m, t: "too faint to read" in m),
    ("symbols_only",
     "a title that is mostly a logo or symbols (\"YaX\" set as a logo), which OCR is not asked to "
     "read: unchecked",
     lambda c, m, t: "mostly formula or symbols" in m),
    ("outranked_by_heading",
     "a cover or slide where a line in larger type or above the title (the author's name, "
     "\"Kapitel 1\") outranks it: judged not set as the title",
     lambda c, m, t: "outranks it" in m),
    ("not_set_as_title",
     "the title on a line of its own, judged only inside other text or in small type",
     lambda c, m, t: "not set as the paper's title" in m),
    ("angle_brackets",
     "a title typing \"<key>\" where the page sets math angle brackets \"⟨key⟩\"",
     lambda c, m, t: "does not show the record's title" in m and "<" in t and "⟨" in m),
    ("text_layer_differs",
     "page 1's text layer, as pith reads it, does not show the title pdftotext prints",
     lambda c, m, t: c == "stamp.title_not_shown" and "does not show the record's title" in m),
    ("sideways_title",
     "a title that runs sideways as the page is shown (a landscape page), which OCR does not read",
     lambda c, m, t: "runs sideways" in m),
    ("damaged_file",
     "a file pith reads as damaged (a startxref offset off the cross-reference section); "
     "--allow-damaged stamps it",
     lambda c, m, t: c == "pdf.damaged"),
    ("page_unreadable",
     "page 1's text or pixels could not be read",
     lambda c, m, t: c == "stamp.title_unchecked"),
    ("overprint",
     "page 1 draws with overprint on (a logo or figure from a drawing program), which some viewers "
     "simulate and others do not: off pith's closed list",
     lambda c, m, t: c == "stamp.construct_unlisted" and ("/OP true" in m or "/op true" in m)),
    ("optional_content_ambiguous",
     "page 1 draws optional content whose visibility is the viewer's choice (a layer the catalog "
     "does not declare, a state set by usage or intent): viewers may show it differently",
     lambda c, m, t: c == "stamp.construct_unlisted" and "optional content" in m),
    ("unlisted_construct",
     "page 1 draws with another construct off pith's closed list (a black-generation or undercolour "
     "function, a halftone, an unknown operator, a multimedia annotation), named in the message",
     lambda c, m, t: c == "stamp.construct_unlisted"),
]


# ------------------------------------------------------------------ one file

def error_code(err):
    m = re.search(r"\[([a-z_]+\.[a-z_.]+)\]\s*$", err.strip())
    return m.group(1) if m else None


def last_line(err):
    lines = err.strip().splitlines()
    return lines[-1] if lines else ""


def run_file(ctx, work_root, index, path, root):
    rel = os.path.relpath(path, root) if root else path
    res = {"file": rel, "path": path}
    title, skip = registry_title(path)
    res["title"] = title
    if skip:
        res.update(result="skipped", skip=skip)
        return res
    work = os.path.join(work_root, "files", "%05d" % index)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    signed, _, err = ctx.make_record(work, "recall-%05d" % index, title)
    if err:
        res.update(result="error", error=err)
        return res
    out = os.path.join(work, "stamped.pdf")
    t0 = time.time()
    r, summary = stamp_suite.stamp(ctx, path, signed, out, "")
    res["stamp_s"] = round(time.time() - t0, 1)
    res["stamp"] = {"exit": r.rc, "code": error_code(r.err), "message": last_line(r.err)}
    if r.rc != 0:
        res.update(result="refused", cls=refusal_class(res["stamp"]["code"], res["stamp"]["message"], title))
        shutil.rmtree(work)
        return res
    rv, j = stamp_suite.verify_json(ctx, out, "", ctx.keyring)
    j = j or {}
    res["verify"] = {"exit": rv.rc, "state": j.get("state"),
                     "failure": [[x.get("code"), x.get("explanation")] for x in j.get("failure", [])]}
    res["result"] = "trusted" if rv.rc == 0 and j.get("state") == "trusted" else "accepted_not_trusted"
    if res["result"] == "trusted":
        shutil.rmtree(work)  # failures keep their folder for a look
    return res


# ------------------------------------------------------------------ the runs

def dpkg_owner(path):
    rc, out = run(["dpkg", "-S", os.path.realpath(path)])
    return out.split(":")[0] if rc == 0 and out else "?"


def read_sample():
    rows = []
    with open(SAMPLE, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                rel, package, expect = (line.rstrip("\n").split("\t") + ["", ""])[:3]
                rows.append((rel, package, expect))
    return rows


def all_pdfs(roots):
    found = []
    for root in roots:
        for d, dirs, files in os.walk(root, followlinks=True):
            dirs.sort()
            for f in sorted(files):
                if f.lower().endswith(".pdf"):
                    found.append((os.path.join(d, f), root))
    return found


def outcome(r):
    """A result as sample.tsv writes it: trusted, refused:CLASS, skip:REASON, or the result."""
    if r["result"] == "refused":
        return "refused:" + r["cls"]
    if r["result"] == "skipped":
        return "skip:" + r["skip"]
    return r["result"]


def summarise(results):
    s = {"tried": len(results), "skipped": 0, "skipped_by_reason": collections.Counter(),
         "stamped": 0, "trusted": 0, "accepted_not_trusted": 0, "refused": 0,
         "refused_by_class": collections.Counter(), "refused_by_code": collections.Counter(), "errors": 0}
    for r in results:
        if r["result"] == "skipped":
            s["skipped"] += 1
            s["skipped_by_reason"][r["skip"]] += 1
        elif r["result"] == "refused":
            s["refused"] += 1
            s["refused_by_class"][r["cls"]] += 1
            s["refused_by_code"][r["stamp"]["code"] or "none"] += 1
        elif r["result"] == "error":
            s["errors"] += 1
        else:
            s["stamped"] += 1
            s[r["result"]] += 1
    s["compared"] = s["stamped"] + s["refused"]
    return s


def print_table(s, results, examples=True):
    print("\n%-44s %6s" % ("recall over TeX Live's documentation", "files"))
    print("%-44s %6d" % ("tried", s["tried"]))
    print("%-44s %6d" % ("skipped", s["skipped"]))
    for k, n in s["skipped_by_reason"].most_common():
        print("  %-42s %6d" % (k, n))
    print("%-44s %6d" % ("given to pith stamp", s["compared"]))
    print("%-44s %6d" % ("stamped", s["stamped"]))
    print("%-44s %6d" % ("  trusted", s["trusted"]))
    print("%-44s %6d" % ("  accepted, not trusted", s["accepted_not_trusted"]))
    print("%-44s %6d" % ("refused", s["refused"]))
    for k, n in s["refused_by_class"].most_common():
        print("  %-42s %6d" % (k, n))
    if s["tried"]:
        print("refusals: %.1f %% of files tried, %.1f %% of files given to pith (goal: below 1 %% of files tried)"
              % (100.0 * s["refused"] / s["tried"], 100.0 * s["refused"] / max(1, s["compared"])))
    if not examples:
        return
    by = collections.defaultdict(list)
    for r in results:
        if r["result"] == "refused":
            by[r["cls"]].append(r)
        elif r["result"] in ("accepted_not_trusted", "error"):
            by["!" + r["result"]].append(r)
    for k, rs in sorted(by.items(), key=lambda kv: -len(kv[1])):
        print("\n%s (%d), e.g.:" % (k, len(rs)))
        for r in rs[:3]:
            print("  %s\n    title %r\n    %s" % (r["file"], r["title"], (r.get("stamp") or {}).get("message")
                                                   or r.get("verify") or r.get("error")))


# One measured refusal per class (file, code, message abridged, title), the title check's cases,
# and what --selftest expects of them: the classifier and the check on known input, no pith.
SELFTEST_REFUSALS = [
    ("source2e", "stamp.title_not_shown", 'page 1 does not show the record\'s title "The LaTeX2ε Sources" '
     '(it shows "The L A TEX 2 ε Sources Johannes Braams David Carlisle A...")', "The LaTeX2ε Sources",
     "tex_logo_text_layer"),
    ("exscale", "stamp.title_unchecked", 'the text layer shows the title "The exscale package ∗ for use with '
     'L A TEX2e", but the pixels (OCR) read "The exscale package* for use with ETRX2e" there, without "tex2e" '
     "(one word: possibly OCR's misreading; not confirmed)", "The exscale package for use with LaTeX2e",
     "tex_logo_ocr"),
    ("encxvlna", "stamp.title_unchecked", 'the text layer shows the title with the logo "encTEX", but its glyphs '
     'read one by one give another letter ("C Nn C T E x"): a logo is confirmed only where the pixels show exactly '
     "its letters", "ENCXVLNA, Vlna implemented in encTeX", "tex_logo_ocr"),
    ("bgteubner", "stamp.title_unchecked", 'the pixels (OCR) read "Erstellen von Buchern fiir den Springer" '
     'there, without "fur" and with "fllr"', "Erstellen von Büchern für den Springer", "accent_ocr"),
    ("expkv-opt", "stamp.title_not_shown", 'the pixels (OCR) read "€XPkVIOPT parse class" there, without '
     '"expkv", "opt", "expkv"', "expkv-opt - parse class", "ocr_misread"),
    ("yax", "stamp.title_unchecked", "the title is mostly formula or symbols, which OCR does not read", "YaX",
     "symbols_only"),
    ("kdgmasterthesis", "stamp.title_not_shown", 'the text layer shows the title "Minimax optimisatie" and the '
     'pixels (OCR) read "Minimax optimisatie" there, but the pixels also show "Karel de Grote-Hogeschool" above it '
     "in type 1.3 times the title's type", "Minimax optimisatie", "outranked_in_pixels"),
    ("dccpaper", "stamp.title_not_shown", 'only where the page\'s own heading "IJDC | General Article" '
     "outranks it (in larger type, or in its type above it): not set as the paper's title", "The dccpaper bundle",
     "outranked_by_heading"),
    ("docstrip", "stamp.title_not_shown", "only inside other text or in small type (a citation, a footnote, a "
     "reference), not set as the paper's title", "The DocStrip program", "not_set_as_title"),
    ("expkv", "stamp.title_not_shown", 'page 1 does not show the record\'s title "expkv - an expandable '
     '<key>=<value>" (it shows "expkv an exP andable ⟨key ⟩=⟨value ⟩")', "expkv - an expandable <key>=<value>",
     "angle_brackets"),
    ("showkerning", "stamp.title_not_shown", 'page 1 does not show the record\'s title "The showkerning package" '
     '(it shows "The showke rnin g package")', "The showkerning package", "text_layer_differs"),
    ("lscape", "stamp.title_unchecked", "the title runs sideways on the page as it is shown", "The lscape package",
     "sideways_title"),
    ("URbeamer", "stamp.title_not_shown", 'the pixels show "Im" at a contrast of 1.8:1 against its background, '
     "too faint to read (at least 2.0:1)", "LaTeX-beamer - Im Corporate Design", "faint_word"),
    ("ksp-thesis", "pdf.damaged", "damaged PDF: startxref/Prev offset 267986 does not point to a cross-reference "
     "section", "The ksp-thesis class", "damaged_file"),
    ("a scan", "stamp.title_unchecked", "the record's title cannot be checked: page 1 shows no text", "A Title",
     "page_unreadable"),
    ("hagenberg-thesis", "stamp.construct_unlisted", "page 1 draws with what pith's closed list lacks: graphics "
     "state /OP true, graphics state /op true; pith verify could not say trusted (--allow-unlisted stamps anyway)",
     "Partial Solutions to Universal Problems", "overprint"),
    ("newsletr", "stamp.construct_unlisted", "page 1 draws with what pith's closed list lacks: graphics state /BG, "
     "graphics state /UCR; pith verify could not say trusted (--allow-unlisted stamps anyway)", "A Newsletter",
     "unlisted_construct"),
    ("abntex2-modelo-slides", "stamp.construct_unlisted", 'page 1 draws optional content whose visibility depends on '
     'the viewer: optional content group 64 ("Layer 1") is used, but the catalog has no /OCProperties; pith verify '
     "could not say trusted (--allow-unlisted stamps anyway)", "Slides", "optional_content_ambiguous"),
    ("planted", "internal.error", "a failure inside pith", "A Title", "unclassified"),
    ("planted", "stamp.title_not_shown", "a wording no class knows", "A Title", "unclassified"),
]
SELFTEST_PRINTED = [
    ("The emoji package Emoji support in (Lua)LaTeX", "x\nThe emoji package\nEmoji support in (Lua)LATEX\n", True),
    ("Standard Document Classes for LaTeX version 2e", "Standard Document Classes for L A TEX version 2e\n", True),
    ("The apa6 class", "we use The apa6 class here\n", False),
    ("The Clean Thesis Package", "The cleanthesis Package\n", False),
    ("Schrödinger Bridges", "Schro\u0308dinger Bridges\n", True),
    ("hyphenated title", "hyphen-\nated title\n", True),
]


def run_problems(sample, results, s):
    """What fails a run: a file stamp accepted that verify does not call trusted, a tool error;
    with a sample (rows of sample.tsv), also a refusal in no named class, a skip row not skipped
    so, and fewer files reaching pith than SAMPLE_COMPARED. Changed outcomes are printed."""
    problems = []
    for r in results:
        if r["result"] == "accepted_not_trusted":
            problems.append("%s: stamp accepted, verify says %s %s" % (r["file"], r["verify"]["state"],
                                                                        r["verify"]["failure"]))
        elif r["result"] == "error":
            problems.append("%s: %s" % (r["file"], r["error"]))
    if sample is None:
        return problems
    expect = {rel: e for rel, _, e in sample}
    for r in results:
        if r["result"] == "refused" and r["cls"] == "unclassified":
            problems.append("%s: a refusal in no named class: %s" % (r["file"], r["stamp"]["message"]))
        e, got = expect.get(r["file"], ""), outcome(r)
        if e.startswith("skip:") and got != e:
            problems.append("%s: sample.tsv says %s, the run says %s" % (r["file"], e, got))
        elif e != got:  # measured, not failed: a refusal fixed, or a new one in a named class
            print("changed: %s: sample.tsv says %s, the run says %s" % (r["file"], e, got))
    if s["compared"] < SAMPLE_COMPARED:
        problems.append("%d files reached pith, SAMPLE_COMPARED states %d" % (s["compared"], SAMPLE_COMPARED))
    print("floor: %d files reached pith, SAMPLE_COMPARED states %d" % (s["compared"], SAMPLE_COMPARED))
    return problems


def sample_selftest():
    """run_problems() on the sample as measured (passes) and with one fault planted in turn."""
    sample = read_sample()
    measured = []
    for rel, _, e in sample:
        kind, _, detail = e.partition(":")
        r = {"file": rel, "result": {"skip": "skipped"}.get(kind, kind)}
        if kind == "skip":
            r["skip"] = detail
        elif kind == "refused":
            r.update(cls=detail, stamp={"code": "stamp.title_not_shown", "message": "measured"})
        measured.append(r)
    first_trusted = next(i for i, r in enumerate(measured) if r["result"] == "trusted")
    first_refused = next(i for i, r in enumerate(measured) if r["result"] == "refused")
    first_skip = next(i for i, r in enumerate(measured) if r["result"] == "skipped")

    def planted(i, **change):
        rs = [dict(r) for r in measured]
        rs[i].update(change)
        return rs
    cases = [("the sample as measured", measured, True),
             ("a trusted file skipped", planted(first_trusted, result="skipped", skip="no_title"), False),
             ("a trusted file accepted, not trusted", planted(first_trusted, result="accepted_not_trusted",
                                                             verify={"state": "invalid", "failure": []}), False),
             ("a refusal in no class", planted(first_refused, cls="unclassified"), False),
             ("a skip row given to pith", planted(first_skip, result="trusted"), False),
             ("a refusal fixed", planted(first_refused, result="trusted"), True),
             ("a trusted file refused in a named class", planted(first_trusted, result="refused", cls="ocr_misread",
                                                                 stamp={"code": None, "message": "m"}), True)]
    bad = []
    for what, rs, ok in cases:
        problems = run_problems(sample, rs, summarise(rs))
        if (not problems) != ok:
            bad.append("%s: %s" % (what, problems or "passed"))
    return bad


def selftest():
    bad = []
    for what, code, message, title, want in SELFTEST_REFUSALS:
        got = refusal_class(code, message, title)
        if got != want:
            bad.append("%s: class %s, want %s" % (what, got, want))
    for title, text, want in SELFTEST_PRINTED:
        if printed(title, text) != want:
            bad.append("printed(%r): %s, want %s" % (title, not want, want))
    bad += sample_selftest()
    named = {name for name, _, _ in REFUSAL_CLASSES}
    shown = {case[4] for case in SELFTEST_REFUSALS}
    if named - shown:
        bad.append("classes without a case: %s" % sorted(named - shown))
    print("recall selftest: %d refusals, %d title checks: %s" % (
        len(SELFTEST_REFUSALS), len(SELFTEST_PRINTED), "WRONG: %s" % bad if bad else "all right"))
    return 1 if bad else 0


def reclassify(argv):
    """--reclassify REPORT [OUT]: the refusals of an earlier report put in today's classes (a
    function of the stored code, message and title: no pith run), its table printed again."""
    with open(argv[0], encoding="utf-8") as f:
        report = json.load(f)
    for r in report["results"]:
        if r["result"] == "refused":
            r["cls"] = refusal_class(r["stamp"]["code"], r["stamp"]["message"], r["title"])
    s = summarise(report["results"])
    report.update(s, classes={name: what for name, what, _ in REFUSAL_CLASSES})
    if len(argv) > 1:
        with open(argv[1], "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1, ensure_ascii=False)
    print_table(s, report["results"])
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pith", required=True)
    ap.add_argument("--work", required=True, help="output folder (in the build dir)")
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(HERE)))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--sample", action="store_true", help="ctest's covering sample, sample.tsv (default)")
    g.add_argument("--full", action="store_true", help="every PDF under the roots")
    ap.add_argument("--root", action="append", help="a folder of PDFs for --full (default %s)" % DOC_ROOT)
    ap.add_argument("--limit", type=int, help="--full: N files spread evenly over the path-ordered list")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--report", help="JSON report (default WORK/report.json)")
    ap.add_argument("--list", action="store_true", help="list the files and exit")
    if "--selftest" in sys.argv[1:]:
        return selftest()
    if "--reclassify" in sys.argv[1:]:
        return reclassify(sys.argv[sys.argv.index("--reclassify") + 1:])
    args = ap.parse_args()

    for tool, package in (("pdfinfo", "poppler-utils"), ("pdftotext", "poppler-utils")):
        if shutil.which(tool) is None:
            print("%s not installed: install %s" % (tool, package))
            return 1
    if args.full:
        files = all_pdfs(args.root or [DOC_ROOT])
        if args.limit and args.limit < len(files):
            files = [files[i * len(files) // args.limit] for i in range(args.limit)]
        sample = None
    else:
        sample = read_sample()
        missing = [(rel, pkg) for rel, pkg, _ in sample if not os.path.exists(os.path.join(DOC_ROOT, rel))]
        if missing:
            for rel, pkg in missing:
                print("FAIL: %s missing: install %s (with recommends, as .ci/deps does)" % (rel, pkg))
            return 1
        files = [(os.path.join(DOC_ROOT, rel), DOC_ROOT) for rel, _, _ in sample]
    if args.list:
        for path, root in files:
            print(os.path.relpath(path, root))
        return 0
    t0 = time.time()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    ctx = stamp_suite.Ctx(argparse.Namespace(pith=args.pith, corpus=None, out=args.work, repo=args.repo))
    items = list(enumerate(files))
    results = []
    for _, res in stamp_suite.run_pool(args.jobs, lambda it: run_file(ctx, args.work, it[0], *it[1]), items):
        results.append(res)
        if res["result"] != "skipped":
            print("[%d/%d] %-8s %s %s" % (len(results), len(items), res["result"], res["file"],
                                          res.get("stamp_s", "")), flush=True)
        if len(results) % 50 == 0:  # a long run's partial report, read while it runs
            with open(os.path.join(args.work, "partial.json"), "w", encoding="utf-8") as f:
                json.dump(results, f, indent=1, ensure_ascii=False)
    results.sort(key=lambda r: r["file"])
    elapsed = time.time() - t0
    s = summarise(results)
    report = dict(s, seconds=round(elapsed, 1), run="full" if args.full else "sample",
                  classes={name: what for name, what, _ in REFUSAL_CLASSES}, skip_reasons=SKIP_REASONS,
                  results=results)
    path = args.report or os.path.join(args.work, "report.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
    print_table(s, results)
    print("\n%.1f s; report %s" % (elapsed, path))

    problems = run_problems(sample, results, s)
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
