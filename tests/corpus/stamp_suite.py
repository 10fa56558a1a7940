#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Stamp acceptance suite on the real PDF corpus (standard library only).

usage: stamp_suite.py --pith PITH --group GROUP --out DIR [--corpus DIR] [--repo DIR]
                      [--only SUBSTR] [--jobs N] [--keep]

GROUP is one of
  valid, signed, pdfa, large, encrypted   every file is stamped and checked (checks 1, 2, 4, 5)
  malformed                               clean refusal; a sound output with --allow-damaged (check 3)
  rotated                                 badge corners on the corpus files with rotated pages (6)
  synthetic                               badge corners on hand-written PDFs (6; needs no corpus)

Checks per stamped file (see tests/corpus/README.md): byte prefix; qpdf --check reports nothing new;
exiftool shows the pith XMP properties and every XMP property the input had; pdftotext finds the
badge text on the stamped page; the page's link annotation points at the resolver URL; verify:
input absent (3), output unverified + receipt.key_unknown without keyring, trusted (0) with the test
keyring; signatures that pdfsig validates stay valid; certified (DocMDP) files are refused unless
--force; PDF/A stays PDF/A and declares the pith schema; re-stamping keeps one badge and the new
number everywhere and does not grow the file.

Exit: 0 all passed, 1 some check failed (a missing corpus, corpus file or tool too).
"""
import argparse
import concurrent.futures
import csv
import hashlib
import json
import os
import re
import shutil
import sys
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest as corpus_manifest  # noqa: E402
import synthetic  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pgm import read_pgm  # noqa: E402
from pithrun import DAMAGED_CORPUS_FILES  # noqa: E402

import subprocess  # noqa: E402

PITH_NS = "https://pith.science/ns/xmp/1.0/"
PDFA_SCHEMA_NS = "http://www.aiim.org/pdfa/ns/schema#"
PDFA_PROPERTY_NS = "http://www.aiim.org/pdfa/ns/property#"
RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RESOLVER = "https://pith.science/pith/"
SEED_REL = "tests/vectors/seed-002-open_graph_state.json"
CORNERS = ("top-right", "top-left", "bottom-right", "bottom-left")
STAMP_GROUPS = ("valid", "signed", "pdfa", "large", "encrypted")

TOOL_TIMEOUT = 60
STAMP_TIMEOUT = 60


# ------------------------------------------------------------------ processes

class Run:
    def __init__(self, cmd, rc, out, err, secs):
        self.cmd, self.rc, self.out, self.err, self.secs = cmd, rc, out, err, secs

    @property
    def timed_out(self):
        return self.rc == "timeout"

    def crashed(self):
        """A signal, an exit status >= 128, or a sanitizer report."""
        if self.timed_out:
            return False
        return (self.rc < 0 or self.rc >= 128 or "AddressSanitizer" in self.err
                or "LeakSanitizer" in self.err or "runtime error:" in self.err)

    def brief(self):
        err = self.err.strip().splitlines()
        return "exit %s%s" % (self.rc, (": " + err[0][:300]) if err else "")


def run(cmd, timeout=TOOL_TIMEOUT, env=None, binary=False):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, env=env)
        out = p.stdout if binary else p.stdout.decode("utf-8", "replace")
        return Run(cmd, p.returncode, out, p.stderr.decode("utf-8", "replace"), time.time() - t0)
    except subprocess.TimeoutExpired:
        return Run(cmd, "timeout", b"" if binary else "", "", time.time() - t0)


def pw_args(flag, password):
    return [flag + password] if flag.endswith("=") else ([flag, password] if password else [])


# ------------------------------------------------------------------ oracles

def qpdf_check(path, password):
    """(rc, set of WARNING/ERROR lines with the file name replaced) or (rc, None) on crash/timeout."""
    cmd = ["qpdf", "--check"] + (["--password=" + password] if password else []) + [path]
    r = run(cmd)
    if r.timed_out or r.rc < 0:
        return r.rc, None
    lines = set()
    for line in (r.out + r.err).splitlines():
        line = line.replace(path, "FILE")
        # pith wraps the page content in new streams: "stream 41 0, stream 7 0, stream 42 0" is the
        # same content problem qpdf reported as "stream 7 0" before.
        line = re.sub(r"stream \d+ \d+(, stream \d+ \d+)*", "stream(s)", line)
        low = line.lower()
        if line.startswith("WARNING") or line.startswith("ERROR") or "error" in low or "qpdf:" in low:
            if ("may still contain" in line or "No syntax or stream encoding errors" in line
                    or "errors that qpdf cannot detect" in line):
                continue
            lines.add(line)
    return r.rc, lines


def qpdf_json(path, password):
    """qpdf's JSON v2 (pages + objects) or an error string."""
    cmd = ["qpdf", "--json=2", "--json-key=pages", "--json-key=qpdf"]
    cmd += (["--password=" + password] if password else []) + [path]
    r = run(cmd, timeout=120)
    if r.timed_out or r.rc not in (0, 3):
        return None, "qpdf --json failed: " + r.brief()
    try:
        return QpdfDoc(json.loads(r.out)), None
    except ValueError as e:
        return None, "qpdf --json output unparsable: %s" % e


class QpdfDoc:
    def __init__(self, data):
        self.pages = data["pages"]
        self.objects = data["qpdf"][1]

    def resolve(self, v):
        seen = 0
        while isinstance(v, str) and re.fullmatch(r"\d+ \d+ R", v) and seen < 50:
            o = self.objects.get("obj:" + v)
            if o is None:
                return None
            v = o.get("value", o.get("stream"))
            seen += 1
        return v

    def trailer(self):
        return self.objects.get("trailer", {}).get("value", {})

    def root(self):
        return self.resolve(self.trailer().get("/Root")) or {}

    def page(self, n):
        ref = self.pages[n - 1]["object"]
        return self.resolve(ref) or {}

    def links(self, n):
        """[(uri, rect)] of the Link annotations of page n (1-based)."""
        annots = self.resolve(self.page(n).get("/Annots")) or []
        out = []
        for a in annots:
            a = self.resolve(a)
            if not isinstance(a, dict) or a.get("/Subtype") != "/Link":
                continue
            action = self.resolve(a.get("/A")) or {}
            uri = self.resolve(action.get("/URI")) if isinstance(action, dict) else None
            if isinstance(uri, str):
                uri = uri[2:] if uri.startswith("u:") else uri
            rect = [float(self.resolve(x)) for x in (self.resolve(a.get("/Rect")) or [])]
            out.append((uri, rect))
        return out

    def docmdp(self):
        perms = self.resolve(self.root().get("/Perms"))
        return isinstance(perms, dict) and isinstance(self.resolve(perms.get("/DocMDP")), dict)

    def metadata_stream_dict(self):
        md = self.root().get("/Metadata")
        s = self.resolve(md)
        return s.get("dict") if isinstance(s, dict) and "dict" in s else None


