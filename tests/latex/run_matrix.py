#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compile matrix for latex/pith.sty.

For each engine x class x variant this script writes a test paper from
tests/latex/classes/<class>.tex, compiles it, and checks the PDF:

  compile    no TeX error, a PDF is produced
  extract    `pith extract FILE --json` reads the number (and properties)
  verify     `pith verify FILE --json`: state `unverified` for a number-only
             PDF; `trusted` with the full record, its receipt issued by a test
             key (`pith keygen`, `pith sign`) given with --keyring: every check
             made and holding, the title and badge visible on page 1
  xmp        exiftool shows the pith XMP properties with the right values
  qpdf       `qpdf --check` is clean (no warnings: catches duplicate keys)
  metadata   the catalog has exactly one /Metadata (raw count, also inside
             object streams), and that stream holds the pith properties
  info       the Info dictionary has /PithNumber
  badge      pdftotext finds pith:XXXXXXXX on the title block's page below
             the title word; in two-column classes it is centred (under the
             full-width title, not at the top of column 1)
  link       a /Link annotation on that page with the resolver URI covers it
  stamp      (with a test key) `pith stamp` with the paper's own signed record
             keeps pith.sty's badge and draws none: page 1 renders exactly as
             before and pdftotext shows the number once; the full record is
             in the XMP and verify says `trusted`. A record of another number
             is refused (exit 2) and writes nothing. (Issue 22.)

