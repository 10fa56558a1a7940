#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`pith verify` tamper suite and CLI contract tests (registered one case per ctest in tests/verify.cmake).

usage: verify_suite.py --pith PITH --source SRC --work DIR [--corpus DIR] CASE

`setup` (a ctest fixture) makes a test key, signs examples/record.json with it, stamps
examples/article.pdf and checks the result is trusted. Every other case derives its files
from that trusted PDF by editing bytes or appending a hand-written incremental update, runs
`pith verify --json`, and asserts the state, the exit status and the specific finding code.

Exit 0 pass, 1 fail (a missing corpus or corpus file too: tests/corpus/counts.tsv).
"""
import json
import os
import pty
import re
import select
import shutil
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))
import manifest  # noqa: E402
import pdfedit  # noqa: E402
from pithrun import DAMAGED_CORPUS_FILES, Failure, Folder, case_main, check, isolated_env, run_pith  # noqa: E402

EXIT = {"trusted": 0, "invalid": 1, "unreadable": 2, "absent": 3, "unverified": 4}
SEED_KEY_ID = "pith-v1-2026-05"
TEST_KEY_ID = "test-key"
ARTICLE_BODY = "YRUNQITD2RKQXO2YH7SDTYYAQ3"
OTHER_BODY = "23QNCODH577IUWDFZU4YX4M5NI"  # seed-000's number


class Ctx(Folder):
    def __init__(self, args):
        super().__init__(args.work)
        self.pith = args.pith
        self.src = args.source
        self.work = args.work
        self.corpus = args.corpus
        self.home = os.path.join(self.work, "home")  # empty: no default keyring can interfere
        self.article = os.path.join(self.src, "examples", "article.pdf")
        self.record = os.path.join(self.src, "examples", "record.json")
        self.vectors = os.path.join(self.src, "tests", "vectors")

    def env(self, **extra):
        return isolated_env(self.home, SOURCE_DATE_EPOCH="1780000000", **extra)

    def run(self, args, timeout=120, env=None, stdin=None):
        """(exit status, stdout, stderr); fails on a crash (signal) or a hang."""
        start = time.time()
        result = run_pith(self.pith, args, env or self.env(), stdin=stdin, timeout=timeout)
        self.last_seconds = time.time() - start
        return result

    def verify(self, files, keyring=True, extra=(), timeout=120, env=None):
        """Runs `pith verify --json`; returns (exit, parsed JSON, stderr)."""
        if isinstance(files, str):
            files = [files]
        args = ["verify", "--json"] + list(files)
        if keyring is True:
            args += ["--keyring", self.path("ring.json")]
        elif keyring:
            args += ["--keyring", keyring]
        args += list(extra)
        rc, out, err = self.run(args, timeout=timeout, env=env)
        try:  # JSON Lines: one report per file; one file gives the report itself
            docs = [json.loads(line) for line in out.splitlines() if line.strip()]
        except ValueError as e:
            raise Failure("pith %s: --json output is not JSON Lines (%s): %r" % (" ".join(args), e, out[:500]))
        return rc, docs[0] if len(docs) == 1 else docs, err



def codes(report, section):
    return [f["code"] for f in report[section]]


def check_shape(report):
    """{file, state, number, success[], informational[], failure[]} with {code, explanation} entries."""
    for key in ("file", "state", "number", "success", "informational", "failure"):
        check(key in report, "--json report lacks %r: %s" % (key, json.dumps(report)[:400]))
    check(isinstance(report["file"], str), "file is not a string")
    check(report["state"] in EXIT, "unknown state %r" % report["state"])
    check(report["number"] is None or isinstance(report["number"], str), "number is neither null nor a string")
    for section in ("success", "informational", "failure"):
        check(isinstance(report[section], list), section + " is not a list")
        for f in report[section]:
            check(isinstance(f, dict) and set(f) >= {"code", "explanation"}, "bad finding in %s: %r" % (section, f))
            check(isinstance(f["code"], str) and f["code"] and isinstance(f["explanation"], str) and f["explanation"],
                  "empty code or explanation in %s: %r" % (section, f))


def expect(ctx, name, rc, report, state, failures=None, failure_includes=(), success_includes=(),
           info_includes=(), number=None):
    """Asserts state, exit status and finding codes; prints a one-line summary."""
    check_shape(report)
    summary = "%s: state=%s exit=%s failure=%s" % (name, report["state"], rc, codes(report, "failure"))
    print(summary)
    detail = "\n" + json.dumps(report, indent=1)[:4000]
    check(report["state"] == state, "%s: expected state %s, got %s%s" % (name, state, report["state"], detail))
    check(rc == EXIT[state], "%s: expected exit %d, got %d%s" % (name, EXIT[state], rc, detail))
    if state == "invalid":
        check(report["failure"], "%s: state invalid but no failure listed" % name)
    if state in ("trusted", "unverified", "absent"):
        check(not report["failure"], "%s: state %s with failures %s" % (name, state, codes(report, "failure")))
    if failures is not None:
        check(sorted(set(codes(report, "failure"))) == sorted(set(failures)),
              "%s: expected exactly failure codes %s, got %s%s" % (name, sorted(failures), codes(report, "failure"), detail))
    for c in failure_includes:
        check(c in codes(report, "failure"), "%s: failure code %s missing%s" % (name, c, detail))
    for c in success_includes:
        check(c in codes(report, "success"), "%s: success code %s missing%s" % (name, c, detail))
    for c in info_includes:
        check(c in codes(report, "informational"), "%s: informational code %s missing%s" % (name, c, detail))
    if number is not None:
        check(report["number"] == number, "%s: number %r, expected %r" % (name, report["number"], number))


def pith_update_start(data):
    at = data.find(b"%PithUpdate prior=")
    check(at > 0, "no pith update marker in the stamped file")
    return at


TRUSTED_CODES = ["pith.metadata.present", "pith.hash.match", "pith.number.match", "receipt.valid", "pith.links.match",
                 "pith.badge.text.match", "pith.title.match", "pith.prior.match", "pith.update.match", "pith.changes.none"]


# ----------------------------------------------------------------------------------------------
# setup and baseline

def case_setup(ctx):
    if os.path.isdir(ctx.work):
        shutil.rmtree(ctx.work)
    os.makedirs(ctx.home)
    rc, out, err = ctx.run(["keygen", "--key-id", TEST_KEY_ID, "--secret", ctx.path("test.key"),
                            "--keyring", ctx.path("ring.json")])
    check(rc == 0, "keygen failed: " + err)
    rc, out, err = ctx.run(["sign", ctx.record, "--secret", ctx.path("test.key"), "-o", ctx.path("signed.json")])
    check(rc == 0, "sign failed: " + err)
    rc, out, err = ctx.run(["stamp", ctx.article, "--record", ctx.path("signed.json"), "-o", ctx.path("trusted.pdf")])
    check(rc == 0, "stamp failed: " + err)
    # A second key (same id as the test key, other key pair) for the "key swapped" case.
    os.makedirs(ctx.path("other"))
    rc, out, err = ctx.run(["keygen", "--key-id", TEST_KEY_ID, "--secret", ctx.path("other/test.key"),
                            "--keyring", ctx.path("other/ring.json")])
    check(rc == 0, "keygen (other) failed: " + err)
    rc, report, err = ctx.verify(ctx.path("trusted.pdf"))
    expect(ctx, "setup", rc, report, "trusted", failures=[], success_includes=TRUSTED_CODES,
           number="pith:2024:" + ARTICLE_BODY)


def case_trusted(ctx):
    rc, report, err = ctx.verify(ctx.path("trusted.pdf"))
    expect(ctx, "trusted", rc, report, "trusted", failures=[], success_includes=TRUSTED_CODES,
           number="pith:2024:" + ARTICLE_BODY)
    check(report["file"] == ctx.path("trusted.pdf"), "file %r" % report["file"])
    # The same PDF without the key: consistent but not trusted.
    rc, report, err = ctx.verify(ctx.path("trusted.pdf"), keyring=False)
    expect(ctx, "trusted-without-key", rc, report, "unverified", failures=[], info_includes=["receipt.key_unknown"])
    check("key unknown: " + TEST_KEY_ID in json.dumps(report), "no 'key unknown: test-key' explanation")


# ----------------------------------------------------------------------------------------------
# tampering with pith's own update (same-length byte edits, offsets unchanged)

def edited(ctx, name, old, new):
    data = ctx.read("trusted.pdf")
    return ctx.write(name, pdfedit.replace_same_length(data, old, new, start=pith_update_start(data)))


def case_record_edited(ctx):
    # The canonical record in XMP: primary_cat cs.AR -> cs.AI (the record is otherwise intact JSON).
    path = edited(ctx, "record-edited.pdf", '"primary_cat":"cs.AR"', '"primary_cat":"cs.AI"')
    rc, report, err = ctx.verify(path)
    # The stated hash no longer recomputes; the number no longer derives; the receipt (checked
    # against the recomputed hash) no longer verifies.
    expect(ctx, "record-edited", rc, report, "invalid",
           failures=["pith.hash.mismatch", "pith.number.mismatch", "receipt.invalid"])


def case_record_broken(ctx):
    # The canonical record in XMP made into invalid JSON (same length).
    path = edited(ctx, "record-broken.pdf", '{"metadata":{"abstract', '{"metadata":["abstract')
    rc, report, err = ctx.verify(path)
    expect(ctx, "record-broken", rc, report, "invalid", failure_includes=["pith.record.malformed"])


def case_hash_edited(ctx):
    path = edited(ctx, "hash-edited.pdf", "<pith:canonicalSha256>c468d8", "<pith:canonicalSha256>d468d8")
    rc, report, err = ctx.verify(path)
    # Only the stated hash is wrong: the record still derives the number and carries a valid receipt.
    expect(ctx, "hash-edited", rc, report, "invalid", failures=["pith.hash.mismatch"],
           success_includes=["pith.number.match", "receipt.valid"])


def case_number_edited(ctx):
    # The XMP number (last body character; the short form pith:YRUNQITD stays as shown on the badge).
    path = edited(ctx, "number-edited.pdf", "<pith:number>pith:2024:%s</pith:number>" % ARTICLE_BODY,
                  "<pith:number>pith:2024:%s</pith:number>" % (ARTICLE_BODY[:-1] + "4"))
    rc, report, err = ctx.verify(path)
    expect(ctx, "number-edited", rc, report, "invalid", failure_includes=["pith.number.mismatch"])
    # Info /PithNumber and the badge link still name the original number.
    check("pith.links.mismatch" in codes(report, "failure"), "number-edited: Info/link disagreement not reported")


def case_number_edited_everywhere(ctx):
    # Number edited in XMP, Info and the link alike (consistent lie): still the number does not derive.
    data = ctx.read("trusted.pdf")
    start = pith_update_start(data)
    fake = ARTICLE_BODY[:-1] + "4"
    data = data[:start] + data[start:].replace(ARTICLE_BODY.encode(), fake.encode())
    path = ctx.write("number-edited-everywhere.pdf", data)
    rc, report, err = ctx.verify(path)
    expect(ctx, "number-edited-everywhere", rc, report, "invalid", failures=["pith.number.mismatch"])


def case_link_changed(ctx):
    path = edited(ctx, "link-changed.pdf", "/URI (https://pith.science/pith/%s)" % ARTICLE_BODY,
                  "/URI (https://pith.science/pith/%s)" % OTHER_BODY)
    rc, report, err = ctx.verify(path)
    expect(ctx, "link-changed", rc, report, "invalid", failures=["pith.links.mismatch"])
    check(OTHER_BODY in report["failure"][0]["explanation"], "the explanation does not name the link's target")


def case_signature_flipped(ctx):
    data = ctx.read("trusted.pdf")
    start = pith_update_start(data)
    tag = b"<pith:receiptSignature>"
    at = data.index(tag, start) + len(tag)
    end = data.index(b"</pith:receiptSignature>", at)
    sig = bytearray(data[at:end])
    i = 10  # a character well inside the base64 (not the padding-bearing tail)
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    sig[i] = alphabet[(alphabet.index(sig[i]) ^ 1)]  # flips the lowest bit of that sextet
    path = ctx.write("signature-flipped.pdf", data[:at] + bytes(sig) + data[end:])
    rc, report, err = ctx.verify(path)
    expect(ctx, "signature-flipped", rc, report, "invalid", failures=["receipt.invalid"],
           success_includes=["pith.hash.match", "pith.number.match"])


def case_key_swapped(ctx):
    # The keyring's entry for test-key holds another public key: the receipt must not verify.
    rc, report, err = ctx.verify(ctx.path("trusted.pdf"), keyring=ctx.path("other/ring.json"))
    expect(ctx, "key-swapped", rc, report, "invalid", failures=["receipt.invalid"])


def case_key_revoked(ctx):
    ring = json.load(open(ctx.path("ring.json")))
    ring["keys"][0]["revoked"] = True
    revoked = ctx.path("ring-revoked.json")
    with open(revoked, "w") as f:
        json.dump(ring, f)
    rc, report, err = ctx.verify(ctx.path("trusted.pdf"), keyring=revoked)
    check(report["state"] != "trusted" and rc != 0, "key-revoked: still trusted")
    expect(ctx, "key-revoked", rc, report, "unverified", failures=[], info_includes=["receipt.key_revoked", "pith.evidence.missing"])
    # Revoked since a time before the receipt was signed.
    ring["keys"][0]["revoked"] = "2020-01-01T00:00:00Z"
    with open(revoked, "w") as f:
        json.dump(ring, f)
    rc, report, err = ctx.verify(ctx.path("trusted.pdf"), keyring=revoked)
    expect(ctx, "key-revoked-since", rc, report, "unverified", failures=[], info_includes=["receipt.key_revoked"])
    # A key whose validity ended: a backdated receipt time (not signed) cannot revive it.
    ring["keys"][0]["revoked"] = False
    ring["keys"][0]["not_after"] = "2025-01-01T00:00:00Z"
    with open(revoked, "w") as f:
        json.dump(ring, f)
    rc, report, err = ctx.verify(ctx.path("trusted.pdf"), keyring=revoked)
    expect(ctx, "key-expired", rc, report, "unverified", failures=[], info_includes=["receipt.key_outside_validity"])


def case_prior_modified(ctx):
    # A byte of the original file (its binary comment on line 2) changed after stamping.
    data = bytearray(ctx.read("trusted.pdf"))
    nl = data.index(b"\n")
    check(data[nl + 1:nl + 2] == b"%", "article.pdf has no comment on line 2")
    data[nl + 2] ^= 0x01
    path = ctx.write("prior-modified.pdf", bytes(data))
    rc, report, err = ctx.verify(path)
    expect(ctx, "prior-modified", rc, report, "invalid", failures=["pith.prior.mismatch"])


# ----------------------------------------------------------------------------------------------
# paper A's badge on paper B

def title_page(ctx, name, before_title=b"", after_title=b""):
    """A one-page paper showing the test record's title as its first line, with content-stream
    operators around that line (qpdf rebuilds the file)."""
    title = json.load(open(ctx.path("signed.json"), encoding="utf-8"))["paper"]["title"]
    pdf = pdfedit.make_pdf([title, "A. Author, B. Author", "", "Abstract. We study something."])
    line = pdfedit.pdf_string(title).encode("latin-1") + b" Tj T*"
    m = re.search(rb"<< /Length (\d+) >>\nstream\n", pdf)
    body = pdf[m.end():m.end() + int(m.group(1))].replace(line, before_title + line + after_title)
    raw = ctx.write(name + ".raw", pdf[:m.start()] + b"<< /Length %d >>\nstream\n" % len(body) + body +
                    pdf[m.end() + int(m.group(1)):])
    path = ctx.path(name)
    check(subprocess.run(["qpdf", raw, path], capture_output=True).returncode in (0, 3), "qpdf rebuilds " + name)
    return path, title


def case_title_glance(ctx):
    """pith stamp reads page 1 with one cheap glance (glyphs painted as boxes, which also places
    the badge); whatever the glance does not find set as the title is decided by the renders
    verify makes. A white title on a dark banner is stamped and verifies trusted; a title in
    render mode 3 is refused; both as poppler draws them (pdftotext reads both titles)."""
    for name, before, after, shown in (("title-plain.pdf", b"", b"", True),
                                       ("title-banner.pdf", b"ET 0.1 0.1 0.3 rg 40 705 540 30 re f BT /F1 10 Tf 14 TL "
                                                            b"50 720 Td 1 1 1 rg ", b" 0 0 0 rg", True),
                                       ("title-mode3.pdf", b"3 Tr ", b" 0 Tr", False)):
        path, title = title_page(ctx, name, before, after)
        text = subprocess.run(["pdftotext", path, "-"], capture_output=True).stdout.decode()
        check(title in text.replace("\n", " "), "%s: pdftotext reads the title" % name)
        out = ctx.path(name.replace(".pdf", "-stamped.pdf"))
        rc, so, err = ctx.run(["stamp", path, "--record", ctx.path("signed.json"), "-o", out, "--json"])
        if shown:
            check(rc == 0 and json.loads(so)["title"] == "shown", "%s: stamped, title shown (exit %d) %s" % (name, rc, err))
            rc, report, err = ctx.verify(out)
            expect(ctx, name, rc, report, "trusted", failures=[])
        else:
            check(rc == 2 and "cannot see" in err and not os.path.exists(out), "%s: refused (exit %d) %s" % (name, rc, err))


def case_title_after_front_matter(ctx):
    """A class that typesets a cover and highlights first puts the title block on page 3: stamp
    and verify find it there (trusted). A paper whose page 1 shows its own title and text
    cannot borrow a title printed on page 2: stamp refuses, verify says pith.title.differs; nor
    can a paper after a cover of more than three words that does not name it."""
    title = json.load(open(ctx.path("signed.json"), encoding="utf-8"))["paper"]["title"]
    wide = (800, 600)
    pages = {
        "cover": pdfedit.make_pdf(["Journal of Examples"], page_size=wide),
        # as elsarticle's: the title repeated inside a line of text, not set as a title
        "highlights": pdfedit.make_pdf(["Highlights", "Paper: " + title, "- We model training.", "- We model inference."],
                                       page_size=wide),
        "issue-cover": pdfedit.make_pdf(["Journal of Examples", "Volume 1, Issue 1"], page_size=wide),
        "title": pdfedit.make_pdf([title, "A. Author, B. Author", "", "Abstract. We study performance."], font_size=12,
                                  page_size=wide),
        "other": pdfedit.make_pdf(["Quantum Annealing Schedules for Sparse Graph Colouring"] +
                                  ["Body text of another paper, line %d, with words enough." % i for i in range(30)],
                                  page_size=wide),
    }
    for name, data in pages.items():
        ctx.write("fm-%s.pdf" % name, data)

    def paper(name, parts):
        path = ctx.path(name)
        proc = subprocess.run(["qpdf", "--empty", "--pages"] + [ctx.path("fm-%s.pdf" % p) for p in parts] + ["--", path],
                              capture_output=True)
        check(proc.returncode == 0, "qpdf joins %s: %s" % (name, proc.stderr.decode()))
        text = subprocess.run(["pdftotext", "-f", str(parts.index("title") + 1), "-l", str(parts.index("title") + 1), path, "-"],
                              capture_output=True).stdout.decode()
        check(title in text.replace("\n", " "), "%s: pdftotext reads the title on page %d" % (name, parts.index("title") + 1))
        return path

    front = paper("front-matter.pdf", ["cover", "highlights", "title"])
    out = ctx.path("front-matter-stamped.pdf")
    rc, so, err = ctx.run(["stamp", front, "--record", ctx.path("signed.json"), "-o", out, "--json"])
    check(rc == 0 and json.loads(so)["title"] == "shown", "front matter: stamped, title shown (exit %d) %s" % (rc, err))
    rc, report, err = ctx.verify(out)
    expect(ctx, "front-matter", rc, report, "trusted", failures=[])
    check("on page 3" in json.dumps(report), "front matter: verify names page 3")

    # A cover that names something other than the paper in more than three words cannot be told
    # from one that names another paper: not skipped (doc/known-limits.md).
    issue = paper("issue-cover.pdf", ["issue-cover", "highlights", "title"])
    rc, so, err = ctx.run(["stamp", issue, "--record", ctx.path("signed.json"), "-o", ctx.path("issue-cover-stamped.pdf")])
    check(rc == 2 and "[stamp.title_not_shown]" in err, "a journal issue's cover: refused (exit %d) %s" % (rc, err))
    rc, so, err = ctx.run(["stamp", issue, "--record", ctx.path("signed.json"), "-o", ctx.path("issue-cover-stamped.pdf"),
                           "--no-title-check"])
    rc, report, err = ctx.verify(ctx.path("issue-cover-stamped.pdf"))
    check("page 1 is not front matter: it shows 7 words but not the record's title" in json.dumps(report, ensure_ascii=False),
          "a journal issue's cover: verify says why page 3 does not bind: %s" % json.dumps(report)[:300])

    borrowed = paper("borrowed-title.pdf", ["other", "title"])
    out = ctx.path("borrowed-title-stamped.pdf")
    rc, so, err = ctx.run(["stamp", borrowed, "--record", ctx.path("signed.json"), "-o", out])
    check(rc == 2 and "does not show the record's title" in err and not os.path.exists(out),
          "borrowed title: refused (exit %d) %s" % (rc, err))
    rc, so, err = ctx.run(["stamp", borrowed, "--record", ctx.path("signed.json"), "-o", out, "--no-title-check"])
    check(rc == 0, "borrowed title, --no-title-check: " + err)
    rc, report, err = ctx.verify(out)
    expect(ctx, "borrowed-title", rc, report, "invalid", failures=["pith.title.differs"])

    late = paper("late-title.pdf", ["cover", "highlights", "cover", "title"])
    rc, so, err = ctx.run(["stamp", late, "--record", ctx.path("signed.json"), "-o", ctx.path("late-title-stamped.pdf")])
    check(rc == 2, "a title on page 4 is past the title block's pages: refused (exit %d) %s" % (rc, err))


def case_title_differs(ctx):
    paper_b = ctx.write("paper-b.pdf", pdfedit.make_pdf([
        "Quantum Annealing Schedules for Sparse Graph Colouring Problems",
        "A. Author, B. Author", "", "Abstract. We study something else entirely."]))
    out = ctx.path("paper-b-stamped.pdf")
    # pith stamp itself refuses a record whose title page 1 does not show (issue 14, point 7),
    # with its code in --json-less output, and writes nothing ...
    rc, so, err = ctx.run(["stamp", paper_b, "--record", ctx.path("signed.json"), "-o", out])
    check(rc == 2 and "does not show the record's title" in err and "--no-title-check" in err and not os.path.exists(out),
          "stamp paper B with A's record: exit %d (expected 2, refused, no output)\n%s" % (rc, err))
    # ... and an attacker who overrides it gets invalid from verify.
    rc, so, err = ctx.run(["stamp", paper_b, "--record", ctx.path("signed.json"), "-o", out, "--no-title-check"])
    check(rc == 0, "stamp paper B: " + err)
    rc, report, err = ctx.verify(out)
    expect(ctx, "title-differs", rc, report, "invalid", failures=["pith.title.differs"],
           success_includes=["receipt.valid", "pith.hash.match", "pith.links.match"])
    # Paper B declaring paper A's title (Info /Title, XMP dc:title): whoever sends the PDF
    # chooses those, so they never bind.
    bundle = json.load(open(ctx.record, encoding="utf-8"))
    title = bundle["current"]["graph_snapshots"][0]["payload"]["graph_snapshot"]["paper"]["title"]
    data = ctx.read("paper-b.pdf")
    _, trailer, _ = pdfedit.last_trailer(data)
    info = int(pdfedit.trailer_entry(trailer, "Size"))
    titled = ctx.write("paper-b-titled.pdf", pdfedit.append_update(data, {info: "<< /Title %s >>" % pdfedit.pdf_string(title)},
                                                                    info="%d 0 R" % info))
    rc, so, err = ctx.run(["stamp", titled, "--record", ctx.path("signed.json"), "-o", ctx.path("paper-b-titled-stamped.pdf"),
                           "--no-title-check"])
    check(rc == 0, "stamp paper B with A's title declared: " + err)
    rc, report, err = ctx.verify(ctx.path("paper-b-titled-stamped.pdf"))
    expect(ctx, "title-declared-only", rc, report, "invalid", failures=["pith.title.differs"])

    # The same via copying: paper A's pith update (XMP stream, badge) copied byte for byte onto
    # paper B is caught too (here by the prior-bytes check as well as the title).
    data = ctx.read("trusted.pdf")
    copied = ctx.write("paper-b-copied-update.pdf", ctx.read("paper-b.pdf") + data[pith_update_start(data):])
    rc, so, err = ctx.run(["verify", "--json", "--keyring", ctx.path("ring.json"), copied])
    check(rc in (1, 2), "copied update onto paper B: exit %d (expected invalid or unreadable)\n%s" % (rc, so[:2000]))


# ----------------------------------------------------------------------------------------------
# hand-written incremental updates after stamping

def case_page_appended(ctx):
    src = ctx.path("trusted.pdf")
    data = ctx.read("trusted.pdf")
    _, trailer, _ = pdfedit.last_trailer(data)
    size = int(pdfedit.trailer_entry(trailer, "Size"))
    root = pdfedit.trailer_entry(trailer, "Root").split()[0]
    pages_num = int(pdfedit.show_object(src, int(root)).split("/Pages ")[1].split()[0])
    pages = pdfedit.show_object(src, pages_num)
    check("/Kids [ 2 0 R ]" in pages and "/Count 1" in pages, "unexpected page tree: " + pages)
    content, page = size, size + 1
    new_pages = pages.replace("/Kids [ 2 0 R ]", "/Kids [ 2 0 R %d 0 R ]" % page).replace("/Count 1", "/Count 2")
    objects = {
        content: pdfedit.stream("", b"BT /F1 12 Tf 72 720 Td (An appended page) Tj ET\n"),
        page: "<< /Type /Page /Parent %d 0 R /MediaBox [ 0 0 595 842 ] /Contents %d 0 R >>" % (pages_num, content),
        pages_num: new_pages,
    }
    path = ctx.write("page-appended.pdf", pdfedit.append_update(data, objects))
    rc, report, err = ctx.verify(path)
    expect(ctx, "page-appended", rc, report, "invalid", failures=["pith.changed.page_tree"])
    check("page tree node object %d" % pages_num in report["failure"][0]["explanation"],
          "explanation does not name the page tree: " + report["failure"][0]["explanation"])
    # Same with a classic xref table section after pith's xref stream.
    path = ctx.write("page-appended-table.pdf", pdfedit.append_update(data, objects, xref_kind="table"))
    rc, report, err = ctx.verify(path)
    expect(ctx, "page-appended-table", rc, report, "invalid", failures=["pith.changed.page_tree"])


def case_badge_redrawn(ctx):
    """pith's own update edited in place (same length, so nothing else shows it): the badge
    XObject made to draw a box instead, or the recorded pith:badge options changed. verify draws
    the badge again from pith:badge and compares: pith.badge.drawing.mismatch (issue 14, 5)."""
    src = ctx.path("trusted.pdf")
    data = ctx.read("trusted.pdf")
    rc, report, err = ctx.verify(src)
    check("pith.badge.drawing.match" in codes(report, "success"), "trusted.pdf: badge not drawn again: %s" % report)
    num = int(re.search(r"/PithBadge (\d+) 0 R", pdfedit.show_object(src, 2)).group(1))
    start = pith_update_start(data)
    at = data.index(b"\n%d 0 obj" % num, start)
    head_end = data.index(b"stream\n", at) + len(b"stream\n")
    end = data.index(b"endstream", head_end)
    head = data[at:head_end]
    check(b"/Filter /FlateDecode" in head, "badge XObject not Flate: %r" % head)
    box = b"0 0 1 rg 0 0 60 10 re f\n"
    body = box + b" " * (end - head_end - len(box))
    check(end - head_end >= len(box), "badge stream too short to replace")
    edited = data[:at] + head.replace(b"/Filter /FlateDecode", b" " * len(b"/Filter /FlateDecode")) + body + data[end:]
    check(len(edited) == len(data), "same-length edit")
    path = ctx.write("badge-redrawn-box.pdf", edited)
    rc, report, err = ctx.verify(path)
    expect(ctx, "badge-drawing-replaced", rc, report, "invalid", failure_includes=["pith.badge.drawing.mismatch"])
    # The options recorded are not the ones drawn with.
    edited = data.replace(b"text=8 qr=0", b"text=9 qr=0")
    check(edited != data, "pith:badge not found in the XMP")
    path = ctx.write("badge-options-edited.pdf", edited)
    rc, report, err = ctx.verify(path)
    expect(ctx, "badge-options-edited", rc, report, "invalid", failure_includes=["pith.badge.drawing.mismatch"])


def case_badge_text_changed(ctx):
    # An update replacing the badge's drawing with one that shows another number.
    src = ctx.path("trusted.pdf")
    data = ctx.read("trusted.pdf")
    badge = re.search(r"/PithBadge (\d+) 0 R", pdfedit.show_object(src, 2))
    check(badge, "page 2 has no /PithBadge XObject")
    shown = ("BT /H 8 Tf 0 2 Td (pith:%s) Tj ET\n" % OTHER_BODY[:8]).encode()
    form = pdfedit.stream("/Type /XObject /Subtype /Form /BBox [ 0 0 80 12 ] /Resources << /Font << /H << "
                                 "/Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>", shown)
    path = ctx.write("badge-text-changed.pdf", pdfedit.append_update(data, {int(badge.group(1)): form}))
    rc, report, err = ctx.verify(path)
    # (the badge pith drew is no longer what is drawn: pith.badge.drawing.mismatch too)
    expect(ctx, "badge-text-changed", rc, report, "invalid",
           failures=["pith.badge.drawing.mismatch", "pith.badge.text.mismatch", "pith.changed.resource"])
    modified = [f["explanation"] for f in report["failure"] if f["code"] == "pith.changed.resource"]
    check("object %s" % badge.group(1) in modified[0], "pith.changed.resource does not name the badge: %s" % modified)
    # The same with pith's own font kept: the letters of the number shuffled, so every code
    # is in its ToUnicode map. pith's quick reading sees another number; poppler confirms it
    # (a failure is always poppler's to say), and with poppler crashing the text checks fail.
    num = int(badge.group(1))
    dictionary = pdfedit.show_object(src, num).split("Dictionary:", 1)[-1].strip()
    dictionary = re.sub(r"/(Length \d+|Filter /FlateDecode)", "", dictionary)[2:-2]
    drawing = subprocess.run(["qpdf", "--show-object=%d" % num, "--filtered-stream-data", src],
                             capture_output=True, timeout=60).stdout
    shuffled = ARTICLE_BODY[:8][::-1]
    check(b"(pith:%s)" % ARTICLE_BODY[:8].encode() in drawing, "badge drawing without its text: %r" % drawing)
    form = pdfedit.stream(dictionary, drawing.replace(ARTICLE_BODY[:8].encode(), shuffled.encode()))
    path = ctx.write("badge-text-shuffled.pdf", pdfedit.append_update(data, {num: form}))
    rc, report, err = ctx.verify(path)
    expect(ctx, "badge-text-shuffled", rc, report, "invalid", failures=["pith.badge.drawing.mismatch", "pith.badge.text.mismatch", "pith.changed.resource"])
    rc, report, err = ctx.verify(path, env=ctx.env(PITH_TEST_PAGE_TEXT_CRASH="1"))
    expect(ctx, "badge-text-shuffled-poppler-crashed", rc, report, "invalid", failure_includes=["pith.text.failed"])
    check("pith.badge.text.match" not in codes(report, "success"), "a shuffled badge read as matching: %s" % report)


def case_content_replaced(ctx):
    # An update replacing the page's original content stream with other text.
    src = ctx.path("trusted.pdf")
    data = ctx.read("trusted.pdf")
    page = pdfedit.show_object(src, 2)
    check(re.search(r"/Contents \[ \d+ 0 R 3 0 R \d+ 0 R \]", page), "unexpected page 2 (want pith's q/Q around 3 0 R): " + page)
    objects = {3: pdfedit.stream("", b"BT /F36 24 Tf 72 700 Td (Another text) Tj ET\n")}
    path = ctx.write("content-replaced.pdf", pdfedit.append_update(data, objects))
    rc, report, err = ctx.verify(path)
    expect(ctx, "content-replaced", rc, report, "invalid", failure_includes=["pith.changed.content"])


def case_metadata_stripped(ctx):
    src = ctx.path("trusted.pdf")
    data = ctx.read("trusted.pdf")
    _, trailer, _ = pdfedit.last_trailer(data)
    root = int(pdfedit.trailer_entry(trailer, "Root").split()[0])
    info = int(pdfedit.trailer_entry(trailer, "Info").split()[0])
    catalog = pdfedit.show_object(src, root)
    info_dict = pdfedit.show_object(src, info)
    check("/Metadata" in catalog and "/PithNumber" in info_dict, "stamped file lacks metadata")
    catalog = re.sub(r"/Metadata \d+ 0 R ", "", catalog)
    info_dict = re.sub(r"/PithNumber \([^)]*\) ", "", info_dict)
    check("/Metadata" not in catalog and "/PithNumber" not in info_dict, "could not strip: %s %s" % (catalog, info_dict))
    path = ctx.write("metadata-stripped.pdf", pdfedit.append_update(data, {root: catalog, info: info_dict}))
    rc, report, err = ctx.verify(path)
    expect(ctx, "metadata-stripped", rc, report, "invalid", failures=["pith.metadata.absent"])
    check(ARTICLE_BODY in report["failure"][0]["explanation"], "explanation does not name the badge link")


def case_later_revision_ok(ctx):
    # A reader's comment: a new Text annotation added to the page's /Annots only.
    src = ctx.path("trusted.pdf")
    data = ctx.read("trusted.pdf")
    _, trailer, _ = pdfedit.last_trailer(data)
    size = int(pdfedit.trailer_entry(trailer, "Size"))
    page = pdfedit.show_object(src, 2)
    annots = re.search(r"/Annots \[ (\d+) 0 R \]", page)
    check(annots, "unexpected page 2 (want one annotation, pith's link): " + page)
    note = size
    objects = {
        note: "<< /Type /Annot /Subtype /Text /Rect [ 100 100 120 120 ] /Contents (A reader's note) /P 2 0 R >>",
        2: page.replace(annots.group(0), "/Annots [ %s 0 R %d 0 R ]" % (annots.group(1), note)),
    }
    path = ctx.write("later-comment.pdf", pdfedit.append_update(data, objects))
    rc, report, err = ctx.verify(path)
    expect(ctx, "later-comment", rc, report, "trusted", failures=[], info_includes=["pith.changes.after"])
    check("pith.changes.none" not in codes(report, "success"), "changes.none with a later revision")
    after = [f["explanation"] for f in report["informational"] if f["code"] == "pith.changes.after"]
    check(after and "modification level: comments (1, pyHanko's ANNOTATIONS)" in after[0],
          "the comment's revision not named by its modification level: %r" % after)
    # The same note laid over the badge covers it: not a reader's comment any more.
    badge_rect = re.search(r"/Rect \[ ([^\]]*) \]", pdfedit.show_object(src, int(annots.group(1)))).group(1)
    objects[note] = objects[note].replace("100 100 120 120", badge_rect)
    path = ctx.write("later-comment-over-badge.pdf", pdfedit.append_update(data, objects))
    rc, report, err = ctx.verify(path)
    expect(ctx, "later-comment-over-badge", rc, report, "invalid", failures=["pith.changed.annotation"])
    # Hidden (NoView) but shown while the pointer is on it (ToggleNoView): not a comment that stays hidden.
    objects[note] = objects[note].replace("/Subtype /Text", "/Subtype /Text /F 288").replace(badge_rect, "100 100 120 120")
    path = ctx.write("later-comment-toggled.pdf", pdfedit.append_update(data, objects))
    rc, report, err = ctx.verify(path)
    expect(ctx, "later-comment-toggled", rc, report, "invalid", failures=["pith.changed.annotation"])
    # Hidden (NoView) alone: it draws nothing, and stays so.
    objects[note] = objects[note].replace("/F 288", "/F 32")
    path = ctx.write("later-comment-hidden.pdf", pdfedit.append_update(data, objects))
    rc, report, err = ctx.verify(path)
    expect(ctx, "later-comment-hidden", rc, report, "trusted", failures=[])


# ----------------------------------------------------------------------------------------------
# absent, seeds, --record, several files, colour

def case_absent(ctx):
    rc, report, err = ctx.verify(ctx.article)
    expect(ctx, "article-unstamped", rc, report, "absent", info_includes=["pith.metadata.absent"])
    check(report["number"] is None, "unstamped: number %r" % report["number"])
    plain = ctx.write("plain.pdf", pdfedit.make_pdf(["Just a paper without a Pith number"]))
    rc, report, err = ctx.verify(plain)
    expect(ctx, "generated-unstamped", rc, report, "absent")
    rc, out, err = ctx.run(["extract", plain])
    check(rc == 3, "extract of an unstamped PDF: exit %d, expected 3" % rc)


def case_absent_corpus(ctx):
    corpus = manifest.load(ctx.corpus)  # every valid file of tests/corpus/counts.tsv, or a failure
    files = sorted(corpus.path(r) for r in corpus.rows("valid"))
    bad = []
    for f in files:
        rc, report, err = ctx.verify(f, keyring=False)
        if "valid/" + os.path.basename(f) in DAMAGED_CORPUS_FILES:
            # refused like a malformed file; read anyway with --allow-damaged, which lists the damage
            if rc != 2 or "damaged PDF" not in err or "--allow-damaged" not in err:
                bad.append("%s (damaged): want exit 2 naming the damage and --allow-damaged, got %d %s" % (f, rc, err[:200]))
            rc, report, err = ctx.verify(f, keyring=False, extra=["--allow-damaged"])
            if "pdf.damaged" not in codes(report, "informational"):
                bad.append("%s (damaged, --allow-damaged): no pdf.damaged line" % f)
        if rc != 3 or report.get("state") != "absent":
            bad.append("%s: exit %d state %s %s" % (os.path.basename(f), rc, report.get("state"), err.strip()[:200]))
    print("%d unstamped corpus PDFs checked" % len(files))
    check(not bad, "unstamped corpus PDFs not reported absent:\n" + "\n".join(bad))


def seed_title(path):
    doc = json.load(open(path))
    if "paper" in doc:
        return doc["paper"]["title"]
    return doc["current"]["graph_snapshots"][0]["payload"]["graph_snapshot"]["paper"]["title"]


def case_seeds_unverified(ctx):
    seeds = sorted(f for f in os.listdir(ctx.vectors) if f.endswith(".json"))
    check(seeds, "no seed records in " + ctx.vectors)
    for seed in seeds:
        record = os.path.join(ctx.vectors, seed)
        paper = ctx.write(seed + ".pdf", pdfedit.make_pdf([seed_title(record), "", "Some Author"], font_size=8))
        out = ctx.path(seed + "-stamped.pdf")
        rc, so, err = ctx.run(["stamp", paper, "--record", record, "-o", out])
        check(rc == 0, "stamp %s: %s" % (seed, err))
        rc, report, err = ctx.verify(out, keyring=False)
        expect(ctx, seed, rc, report, "unverified", failures=[], info_includes=["receipt.key_unknown"],
               success_includes=["pith.hash.match", "pith.number.match", "pith.title.match"])
        explanations = [f["explanation"] for f in report["informational"] if f["code"] == "receipt.key_unknown"]
        check(any("key unknown: " + SEED_KEY_ID in e for e in explanations),
              "%s: no 'key unknown: %s' in %s" % (seed, SEED_KEY_ID, explanations))
        # Also with the test keyring (which does not hold the registry key): still unverified.
        rc, report, err = ctx.verify(out)
        expect(ctx, seed + " (test keyring)", rc, report, "unverified", info_includes=["receipt.key_unknown"])
    # The seed of the example paper, stamped on the real article.
    out = ctx.path("article-seed-002.pdf")
    rc, so, err = ctx.run(["stamp", ctx.article, "--record", os.path.join(ctx.vectors, "seed-002-open_graph_state.json"),
                           "-o", out])
    check(rc == 0, "stamp article with seed-002: " + err)
    rc, report, err = ctx.verify(out, keyring=False)
    expect(ctx, "article+seed-002", rc, report, "unverified", failures=[], info_includes=["receipt.key_unknown"])


def case_record_option(ctx):
    rc, report, err = ctx.verify(ctx.path("trusted.pdf"), extra=["--record", ctx.record])
    expect(ctx, "record-equal", rc, report, "trusted", success_includes=["pith.record.expected.match"])
    rc, report, err = ctx.verify(ctx.path("trusted.pdf"), extra=["--record", ctx.path("signed.json")])
    expect(ctx, "record-equal-signed", rc, report, "trusted", success_includes=["pith.record.expected.match"])
    other = os.path.join(ctx.vectors, "seed-000-pith_number_record.json")
    rc, report, err = ctx.verify(ctx.path("trusted.pdf"), extra=["--record", other])
    expect(ctx, "record-different", rc, report, "invalid", failures=["pith.record.expected.mismatch"])
    # An unreadable --record is a usage error, not a verdict on the PDF.
    rc, out, err = ctx.run(["verify", ctx.path("trusted.pdf"), "--record", ctx.path("does-not-exist.json")])
    check(rc == 2 and err.strip(), "missing --record file: exit %d, stderr %r" % (rc, err))


def case_several_files(ctx):
    trusted = ctx.path("trusted.pdf")
    unverified = ctx.path("unverified.pdf")
    rc, so, err = ctx.run(["stamp", ctx.article, "--record", ctx.record, "-o", unverified])
    check(rc == 0, "stamp (unsigned key) failed: " + err)
    invalid = edited(ctx, "invalid.pdf", "<pith:canonicalSha256>c468d8", "<pith:canonicalSha256>d468d8")
    absent = ctx.article
    unreadable = ctx.write("not-a-pdf.pdf", b"this is not a PDF\n")

    cases = [
        ([trusted], 0),
        ([trusted, trusted], 0),
        ([trusted, unverified], 4),
        ([unverified, trusted], 4),
        ([trusted, absent], 3),
        ([unverified, absent, trusted], 3),
        ([trusted, absent, invalid], 1),
        ([invalid, trusted], 1),
        ([trusted, unreadable], 2),
        ([absent, unreadable, unverified], 2),
        ([unreadable, invalid], 1),
        ([trusted, unverified, absent, unreadable, invalid], 1),
    ]
    names = {trusted: "trusted", unverified: "unverified", invalid: "invalid", absent: "absent",
             unreadable: "unreadable"}
    for files, want in cases:
        rc, doc, err = ctx.verify(files)
        label = "+".join(names[f] for f in files)
        print("%s -> exit %d" % (label, rc))
        check(rc == want, "%s: exit %d, expected %d (the worst decides)" % (label, rc, want))
        reports = doc if len(files) > 1 else [doc]
        check(isinstance(reports, list) and len(reports) == len(files), "%s: --json is not one report per file" % label)
        for f, r in zip(files, reports):
            check_shape(r)
            check(r["file"] == f, "%s: report for %s names %s" % (label, f, r["file"]))
            check(r["state"] == names[f], "%s: %s reported %s" % (label, f, r["state"]))
        # The same without --json (human output) has the same exit status.
        args = ["verify"] + files + ["--keyring", ctx.path("ring.json")]
        rc2, out, err = ctx.run(args)
        check(rc2 == want, "%s (text output): exit %d, expected %d" % (label, rc2, want))
        if unreadable in files:
            check(err.strip().startswith("pith: ") and "not-a-pdf.pdf" in err, "%s: no clear error for the unreadable file: %r"
                  % (label, err))


def run_on_pty(ctx, args, env):
    master, slave = pty.openpty()
    p = subprocess.Popen([ctx.pith] + args, stdout=slave, stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []
    deadline = time.time() + 60
    while time.time() < deadline:
        r, _, _ = select.select([master], [], [], 1)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        elif p.poll() is not None:
            break
    p.wait(timeout=30)
    os.close(master)
    return p.returncode, b"".join(chunks).decode("utf-8", "replace")


def case_no_color(ctx):
    invalid = edited(ctx, "colour-invalid.pdf", "<pith:canonicalSha256>c468d8", "<pith:canonicalSha256>d468d8")
    files = [ctx.path("trusted.pdf"), invalid, ctx.article]
    args = ["verify"] + files + ["--keyring", ctx.path("ring.json")]
    # Not a terminal (a pipe), even with TERM set: no escapes.
    rc, out, err = ctx.run(args, env=ctx.env(TERM="xterm-256color"))
    check(rc == 1, "exit %d" % rc)
    check("\x1b" not in out + err, "ANSI escape in piped output: %r" % out[:300])
    for needle in ("trusted", "INVALID", "absent", "[pith.hash.mismatch]", "[receipt.valid]"):
        check(needle in out, "piped output lacks %r" % needle)
    # `pith record` prints findings too.
    rc, out, err = ctx.run(["record", ctx.record], env=ctx.env(TERM="xterm-256color"))
    check(rc == 0 and "\x1b" not in out + err, "pith record: exit %d or ANSI escape in piped output" % rc)
    # A terminal with NO_COLOR set: no escapes.
    for value in ("1", "yes"):
        rc, out = run_on_pty(ctx, args, ctx.env(TERM="xterm-256color", NO_COLOR=value))
        check(rc == 1, "pty NO_COLOR=%s: exit %d" % (value, rc))
        check("\x1b" not in out, "NO_COLOR=%s on a terminal: ANSI escape in output: %r" % (value, out[:300]))
        check("[pith.hash.mismatch]" in out, "pty output lacks the findings: %r" % out[:300])
    # TERM=dumb: no escapes either.
    rc, out = run_on_pty(ctx, args, ctx.env(TERM="dumb"))
    check("\x1b" not in out, "TERM=dumb: ANSI escape in output")
    # Control: a colour terminal without NO_COLOR does get colours (so the checks above can see them).
    rc, out = run_on_pty(ctx, args, ctx.env(TERM="xterm-256color"))
    check("\x1b[" in out, "colour terminal without NO_COLOR: no ANSI escapes at all (control check)")


def case_options_before_files(ctx):
    # `--keyring FILE` is documented as repeatable, one FILE per option: the PDFs that follow
    # it are PDFs to verify, not more keyring files.
    trusted = ctx.path("trusted.pdf")
    rc, out, err = ctx.run(["verify", "--keyring", ctx.path("ring.json"), trusted, trusted])
    check(rc == 0 and out.count("trusted  pith:") == 2,
          "`pith verify --keyring RING a.pdf a.pdf`: exit %d, expected 0 with two trusted reports\nstdout: %s\nstderr: %s"
          % (rc, out[:300], err[:300]))
    rc, out, err = ctx.run(["verify", "--record", ctx.record, trusted, trusted, "--keyring", ctx.path("ring.json")])
    check(rc == 0 and out.count("trusted  pith:") == 2,
          "`pith verify --record R a.pdf a.pdf`: exit %d\nstdout: %s\nstderr: %s" % (rc, out[:300], err[:300]))


# ----------------------------------------------------------------------------------------------
# hostile XMP: replaced in an update after stamping, so the stamped file's pith data is read from it

def original_packet(ctx):
    data = ctx.read("trusted.pdf")
    start = data.index(b"<?xpacket begin=", pith_update_start(data))
    end = data.index(b"<?xpacket end=\"w\"?>", start) + len(b"<?xpacket end=\"w\"?>")
    return data[start:end]


def with_packet(ctx, name, packet, compress=False):
    """trusted.pdf plus an update that replaces its XMP metadata stream with `packet`."""
    src = ctx.path("trusted.pdf")
    data = ctx.read("trusted.pdf")
    catalog = pdfedit.show_object(src, int(pdfedit.trailer_entry(pdfedit.last_trailer(data)[1], "Root").split()[0]))
    md = int(catalog.split("/Metadata ")[1].split()[0])
    obj = pdfedit.stream("/Type /Metadata /Subtype /XML", packet, compress=compress)
    return ctx.write(name, pdfedit.append_update(data, {md: obj}))


def check_hostile(ctx, name, path, max_seconds=60, allowed=("invalid",)):
    """verify on a hostile file gives the state and the code this function's table names for it
    (in failure[] when invalid, in informational[] when trusted), within max_seconds of CPU time
    (pith and its children: work, which a loaded machine does not stretch; the wall-clock time is
    printed beside it); extract reads it or refuses it cleanly."""
    expected = {  # name: (state, code) as measured; a hostile file not in this table fails
        "xmp-20MB-comment": ("trusted", "pith.changes.after"),  # rewritten after stamping, pith's properties kept
        "xmp-20MB-text": ("trusted", "pith.changes.after"),
        "xmp-40MB": ("invalid", "pith.metadata.malformed"),  # past the 32 MiB XMP limit
        "xmp-nested-100k": ("invalid", "pith.metadata.malformed"),
        "xmp-nested-100k-before-pith": ("invalid", "pith.metadata.malformed"),
        "xmp-nested-unclosed": ("invalid", "pith.metadata.malformed"),
        "xmp-billion-laughs": ("invalid", "pith.changed.metadata"),  # the entity is not expanded: stampTool differs
        "xmp-entity-number": ("invalid", "pith.metadata.malformed"),
        "xmp-external-entity": ("invalid", "pith.changed.metadata"),  # nothing fetched, nothing read
    }
    check(name in expected, "%s: no expected state and code in check_hostile's table" % name)
    state, code = expected[name]
    check(state in allowed, "%s: the table says %s, the caller allows %s" % (name, state, allowed))
    before = os.times()
    rc, report, err = ctx.verify(path, timeout=120)
    after = os.times()
    cpu = (after.children_user + after.children_system) - (before.children_user + before.children_system)
    check_shape(report)
    section = "failure" if state == "invalid" else "informational"
    print("%s: state=%s exit=%d failure=%s informational=%s (%.1f s CPU, %.1f s wall clock)"
          % (name, report["state"], rc, codes(report, "failure"), codes(report, "informational"), cpu, ctx.last_seconds))
    check(report["state"] == state and rc == EXIT[state] and code in codes(report, section),
          "%s: state %s exit %d, expected %s with %s in %s\n%s" % (name, report["state"], rc, state, code, section,
                                                                  json.dumps(report, indent=1)[:3000]))
    check(cpu < max_seconds, "%s: %.1f s of CPU (limit %d s)" % (name, cpu, max_seconds))
    rc, out, err = ctx.run(["extract", "--json", path], timeout=120)
    check(rc in (0, 2, 3), "%s: extract exit %d" % (name, rc))
    return report, out


def case_xmp_huge(ctx):
    packet = original_packet(ctx)
    pad = b"<!-- " + b"x" * (20 * 1024 * 1024) + b" -->\n"
    big = packet.replace(b"<x:xmpmeta", pad + b"<x:xmpmeta", 1)
    check(len(big) > 20 * 1024 * 1024, "packet not huge")
    # Rewritten after stamping with pith's properties kept: what a viewer's save may do, so
    # reported, not failed.
    report, out = check_hostile(ctx, "xmp-20MB-comment", with_packet(ctx, "xmp-huge.pdf", big), allowed=("trusted",))
    check("pith.changes.after" in codes(report, "informational"), "XMP rewritten after stamping not reported: %s" % report)
    # 20 MB of real XMP content (a huge property of another schema than dc: a changed dc:description,
    # the subject viewers show, is not what may change after a stamp), compressed in the file.
    desc = (b'<rdf:Description rdf:about="" xmlns:ex="urn:example:notes"><ex:notes>'
            + b"lorem ipsum " * (20 * 1024 * 1024 // 12) + b"</ex:notes></rdf:Description>\n")
    big = packet.replace(b"</rdf:RDF>", desc + b"</rdf:RDF>", 1)
    report, out = check_hostile(ctx, "xmp-20MB-text", with_packet(ctx, "xmp-huge-text.pdf", big, compress=True), allowed=("trusted",))
    # Beyond pith's 32 MiB XMP limit: a clear failure, not a crash.
    big = packet.replace(b"<x:xmpmeta", b"<!-- " + b"y" * (40 * 1024 * 1024) + b" -->\n<x:xmpmeta", 1)
    report, out = check_hostile(ctx, "xmp-40MB", with_packet(ctx, "xmp-too-big.pdf", big, compress=True))


def case_xmp_nested(ctx):
    packet = original_packet(ctx)
    depth = 100000
    nest = (b'<rdf:Description rdf:about="" xmlns:n="urn:nested">' + b"<n:a>" * depth + b"deep" + b"</n:a>" * depth
            + b"</rdf:Description>\n")
    hostile = packet.replace(b"</rdf:RDF>", nest + b"</rdf:RDF>", 1)
    report, out = check_hostile(ctx, "xmp-nested-100k", with_packet(ctx, "xmp-nested.pdf", hostile))
    # Nesting that wraps pith's own properties (deep inside, still read or refused clearly).
    inner_start = packet.index(b"<rdf:Description")
    inner_end = packet.index(b"</rdf:RDF>")
    wrapped = (packet[:inner_start] + b'<rdf:Description rdf:about="" xmlns:n="urn:nested">' + b"<n:a>" * depth
               + b"</n:a>" * depth + b"</rdf:Description>" + packet[inner_start:inner_end] + packet[inner_end:])
    check_hostile(ctx, "xmp-nested-100k-before-pith", with_packet(ctx, "xmp-nested2.pdf", wrapped))
    # Unbalanced: 100k opening tags and nothing closed -> not well-formed.
    broken = packet.replace(b"</rdf:RDF>", b"<n:a xmlns:n=\"urn:x\">" * depth + b"</rdf:RDF>", 1)
    report, out = check_hostile(ctx, "xmp-nested-unclosed", with_packet(ctx, "xmp-nested3.pdf", broken))
    check("pith.metadata.malformed" in codes(report, "failure"), "not-well-formed XMP not reported as malformed")


def case_xmp_billion_laughs(ctx):
    packet = original_packet(ctx)
    dtd = b'<!DOCTYPE x:xmpmeta [\n <!ENTITY lol "lol">\n'
    for i in range(1, 10):
        prev = b"lol" if i == 1 else b"lol%d" % (i - 1)
        dtd += b' <!ENTITY lol%d "%s">\n' % (i, (b"&" + prev + b";") * 10)
    dtd += b"]>\n"
    hostile = packet.replace(b"<x:xmpmeta", dtd + b"<x:xmpmeta", 1)
    hostile = hostile.replace(b"<pith:stampTool>pith stamp</pith:stampTool>", b"<pith:stampTool>&lol9;</pith:stampTool>")
    report, out = check_hostile(ctx, "xmp-billion-laughs", with_packet(ctx, "xmp-laughs.pdf", hostile), max_seconds=30)
    check(len(out) < 100000 and "lollollol" not in out, "entities were expanded: extract printed %d bytes" % len(out))
    # The entity used as the number itself: not expanded, so not a Pith number.
    number_packet = packet.replace(b"<x:xmpmeta", b'<!DOCTYPE x:xmpmeta [ <!ENTITY n "pith:2024:' + ARTICLE_BODY.encode()
                                   + b'"> ]>\n<x:xmpmeta', 1)
    number_packet = number_packet.replace(b"<pith:number>pith:2024:" + ARTICLE_BODY.encode() + b"</pith:number>",
                                          b"<pith:number>&n;</pith:number>")
    plain = pdfedit.make_pdf(["Performance Modeling and Workload Analysis of Distributed Large Language Model "
                              "Training and Inference"], metadata=number_packet, font_size=7)
    path = ctx.write("xmp-entity-number.pdf", plain)
    report, out = check_hostile(ctx, "xmp-entity-number", path, allowed=("invalid",))
    check(ARTICLE_BODY not in (report["number"] or ""), "the entity was expanded into the number: %r" % report["number"])


class Listener:
    """A local TCP server that records any connection (an XXE fetch would show up here)."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(5)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stop = False
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
                self.connections += 1
                conn.close()
            except socket.timeout:
                continue
            except OSError:
                return

    def close(self):
        self.stop = True
        self.thread.join(timeout=5)
        self.sock.close()