def exif(path, password, encrypted=False):
    """exiftool's XMP and Info /PithNumber. Encrypted files are decrypted with qpdf first: exiftool's
    pure-Perl AES-256 (R6) key derivation takes tens of seconds per call."""
    tmp = None
    if encrypted:
        tmp = path + ".decrypted-for-exiftool.pdf"
        r = run(["qpdf", "--decrypt"] + (["--password=" + password] if password else []) + [path, tmp])
        if r.rc not in (0, 3):
            return None, "qpdf --decrypt failed: " + r.brief()
        path, password = tmp, ""
    cmd = ["exiftool", "-j", "-G1", "-a", "-XMP:all", "-PDF:PithNumber", "-File:FileType"]
    cmd += (["-password", password] if password else []) + [path]
    r = run(cmd)
    if tmp:
        os.remove(tmp)
    if r.timed_out or r.rc not in (0, 1):
        return None, "exiftool failed: " + r.brief()
    try:
        d = json.loads(r.out)[0]
    except (ValueError, IndexError) as e:
        return None, "exiftool output unparsable: %s" % e
    d.pop("SourceFile", None)
    d.pop("ExifTool:Warning", None)
    if d.pop("File:FileType", None) != "PDF":
        d["ExifTool:Error"] = "not parsed as PDF"
    return d, None


def qpdf_xmp(path, password, doc):
    """Fallback for files exiftool cannot parse (e.g. a header at an offset): the catalog's XMP
    via qpdf, flattened like exiftool -G1 for pith and pdfaid, plus Info /PithNumber."""
    md = doc.root().get("/Metadata")
    m = re.fullmatch(r"(\d+) (\d+) R", md or "")
    out = {}
    if m:
        r = run(["qpdf", "--show-object=%s,%s" % m.groups(), "--filtered-stream-data"]
                + (["--password=" + password] if password else []) + [path], binary=True)
        if r.rc in (0, 3):
            try:
                root = ET.fromstring(r.out[r.out.index(b"<x:xmpmeta"):r.out.rindex(b"</x:xmpmeta>") + 12])
            except (ValueError, ET.ParseError):
                root = None
            groups = {PITH_NS: "XMP-pith", "http://www.aiim.org/pdfa/ns/id/": "XMP-pdfaid"}
            for desc in (root.iter("{%s}Description" % RDF_NS) if root is not None else []):
                items = list(desc.attrib.items()) + [(c.tag, (c.text or "").strip()) for c in desc]
                for tag, val in items:
                    ns, _, local = tag[1:].partition("}")
                    if ns in groups:
                        out["%s:%s" % (groups[ns], local[:1].upper() + local[1:])] = val
    info = doc.resolve(doc.trailer().get("/Info"))
    if isinstance(info, dict) and isinstance(info.get("/PithNumber"), str):
        out["PDF:PithNumber"] = re.sub(r"^u:", "", info["/PithNumber"])
    for k in ("XMP-pith:PriorLength",):
        if k in out:
            out[k] = int(out[k])
    return out


def xmp_packet(path, password):
    cmd = ["exiftool", "-xmp", "-b"] + (["-password", password] if password else []) + [path]
    r = run(cmd, binary=True)
    if r.timed_out or r.rc != 0:
        return None
    return r.out


def page_text(path, page, password):
    cmd = ["pdftotext", "-q", "-f", str(page), "-l", str(page)] + pw_args("-upw", password) + [path, "-"]
    r = run(cmd)
    return None if r.timed_out or r.rc != 0 else r.out


# Corpus files whose page 1 shows no title a reader sees: stamped with a record of pdftotext's
# first line, they are not trusted, and verify says why (README, "What `trusted` means").
EXIT_OF = {"trusted": 0, "invalid": 1, "unverified": 4}
SCAN = "a scanned page: its text is an invisible OCR layer over the image, which cannot bind a title"
NO_VISIBLE_TITLE = {
    "valid/Seige_of_Vicksburg_Sample_OCR.pdf": ("unverified", "pith.title.none", SCAN),
    "valid/epson-scan-indirect-rotation.pdf": ("unverified", "pith.title.none", SCAN),
    "valid/issue-301.pdf": ("unverified", "pith.title.none", SCAN),
    "pdfa/pikepdf-jbig2global.pdf": ("unverified", "pith.title.none", SCAN),
    "pdfa/pikepdf-sandwich-ocr.pdf": ("unverified", "pith.title.none", SCAN),
    "encrypted/adobe-supplement_iso32000-rc4-owner-protected.pdf": ("invalid", "pith.title.hidden",
                                                                     "its first line, \"bc\", is a logo whose \"b\" is not painted; "
                                                                     "the title is the lines below it"),
    "pdfa/verapdf-a1b-6-2-3-4-t01-pass-b.pdf": ("invalid", "pith.title.pixels.faint",
                                                "\"Hello World\" in yellow on white: a contrast of 1.2:1, which a reader barely sees"),
    "valid/AutoCad_Diagram.pdf": ("invalid", "pith.title.not_title",
                                  "a drawing: its first line, \"27 mm\", is a dimension label in smaller type than the page's text"),
}
# Corpus files whose title the pixels cannot read (logos and symbols: doc/known-limits.md).
# pith stamp refuses them (stamp.title_unchecked: verify would not say trusted) unless told
# --no-title-check; verify then says unverified (pith.title.pixels.unverified).
PIXELS_UNREADABLE = {
    "valid/podofo-TestXRefCheckboxUnicode.pdf": "a title that is one check mark",
}


# Corpus files whose document or page 1 does what pith's closed list lacks (doc/trust.md#the-closed-list),
# and what the refusal names: pith stamp refuses them (stamp.construct_unlisted) unless told
# --allow-unlisted; verify then says unverified (pith.construct.unlisted).
UNLISTED = {
    "signed/pikepdf-form_210966-designer-signed.pdf": "an XFA form",
    "encrypted/pikepdf-form_dd0293-designer-aes.pdf": "an XFA form",
    "valid/podofo-TestIndexedRGB-pdfcreator.pdf": "document-level JavaScript",
    "encrypted/qpdf-enc-R6-U=view-attachments-cleartext-metadata.pdf": "document-level JavaScript",
    "encrypted/encrypted_doc_no_id.pdf": "the page has actions on events (/AA)",
    "malformed/issue-117.pdf": "the number \"2`1\"",
    "malformed/issue-297.pdf": "open action runs a /JavaScript action",
    # pikepdf's test of `0 cm`: poppler drops the rest of the content there, MuPDF draws on
    "valid/ctm_cm.pdf": "content operator cm with 1 operands (it takes 6)",
}


# Corpus files whose first line is not their title: the title they show, and what the first line is.
HELLO = ("Hello World", "its first line is a signature field's appearance, in type smaller than the title")
TITLE_SHOWN = {
    "signed/extensions-direct.pdf": HELLO,
    "signed/form-update-override-appearance-stream.pdf": HELLO,
    "signed/minimal-signed-twice-both-created.pdf": HELLO,
    "signed/pades-lta-dss-indirect-arrs-test-2.pdf": HELLO,
    "signed/pikepdf-form_210966-designer-signed.pdf": (
        "INTENT TO FILE A CLAIM FOR COMPENSATION AND/OR PENSION, OR SURVIVORS PENSION AND/OR DIC",
        "a form: its first lines are the small print of its top corner"),
    "large/tug2005.pdf": (
        "PRACTICAL USE OF SPECIAL COMMANDS IN DVIPDFMx", "a title over five lines in two sizes: the first line is its start"),
    "valid/test-Orient-MS-Print-To-PDF.pdf": (
        "(T) This is box text at top", "a test of text turned four ways: pdftotext's first line reads top to bottom"),
}


def pdf_title(path, password, rel=None):
    """The title page 1 shows: TITLE_SHOWN's, else its first non-empty line as pdftotext prints
    it (white space kept)."""
    text = page_text(path, 1, password) or ""
    if rel in TITLE_SHOWN:
        title = TITLE_SHOWN[rel][0]
        if title not in " ".join(text.split()):
            raise SystemExit("TITLE_SHOWN: %r is not on page 1 of %s" % (title, rel))
        return title
    for line in text.split("\n"):
        if line.strip():
            return line.rstrip("\f")
    return None