Issue 32:
  log-lines  the .log names the XMP route pith.sty chose (own with the
             engine's driver, hyperxmp, pdfmanagement) and the badge
             placement (for title: the class's adapter)

Issue 16 (each against the same paper built without pith, same job name):
  xmp-kept   every XMP property the engine wrote (exiftool -a -G1 -XMP:all)
             is still there with its value (dates and document IDs aside)
  overfull   no more overfull boxes than without pith
  inpage     the badge's glyphs (pdftotext) and its link rectangle are
             inside the page (CropBox)
  titleblock (placement=title) the badge is on the title block's page, after
             the title and before the first section in reading order, no
             line number beside it, at least 4pt clear of the text below
  footnote   (placement=footnote) on the title block's page, below the body
             text of its column, once in the document (not a bibliography note)
  margin     (placement=margin) on page 1, overlapping no other word
  no-badge   (placement=none) no badge anywhere
  verify-finds  `pith verify` reports pith.badge.text.match (and, with the
             record, pith.title.match): it finds them on the title block's page

Axes: --engine, --class, --variant, --placement (default: title only);
--sample K/N runs shard K of the pairwise covering sample (ctest);
doc/latex-matrix.md says how to run the full product.

Combinations that cannot work are listed in EXPECTED with the documented
behaviour; those checks then assert that behaviour instead.

Python standard library only.  Exit status 0 when every check passes.
"""
import argparse
import json
import os
import re
import shutil
import tempfile
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, HERE)
import pithtex  # noqa: E402

ENGINES = ["pdflatex", "xelatex", "lualatex", "dvips"]
CLASSES = {
    # name: (two-column?, title word pdftotext sees first)
    "article": (True, "Performance"),
    "report": (False, "Performance"),
    "amsart": (False, "PERFORMANCE"),
    "revtex-aps": (True, "Performance"),
    "revtex-aip": (True, "Performance"),
    "ieeetran-journal": (True, "Performance"),
    "ieeetran-conference": (True, "Performance"),
    "acmart-sigconf": (True, "Performance"),
    "acmart-acmsmall": (False, "Performance"),
    "acmart-manuscript": (False, "Performance"),
    "llncs": (False, "Performance"),
    "elsarticle": (False, "Performance"),
    "scrartcl": (False, "Performance"),
    # issue 16: classes with their own ways of setting the title block
    "revtex-bibnotes": (True, "Performance"),      # footnotes -> bibliography
    "elsarticle-highlights": (False, "Performance"),  # cover pages first
    "aastex-lineno": (True, "PERFORMANCE"),        # lineno, two columns
    "mnras": (True, "Performance"),                # two columns, wide text
    "cas-dc": (True, "Performance"),               # Elsevier CAS, two columns
    "achemso": (False, "Performance"),             # ACS: \maketitle implied by the abstract
}
VARIANTS = ["plain", "hyperref", "hyperxmp", "docmeta"]
PLACEMENTS = ["title", "footnote", "margin", "none"]

# What each variant puts in the preamble.  Load orders differ on purpose:
# pith before hyperref, pith after hyperref+hyperxmp.
RECEIPT = "%%RECEIPT%%"
NUMBER_ONLY = "\\pithnumber{YRUNQITD2RKQXO2YH7SDTYYAQ3}\n"
PREAMBLES = {
    "plain": ("", "\\usepackage{pith}\n" + RECEIPT),
    "hyperref": ("", "\\usepackage{pith}\n" + NUMBER_ONLY
                 + "\\usepackage{hyperref}\n"),
    "hyperxmp": ("", "\\usepackage{hyperref}\n\\usepackage{hyperxmp}\n"
                 "\\usepackage{pith}\n" + RECEIPT),
    "docmeta": ("\\DocumentMetadata{}\n",
                "\\usepackage{pith}\n" + RECEIPT + "\\usepackage{hyperref}\n"),
}

# Documented exceptions: (engine, class, variant) -> dict of expectations.
#   compile: False   -> the document is expected not to compile; the test
#                       asserts that it fails (and why, via 'error')
#   skip_checks: [...] checks that do not apply, with the documented reason
#   xmp-hyperxmp: [...] xmp-kept asserts instead that without pith the packet is
#                       Ghostscript's (hyperxmp's was lost), with pith hyperxmp's,
#                       and that exactly these engine tags differ
EXPECTED = {
    ("*", "elsarticle", "hyperxmp"): {
        "compile": False, "error": "Argument of \\@author has an extra }",
        "why": "hyperxmp (TL2022, v5.9) cannot read elsarticle's \\author; "
               "the paper fails the same way without pith"},
    ("lualatex", "aastex-lineno", "hyperxmp"): {
        "compile": False, "error": "unexpected symbol near",
        "why": "hyperxmp 5.9 under LuaLaTeX with aastex631 stops in \\directlua; "
               "the paper fails the same way without pith"},
    ("xelatex", "aastex-lineno", "hyperxmp"): {
        "compile": False, "error": "hyperxmp built its XMP packet",
        "why": "hyperxmp builds its packet at \\AtEndDocument, after aastex's lineno "
               "output has shipped the last page: with a \\special driver the packet "
               "(and pith's properties) never reach the PDF, so pith stops with not-written"},
    ("dvips", "aastex-lineno", "hyperxmp"): {
        "compile": False, "error": "hyperxmp built its XMP packet", "why": "as xelatex"},
    ("dvips", "achemso", "hyperxmp"): {
        "xmp-hyperxmp": ["XMP-x:XMPToolkit", "XMP-pdf:Producer", "XMP-xmp:CreatorTool",
                         "XMP-dc:Title"],
        "why": "without pith hyperxmp's packet is lost here: the last page is full, so "
               "\\clearpage leaves hyperxmp's \\special material on a page that is never "
               "shipped, and Ghostscript's packet stays.  pith.sty puts that material on the "
               "next page shipped, so hyperxmp's packet (with pith's properties) is written "
               "and replaces Ghostscript's, as hyperxmp's does in every class under dvips; "
               "the engine tags that differ are those hyperxmp writes with its own values"},
    ("*", "elsarticle-highlights", "hyperxmp"): {
        "compile": False, "error": "Argument of \\@author has an extra }",
        "why": "as elsarticle"},
}


def expected_for(engine, cls, variant, placement="title"):
    exp = {}
    for key, val in EXPECTED.items():
        e, c, v = key[:3]
        p = key[3] if len(key) > 3 else "*"
        if (e in (engine, "*") and c in (cls, "*") and v in (variant, "*")
                and p in (placement, "*")):
            exp.update(val)
    return exp


def run(cmd, cwd, timeout=300, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout,
                           env=env, stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return 124, "timeout: %s" % " ".join(cmd)
    except FileNotFoundError as e:
        return 127, str(e)


def fixture():
    with open(os.path.join(HERE, "fixture_002.json"), encoding="utf-8") as f:
        return json.load(f)


def test_signed(fx, pith, work):
    """The fixture with its receipt issued by a test key (`pith keygen` + `pith sign`), and that
    key's keyring: a matrix PDF that holds the full record can then be `trusted`, which needs
    every check to hold (the registry's own key, which signed the fixture, is not published)."""
    os.makedirs(work, exist_ok=True)
    work = tempfile.mkdtemp(prefix="key-", dir=work)  # its own: the matrix runs as parallel tests
    key, ring = os.path.join(work, "matrix.key"), os.path.join(work, "matrix-ring.json")
    unsigned, signed = os.path.join(work, "matrix-record.json"), os.path.join(work, "matrix-signed.json")
    with open(unsigned, "w", encoding="utf-8") as f:
        json.dump({"record_type": "pith_number_record", "canonical_record": fx["canonical_record"],
                   "paper": {"title": fx["title"]}}, f, ensure_ascii=False)
    for cmd in ([pith, "keygen", "--key-id", "matrix-test", "--secret", key, "--keyring", ring],
                [pith, "sign", unsigned, "--secret", key, "-o", signed]):
        rc, out = run(cmd, work)
        if rc != 0:
            raise SystemExit("%s: %s" % (" ".join(cmd), out))
    with open(signed, encoding="utf-8") as f:
        return dict(fx, receipt=json.load(f)["receipt"], signed_path=signed), ring


def compile_doc(engine, workdir, name, sty_dir):
    env = dict(os.environ)
    env["TEXINPUTS"] = sty_dir + "//:" + env.get("TEXINPUTS", "")
    env["SOURCE_DATE_EPOCH"] = "1721418545"
    env["FORCE_SOURCE_DATE"] = "1"
    log = []
    tex = name + ".tex"
    if engine == "dvips":
        rc, out = run(["latex", "-interaction=nonstopmode", "-halt-on-error",
                       tex], workdir, env=env)
        log.append(out)
        if rc == 0:
            rc, out = run(["dvips", "-R2", "-q", "-o", name + ".ps",
                           name + ".dvi"], workdir, env=env)
            log.append(out)
        if rc == 0:
            rc, out = run(["ps2pdf", name + ".ps", name + ".pdf"], workdir,
                          env=env)
            log.append(out)
    else:
        rc, out = run([engine, "-interaction=nonstopmode", "-halt-on-error",
                       tex], workdir, env=env)
        log.append(out)
    texlog = ""
    lp = os.path.join(workdir, name + ".log")
    if os.path.exists(lp):
        with open(lp, encoding="latin-1") as f:
            texlog = f.read()
    return rc, "\n".join(log), texlog


# ----------------------------------------------------------------------
# PDF inspection helpers
# ----------------------------------------------------------------------
def qpdf_json(pdf):
    rc, out = run(["qpdf", "--json=2", pdf], os.path.dirname(pdf))
    if rc not in (0, 3):
        raise RuntimeError("qpdf --json failed: " + out[:300])
    return json.loads(out)


def pdf_str(v):
    if isinstance(v, str):
        if v.startswith("u:"):
            return v[2:]
        if v.startswith("b:"):
            try:
                return bytes.fromhex(v[2:]).decode("latin-1")
            except ValueError:
                return v
    return v


def objects(qj):
    for entry in qj["qpdf"][1:]:
        return entry
    return {}


def deref(objs, v):
    if isinstance(v, str) and v.endswith(" R"):
        o = objs.get("obj:" + v, {})
        return o.get("value", o.get("stream", {}).get("dict"))
    return v


def raw_metadata_keys(pdf):
    """Count /Metadata keys with a reference value, in the raw file and in
    decompressed streams (object streams), without any PDF parser."""
    with open(pdf, "rb") as f:
        data = f.read()
    pat = re.compile(rb"/Metadata\s*\d+\s+\d+\s+R")
    n = len(pat.findall(data))
    for m in re.finditer(rb"stream\r?\n", data):
        start = m.end()
        try:
            d = zlib.decompressobj().decompress(data[start:start + 2000000])
        except zlib.error:
            continue
        n += len(pat.findall(d))
    return n


def words_page1(pdf):
    rc, out = run(["pdftotext", "-f", "1", "-l", "1", "-bbox", pdf, "-"],
                  os.path.dirname(pdf))
    if rc != 0:
        raise RuntimeError("pdftotext failed: " + out[:300])
    m = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', out)
    w, h = float(m.group(1)), float(m.group(2))
    words = []
    for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" '
                         r'xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
                         out):
        words.append((float(m.group(1)), float(m.group(2)),
                      float(m.group(3)), float(m.group(4)), m.group(5)))
    return w, h, words


def document_words(pdf):
    """Every page's (width, height, words) from pdftotext -bbox, in
    pdftotext's reading order; words are (x0, y0, x1, y1, text) with y
    downwards from the top of the page (the CropBox)."""
    rc, out = run(["pdftotext", "-bbox", pdf, "-"], os.path.dirname(pdf))
    if rc != 0:
        raise RuntimeError("pdftotext failed: " + out[:300])
    pages = []
    for pm in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', out, re.S):
        words = [(float(m.group(1)), float(m.group(2)), float(m.group(3)),
                  float(m.group(4)), m.group(5))
                 for m in re.finditer(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" '
                                      r'xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)</word>',
                                      pm.group(3))]
        pages.append((float(pm.group(1)), float(pm.group(2)), words))
    return pages


ABSTRACT_WORD = "Aligning"  # the first word of every template's abstract
BODY_WORDS = {"Introduction", "INTRODUCTION", "Large", "validate", "Method", "METHOD"}


def title_page(pages, tword):
    """The page of the title block: the first page with the title and the
    abstract (cover pages such as elsarticle's graphical abstract and
    highlights repeat the title, not the abstract)."""
    for i, (_, _, words) in enumerate(pages):
        texts = [w[4].lower() for w in words]  # IEEEtran: "Abstract—Aligning"
        if tword.lower() in texts and any(ABSTRACT_WORD.lower() in x for x in texts):
            return i
    for i, (_, _, words) in enumerate(pages):  # a title page of its own (report)
        if tword.lower() in [w[4].lower() for w in words]:
            return i
    return None


def find_word(pages, text):
    for i, (_, _, words) in enumerate(pages):
        for w in words:
            if w[4] == text:
                return i, w
    return None, None


def find_link(qj, objs, page, url):
    """The /Link annotation with /URI url on a page (0-based), or None."""
    if not qj.get("pages") or page >= len(qj["pages"]):
        return None
    pobj = deref(objs, qj["pages"][page]["object"]) or {}
    a = pobj.get("/Annots", [])
    a = deref(objs, a) if isinstance(a, str) else a
    for ref in a or []:
        an = deref(objs, ref) or {}
        act = deref(objs, an.get("/A")) or {}
        if an.get("/Subtype") == "/Link" and pdf_str(act.get("/URI")) == url:
            return an
    return None


def page_box(qj, objs, page):
    """The page's CropBox (else MediaBox), inherited through /Parent."""
    node = deref(objs, qj["pages"][page]["object"]) or {}
    for key in ("/CropBox", "/MediaBox"):
        n = node
        while n:
            if key in n:
                return [float(x) for x in deref(objs, n[key])]
            n = deref(objs, n.get("/Parent")) if n.get("/Parent") else None
    return None


# ----------------------------------------------------------------------
# The checks
# ----------------------------------------------------------------------
EXIF_NAMES = {  # XMP property -> exiftool tag name
    p: p[0].upper() + p[1:] for p in [
        "number", "shortNumber", "resolverUrl", "canonicalSha256",
        "canonicalRecord", "title", "receiptKeyId", "receiptAlgorithm",
        "receiptSignature", "receiptFingerprint", "receiptSignedAt",
        "stampTool", "stampToolVersion"]}


def sty_version(sty_dir):
    with open(os.path.join(sty_dir, "pith.sty"), encoding="utf-8") as f:
        m = re.search(r"\\ProvidesExplPackage\{pith\}\{[^}]*\}\{([^}]*)\}",
                      f.read())
    return m.group(1)


def expected_props(fx, full, sty_dir):
    body = "YRUNQITD2RKQXO2YH7SDTYYAQ3"
    props = {
        "number": "pith:2024:" + body if full else "pith:" + body,
        "shortNumber": "pith:" + body[:8],
        "resolverUrl": "https://pith.science/pith/" + body,
        "stampTool": "pith.sty",
        "stampToolVersion": sty_version(sty_dir),
    }
    if full:
        r = fx["receipt"]
        props.update({
            "canonicalSha256": fx["canonical_sha256"],
            "canonicalRecord": pithtex.canonical_json(fx["canonical_record"]),
            "title": fx["title"],
            "receiptKeyId": r["key_id"],
            "receiptAlgorithm": r["algorithm"],
            "receiptSignature": r["signature_b64"],
            "receiptFingerprint": r["public_key_fingerprint"],
            "receiptSignedAt": r["signed_at"],
        })
    return props


PITH_NS = "https://pith.science/ns/xmp/1.0/"


def catalog_packet(pdf):
    """The XMP packet the catalog's /Metadata points to, as text."""
    qj = qpdf_json(pdf)
    objs = objects(qj)
    trailer = objs.get("trailer", {}).get("value", {})
    catalog = deref(objs, trailer.get("/Root")) or {}
    mref = catalog.get("/Metadata")
    if not isinstance(mref, str):
        return ""
    rc, out = run(["qpdf", pdf, "--show-object=" + mref.split()[0],
                   "--filtered-stream-data"], os.path.dirname(pdf))
    return out


def xmp_values(pdf):
    """pith:* simple properties of the catalog packet, parsed as XML."""
    import xml.etree.ElementTree as ET
    text = catalog_packet(pdf)
    start = text.find("<x:xmpmeta")
    end = text.rfind("</x:xmpmeta>")
    root = ET.fromstring(text[start:end + len("</x:xmpmeta>")])
    vals = {}
    for el in root.iter():
        if el.tag.startswith("{" + PITH_NS + "}"):
            vals[el.tag[len(PITH_NS) + 2:]] = el.text or ""
    return vals


def check_pdf(pdf, cls, full, fx, pith, sty_dir, exp, keyring=None, placement="title"):
    """Return a dict check -> (ok, detail)."""
    res = {}
    skip = exp.get("skip_checks", {})
    props = expected_props(fx, full, sty_dir)
    number = props["number"]
    url = props["resolverUrl"]
    short = props["shortNumber"]

    # pith extract / verify
    if "extract" not in skip:
        if not pith or not os.path.exists(pith):
            res["extract"] = (False, "pith binary not found: %r" % pith)
        else:
            rc, out = run([pith, "extract", pdf, "--json"], os.path.dirname(pdf))
            try:
                j = json.loads(out)
                ok = rc == 0 and j.get("number") == number
                res["extract"] = (ok, "number=%r rc=%d" % (j.get("number"), rc))
            except ValueError:
                res["extract"] = (False, "rc=%d, not JSON: %s" % (rc, out[:200]))
    if "verify" not in skip:
        if not pith or not os.path.exists(pith):
            res["verify"] = (False, "pith binary not found: %r" % pith)
        else:
            rc, out = run([pith, "verify", pdf, "--json"] + (["--keyring", keyring] if keyring else []),
                          os.path.dirname(pdf))
            try:
                j = json.loads(out)
                if full and keyring and placement != "none":  # every check made and holding: title, badge, record, receipt
                    ok = j.get("number") == number and j.get("state") == "trusted"
                elif full or placement == "none":
                    ok = (j.get("number") == number and not j.get("failure")
                          and bool(j.get("success")))
                else:
                    ok = (j.get("number") == number
                          and j.get("state") == "unverified")
                res["verify"] = (ok, "state=%r failure=%r" %
                                 (j.get("state"), j.get("failure")))
            except ValueError:
                res["verify"] = (False, "rc=%d, not JSON: %s" % (rc, out[:200]))

    # exiftool: pith XMP (tag names), raw packet values (ElementTree)
    if "xmp" not in skip:
        rc, out = run(["exiftool", "-j", "-n", "-XMP-pith:all", pdf],
                      os.path.dirname(pdf))
        try:
            j = json.loads(out)[0]
            tags = set(k for k in j if k != "SourceFile")
            want = set(EXIF_NAMES[p] for p in props)
            vals = xmp_values(pdf)
            bad = [p for p, v in props.items() if vals.get(p) != v]
            extra = sorted(set(vals) - set(props))
            ok = (tags == want and j.get("Number") == number
                  and not bad and not extra)
            res["xmp"] = (ok, "exiftool tags %s; wrong/missing %s; extra %s"
                          % (sorted(tags ^ want), bad, extra)
                          if not ok else "%d properties" % len(props))
        except (ValueError, IndexError) as e:
            res["xmp"] = (False, "exiftool/XMP: %r %s" % (e, out[:200]))
    elif skip.get("xmp") == "absent":
        rc, out = run(["exiftool", "-j", "-XMP-pith:all", pdf],
                      os.path.dirname(pdf))
        j = json.loads(out)[0]
        res["xmp-absent"] = (len(j) == 1, "documented: no pith XMP")

    # qpdf --check
    rc, out = run(["qpdf", "--check", pdf], os.path.dirname(pdf))
    res["qpdf"] = (rc == 0 and "WARNING" not in out,
                   "rc=%d %s" % (rc, " | ".join(
                       l for l in out.splitlines() if "WARNING" in l)[:300]))

    qj = qpdf_json(pdf)
    objs = objects(qj)
    trailer = objs.get("trailer", {}).get("value", {})
    catalog = deref(objs, trailer.get("/Root")) or {}

    # exactly one /Metadata, holding our properties
    if "metadata" not in skip:
        n = raw_metadata_keys(pdf)
        mref = catalog.get("/Metadata")
        holds = False
        if isinstance(mref, str):
            num = mref.split()[0]
            rc, out = run(["qpdf", pdf, "--show-object=" + num,
                           "--filtered-stream-data"], os.path.dirname(pdf))
            holds = ("https://pith.science/ns/xmp/1.0/" in out
                     and "<pith:number>" + number + "</pith:number>" in out)
        res["metadata"] = (n == 1 and holds,
                           "%d /Metadata keys; catalog packet has pith: %s"
                           % (n, holds))

    # Info /PithNumber
    if "info" not in skip:
        info = deref(objs, trailer.get("/Info")) or {}
        got = pdf_str(info.get("/PithNumber"))
        res["info"] = (got == number, "PithNumber=%r" % got)

    # the badge: on the title block's page below the title, centred in
    # two-column layouts (placement=title); on that page (footnote); on
    # page 1 (margin); nowhere (none)
    twocol, tword = CLASSES[cls]
    pages = document_words(pdf)
    tpage = title_page(pages, tword)
    bpage, badge = find_word(pages, short)
    if placement == "none":
        if "badge" not in skip:
            res["no-badge"] = (bpage is None, "badge found on page %s" % bpage)
        return res
    w, h, words = pages[bpage] if bpage is not None else pages[0]
    title = [wd for wd in words if wd[4].lower() == tword.lower()]
    if "badge" not in skip:
        want = 0 if placement == "margin" else tpage
        if badge is None:
            res["badge"] = (False, "no %s in the document" % short)
        elif bpage != want:
            res["badge"] = (False, "badge on page %d, want page %s (title block on %s)"
                            % (bpage + 1, None if want is None else want + 1,
                               None if tpage is None else tpage + 1))
        elif placement == "title" and not title:
            res["badge"] = (False, "title word %r not on page %d" % (tword, bpage + 1))
        elif placement == "title":
            b, t = badge, min(title, key=lambda x: x[1])
            below = b[1] > t[3]
            centre = (b[0] + b[2]) / 2 / w
            centred = (0.3 < centre < 0.7) if twocol else True
            res["badge"] = (below and centred,
                            "page %d badge y=%.0f title y=%.0f centre=%.2f"
                            % (bpage + 1, b[1], t[3], centre))
        else:
            res["badge"] = (True, "page %d" % (bpage + 1))

    # link annotation with the resolver URI over the badge
    if "link" not in skip:
        hit = find_link(qj, objs, bpage or 0, url)
        if hit is None:
            res["link"] = (False, "no /Link with /URI %s on page %d" % (url, (bpage or 0) + 1))
        elif badge:
            r = [float(x) for x in hit["/Rect"]]
            x0, x1 = min(r[0], r[2]), max(r[0], r[2])
            y0, y1 = h - max(r[1], r[3]), h - min(r[1], r[3])
            b = badge
            tol = 4.0
            covers = (x0 - tol <= b[0] and b[2] <= x1 + tol
                      and y0 - tol <= b[1] and b[3] <= y1 + tol)
            res["link"] = (covers, "rect %s vs badge %s" %
                           ([round(v) for v in r],
                            [round(v) for v in b[:4]]))
        else:
            res["link"] = (True, "link present (badge not located)")
    if keyring and "verify" not in skip and "badge" not in skip:
        res["stamp"] = check_stamp(pdf, fx, pith, keyring, number, short, bpage or 0)
    return res


# ----------------------------------------------------------------------
# Issue 16: engine XMP kept, badge inside the page and in the title block
# ----------------------------------------------------------------------
VOLATILE = ("Date", "DocumentID", "InstanceID")  # differ between any two compiles


def xmp_tags(pdf):
    rc, out = run(["exiftool", "-j", "-a", "-G1", "-XMP:all", pdf], os.path.dirname(pdf))
    tags = json.loads(out)[0]
    tags.pop("SourceFile", None)
    return tags


def overfull(texlog):
    return len(re.findall(r"^Overfull \\[hv]box", texlog, re.M))


def same_or_more(before, after):
    """An engine's value is kept: equal, or for a list (hyperxmp's font
    list: the badge adds the typewriter font) every item is still there."""
    if isinstance(before, list):
        after = after if isinstance(after, list) else [after]
        return all(x in after for x in before)
    return before == after


def xmp_hyperxmp_check(base, tags, differ, allowed):
    """EXPECTED's xmp-hyperxmp: without pith the packet is Ghostscript's (hyperxmp's was lost),
    with pith it is hyperxmp's (dc:source, the .tex file, is written only by hyperxmp), and the
    engine tags that differ are exactly the listed ones, which hyperxmp writes itself."""
    gs = "Ghostscript" in str(base.get("XMP-pdf:Producer", ""))
    hyxmp = str(tags.get("XMP-dc:Source", "")).endswith(".tex")
    ok = gs and hyxmp and sorted(differ) == sorted(allowed)
    return (ok, "without pith Ghostscript's packet: %s; with pith hyperxmp's: %s; "
                "differ %s (expected %s)" % (gs, hyxmp, sorted(differ), sorted(allowed)))


def inside(box, x0, y0, x1, y1):
    return box[0] <= x0 and x1 <= box[2] and box[1] <= y0 and y1 <= box[3]


def check_issue16(pdf, cls, placement, full, base, texlog, pith, keyring, exp):
    res = {}
    skip = exp.get("skip_checks", {})
    short = "pith:YRUNQITD"
    if base is None:
        res["baseline"] = (False, "the paper without pith does not compile")
    elif base != "skip":
        if "xmp-kept" not in skip:
            tags = xmp_tags(pdf)
            lost = [k for k in base["xmp"] if k not in tags]
            changed = [k for k in base["xmp"] if k in tags
                       and not any(x in k for x in VOLATILE)
                       and not same_or_more(base["xmp"][k], tags[k])]
            res["xmp-kept"] = (not lost and not changed, "%d engine tags; lost %s changed %s"
                               % (len(base["xmp"]), lost, changed))
            if "xmp-hyperxmp" in exp:
                res["xmp-kept"] = xmp_hyperxmp_check(base["xmp"], tags, lost + changed,
                                                     exp["xmp-hyperxmp"])
        n = overfull(texlog)
        res["overfull"] = (n <= base["overfull"], "%d overfull boxes, %d without pith"
                           % (n, base["overfull"]))
    if placement == "none" or "badge" in skip:
        return res
    pages = document_words(pdf)
    bpage, badge = find_word(pages, short)
    if badge is None:
        res["inpage"] = (False, "no %s (cut off?)" % short)
        return res
    w, h, words = pages[bpage]
    qj = qpdf_json(pdf)
    objs = objects(qj)
    box = page_box(qj, objs, bpage)
    link = find_link(qj, objs, bpage, "https://pith.science/pith/YRUNQITD2RKQXO2YH7SDTYYAQ3")
    r = [float(x) for x in link["/Rect"]] if link else None
    # pdftotext measures from the CropBox's top-left corner
    glyphs_in = inside([0, 0, w, h], *badge[:4])
    link_in = bool(r) and inside(box, min(r[0], r[2]), min(r[1], r[3]),
                                 max(r[0], r[2]), max(r[1], r[3]))
    res["inpage"] = (glyphs_in and link_in, "page %d box %s badge %s link %s"
                     % (bpage + 1, [round(v) for v in box], [round(v) for v in badge[:4]],
                        r and [round(v) for v in r]))
    others = [wd for wd in words if wd is not badge]
    if placement == "title":
        res["titleblock"] = title_block_check(badge, words, CLASSES[cls][1])
    elif placement == "footnote":
        # a footnote: below the body text of its column (classes with a ragged
        # bottom put it right under the text; acmart's permission block follows)
        count = sum(1 for _, _, ws in pages for wd in ws if wd[4] == short)
        under = [wd[4] for wd in others if wd[1] > badge[3] and wd[4] in BODY_WORDS
                 and wd[0] < badge[2] and badge[0] < wd[2]]
        res["footnote"] = (not under and count == 1,
                           "page %d y=%.0f of %.0f, %d times in the document, text below: %s"
                           % (bpage + 1, badge[1], h, count, under[:5]))
    elif placement == "margin" and "margin" not in skip:
        hit = [wd[4] for wd in others if wd[0] < badge[2] and badge[0] < wd[2]
               and wd[1] < badge[3] and badge[1] < wd[3]]
        res["margin"] = (not hit, "overlaps %s" % hit if hit else "clear of the text")
    if pith and "verify" not in skip:
        rc, out = run([pith, "verify", pdf, "--json"] + (["--keyring", keyring] if keyring else []),
                      os.path.dirname(pdf))
        try:
            codes = {c["code"] for c in json.loads(out).get("success", [])}
        except ValueError:
            codes = set()
        want = {"pith.badge.text.match"} | ({"pith.title.match"} if full else set())
        res["verify-finds"] = (want <= codes, "missing %s" % sorted(want - codes))
    return res


def title_block_check(badge, words, tword):
    """The badge closes the title block: after the title and before the first
    section heading in reading order, without a line number beside it, and
    at least 4pt clear of the text below (not glued to the heading)."""
    texts = [wd[4] for wd in words]
    i = next(k for k, wd in enumerate(words) if wd is badge)
    t = next((k for k, x in enumerate(texts) if x.lower() == tword.lower()), None)
    sec = next((k for k, x in enumerate(texts) if x == "Introduction"), len(words))
    numbered = [wd[4] for wd in words if re.fullmatch(r"\d+", wd[4])
                and wd[1] < badge[3] and badge[1] < wd[3]]
    above = [badge[1] - wd[3] for wd in words if wd[3] <= badge[1] + 1
             and wd[0] < badge[2] + 100 and badge[0] - 100 < wd[2]]
    below = [wd[1] - badge[3] for wd in words if wd[1] >= badge[3] - 1]
    gap_above = min(above) if above else 0.0
    gap_below = min(below) if below else 999.0
    ok = t is not None and t < i < sec and not numbered and gap_below >= 4
    return (ok, "reading order: title %s badge %d section %d; line number %s; gap above %.0f below %.0f"
            % (t, i, sec, numbered, gap_above, gap_below))


def page_pixels(pdf, page=0):
    """A page rendered by poppler at 36 dpi, as PPM bytes."""
    n = str(page + 1)
    p = subprocess.run(["pdftoppm", "-r", "36", "-f", n, "-l", n, pdf], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, timeout=120)
    return p.stdout


def check_stamp(pdf, fx, pith, keyring, number, short, page=0):
    """`pith stamp` on a paper pith.sty already numbered (issue 22)."""
    wd = os.path.dirname(pdf)
    out = os.path.join(wd, "stamped.pdf")
    rc, text = run([pith, "stamp", pdf, "--record", fx["signed_path"], "-o", out, "--json"], wd)
    try:
        summary = json.loads(text[text.index("{"):])
    except ValueError:
        return (False, "stamp rc=%d: %s" % (rc, text[:300]))
    if rc != 0 or summary.get("badge") is not None or not summary.get("latex_badge_kept"):
        return (False, "stamp rc=%d badge=%r latex_badge_kept=%r" % (rc, summary.get("badge"), summary.get("latex_badge_kept")))
    shown = sum(1 for _, _, words in document_words(out) for w in words if w[4] == short)
    if shown != 1:
        return (False, "pdftotext shows %s %d times after stamping" % (short, shown))
    if page_pixels(out, page) != page_pixels(pdf, page):
        return (False, "page %d renders differently after stamping: a second badge?" % (page + 1))
    rc, text = run(["exiftool", "-j", "-XMP-pith:CanonicalRecord", "-XMP-pith:Number", out], wd)
    try:
        tags = json.loads(text)[0]
    except (ValueError, IndexError):
        tags = {}
    if not tags.get("CanonicalRecord") or tags.get("Number") != fx["pith_number"]:
        return (False, "exiftool finds no full record for %s in the stamped XMP: %s" % (fx["pith_number"], text[:200]))
    rc, text = run([pith, "verify", out, "--json", "--keyring", keyring], wd)
    try:
        state = json.loads(text).get("state")
    except ValueError:
        state = "rc=%d %s" % (rc, text[:200])
    if state != "trusted":
        return (False, "stamped: verify says %r" % state)
    other = os.path.join(HERE, "..", "vectors", "seed-000-pith_number_record.json")
    other_out = os.path.join(wd, "other.pdf")
    rc, text = run([pith, "stamp", pdf, "--record", other, "-o", other_out, "--no-title-check"], wd)
    if rc != 2 or os.path.exists(other_out) or "two different Pith numbers" not in text:
        return (False, "another number: want refused (exit 2, no output), got rc=%d %s" % (rc, text[:200]))
    return (True, "stamped: pith.sty badge kept, trusted; another number refused")


def source(cls, variant, placement, receipt, with_pith=True):
    """The test paper: the class template with the variant's preamble."""
    with open(os.path.join(HERE, "classes", cls + ".tex"), encoding="utf-8") as f:
        template = f.read()
    docmeta, pre = PREAMBLES[variant]
    if not with_pith:  # the same paper without pith: what the engine writes alone
        pre = pre.replace("\\usepackage{pith}\n", "").replace(RECEIPT, "").replace(NUMBER_ONLY, "")
    elif placement != "title":
        pre = pre.replace("\\usepackage{pith}", "\\usepackage[placement=%s]{pith}" % placement)
    pre = pre.replace(RECEIPT, receipt)
    return template.replace("%%DOCMETA%%", docmeta).replace("%%PREAMBLE%%", pre)


class Matrix:
    """Runs and reports combinations; remembers the builds without pith."""

    def __init__(self, args, sty_dir, fx, keyring, receipt):
        self.args, self.sty_dir, self.fx, self.keyring = args, sty_dir, fx, keyring
        self.receipt = receipt
        self.baselines = {}
        self.failures = 0
        self.rows = 0

    def baseline(self, engine, cls, variant, name):
        """exiftool's XMP tags and the overfull boxes of the paper without pith,
        compiled under the same job name (dc:Source and Ghostscript's title are
        the file name).  None if it does not compile."""
        key = (engine, cls, variant)
        if key not in self.baselines:
            wd = os.path.join(self.args.work, "b-%s-%s-%s" % key, name)
            shutil.rmtree(wd, ignore_errors=True)
            os.makedirs(wd)
            with open(os.path.join(wd, name + ".tex"), "w", encoding="utf-8") as f:
                f.write(source(cls, variant, "none", "", with_pith=False))
            rc, _, texlog = compile_doc(engine, wd, name, self.sty_dir)
            pdf = os.path.join(wd, name + ".pdf")
            self.baselines[key] = None
            if rc == 0 and os.path.exists(pdf):
                self.baselines[key] = {"xmp": xmp_tags(pdf), "overfull": overfull(texlog)}
            if not self.args.keep:
                shutil.rmtree(os.path.dirname(wd), ignore_errors=True)
        return self.baselines[key]

    def run(self, engine, cls, variant, placement):
        exp = expected_for(engine, cls, variant, placement)
        name = "p-%s-%s-%s" % (engine, cls, variant)  # the job name: the same for
        wd = os.path.join(self.args.work, name)          # every placement and the baseline
        if placement != "title":
            wd += "-" + placement
        shutil.rmtree(wd, ignore_errors=True)
        os.makedirs(wd)
        src = source(cls, variant, placement, self.receipt)
        full = self.receipt in src
        with open(os.path.join(wd, name + ".tex"), "w", encoding="utf-8") as f:
            f.write(src)
        rc, out, texlog = compile_doc(engine, wd, name, self.sty_dir)
        pdf = os.path.join(wd, name + ".pdf")
        compiled = rc == 0 and os.path.exists(pdf)
        res = {}
        if exp.get("compile", True) is False:
            ok = not compiled and exp.get("error", "") in texlog
            res["compile-fails"] = (ok, "documented: %s" % exp.get("why", ""))
        else:
            errs = re.findall(r"^! .*", texlog, re.M)
            res["compile"] = (compiled, "rc=%d %s" % (rc, errs[:2]))
            if compiled:
                try:
                    res.update(check_log_lines(texlog, engine, cls, variant, placement))
                    res.update(check_pdf(pdf, cls, full, self.fx, self.args.pith,
                                         self.sty_dir, exp, self.keyring, placement))
                    base = (self.baseline(engine, cls, variant, name)
                            if self.args.compare else "skip")
                    res.update(check_issue16(pdf, cls, placement, full, base, texlog,
                                             self.args.pith, self.keyring, exp))
                except Exception as e:  # report, do not crash
                    res["inspect"] = (False, repr(e))
        bad = {k: v for k, v in res.items() if not v[0]}
        self.failures += bool(bad)
        self.rows += 1
        print("%-4s %-8s %-21s %-8s %-8s %s" % (
            "ok" if not bad else "FAIL", engine, cls, variant, placement,
            " ".join(("%s" if v[0] else "%s!") % k for k, v in res.items())), flush=True)
        for k, v in bad.items():
            print("      %s: %s" % (k, v[1]))
        if bad and not compiled:
            tail = "\n".join(texlog.splitlines()[-25:]) or out[-1500:]
            print("      --- log tail ---\n" + tail)
        if not bad and not self.args.keep:
            shutil.rmtree(wd, ignore_errors=True)


# Issue 32: the log names the XMP route and the badge placement pith.sty
# chose ("Package pith Info: XMP route: ROUTE (...)", "badge placement:
# title (adapter NAME: ...)"), one adapter per class.
TITLE_ADAPTER = {
    "article": "maketitle", "report": "maketitle", "amsart": "maketitle",
    "llncs": "maketitle", "scrartcl": "maketitle", "mnras": "maketitle",
    "revtex-aps": "revtex", "revtex-aip": "revtex", "revtex-bibnotes": "revtex",
    "aastex-lineno": "revtex", "ieeetran-journal": "ieeetran",
    "ieeetran-conference": "ieeetran", "acmart-sigconf": "acmart",
    "acmart-acmsmall": "acmart", "acmart-manuscript": "acmart",
    "elsarticle": "elsarticle", "elsarticle-highlights": "elsarticle",
    "cas-dc": "cas", "achemso": "maketitle",
}
DRIVER = {"pdflatex": "pdftex", "xelatex": "dvipdfmx", "lualatex": "luatex",
          "dvips": "dvips"}


def expected_log_lines(engine, cls, variant, placement):
    """The two pith log lines (flattened) this combination must show."""
    if variant == "docmeta":
        route = "XMP route: pdfmanagement (adapter pdfmanagement:"
    elif variant == "hyperxmp" or cls.startswith("acmart"):  # acmart loads hyperxmp
        route = "XMP route: hyperxmp (adapter hyperxmp:"
    else:
        route = ("XMP route: own (pith writes its own packet, driver %s)"
                 % DRIVER[engine])
    if placement == "title":
        where = "badge placement: title (adapter %s:" % TITLE_ADAPTER[cls]
    else:
        where = "badge placement: %s (" % placement
    return [route, where]


def check_log_lines(texlog, engine, cls, variant, placement):
    flat = re.sub(r"\s*\n\(pith\)\s*", " ", texlog)
    got = re.findall(r"Package pith (?:Info|Warning): ((?:XMP route|badge "
                     r"placement|adapter)[^\n]*)", flat)
    want = expected_log_lines(engine, cls, variant, placement)
    missing = [w for w in want if not any(g.startswith(w) for g in got)]
    return {"log-lines": (not missing, "want %r, log has %r" % (missing, got))}


def pairwise_sample():
    """A covering sample of the product engine x class x variant x placement:
    every pair of values of two factors appears in at least one combination
    (greedy, deterministic: the same list every run).  Returned in a fixed
    order, split later into ctest shards."""
    factors = [ENGINES, sorted(CLASSES), VARIANTS, PLACEMENTS]
    pairs = set()
    for i in range(4):
        for j in range(i + 1, 4):
            for a in factors[i]:
                for b in factors[j]:
                    pairs.add((i, a, j, b))

    def covers(c):
        return {(i, c[i], j, c[j]) for i in range(4) for j in range(i + 1, 4)} & pairs

    chosen = []
    import itertools
    every = list(itertools.product(*factors))
    while pairs:
        best = max(every, key=lambda c: len(covers(c)))  # first best: deterministic
        chosen.append(best)
        pairs -= covers(best)
    return chosen


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", action="append", choices=ENGINES)
    ap.add_argument("--class", dest="classes", action="append",
                    choices=sorted(CLASSES))
    ap.add_argument("--variant", action="append", choices=VARIANTS)
    ap.add_argument("--placement", action="append", choices=PLACEMENTS,
                    help="default: title only (every placement: --placement each)")
    ap.add_argument("--sample", metavar="K/N",
                    help="run shard K of N of the pairwise covering sample "
                         "(--list-sample prints it); ignores the axis options")
    ap.add_argument("--list-sample", action="store_true")
    ap.add_argument("--pith", default=os.environ.get("PITH_BIN", ""),
                    help="path of the pith binary")
    ap.add_argument("--sty-dir", default=os.path.join(HERE, "..", "..", "latex"))
    ap.add_argument("--work", default="/tmp/latexwork/matrix")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--no-compare", dest="compare", action="store_false",
                    help="skip the build without pith (engine XMP kept, overfull boxes)")
    args = ap.parse_args()
    if args.list_sample:
        for c in pairwise_sample():
            print(" ".join(c))
        return 0
    if args.pith:
        args.pith = os.path.abspath(args.pith)
    sty_dir = os.path.abspath(args.sty_dir)
    fx, keyring = fixture(), None
    if args.pith and os.path.exists(args.pith):
        fx, keyring = test_signed(fx, args.pith, args.work)
    receipt = pithtex.pith_tex(fx["canonical_record"], fx["receipt"], fx["title"])
    m = Matrix(args, sty_dir, fx, keyring, receipt)
    if args.sample:
        k, n = (int(x) for x in args.sample.split("/"))
        todo = [c for i, c in enumerate(pairwise_sample()) if i % n == k - 1]
    else:
        import itertools
        todo = itertools.product(args.engine or ENGINES, args.classes or sorted(CLASSES),
                                 args.variant or VARIANTS, args.placement or ["title"])
    for engine, cls, variant, placement in todo:
        m.run(engine, cls, variant, placement)
    print("%d of %d combinations failed" % (m.failures, m.rows))
    return 1 if m.failures else 0


if __name__ == "__main__":
    sys.exit(main())
