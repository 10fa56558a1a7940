#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds the `pith verify` attack suite (issue 14) and proves how each file renders.

usage: build_attacks.py --pith PITH --out DIR [--no-prove] [--only MODULE,...]

Makes a test Ed25519 key and keyrings, signed records for paper A (the record's paper),
B (another paper) and a few more, honest stamped controls, and the attack files, each
built from scratch by this script (pdfgen.py, tests/lib/pdfedit.py; pith only signs and
stamps). DIR/manifest.json lists every file: {name, class, description, expect, claim, proof,
keyring, control}. Then every claim is checked with poppler (pdftoppm, pdftotext, pdfinfo),
MuPDF (mutool draw), exiftool or qpdf/pikepdf, never with pith: a claim that does not hold
fails the build (exit 1). Exit 77 when a needed tool is missing.

--only MODULE,... builds the keys and records A, B, C and then only those attack-class modules'
files: headings_same_type (not in the default build: its counts are expected_counts_words.json's)
or any of titles, resave, viewers, viewers_draw, viewers_draw_outlines, viewers_syntax,
comments_drawn, changes, pixels, words, headings, allowances.
"""
import argparse
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import pdfedit  # noqa: E402
from pgm import read_pgm  # noqa: E402  (also for the attack-class modules: ba.read_pgm)
import pdfgen  # noqa: E402
from pdfgen import pdf_string, stream, text_lines  # noqa: E402
from pithrun import Folder, isolated_env, run_pith  # noqa: E402

TOOLS = ["pdftoppm", "pdftotext", "pdfinfo", "mutool", "exiftool", "qpdf"]
EPOCH = "1780000000"  # 2026-05-28: receipts and stamps are reproducible

TITLE_A = "Sparse Attention Kernels for Long Context Models"
TITLE_B = "Quantum Annealing Schedules for Sparse Graph Colouring"
TITLE_C = "Tensor Network Methods for Lattice Gauge Theories"
AUTHORS = ["Ada Lovelace and Alan Turing", "Institute of Examples"]
BODY = ["Abstract. We describe a method and measure it on several benchmarks.",
        "The results hold for all inputs we tried, and we discuss the limits.",
        "1 Introduction",
        "Large models need long inputs; this paper is about how to serve them.",
        "We first fix notation, then give the algorithm and its analysis.",
        "Section 5 reports measurements; Section 6 concludes."]
HIDDEN_AT = (72, 450)  # where hidden text goes: an empty part of the page
TITLE_RECT = [66, 692, 600, 722]  # around the 18 pt title line at y=700


# ---------------------------------------------------------------------------------------------
# papers

def paper(title_ops=None, title=None, hook=None, info=None, xmp=None, body=BODY, box=(612, 792), cropbox=None):
    """A one-page paper: title (Helvetica-Bold 18), authors, abstract and body (Times), a logo
    Form XObject and an 8x8 image. `hook(doc)` may add {ops, res, annots, catalog} entries."""
    d = pdfgen.Doc()
    catalog, pages, page = d.add(""), d.add(""), d.add("")
    f1 = d.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    f2 = d.add("<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>")
    f3 = d.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding << /Type /Encoding "
               "/BaseEncoding /WinAnsiEncoding /Differences [ 1 /fi /fl ] >> >>")
    content = d.add("")
    logo = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 200 20 ] /Resources << /Font << /F1 %d 0 R >> >>"
                        % f1, "0.3 g 0 0 16 16 re f 0 g BT /F1 9 Tf 22 4 Td (Institute of Examples Press) Tj ET\n"))
    image = d.add(pdfgen.gray_image(0))
    extra = hook(d) if hook else {}
    if title_ops is None:
        title_ops = text_lines("F3", 18, 72, 700, [title if title is not None else TITLE_A], leading=22)
    ops = (title_ops + text_lines("F2", 12, 72, 670, AUTHORS) + text_lines("F2", 10, 72, 630, body)
           + "q 1 0 0 1 72 60 cm /Fm0 Do Q q 40 0 0 40 500 50 cm /Im0 Do Q\n" + extra.get("ops", ""))
    d.set(content, stream("", ops))
    res = {"Font": "/F1 %d 0 R /F2 %d 0 R /F3 %d 0 R" % (f1, f2, f3), "XObject": "/Fm0 %d 0 R /Im0 %d 0 R" % (logo, image)}
    for k, v in extra.get("res", {}).items():
        res[k] = (res.get(k, "") + " " + v).strip()
    resources = " ".join("/%s << %s >>" % kv for kv in res.items())
    boxes = "/MediaBox [ 0 0 %d %d ]" % box + (" /CropBox [ %d %d %d %d ]" % cropbox if cropbox else "")
    annots = " /Annots [ %s ]" % " ".join("%d 0 R" % a for a in extra["annots"]) if extra.get("annots") else ""
    d.set(page, "<< /Type /Page /Parent %d 0 R %s /Resources << %s >> /Contents %d 0 R%s >>"
          % (pages, boxes, resources, content, annots))
    d.set(pages, "<< /Type /Pages /Kids [ %d 0 R ] /Count 1 >>" % page)
    cat = "<< /Type /Catalog /Pages %d 0 R" % pages
    if xmp is not None:
        cat += " /Metadata %d 0 R" % d.add(stream("/Type /Metadata /Subtype /XML", xmp))
    cat += " " + extra.get("catalog", "") + " >>"
    d.set(catalog, cat)
    info_num = d.add("<< " + " ".join("/%s %s" % kv for kv in info.items()) + " >>") if info else None
    return d.write(catalog, info_num)


# object numbers every paper() has (pith keeps them: its stamp is an incremental update)
CATALOG, PAGES, PAGE, F1, F2, F3, CONTENT, LOGO, IMAGE = range(1, 10)


def paper_b(**kw):
    return paper(title=TITLE_B, **kw)


def hide(kind, text):
    """A hook hiding `text` (Helvetica-Bold 18 at HIDDEN_AT) the `kind` way; text "" gives the
    same file without the hidden text (the rendering proof's reference)."""
    x, y = HIDDEN_AT
    s = pdf_string(text)
    show = "BT /F3 18 Tf %g %g Td %s Tj ET" % (x, y, s)

    def hook(d):
        if kind == "mode3":
            return {"ops": "q BT 3 Tr /F3 18 Tf %g %g Td %s Tj ET Q\n" % (x, y, s)}
        if kind == "mode7":
            return {"ops": "q BT 7 Tr /F3 18 Tf %g %g Td %s Tj ET Q\n" % (x, y, s)}
        if kind == "white":
            return {"ops": "q 1 g %s Q\n" % show}
        if kind == "tiny":
            return {"ops": "q BT /F3 0.05 Tf %g %g Td %s Tj ET Q\n" % (x, y, s)}
        if kind == "clipped":
            return {"ops": "q 590 10 1 1 re W n %s Q\n" % show}
        if kind == "covered":
            return {"ops": "q %s Q q 1 g %g %g 500 30 re f Q\n" % (show, x - 6, y - 8)}
        if kind == "outside_cropbox":
            return {"ops": "q BT /F3 18 Tf %g 840 Td %s Tj ET Q\n" % (x, s)}
        if kind == "zero_tm":
            return {"ops": "q BT /F3 18 Tf 0 0 0 0 %g %g Tm %s Tj ET Q\n" % (x, y, s)}
        if kind == "zero_tz":
            return {"ops": "q BT /F3 18 Tf 0 Tz %g %g Td %s Tj ET Q\n" % (x, y, s)}
        if kind == "alpha0":
            gs = d.add("<< /Type /ExtGState /ca 0 /CA 0 >>")
            return {"ops": "q /GSa gs %s Q\n" % show, "res": {"ExtGState": "/GSa %d 0 R" % gs}}
        if kind == "ocg_off":
            ocg = d.add("<< /Type /OCG /Name (Notes) >>")
            return {"ops": "/OC /oc1 BDC %s EMC\n" % show, "res": {"Properties": "/oc1 %d 0 R" % ocg},
                    "catalog": "/OCProperties << /OCGs [ %d 0 R ] /D << /OFF [ %d 0 R ] /Order [ %d 0 R ] >> >>"
                               % (ocg, ocg, ocg)}
        if kind == "form_empty_bbox":
            form = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 0 0 ] /Resources << /Font << /F3 %d 0 R >> >>"
                                % F3, "BT /F3 18 Tf 0 4 Td %s Tj ET\n" % s))
            return {"ops": "q 1 0 0 1 %g %g cm /FmH Do Q\n" % (x, y), "res": {"XObject": "/FmH %d 0 R" % form}}
        if kind.startswith("annot_"):
            tiny = kind == "annot_tiny"
            ap = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 560 24 ] /Resources << /Font << /F3 %d 0 R >> >>"
                              % F3, "BT /F3 18 Tf 2 6 Td %s Tj ET\n" % s))
            rect = "%g %g %g %g" % ((x, y, x + 1, y + 1) if tiny else (x - 2, y - 6, x + 558, y + 18))
            flags = {"annot_tiny": 4, "annot_hidden": 2 | 4, "annot_noview": 32 | 4}[kind]
            a = d.add("<< /Type /Annot /Subtype /Stamp /Rect [ %s ] /F %d /AP << /N %d 0 R >> >>" % (rect, flags, ap))
            return {"annots": [a]}
        raise ValueError(kind)
    return hook


# ---------------------------------------------------------------------------------------------
# pith: keys, records, stamps