def case_xmp_external_entity(ctx):
    packet = original_packet(ctx)
    canary_value = "PITH-CANARY-%d" % os.getpid()
    canary = ctx.path("canary.txt")
    with open(canary, "w") as f:
        f.write(canary_value)
    listener = Listener()
    try:
        dtd = ('<!DOCTYPE x:xmpmeta [\n <!ENTITY file SYSTEM "file://%s">\n <!ENTITY net SYSTEM "http://127.0.0.1:%d/xxe">\n'
               ' <!ENTITY %% param SYSTEM "http://127.0.0.1:%d/param.dtd">\n %%param;\n]>\n'
               % (canary, listener.port, listener.port)).encode()
        hostile = packet.replace(b"<x:xmpmeta", dtd + b"<x:xmpmeta", 1)
        hostile = hostile.replace(b"<pith:stampTool>pith stamp</pith:stampTool>", b"<pith:stampTool>&file;&net;</pith:stampTool>")
        path = with_packet(ctx, "xmp-xxe.pdf", hostile)
        report, out = check_hostile(ctx, "xmp-external-entity", path)
        rc, text, err = ctx.run(["verify", path, "--keyring", ctx.path("ring.json")])
        time.sleep(0.5)
        check(listener.connections == 0, "pith connected to the network (%d connections)" % listener.connections)
        check(canary_value not in out + json.dumps(report) + text + err, "the external file entity was read")
        # The same hostile packet on an unstamped paper.
        plain = ctx.write("xmp-xxe-plain.pdf", pdfedit.make_pdf(["A paper"], metadata=hostile))
        rc, report, err = ctx.verify(plain, keyring=False)
        check_shape(report)
        print("xmp-external-entity-plain: state=%s exit=%d" % (report["state"], rc))
        check(rc == EXIT[report["state"]] and report["state"] in ("invalid", "unverified", "absent"),
              "unstamped PDF with hostile XMP: state %s exit %d" % (report["state"], rc))
        time.sleep(0.5)
        check(listener.connections == 0, "pith connected to the network (%d connections)" % listener.connections)
        check(canary_value not in json.dumps(report) + err, "the external file entity was read")
    finally:
        listener.close()


