#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Nothing in the input's Info changes when pith stamps (issue 15, section 2).

usage: info_roundtrip.py --pith PITH --record RECORD generated [--count N] [--seed S]
       info_roundtrip.py --pith PITH --record RECORD corpus --corpus DIR

generated  Writes N small PDFs (fixed seed) whose Info dictionary holds every literal-string
           form of PDF 32000-1 7.3.4.2 (unknown escapes, octal escapes of 1-3 digits, line
           continuations, balanced and escaped parentheses, CR, LF and CRLF inside strings), hex
           strings, UTF-16BE with a BOM, PDFDocEncoding bytes >= 0x80 and names with #xx, some
           as indirect objects, the Info itself indirect or written in the trailer.
corpus     Every PDF of the corpus DIR ($PITH_SHARED/corpus when set; held to tests/corpus/counts.tsv): each
           stamped (with its MANIFEST.tsv password; damaged and certified ones with --allow-damaged
           --force), those pith still refuses listed.

Each is stamped, then qpdf (independent of pith) reads the Info before and after: every entry
must read back identical, /PithNumber the only one added; where pikepdf is installed, also
every string's bytes as pikepdf reads them (qpdf's JSON gives some strings only as text). For generated files, qpdf's reading of
the input must also be the value the generator meant (so the generator tests what it says).
Exit 0 all identical, 1 a difference (or a missing corpus, corpus file or pikepdf, or counts of
files stamped and compared other than those stated in corpus()).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))
import manifest  # noqa: E402
from pdfwriter import classic  # noqa: E402

# ------------------------------------------------------------------ generated literal strings


def literal_piece(rng):
    """One piece of a literal string: (what is written, the bytes it means)."""
    kind = rng.randrange(12)
    if kind == 0:  # unknown escape: only the backslash goes
        c = rng.choice("qaQz8 9%/<>[]{}#~\x7f\x80\xe9")
        return "\\" + c, c
    if kind == 1:  # octal, 1-3 digits; one of fewer digits is followed by a letter, not a digit
        value = rng.randrange(256)
        digits = max(rng.choice([1, 2, 3]), len(oct(value)) - 2)
        text = oct(value)[2:].zfill(digits)
        follower = rng.choice("xyz") if digits < 3 else ""
        return "\\" + text + follower, chr(value) + follower
    if kind == 2:  # line continuation
        return "\\" + rng.choice(["\n", "\r", "\r\n"]), ""
    if kind == 3:  # end of line without backslash: one LF
        return rng.choice(["\n", "\r", "\r\n"]), "\n"
    if kind == 4:  # balanced parentheses, around any other piece
        inner, meant = literal_piece(rng)
        return "(" + inner + ")", "(" + meant + ")"
    if kind == 5:  # escaped parentheses, unbalanced
        c = rng.choice("()")
        return "\\" + c, c
    if kind == 6:  # the standard escapes
        c = rng.choice("nrtbf\\")
        return "\\" + c, {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "\\": "\\"}[c]
    if kind == 7:  # PDFDocEncoding bytes >= 0x80, raw
        s = "".join(chr(rng.randrange(0x80, 0x100)) for _ in range(rng.randrange(1, 4)))
        return s, s
    if kind == 8:  # other raw bytes: tab, NUL, %, /
        s = rng.choice(["\t", "\x00", "%", "/x", "<>", "]["])
        return s, s
    words = ["v", "quantum", "Title", "é", "A & B", "100%", "x-y", " "]
    w = rng.choice(words)
    return w, w


def literal_string(rng):
    text, meant = "", ""
    for _ in range(rng.randrange(1, 8)):
        t, m = literal_piece(rng)
        if text.endswith("\r") and t.startswith("\n"):  # would be one CRLF: keep the pieces apart
            text, meant = text + "-", meant + "-"
        text, meant = text + t, meant + m
    return "(" + text + ")", meant.encode("latin-1")


def utf16_string(rng):
    text = rng.choice(["Ünïcode títle", "Квант", "量子 𝔸", "a(b)c\\d"])
    raw = b"\xfe\xff" + text.encode("utf-16-be")
    if rng.randrange(2):
        return "<" + raw.hex().upper() + ">", raw
    written = "".join("\\" + c if c in "()\\" else ("\\%03o" % ord(c) if c in "\r\n" else c)
                      for c in raw.decode("latin-1"))
    return "(" + written + ")", raw


