# SPDX-License-Identifier: MIT
"""Attack class `viewers` (issue 29, class 2): what viewers read differently.

pith judges what poppler shows; a reader may open the file in MuPDF (or Acrobat, PDFium,
pdf.js). Each attack here is a file that poppler and MuPDF show differently: poppler the
record's title (paper A's), MuPDF another paper's or none. Three kinds:
  - optional content whose state is the viewer's choice (/Usage states, /AS auto-states, /Intent,
    alternate /Configs, an OCMD's /VE): pith.optional_content.ambiguous (unverified);
  - malformed annotation fields (/Rect, /F, /Border, /AP): pith.annotation.malformed (invalid);
  - object definitions readers resolve differently (an object stream defining an object twice;
    bytes before %PDF- with a definition no xref lists; a page-tree node saying /Count 0 over
    pages): pith.objects.ambiguous (invalid).
Controls use the same constructs plainly and must stay trusted.

Every claim is proved by the "reads" proof: page 1 as rendered by poppler (pdftoppm) is
pixel-identical to one reference file and as rendered by MuPDF (mutool draw) to another (or, with
"!name", differs from it), and the two references differ in both renderers. The references are
the same paper with the construct made plain, stamped with the same record.
"""
import os
import re

import build_attacks as ba
import pdfgen
import pdfwriter
from pdfgen import stream, text_lines

TITLE_A, TITLE_B = ba.TITLE_A, ba.TITLE_B
F3 = ba.F3
TITLE_OPS = {t: text_lines("F3", 18, 72, 700, [t], leading=22) for t in (TITLE_A, TITLE_B)}
ANNOT_RECT = "[ 66 692 626 722 ]"  # over the 18 pt title line at y=700 (560 x 30)


# ---------------------------------------------------------------------------------------------
# the proof: ["mod", "viewers", "reads", {"poppler": REF, "mupdf": REF or "!REF"}]

def reads(p, name, want):
    """Page 1 of `name` renders, in each renderer, as the reference `want` names (pixel for
    pixel), or differently from it ("!ref"); the references themselves differ in both."""
    mine = p.renders(name)
    refs = []
    for tool in ("poppler", "mupdf"):
        ref = want[tool]
        same = not ref.startswith("!")
        ref = ref.lstrip("!")
        refs.append(ref)
        theirs = p.renders(ref)[tool]
        if (mine[tool] == theirs) != same:
            diff = sum(1 for x, y in zip(mine[tool][2], theirs[2]) if x != y)
            return "%s: page 1 %s %s (%d pixels differ)" % (tool, "differs from" if same else "renders as", ref, diff)
    if refs[0] != refs[1]:
        for tool in ("poppler", "mupdf"):
            if p.renders(refs[0])[tool] == p.renders(refs[1])[tool]:
                return "%s renders %s and %s alike: the proof shows nothing" % (tool, refs[0], refs[1])
    p.note.append("poppler shows %s, MuPDF %s%s" % (want["poppler"].lstrip("!"), "not " if want["mupdf"].startswith("!") else "",
                                                    want["mupdf"].lstrip("!")))
    return None


def printed(p, name):
    """Page 1 of `name` as printed, at 72 dpi in gray: Ghostscript with -dPrinted (what a printer
    driver gets), and poppler's print path (pdftocairo -ps, then Ghostscript)."""
    key = ("printed", name)
    if key not in p.cache:
        base = p.path("work/print-" + os.path.basename(name))
        gs = ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pgmraw", "-r72", "-dFirstPage=1", "-dLastPage=1"]
        p.tool(gs + ["-dPrinted", "-sOutputFile=" + base + "-gs.pgm", p.path(name)])
        p.tool(["pdftocairo", "-ps", "-f", "1", "-l", "1", p.path(name), base + ".ps"])
        p.tool(gs + ["-sOutputFile=" + base + "-cairo.pgm", base + ".ps"])
        p.cache[key] = {tool: ba.read_pgm(base + suffix) for tool, suffix in (("ghostscript", "-gs.pgm"), ("poppler", "-cairo.pgm"))}
    return p.cache[key]


def prints(p, name, want):
    """Page 1 of `name` shows on screen as `want["screen"]` (poppler and MuPDF, pixel for pixel) and
    prints as `want["print"]` (Ghostscript and poppler's print path), and the two references
    print differently."""
    screen, paper = want["screen"], want["print"]
    for tool, pixels in p.renders(name).items():
        if pixels != p.renders(screen)[tool]:
            return "%s: page 1 on screen differs from %s" % (tool, screen)
    for tool, pixels in printed(p, name).items():
        if pixels != printed(p, paper)[tool]:
            return "%s: page 1 in print differs from %s" % (tool, paper)
        if pixels == printed(p, screen)[tool]:
            return "%s prints %s and %s alike: the proof shows nothing" % (tool, screen, paper)
    p.note.append("poppler and MuPDF show %s on screen; Ghostscript and poppler's print path print %s" % (screen, paper))
    return None