# ----------------------------------------------------------------------------------------------
# malformed corpus

def malformed_files(ctx):
    """Every malformed corpus file: the corpus's count is tests/corpus/counts.tsv's, or a failure."""
    corpus = manifest.load(ctx.corpus)
    return corpus, sorted(corpus.path(r) for r in corpus.rows("malformed"))


def case_malformed_no_crash(ctx):
    corpus, files = malformed_files(ctx)
    problems = []
    for f in files:
        try:
            rc, out, err = ctx.run(["verify", "--json", f], timeout=120)
            json.loads(out) if out.strip() else None
            if rc not in (0, 1, 2, 3, 4):
                problems.append("%s: exit %d" % (os.path.basename(f), rc))
            if rc == 2 and (not err.strip() or len(err.strip().splitlines()) != 1):
                problems.append("%s: exit 2 without a one-line error: %r" % (os.path.basename(f), err[:300]))
        except (Failure, ValueError) as e:
            problems.append("%s: %s" % (os.path.basename(f), str(e)[:300]))
    print("%d malformed PDFs" % len(files))
    check(not problems, "\n".join(problems))


def case_text_extraction_crash(ctx):
    """poppler (page text) runs in a child: when it crashes, verify does not, and a PDF whose
    text cannot be read does not get the benefit of the title and badge checks. Paper B
    stamped with paper A's record needs poppler: pith's quick reading does not find A's title
    there, and only poppler may say it is not on the page."""
    paper_b = ctx.write("paper-b-crash.pdf", pdfedit.make_pdf(["Quantum Annealing Schedules", "A. Author"]))
    out = ctx.path("paper-b-crash-stamped.pdf")
    rc, so, err = ctx.run(["stamp", paper_b, "--record", ctx.path("signed.json"), "-o", out, "--no-title-check"])
    check(rc == 0, "stamp paper B: " + err)
    env = ctx.env(PITH_TEST_PAGE_TEXT_CRASH="1")
    rc, report, err = ctx.verify(out, env=env)
    expect(ctx, "poppler-crashed", rc, report, "invalid", failures=["pith.text.failed"])
    rc, report, err = ctx.verify(out)
    expect(ctx, "poppler-ran", rc, report, "invalid", failures=["pith.title.differs"])