class Builder(Folder):
    def __init__(self, pith, out):
        super().__init__(out)
        self.pith, self.out = pith, out
        self.home = os.path.join(out, "home")
        self.entries = []

    def run(self, args):
        rc, so, err = run_pith(self.pith, args, isolated_env(self.home, SOURCE_DATE_EPOCH=EPOCH))
        if rc != 0:
            raise SystemExit("pith %s: exit %d: %s" % (" ".join(args), rc, err.strip()))
        return so


    def record(self, key, title):
        """Signs a record for `title` (title hash: SHA-256 of Python's str.lower()); returns its number."""
        rec = {"record_type": "pith_number_record",
               "canonical_record": {"metadata": {"submitted_at": "2024-01-01T00:00:00Z",
                                                 "title_canon_sha256": hashlib.sha256(title.lower().encode()).hexdigest()},
                                    "schema_version": "1.0", "source": {"id": key, "kind": "test", "version": 1}},
               "paper": {"title": title}}
        with open(self.path("records/%s.json" % key), "w", encoding="utf-8") as f:
            json.dump(rec, f, ensure_ascii=False)
        self.run(["sign", self.path("records/%s.json" % key), "--secret", self.path("keys/test.key"),
                  "-o", self.path("records/%s.signed.json" % key)])
        with open(self.path("records/%s.signed.json" % key)) as f:
            return json.load(f)["pith_number"]

    def stamp(self, data, record, name):
        """Stamps `data` with records/RECORD.signed.json into DIR/name; returns the bytes."""
        src = self.write("work/src-" + os.path.basename(name), data)
        args = ["stamp", src, "--record", self.path("records/%s.signed.json" % record), "-o", self.path(name)]
        # as an attacker stamps: past the title check and the closed list (verify must still not trust it)
        override = ["--no-title-check", "--allow-unlisted"]
        rc, so, err = run_pith(self.pith, args + override, isolated_env(self.home, SOURCE_DATE_EPOCH=EPOCH))
        if rc == 2 and "--no-title-check" in err and "not expected" in err:  # a pith without the flag (yet)
            self.run(args)
        elif rc != 0:
            raise SystemExit("pith %s: exit %d: %s" % (" ".join(args), rc, err.strip()))
        return self.read(name)

    def stamp_checks_title(self, name, record, refused, code="stamp.title_not_shown"):
        """pith stamp's own title check (no --no-title-check) on the input of `name` agrees with
        verify: it refuses an attack's record (exit 2, `code`) and stamps a control."""
        src = self.path("work/src-" + os.path.basename(name))
        args = ["stamp", src, "--record", self.path("records/%s.signed.json" % record), "-o", self.path("work/checked.pdf")]
        rc, so, err = run_pith(self.pith, args, isolated_env(self.home, SOURCE_DATE_EPOCH=EPOCH))
        if (rc, "[%s]" % code in err) != ((2, True) if refused else (0, False)):
            raise SystemExit("%s: pith stamp's title check: exit %d: %s" % (name, rc, err.strip()))

    def add(self, name, data, cls, description, expect, claim, proof, keyring="ring.json", control=False, alt=None):
        """`alt`: {"exit": 2, "error_code": CODE}, the one refusal an attack may give instead (never a bare exit 2)."""
        assert not alt or (alt.get("exit") == 2 and alt.get("error_code")), "%s: an alternative names its error code" % name
        self.write(name, data)
        entry = {"name": name, "class": cls, "description": description, "claim": claim, "proof": proof,
                 "keyring": keyring, "control": control,
                 "expect": {"state": "trusted", "code": None} if control else {"state": expect[0], "code": expect[1]}}
        if alt:
            entry["expect"]["or"] = alt
        self.entries.append(entry)


def setup(b):
    for sub in ("home", "keys", "records", "work"):
        os.makedirs(b.path(sub), exist_ok=True)
    b.run(["keygen", "--key-id", "test-key", "--secret", b.path("keys/test.key"), "--keyring", b.path("ring.json")])
    with open(b.path("ring.json")) as f:
        ring = json.load(f)
    expired = json.loads(json.dumps(ring))
    expired["keys"][0]["not_after"] = "2025-06-30T00:00:00Z"
    revoked = json.loads(json.dumps(ring))
    revoked["keys"][0]["revoked"] = True
    for name, doc in (("ring-expired.json", expired), ("ring-revoked.json", revoked)):
        with open(b.path(name), "w") as f:
            json.dump(doc, f, indent=1)
    b.numbers = {k: b.record(k, t) for k, t in (("A", TITLE_A), ("B", TITLE_B), ("C", TITLE_C))}


def short(number):
    return "pith:" + number.split(":")[2][:8]


# ---------------------------------------------------------------------------------------------
# facts about a stamped file

def show(path, num):
    return pdfedit.show_object(path, num)


def trailer(data):
    return pdfedit.last_trailer(data)[1]


def stamped_facts(b, name):
    """{page, annots, link, badge_rect, xmp, info, badge_form, badge_place, prior} of a stamped paper()."""
    data, path = b.read(name), b.path(name)
    page = show(path, PAGE)
    f = {"page": page, "data": data}
    f["link"] = int(re.search(r"/Annots \[ (?:\d+ 0 R )*?(\d+) 0 R \]", page).group(1))
    link = show(path, f["link"])
    assert "/Link" in link, link
    f["badge_rect"] = [float(v) for v in re.search(r"/Rect \[ ([^\]]+) \]", link).group(1).split()]
    f["xmp"] = int(re.search(r"/Metadata (\d+) 0 R", show(path, CATALOG)).group(1))
    f["info"] = int(pdfedit.trailer_entry(trailer(data), "Info").split()[0])
    f["badge_form"] = int(re.search(r"/PithBadge (\d+) 0 R", page).group(1))
    f["badge_place"] = int(re.search(r"/Contents \[[^\]]* (\d+) 0 R \]", page).group(1))  # drawn last
    f["prior"] = data.index(b"%PithUpdate prior=")
    f["size"] = int(pdfedit.trailer_entry(trailer(data), "Size"))
    return f


def with_annot(page, num):
    return re.sub(r"/Annots \[ ([^\]]*)\]", lambda m: "/Annots [ %s%d 0 R ]" % (m.group(1), num), page)


def rect_text(r):
    return "[ %s ]" % " ".join("%g" % v for v in r)


def white_ap(w, h, extra=""):
    return stream("/Type /XObject /Subtype /Form /BBox [ 0 0 %g %g ] /Resources << /Font << /F3 %d 0 R >> >>"
                  % (w, h, F3), "1 g 0 0 %g %g re f %s\n" % (w, h, extra))


def xmp_text(data, num):
    body = pdfgen.object_body(data, num)
    payload = body[body.index(b"stream") + 6:body.rindex(b"endstream")].strip(b"\r\n")
    return payload.decode("utf-8")


def xmp_object(text):
    return stream("/Type /Metadata /Subtype /XML", text.encode("utf-8"))


# ---------------------------------------------------------------------------------------------
# the files. Proof steps (checked by prove()):
#   ["same_render", other]        pdftoppm and mutool draw give identical pixels for both files
#   ["near_render", other, n, d]  at most n pixels differ, each by at most d gray levels
#   ["differs", other]            both renderers give different pixels for the two files
#   ["region_white", rect]        every pixel of rect (PDF points) is white in both renderers
#   ["region_dark", rect]         rect holds a dark pixel in both renderers
#   ["text_has"/"text_lacks", s]  pdftotext (and mutool draw -F txt with "both") of page 1
#   ["exif", tag, value]          exiftool -a -G1 lists tag with that value
#   ["pdfinfo", regex]            pdfinfo -box -f 1 output matches
#   ["qpdf", num_or_trailer, substring]   qpdf --show-object shows the substring
#   ["render_size", w, h]         both renderers give a w x h pixel page at 72 dpi
#   ["py", name, args]            a check in CHECKS below (pikepdf / raw bytes)

def build_controls(b):
    a = b.stamp(paper(), "A", "control-honest.pdf")
    b.add("control-honest.pdf", a, "control", "paper A stamped with A's record", None,
          "A's title shows on page 1 and the badge shows A's number",
          [["text_has", TITLE_A, "both"], ["text_has", short(b.numbers["A"]), "both"]], control=True)
    f = stamped_facts(b, "control-honest.pdf")
    b.facts = f
    # a viewer's save: Info /ModDate and xmp:ModifyDate
    info = show(b.path("control-honest.pdf"), f["info"])
    info = info[:-2].rstrip() + " /ModDate (D:20260601120000Z) >>"
    xmp = xmp_text(a, f["xmp"])
    date = "<xmp:ModifyDate>2026-06-01T12:00:00Z</xmp:ModifyDate>"
    ns = "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\""
    inside = re.sub(r"(xmlns:pith=\"[^\"]+\")>", lambda m: m.group(1) + " " + ns + ">" + date, xmp, count=1)
    apart = xmp.replace("</rdf:RDF>", "<rdf:Description rdf:about=\"\" %s>%s</rdf:Description></rdf:RDF>" % (ns, date))
    for suffix, text, where in (("", inside, "in pith's rdf:Description"), ("-new-description", apart,
                                                                           "in a new rdf:Description")):
        assert text != xmp
        b.add("control-viewer-save%s.pdf" % suffix, pdfedit.append_update(a, {f["info"]: info, f["xmp"]: xmp_object(text)}),
              "control", "honest A, then a revision setting only Info /ModDate and xmp:ModifyDate (%s), as a viewer's "
              "save does" % where, None, "exiftool reads the new ModifyDate and pith:number unchanged",
              [["exif", "XMP-xmp:ModifyDate", "2026:06:01 12:00:00Z"], ["exif", "XMP-pith:Number", b.numbers["A"]],
               ["same_render", "control-honest.pdf"]], control=True)
    b.add("control-honest-b.pdf", b.stamp(paper_b(), "B", "control-honest-b.pdf"), "control",
          "paper B stamped with B's own record (the attacks' paper B is sound by itself)", None,
          "B's title shows on page 1", [["text_has", TITLE_B, "both"], ["text_has", short(b.numbers["B"]), "both"]],
          control=True)
    ocr = {"ops": "q BT 3 Tr /F2 10 Tf 72 450 Td (scanned page text layer: figure 1 axis labels) Tj ET Q\n"}
    b.add("control-invisible-other-text.pdf", b.stamp(paper(hook=lambda d: ocr), "A", "control-invisible-other-text.pdf"),
          "control", "honest A with an unrelated line of invisible (mode 3) text, as OCR layers have", None,
          "A's title shows on page 1", [["text_has", TITLE_A, "both"], ["text_has", "axis labels", "poppler"]],
          control=True)
    no_title = re.sub(r"\s*<pith:title>[^<]*</pith:title>", "", xmp_text(a, f["xmp"]))
    b.add("control-hash-only.pdf", pdfgen.rewrite_object(a, f["xmp"], xmp_object(no_title)), "control",
          "honest A as a stamp that writes no plain pith:title would make it: the title is found by its signed hash",
          None, "exiftool reads no pith:title; A's title shows on page 1",
          [["py", "exif_lacks", ["XMP-pith:Title"]], ["text_has", TITLE_A, "both"]], control=True)
    note = f["size"]
    objs = {note: "<< /Type /Annot /Subtype /Text /Rect [ 300 300 320 320 ] /Contents (A reader's note) /F 4 /P %d 0 R >>"
                  % PAGE, PAGE: with_annot(f["page"], note)}
    b.add("control-sticky-note.pdf", pdfedit.append_update(a, objs), "control",
          "honest A, then a revision adding a Text (sticky note) annotation away from title and badge", None,
          "the note lies at (300,300), away from the title and the badge; title and badge render as before",
          [["py", "annot_count", [2]], ["text_has", TITLE_A, "both"]], control=True)

    return a