def hex_string(rng):
    raw = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 9)))
    digits = raw.hex()
    digits = digits.upper() if rng.randrange(2) else digits
    spaced = "".join(c + (" " if rng.randrange(4) == 0 else "") for c in digits)
    if digits and digits[-1] == "0" and rng.randrange(2):  # an odd count means a trailing 0
        spaced = spaced.rstrip(" ")[:-1]
    return "<" + spaced + ">", raw


def name_value(rng):
    plain = rng.choice(["True", "False", "Unknown", "A B", "é#", "x/y", "(p)"])
    written = "".join(c if c.isalnum() and ord(c) < 128 else "#%02X" % b for c in plain for b in c.encode("utf-8"))
    if rng.randrange(2):
        written = written.replace("T", "#54", 1)
    return "/" + written, None


def make_pdf(rng):
    """A one-page PDF whose Info has generated entries: (bytes, {key: bytes meant or None})."""
    entries, meant, indirect = [], {}, []
    makers = [literal_string] * 4 + [utf16_string, hex_string, name_value]
    for i in range(rng.randrange(3, 9)):
        key = rng.choice(["Title", "Author", "Subject", "Keywords", "Creator", "Producer", "Trapped", "X"]) + str(i)
        if rng.randrange(5) == 0:
            key = key + "#20key#23"
        written, value = rng.choice(makers)(rng)
        if rng.randrange(4) == 0:
            indirect.append(written)
            written = "%d 0 R" % (4 + len(indirect))
        entries.append("/%s %s" % (key, written))
        meant[key.replace("#20", " ").replace("#23", "#")] = value
    info = "<<" + "\n".join(entries) + ">>"
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] >>"]
    inline_info = rng.randrange(4) == 0
    if not inline_info:
        objects.append(info)
    else:
        objects.append("null")
    objects += indirect
    return classic(objects, extra=" /Info " + (info if inline_info else "4 0 R"), version="1.4"), meant


# ------------------------------------------------------------------ qpdf's reading


def qpdf_info(path, password=""):
    """The Info dictionary as qpdf reads it: {key: value}, references resolved one level; None when
    qpdf cannot read it."""
    r = subprocess.run(["qpdf", "--password=" + password, "--json=2", "--json-key=qpdf", path], capture_output=True, timeout=120)
    if not r.stdout:
        return None
    doc = json.loads(r.stdout.decode("utf-8", "surrogateescape"))  # qpdf writes some names as raw bytes
    objects = doc["qpdf"][1]
    info = objects.get("trailer", {}).get("value", {}).get("/Info")
    if isinstance(info, str) and info.endswith(" R"):
        info = objects.get("obj:" + info, {}).get("value")
    if not isinstance(info, dict):
        return {}

    def resolve(v):
        if isinstance(v, str) and v.endswith(" R") and "obj:" + v in objects:
            return {"ref": v, "value": objects["obj:" + v].get("value")}
        return v
    return {k: resolve(v) for k, v in info.items()}


PIKEPDF_DUMP = r"""
import json, sys, pikepdf
def show(v, depth=0):
    if isinstance(v, pikepdf.String): return "s:" + bytes(v).hex()
    if isinstance(v, pikepdf.Name): return "n:" + str(v)
    if isinstance(v, pikepdf.Array): return [show(x, depth + 1) for x in v] if depth < 8 else "deep"
    if isinstance(v, pikepdf.Dictionary): return {k: show(v[k], depth + 1) for k in v.keys()} if depth < 8 else "deep"
    return repr(v)
out = []
for path, password in json.load(sys.stdin):
    try:
        with pikepdf.open(path, password=password) as pdf:
            info = pdf.trailer.get("/Info")
            out.append({k: show(info[k]) for k in info.keys()} if info is not None else {})
    except Exception:
        out.append(None)
print(json.dumps(out))
"""


def pikepdf_python():
    """A Python that has pikepdf (Debian's python3-pikepdf is for /usr/bin/python3), or None."""
    for python in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(python) and subprocess.run([python, "-c", "import pikepdf"], capture_output=True).returncode == 0:
            return python
    raise SystemExit("FAIL: pikepdf not installed (Debian: python3-pikepdf; .ci/deps installs it)")