def ghostscript_reads(p, name, want):
    """Page 1 of `name` renders in poppler and MuPDF as `want["others"]`, pixel for pixel, and
    Ghostscript's text of it holds `want["has"]` and not `want["lacks"]`."""
    for tool, pixels in p.renders(name).items():
        if pixels != p.renders(want["others"])[tool]:
            return "%s: page 1 differs from %s" % (tool, want["others"])
    rc, text, err = p.tool(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=txtwrite", "-dFirstPage=1", "-dLastPage=1",
                            "-sOutputFile=-", p.path(name)])
    text = " ".join(text.split())
    if want["has"] not in text or want["lacks"] in text:
        return "Ghostscript's text of page 1 is %r" % text[:160]
    p.note.append("poppler and MuPDF show %s; Ghostscript reads \"%s\"" % (want["others"], want["has"]))
    return None


def ghostscript_draws(p, name, want):
    """Page 1 of `name` renders in poppler and MuPDF as `want["others"]`, pixel for pixel, and in
    Ghostscript as `want["ghostscript"]`, which Ghostscript draws otherwise than `want["others"]`."""
    for tool, pixels in p.renders(name).items():
        if pixels != p.renders(want["others"])[tool]:
            return "%s: page 1 differs from %s" % (tool, want["others"])
    drawn = printed(p, name)["ghostscript"]
    if drawn != printed(p, want["ghostscript"])["ghostscript"]:
        return "Ghostscript: page 1 differs from %s" % want["ghostscript"]
    if drawn == printed(p, want["others"])["ghostscript"]:
        return "Ghostscript draws %s and %s alike: the proof shows nothing" % (want["ghostscript"], want["others"])
    p.note.append("poppler and MuPDF show %s; Ghostscript draws %s" % (want["others"], want["ghostscript"]))
    return None


CHECKS = {"reads": reads, "prints": prints, "ghostscript_reads": ghostscript_reads, "ghostscript_draws": ghostscript_draws}


def proof(poppler, mupdf):
    return [["mod", "viewers", "reads", {"poppler": poppler, "mupdf": mupdf}]]


# ---------------------------------------------------------------------------------------------
# optional content

def oc_paper(ocg_a, ocg_b, props, kind="OCG"):
    """A paper whose title block draws A's title in group /oa and B's in group /ob (same place):
    which one a reader sees is the optional content's. `props` (%(a)d, %(b)d: the two group
    objects) is /OCProperties. kind "OCMD": ocg_a and ocg_b are membership dictionaries over two
    plain groups %(x)d, %(y)d (x ON, y OFF)."""
    def hook(d):
        if kind == "OCMD":
            x = d.add("<< /Type /OCG /Name (Layer x) >>")
            y = d.add("<< /Type /OCG /Name (Layer y) >>")
            a, b = d.add(ocg_a % {"x": x, "y": y}), d.add(ocg_b % {"x": x, "y": y})
            catalog = "/OCProperties " + props % {"a": x, "b": y}
        else:
            a, b = d.add(ocg_a), d.add(ocg_b)
            catalog = "/OCProperties " + props % {"a": a, "b": b}
        return {"res": {"Properties": "/oa %d 0 R /ob %d 0 R" % (a, b)}, "catalog": catalog}
    ops = "/OC /oa BDC\n" + TITLE_OPS[TITLE_A] + "EMC\n/OC /ob BDC\n" + TITLE_OPS[TITLE_B] + "EMC\n"
    return ba.paper(title_ops=ops, hook=hook)


PLAIN_A, PLAIN_B = "<< /Type /OCG /Name (Title A) >>", "<< /Type /OCG /Name (Title B) >>"
LISTS = "<< /OCGs [ %(a)d 0 R %(b)d 0 R ] /D << /Order [ %(a)d 0 R %(b)d 0 R ] "


def usage(name, **states):
    parts = " ".join("/%s << /%sState /%s >>" % (k, k, v) for k, v in states.items())
    return "<< /Type /OCG /Name (%s) /Usage << %s >> >>" % (name, parts)