def build_form_control(b):
    """A paper with a form field, stamped, then the field filled by a viewer."""
    def field(d):
        ap = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 228 20 ]", "/Tx BMC EMC\n"))
        w = d.add("<< /Type /Annot /Subtype /Widget /FT /Tx /T (reviewer) /Rect [ 72 200 300 220 ] /F 4 /P %d 0 R "
                  "/DA (/Helv 10 Tf 0 g) /MK << /BC [ 0 0 0 ] >> /AP << /N %d 0 R >> >>" % (PAGE, ap))
        return {"annots": [w], "catalog": "/AcroForm << /Fields [ %d 0 R ] /DA (/Helv 0 Tf 0 g) "
                                          "/DR << /Font << /Helv %d 0 R >> >> >>" % (w, F1)}
    form = b.stamp(paper(hook=field), "A", "work/control-form-stamped.pdf")
    widget = int(re.search(r"/Annots \[ (\d+) 0 R", show(b.path("work/control-form-stamped.pdf"), PAGE)).group(1))
    wdict = show(b.path("work/control-form-stamped.pdf"), widget)
    assert "/Widget" in wdict, wdict
    size = int(pdfedit.trailer_entry(trailer(form), "Size"))
    ap = stream("/Type /XObject /Subtype /Form /BBox [ 0 0 228 20 ] /Resources << /Font << /Helv %d 0 R >> >>" % F1,
                "/Tx BMC q BT /Helv 10 Tf 0 g 2 6 Td (Jane Reader) Tj ET Q EMC\n")
    wdict = re.sub(r"/AP << /N \d+ 0 R >>", "/AP << /N %d 0 R >> /V (Jane Reader)" % size, wdict)
    b.add("control-form-filled.pdf", pdfedit.append_update(form, {size: ap, widget: wdict}), "control",
          "paper A with an AcroForm text field, stamped, then a revision filling the field's value and appearance",
          None, "the field shows 'Jane Reader'", [["text_has", "Jane Reader", "both"], ["text_has", TITLE_A, "both"]],
          control=True)



def build_typography_controls(b):
    """Honest papers whose title is typeset as LaTeX prints titles."""
    for key, title, lines, font_ops, claim in (
            ("two-lines", TITLE_A, ["Sparse Attention Kernels for", "Long Context Models"], None,
             "the title is set on two lines"),
            ("hyphenated", TITLE_A, ["Sparse Attention Ker-", "nels for Long Context Models"], None,
             "the title is broken with a hyphen: Ker- / nels"),
            ("ligature", "Efficient Sparse Attention Kernels", ["Ef\x01cient Sparse Attention Kernels"], None,
             "'fi' is the ligature glyph /fi"),
            ("endash", "Sparse Attention Kernels -- Theory and Practice",
             ["Sparse Attention Kernels \x96 Theory and Practice"], None,
             "the record says --, the page shows an en dash"),
            ("combined", "Efficient Sparse Attention Kernels -- Theory and Practice",
             ["Ef\x01cient Sparse Attention Ker-", "nels \x96 Theory and Practice"], None,
             "two lines, a hyphenated break, the fi ligature and an en dash together")):
        rec = "T-" + key
        b.numbers[rec] = b.record(rec, title)
        name = "control-title-%s.pdf" % key
        data = b.stamp(paper(title_ops=text_lines("F3", 18, 72, 700, lines, leading=22)), rec, name)
        words = [w for w in title.replace("Kernels", "").split() if w.isalpha() and "fi" not in w][:2]
        b.add(name, data, "control", "honest paper whose title is typeset as LaTeX does: " + claim, None,
              claim + "; pdftotext shows the words", [["text_has", w, "both"] for w in words], control=True)


def build_layout_controls(b):
    """Honest papers with type larger than the title's that is no heading: arXiv's turned stamp in
    the left margin, a watermark word across the page."""
    stamp = "arXiv:2405.01234v2 [cs.LG] 28 May 2026"
    ops = {"ops": "q 0.5 g BT /F1 24 Tf 0 1 -1 0 34 180 Tm %s Tj ET Q\n" % pdf_string(stamp)}
    data = b.stamp(paper(hook=lambda d: ops), "A", "control-arxiv-stamp.pdf")
    b.stamp_checks_title("control-arxiv-stamp.pdf", "A", refused=False)
    b.add("control-arxiv-stamp.pdf", data, "control",
          "honest A with an identifier stamp like arXiv's up the left margin, in 24 pt grey type (arXiv's is 20 pt), larger than the title", None,
          "the stamp's words run up the page, taller than wide; A's title shows",
          [["text_has", TITLE_A, "both"], ["py", "turned", [stamp]]], control=True)
    mark = {"ops": "q 0.85 g BT /F3 96 Tf 0.7071 0.7071 -0.7071 0.7071 150 250 Tm (DRAFT) Tj ET Q\n"}
    data = b.stamp(paper(hook=lambda d: mark), "A", "control-watermark.pdf")
    b.stamp_checks_title("control-watermark.pdf", "A", refused=False)
    b.add("control-watermark.pdf", data, "control",
          "honest A with a light grey 96 pt DRAFT watermark across the page", None,
          "the watermark is drawn (the page differs from A without it); A's title shows",
          [["text_has", TITLE_A, "both"], ["differs", "control-honest.pdf"]], control=True)


def build_declared(b):
    cls = "declared-title"
    for key, info, xmp, what in (("info", {"Title": pdf_string(TITLE_A)}, None, "Info /Title"),
                                 ("xmp", None, pdfgen.xmp_packet(TITLE_A), "XMP dc:title"),
                                 ("both", {"Title": pdf_string(TITLE_A)}, pdfgen.xmp_packet(TITLE_A),
                                  "Info /Title and XMP dc:title")):
        name = "declared-%s.pdf" % key
        data = b.stamp(paper_b(info=info, xmp=xmp), "A", name)
        proof = [["text_has", TITLE_B, "both"], ["text_lacks", TITLE_A, "both"]]
        if info:
            proof.append(["exif", "PDF:Title", TITLE_A])
        if xmp:
            proof.append(["exif", "XMP-dc:Title", TITLE_A])
        b.add(name, data, cls, "paper B with %s = A's title, stamped with A's record" % what,
              ("invalid", "pith.title.differs"), "page 1 shows only B's title; exiftool reads A's title as " + what, proof)
    base = b.stamp(paper_b(info={"Producer": "(attack)"}), "A", "work/declared-appended-base.pdf")
    path = b.path("work/declared-appended-base.pdf")
    info_num = int(pdfedit.trailer_entry(trailer(base), "Info").split()[0])
    info = show(path, info_num)[:-2].rstrip() + " /Title %s >>" % pdf_string(TITLE_A)
    b.add("declared-appended-info.pdf", pdfedit.append_update(base, {info_num: info}), cls,
          "paper B stamped with A's record, then one appended revision that only sets Info /Title to A's title",
          ("invalid", "pith.title.differs"), "page 1 shows B's title; exiftool reads A's title from Info",
          [["text_has", TITLE_B, "both"], ["text_lacks", TITLE_A, "both"], ["exif", "PDF:Title", TITLE_A]])


HIDDEN = [
    ("mode3", "in text render mode 3 (invisible)"),
    ("mode7", "in text render mode 7 (clip only) inside q/Q"),
    ("white", "filled white on the white page"),
    ("tiny", "in 0.05 pt type"),
    ("clipped", "clipped away by a 1x1 pt clip path elsewhere"),
    ("covered", "under an opaque white rectangle painted after it"),
    ("outside_cropbox", "inside the MediaBox but above the CropBox"),
    ("zero_tm", "with a zero text matrix (0 0 0 0 x y Tm)"),
    ("zero_tz", "with horizontal scaling 0 (0 Tz)"),
    ("alpha0", "with fill alpha 0 (ExtGState /ca 0)"),
    ("ocg_off", "in optional content whose OCG is OFF"),
    ("form_empty_bbox", "in a Form XObject with an empty /BBox"),
    ("annot_tiny", "in a Stamp annotation whose 560x24 appearance is squeezed into a 1x1 pt /Rect"),
    ("annot_hidden", "in a Stamp annotation flagged Hidden"),
    ("annot_noview", "in a Stamp annotation flagged NoView"),
]


DROPPED_BY_LAYOUT = {"outside_cropbox", "zero_tm", "zero_tz", "ocg_off", "annot_tiny", "annot_hidden", "annot_noview"}


