#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Re-stamping a file that gained later revisions (issue 15, 2.2): exactly one badge and balanced
page content in every order of updates, as poppler and MuPDF read the file, not only pith.

Orders tried on the example paper: stamp, then a revision that appends (or prepends) content to
page 1, then stamp again; the same with a second revision and a third stamp; and a re-stamp with
another number (--replace). After each stamp: pdftoppm and `mutool draw` print no error or
warning, pdftotext and MuPDF's text show the badge exactly once, the page's content streams
(pikepdf) nest q/Q correctly, and `pith verify` finds nothing wrong."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pdfedit  # noqa: E402

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(args):
    return subprocess.run(args, capture_output=True, timeout=300)


def page1_object(path):
    """Object number of page 1 (qpdf's JSON)."""
    r = run(["qpdf", "--json", "--json-key=pages", path])
    return int(json.loads(r.stdout)["pages"][0]["object"].split()[0])


def add_content(data, path, where):
    """`data` plus one revision that adds a small filled square to page 1, its stream `where`
    ("append" or "prepend") in /Contents, the way an annotating tool adds to a page."""
    page = page1_object(path)
    text = pdfedit.show_object(path, page)
    contents = re.search(r"/Contents (\[[^\]]*\]|\d+ 0 R)", text).group(1)
    items = contents.strip("[]").strip()
    _, trailer, _ = pdfedit.last_trailer(data)
    new = int(pdfedit.trailer_entry(trailer, "Size"))
    added = "%d 0 R" % new
    items = (items + " " + added) if where == "append" else (added + " " + items)
    page_text = text.replace("/Contents " + contents, "/Contents [ " + items + " ]")
    square = pdfedit.stream("", b"q 0.8 0.1 0.1 rg 40 40 12 12 re f Q\n")
    return pdfedit.append_update(data, {new: square, page: page_text})


def q_depth_ok(path):
    """Page 1's content streams, as one, nest q/Q correctly and end balanced (pikepdf's parser)."""
    script = ("import pikepdf, sys\n"
              "pdf = pikepdf.open(sys.argv[1])\n"
              "depth = low = 0\n"
              "for operands, op in pikepdf.parse_content_stream(pdf.pages[0]):\n"
              "    depth += {'q': 1, 'Q': -1}.get(str(op), 0)\n"
              "    low = min(low, depth)\n"
              "print(depth, low)\n")
    python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    r = run([python, "-c", script, path])
    if r.returncode != 0:
        return False, r.stderr.decode(errors="replace")[-300:]
    depth, low = map(int, r.stdout.split())
    return depth == 0 and low == 0, "q/Q depth at the end %d, lowest %d" % (depth, low)


def judge(pith, path, short, what, keyring):
    r = run(["pdftoppm", "-r", "30", "-f", "1", "-l", "1", path, path + "-render"])
    poppler_err = r.stderr.decode(errors="replace").strip()
    check(r.returncode == 0 and not poppler_err, "%s: poppler renders page 1 without complaint %s" % (what, poppler_err[:200]))
    r = run(["mutool", "draw", "-o", path + "-mu.png", "-r", "30", path, "1"])
    # (Debian's MuPDF is built without colour management and says so on every file.)
    mupdf_err = "\n".join(l for l in r.stderr.decode(errors="replace").splitlines()
                          if ("warning" in l or "error" in l) and "ICC support is not available" not in l)
    check(r.returncode == 0 and not mupdf_err, "%s: MuPDF renders page 1 without complaint %s" % (what, mupdf_err[:200]))
    text = run(["pdftotext", "-f", "1", "-l", "1", path, "-"]).stdout.decode(errors="replace")
    check(text.count(short) == 1, "%s: pdftotext shows %s once on page 1 (%d)" % (what, short, text.count(short)))
    text = run(["mutool", "draw", "-F", "txt", "-o", "-", path, "1"]).stdout.decode(errors="replace")
    check(text.count(short) == 1, "%s: MuPDF shows %s once on page 1 (%d)" % (what, short, text.count(short)))
    ok, detail = q_depth_ok(path)
    check(ok, "%s: page 1's content is balanced (%s)" % (what, detail))
    r = run([pith, "verify", path, "--json", "--keyring", keyring])
    report = json.loads(r.stdout) if r.stdout.startswith(b"{") else {}
    check(report.get("state") == "trusted", "%s: verify says trusted (%s %s)" % (what, report.get("state"), report.get("failure")))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    pith = a.pith
    tmp = tempfile.mkdtemp(prefix="pith-restamp-")
    try:
        # A signed record of the example paper under a test key, and one of another number.
        key, ring = os.path.join(tmp, "k.key"), os.path.join(tmp, "ring.json")
        run([pith, "keygen", "--key-id", "restamp-test", "--secret", key, "--keyring", ring])
        record = os.path.join(tmp, "record.json")
        check(run([pith, "sign", os.path.join(a.source, "examples", "record.json"), "--secret", key, "-o", record]).returncode == 0,
              "test record signed")
        number = json.load(open(record))["pith_number"]
        short = "pith:" + number.split(":")[-1][:8]
        article = os.path.join(a.source, "examples", "article.pdf")

        for where in ("append", "prepend"):
            s1, r1, s2, r2, s3 = (os.path.join(tmp, "%s-%d.pdf" % (where, i)) for i in range(5))
            check(run([pith, "stamp", article, "--record", record, "-o", s1]).returncode == 0, where + ": first stamp")
            open(r1, "wb").write(add_content(open(s1, "rb").read(), s1, where))
            r = run([pith, "stamp", r1, "--record", record, "-o", s2])
            check(r.returncode == 0, where + ": re-stamp after a revision " + r.stderr.decode(errors="replace")[:200])
            judge(pith, s2, short, where + ": stamp, revision, stamp", ring)
            open(r2, "wb").write(add_content(open(s2, "rb").read(), s2, where))
            r = run([pith, "stamp", r2, "--record", record, "-o", s3])
            check(r.returncode == 0, where + ": third stamp " + r.stderr.decode(errors="replace")[:200])
            judge(pith, s3, short, where + ": stamp, revision, stamp, revision, stamp", ring)

        # Another number over a stamp that gained a revision: --replace; nothing of the old number.
        other = os.path.join(a.source, "tests", "vectors", "seed-000-pith_number_record.json")
        r1, out = os.path.join(tmp, "append-1.pdf"), os.path.join(tmp, "replaced.pdf")
        r = run([pith, "stamp", r1, "--record", other, "-o", out, "--no-title-check"])
        check(r.returncode == 2 and not os.path.exists(out), "another number without --replace: refused, no output")
        r = run([pith, "stamp", r1, "--record", other, "-o", out, "--no-title-check", "--replace"])
        check(r.returncode == 0, "another number with --replace " + r.stderr.decode(errors="replace")[:200])
        other_number = json.loads(run([pith, "record", other, "--json"]).stdout)["number"]
        other_short = "pith:" + other_number.split(":")[-1][:8]
        text = run(["pdftotext", out, "-"]).stdout.decode(errors="replace")
        check(short not in text and text.count(other_short) == 1,
              "--replace: pdftotext shows the new number once and the old one nowhere")
        extracted = run([pith, "extract", out, "--json"]).stdout.decode(errors="replace")
        check(number not in extracted and number.split(":")[-1] not in extracted,
              "--replace: the old number is in no metadata or link pith reads")
        ok, detail = q_depth_ok(out)
        check(ok, "--replace: page 1's content is balanced (%s)" % detail)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