def pdfsig_lines(path, password):
    r = run(["pdfsig"] + pw_args("-upw", password) + [path])
    if r.timed_out:
        return None, None
    validation = [l.strip() for l in r.out.splitlines() if "Signature Validation:" in l]
    total = [l.strip() for l in r.out.splitlines() if "total document signed" in l.lower()]
    return validation, total


def template_properties(repo):
    with open(os.path.join(repo, "templates", "pith-xmp.json"), encoding="utf-8") as f:
        t = json.load(f)
    assert t["namespace"] == PITH_NS
    return [(p["name"], p["valueType"]) for p in t["properties"]]


# ------------------------------------------------------------------ corpus

def manifest(corpus):
    with open(os.path.join(corpus, "MANIFEST.tsv"), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def safe(rel):
    return rel.replace("/", "__")


class Ctx:
    def __init__(self, args):
        self.pith = os.path.abspath(args.pith)
        self.corpus = args.corpus
        self.out = os.path.abspath(args.out)
        self.repo = args.repo
        self.seed = os.path.join(args.repo, SEED_REL)
        with open(self.seed, encoding="utf-8") as f:
            self.seed_number = json.load(f)["pith_number"]
        self.props = template_properties(args.repo)
        home = os.path.join(self.out, "home")
        os.makedirs(home, exist_ok=True)
        # Verify without --keyring must not find a keyring of the person running the tests.
        self.env = dict(os.environ, HOME=home)
        self.env.pop("PITH_KEYRING", None)
        self.secret = os.path.join(self.out, "corpus-test.key")
        self.keyring = os.path.join(self.out, "corpus-test-keyring.json")
        r = run([self.pith, "keygen", "--key-id", "corpus-test", "--secret", self.secret,
                 "--keyring", self.keyring], env=self.env)
        if r.rc != 0:
            raise SystemExit("pith keygen failed: " + r.brief())

    def pith_run(self, *args, timeout=STAMP_TIMEOUT):
        return run([self.pith] + list(args), timeout=timeout, env=self.env)

    def make_record(self, work, source_id, title):
        """A pith_number_record without receipt for `title` (None: no title), signed by the test key."""
        meta = {"submitted_at": "2024-01-01T00:00:00Z"}
        if title is not None:
            meta["title_canon_sha256"] = hashlib.sha256(title.lower().encode("utf-8")).hexdigest()
        rec = {"record_type": "pith_number_record",
               "canonical_record": {"metadata": meta, "schema_version": "1.0",
                                    "source": {"id": source_id, "kind": "test", "version": 1}}}
        if title is not None:
            rec["paper"] = {"title": title}
        unsigned = os.path.join(work, "record.json")
        signed = os.path.join(work, "record-signed.json")
        with open(unsigned, "w", encoding="utf-8") as f:
            json.dump(rec, f, ensure_ascii=False)
        r = self.pith_run("sign", unsigned, "--secret", self.secret, "-o", signed)
        if r.rc != 0:
            return None, None, "pith sign failed: " + r.brief()
        with open(signed, encoding="utf-8") as f:
            number = json.load(f)["pith_number"]
        return signed, number, None


def short_of(number):
    return "pith:" + number.split(":")[2][:8]


def body_of(number):
    return number.split(":")[2]


def verify_json(ctx, path, password, keyring, extra=()):
    args = ["verify", path, "--json"] + (["--keyring", keyring] if keyring else []) + list(extra)
    args += ["--password", password] if password else []
    r = ctx.pith_run(*args)
    try:
        j = json.loads(r.out) if r.out.strip() else None
    except ValueError:
        j = None
    return r, j


def codes(j, kind):
    return [x.get("code") for x in (j or {}).get(kind, [])]


# ------------------------------------------------------------------ stamped-file checks

def compare_xmp(before, after):
    """Every XMP property of `before` appears in `after` with the same value (lists: as a sub-multiset)."""
    problems = []
    for k, v in before.items():
        if not k.startswith("XMP"):
            continue
        if k not in after:
            problems.append("XMP property %s lost (was %r)" % (k, str(v)[:80]))
        elif isinstance(v, list) and isinstance(after[k], list):
            rest = list(after[k])
            for item in v:
                if item in rest:
                    rest.remove(item)
                else:
                    problems.append("XMP list %s lost item %r" % (k, str(item)[:80]))
                    break
        elif after[k] != v:
            problems.append("XMP property %s changed: %r -> %r" % (k, str(v)[:80], str(after[k])[:80]))
    return problems


def check_pdfa_schema(ctx, packet):
    """The packet declares every pith property in a pdfaExtension schema for the pith namespace."""
    problems = []
    try:
        start = packet.index(b"<x:xmpmeta") if b"<x:xmpmeta" in packet else packet.index(b"<rdf:RDF")
        end_tag = b"</x:xmpmeta>" if b"<x:xmpmeta" in packet else b"</rdf:RDF>"
        root = ET.fromstring(packet[start:packet.rindex(end_tag) + len(end_tag)])
    except (ValueError, ET.ParseError) as e:
        return ["XMP packet is not well-formed XML: %s" % e]

    def value(el, ns, local):
        """Value of property ns:local on el, as attribute or child element."""
        a = el.get("{%s}%s" % (ns, local))
        if a is not None:
            return a
        c = el.find("{%s}%s" % (ns, local))
        return c.text.strip() if c is not None and c.text else None

    schema = None
    for el in root.iter():
        if value(el, PDFA_SCHEMA_NS, "namespaceURI") == PITH_NS:
            schema = el
            break
    if schema is None:
        return ["no pdfaExtension schema with pdfaSchema:namespaceURI %s in the XMP packet" % PITH_NS]
    prefix = value(schema, PDFA_SCHEMA_NS, "prefix")
    if prefix != "pith":
        problems.append("pdfaSchema:prefix is %r, not 'pith'" % prefix)
    declared = {}
    for el in schema.iter():
        name = value(el, PDFA_PROPERTY_NS, "name")
        if name is not None and el is not schema:
            declared[name] = value(el, PDFA_PROPERTY_NS, "valueType")
    for name, vtype in ctx.props:
        if name not in declared:
            problems.append("pith property %s not declared (pdfaProperty:name) in the pdfaExtension schema" % name)
        elif declared[name] != vtype:
            problems.append("pdfaProperty %s has valueType %r, template says %r" % (name, declared[name], vtype))
    return problems


def check_link(doc, page, number, badge_rect):
    problems = []
    links = [(u, r) for u, r in doc.links(page) if u and u.startswith(RESOLVER)]
    want = RESOLVER + body_of(number)
    if len(links) != 1:
        problems.append("page %d has %d link annotations to %s (want exactly 1): %s"
                        % (page, len(links), RESOLVER, [u for u, _ in links]))
    for uri, rect in links:
        if uri != want:
            problems.append("badge link URI %s, want %s" % (uri, want))
        if badge_rect and rect and any(abs(a - b) > 1.0 for a, b in zip(sorted_rect(rect), sorted_rect(badge_rect))):
            problems.append("link /Rect %s differs from the badge rect %s that stamp reported" % (rect, badge_rect))
    if not re.fullmatch(re.escape(RESOLVER) + r"[A-Z2-7]{26}", want):
        problems.append("resolver URL %s is not %s + 26 base32 characters" % (want, RESOLVER))
    return problems


def sorted_rect(r):
    return [min(r[0], r[2]), min(r[1], r[3]), max(r[0], r[2]), max(r[1], r[3])]


def stamp(ctx, inp, record, out, password, extra=()):
    args = ["stamp", inp, "--record", record, "-o", out, "--json"] + list(extra)
    args += ["--password", password] if password else []
    r = ctx.pith_run(*args)
    summary = None
    if r.rc == 0:
        try:
            summary = json.loads(r.out)
        except ValueError:
            pass
    return r, summary


# Inputs where an independent tool cannot see part of what pith wrote, for reasons in the
# input itself (doc/known-limits.md); the other checks still apply to them.
POPPLER_ABORTS_CONTENT = {
    # poppler stops a page's content at an operator with too few operands ("0 cm"), so the
    # badge drawn after it is not rendered or extracted by poppler (other renderers show it).
    "valid/ctm_cm.pdf",
}
QPDF_KNOWN = {
    # Linearized and damaged: qpdf checks the input through its linearization data and never
    # reads object 78, whose /Length is wrong; after any update it reads it and recovers.
    "large/unreadablemetadata.pdf": "recovered stream length",
}
NO_PAGE_TREE = {
    # The catalog has no /Pages (qpdf counts 0 pages): pith embeds the metadata, draws no badge.
    "large/unreadablemetadata.pdf",
}


def check_stamped_file(ctx, row):
    """Checks 1, 2, 4 and 5 for one corpus file. Returns (status, [problems], info)."""
    rel = row["file"]
    inp = os.path.join(ctx.corpus, rel)
    password = row.get("password") or ""
    work = os.path.join(ctx.out, safe(rel))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    problems = []
    info = []
    features = row.get("features", "")

    if "PubSec" in features:
        # Public-key security handler: cannot be opened, so it must be refused like a malformed file.
        return check_refused(ctx, rel, inp, work, expect_verify=2)

    # Record for this PDF: the title page 1 shows.
    title = pdf_title(inp, password, rel)
    signed, number, err = ctx.make_record(work, safe(rel), title)
    if err:
        return "FAIL", [err], info
    if title is None:
        info.append("no page-1 text: record without title")

    # Damaged like a malformed file: refused with a one-line error naming the damage, then
    # stamped (and read) with --allow-damaged; every other check applies.
    allow = []
    if rel in DAMAGED_CORPUS_FILES:
        allow = ["--allow-damaged"]
        refused_out = os.path.join(work, "refused.pdf")
        r, _ = stamp(ctx, inp, signed, refused_out, password)
        msg = r.err.strip()
        if r.rc != 2 or "damaged PDF" not in msg or "--allow-damaged" not in msg or len(msg.splitlines()) != 1:
            problems.append("damaged input: want exit 2 and one line naming the damage and --allow-damaged, got %s"
                            % r.brief())
        if os.path.exists(refused_out):
            problems.append("refused damaged input left an output file")
        info.append("damaged (%s): refused, then stamped with --allow-damaged" % DAMAGED_CORPUS_FILES[rel])

    # Unstamped input: absent (3).
    r, j = verify_json(ctx, inp, password, None, allow)
    if r.rc != 3 or (j or {}).get("state") != "absent":
        problems.append("verify on the unstamped input: want absent/exit 3, got %s/exit %s %s"
                        % ((j or {}).get("state"), r.rc, r.err.strip()[:200]))

    in_doc, err = qpdf_json(inp, password)
    docmdp = bool(in_doc and in_doc.docmdp())
    out = os.path.join(work, "stamped.pdf")
    force = list(allow)
    if docmdp:
        r, _ = stamp(ctx, inp, signed, out, password)
        if r.rc == 0:
            problems.append("certified (DocMDP) PDF stamped without --force")
        elif r.crashed() or r.timed_out:
            problems.append("stamp of certified PDF without --force crashed/hung: " + r.brief())
        else:
            msg = r.err.strip()
            if not re.search(r"certif|DocMDP", msg, re.I) or "--force" not in msg:
                problems.append("refusal of certified PDF does not say why / mention --force: %r" % msg[:300])
            if len(msg.splitlines()) != 1:
                problems.append("refusal of certified PDF is not one line: %r" % msg[:300])
        if os.path.exists(out):
            problems.append("refused certified stamp left an output file")
        leftovers = sorted(set(os.listdir(work)) - {"record.json", "record-signed.json"})
        if leftovers:
            problems.append("refused certified stamp left files in the output dir: %s" % leftovers)
        force += ["--force"]
        info.append("DocMDP: refused without --force, stamped with --force")

    # pith stamp makes verify's title check first: where page 1 shows the record's title only
    # where it cannot bind (stamp.title_not_shown), or where it cannot be checked at all (a scan,
    # a record without a title: stamp.title_unchecked), stamp refuses (and writes nothing) unless
    # told --no-title-check: what it stamps without an override, verify calls trusted.
    expected = NO_VISIBLE_TITLE.get(rel, ("",))[0]
    if expected or title is None or rel in PIXELS_UNREADABLE:
        r, _ = stamp(ctx, inp, signed, out, password, force)
        code = "[stamp.title_not_shown]" if expected == "invalid" and rel not in PIXELS_UNREADABLE else "[stamp.title_unchecked]"
        if r.rc != 2 or code not in r.err or "--no-title-check" not in r.err or os.path.exists(out):
            problems.append("stamp of a page whose title cannot bind: want refused (exit 2, %s, no output), got %s"
                            % (code, r.brief()))
        force += ["--no-title-check"]
        info.append("title check: refused %s, then stamped with --no-title-check" % code)
    if rel in UNLISTED:
        r, _ = stamp(ctx, inp, signed, out, password, force)
        if r.rc != 2 or "[stamp.construct_unlisted]" not in r.err or UNLISTED[rel] not in r.err or os.path.exists(out):
            problems.append("stamp of a file off the closed list: want refused (exit 2, stamp.construct_unlisted naming "
                            "%s, no output), got %s" % (UNLISTED[rel], r.brief()))
        force += ["--allow-unlisted"]
        info.append("closed list: refused (%s), then stamped with --allow-unlisted" % UNLISTED[rel])
    r, summary = stamp(ctx, inp, signed, out, password, force)
    if r.rc != 0 or summary is None:
        return "FAIL", problems + ["pith stamp failed: " + r.brief()], info
    want_title = "not checked" if rel in NO_VISIBLE_TITLE or rel in PIXELS_UNREADABLE or title is None else "shown"
    if not str(summary.get("title", "")).startswith(want_title):
        problems.append("stamp's title check: want %r, got %r" % (want_title, summary.get("title")))
    page = (summary.get("badge") or {}).get("page", 1)
    badge_rect = (summary.get("badge") or {}).get("rect")
    no_badge = rel in NO_PAGE_TREE
    if no_badge:
        if summary.get("badge") or not any("no usable page tree" in w for w in summary.get("warnings", [])):
            problems.append("no page tree: want a warning and no badge, got %r" % summary)
        info.append("no page tree: metadata only")
    elif not summary.get("badge"):
        problems.append("stamp summary has no badge: %r" % summary.get("badge"))
    if page != 1:
        problems.append("badge on page %s, default is page 1" % page)
    if summary.get("number") != number:
        problems.append("stamp summary number %s, want %s" % (summary.get("number"), number))

    data_in = open(inp, "rb").read()
    data_out = open(out, "rb").read()
    if not data_out.startswith(data_in):
        problems.append("input is not a byte prefix of the output")
    inc1 = len(data_out) - len(data_in)

    # qpdf --check: nothing new.
    rc_in, lines_in = qpdf_check(inp, password)
    rc_out, lines_out = qpdf_check(out, password)
    if lines_out is None:
        problems.append("qpdf --check on the output crashed or timed out (rc %s)" % rc_out)
    elif lines_in is None:
        info.append("qpdf --check on the input crashed/timed out; output rc %s" % rc_out)
    else:
        new = sorted(l for l in lines_out - lines_in if not (rel in QPDF_KNOWN and QPDF_KNOWN[rel] in l))
        if new:
            problems.append("qpdf --check reports new problems: %s" % "; ".join(new)[:600])
        if rc_out != rc_in and not (rc_in == 3 and rc_out == 0):
            problems.append("qpdf --check exit %s on the input, %s on the output" % (rc_in, rc_out))

    # XMP: pith properties + everything the input had.
    encrypted = "encrypted(" in features
    # The input may be read-only; decrypted copies go to the work dir.
    ex_in, err_in = exif(shutil.copy(inp, os.path.join(work, "input.pdf")) if encrypted else inp, password,
                         encrypted)
    if encrypted:
        os.remove(os.path.join(work, "input.pdf"))
    ex_out, err_out = exif(out, password, encrypted)
    out_doc, err_doc = qpdf_json(out, password)
    if ex_in is not None and ex_out is not None and "ExifTool:Error" in ex_in and "ExifTool:Error" in ex_out:
        info.append("exiftool cannot read this file (%s): XMP read with qpdf" % ex_in["ExifTool:Error"])
        if out_doc is None:
            err_out = err_doc
        else:
            ex_in = {}
            ex_out = qpdf_xmp(out, password, out_doc)
    if err_in or err_out:
        problems.append(err_in or err_out)
    else:
        problems += compare_xmp(ex_in, ex_out)
        want = {"XMP-pith:Number": number, "XMP-pith:ShortNumber": short_of(number),
                "PDF:PithNumber": number, "XMP-pith:ResolverUrl": RESOLVER + body_of(number)}
        with open(signed, encoding="utf-8") as f:
            srec = json.load(f)
        want["XMP-pith:CanonicalSha256"] = srec["canonical_sha256"]
        for k, v in want.items():
            if ex_out.get(k) != v:
                problems.append("%s is %r, want %r" % (k, ex_out.get(k), v))
        rec_text = ex_out.get("XMP-pith:CanonicalRecord")
        try:
            if json.loads(rec_text) != srec["canonical_record"]:
                problems.append("XMP-pith:CanonicalRecord is not the record's canonical_record")
        except (TypeError, ValueError):
            problems.append("XMP-pith:CanonicalRecord missing or not JSON: %r" % str(rec_text)[:100])
        if title is not None and str(ex_out.get("XMP-pith:Title")) != title:  # exiftool -j: "4" -> 4
            problems.append("XMP-pith:Title is %r, want %r" % (ex_out.get("XMP-pith:Title"), title))

        # PDF/A: still declared, pith schema declared in pdfaExtension, metadata unfiltered.
        part_in = ex_in.get("XMP-pdfaid:Part")
        if part_in is not None or rel.startswith("pdfa/"):
            for k in ("XMP-pdfaid:Part", "XMP-pdfaid:Conformance"):
                if ex_in.get(k) != ex_out.get(k):
                    problems.append("PDF/A: %s %r -> %r" % (k, ex_in.get(k), ex_out.get(k)))
            if part_in is None:
                info.append("in pdfa/ but exiftool sees no pdfaid:part in the input")
            packet = xmp_packet(out, password)
            if packet is None:
                problems.append("PDF/A: could not read the output's XMP packet")
            else:
                problems += ["PDF/A: " + p for p in check_pdfa_schema(ctx, packet)]

    # Badge text on the stamped page.
    text = None if no_badge else page_text(out, page, password)
    if no_badge or rel in POPPLER_ABORTS_CONTENT:
        info.append("badge text not checked with poppler (known input defect)")
    elif text is None:
        problems.append("pdftotext failed on the output")
    elif short_of(number) not in text:
        problems.append("pdftotext -f %d -l %d does not show %s" % (page, page, short_of(number)))

    # Link annotation (independent reader: qpdf --json) and metadata stream.
    if err_doc:
        problems.append(err_doc)
    elif not no_badge:
        problems += check_link(out_doc, page, number, badge_rect)
        md = out_doc.metadata_stream_dict()
        if md is None:
            problems.append("catalog /Metadata is not a stream")
        elif "/Filter" in md and (part_in is not None or rel.startswith("pdfa/")):
            problems.append("PDF/A: metadata stream is filtered: %s" % md.get("/Filter"))

    # Verify: unverified + receipt.key_unknown without keyring (invalid where the title fails);
    # trusted with it.
    keyless = NO_VISIBLE_TITLE.get(rel, ("unverified",))[0]
    r, j = verify_json(ctx, out, password, None, allow)
    if (j or {}).get("state") != keyless or r.rc != EXIT_OF[keyless] or "receipt.key_unknown" not in codes(j, "informational"):
        problems.append("verify without keyring: want " + keyless + " with receipt.key_unknown, got %s/exit %s "
                        "failures=%s info=%s" % ((j or {}).get("state"), r.rc, (j or {}).get("failure"),
                                                  codes(j, "informational")))
    # A record without a title binds to no page: never trusted (README, "What `trusted` means");
    # nor does a first line that is no title a reader sees (NO_VISIBLE_TITLE).
    want, want_rc = ("trusted", 0) if title is not None else ("unverified", 4)
    want_code = None
    if rel in NO_VISIBLE_TITLE:
        want, want_code, why = NO_VISIBLE_TITLE[rel]
        want_rc = 1 if want == "invalid" else 4
        info.append("no visible title: " + why)
    elif rel in PIXELS_UNREADABLE:
        want, want_rc, want_code = "unverified", 4, "pith.title.pixels.unverified"
        info.append("pixels unreadable: " + PIXELS_UNREADABLE[rel])
    elif rel in UNLISTED and title is not None:
        want, want_rc, want_code = "unverified", 4, "pith.construct.unlisted"
    r, j = verify_json(ctx, out, password, ctx.keyring, allow)
    if (j or {}).get("state") != want or r.rc != want_rc:
        problems.append("verify --keyring: want %s/exit %d, got %s/exit %s failures=%s %s"
                        % (want, want_rc, (j or {}).get("state"), r.rc, (j or {}).get("failure"), r.err.strip()[:200]))
    elif want_code and want_code not in codes(j, "failure") + codes(j, "informational"):
        problems.append("verify --keyring: want %s, got %s" % (want_code, codes(j, "failure") + codes(j, "informational")))
    elif title is None and "pith.title.none" not in codes(j, "informational"):
        problems.append("record without title: verify should report pith.title.none, got %s"
                        % codes(j, "informational"))

    # Signatures.
    if "signed(" in features or rel.startswith("signed/"):
        before, tot_before = pdfsig_lines(inp, password)
        after, tot_after = pdfsig_lines(out, password)
        if before is None or after is None:
            problems.append("pdfsig timed out")
        else:
            valid_before = sum("is Valid" in l for l in before)
            if len(after) != len(before):
                problems.append("pdfsig: %d signatures before, %d after" % (len(before), len(after)))
            for i, (b, a) in enumerate(zip(before, after)):
                if b != a and "is Valid" in b:
                    problems.append("pdfsig signature #%d: %r -> %r" % (i + 1, b, a))
                elif b != a:  # not valid before (e.g. a /ByteRange beyond EOF): nothing to keep
                    info.append("signature #%d was not valid before: %r -> %r" % (i + 1, b, a))
            if any("Total document signed" == t for t in tot_after):
                problems.append("pdfsig says a signature covers the whole stamped file (it cannot)")
            info.append("signatures: %d, valid before: %d" % (len(before), valid_before))

    # Re-stamp with another record (the seed), then again with this file's record.
    out2 = os.path.join(work, "restamped.pdf")
    out3 = os.path.join(work, "restamped-again.pdf")
    # Another number over an earlier stamp is refused (one paper, one number) and leaves no file;
    # --replace replaces it. The seed's title is not this paper's: --no-title-check.
    r, _ = stamp(ctx, out, ctx.seed, out2, password, force + ["--no-title-check"])
    if r.rc != 2 or "stamp.other_number" not in r.err and "never show two" not in r.err or os.path.exists(out2):
        problems.append("re-stamp with another number without --replace: want refused (exit 2), got " + r.brief())
    r, s2 = stamp(ctx, out, ctx.seed, out2, password, force + ["--no-title-check", "--replace"])
    if r.rc != 0 or s2 is None:
        problems.append("re-stamp with the seed record failed: " + r.brief())
    else:
        problems += check_restamp(ctx, data_in, out2, password, ctx.seed_number, number, page, s2, "re-stamp",
                                  encrypted, rel=rel, allow=allow)
        r, s3 = stamp(ctx, out2, signed, out3, password, force + ["--replace"])
        if r.rc != 0 or s3 is None:
            problems.append("third stamp failed: " + r.brief())
        else:
            problems += check_restamp(ctx, data_in, out3, password, number, ctx.seed_number, page, s3,
                                      "third stamp", encrypted, rel=rel, allow=allow)
            # A re-stamp replaces pith's own update (or appends one of similar size): the file must not
            # keep growing. Same record -> same size as the first output (timestamps are fixed-width).
            size1, size2, size3 = len(data_out), os.path.getsize(out2), os.path.getsize(out3)
            if abs(size3 - size1) > max(512, inc1 // 50):
                problems.append("file keeps growing: first output %d bytes, after two re-stamps with the same "
                                "record %d bytes" % (size1, size3))
            if abs(size2 - size1) > inc1 // 4 + 4096:
                problems.append("re-stamped output %d bytes vs first output %d bytes" % (size2, size1))
            info.append("sizes in %d, out %d/%d/%d" % (len(data_in), size1, size2, size3))
            r, j = verify_json(ctx, out3, password, ctx.keyring, allow)
            want = "trusted" if title is not None and rel not in PIXELS_UNREADABLE and rel not in UNLISTED else "unverified"
            if rel in NO_VISIBLE_TITLE:
                want = NO_VISIBLE_TITLE[rel][0]
            if (j or {}).get("state") != want:
                problems.append("verify after stamp/re-stamp/re-stamp: want %s, got %s failures=%s"
                                % (want, (j or {}).get("state"), (j or {}).get("failure")))

    if not problems and not ctx.keep:
        for name in ("restamped.pdf",):
            try:
                os.remove(os.path.join(work, name))
            except OSError:
                pass
    return ("FAIL" if problems else "PASS"), problems, info


def check_restamp(ctx, data_in, out, password, number, old_number, page, summary, what, encrypted, rel="", allow=()):
    problems = []
    if not open(out, "rb").read().startswith(data_in):
        problems.append("%s: the original input is not a byte prefix of the output" % what)
    if not summary.get("replaced_previous_stamp"):
        problems.append("%s: stamp summary does not say replaced_previous_stamp" % what)
    r = ctx.pith_run("extract", out, "--json", *allow, *(["--password", password] if password else []))
    try:
        x = json.loads(r.out)
    except ValueError:
        return problems + ["%s: pith extract --json failed: %s" % (what, r.brief())]
    badges = [l for l in x.get("links", []) if l.get("pith_badge")]
    if len(badges) != (0 if rel in NO_PAGE_TREE else 1):
        problems.append("%s: pith extract finds %d badge links, want 1: %s"
                        % (what, len(badges), [l.get("uri") for l in badges]))
    for l in badges:
        if l.get("uri") != RESOLVER + body_of(number):
            problems.append("%s: badge link %s, want %s" % (what, l.get("uri"), RESOLVER + body_of(number)))
    if (x.get("xmp") or {}).get("pith", {}).get("number") != number:
        problems.append("%s: extract XMP number %r" % (what, (x.get("xmp") or {}).get("pith", {}).get("number")))
    if (x.get("info") or {}).get("PithNumber") != number:
        problems.append("%s: extract Info /PithNumber %r" % (what, (x.get("info") or {}).get("PithNumber")))
    ex, err = exif(out, password, encrypted)
    doc, err_doc = qpdf_json(out, password)
    if ex is not None and "ExifTool:Error" in ex and doc is not None:
        ex = qpdf_xmp(out, password, doc)
    if err:
        problems.append("%s: %s" % (what, err))
    else:
        for k, v in (("XMP-pith:Number", number), ("PDF:PithNumber", number),
                     ("XMP-pith:ShortNumber", short_of(number))):
            if ex.get(k) != v:
                problems.append("%s: %s is %r, want %r" % (what, k, ex.get(k), v))
    if rel in NO_PAGE_TREE:
        return problems
    if err_doc:
        problems.append("%s: %s" % (what, err_doc))
    else:
        problems += ["%s: %s" % (what, p) for p in check_link(doc, page, number, (summary.get("badge") or {}).get("rect"))]
    if rel in POPPLER_ABORTS_CONTENT:
        return problems
    text = page_text(out, page, password) or ""
    if short_of(number) not in text:
        problems.append("%s: page text lacks %s" % (what, short_of(number)))
    if short_of(old_number) in text:
        problems.append("%s: page text still shows the old badge %s" % (what, short_of(old_number)))
    return problems


def sound_output(ctx, inp, out, allow):
    """A damaged input stamped anyway: the input is a byte prefix, qpdf finds no new errors, and
    verify reads the output (pith data present) and the input (absent). Returns (problems, info)."""
    problems, info = [], []
    data_in = open(inp, "rb").read()
    if not os.path.exists(out):
        return ["stamp exited 0 but wrote no output"], info
    if not open(out, "rb").read().startswith(data_in):
        problems.append("input is not a byte prefix of the output")
    rc_in, lines_in = qpdf_check(inp, "")
    rc_out, lines_out = qpdf_check(out, "")
    if lines_out is None:
        if lines_in is None:
            info.append("qpdf crashes/hangs on input and output alike (rc %s / %s)" % (rc_in, rc_out))
        else:
            problems.append("qpdf --check crashes/hangs on the output (rc %s), not on the input" % rc_out)
    elif lines_in is not None:
        # qpdf recovers a damaged file differently once a new xref exists, so new warnings are
        # noted; the output must not have errors the input did not have.
        new = sorted(lines_out - lines_in)
        if rc_out == 2 and rc_in != 2:
            problems.append("qpdf --check: errors on the output only: %s" % "; ".join(new)[:600])
        elif new:
            info.append("qpdf --check: %d new warnings (%s)" % (len(new), new[0][:120]))
    rv, j = verify_json(ctx, out, "", None, allow)
    if rv.crashed() or rv.timed_out or rv.rc == 2 or (j or {}).get("state") in (None, "absent"):
        problems.append("verify on the stamped output: %s state %s" % (rv.brief(), (j or {}).get("state")))
    rv = ctx.pith_run("verify", inp, *allow)
    if rv.rc != 3:
        problems.append("verify on the input: want absent (3), got %s" % rv.brief())
    return problems, info


def check_refused(ctx, rel, inp, work, expect_verify):
    """Check 3: a clean one-line error, no output, no temp files, no crash, no hang; verify exits
    `expect_verify`. A damaged file pith can read around ("damaged PDF") is then stamped with
    --allow-damaged, and that output must be sound."""
    problems, info = [], []
    outdir = os.path.join(work, "out")
    os.makedirs(outdir)
    out = os.path.join(outdir, "stamped.pdf")
    r, summary = stamp(ctx, inp, ctx.seed, out, "")
    if r.timed_out:
        return "FAIL", ["pith stamp hung (> %d s)" % STAMP_TIMEOUT], info
    if r.crashed():
        return "FAIL", ["pith stamp crashed: exit %s; stderr: %s" % (r.rc, r.err.strip()[-400:])], info
    if r.rc == 0:
        return "FAIL", ["a malformed file was stamped without --allow-damaged"], info

    info.append("refused: " + r.err.strip()[:200])
    msg = r.err.strip()
    if not msg:
        problems.append("stamp exit %s with nothing on stderr" % r.rc)
    elif len(msg.splitlines()) != 1:
        problems.append("stamp error is %d lines, want 1: %r" % (len(msg.splitlines()), msg[:400]))
    elif len(msg) > 400:
        problems.append("stamp error line is %d characters long" % len(msg))
    if r.out.strip():  # with --json: the error as one JSON object, the same as the line (doc/errors.md)
        try:
            j = json.loads(r.out)
        except ValueError:
            j = {}
        if not isinstance(j, dict) or msg != "pith: %s  [%s]" % (j.get("error"), j.get("error_code")):
            problems.append("stamp printed to stdout on failure, not its error as JSON: %r" % r.out[:200])
    left = os.listdir(outdir)
    if left:
        problems.append("files left in the output dir: %s" % left)
    rv = ctx.pith_run("verify", inp)
    if rv.timed_out or rv.crashed():
        problems.append("verify crashed/hung: " + rv.brief())
    elif rv.rc != expect_verify:
        problems.append("verify: want exit %d, got %s" % (expect_verify, rv.brief()))
    if "damaged PDF" in msg:
        if "--allow-damaged" not in msg:
            problems.append("the refusal of a damaged PDF does not mention --allow-damaged")
        # (the seed record is another paper's: this is about damage, not the title, nor the closed list)
        overrides = ["--allow-damaged", "--no-title-check"]
        if rel in UNLISTED:
            r, _ = stamp(ctx, inp, ctx.seed, out, "", overrides)
            if r.rc != 2 or "[stamp.construct_unlisted]" not in r.err or UNLISTED[rel] not in r.err or os.path.exists(out):
                problems.append("--allow-damaged alone: want refused naming %s, got %s" % (UNLISTED[rel], r.brief()))
            overrides.append("--allow-unlisted")
        r, summary = stamp(ctx, inp, ctx.seed, out, "", overrides)
        if r.rc != 0:
            problems.append("--allow-damaged did not stamp it: " + r.brief())
        else:
            info.append("stamped with --allow-damaged")
            p, i = sound_output(ctx, inp, out, ["--allow-damaged"])
            problems += p
            info += i
    return ("FAIL" if problems else "PASS"), problems, info


# ------------------------------------------------------------------ geometry (check 6)

def render(path, page, out_prefix):
    r = run(["pdftoppm", "-q", "-cropbox", "-r", "72", "-gray", "-f", str(page), "-l", str(page), "-singlefile",
             path, out_prefix])
    if r.rc != 0:
        return None
    return read_pgm(out_prefix + ".pgm")



def display_rect(rect, visible, rotate):
    """Default-user-space rect -> (x0, y0, x1, y1) in pixels of the page as displayed at 72 dpi."""
    cx0, cy0, cx1, cy1 = visible
    w, h = cx1 - cx0, cy1 - cy0
    pts = []
    for x, y in ((rect[0], rect[1]), (rect[2], rect[3]), (rect[0], rect[3]), (rect[2], rect[1])):
        u, v = x - cx0, y - cy0
        if rotate == 0:
            pts.append((u, h - v))
        elif rotate == 90:
            pts.append((v, u))
        elif rotate == 180:
            pts.append((w - u, v))
        else:
            pts.append((h - v, w - u))
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def check_corner(before, after, corner, reach=100, threshold=48):
    """All pixels the stamp changed lie within `reach` px of the corner; returns (problems, bbox)."""
    w, h, a = before
    w2, h2, b = after
    if (w, h) != (w2, h2):
        return ["rendered size changed %dx%d -> %dx%d" % (w, h, w2, h2)], None
    xs0, ys0, xs1, ys1, n = w, h, -1, -1, 0
    dark_new = 0
    for y in range(h):
        row_a = a[y * w:(y + 1) * w]
        row_b = b[y * w:(y + 1) * w]
        if row_a == row_b:
            continue
        for x in range(w):
            d = row_a[x] - row_b[x]
            if d > threshold or d < -threshold:
                n += 1
                if row_b[x] < 128:
                    dark_new += 1
                xs0, ys0, xs1, ys1 = min(xs0, x), min(ys0, y), max(xs1, x), max(ys1, y)
    if n == 0:
        return ["the stamp changed no pixels (no visible badge)"], None
    bbox = (xs0, ys0, xs1, ys1)
    problems = []
    if dark_new < 10:
        problems.append("only %d new dark pixels: badge not visible" % dark_new)
    right = corner.endswith("right")
    top = corner.startswith("top")
    dx = (w - 1 - xs0) if right else xs1
    dy = ys1 if top else (h - 1 - ys0)
    if dx > reach or dy > reach:
        problems.append("changed pixels %s reach %d px across / %d px down from the %s corner of the %dx%d "
                        "displayed page (allowed %d)" % (bbox, dx, dy, corner, w, h, reach))
    return problems, bbox


def geometry_case(ctx, label, inp, record, number, page, visible, rotate, password=""):
    """Stamp each corner, render before/after, check pixels, text and link rect."""
    problems = []
    work = os.path.join(ctx.out, safe(label))
    os.makedirs(work, exist_ok=True)
    before = render(inp, page, os.path.join(work, "before"))
    if before is None:
        return ["pdftoppm failed on the input"]
    for corner in CORNERS:
        out = os.path.join(work, corner + ".pdf")
        # The record names no title (these cases are about the badge's geometry): stamp cannot check one.
        r, s = stamp(ctx, inp, record, out, password, ["--corner", corner, "--page", str(page), "--no-title-check"])
        if r.rc != 0 or s is None:
            problems.append("%s: pith stamp failed: %s" % (corner, r.brief()))
            continue
        after = render(out, page, os.path.join(work, corner))
        if after is None:
            problems.append("%s: pdftoppm failed on the output" % corner)
            continue
        p, bbox = check_corner(before, after, corner)
        problems += ["%s: %s" % (corner, x) for x in p]
        text = page_text(out, page, password) or ""
        if short_of(number) not in text:
            problems.append("%s: pdftotext does not find %s on page %d" % (corner, short_of(number), page))
        doc, err = qpdf_json(out, password)
        if err:
            problems.append("%s: %s" % (corner, err))
        else:
            links = [(u, rc) for u, rc in doc.links(page) if u and u.startswith(RESOLVER)]
            if len(links) != 1:
                problems.append("%s: %d resolver links on page %d" % (corner, len(links), page))
            elif bbox:
                lx0, ly0, lx1, ly1 = display_rect(links[0][1], visible, rotate)
                bx0, by0, bx1, by1 = bbox
                slack = 4
                if bx0 < lx0 - slack or by0 < ly0 - slack or bx1 > lx1 + slack or by1 > ly1 + slack:
                    problems.append("%s: link rect on screen (%.0f %.0f %.0f %.0f) does not cover the badge "
                                    "pixels %s" % (corner, lx0, ly0, lx1, ly1, bbox))
        for suffix in (".pgm",):
            try:
                os.remove(os.path.join(work, corner + suffix))
            except OSError:
                pass
    return problems


def page_geometry(doc, n):
    """(visible box, rotate) of page n with inheritance, from qpdf JSON."""
    obj = doc.page(n)
    media = crop = rotate = None
    seen = 0
    while isinstance(obj, dict) and seen < 64:
        media = media if media is not None else doc.resolve(obj.get("/MediaBox"))
        crop = crop if crop is not None else doc.resolve(obj.get("/CropBox"))
        rotate = rotate if rotate is not None else doc.resolve(obj.get("/Rotate"))
        obj = doc.resolve(obj.get("/Parent"))
        seen += 1
    media = [float(doc.resolve(v)) for v in media]
    box = [float(doc.resolve(v)) for v in crop] if crop else media
    box = sorted_rect(box)
    m = sorted_rect(media)
    box = [max(box[0], m[0]), max(box[1], m[1]), min(box[2], m[2]), min(box[3], m[3])]
    return box, int(rotate or 0) % 360


# ------------------------------------------------------------------ groups

def group_rows(ctx, group):
    rows = [r for r in manifest(ctx.corpus) if r["file"].startswith(group + "/")]
    return rows


def run_pool(jobs, fn, items):
    if jobs <= 1:
        for it in items:
            yield it, fn(it)
        return
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futs = {ex.submit(fn, it): it for it in items}
        for f in concurrent.futures.as_completed(futs):
            yield futs[f], f.result()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pith", required=True)
    ap.add_argument("--group", required=True,
                    choices=list(STAMP_GROUPS) + ["malformed", "rotated", "synthetic"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--corpus", default=None)
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    ap.add_argument("--only", default=None, help="only files whose path contains this")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("PITH_CORPUS_JOBS", "1")))
    ap.add_argument("--keep", action="store_true", help="keep every intermediate file")
    args = ap.parse_args()

    if os.environ.get("PITH_SHARED"):
        args.corpus = os.path.join(os.environ["PITH_SHARED"], "corpus")
    if args.corpus is None:
        args.corpus = os.path.join(args.repo, "..", "shared", "corpus")
    args.corpus = os.path.abspath(args.corpus)
    # A missing corpus, corpus file or tool fails: tests/corpus/counts.tsv, .ci/deps.
    corpus = corpus_manifest.load(args.corpus) if args.group != "synthetic" else None
    for tool in ("qpdf", "exiftool", "pdftotext", "pdftoppm", "pdfsig"):
        if shutil.which(tool) is None:
            print("FAIL: %s not installed (Debian: qpdf, libimage-exiftool-perl, poppler-utils; .ci/deps)" % tool)
            return 1

    t0 = time.time()
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    ctx = Ctx(args)
    ctx.keep = args.keep
    results = []  # (label, status, problems, info)

    if args.group in STAMP_GROUPS:
        rows = group_rows(ctx, args.group)
        if args.only:
            rows = [r for r in rows if args.only in r["file"]]
        for row, (status, problems, info) in run_pool(args.jobs, lambda r: check_stamped_file(ctx, r), rows):
            results.append((row["file"], status, problems, info, row))
    elif args.group == "malformed":
        rows = group_rows(ctx, "malformed")
        if args.only:
            rows = [r for r in rows if args.only in r["file"]]

        def one(row):
            work = os.path.join(ctx.out, safe(row["file"]))
            os.makedirs(work)
            return check_refused(ctx, row["file"], os.path.join(ctx.corpus, row["file"]), work, expect_verify=2)
        for row, (status, problems, info) in run_pool(args.jobs, one, rows):
            results.append((row["file"], status, problems, info, row))
    elif args.group == "rotated":
        rows = [r for r in manifest(ctx.corpus)
                if "rotat" in (r["features"] + " " + r["notes"]).lower()
                and not r["file"].startswith("malformed/")]
        # tests/corpus.cmake registers this group for the shared corpus only.
        corpus.expect("corpus files with rotated pages", len(rows), shared=2, committed=0)
        if args.only:
            rows = [r for r in rows if args.only in r["file"]]
        for row in rows:
            rel = row["file"]
            inp = os.path.join(ctx.corpus, rel)
            pw = row.get("password") or ""
            work = os.path.join(ctx.out, safe(rel))
            os.makedirs(work, exist_ok=True)
            doc, err = qpdf_json(inp, pw)
            if err:
                results.append((rel, "FAIL", [err], [], row))
                continue
            signed, number, err = ctx.make_record(work, safe(rel), pdf_title(inp, pw, rel))
            if err:
                results.append((rel, "FAIL", [err], [], row))
                continue
            for n in range(1, len(doc.pages) + 1):
                visible, rotate = page_geometry(doc, n)
                label = "%s p%d (Rotate %d)" % (rel, n, rotate)
                problems = geometry_case(ctx, "%s-p%d" % (rel, n), inp, signed, number, n, visible, rotate, pw)
                results.append((label, "FAIL" if problems else "PASS", problems, [], row))
    else:  # synthetic
        names = [n for n in synthetic.CASES if not args.only or args.only in n]
        signed, number, err = ctx.make_record(ctx.out, "synthetic", None)
        if err:
            print(err)
            return 1

        def one(name):
            path = os.path.join(ctx.out, name + ".pdf")
            g = synthetic.build(name, path)
            rc, lines = qpdf_check(path, "")
            if rc != 0:
                return ["test generator wrote an invalid PDF: qpdf --check %s %s" % (rc, lines)]
            visible = sorted_rect(g["crop"] or g["media"])
            return geometry_case(ctx, "synthetic-" + name, path, signed, number, g["stamp_page"], visible,
                                 g["rotate"])
        for name, problems in run_pool(args.jobs, one, names):
            results.append(("synthetic/" + name, "FAIL" if problems else "PASS", problems, [], {}))

    # ---------------------------------------------------------------- report
    if not results:
        print("FAIL: no %s file in the corpus at %s: nothing was checked" % (args.group, args.corpus))
        return 1
    results.sort(key=lambda r: r[0])
    fails = [r for r in results if r[1] == "FAIL"]
    with open(os.path.join(args.out, "results.tsv"), "w", encoding="utf-8") as f:
        for label, status, problems, info, _ in results:
            f.write("%s\t%s\t%s\t%s\n" % (label, status, " | ".join(problems), " | ".join(info)))
    for label, status, problems, info, _ in results:
        print("%-4s %s%s" % (status, label, ("  [" + "; ".join(info) + "]") if info else ""))
        for p in problems:
            print("       - " + p)
    if args.group in STAMP_GROUPS:
        expected = [r for r in results if "PubSec" not in r[4].get("features", "")]
        stamped = [r for r in expected if r[1] == "PASS"]
        print("\n%s: stamped and passed %d / %d expected (+%d that must be refused)"
              % (args.group, len(stamped), len(expected), len(results) - len(expected)))
    else:
        print("\n%s: %d / %d passed" % (args.group, len(results) - len(fails), len(results)))
    print("%d failing; %.1f s; outputs in %s" % (len(fails), time.time() - t0, args.out))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