def build_hidden(b):
    for kind, how in HIDDEN:
        kw = {"box": (612, 892), "cropbox": (0, 0, 612, 792)} if kind == "outside_cropbox" else {}
        name = "hidden-%s.pdf" % kind.replace("_", "-")
        ref = "work/" + name.replace(".pdf", "-without.pdf")
        b.stamp(paper_b(hook=hide(kind, ""), **kw), "A", ref)
        data = b.stamp(paper_b(hook=hide(kind, TITLE_A), **kw), "A", name)
        # poppler's layout drops text off the page, in OFF optional content, with a degenerate
        # matrix, or in hidden annotations: there is then no hidden title to find, only B's.
        code = "pith.title.differs" if kind in DROPPED_BY_LAYOUT else "pith.title.hidden"
        b.add(name, data, "hidden-title", "paper B (its title visible) with A's title drawn %s, stamped with A's record"
              % how, ("invalid", code),
              "A's title is invisible: page 1 renders pixel-identical to the same file with the hidden string emptied"
              + (" (MuPDF: one pixel at most 8 gray levels lighter than white)" if kind == "annot_tiny" else ""),
              [["near_render", ref, 1, 8] if kind == "annot_tiny" else ["same_render", ref], ["text_has", TITLE_B, "both"],
               ["py", "raw_has", [TITLE_A]], ["py", "extracted_by", [TITLE_A]]])
    # cited in a footnote
    note = {"ops": text_lines("F2", 7, 72, 100, ["[1] A. Other. %s. In Proc. Examples, 2024." % TITLE_A])}
    data = b.stamp(paper_b(hook=lambda d: note), "A", "title-in-footnote.pdf")
    b.add("title-in-footnote.pdf", data, "title-not-title",
          "paper B citing A's title in a 7 pt footnote at the bottom of page 1, stamped with A's record",
          ("invalid", "pith.title.not_title"), "pdftotext shows B's title first and A's title only in a footnote line "
          "starting [1], in type under 9 pt in the bottom fifth of the page",
          [["text_has", TITLE_A, "both"], ["py", "title_line_is", [TITLE_B]], ["py", "line_of", [TITLE_A, "[1]"]],
           ["py", "words_small_low", [TITLE_A, 9, 0.8]]])
    # A's words as one-word lines of a side column (figure labels) beside running text
    labels = {"ops": text_lines("F2", 10, 430, 630, TITLE_A.split(), leading=12.5)}
    body = ["Abstract. We look at graph colouring problems whose", "instances grow with the input;",
            "see the labels of Figure 1 on", "the right for the parts of", "the pipeline we measure,",
            "in the order they run,", "from the first to the last."]
    data = b.stamp(paper_b(body=body, hook=lambda d: labels), "A", "title-scattered.pdf")
    b.add("title-scattered.pdf", data, "title-scattered",
          "paper B with A's title words as one-word labels in a side column beside running text: the text "
          "joined line by line contains A's title only across line boundaries", ("invalid", "pith.title.not_title"),
          "no line shows A's title; pdftotext's words joined across lines contain it",
          [["text_lacks", TITLE_A, "lines"], ["py", "joined_has", [TITLE_A]]])


def build_fake_heading(b):
    """Another paper's title set as a line of its own among paper B's text (issue 14's fake heading)."""
    fake = {"ops": text_lines("F3", 12, 72, 545, [TITLE_A])}
    data = b.stamp(paper_b(hook=lambda d: fake), "A", "title-fake-heading.pdf")
    b.stamp_checks_title("title-fake-heading.pdf", "A", refused=True)
    b.add("title-fake-heading.pdf", data, "title-fake-heading",
          "paper B (its 18 pt title) with A's title as a 12 pt bold line of its own below the abstract, as a "
          "section heading, stamped with A's record", ("invalid", "pith.title.not_title"),
          "pdftotext shows B's title first, above A's and in taller type; A's title is a line of its own",
          [["text_has", TITLE_A, "lines"], ["py", "title_line_is", [TITLE_B]], ["py", "outranked", [TITLE_A, TITLE_B]]])
    # B's title stacked one word a line (no line of it holds two words), A's above B's 12 pt authors' type
    stacked = text_lines("F3", 18, 72, 760, TITLE_B.split()[:4], leading=19)
    big = {"ops": text_lines("F3", 14, 72, 545, [TITLE_A])}
    sdata = b.stamp(paper(title_ops=stacked, hook=lambda d: big), "A", "title-fake-heading-stacked.pdf")
    b.stamp_checks_title("title-fake-heading-stacked.pdf", "A", refused=True)
    b.add("title-fake-heading-stacked.pdf", sdata, "title-fake-heading",
          "paper B with its title set one word a line in 18 pt, and A's title as a 14 pt bold line of its own below "
          "the abstract (larger than B's 12 pt author lines), stamped with A's record", ("invalid", "pith.title.not_title"),
          "pdftotext shows B's first title word first, in taller type than A's title, which is a line of its own",
          [["text_has", TITLE_A, "lines"], ["py", "title_line_is", ["Quantum"]], ["py", "outranked", [TITLE_A, "Quantum"]]])
    # The same made by a stamp that writes no plain pith:title: verify finds the title by its hash.
    f = stamped_facts(b, "title-fake-heading.pdf")
    xmp = xmp_text(data, f["xmp"])
    b.add("title-fake-heading-hash-only.pdf", pdfgen.rewrite_object(data, f["xmp"], xmp_object(re.sub(
          r"\s*<pith:title>[^<]*</pith:title>", "", xmp))), "title-fake-heading",
          "the fake heading as a stamp that writes no plain pith:title would make it (pith's own revision without "
          "pith:title): verify finds the title by the signed hash alone", ("invalid", "pith.title.not_title"),
          "exiftool reads the canonical record and no pith:title; pdftotext shows B's title above A's",
          [["py", "exif_lacks", ["XMP-pith:Title"]], ["exif", "XMP-pith:Number", b.numbers["A"]],
           ["py", "outranked", [TITLE_A, TITLE_B]]])
    flat = text_lines("F2", 10, 72, 700, [TITLE_B])
    data = b.stamp(paper(title_ops=flat, hook=lambda d: fake), "A", "title-fake-heading-flat.pdf")
    b.stamp_checks_title("title-fake-heading-flat.pdf", "A", refused=True)
    b.add("title-fake-heading-flat.pdf", data, "title-fake-heading",
          "paper B with its title at body size (10 pt), its 12 pt author lines, and A's title as a 12 pt bold line of "
          "its own further down, the largest type on the page with the authors', stamped with A's record",
          ("invalid", "pith.title.not_title"),
          "pdftotext shows B's title first; the authors' line is above A's title and as tall",
          [["text_has", TITLE_A, "lines"], ["py", "title_line_is", [TITLE_B]], ["py", "outranked", [TITLE_A, AUTHORS[0]]]])


def build_record_absent(b, a):
    f = b.facts
    xmp = xmp_text(a, f["xmp"])
    no_record = re.sub(r"\s*<pith:canonicalRecord>[^<]*</pith:canonicalRecord>", "", xmp)
    no_title = re.sub(r"\s*<pith:title>[^<]*</pith:title>", "", no_record)
    cls = "record-absent"
    b.add("record-absent.pdf", pdfgen.rewrite_object(a, f["xmp"], xmp_object(no_title)), cls,
          "honest A stamped, pith's XMP (in pith's own revision) without pith:canonicalRecord and pith:title",
          ("unverified", "pith.record.absent"), "exiftool reads number, hash and receipt but no canonical record",
          [["exif", "XMP-pith:Number", b.numbers["A"]], ["py", "exif_lacks", ["CanonicalRecord"]]])
    b.add("record-absent-title.pdf", pdfgen.rewrite_object(a, f["xmp"], xmp_object(no_record)), cls,
          "the same with an unsigned pith:title equal to A's title (pith.title.match must not be claimed)",
          ("unverified", "pith.record.absent"), "exiftool reads pith:title but no canonical record",
          [["exif", "XMP-pith:Title", TITLE_A], ["py", "exif_lacks", ["CanonicalRecord"]]])
    bs = b.stamp(paper_b(), "A", "work/b-stamped-a.pdf")
    fb = stamped_facts(b, "work/b-stamped-a.pdf")
    bxmp = re.sub(r"\s*<pith:canonicalRecord>[^<]*</pith:canonicalRecord>", "", xmp_text(bs, fb["xmp"]))
    b.add("record-absent-on-b.pdf", pdfgen.rewrite_object(bs, fb["xmp"], xmp_object(bxmp)), cls,
          "paper B stamped with A's record, canonical record removed, pith:title = A's title kept",
          ("unverified", "pith.record.absent"), "page 1 shows B's title; exiftool reads A's title as pith:title",
          [["text_has", TITLE_B, "both"], ["text_lacks", TITLE_A, "both"], ["exif", "XMP-pith:Title", TITLE_A]])


def appender(b, a):
    """add(name, objects, ...): honest A stamped plus one appended revision holding `objects`."""
    def add(name, objects, desc, code, claim, proof, **kw):
        b.add(name, pdfedit.append_update(a, objects, **kw), "appended", "honest A stamped, then one appended revision "
              "that " + desc, ("invalid", code), claim, proof)
    return add


def inner_badge(f):
    br = f["badge_rect"]
    return [br[0] + 1, br[1] + 1, br[2] - 1, br[3] - 1]  # the badge, less its anti-aliased edges