def pikepdf_infos(python, files):
    """The Info of each (path, password) as pikepdf reads it, None where it cannot open one. One
    process reads them all: a process per file spent most of this test importing pikepdf."""
    r = subprocess.run([python, "-c", PIKEPDF_DUMP], input=json.dumps(files), capture_output=True, text=True,
                       timeout=1200)
    if r.returncode != 0:
        raise SystemExit("FAIL: pikepdf could not read the files: " + r.stderr[-1500:])
    return json.loads(r.stdout)


def same_string(got, meant):
    """Whether qpdf's JSON string `got` ("u:" text, "b:" hex) is the string of bytes `meant`.
    "u:" gives only the text: meant is then decoded as a PDF text string (UTF-16BE with BOM, else
    PDFDocEncoding). qpdf's "u:" text is the same for some different bytes (undefined codes), so
    the before/after comparison is as strict as qpdf's JSON: see doc/fuzzing.md."""
    if not isinstance(got, str):
        return False
    if got.startswith("b:"):
        return bytes.fromhex(got[2:]) == meant
    if meant.startswith(b"\xfe\xff"):
        return meant[2:].decode("utf-16-be", "replace") == got[2:]
    return pdfdoc_decode(meant) == got[2:]


# PDFDocEncoding where it is not Latin-1 (PDF 32000-1 Annex D); 0x7f, 0x9f and 0xad are undefined.
PDFDOC_SPECIAL = dict(zip(range(0x18, 0x20), "\u02d8\u02c7\u02c6\u02d9\u02dd\u02db\u02da\u02dc"))
PDFDOC_SPECIAL.update(zip(range(0x80, 0x9f), "\u2022\u2020\u2021\u2026\u2014\u2013\u0192\u2044\u2039\u203a\u2212\u2030"
                                             "\u201e\u201c\u201d\u2018\u2019\u201a\u2122\ufb01\ufb02\u0141\u0152\u0160"
                                             "\u0178\u017d\u0131\u0142\u0153\u0161\u017e"))
PDFDOC_SPECIAL[0xa0] = "\u20ac"


def pdfdoc_decode(raw):
    """Text of a PDFDocEncoding string; undefined codes read as U+FFFD (as qpdf reads them)."""
    return "".join("\ufffd" if b in (0x7f, 0x9f, 0xad) else PDFDOC_SPECIAL.get(b, chr(b)) for b in raw)


def compare(before, after, added="/PithNumber"):
    """Differences between two Info readings, `added` only in `after`."""
    if before is None or after is None:
        return ["unreadable: %s" % ("before" if before is None else "after")]
    problems = []
    for key in sorted(set(before) | set(after)):
        if key == added and key not in before:
            continue
        if key not in after:
            problems.append("%s lost" % key)
        elif key not in before:
            problems.append("%s added" % key)
        elif before[key] != after[key]:
            problems.append("%s: %r -> %r" % (key, before[key], after[key]))
    if added not in after:
        problems.append("%s not added" % added)
    return problems