def case_installed(ctx):
    """`cmake --install` puts pith-text.so (poppler, loaded only for page text) where the
    installed pith finds it: the installed pith verifies trusted.pdf, badge text and title included."""
    prefix = ctx.path("prefix")
    shutil.rmtree(prefix, ignore_errors=True)
    build = os.path.dirname(os.path.abspath(ctx.pith))
    proc = subprocess.run(["cmake", "--install", build, "--prefix", prefix], capture_output=True, text=True, timeout=300)
    check(proc.returncode == 0, "cmake --install failed: %s" % proc.stderr[-500:])
    installed = os.path.join(prefix, "bin", "pith")
    rc, out, err = run_pith(installed, ["verify", "--json", ctx.path("trusted.pdf"), "--keyring", ctx.path("ring.json")],
                            ctx.env())
    report = json.loads(out)
    check(rc == 0 and report["state"] == "trusted", "installed pith: want trusted/0, got %s/%d %s"
          % (report["state"], rc, report["failure"]))
    for code in ("pith.badge.text.match", "pith.title.match"):
        check(code in codes(report, "success"), "installed pith: no %s in %s" % (code, codes(report, "success")))
    linked = subprocess.run(["ldd", installed], capture_output=True, text=True).stdout
    check("poppler" not in linked, "pith itself must not link poppler (start-up cost):\n" + linked)