def build_appended_page(b, a):
    """Annotations over the title or badge, page boxes, /Rotate."""
    f, n, add = b.facts, b.facts["size"], appender(b, a)
    page, ctl, br, inner = f["page"], "control-honest.pdf", f["badge_rect"], inner_badge(f)
    w, h = br[2] - br[0], br[3] - br[1]
    add("appended-square-over-badge.pdf",
        {n: white_ap(w, h), n + 1: "<< /Type /Annot /Subtype /Square /Rect %s /F 4 /C [ 1 1 1 ] /IC [ 1 1 1 ] "
                                   "/BS << /W 0 >> /AP << /N %d 0 R >> >>" % (rect_text(br), n),
         PAGE: with_annot(page, n + 1)},
        "adds a white Square annotation over the badge", "pith.changed.annotation",
        "the badge rectangle renders all white (the control shows the badge there)",
        [["region_white", inner], ["py", "region_dark_in", [ctl, inner]]])
    tw, th = TITLE_RECT[2] - TITLE_RECT[0], TITLE_RECT[3] - TITLE_RECT[1]
    add("appended-freetext-over-title.pdf",
        {n: white_ap(tw, th, "0 g BT /F3 18 Tf 6 8 Td %s Tj ET" % pdf_string(TITLE_B)),
         n + 1: "<< /Type /Annot /Subtype /FreeText /Rect %s /F 4 /DA (/Helv 18 Tf 0 g) /AP << /N %d 0 R >> >>"
                % (rect_text(TITLE_RECT), n), PAGE: with_annot(page, n + 1)},
        "adds a FreeText annotation over the title whose appearance shows B's title on white",
        "pith.title.differs", "the title area renders differently from the control (B's title drawn over A's)",
        [["py", "region_differs_from", [ctl, TITLE_RECT]]])
    add("appended-cropbox.pdf", {PAGE: page[:-2] + " /CropBox [ 0 0 612 700 ] >>"},
        "sets /CropBox [0 0 612 700], cutting the badge (y > 763) off", "pith.changed.page",
        "the page renders 612x700: the badge lies outside", [["render_size", 612, 700], ["pdfinfo", r"CropBox:\s+0\.00\s+0\.00\s+612\.00\s+700\.00"]])
    add("appended-mediabox.pdf", {PAGE: page.replace("/MediaBox [ 0 0 612 792 ]", "/MediaBox [ 0 0 612 700 ]")},
        "sets a smaller /MediaBox [0 0 612 700]", "pith.changed.page",
        "the page renders 612x700: the badge lies outside", [["render_size", 612, 700]])
    add("appended-rotate.pdf", {PAGE: page[:-2] + " /Rotate 90 >>"}, "sets /Rotate 90", "pith.changed.page",
        "the page renders rotated, 792x612", [["render_size", 792, 612], ["pdfinfo", r"Page\s+1 rot:\s+90"]])


def build_appended_resources(b, a):
    """Fonts, Form XObjects, images and /Resources used by page 1; the page via /Kids."""
    f, n, add = b.facts, b.facts["size"], appender(b, a)
    page, ctl = f["page"], "control-honest.pdf"
    add("appended-font.pdf", {F3: "<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>"},
        "redefines the title's font object (Helvetica-Bold -> Symbol)", "pith.changed.resource",
        "the title area renders differently from the control", [["py", "region_differs_from", [ctl, TITLE_RECT]]])
    add("appended-form-xobject.pdf",
        {LOGO: stream("/Type /XObject /Subtype /Form /BBox [ 0 0 400 20 ] /Resources << /Font << /F1 %d 0 R >> >>" % F1,
                      "BT /F1 9 Tf 0 4 Td (Retracted: see another paper) Tj ET\n")},
        "redefines the Form XObject page 1 draws (the logo)", "pith.changed.resource",
        "page 1 shows 'Retracted: see another paper' instead of the logo",
        [["differs", ctl], ["text_has", "Retracted: see another paper", "both"]])
    img = pdfgen.gray_image(4)
    add("appended-image.pdf", {IMAGE: img}, "redefines the image page 1 draws", "pith.changed.resource",
        "the image area renders differently from the control", [["py", "region_differs_from", [ctl, [500, 50, 540, 90]]]])
    new_font = n
    res = page.replace("/F3 %d 0 R" % F3, "/F3 %d 0 R" % new_font)
    assert res != page
    add("appended-resources.pdf", {new_font: "<< /Type /Font /Subtype /Type1 /BaseFont /Courier-Bold >>", PAGE: res},
        "replaces the page's /Resources dictionary (its /F3 now a Courier font)", "pith.changed.page",
        "the title renders in another font", [["py", "region_differs_from", [ctl, TITLE_RECT]]])
    b_ops = text_lines("F3", 18, 72, 700, [TITLE_B]) + text_lines("F2", 10, 72, 630, BODY)
    newpage = page.replace(" %d 0 R " % CONTENT, " %d 0 R " % n)  # pith's q / badge parts stay
    assert newpage != page
    add("appended-kids.pdf", {n: stream("", b_ops), n + 1: newpage,
                              PAGES: "<< /Type /Pages /Kids [ %d 0 R ] /Count 1 >>" % (n + 1)},
        "redefines /Pages so /Kids points at a new page object showing B's title", "pith.changed.page_tree",
        "page 1 shows B's title, not A's", [["text_has", TITLE_B, "both"], ["text_lacks", TITLE_A, "both"]])


def build_appended_catalog(b, a):
    """/Root, the catalog's /Metadata, pith's XMP, a freed object."""
    f, n, add = b.facts, b.facts["size"], appender(b, a)
    cat = show(b.path("control-honest.pdf"), CATALOG)
    add("appended-root.pdf", {n: cat[:-2] + " /OpenAction << /S /URI /URI (https://evil.example/) >> >>"},
        "sets trailer /Root to a new catalog (with an /OpenAction to another site)", "pith.changed.catalog",
        "qpdf reads the new catalog: /Root is the new object and carries the /OpenAction",
        [["qpdf", "trailer", "/Root %d 0 R" % n], ["qpdf", n, "evil.example"]], root="%d 0 R" % n)
    xmp = xmp_text(a, f["xmp"])
    add("appended-metadata-pointer.pdf",
        {n: xmp_object(xmp), CATALOG: cat.replace("/Metadata %d 0 R" % f["xmp"], "/Metadata %d 0 R" % n)},
        "redefines the catalog so /Metadata points at a new stream (same pith values)", "pith.changed.catalog",
        "exiftool reads the same number from the new stream", [["qpdf", CATALOG, "/Metadata %d 0 R" % n],
                                                              ["exif", "XMP-pith:Number", b.numbers["A"]]])
    c = b.stamp(paper(title=TITLE_C), "C", "work/c-stamped.pdf")
    fc = stamped_facts(b, "work/c-stamped.pdf")
    add("appended-xmp-rewritten.pdf", {f["xmp"]: xmp_object(xmp_text(c, fc["xmp"]))},
        "redefines pith's XMP stream object with paper C's pith values (number, record, receipt)",
        "pith.changed.metadata", "exiftool reads C's number", [["exif", "XMP-pith:Number", b.numbers["C"]]])
    # free the page's original content stream: viewers draw the page without it
    kind, tr, prev = pdfedit.last_trailer(a)
    freed = bytearray(a)
    xref_at = len(freed)
    freed += b"xref\n0 1\n0000000000 65535 f \n%d 1\n0000000000 00001 f \n" % CONTENT
    freed += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (
        n, CATALOG, f["info"], prev, xref_at)
    b.add("appended-freed.pdf", bytes(freed), "appended", "honest A stamped, then one appended xref section that frees the "
          "page's content stream (an 'f' entry for an object in use)", ("invalid", "pith.changed.freed"),
          "qpdf reads the content stream as null; MuPDF draws page 1 without A's title (poppler calls the xref "
          "damaged and reconstructs it)", [["qpdf", CONTENT, "null"], ["text_lacks", TITLE_A, "mupdf"],
                                           ["text_has", short(b.numbers["A"]), "both"]])


def build_structure(b, a):
    f = b.facts
    b_content = stream("", text_lines("F3", 18, 72, 700, [TITLE_B]) + text_lines("F2", 10, 72, 630, BODY))
    data = pdfedit.append_update(a, {CONTENT: b_content}, comment="%%PithUpdate prior=%d" % len(a))
    b.add("forged-pithupdate.pdf", data, "structure", "honest A stamped, then a revision starting with a forged "
          "'%%PithUpdate prior=N' line (N = the stamped length) that replaces page 1's content with B's",
          ("invalid", "pith.changed.content"), "page 1 shows B's title, not A's",
          [["text_has", TITLE_B, "both"], ["text_lacks", TITLE_A, "both"]])
    # /Prev skipping pith's xref: viewers following /Prev never see pith's update
    pre = int(re.findall(rb"startxref\s+(\d+)", a[:f["prior"]])[-1])
    data = pdfedit.append_update(a, {CONTENT: b_content})
    _, tr, _ = pdfedit.last_trailer(data)
    fixed = tr.replace(b"/Prev %d" % pdfedit.last_trailer(a)[2], b"/Prev %d" % pre).replace(
        b"/Info %d 0 R" % f["info"], b"")  # pith added the Info dictionary: unknown to the older xref
    assert fixed != tr
    data = data.replace(tr, fixed)
    b.add("prev-skips-pith.pdf", data, "structure", "honest A stamped, then a revision replacing page 1's content whose "
          "/Prev points at the pre-stamp xref, skipping pith's: every reader then reads a document without pith's data",
          ("absent", "pith.metadata.absent"),
          "viewers show B's title and no badge", [["text_has", TITLE_B, "both"], ["text_lacks", short(b.numbers["A"]), "both"]])
    at = f["prior"]
    data = pdfedit.replace_same_length(a, "/URI (https://pith.science/", "/URI (https://p1th.science/", start=at)
    b.add("pith-update-edited.pdf", data, "structure", "pith's own revision edited in place: the link /URI host "
          "pith.science -> p1th.science (same length, offsets unchanged)", ("invalid", "pith.link.host"),
          "the badge link points at p1th.science", [["py", "link_uri_host", ["p1th.science"]]])
    b.add("hybrid-xref.pdf", hybrid(a, f, b_content), "structure",
          "honest A stamped, then a hybrid-reference revision: its xref table does not list page 1's content, "
          "its /XRefStm gives B's content for it (classic readers follow /Prev and see A, hybrid readers see B)",
          ("invalid", "pith.changed.content"), "the table and the xref stream give different content for page 1",
          [["py", "hybrid_differs", [CONTENT]]])


def hybrid(a, f, b_content):
    """A hybrid update: object CONTENT only in the /XRefStm stream, a harmless Info copy in the table."""
    kind, tr, prev = pdfedit.last_trailer(a)
    n = f["size"]
    out = bytearray(a)
    at_content = len(out)
    out += b"%d 0 obj\n" % CONTENT + b_content + b"\nendobj\n"
    at_stream = len(out)
    rows = b"\x01" + at_content.to_bytes(4, "big") + b"\x00\x00"
    out += (b"%d 0 obj\n<< /Type /XRef /W [ 1 4 2 ] /Index [ %d 1 ] /Size %d /Length %d >>\nstream\n"
            % (n, CONTENT, n + 1, len(rows)) + rows + b"\nendstream\nendobj\n")
    xref_at = len(out)
    out += b"xref\n0 1\n0000000000 65535 f \n%d 1\n%010d 00000 n \n" % (n, at_stream)
    out += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /Prev %d /XRefStm %d >>\nstartxref\n%d\n%%%%EOF\n" % (
        n + 1, CATALOG, f["info"], prev, at_stream, xref_at)
    return bytes(out)