OC_ATTACKS = [
    ("usage-viewstate", usage("Title A", View="OFF"), usage("Title B", View="ON"), LISTS + "/OFF [ %(b)d 0 R ] >> >>", "OCG",
     "A's title in a group ON in /D whose /Usage /View /ViewState is OFF, B's in a group OFF in /D whose ViewState is ON "
     "(no /AS)", "B"),
    ("usage-autostate", usage("Title A", View="OFF", Print="OFF"), usage("Title B", View="ON", Print="ON"),
     LISTS + "/OFF [ %(b)d 0 R ] /AS [ << /Event /View /Category [ /View ] /OCGs [ %(a)d 0 R %(b)d 0 R ] >> "
             "<< /Event /Print /Category [ /Print ] /OCGs [ %(a)d 0 R %(b)d 0 R ] >> ] >> >>", "OCG",
     "the same with /AS auto-states for View and Print, as the specification has viewers apply /Usage", "B"),
    ("intent-design", "<< /Type /OCG /Name (Title A) /Intent /Design >>", PLAIN_B, LISTS + "/OFF [ %(b)d 0 R ] >> >>", "OCG",
     "A's title in a group ON in /D whose /Intent is Design (the default configuration's intent is View)", "none"),
    ("intent-array", "<< /Type /OCG /Name (Title A) /Intent [ /Design ] >>", PLAIN_B, LISTS + "/OFF [ %(b)d 0 R ] >> >>", "OCG",
     "the same with /Intent [ /Design ] as an array", "none"),
    ("configs", PLAIN_A, PLAIN_B, LISTS + "/Name (Default) /OFF [ %(b)d 0 R ] >> /Configs [ << /Name (Alternate) "
                                        "/OFF [ %(a)d 0 R ] /ON [ %(b)d 0 R ] >> ] >>", "OCG",
     "A's title ON and B's OFF in /D, the other way round in an alternate configuration (/Configs)", "B"),
    ("ocmd-ve", "<< /Type /OCMD /OCGs [ %(y)d 0 R ] /VE [ /Or %(x)d 0 R %(y)d 0 R ] >>",
     "<< /Type /OCMD /OCGs [ %(x)d 0 R ] /VE [ /And %(x)d 0 R %(y)d 0 R ] >>", LISTS + "/OFF [ %(b)d 0 R ] >> >>", "OCMD",
     "A's title under a membership dictionary whose /VE says x OR y (x ON) and whose /OCGs say y (OFF); B's under "
     "/VE x AND y and /OCGs x", "both"),
]


def build_oc(b):
    refs = {}
    for key, props in (("A", LISTS + "/OFF [ %(b)d 0 R ] >> >>"), ("B", LISTS + "/OFF [ %(a)d 0 R ] >> >>"),
                       ("none", LISTS + "/OFF [ %(a)d 0 R %(b)d 0 R ] >> >>")):
        refs[key] = "work/r2v-oc-ref-%s.pdf" % key
        b.stamp(oc_paper(PLAIN_A, PLAIN_B, props), "A", refs[key])
    for key, a, bb, props, kind, what, mupdf in OC_ATTACKS:
        name = "viewers-oc-%s.pdf" % key
        data = b.stamp(oc_paper(a, bb, props, kind), "A", name)
        shows = {"B": "B's title", "none": "no title", "both": "both titles, one over the other"}[mupdf]
        steps = (proof(refs["A"], "!" + refs["A"]) + [["text_has", TITLE_B, "mupdf"], ["text_lacks", TITLE_B, "poppler"]]
                 if mupdf == "both" else proof(refs["A"], refs[mupdf]))
        b.add(name, data, "viewers-optional-content", "paper B's title block as optional content: " + what +
              ", stamped with A's record", ("unverified", "pith.optional_content.ambiguous"),
              "poppler shows A's title; MuPDF shows " + shows, steps)
    # an annotation with B's title over A's, in a group OFF in /D whose ViewState is ON: only MuPDF shows it
    annot = ("<< /Type /Annot /Subtype /FreeText /Rect %s /F 4 /DA (/Helv 18 Tf 0 g) /AP << /N %%(ap)d 0 R >>%s >>")
    b.stamp(annot_paper(TITLE_A, annot % (ANNOT_RECT, ""), TITLE_B), "A", "work/r2v-oc-annot-plain.pdf")
    data = b.stamp(annot_paper(TITLE_A, annot % (ANNOT_RECT, " /OC %(oc)d 0 R"), TITLE_B, ocg=usage("Annotation", View="ON"),
                               props="/OCProperties << /OCGs [ %(oc)d 0 R ] /D << /OFF [ %(oc)d 0 R ] >> >>"),
                   "A", "viewers-oc-annotation.pdf")
    b.add("viewers-oc-annotation.pdf", data, "viewers-optional-content",
          "paper A with a FreeText annotation painting B's title over A's, its /OC group OFF in /D with /Usage /View "
          "/ViewState ON, stamped with A's record", ("unverified", "pith.optional_content.ambiguous"),
          "poppler hides the annotation (A's title); MuPDF shows it (B's title)",
          proof("work/r2v-paper-a.pdf", "work/r2v-oc-annot-plain.pdf"))


