#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A stamped paper saved again, as readers, repositories and archives do (issue 30): the state
`pith verify` must give after each honest workflow. No honest workflow may give `invalid`.

usage: resave_suite.py --pith PITH --source SRC CASE

Every case stamps examples/article.pdf with examples/record.json signed by a fresh test key
(trusted, checked), runs one tool on it the way a reader would, and checks the state and codes:
  - incremental edits (a countersignature by pdfsig, a highlight saved incrementally by MuPDF,
    an XMP property added by exiftool): still `trusted`;
  - rewrites (qpdf, qpdf --linearize, qpdf --object-streams=generate, mutool clean -gg and -ggl):
    `unverified` with pith.rewritten, every other check made and passed (qpdf --check and
    pdfinfo read the rewritten file too: the tool really rewrote it);
  - Ghostscript's pdfwrite (the XMP is dropped, the page and its link stay): `unverified` with
    pith.badge.only; with the registry's record in pith fetch's cache,
    `--online --offline` checks it against the page (still unverified; invalid when the page
    shows another title, or the registry does not know the number);
  - pdftocairo (the XMP and the links are dropped): `absent`;
  - what qpdf, Ghostscript, MuPDF and cairo write from examples/article.pdf, stamped: `trusted`.
Exit 0 pass, 1 fail (a missing tool too), 77 skip (writer_chromium without Chromium).
"""
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pithrun import Failure, Workdir, case_main, check, chromium, offline_chromium, run_pith  # noqa: E402

EXIT = {"trusted": 0, "invalid": 1, "unverified": 4, "absent": 3}
ARTICLE_BODY = "YRUNQITD2RKQXO2YH7SDTYYAQ3"
# What a rewrite leaves checkable: all of a trusted stamp's checks but prior, update and changes.
REWRITE_CODES = ["pith.metadata.present", "pith.hash.match", "pith.number.match", "receipt.valid", "pith.links.match",
                 "pith.badge.text.match", "pith.badge.drawing.match", "pith.title.match"]
# The registry's record checked against a page without metadata.
BADGE_ONLY_CODES = ["pith.hash.match", "pith.number.match", "receipt.valid", "pith.links.match", "pith.badge.text.match",
                    "pith.title.match"]


class Ctx(Workdir):
    def __init__(self, args, tmp):
        super().__init__(args, tmp)
        self.env = dict(os.environ, HOME=self.home, SOURCE_DATE_EPOCH="1780000000")
        for k in ("PITH_KEYRING", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "NO_COLOR"):
            self.env.pop(k, None)
        self.stamped = self.path("stamped.pdf")

    def run(self, args):
        rc, out, err = run_pith(self.pith, args, self.env, timeout=180)
        return rc, out, err

    def setup(self):
        """Key, signed record, stamped paper (trusted)."""
        for args in (["keygen", "--key-id", "test-key", "--secret", self.path("test.key"), "--keyring", self.path("ring.json")],
                     ["sign", self.record, "--secret", self.path("test.key"), "-o", self.path("signed.json")],
                     ["stamp", self.article, "--record", self.path("signed.json"), "-o", self.stamped]):
            rc, out, err = self.run(args)
            check(rc == 0, "pith %s: exit %d: %s" % (args[0], rc, err))
        self.expect("stamped", self.stamped, "trusted")

    def verify(self, path, extra=()):
        rc, out, err = self.run(["verify", "--json", path, "--keyring", self.path("ring.json")] + list(extra))
        try:
            return rc, json.loads(out)
        except ValueError:
            raise Failure("pith verify %s: not JSON (%s): %r" % (path, err.strip(), out[:300]))

    def expect(self, name, path, state, success=(), info=(), failures=None, extra=()):
        rc, r = self.verify(path, extra)
        codes = {s: [f["code"] for f in r[s]] for s in ("success", "informational", "failure")}
        detail = "\n" + json.dumps(r, indent=1)[:5000]
        print("%s: state=%s failure=%s" % (name, r["state"], codes["failure"]))
        check(r["state"] == state and rc == EXIT[state], "%s: expected %s, got %s (exit %d)%s" % (name, state, r["state"], rc, detail))
        for c in success:
            check(c in codes["success"], "%s: success code %s missing%s" % (name, c, detail))
        for c in info:
            check(c in codes["informational"], "%s: informational code %s missing%s" % (name, c, detail))
        if failures is not None:
            check(sorted(set(codes["failure"])) == sorted(failures), "%s: failures %s, expected %s%s" % (name, codes["failure"], failures, detail))
        return r


def tool(*args, **kw):
    check(shutil.which(args[0]), "%s not installed (.ci/deps installs every tool these cases use)" % args[0])
    p = subprocess.run(list(args), capture_output=True, **kw)
    check(p.returncode == 0 or (args[0] == "qpdf" and p.returncode == 3),  # 3: warnings (none expected here)
          "%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.decode(errors="replace")[-1500:]))
    return p.stdout.decode(errors="replace")


def make(args, tmp):
    ctx = Ctx(args, tmp)
    ctx.setup()
    return ctx


def revisions(path):
    return open(path, "rb").read().count(b"%%EOF")


# ---------------------------------------------------------------------------------------------
# incremental edits: trusted

def case_countersign_pdfsig(ctx):
    """A reader's signature added by poppler's pdfsig with an NSS database: trusted, and pdfsig
    says the signature is valid (it covers the whole file)."""
    for t in ("openssl", "certutil", "pk12util", "pdfsig"):
        check(shutil.which(t), "%s not installed (Debian: openssl, libnss3-tools, poppler-utils; .ci/deps)" % t)
    db = ctx.path("nssdb")
    os.makedirs(db)
    tool("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ctx.path("reader.key"), "-out", ctx.path("reader.pem"),
         "-days", "3650", "-subj", "/CN=A Reader")
    tool("openssl", "pkcs12", "-export", "-inkey", ctx.path("reader.key"), "-in", ctx.path("reader.pem"), "-name", "reader",
         "-out", ctx.path("reader.p12"), "-passout", "pass:")
    tool("certutil", "-N", "-d", "sql:" + db, "--empty-password")
    tool("pk12util", "-i", ctx.path("reader.p12"), "-d", "sql:" + db, "-W", "")
    out = ctx.path("countersigned.pdf")
    tool("pdfsig", "-nssdir", "sql:" + db, "-add-signature", "-nick", "reader", ctx.stamped, out)
    check(revisions(out) == revisions(ctx.stamped) + 1, "pdfsig did not append one revision")
    printed = tool("pdfsig", "-nssdir", "sql:" + db, out)
    check("Signature Validation: Signature is Valid." in printed, "pdfsig does not find the signature valid: " + printed)
    ctx.expect("countersign_pdfsig", out, "trusted", success=["pith.prior.match", "pith.update.match", "pith.title.match"],
               info=["pith.changes.after"])


HIGHLIGHT_JS = """
var doc = new PDFDocument(scriptArgs[0]);
var page = doc.loadPage(0);
var annot = page.createAnnotation("Highlight");
annot.setQuadPoints([[100, 400, 300, 400, 100, 420, 300, 420]]);
annot.setContents("a reader's note");
annot.update();
doc.save(scriptArgs[1], "incremental");
"""


def case_annotate_mutool(ctx):
    """A highlight saved incrementally by MuPDF (mutool run): trusted, the note is in the file."""
    out = ctx.path("annotated.pdf")
    shutil.copy(ctx.stamped, out)
    js = ctx.write("highlight.js", HIGHLIGHT_JS)
    tool("mutool", "run", js, out, out)
    check(revisions(out) == revisions(ctx.stamped) + 1, "mutool did not append one revision")
    check(b"/Highlight" in open(out, "rb").read(), "no highlight in mutool's output")
    ctx.expect("annotate_mutool", out, "trusted", success=["pith.prior.match", "pith.update.match"], info=["pith.changes.after"])


def case_xmp_exiftool(ctx):
    """An XMP rights statement added by exiftool (an incremental update): trusted."""
    out = ctx.path("rights.pdf")
    tool("exiftool", "-q", "-XMP-dc:Rights=CC BY 4.0", "-o", out, ctx.stamped)
    check("CC BY 4.0" in tool("exiftool", "-XMP-dc:Rights", out), "exiftool does not read the rights back")
    ctx.expect("xmp_exiftool", out, "trusted", success=["pith.prior.match", "pith.update.match"], info=["pith.changes.after"])


# ---------------------------------------------------------------------------------------------
# rewrites: unverified, pith.rewritten, every other check made

def rewritten(ctx, name, *command):
    out = ctx.path(name + ".pdf")
    tool(*[out if a == "OUT" else ctx.stamped if a == "IN" else a for a in command])
    data = open(out, "rb").read()
    check(b"%PithUpdate" not in data, "%s kept pith's update marker: not a rewrite" % name)
    tool("qpdf", "--check", out)
    check("Pages:" in tool("pdfinfo", out), "pdfinfo does not read " + name)
    ctx.expect(name, out, "unverified", success=REWRITE_CODES, info=["pith.rewritten"], failures=[])
    return out


def case_rewrite_qpdf(ctx):
    rewritten(ctx, "qpdf", "qpdf", "IN", "OUT")


def case_linearize_qpdf(ctx):
    out = rewritten(ctx, "linearized", "qpdf", "--linearize", "IN", "OUT")
    check("File is linearized" in tool("qpdf", "--check", out) or "linearized" in tool("pdfinfo", out).lower(), "not linearized")


def case_object_streams_qpdf(ctx):
    out = rewritten(ctx, "objstm", "qpdf", "--object-streams=generate", "IN", "OUT")
    check(b"/ObjStm" in open(out, "rb").read(), "qpdf wrote no object stream")


def case_rotate_qpdf(ctx):
    """Page 1 turned a quarter and saved (qpdf --rotate): the title runs down the page as shown,
    which OCR cannot read. Unverified (the pixels cannot confirm the title), never invalid."""
    out = ctx.path("rotated.pdf")
    tool("qpdf", "--rotate=+90:1", ctx.stamped, out)
    check(re.search(r"Page rot:\s+90", tool("pdfinfo", out)), "qpdf did not turn page 1")
    ctx.expect("rotated", out, "unverified", success=REWRITE_CODES, info=["pith.rewritten", "pith.title.pixels.unverified"],
               failures=[])


def case_clean_mutool(ctx):
    rewritten(ctx, "clean", "mutool", "clean", "-gg", "IN", "OUT")


def case_clean_linearize_mutool(ctx):
    rewritten(ctx, "clean_l", "mutool", "clean", "-gg", "-l", "IN", "OUT")


def case_rewrite_then_annotate(ctx):
    """qpdf's rewrite, then a highlight saved incrementally: still unverified, never invalid."""
    out = rewritten(ctx, "qpdf", "qpdf", "IN", "OUT")
    tool("mutool", "run", ctx.write("highlight.js", HIGHLIGHT_JS), out, out)
    ctx.expect("rewrite_then_annotate", out, "unverified", success=REWRITE_CODES, info=["pith.rewritten"], failures=[])