def build_links(b, a):
    f, n = b.facts, b.facts["size"]
    link = show(b.path("control-honest.pdf"), f["link"])
    uri = "https://pith.science/pith/" + b.numbers["A"].split(":")[2]
    cls = "links"
    data = pdfedit.replace_same_length(a, "/URI (https://pith.science/", "/URI (https://evil.example/", start=f["prior"])
    b.add("link-host-inplace.pdf", data, cls, "the badge /URI retargeted to evil.example inside pith's update (same length)",
          ("invalid", "pith.link.host"), "the badge link points at evil.example", [["py", "link_uri_host", ["evil.example"]]])
    new = link.replace("https://pith.science/", "https://evil.example/")
    b.add("link-host-appended.pdf", pdfedit.append_update(a, {f["link"]: new}), cls,
          "honest A stamped, then an appended revision retargeting the badge link to evil.example",
          ("invalid", "pith.changed.annotation"), "the badge link points at evil.example",
          [["py", "link_uri_host", ["evil.example"]]])
    extra = ("<< /Type /Annot /Subtype /Link /Rect %s /Border [ 0 0 0 ] /F 4 /A << /S /URI /URI "
             "(https://evil.example/pith) >> >>" % rect_text(f["badge_rect"]))
    b.add("link-extra-over-badge.pdf", pdfedit.append_update(a, {n: extra, PAGE: with_annot(f["page"], n)}), cls,
          "honest A stamped, then an appended revision adding a second Link over the badge to evil.example",
          ("invalid", "pith.changed.annotation"), "two links cover the badge; the topmost goes to evil.example",
          [["py", "links_over_badge", [2]]])
    for key, action in (
            ("launch", "<< /S /Launch /F (calc.exe) /URI %s >>" % pdf_string(uri)),
            ("javascript", "<< /S /JavaScript /JS (app.launchURL\\(\"https://evil.example/\"\\);) /URI %s >>"
             % pdf_string(uri)),
            ("next", "<< /S /URI /URI %s /Next << /S /URI /URI (https://evil.example/) >> >>" % pdf_string(uri))):
        new = re.sub(r"/A << /S /URI /URI \([^)]*\) >>", lambda m: "/A " + action, link)
        assert new != link, link
        b.add("link-action-%s.pdf" % key, pdfgen.rewrite_object(a, f["link"], new), cls,
              "the badge link's action (in pith's update, as if stamped so) made a %s action that still carries /URI"
              % key, ("invalid", "pith.link.action"), "qpdf reads the link's action as " + key,
              [["qpdf", f["link"], {"launch": "/S /Launch", "javascript": "/S /JavaScript", "next": "/Next"}[key]]])


def hide_badge(data, f, how):
    """`data` with pith's badge placement (in pith's update, as if stamped so) covered or clipped."""
    br = f["badge_rect"]
    place = pdfgen.object_body(data, f["badge_place"]).decode("latin-1")
    draw = re.search(r"q 1 0 0 1 [\d.]+ [\d.]+ cm /PithBadge Do Q", place).group(0)
    box = " ".join("%g" % v for v in (br[0] - 1, br[1] - 1, br[2] - br[0] + 2, br[3] - br[1] + 2))
    ops = "%s q 1 g %s re f Q" % (draw, box) if how == "covered" else "q -10 -10 1 1 re W n %s Q" % draw
    return pdfgen.rewrite_object(data, f["badge_place"], stream("", ops + "\n"))


def build_badge_numbers(b, a):
    """A badge text of another number beside the real badge (visible, or with the real one hidden)."""
    f = b.facts
    real, fake = short(b.numbers["A"]), short(b.numbers["C"])
    br = f["badge_rect"]
    fake_ops = {"ops": "BT /F1 8 Tf 0.17 0.24 0.31 rg %g %g Td (%s) Tj ET\n" % (br[0] - 75, br[1] + 2.9, fake)}
    data = b.stamp(paper(hook=lambda d: fake_ops), "A", "badge-other-number.pdf")
    b.add("badge-other-number.pdf", data, "badges", "paper A drawing a badge text of another number next to where "
          "pith draws the real badge, stamped", ("invalid", "pith.badge.text.mismatch"),
          "page 1 shows both %s and %s" % (real, fake), [["text_has", real, "both"], ["text_has", fake, "both"]])
    fo = stamped_facts(b, "badge-other-number.pdf")
    b.add("badge-other-number-real-hidden.pdf", hide_badge(data, fo, "clipped"), "badges",
          "the same, with pith's real badge clipped away (in pith's update, as if stamped so): only the other number "
          "shows", ("invalid", "pith.badge.text.mismatch"), "the real badge's rectangle renders white; %s shows" % fake,
          [["region_white", inner_badge(fo)], ["text_has", fake, "both"]])


def build_badge_hidden(b, a):
    """pith's own badge made white or clipped: appended (a changed resource) or as if drawn so."""
    f, cls, inner = b.facts, "badges", inner_badge(b.facts)
    form = f["badge_form"]
    fdict = pdfedit.show_object(b.path("control-honest.pdf"), form).split("Dictionary:", 1)[-1].strip()
    fdict = re.sub(r"/(Length \d+|Filter /FlateDecode)", "", fdict)[2:-2]
    drawing = subprocess.run(["qpdf", "--show-object=%d" % form, "--filtered-stream-data", b.path("control-honest.pdf")],
                             capture_output=True, timeout=60).stdout.decode("latin-1")
    assert " sc" in drawing, drawing
    white = re.sub(r"[\d.]+ [\d.]+ [\d.]+ sc", "1 1 1 sc", drawing)
    clipped = "q -10 -10 1 1 re W n\n" + drawing + "Q\n"
    for key, body, what in (("white", white, "made white"), ("clipped", clipped, "clipped away")):
        b.add("badge-%s-appended.pdf" % key, pdfedit.append_update(a, {form: stream(fdict, body)}), cls,
              "honest A stamped, then an appended revision redefining the badge Form XObject: the badge " + what,
              ("invalid", "pith.changed.resource"), "the badge rectangle renders all white",
              [["region_white", inner], ["py", "region_dark_in", ["control-honest.pdf", inner]]])
    for key in ("covered", "clipped"):
        b.add("badge-%s-inplace.pdf" % key, hide_badge(a, f, key), cls,
              "pith's badge drawing (in pith's update, as if stamped so) %s" % ("covered by a white box" if key == "covered"
                                                                                 else "clipped away"),
              ("invalid", "pith.badge.hidden"), "the badge rectangle renders all white",
              [["region_white", inner], ["py", "region_dark_in", ["control-honest.pdf", inner]]])


def build_badge_copied(b, a):
    """An edited paper A carrying a hand-drawn badge, a link and the XMP copied from the stamped A."""
    f, n, cls = b.facts, b.facts["size"], "badges"
    real, br = short(b.numbers["A"]), f["badge_rect"]
    edited = paper(body=BODY[:3] + ["We now claim a result the registered version never claimed."] + BODY[4:])
    info_num = n  # a fresh Info dictionary
    bn = n + 1
    xmp = xmp_text(a, f["xmp"])
    draw_ops = "q BT /PB 8 Tf 0.17 0.24 0.31 rg %g %g Td (%s) Tj ET Q\n" % (br[0] + 1.2, br[1] + 2.864, real)
    uri = "https://pith.science/pith/" + b.numbers["A"].split(":")[2]
    plain_page = ("<< /Type /Page /Parent %d 0 R /MediaBox [ 0 0 612 792 ] /Resources << /Font << /F1 %d 0 R /F2 %d 0 R "
                  "/F3 %d 0 R /PB %d 0 R >> /XObject << /Fm0 %d 0 R /Im0 %d 0 R >> >> /Contents [ %d 0 R %d 0 R ] "
                  "/Annots [ %d 0 R ] >>" % (PAGES, F1, F2, F3, F1, LOGO, IMAGE, CONTENT, bn, bn + 1))
    objs = {info_num: "<< /PithNumber %s >>" % pdf_string(b.numbers["A"]), bn: stream("", draw_ops),
            bn + 1: "<< /Type /Annot /Subtype /Link /Rect %s /Border [ 0 0 0 ] /F 4 /A << /S /URI /URI %s >> >>"
                    % (rect_text(br), pdf_string(uri)),
            bn + 2: xmp_object(xmp), PAGE: plain_page,
            CATALOG: "<< /Type /Catalog /Pages %d 0 R /Metadata %d 0 R >>" % (PAGES, bn + 2)}
    data = pdfedit.append_update(edited, objs, info="%d 0 R" % info_num)
    b.add("badge-hand-drawn.pdf", data, cls, "an edited paper A (a body line changed) with a hand-drawn badge, link and "
          "the XMP copied from the stamped A", ("invalid", "pith.prior.mismatch"),
          "exiftool reads A's number; page 1 shows the badge and the edited line",
          [["exif", "XMP-pith:Number", b.numbers["A"]], ["text_has", real, "both"],
           ["text_has", "a result the registered version never claimed", "both"]])