# ---------------------------------------------------------------------------------------------
# annotations

def title_ap(title):
    """An appearance painting `title` on white over the title line (the annotation's 560 x 30 box)."""
    return "1 g 0 0 560 30 re f 0 g BT /F3 18 Tf 6 8 Td %s Tj ET\n" % pdfgen.pdf_string(title)


def annot_paper(page_title, annot, shown, ocg=None, props=None):
    """Paper `page_title` with one annotation (`annot`: %(ap)d the appearance showing `shown`,
    %(oc)d the group `ocg`; `props` goes into the catalog)."""
    def hook(d):
        ap = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 560 30 ] /Resources << /Font << /F3 %d 0 R >> >>" % F3,
                          title_ap(shown)))
        empty = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 560 30 ]", "\n"))
        oc = d.add(ocg) if ocg else 0
        a = d.add(annot % {"ap": ap, "empty": empty, "oc": oc})
        out = {"annots": [a]}
        if props:
            out["catalog"] = props % {"oc": oc}
        return out
    return ba.paper(title=page_title, hook=hook)


FREETEXT = "<< /Type /Annot /Subtype /FreeText /Rect %s /F %s /DA (/Helv 18 Tf 0 g) /AP << /N %%(ap)d 0 R >> >>"
STAMP = "<< /Type /Annot /Subtype /Stamp %s /F 4 /AP << /N %%(ap)d 0 R >> >>"
SQUARE = "<< /Type /Annot /Subtype /Square /Rect [ 60 650 630 760 ] /F 4 /C [ 1 1 1 ] %s >>"

# (key, page's title, annotation, it shows, what, well-formed twin or None, MuPDF shows: "twin" or "!")
ANNOT_ATTACKS = [
    ("rect-five", TITLE_A, STAMP % "/Rect [ 66 692 626 722 0 ]", TITLE_B, "a Stamp annotation whose /Rect has five numbers",
     FREETEXT % (ANNOT_RECT, "4")),
    ("rect-three", TITLE_A, STAMP % "/Rect [ 66 692 626 ]", TITLE_B, "a Stamp annotation whose /Rect has three numbers", None),
    ("rect-missing", TITLE_A, STAMP % "", TITLE_B, "a Stamp annotation without /Rect", None),
    ("rect-name", TITLE_A, STAMP % "/Rect /Full", TITLE_B, "a Stamp annotation whose /Rect is a name", None),
    ("flags-real-hidden", "", FREETEXT % (ANNOT_RECT, "2.0"), TITLE_A,
     "a FreeText annotation showing A's title where the page has none, with flags /F 2.0 (Hidden, written as a real)", "drop"),
    ("flags-real-noview", "", FREETEXT % (ANNOT_RECT, "32.0"), TITLE_A,
     "the same with /F 32.0 (NoView, as a real)", "drop"),
    ("border-four", TITLE_A, SQUARE % "/Border [ 0 0 60 0 ]", TITLE_B,
     "a white-stroked Square annotation without appearance whose /Border's fourth element is a number, not a dash array", None),
    ("border-dash", TITLE_A, SQUARE % "/Border [ 0 0 60 [ (a) ] ]", TITLE_B,
     "the same with a dash array holding a string", None),
    ("ap-states-no-as", TITLE_A,
     "<< /Type /Annot /Subtype /Stamp /Rect %s /F 4 /AP << /N << /Off %%(empty)d 0 R /On %%(ap)d 0 R >> >> >>" % ANNOT_RECT,
     TITLE_B, "a Stamp annotation with two appearance states and no /AS to choose one", None),
    ("ap-not-stream", TITLE_A, "<< /Type /Annot /Subtype /Stamp /Rect %s /F 4 /AP << /N 5 >> >>" % ANNOT_RECT, TITLE_B,
     "a Stamp annotation whose normal appearance is the number 5, not a stream", None),
]