# ---------------------------------------------------------------------------------------------
# converters that drop the metadata: unverified, pith.badge.only; the record from the cache

def converted(ctx, name, *command):
    out = ctx.path(name + ".pdf")
    tool(*[a.replace("OUT", out) if a.endswith("OUT") else ctx.stamped if a == "IN" else a for a in command])
    check("pith:YRUNQITD" in tool("pdftotext", "-l", "1", out, "-"), "%s: the badge text is gone" % name)
    return out


def badge_only(ctx, name, out):
    r = ctx.expect(name, out, "unverified", info=["pith.badge.only", "pith.evidence.missing"], failures=[])
    check(ARTICLE_BODY in (r["number"] or "") or "YRUNQITD" in (r["number"] or ""), "%s: number %r" % (name, r["number"]))
    # With the registry's record in pith fetch's cache (as `pith fetch` leaves it), offline.
    cache = ctx.path("cache")
    os.makedirs(os.path.join(cache, "records"), exist_ok=True)
    shutil.copy(ctx.path("signed.json"), os.path.join(cache, "records", ARTICLE_BODY + ".json"))
    online = ["--online", "--offline", "--cache-dir", cache]
    r = ctx.expect(name + " --online", out, "unverified", success=BADGE_ONLY_CODES + ["registry.known"], info=["pith.badge.only"],
                   failures=[], extra=online)
    check(r["number"] == "pith:2024:" + ARTICLE_BODY, "%s --online: number %r" % (name, r["number"]))
    # Not in the cache, offline: the record cannot be had (unverified, not invalid).
    shutil.rmtree(cache)
    ctx.expect(name + " --online (no record)", out, "unverified", info=["pith.badge.only", "registry.unreachable"], failures=[],
               extra=online)