def build_xmp(b, a):
    f = b.facts
    xmp = xmp_text(a, f["xmp"])
    ns = "https://pith.science/ns/xmp/1.0/"
    other = b.numbers["C"]
    number = "<pith:number>%s</pith:number>" % b.numbers["A"]
    assert number in xmp
    second_desc = ("<rdf:Description rdf:about=\"\" xmlns:pith=\"%s\"><pith:number>%s</pith:number></rdf:Description>"
                   % (ns, other))
    packet2 = ("<?xpacket begin=\"\xef\xbb\xbf\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
               "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">%s</rdf:RDF></x:xmpmeta>"
               "<?xpacket end=\"w\"?>" % second_desc)
    variants = [
        ("two-descriptions", xmp.replace("</rdf:RDF>", second_desc + "</rdf:RDF>"),
         "a second rdf:Description with another pith:number"),
        ("attribute-and-element", xmp.replace("xmlns:pith=\"%s\">" % ns, "xmlns:pith=\"%s\" pith:number=\"%s\">" % (ns, other), 1),
         "pith:number both as an attribute (another number) and as an element"),
        ("two-packets", xmp + "\n" + packet2, "a second XMP packet in the metadata stream with another pith:number"),
        ("outside-description", xmp.replace("</rdf:RDF>", "<pith:number xmlns:pith=\"%s\">%s</pith:number></rdf:RDF>"
                                            % (ns, other)), "a pith:number directly under rdf:RDF, outside rdf:Description"),
        ("second-prefix", xmp.replace("xmlns:pith=\"%s\">" % ns, "xmlns:pith=\"%s\" xmlns:p2=\"%s\">" % (ns, ns), 1)
         .replace(number, number + "<p2:number>%s</p2:number>" % other), "the pith namespace bound to a second prefix "
         "p2 carrying another number"),
    ]
    for key, text, what in variants:
        assert text != xmp, key
        b.add("xmp-%s.pdf" % key, pdfgen.rewrite_object(a, f["xmp"], xmp_object(text)), "xmp-ambiguous",
              "honest A stamped, pith's XMP (in pith's update, as if stamped so) with " + what,
              ("invalid", "pith.metadata.ambiguous"), "the packet holds two different pith:number values; "
              "exiftool -a reads both numbers", [["py", "xmp_two_numbers", [b.numbers["A"], other]],
                                                                    ["py", "exif_numbers", []]])


def build_keys(b, a):
    f = b.facts
    xmp = xmp_text(a, f["xmp"])
    signed = re.search(r"<pith:receiptSignedAt>([^<]+)</pith:receiptSignedAt>", xmp).group(1)
    backdated = xmp.replace(signed, "2024-03-01T00:00:00Z")
    b.add("key-expired-backdated.pdf", pdfgen.rewrite_object(a, f["xmp"], xmp_object(backdated)), "keys",
          "honest A stamped (receipt signed %s), receiptSignedAt in the XMP backdated to 2024; keyring: the key's "
          "not_after is 2025-06-30" % signed, ("unverified", "receipt.key_outside_validity"),
          "exiftool reads receiptSignedAt 2024", [["exif", "XMP-pith:ReceiptSignedAt", "2024:03:01 00:00:00Z"]],
          keyring="ring-expired.json")
    b.add("key-revoked.pdf", a, "keys", "honest A stamped; keyring: the key is revoked",
          ("unverified", "receipt.key_revoked"), "the file is the honest control; the keyring marks the key revoked",
          [["py", "ring_revoked", ["ring-revoked.json"]]], keyring="ring-revoked.json")


# ---------------------------------------------------------------------------------------------
# proving the claims with poppler, MuPDF, exiftool, qpdf and pikepdf (never pith)

class Prover:
    def __init__(self, out):
        self.out = out
        self.cache = {}

    def path(self, name):
        return os.path.join(self.out, name)

    def tool(self, args):
        r = subprocess.run(args, capture_output=True, timeout=120)
        return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")

    def renders(self, name):
        """{'poppler': (w, h, pixels), 'mupdf': ...} of page 1 at 72 dpi in gray, as displayed (CropBox, /Rotate)."""
        if name in self.cache:
            return self.cache[name]
        base = self.path("work/render-" + os.path.basename(name).replace("/", "_"))
        self.tool(["pdftoppm", "-q", "-r", "72", "-gray", "-cropbox", "-f", "1", "-l", "1", "-singlefile",
                   self.path(name), base + "-p"])
        self.tool(["mutool", "draw", "-q", "-r", "72", "-c", "gray", "-o", base + "-m.pgm", self.path(name), "1"])
        result = {}
        for tool, suffix in (("poppler", "-p.pgm"), ("mupdf", "-m.pgm")):
            assert os.path.exists(base + suffix), "%s could not render %s" % (tool, name)
            result[tool] = read_pgm(base + suffix)
        self.cache[name] = result
        return result

    def text(self, name, tool="poppler"):
        if tool == "poppler":
            rc, out, err = self.tool(["pdftotext", "-f", "1", "-l", "1", self.path(name), "-"])
        else:
            rc, out, err = self.tool(["mutool", "draw", "-q", "-F", "txt", "-o", "-", self.path(name), "1"])
        return out

    def exif(self, name):
        rc, out, err = self.tool(["exiftool", "-a", "-G1", "-s", "-XMP-pith:all", "-XMP-dc:Title", "-XMP-xmp:ModifyDate",
                                  "-PDF:Title", self.path(name)])
        rows = []
        for line in out.splitlines():
            m = re.match(r"\[([^\]]+)\]\s+(\S+)\s*: (.*)$", line)
            if m:
                rows.append(("%s:%s" % (m.group(1), m.group(2)), m.group(3)))
        return rows



def region(img, rect):
    w, h, px = img
    x0, x1 = max(0, int(rect[0])), min(w, int(rect[2] + 0.999))
    y0, y1 = max(0, h - int(rect[3] + 0.999)), min(h, h - int(rect[1]))
    return [px[y * w + x] for y in range(y0, y1) for x in range(x0, x1)]


def squash(text):
    return " ".join(text.split())


def check_text(p, name, s, tool, present):
    tools = {"both": ["poppler", "mupdf"], "mupdf": ["mupdf"]}.get(tool, ["poppler"])
    for t in tools:
        text = p.text(name, t)
        found = any(s in squash(line) for line in text.splitlines()) if tool == "lines" else s in squash(text)
        if found != present:
            return "%s: %r %s in page 1's text" % (t, s, "not found" if present else "found")
    return None


def pike(p, name):
    import pikepdf
    return pikepdf.open(p.path(name))


def links(p, name):
    with pike(p, name) as pdf:
        out = []
        for a in pdf.pages[0].obj.get("/Annots", []):
            if a.get("/Subtype") == "/Link":
                act = a.get("/A", {})
                out.append(([float(v) for v in a.Rect], str(act.get("/URI", "")), str(act.get("/S", ""))))
        return out


def overlaps(r, s):
    return r[0] < s[2] and s[0] < r[2] and r[1] < s[3] and s[1] < r[3]


def xref_stream_offset(data, at, num):
    """Offset of object `num` in the (uncompressed, W [1 4 2]) xref stream at `at`, as hybrid() writes it."""
    head = data[at:data.index(b"stream", at)]
    index = [int(v) for v in re.search(rb"/Index \[([^\]]*)\]", head).group(1).split()]
    rows = data[data.index(b"stream", at) + 7:]
    i = 0
    for first, count in zip(index[::2], index[1::2]):
        for k in range(count):
            if first + k == num:
                return int.from_bytes(rows[i * 7 + 1:i * 7 + 5], "big")
            i += 1
    return None


def check_hybrid(p, name, num):
    data = open(p.path(name), "rb").read()
    xref_at, rows = pdfgen.last_table(data)
    tr = data[data.index(b"trailer", xref_at):]
    stm = int(re.search(rb"/XRefStm (\d+)", tr).group(1))
    prev = int(re.search(rb"/Prev (\d+)", tr).group(1))
    if num in rows:
        return "the table lists object %d" % num
    in_stream = xref_stream_offset(data, stm, num)
    older = {}
    while prev is not None and num not in older:  # the classic reading: down the /Prev chain
        _, older = pdfgen.table_at(data, prev)
        m = re.search(rb"/Prev (\d+)", data[data.index(b"trailer", prev):data.index(b"startxref", prev)])
        prev = int(m.group(1)) if m else None
    if in_stream is None or num not in older:
        return "object %d not in both the xref stream and an older table" % num
    a_body = data[older[num][1]:data.index(b"endobj", older[num][1])]
    b_body = data[in_stream:data.index(b"endobj", in_stream)]
    if a_body == b_body:
        return "both readings give the same object"
    p.note.append("poppler shows %s, mupdf shows %s" % tuple(
        "A" if TITLE_A in squash(p.text(name, t)) else "B" if TITLE_B in squash(p.text(name, t)) else "neither"
        for t in ("poppler", "mupdf")))
    return None