def build_annotations(b):
    b.stamp(ba.paper(), "A", "work/r2v-paper-a.pdf")
    b.stamp(ba.paper_b(), "A", "work/r2v-paper-b.pdf")
    b.stamp(ba.paper(title=""), "A", "work/r2v-paper-none.pdf")
    for key, page_title, annot, shown, what, twin in ANNOT_ATTACKS:
        name = "viewers-annot-%s.pdf" % key
        data = b.stamp(annot_paper(page_title, annot, shown), "A", name)
        page = "work/r2v-paper-%s.pdf" % {TITLE_A: "a", TITLE_B: "b", "": "none"}[page_title]
        if twin == "drop":  # poppler shows the annotation, MuPDF hides it
            ref = "work/r2v-annot-%s-shown.pdf" % key
            b.stamp(annot_paper(page_title, FREETEXT % (ANNOT_RECT, "4"), shown), "A", ref)
            want = (ref, page)
            claim = "poppler shows the annotation (A's title); MuPDF hides it (a page without a title)"
        elif twin:
            ref = "work/r2v-annot-%s-twin.pdf" % key
            b.stamp(annot_paper(page_title, twin, shown), "A", ref)
            want = (page, ref)
            claim = "poppler drops the annotation (A's title); MuPDF draws it (B's title over A's)"
        else:
            want = (page, "!" + page)
            claim = "poppler draws page 1 as without the annotation (A's title); MuPDF draws something over it"
        b.add(name, data, "viewers-annotation", "paper %s with %s over the title, stamped with A's record"
              % ({TITLE_A: "A", TITLE_B: "B", "": "A without its title"}[page_title], what),
              ("invalid", "pith.annotation.malformed"), claim, proof(*want))


# ---------------------------------------------------------------------------------------------
# object definitions

OBJ = re.compile(rb"(\d+) 0 obj\n(.*?)\nendobj\n", re.S)


def objects_of(data):
    return {int(m.group(1)): m.group(2) for m in OBJ.finditer(data)}


def xref_stream_file(objs, root, in_stream=(), dup=None, prefix=b"", after=b"", size=None):
    """A one-revision PDF with a cross-reference stream: `objs` {num: body}; the numbers in
    `in_stream` go into one object stream (`dup` = (num, body): a first definition of num put
    before the real one in that stream; the xref's index names the real one). `prefix` goes
    before %PDF- (offsets stay relative to the header, as the specification says); `after` goes
    after the objects, unlisted. `size`: the trailer's /Size (default: just past the last)."""
    out = bytearray(prefix + pdfwriter.header())
    hdr = len(prefix)
    rows = {}
    for n in sorted(objs):
        if n in in_stream:
            continue
        rows[n] = (1, len(out) - hdr, 0)
        out += pdfwriter.indirect(n, objs[n])
    out += after
    top = max(objs)
    if in_stream:
        sn = top + 1
        items = ([dup] if dup else []) + [(n, objs[n]) for n in in_stream]
        head, body = b"", b""
        for n, text in items:
            head += b"%d %d " % (n, len(body))
            body += text + b"\n"
        data = head + b"\n" + body
        rows[sn] = (1, len(out) - hdr, 0)
        out += pdfwriter.indirect(sn, stream("/Type /ObjStm /N %d /First %d" % (len(items), len(head) + 1), data))
        for i, n in enumerate(in_stream):
            rows[n] = (2, sn, i + (1 if dup else 0))
        top = sn
    xn = top + 1
    rows[xn] = (1, len(out) - hdr, 0)
    count = xn + 1
    table = b"".join(pdfwriter.xref_row(*rows.get(n, (0, 0, 0xffff))) for n in range(count))
    out += pdfwriter.indirect(xn, pdfwriter.stream(b"/Type /XRef /W [ 1 4 2 ] /Index [ 0 %d ] /Size %d /Root %d 0 R"
                                                   % (count, size or count, root) + pdfwriter.ID_ENTRY, table))
    out += pdfwriter.startxref(rows[xn][1])
    return bytes(out)


JUNK = b"Content-Type: application/pdf\r\nX-Mailer: attack-suite\r\n\r\n"