def case_badge_swallowed(ctx):
    """Page content that leaves an array open swallows everything after it, pith's badge
    included: no reader sees the badge pith's update drew, so the file is not trusted, and
    pdftotext agrees that the page shows no badge."""
    data = open(ctx.article, "rb").read()
    r = subprocess.run(["qpdf", "--show-object=3", "--filtered-stream-data", ctx.article], capture_output=True, timeout=120)
    check(r.returncode == 0 and b"TJ" in r.stdout, "article.pdf's page content is not object 3: %r" % r.stderr)
    broken = ctx.write("array-left-open.pdf", pdfedit.append_update(data, {3: pdfedit.stream("", r.stdout + b"\n[ /oops\n")}))
    out = ctx.path("array-left-open-stamped.pdf")
    rc, so, err = ctx.run(["stamp", broken, "--record", ctx.path("signed.json"), "-o", out, "--allow-damaged"])
    check(rc == 0, "stamp --allow-damaged: " + err)
    rc, report, err = ctx.verify(out, extra=["--allow-damaged"])
    expect(ctx, "array-left-open", rc, report, "unverified", failures=[], success_includes=["pith.title.match"],
           info_includes=["pith.badge.text.absent", "pith.evidence.missing"])
    def page1(path):
        return subprocess.run(["pdftotext", "-l", "1", path, "-"], capture_output=True, timeout=120).stdout.decode("utf-8", "replace")
    check("pith:" + ARTICLE_BODY[:8] in page1(ctx.path("trusted.pdf")), "pdftotext does not find the badge of trusted.pdf")
    check("pith:" + ARTICLE_BODY[:8] not in page1(out), "pdftotext finds the badge on page 1: %r" % page1(out)[-300:])