def stamp(pith, record, src, out, extra=()):
    # The record is another paper's (examples/record.json): what is checked is Info, not the title
    # nor the closed list, on every file pith reads.
    r = subprocess.run([pith, "stamp", src, "--record", record, "-o", out, "--no-badge", "--no-title-check",
                        "--allow-unlisted", *extra],
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stderr.strip()


def passwords(corpus_dir):
    """File (relative to the corpus) -> user password, from the corpus's MANIFEST.tsv."""
    try:
        with open(os.path.join(corpus_dir, "MANIFEST.tsv"), encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
    except OSError:
        return {}
    head = rows[0]
    if "file" not in head or "password" not in head:
        return {}
    i, j = head.index("file"), head.index("password")
    return {r[i]: r[j] for r in rows[1:] if len(r) > max(i, j)}


# ------------------------------------------------------------------ the two modes


def generated(args, work):
    rng = random.Random(args.seed)
    python = pikepdf_python()
    failures = entries = 0
    problems = {}  # src -> what differs
    pairs = []  # (src, out) of each stamped file, for pikepdf
    for i in range(args.count):
        data, meant = make_pdf(rng)
        src = os.path.join(work, "gen-%d.pdf" % i)
        out = os.path.join(work, "gen-%d-stamped.pdf" % i)
        with open(src, "wb") as f:
            f.write(data)
        before = qpdf_info(src)
        found = problems.setdefault(src, [])
        for key, value in meant.items():
            got = before.get("/" + key)
            got = got["value"] if isinstance(got, dict) else got
            entries += 1
            if value is not None and not same_string(got, value):
                found.append("generator: qpdf reads /%s as %r, meant %r" % (key, got, value))
        rc, err = stamp(args.pith, args.record, src, out)
        if rc != 0:
            found.append("stamp failed (%d): %s" % (rc, err))
        else:
            found += compare(before, qpdf_info(out))
            pairs.append((src, out))
    infos = pikepdf_infos(python, [(f, "") for pair in pairs for f in pair])
    for n, (src, _) in enumerate(pairs):
        problems[src] += ["pikepdf: " + p for p in compare(infos[2 * n], infos[2 * n + 1])]
    for src, found in problems.items():
        if found:
            failures += 1
            print("FAIL %s:\n  %s" % (src, "\n  ".join(found[:6])))
    print("%d generated files (seed %d), %d Info entries: %d with a difference" % (args.count, args.seed, entries, failures))
    return 1 if failures else 0


# Corpus files stamped and compared, and of them those pikepdf opens too, as measured on each
# corpus (the rest pith refuses, or qpdf or pikepdf cannot read): a file that drops out fails.
SHARED_STAMPED, COMMITTED_STAMPED = 129, 25
SHARED_PIKEPDF, COMMITTED_PIKEPDF = 127, 24


def corpus(args, work):
    if os.environ.get("PITH_SHARED"):
        args.corpus = os.path.join(os.environ["PITH_SHARED"], "corpus")
    corpus = manifest.load(args.corpus)  # a missing corpus or corpus file fails
    files = sorted(corpus.path(r) for r in corpus.rows())
    known = passwords(args.corpus)
    python = pikepdf_python()
    stamped = refused = unreadable = failures = 0
    compared = []  # (src, out, password, what qpdf finds different)
    for i, src in enumerate(files):
        out = os.path.join(work, "corpus-%d.pdf" % i)
        password = known.get(os.path.relpath(src, args.corpus), "")
        extra = ["--password", password] if password else []
        rc, err = stamp(args.pith, args.record, src, out, extra)
        if rc != 0:  # damaged or certified: stamped anyway, to see its Info kept
            rc, err = stamp(args.pith, args.record, src, out, extra + ["--allow-damaged", "--force"])
        if rc != 0:
            refused += 1
            print("refused %s: %s" % (os.path.relpath(src, args.corpus), err.splitlines()[-1][:160] if err else rc))
            continue
        before = qpdf_info(src, password)
        if before is None:  # nothing to compare with
            unreadable += 1
            print("qpdf cannot read %s" % os.path.relpath(src, args.corpus))
            continue
        stamped += 1
        compared.append((src, out, password, compare(before, qpdf_info(out, password) or {})))
    infos = pikepdf_infos(python, [(f, pw) for src, out, pw, _ in compared for f in (src, out)])
    pikepdf_read = 0
    for n, (src, out, _, problems) in enumerate(compared):
        pike_before = infos[2 * n]
        if pike_before is not None:  # pikepdf opens fewer damaged files than qpdf (page-tree loops)
            pikepdf_read += 1
            problems += ["pikepdf: " + p for p in compare(pike_before, infos[2 * n + 1])]
        if problems:
            failures += 1
            print("FAIL %s:\n  %s" % (os.path.relpath(src, args.corpus), "\n  ".join(problems[:6])))
        os.remove(out)
    print("%d corpus files: %d stamped and compared, %d refused by pith, %d stamped but unreadable to qpdf; "
          "%d with an Info difference" % (len(files), stamped, refused, unreadable, failures))
    # As measured on each corpus: a file that stops stamping, or that qpdf or pikepdf stops reading, fails.
    corpus.expect("corpus files stamped and compared by qpdf", stamped, shared=SHARED_STAMPED, committed=COMMITTED_STAMPED)
    corpus.expect("of them compared by pikepdf too", pikepdf_read, shared=SHARED_PIKEPDF, committed=COMMITTED_PIKEPDF)
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--record", required=True)
    ap.add_argument("mode", choices=["generated", "corpus"])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--corpus")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pith-info-") as work:
        return generated(args, work) if args.mode == "generated" else corpus(args, work)


if __name__ == "__main__":
    sys.exit(main())