def build_objects(b):
    objs = objects_of(ba.paper())
    b_content = stream("", TITLE_OPS[TITLE_B] + text_lines("F2", 10, 72, 630, ba.BODY))
    pages_b = b"<< /Type /Pages /Kids [ %d 0 R ] /Count 1 >>" % (max(objs) + 3)
    # object stream: the page tree node twice, first pointing at a page showing B's title
    extra = dict(objs)
    nb, cb = max(objs) + 3, max(objs) + 4
    page_a = objs[ba.PAGE].decode("latin-1")
    extra[nb] = page_a.replace(" %d 0 R" % ba.CONTENT, " %d 0 R" % cb, 1).encode("latin-1")
    extra[cb] = b_content.encode("latin-1") if isinstance(b_content, str) else b_content
    # leave room: xref_stream_file numbers the object stream and xref after max(extra)
    control = xref_stream_file(objs, ba.CATALOG, in_stream=(ba.PAGES, ba.F1, ba.F2, ba.F3))
    b.add("control-viewers-objstm.pdf", b.stamp(control, "A", "control-viewers-objstm.pdf"), "control",
          "honest A written with a cross-reference stream and its page tree and fonts in an object stream", None,
          "both renderers show A's title", [["text_has", TITLE_A, "both"]], control=True)
    dup = xref_stream_file(extra, ba.CATALOG, in_stream=(ba.PAGES, ba.F1, ba.F2, ba.F3), dup=(ba.PAGES, pages_b))
    data = b.stamp(dup, "A", "viewers-objstm-duplicate.pdf")
    b.add("viewers-objstm-duplicate.pdf", data, "viewers-objects",
          "paper A whose object stream defines the page tree node twice: first with a page showing B's title, then (the "
          "definition the xref entry's index names) with A's page; stamped with A's record",
          ("invalid", "pith.objects.ambiguous"), "poppler (the indexed definition) shows A's stamped page; MuPDF (the "
          "first definition) shows B's page", proof("control-viewers-objstm.pdf", "!control-viewers-objstm.pdf")
          + [["text_has", TITLE_A, "poppler"], ["text_has", TITLE_B, "mupdf"], ["text_lacks", TITLE_A, "mupdf"]])
    # bytes before %PDF-: MuPDF rebuilds the xref by scanning and reads what none lists
    junk = xref_stream_file(objs, ba.CATALOG, prefix=JUNK)
    b.add("control-viewers-header-junk.pdf", b.stamp(junk, "A", "control-viewers-header-junk.pdf"), "control",
          "honest A with a mail header before %PDF- (offsets relative to the header, as the specification says)", None,
          "both renderers show A's title", [["text_has", TITLE_A, "both"]], control=True)
    unlisted = b"%d 0 obj\n" % ba.CONTENT + (b_content if isinstance(b_content, bytes) else b_content.encode("latin-1")) + b"\nendobj\n"
    data = b.stamp(xref_stream_file(objs, ba.CATALOG, prefix=JUNK, after=unlisted), "A", "viewers-header-junk-unlisted.pdf")
    b.add("viewers-header-junk-unlisted.pdf", data, "viewers-objects",
          "paper A with bytes before %PDF- and, after its objects, a second definition of its content stream (B's title) "
          "that no xref lists; stamped with A's record", ("invalid", "pith.objects.ambiguous"),
          "poppler follows the xref (A's title); MuPDF rebuilds it by scanning and reads the later definition (B's title)",
          proof("control-viewers-header-junk.pdf", "!control-viewers-header-junk.pdf")
          + [["text_has", TITLE_A, "poppler"], ["text_has", TITLE_B, "mupdf"]])
    # a page-tree node that says /Count 0 over A's page, then B's page: poppler walks /Kids and
    # shows A's page first; MuPDF (and pith's way down by /Count) skips the node, so that page 1 is
    # B's, where pith stamp draws the badge
    nz, pb, cb2 = max(objs) + 1, max(objs) + 2, max(objs) + 3
    zero = dict(objs)
    zero[ba.PAGE] = page_a.replace("/Parent %d 0 R" % ba.PAGES, "/Parent %d 0 R" % nz, 1).encode("latin-1")
    zero[nz] = b"<< /Type /Pages /Parent %d 0 R /Kids [ %d 0 R ] /Count 0 >>" % (ba.PAGES, ba.PAGE)
    zero[pb] = page_a.replace(" %d 0 R" % ba.CONTENT, " %d 0 R" % cb2, 1).encode("latin-1")
    zero[cb2] = extra[cb]
    zero[ba.PAGES] = b"<< /Type /Pages /Kids [ %d 0 R %d 0 R ] /Count 1 >>" % (nz, pb)
    b.write("work/r2v-paper-a-plain.pdf", ba.paper())
    data = b.stamp(xref_stream_file(zero, ba.CATALOG), "A", "viewers-pages-count-zero.pdf")
    b.add("viewers-pages-count-zero.pdf", data, "viewers-objects",
          "paper A whose page tree holds a node saying /Count 0 over A's page, then a page showing B's title (the one "
          "/Count reaches first, where the stamp draws its badge); stamped with A's record", ("invalid", "pith.objects.ambiguous"),
          "poppler walks /Kids: page 1 is A's page, unstamped; MuPDF skips the /Count 0 node: page 1 is B's, with the badge",
          proof("work/r2v-paper-a-plain.pdf", "!work/r2v-paper-a-plain.pdf")
          + [["text_has", TITLE_A, "poppler"], ["text_has", TITLE_B, "mupdf"], ["text_lacks", TITLE_A, "mupdf"]])
    # an annotation object within /Size that no xref lists: null for poppler, an annotation for MuPDF
    ghost = max(objs) + 40
    cover = stream("/Type /XObject /Subtype /Form /BBox [ 0 0 560 30 ] /Resources << /Font << /F3 %d 0 R >> >>" % F3,
                   title_ap(TITLE_B))
    cover = cover if isinstance(cover, bytes) else cover.encode("latin-1")
    after = (b"%d 0 obj\n" % ghost + cover + b"\nendobj\n" + b"%d 0 obj\n<< /Type /Annot /Subtype /Stamp /Rect %s /F 4 /AP << /N %d 0 R >> >>"
             b"\nendobj\n" % (ghost + 1, ANNOT_RECT.encode(), ghost))
    ghosted = dict(objs)
    ghosted[ba.PAGE] = objs[ba.PAGE][:-2].rstrip() + b" /Annots [ %d 0 R ] >>" % (ghost + 1)
    data = b.stamp(xref_stream_file(ghosted, ba.CATALOG, prefix=JUNK, after=after, size=ghost + 2), "A",
                   "viewers-header-junk-ghost.pdf")
    b.add("viewers-header-junk-ghost.pdf", data, "viewers-objects",
          "paper A with bytes before %PDF-, its page listing an annotation object (within /Size) that no xref lists, "
          "defined after its objects: a Stamp showing B's title over A's; stamped with A's record",
          ("invalid", "pith.objects.ambiguous"), "poppler reads the annotation as null (A's title); MuPDF rebuilds the xref "
          "and draws it (B's title)", proof("control-viewers-header-junk.pdf", "!control-viewers-header-junk.pdf")
          + [["text_has", TITLE_B, "mupdf"]])