def word_run_box(p, name, phrase):
    """(xMin, yMin, xMax, yMax, page height) around the first run of pdftotext -bbox words equal to
    `phrase`'s words, y from the top; None when there is no such run."""
    rc, out, err = p.tool(["pdftotext", "-bbox", "-f", "1", "-l", "1", p.path(name), "-"])
    height = float(re.search(r'<page width="[\d.]+" height="([\d.]+)"', out).group(1))
    words = [(m.group(5), [float(m.group(i)) for i in range(1, 5)])
             for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', out)]
    want = phrase.split()
    for i in range(len(words) - len(want) + 1):
        if [w.strip(".,;:") for w, _ in words[i:i + len(want)]] == want:
            boxes = [bx for _, bx in words[i:i + len(want)]]
            return (min(bx[0] for bx in boxes), min(bx[1] for bx in boxes), max(bx[2] for bx in boxes),
                    max(bx[3] for bx in boxes), height)
    return None


TEXT_CHECKS = ("raw_has", "title_line_is", "line_of", "words_small_low", "joined_has", "extracted_by", "outranked",
               "turned")


# Named proof checks of the attack-class modules (["py", name, args] steps): name -> fn(prover, file, args).
EXTRA_CHECKS = {}


def check_py(p, name, fn, args):
    """The named checks of the manifest's ["py", name, args] steps."""
    if fn in EXTRA_CHECKS:
        return EXTRA_CHECKS[fn](p, name, args)
    return (check_py_text if fn in TEXT_CHECKS else check_py_objects)(p, name, fn, args)


def check_py_text(p, name, fn, args):
    """Checks of the page text (pdftotext, mutool) and the raw file."""
    if fn == "raw_has":
        return None if pdf_string(args[0]).encode() in open(p.path(name), "rb").read() else "string not in the file"
    if fn == "title_line_is":
        lines = [squash(l) for l in p.text(name).splitlines() if l.strip() and not l.startswith("pith:")]
        return None if lines and args[0] in lines[0] else "first line is %r" % (lines[:1],)
    if fn == "line_of":
        lines = [squash(l) for l in p.text(name).splitlines() if args[0] in squash(l)]
        return None if lines and lines[-1].startswith(args[1]) else "A's title not in a reference line: %r" % lines
    if fn == "words_small_low":
        box = word_run_box(p, name, args[0])
        if box is None:
            return "pdftotext -bbox has no run of the words %r" % args[0]
        height, top = box[3] - box[1], box[1] / box[4]
        return None if height < args[1] and top > args[2] else "words %.1f pt high at %.0f%% of the page" % (height, 100 * top)
    if fn == "outranked":  # args[1]'s words stand above args[0]'s, in type at least as tall
        low, high = word_run_box(p, name, args[0]), word_run_box(p, name, args[1])
        if low is None or high is None:
            return "pdftotext -bbox lacks a run of %r or %r" % tuple(args)
        ok = high[3] <= low[1] and high[3] - high[1] >= low[3] - low[1] - 0.5
        return None if ok else "boxes %r and %r" % (low[:4], high[:4])
    if fn == "turned":  # the words run up or down the page
        box = word_run_box(p, name, args[0])
        return None if box and box[3] - box[1] > 3 * (box[2] - box[0]) else "box %r" % (box,)
    if fn == "joined_has":
        return None if args[0] in squash(p.text(name)) else "joined text lacks it"
    if fn == "extracted_by":  # an observation for the log, never a failure
        seen = [t for t in ("poppler", "mupdf") if args[0] in squash(p.text(name, t))]
        p.note.append("A's title extracted by: %s" % (", ".join(seen) or "neither"))
        return None
    raise ValueError(fn)


def check_py_objects(p, name, fn, args):
    """Checks of renders, annotations, XMP and structure (pikepdf, exiftool, raw xref)."""
    if fn == "exif_lacks":
        rows = p.exif(name)
        return "exiftool reads %s" % args[0] if any(args[0] in t for t, v in rows) else None
    if fn in ("region_dark_in", "region_differs_from"):
        other, rect = args
        mine, theirs = p.renders(name), p.renders(other)
        for t in ("poppler", "mupdf"):
            if fn == "region_dark_in" and min(region(theirs[t], rect)) >= 128:
                return "%s: no dark pixel in %s of %s" % (t, rect, other)
            if fn == "region_differs_from" and region(mine[t], rect) == region(theirs[t], rect):
                return "%s: %s renders the same as in %s" % (t, rect, other)
        return None
    if fn == "link_uri_host":
        hosts = [u.split("/")[2] for r, u, s in links(p, name) if u.startswith("https://")]
        return None if hosts == [args[0]] else "link hosts %r" % hosts
    if fn == "links_over_badge":
        ls = links(p, name)
        badge = ls[0][0]
        n = sum(1 for r, u, s in ls if overlaps(r, badge))
        p.note.append("links: %r" % [u for r, u, s in ls])
        return None if n == args[0] else "%d links over the badge" % n
    if fn == "annot_count":
        with pike(p, name) as pdf:
            n = len(pdf.pages[0].obj.get("/Annots", []))
        return None if n == args[0] else "%d annotations" % n
    if fn == "hybrid_differs":
        return check_hybrid(p, name, args[0])
    if fn == "xmp_two_numbers":
        with pike(p, name) as pdf:
            raw = pdf.Root.Metadata.read_bytes().decode("utf-8")
        return None if all(n in raw for n in args) else "the packet lacks one of %r" % args
    if fn == "exif_numbers":
        nums = [v for t, v in p.exif(name) if t == "XMP-pith:Number"]
        p.note.append("exiftool reads pith:number %s" % (" and ".join(nums) or "nothing"))
        return None if len(set(nums)) >= 2 else "exiftool does not read two different numbers"
    if fn == "ring_revoked":
        with open(p.path(args[0])) as f:
            return None if json.load(f)["keys"][0].get("revoked") is True else "key not revoked"
    raise ValueError(fn)


def check_step(p, name, step):
    kind, args = step[0], step[1:]
    if kind == "same_render" or kind == "differs":
        mine, theirs = p.renders(name), p.renders(args[0])
        for t in ("poppler", "mupdf"):
            same = mine[t] == theirs[t]
            if same != (kind == "same_render"):
                diff = sum(1 for x, y in zip(mine[t][2], theirs[t][2]) if x != y)
                return "%s: %s from %s (%d pixels differ)" % (t, "differs" if kind == "same_render" else "same", args[0], diff)
        return None
    if kind == "near_render":  # at most args[1] pixels differ, each by at most args[2] gray levels
        mine, theirs = p.renders(name), p.renders(args[0])
        for t in ("poppler", "mupdf"):
            diff = [abs(x - y) for x, y in zip(mine[t][2], theirs[t][2]) if x != y]
            if mine[t][:2] != theirs[t][:2] or len(diff) > args[1] or max(diff + [0]) > args[2]:
                return "%s: %d pixels differ from %s, by up to %d" % (t, len(diff), args[0], max(diff + [0]))
        return None
    if kind == "region_white":
        for t, img in p.renders(name).items():
            if min(region(img, args[0])) < 255:
                return "%s: a non-white pixel in %s" % (t, args[0])
        return None
    if kind == "render_size":
        for t, img in p.renders(name).items():
            if (img[0], img[1]) != (args[0], args[1]):
                return "%s: page renders %dx%d" % (t, img[0], img[1])
        return None
    if kind in ("text_has", "text_lacks"):
        return check_text(p, name, args[0], args[1], kind == "text_has")
    if kind == "exif":
        rows = p.exif(name)
        return None if (args[0], args[1]) in rows else "exiftool: no %s = %r in %r" % (args[0], args[1], rows)
    if kind == "pdfinfo":
        rc, out, err = p.tool(["pdfinfo", "-box", "-f", "1", "-l", "1", p.path(name)])
        return None if re.search(args[0], out) else "pdfinfo does not match %r" % args[0]
    if kind == "qpdf":
        rc, out, err = p.tool(["qpdf", "--show-object=%s" % args[0], p.path(name)])
        return None if str(args[1]) in out else "qpdf object %s lacks %r: %s" % (args[0], args[1], out[:200])
    if kind == "py":
        return check_py(p, name, args[0], args[1])
    if kind == "mod":  # ["mod", module, check, args...]: a check an attack-class module defines in its CHECKS
        return importlib.import_module(args[0]).CHECKS[args[1]](p, name, *args[2:])
    raise ValueError(kind)


def prove(out, entries):
    """Checks every entry's proof; returns the failures. Observations go into entry['observed']."""
    p = Prover(out)
    failures = []
    for e in entries:
        p.note = []
        for step in e["proof"]:
            problem = check_step(p, e["name"], step)
            if problem:
                failures.append("%s: claim does not hold (%s): %s" % (e["name"], step[0], problem))
        if p.note:
            e["observed"] = "; ".join(p.note)
        if not e["control"] and e["name"] != "key-revoked.pdf":
            rc, err = qpdf_check(p, e["name"])
            e["qpdf_check"] = rc
    return failures


def qpdf_check(p, name):
    rc, out, err = p.tool(["qpdf", "--check", p.path(name)])
    return rc, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-prove", action="store_true")
    ap.add_argument("--only", help="comma-separated attack-class modules to build alone (words, headings, pixels, ...)")
    args = ap.parse_args()
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if importlib.util.find_spec("pikepdf") is None:
        missing.append("python3-pikepdf (for %s)" % sys.executable)
    if missing:
        print("skipped: missing " + ", ".join(missing))
        return 77
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    b = Builder(os.path.abspath(args.pith), os.path.abspath(args.out))
    setup(b)
    if args.only:
        return finish(args, b, [importlib.import_module(m) for m in args.only.split(",")], None)
    a = build_controls(b)
    for step in (build_form_control, build_typography_controls, build_layout_controls, build_declared, build_hidden,
                 build_fake_heading):
        step(b)
    for step in (build_record_absent, build_appended_page, build_appended_resources, build_appended_catalog,
                 build_structure, build_links, build_badge_numbers, build_badge_hidden, build_badge_copied,
                 build_xmp, build_keys):
        step(b, a)
    import changes  # noqa: E402  (these import this file as a module: after main's own steps)
    import comments_drawn  # noqa: E402
    import headings  # noqa: E402
    import pixels  # noqa: E402
    import viewers_draw  # noqa: E402
    import viewers_draw_outlines  # noqa: E402
    import viewers_syntax  # noqa: E402
    import resave  # noqa: E402
    import titles  # noqa: E402
    import viewers  # noqa: E402
    import words  # noqa: E402
    import allowances  # noqa: E402
    return finish(args, b, (titles, resave, viewers, viewers_draw, viewers_draw_outlines, viewers_syntax, changes,
                            comments_drawn, pixels, words, headings, allowances), a)


def finish(args, b, modules, a):
    """Builds `modules`' files, proves every claim, writes the manifest."""
    import changes  # noqa: E402
    EXTRA_CHECKS.update(changes.CHECKS)
    for module in modules:
        module.build(b, a)
    failures = [] if args.no_prove else prove(b.out, b.entries)
    with open(b.path("manifest.json"), "w") as f:
        json.dump({"numbers": b.numbers, "titles": {"A": TITLE_A, "B": TITLE_B, "C": TITLE_C}, "files": b.entries}, f, indent=1)
    attacks = [e for e in b.entries if not e["control"]]
    classes = sorted(set(e["class"] for e in attacks))
    print("%d attack files in %d classes, %d controls, in %s" % (len(attacks), len(classes), len(b.entries) - len(attacks), args.out))
    for e in b.entries:
        if e.get("observed"):
            print("  %s: %s" % (e["name"], e["observed"]))
    for line in failures:
        print("FAIL " + line)
    print("%d claims failed" % len(failures) if failures else "all claims proved with poppler, mupdf, exiftool, qpdf")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