def case_ghostscript(ctx):
    out = converted(ctx, "gs", "gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", "-sOutputFile=OUT", "IN")
    check(b"pith:number" not in open(out, "rb").read(), "Ghostscript kept the pith metadata")
    badge_only(ctx, "ghostscript", out)


def case_pdftocairo(ctx):
    """cairo redraws the pages and keeps neither the XMP nor the link annotations: nothing but the
    drawn badge is left, so the file is `absent` (pith reads no pages of a file without pith data)."""
    out = converted(ctx, "cairo", "pdftocairo", "-pdf", "IN", "OUT")
    flat = tool("qpdf", "--qdf", "--object-streams=disable", out, "-")
    check("/pith/" not in flat and "pith:number" not in flat, "pdftocairo kept a resolver link or the pith metadata")
    ctx.expect("pdftocairo", out, "absent", info=["pith.metadata.absent"], failures=[])


def gs(ctx, src, name):
    out = ctx.path(name)
    tool("gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", "-sOutputFile=" + out, src)
    return out


def case_badge_only_title_differs(ctx):
    """Attack: another paper (B's title) stamped with the article's record, then through
    Ghostscript (no metadata left): offline unverified; with the registry's record, invalid."""
    sys.path.insert(0, os.path.join(ctx.src, "tests", "attacks"))
    from build_attacks import TITLE_B, paper_b  # noqa: E402  (a one-page paper titled B, drawn by pdfgen)
    src, forged = ctx.write("b.pdf", paper_b()), ctx.path("b-stamped.pdf")
    rc, out, err = ctx.run(["stamp", src, "--record", ctx.path("signed.json"), "-o", forged, "--no-title-check"])
    check(rc == 0, "stamp --no-title-check: " + err)
    out = gs(ctx, forged, "b-gs.pdf")
    text = tool("pdftotext", "-l", "1", out, "-")
    check(TITLE_B in text and "pith:YRUNQITD" in text, "the page does not show B's title and the badge: " + text[:300])
    ctx.expect("badge_only_title_differs", out, "unverified", info=["pith.badge.only"], failures=[])
    cache = ctx.path("cache")
    os.makedirs(os.path.join(cache, "records"))
    shutil.copy(ctx.path("signed.json"), os.path.join(cache, "records", ARTICLE_BODY + ".json"))
    ctx.expect("badge_only_title_differs --online", out, "invalid", success=["registry.known", "pith.hash.match", "receipt.valid"],
               failures=["pith.title.differs"], extra=["--online", "--offline", "--cache-dir", cache])


