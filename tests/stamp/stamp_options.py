#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pith stamp's options on the example paper: --rewrite, --at, --in-place, standard input and
output, --allow-unverified, --no-badge, and clean refusals (no output file left behind)."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, timeout=120, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    pith = a.pith
    article = os.path.join(a.source, "examples", "article.pdf")
    record = os.path.join(a.source, "examples", "record.json")
    tmp = tempfile.mkdtemp(prefix="pith-stamp-")
    try:
        original = open(article, "rb").read()

        # --rewrite: one new file, no pith update marker, Info as it was plus /PithNumber.
        out = os.path.join(tmp, "rewritten.pdf")
        r = run([pith, "stamp", article, "--record", record, "--rewrite", "-o", out])
        check(r.returncode == 0, "--rewrite exits 0")
        data = open(out, "rb").read() if os.path.exists(out) else b""
        check(not data.startswith(original) and b"%PithUpdate" not in data, "--rewrite writes a new file, not an update")
        q = run(["qpdf", "--check", out])
        check(q.returncode == 0 and b"No syntax or stream encoding errors" in q.stdout, "--rewrite output passes qpdf --check")
        info_in = run(["pdfinfo", article]).stdout.decode()
        info_out = run(["pdfinfo", out]).stdout.decode()
        for key in ("Producer:", "ModDate:", "CreationDate:", "Creator:"):
            line_in = [l for l in info_in.splitlines() if l.startswith(key)]
            line_out = [l for l in info_out.splitlines() if l.startswith(key)]
            check(line_in == line_out, "--rewrite keeps Info %s %s" % (key, line_in))
        v = run([pith, "verify", out, "--json"])
        j = json.loads(v.stdout or b"{}")
        check(v.returncode == 4 and j.get("state") == "unverified" and not j.get("failure"),
              "--rewrite output verifies as unverified with no failure (got %s)" % j.get("failure"))

        # The page's content is wrapped in q/Q and the badge drawn after it as an artifact
        # (marked content that tagged PDFs, PDF/UA and PDF/A-2a, leave out of the logical structure).
        out = os.path.join(tmp, "plain.pdf")
        r = run([pith, "stamp", article, "--record", record, "-o", out])
        qdf = os.path.join(tmp, "plain-qdf.pdf")
        run(["qpdf", "--qdf", "--object-streams=disable", out, qdf])
        text = open(qdf, "rb").read() if os.path.exists(qdf) else b""
        badge = text.find(b"/PithBadge Do")
        check(r.returncode == 0 and badge > 0, "the page draws /PithBadge")
        check(text.rfind(b"/Artifact BMC", 0, badge) > text.rfind(b"EMC", 0, badge) and
              text.find(b"EMC", badge) > badge, "the badge is drawn inside /Artifact BMC ... EMC")

        # --at X,Y: the link sits exactly there (no rotation on this page).
        out = os.path.join(tmp, "at.pdf")
        r = run([pith, "stamp", article, "--record", record, "--at", "100,50", "-o", out, "--json"])
        s = json.loads(r.stdout or b"{}")
        rect = (s.get("badge") or {}).get("rect", [])
        check(r.returncode == 0 and len(rect) == 4 and abs(rect[0] - 100) < 0.01 and abs(rect[1] - 50) < 0.01,
              "--at 100,50 puts the badge's lower-left at (100, 50): %s" % rect)
        x = json.loads(run([pith, "extract", out, "--json"]).stdout or b"{}")
        links = [l for l in x.get("links", []) if l.get("pith_badge")]
        check(len(links) == 1 and [round(v, 2) for v in links[0]["rect"]] == [round(v, 2) for v in rect],
              "the link annotation covers the badge at --at")

        # --in-place replaces the file atomically; the original bytes are a prefix.
        inplace = os.path.join(tmp, "inplace.pdf")
        shutil.copy(article, inplace)
        r = run([pith, "stamp", inplace, "--record", record, "--in-place"])
        check(r.returncode == 0 and open(inplace, "rb").read().startswith(original), "--in-place keeps the input as a prefix")
        check(sorted(os.listdir(tmp)) == sorted(["rewritten.pdf", "plain.pdf", "plain-qdf.pdf", "at.pdf", "inplace.pdf"]),
              "no temporary files left")

        # Standard input and output give the same bytes as files (SOURCE_DATE_EPOCH fixes the time).
        env = dict(os.environ, SOURCE_DATE_EPOCH="1764460800")
        via_files = os.path.join(tmp, "files.pdf")
        run([pith, "stamp", article, "--record", record, "-o", via_files], env=env)
        piped = run([pith, "stamp", "-", "--record", record, "-o", "-"], input=original, env=env)
        check(piped.returncode == 0 and piped.stdout == open(via_files, "rb").read(), "- in and - out give the same bytes as files")

        # A record whose stated hash does not recompute: refused, then stamped with --allow-unverified.
        bad = json.load(open(record, encoding="utf-8"))
        bad["current"]["canonical_record"]["metadata"]["primary_cat"] = "cs.LG"
        bad_path = os.path.join(tmp, "bad-record.json")
        json.dump(bad, open(bad_path, "w"))
        out = os.path.join(tmp, "unverified.pdf")
        r = run([pith, "stamp", article, "--record", bad_path, "-o", out])
        err = r.stderr.decode()
        check(r.returncode == 2 and not os.path.exists(out) and "--allow-unverified" in err and len(err.strip().splitlines()) == 1,
              "a record that does not recompute is refused in one line, no output (%r)" % err.strip())
        r = run([pith, "stamp", article, "--record", bad_path, "-o", out, "--allow-unverified"])
        x = json.loads(run([pith, "extract", out, "--json"]).stdout or b"{}")
        check(r.returncode == 0 and b"warning" in r.stderr and x.get("xmp", {}).get("pith", {}).get("unverified") == "True",
              "--allow-unverified stamps with a warning and marks pith:unverified")
        j = json.loads(run([pith, "verify", out, "--json"]).stdout or b"{}")
        check(j.get("state") != "trusted" and "pith.record.unverified" in [f["code"] for f in j.get("informational", [])],
              "verify reports pith.record.unverified")

        # --no-badge: metadata only.
        out = os.path.join(tmp, "nobadge.pdf")
        r = run([pith, "stamp", article, "--record", record, "--no-badge", "-o", out])
        x = json.loads(run([pith, "extract", out, "--json"]).stdout or b"{}")
        check(r.returncode == 0 and not x.get("links") and x.get("number") == "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3",
              "--no-badge embeds the metadata and draws no link")

        # Refusals leave nothing behind.
        for args, what in (([ "--page", "9"], "a page that does not exist"),
                           (["--corner", "middle"], "an unknown corner"),
                           (["--style", "neon"], "an unknown style")):
            out = os.path.join(tmp, "refused.pdf")
            r = run([pith, "stamp", article, "--record", record, "-o", out] + args)
            err = r.stderr.decode().strip()
            check(r.returncode == 2 and not os.path.exists(out) and len(err.splitlines()) == 1,
                  "%s: exit 2, one line (%r), no output" % (what, err))
        r = run([pith, "stamp", article, "--record", record])
        check(r.returncode == 2 and b"-o" in r.stderr, "no output named: usage error")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