def case_malformed_exit2(ctx):
    """Every malformed corpus PDF: exit 2 and a one-line message, from extract and verify alike;
    the damaged-but-readable ones are read with --allow-damaged, which lists the damage
    (doc/hostile-files.md, "Damaged PDFs")."""
    corpus, files = malformed_files(ctx)
    problems = []
    damaged = 0
    for f in files:
        name = "malformed/" + os.path.basename(f)
        xrc, _, xerr = ctx.run(["extract", f], timeout=120)
        rc, out, err = ctx.run(["verify", f], timeout=120)
        if xrc != 2 or rc != 2:
            problems.append("%s: extract and verify must exit 2, got %d and %d" % (name, xrc, rc))
        elif not err.strip() or len(err.strip().splitlines()) != 1:
            problems.append("%s: exit 2 without a one-line message on stderr: %r" % (name, err))
        if "damaged PDF" in err:
            damaged += 1
            rc, report, _ = ctx.verify(f, keyring=False, extra=["--allow-damaged"])
            if rc != 3 or "pdf.damaged" not in codes(report, "informational"):
                problems.append("%s: with --allow-damaged want absent (3) with pdf.damaged, got %d %s" % (name, rc, report.get("informational")))
    print("%d malformed PDFs: %d damaged but readable with --allow-damaged; %d problems"
          % (len(files), damaged, len(problems)))
    check(not problems, "\n".join(problems))
    corpus.expect("malformed files damaged but readable", damaged, shared=23, committed=4)  # as measured


def set_up(ctx):
    """Why a case cannot run: the setup case's trusted stamp is missing."""
    if not os.path.exists(ctx.path("trusted.pdf")):
        return 1, "FAIL: the setup case did not produce %s" % ctx.path("trusted.pdf")
    return None


def main():
    return case_main(globals(), Ctx, work=True, corpus=True, ready=set_up)


if __name__ == "__main__":
    sys.exit(main())