class NotFound(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(404)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"error": "not found"}')

    def log_message(self, *args):
        pass


def case_badge_only_unknown(ctx):
    """Attack: a badge-only file (Ghostscript) whose number the registry does not know: invalid
    with --online (a local registry on 127.0.0.1 that answers 404 to everything)."""
    out = gs(ctx, ctx.stamped, "gs.pdf")
    server = http.server.HTTPServer(("127.0.0.1", 0), NotFound)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "PITH_REGISTRY"):
        ctx.env.pop(k, None)
    url = "http://127.0.0.1:%d" % server.server_address[1]
    ctx.expect("badge_only_unknown --online", out, "invalid", failures=["registry.unknown"],
               extra=["--online", "--registry", url, "--cache-dir", ctx.path("empty-cache"), "--retries", "0"])


# What common writers produce, stamped and verified (issue 30, point 3): each is trusted.
WRITERS = {"qpdf": ["qpdf", "IN", "OUT"], "qpdf-linearize": ["qpdf", "--linearize", "IN", "OUT"],
           "qpdf-object-streams": ["qpdf", "--object-streams=generate", "IN", "OUT"],
           "gs": ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", "-sOutputFile=OUT", "IN"],
           "mutool-clean": ["mutool", "clean", "-gg", "IN", "OUT"], "mutool-clean-l": ["mutool", "clean", "-gg", "-l", "IN", "OUT"],
           "pdftocairo": ["pdftocairo", "-pdf", "IN", "OUT"]}


def case_writers(ctx):
    for name, command in WRITERS.items():
        src, out = ctx.path("w-%s.pdf" % name), ctx.path("w-%s-stamped.pdf" % name)
        tool(*[a.replace("OUT", src) if a.endswith("OUT") else ctx.article if a == "IN" else a for a in command])
        rc, _, err = ctx.run(["stamp", src, "--record", ctx.path("signed.json"), "-o", out])
        check(rc == 0, "%s: pith stamp refused the output: %s" % (name, err))
        tool("qpdf", "--check", out)
        ctx.expect("writer " + name, out, "trusted", success=["pith.prior.match", "pith.update.match", "pith.title.match",
                                                              "pith.badge.drawing.match"], failures=[])


def case_writer_chromium(ctx):
    """A paper printed to PDF by Chromium (Skia's writer): stamped without an override and trusted."""
    if not chromium():  # the one tool a developer's machine may well lack: its own ctest entry, skipped
        print("SKIP: chromium not installed")
        sys.exit(77)
    title = json.load(open(ctx.path("signed.json"), encoding="utf-8"))["paper"]["title"]
    page = ctx.write("paper.html", "<!doctype html><html><head><meta charset=utf-8><style>body{font-family:serif;margin:2cm}"
                     "h1{font-size:22pt}</style></head><body><h1>%s</h1><p>Ada Lovelace, Institute of Examples</p>"
                     "<p>Abstract. We model the performance of training and serving large models and check the model "
                     "against measurements.</p></body></html>" % title)
    src, out = ctx.path("w-chromium.pdf"), ctx.path("w-chromium-stamped.pdf")
    tool(*offline_chromium(ctx.path("chrome-profile"), headless="--headless"), "--no-pdf-header-footer", "--print-to-pdf=" + src,
         "file://" + page)
    rc, _, err = ctx.run(["stamp", src, "--record", ctx.path("signed.json"), "-o", out])
    check(rc == 0, "chromium: pith stamp refused the output: %s" % err)
    tool("qpdf", "--check", out)
    ctx.expect("writer chromium", out, "trusted", success=["pith.prior.match", "pith.update.match", "pith.title.match"], failures=[])


if __name__ == "__main__":
    sys.exit(case_main(globals(), make, "pith-resave-"))