# ---------------------------------------------------------------------------------------------
# controls: the same constructs, plainly

def build_controls(b):
    logo = ("q 0.6 g 480 740 60 20 re f Q\n")

    def layer(on_usage):
        def hook(d):
            g = d.add("<< /Type /OCG /Name (Logo) %s>>" % (
                "/Usage << /View << /ViewState /ON >> /Print << /PrintState /ON >> /Export << /ExportState /ON >> >> "
                if on_usage else ""))
            auto = (" /AS [ << /Event /View /Category [ /View ] /OCGs [ %d 0 R ] >> ]" % g) if on_usage else ""
            return {"ops": "/OC /lg BDC " + logo + "EMC\n", "res": {"Properties": "/lg %d 0 R" % g},
                    "catalog": "/OCProperties << /OCGs [ %d 0 R ] /D << /Order [ %d 0 R ]%s >> >>" % (g, g, auto)}
        return hook
    for key, on_usage, what in (("oc-layer", False, "a logo in an optional content group ON in /D"),
                                ("oc-usage-agrees", True, "a logo in a group ON in /D whose /Usage states are all ON "
                                                          "(with a View auto-state)")):
        name = "control-viewers-%s.pdf" % key
        b.add(name, b.stamp(ba.paper(hook=layer(on_usage)), "A", name), "control", "honest A with " + what, None,
              "both renderers show A's title and the logo", [["text_has", TITLE_A, "both"], ["differs", "work/r2v-paper-a.pdf"]],
              control=True)
    note = ("<< /Type /Annot /Subtype /Square /Rect [ 300 300 360 340 ] /F 4 /C [ 1 0 0 ] /Border [ 0 0 2 [ 3 2 ] ] "
            "/BS << /W 2 /S /D /D [ 3 2 ] >> /AP << /N %(ap)d 0 R >> >>")

    def square(d):
        ap = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 60 40 ] /Matrix [ 1 0 0 1 0 0 ]",
                          "1 0 0 RG 2 w [ 3 2 ] 0 d 1 1 58 38 re S\n"))
        return {"annots": [d.add(note % {"ap": ap})]}
    name = "control-viewers-annotation.pdf"
    b.add(name, b.stamp(ba.paper(hook=square), "A", name), "control",
          "honest A with a well-formed Square annotation (integer /F, four-number /Rect, /Border with a dash array, /BS, an "
          "appearance stream) away from the title", None, "both renderers draw the square; A's title shows",
          [["text_has", TITLE_A, "both"], ["differs", "work/r2v-paper-a.pdf"]], control=True)


# ---------------------------------------------------------------------------------------------
# the screen and the printed copy

# (key, annotation over the title (FLAGS: its /F), it shows, what)
PRINT_ATTACKS = [
    ("freetext", FREETEXT % (ANNOT_RECT, "FLAGS"), TITLE_B, "a FreeText annotation showing B's title"),
    ("stamp", (STAMP % ("/Rect " + ANNOT_RECT)).replace("/F 4", "/F FLAGS"), TITLE_B, "a Stamp annotation showing B's title"),
    ("erase", "<< /Type /Annot /Subtype /Square /Rect %s /F FLAGS /C [ 1 1 1 ] /AP << /N %%(ap)d 0 R >> >>" % ANNOT_RECT, "",
     "a Square annotation painting white over the title"),
]


def build_print(b):
    """The screen shows A's title and the printed copy another: an annotation over the title
    flagged NoView and Print (/F 36), which viewers hide and printers print."""
    for key, annot, shown, what in PRINT_ATTACKS:
        name = "viewers-print-%s.pdf" % key
        data = b.stamp(annot_paper(TITLE_A, annot.replace("FLAGS", "36"), shown), "A", name)
        twin = "work/r2v-print-%s-shown.pdf" % key  # the same annotation shown on screen and in print
        b.stamp(annot_paper(TITLE_A, annot.replace("FLAGS", "4"), shown), "A", twin)
        b.add(name, data, "viewers-print", "paper A with %s over the title, flagged NoView and Print (/F 36), stamped with "
              "A's record" % what, ("unverified", "pith.construct.unlisted"),
              "on screen poppler and MuPDF show A's stamped page; printed (Ghostscript -dPrinted, pdftocairo -ps) it shows "
              "the annotation over A's title", [["mod", "viewers", "prints", {"screen": "work/r2v-paper-a.pdf", "print": twin}]])


def build_keys_twice(b):
    """The page tree node holds /Kids twice, first a page showing B's title, then A's page:
    PoDoFo, poppler, MuPDF and qpdf keep the last value, Ghostscript the first. (Not the page
    itself: pith stamp writes the page again, with one /Contents.)"""
    objs = objects_of(ba.paper())
    twice = dict(objs)
    page_b, content_b = max(objs) + 1, max(objs) + 2
    content = stream("", TITLE_OPS[TITLE_B] + text_lines("F2", 10, 72, 630, ba.BODY))
    twice[content_b] = content.encode("latin-1") if isinstance(content, str) else content
    twice[page_b] = objs[ba.PAGE].replace(b" %d 0 R" % ba.CONTENT, b" %d 0 R" % content_b, 1)
    twice[ba.PAGES] = objs[ba.PAGES].replace(b"/Kids", b"/Kids [ %d 0 R ] /Kids" % page_b, 1)
    assert twice[ba.PAGES].count(b"/Kids") == 2 and twice[page_b] != objs[ba.PAGE], twice[ba.PAGES]
    for key, in_stream in (("", ()), ("-objstm", (ba.PAGES,))):
        ref = "work/r2v-key-twice%s-ref.pdf" % key
        b.stamp(xref_stream_file(objs, ba.CATALOG, in_stream=in_stream), "A", ref)
        name = "viewers-key-twice%s.pdf" % key
        data = b.stamp(xref_stream_file(twice, ba.CATALOG, in_stream=in_stream), "A", name)
        b.add(name, data, "viewers-objects", "paper A whose page tree node%s holds /Kids twice: first a page showing "
              "B's title, then A's page; stamped with A's record" % (" (in an object stream)" if key else ""),
              ("unverified", "pith.construct.unlisted"), "poppler and MuPDF (the last value) show A's stamped page; Ghostscript "
              "(the first) shows B's title", [["mod", "viewers", "ghostscript_reads", {"others": ref, "has": TITLE_B,
                                                                                       "lacks": TITLE_A}]])


def build_annotation_key_twice(b):
    """A Stamp annotation over the title holding /AP twice: first an appearance showing B's title,
    then an empty one. poppler and MuPDF draw the last (nothing: A's stamped page), Ghostscript the
    first, B's title over A's."""
    twice = STAMP % ("/Rect " + ANNOT_RECT)
    twice = twice.replace("/AP << /N %(ap)d 0 R >>", "/AP << /N %(ap)d 0 R >> /AP << /N %(empty)d 0 R >>")
    assert twice.count("/AP") == 2, twice
    first = "work/r2v-annotation-key-twice-first.pdf"  # the same annotation with the first /AP only
    b.stamp(annot_paper(TITLE_A, STAMP % ("/Rect " + ANNOT_RECT), TITLE_B), "A", first)
    name = "viewers-key-twice-annotation.pdf"
    data = b.stamp(annot_paper(TITLE_A, twice, TITLE_B), "A", name)
    b.add(name, data, "viewers-objects", "paper A with a Stamp annotation over the title holding /AP twice: first an "
          "appearance showing B's title, then an empty one; stamped with A's record", ("unverified", "pith.construct.unlisted"),
          "poppler and MuPDF (the last value) show A's stamped page; Ghostscript (the first) draws B's title over A's",
          [["mod", "viewers", "ghostscript_draws", {"others": "work/r2v-paper-a.pdf", "ghostscript": first}]])


def build(b, a):
    build_annotations(b)  # makes the plain papers A and B the others compare with
    build_print(b)
    build_keys_twice(b)
    build_annotation_key_twice(b)
    build_oc(b)
    build_objects(b)
    build_controls(b)
