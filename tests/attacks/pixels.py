# SPDX-License-Identifier: MIT
"""Attack files of issue 29, class 1: the text layer says one thing, the pixels show another
(src/page/pixels.hpp, doc/visible.md "The title from pixels").

build(b, a) adds them to build_attacks.py's manifest. Each is stamped with A's record and its
claim is proved with poppler and MuPDF by build_attacks.py's Prover: the pixels of page 1 are
those of a paper that does not show A's title (same_render against a reference whose text layer
says what its glyphs draw), or a title a reader barely sees (near_render against no title)."""
import io

import build_attacks as ba
import pdfgen
from pdfgen import gray_image, pdf_string, stream, text_lines

# Another title with the same word lengths as A's, so that its glyphs can stand letter for letter
# where the text layer spells A's.
FORGED = "Robust Diffusion Solvers for Tiny Network Graphs"
assert [len(w) for w in FORGED.split()] == [len(w) for w in ba.TITLE_A.split()]


def to_unicode(chars):
    """A ToUnicode CMap mapping codes 1, 2, ... to `chars`."""
    pairs = "".join("<%02X> <%04X>\n" % (i + 1, ord(c)) for i, c in enumerate(chars))
    return stream("", "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) "
                  "/Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
                  "1 begincodespacerange <01> <FF> endcodespacerange\n%d beginbfchar\n%sendbfchar\n"
                  "endcmap CMapName currentdict /CMap defineresource pop end end\n" % (len(chars), pairs))


def codes(n):
    return "<" + "".join("%02X" % (i + 1) for i in range(n)) + ">"


def type3_title(drawn, spelled):
    """A hook-free title: a Type 3 font whose glyph i draws drawn[i] (Helvetica-Bold inside the
    glyph procedure) and whose ToUnicode spells spelled[i]. Returns (title_ops, hook)."""
    def hook(d):
        procs = []
        for ch in drawn:
            body = "600 0 d0\n" + ("" if ch == " " else "BT /H 1000 Tf 0 0 Td %s Tj ET\n" % pdf_string(ch))
            procs.append(d.add(stream("", body)))
        font = d.add("<< /Type /Font /Subtype /Type3 /FontBBox [ 0 -250 1000 1000 ] /FontMatrix [ 0.001 0 0 0.001 0 0 ] "
                     "/CharProcs << %s >> /Encoding << /Type /Encoding /Differences [ 1 %s ] >> /FirstChar 1 /LastChar %d "
                     "/Widths [ %s ] /Resources << /Font << /H %d 0 R >> >> /ToUnicode %d 0 R >>"
                     % (" ".join("/g%d %d 0 R" % (i + 1, p) for i, p in enumerate(procs)),
                        " ".join("/g%d" % (i + 1) for i in range(len(drawn))), len(drawn), " ".join(["600"] * len(drawn)),
                        ba.F3, d.add(to_unicode(spelled))))
        return {"res": {"Font": "/T3 %d 0 R" % font}}
    ops = "BT /T3 18 Tf 72 700 Td %s Tj ET\n" % codes(len(drawn))
    return ops, hook


def remapped_title(drawn, spelled):
    """Helvetica-Bold re-encoded so that code i draws drawn[i], with a ToUnicode spelling spelled[i]."""
    names = {" ": "space"}

    def hook(d):
        diffs = " ".join("/" + names.get(c, c) for c in drawn)
        font = d.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding << /Type /Encoding "
                     "/Differences [ 1 %s ] >> /ToUnicode %d 0 R >>" % (diffs, d.add(to_unicode(spelled))))
        return {"res": {"Font": "/RM %d 0 R" % font}}
    return "BT /RM 18 Tf 72 700 Td %s Tj ET\n" % codes(len(drawn)), hook


def build_lying_fonts(b):
    """Glyphs that draw another title than the text layer spells (a lying ToUnicode)."""
    for kind, make in (("type3", type3_title), ("remapped", remapped_title)):
        ref = "work/ref-%s-forged.pdf" % kind
        ops, hook = make(FORGED, FORGED)
        b.stamp(ba.paper(title_ops=ops, hook=hook), "A", ref)
        name = "pixels-tounicode-%s.pdf" % kind
        ops, hook = make(FORGED, ba.TITLE_A)
        data = b.stamp(ba.paper(title_ops=ops, hook=hook), "A", name)
        b.stamp_checks_title(name, "A", refused=True)
        how = ("a Type 3 font whose glyph procedures draw the letters of another title" if kind == "type3" else
               "Helvetica-Bold re-encoded (/Differences) to draw the letters of another title")
        b.add(name, data, "pixels-tounicode",
              "paper A's page with its title set in %s, while its ToUnicode map spells A's title; stamped with A's "
              "record" % how, ("invalid", "pith.title.pixels.differs"),
              "pdftotext and mutool extract A's title; both renderers draw exactly the pixels of the same page whose "
              "text layer says %r" % FORGED,
              [["text_has", ba.TITLE_A, "both"], ["same_render", ref]])
    # The reference itself: the forged title spelled honestly, stamped with A's record.
    b.add("pixels-tounicode-reference.pdf", b.read("work/ref-type3-forged.pdf"), "pixels-tounicode",
          "the Type 3 title of pixels-tounicode-type3.pdf with an honest ToUnicode (it spells %r), stamped with "
          "A's record" % FORGED, ("invalid", "pith.title.differs"),
          "pdftotext and mutool extract the forged title and not A's",
          [["text_has", FORGED, "both"], ["text_lacks", ba.TITLE_A, "both"]])


def build_faint(b):
    """A's title in a colour that passes a per-channel ink threshold but that a reader barely sees."""
    b.stamp(ba.paper(title_ops=""), "A", "work/ref-no-title.pdf")
    for colour, ops, levels, what in (("yellow", "1 1 0 rg", 32, "yellow (#ffff00, WCAG contrast 1.07:1)"),
                                      ("cyan", "0.75 1 1 rg", 24, "pale cyan (#bfffff, 1.1:1)"),
                                      ("grey", "0.8 g", 56, "grey 80 % (#cccccc, 1.6:1)")):
        name = "pixels-faint-%s.pdf" % colour
        title = "q %s\n%sQ\n" % (ops, text_lines("F3", 18, 72, 700, [ba.TITLE_A], leading=22))
        data = b.stamp(ba.paper(title_ops=title), "A", name)
        b.stamp_checks_title(name, "A", refused=True)
        b.add(name, data, "pixels-faint",
              "paper A with its title in %s on white, stamped with A's record" % what, ("invalid", "pith.title.pixels.faint"),
              "pdftotext and mutool extract A's title, but in both renders the page differs from A's page without a "
              "title by at most %d of 255 grey levels anywhere" % levels,
              [["text_has", ba.TITLE_A, "both"], ["near_render", "work/ref-no-title.pdf", 100000, levels]])


def build_inkless(b):
    """Paper B's title made to count as hidden in the text layer (an inkless, zero-advance glyph
    after each word), with A's title as a 12 pt heading further down (issue 14's fake heading)."""
    def hook(d):
        proc = d.add(stream("", "0 0 d0\n"))
        font = d.add("<< /Type /Font /Subtype /Type3 /FontBBox [ 0 0 0 0 ] /FontMatrix [ 0.001 0 0 0.001 0 0 ] "
                     "/CharProcs << /z %d 0 R >> /Encoding << /Type /Encoding /Differences [ 1 /z ] >> /FirstChar 1 "
                     "/LastChar 1 /Widths [ 0 ] /Resources << >> /ToUnicode %d 0 R >>" % (proc, d.add(to_unicode("x"))))
        return {"res": {"Font": "/Z %d 0 R" % font}, "ops": text_lines("F3", 12, 72, 545, [ba.TITLE_A])}
    shows = " ".join("%s Tj /Z 18 Tf <01> Tj /F3 18 Tf ( ) Tj" % pdf_string(w) for w in ba.TITLE_B.split())
    title = "BT /F3 18 Tf 72 700 Td %s ET\n" % shows
    data = b.stamp(ba.paper(title_ops=title, hook=hook), "A", "pixels-inkless-glyph.pdf")
    b.add("pixels-inkless-glyph.pdf", data, "pixels-inkless",
          "paper B whose 18 pt title words each end in a zero-width glyph that paints nothing, with A's title as a 12 pt "
          "bold line below the abstract, stamped with A's record", ("invalid", "pith.title.not_title"),
          "both renderers draw exactly the pixels of title-fake-heading.pdf (B's title above A's heading, in taller type)",
          [["same_render", "title-fake-heading.pdf"], ["text_has", ba.TITLE_A, "lines"]])


def build_transfer(b):
    """Page 1 is paper B, its title drawn under a transfer function (/TR) that turns pure black
    white and leaves its dark grey as it is; page 2 is paper A. A viewer shows B's title on page 1."""
    import pikepdf

    def two_pages(tr):
        def hook(d):
            fn = d.add(stream("/FunctionType 4 /Domain [ 0 1 ] /Range [ 0 1 ]", "{ dup 0.01 lt { pop 1 } if }"))
            gs = d.add("<< /Type /ExtGState /TR %d 0 R >>" % fn)
            return {"res": {"ExtGState": "/GTR %d 0 R" % gs}}
        title = "q %s0.05 g\n%sQ\n" % ("/GTR gs " if tr else "", text_lines("F3", 24, 40, 740, ["Quantum Annealing Schedules", "for Sparse Graph Colouring"], leading=28))
        first = pikepdf.open(io.BytesIO(ba.paper(title_ops=title, hook=hook)))
        second = pikepdf.open(io.BytesIO(ba.paper()))
        first.pages.append(second.pages[0])
        out = io.BytesIO()
        first.save(out, static_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
        return out.getvalue()
    b.stamp(two_pages(False), "A", "work/ref-transfer.pdf")
    data = b.stamp(two_pages(True), "A", "pixels-transfer-function.pdf")
    b.add("pixels-transfer-function.pdf", data, "pixels-transfer",
          "two pages: paper B with its title in 24 pt (larger than A's) and 5 % grey under /TR (a function that turns "
          "pure black white: pith's glyph mask, so that page 1 counted as front matter), then paper A; stamped with "
          "A's record", ("invalid", "pith.title.differs"),
          "both renderers draw page 1 exactly as without the transfer function: B's title, which pdftotext and mutool "
          "extract from page 1",
          [["same_render", "work/ref-transfer.pdf"], ["text_has", ba.TITLE_B, "both"], ["text_lacks", ba.TITLE_A, "both"]])


def build_image_title(b):
    """Paper B's title set as an image (a scan of it, or outlines), with A's title as a 13 pt bold
    heading below the abstract: no text on the page outranks A's heading, the pixels do."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        src = tmp + "/title.pdf"
        with open(src, "wb") as f:
            f.write(ba.paper(title_ops=text_lines("F3", 20, 4, 34, ["Quantum Annealing Schedules", "for Sparse Graph Colouring"],
                                                  leading=24), body=[], box=(560, 56)))
        subprocess.run(["pdftoppm", "-q", "-r", "150", "-gray", "-singlefile", src, tmp + "/title"], check=True)
        w, h, pixels = ba.read_pgm(tmp + "/title.pgm")

    def hook(d):
        image = d.add(stream("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                             "/BitsPerComponent 8" % (w, h), pixels))
        return {"res": {"XObject": "/ImT %d 0 R" % image},
                "ops": "q 560 0 0 56 40 680 cm /ImT Do Q\n" + text_lines("F3", 13, 72, 545, [ba.TITLE_A])}
    data = b.stamp(ba.paper(title_ops="", hook=hook), "A", "pixels-image-title.pdf")
    b.add("pixels-image-title.pdf", data, "pixels-outranked",
          "paper B with its 20 pt title (two lines) as an image (no text), and A's title as a 13 pt bold line below the abstract, the "
          "largest text on the page; stamped with A's record", ("invalid", "pith.title.pixels.outranked"),
          "pdftotext and mutool extract A's title and not B's; both renderers show B's title above it (the region of "
          "the image holds dark pixels)",
          [["text_has", ba.TITLE_A, "both"], ["text_lacks", "Quantum", "both"],
           ["py", "region_dark_in", ["pixels-image-title.pdf", [40, 690, 400, 730]]]])


def build_image_title_below(b):
    """Paper B with its title as a picture (outlines, a scan) and A's title added above it as a
    14 pt line at the top of the page: the largest text of the text layer, and the top line, but
    B's title below it is set larger."""
    w, h, px = image_of(text_lines("F3", 22, 4, 34, ["Quantum Annealing Schedules", "for Sparse Graph Colouring"],
                                   leading=26), box=(560, 60))

    def hook(d):
        image = d.add(stream("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                             "/BitsPerComponent 8" % (w, h), px))
        return {"res": {"XObject": "/ImT %d 0 R" % image},
                "ops": text_lines("F3", 14, 72, 750, [ba.TITLE_A]) + "q 560 0 0 60 40 680 cm /ImT Do Q\n"}
    data = b.stamp(ba.paper(title_ops="", hook=hook), "A", "pixels-image-title-below.pdf")
    b.stamp_checks_title("pixels-image-title-below.pdf", "A", refused=True)
    b.add("pixels-image-title-below.pdf", data, "pixels-outranked",
          "paper B with its 22 pt title (two lines) as an image (no text), and A's title as a 14 pt bold line above it "
          "at the top of the page, the largest text of the page's text layer; stamped with A's record",
          ("invalid", "pith.title.pixels.outranked"),
          "pdftotext and mutool extract A's title and not B's; both renderers show B's title below it in larger type "
          "(the region of the image holds dark pixels)",
          [["text_has", ba.TITLE_A, "both"], ["text_lacks", "Quantum", "both"],
           ["py", "region_dark_in", ["pixels-image-title-below.pdf", [40, 690, 400, 735]]]])


# A Chinese title and another of as many characters (issue 29: titles in other scripts), each
# character drawn once, so that a ToUnicode map can spell one where the glyphs draw the other.
TITLE_HAN = "深度学习图像识别方法"       # deep-learning methods of image recognition
FORGED_HAN = "量子计算纠错编码方案"      # a scheme of error-correcting codes for quantum computing
assert len(TITLE_HAN) == len(FORGED_HAN) == len(set(FORGED_HAN))


def han_title(drawn, spelled=None):
    """A title in Adobe's STSong-Light with UCS-2 codes (UniGB-UCS2-H), not embedded: poppler draws it
    with the system's Han font (fonts-wqy-microhei), MuPDF with its own. The codes draw `drawn`; a
    ToUnicode map spelling `spelled` character for character, when given. Returns (title_ops, hook)."""
    def hook(d):
        desc = d.add("<< /Type /FontDescriptor /FontName /STSong-Light /Flags 4 /FontBBox [ 0 -200 1000 900 ] "
                     "/ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 80 >>")
        cid = d.add("<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) "
                    "/Ordering (GB1) /Supplement 2 >> /FontDescriptor %d 0 R /DW 1000 >>" % desc)
        to_unicode = ""
        if spelled is not None:
            pairs = "".join("<%04X> <%04X>\n" % (ord(c), ord(s)) for c, s in zip(drawn, spelled))
            to_unicode = " /ToUnicode %d 0 R" % d.add(stream("", "/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
                                                             "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def "
                                                             "/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n1 begincodespacerange "
                                                             "<0000> <FFFF> endcodespacerange\n%d beginbfchar\n%sendbfchar\nendcmap "
                                                             "CMapName currentdict /CMap defineresource pop end end\n"
                                                             % (len(drawn), pairs)))
        font = d.add("<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light-UniGB-UCS2-H /Encoding /UniGB-UCS2-H "
                     "/DescendantFonts [ %d 0 R ]%s >>" % (cid, to_unicode))
        return {"res": {"Font": "/HT %d 0 R" % font}}
    return "BT /HT 20 Tf 72 700 Td <%s> Tj ET\n" % "".join("%04X" % ord(c) for c in drawn), hook


def ocr_reads(p, name, language, want, lacks):
    """pdftoppm and mutool draw render the title's strip of page 1 (150 dpi), Tesseract (`language`)
    reads it: it shows `want`'s characters in order and not `lacks`' (spaces ignored)."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-q", "-r", "150", "-f", "1", "-l", "1", "-x", "0", "-y", "110", "-W", "1275", "-H", "120",
                        "-png", "-singlefile", p.path(name), tmp + "/p"], check=True)
        subprocess.run(["mutool", "draw", "-q", "-r", "150", "-o", tmp + "/m.png", p.path(name), "1"], check=True)
        readings = {}
        for tool, image in (("poppler", tmp + "/p.png"), ("mupdf", tmp + "/m.png")):
            r = subprocess.run(["tesseract", image, "-", "-l", language, "--psm", "11"], capture_output=True, timeout=120)
            text = "".join(r.stdout.decode("utf-8", "replace").split())
            readings[tool] = text
            if want not in text or lacks in text:
                return "%s + tesseract -l %s read %r" % (tool, language, text[:80])
    p.note.append("tesseract reads %r from both renders" % readings["poppler"][:40])
    return None


def build_han(b):
    """A Chinese title: honest (a control), and drawn as another while its ToUnicode spells the record's."""
    b.numbers["H"] = b.record("H", TITLE_HAN)
    ops, hook = han_title(TITLE_HAN)
    data = b.stamp(ba.paper(title_ops=ops, hook=hook), "H", "control-han-title.pdf")
    b.stamp_checks_title("control-han-title.pdf", "H", refused=False)
    b.add("control-han-title.pdf", data, "control", "paper A's page with a Chinese title (STSong-Light, UniGB-UCS2-H, not "
          "embedded), stamped with the record of that title", None,
          "pdftotext and mutool extract the Chinese title; Tesseract (chi_sim) reads it from both renders",
          [["text_has", TITLE_HAN, "both"], ["mod", "pixels", "ocr_reads", "chi_sim", TITLE_HAN, FORGED_HAN]],
          control=True)
    ops, hook = han_title(FORGED_HAN, FORGED_HAN)
    b.stamp(ba.paper(title_ops=ops, hook=hook), "H", "work/ref-han-forged.pdf")
    ops, hook = han_title(FORGED_HAN, TITLE_HAN)
    data = b.stamp(ba.paper(title_ops=ops, hook=hook), "H", "pixels-tounicode-han.pdf")
    b.stamp_checks_title("pixels-tounicode-han.pdf", "H", refused=True)
    b.add("pixels-tounicode-han.pdf", data, "pixels-tounicode",
          "paper A's page with a Chinese title whose glyphs draw %s while its ToUnicode map spells the record's title %s; "
          "stamped with that record" % (FORGED_HAN, TITLE_HAN), ("invalid", "pith.title.pixels.differs"),
          "pdftotext and mutool extract the record's title; both renderers draw exactly the pixels of the page whose text "
          "layer says %s, which Tesseract (chi_sim) reads" % FORGED_HAN,
          [["text_has", TITLE_HAN, "both"], ["same_render", "work/ref-han-forged.pdf"],
           ["mod", "pixels", "ocr_reads", "chi_sim", FORGED_HAN, TITLE_HAN]])


CHECKS = {"ocr_reads": ocr_reads}


def build(b, a):
    build_han(b)
    build_lying_fonts(b)
    build_faint(b)
    build_inkless(b)
    build_transfer(b)
    build_image_title(b)
    build_image_title_below(b)
    build_covers(b)


def pages(*papers):
    """One PDF of the first page of each of `papers` (PDF bytes), in order."""
    import pikepdf
    opened = [pikepdf.open(io.BytesIO(data)) for data in papers]  # open while their pages are copied
    first = opened[0]
    for other in opened[1:]:
        first.pages.append(other.pages[0])
    out = io.BytesIO()
    first.save(out, static_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


def image_of(title_ops, box=(560, 56), dpi=150):
    """(width, height, grey pixels) of `title_ops` typeset on a box of that size: a title as a
    picture (a scan of it, or outlines), with no text layer."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        with open(tmp + "/t.pdf", "wb") as f:
            f.write(ba.paper(title_ops=title_ops, body=[], box=box))
        subprocess.run(["pdftoppm", "-q", "-r", str(dpi), "-gray", "-singlefile", tmp + "/t.pdf", tmp + "/t"], check=True)
        return ba.read_pgm(tmp + "/t.pgm")


def cover(ops="", hook=None):
    """A cover page: only `ops` (fonts F2 Times-Roman, F3 Helvetica-Bold), and what `hook(doc)`
    adds ({ops, res} as for build_attacks.paper)."""
    d = pdfgen.Doc()
    catalog, pages, page = d.add(""), d.add(""), d.add("")
    f2 = d.add("<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>")
    f3 = d.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    extra = hook(d) if hook else {}
    res = {"Font": "/F2 %d 0 R /F3 %d 0 R" % (f2, f3)}
    for k, v in extra.get("res", {}).items():
        res[k] = (res.get(k, "") + " " + v).strip()
    res = " ".join("/%s << %s >>" % kv for kv in res.items())
    content = d.add(stream("", ops + extra.get("ops", "")))
    d.set(page, "<< /Type /Page /Parent %d 0 R /MediaBox [ 0 0 612 792 ] /Resources << %s >> /Contents %d 0 R >>"
          % (pages, res, content))
    d.set(pages, "<< /Type /Pages /Kids [ %d 0 R ] /Count 1 >>" % page)
    d.set(catalog, "<< /Type /Catalog /Pages %d 0 R >>" % pages)
    return d.write(catalog)


def build_covers(b):
    """Paper A's pages after a cover that names paper B: a reader who opens the file sees B's
    title first. The text layer cannot tell such a cover from front matter (a short page with no
    type larger than the title's) when B's title is a picture, smaller than A's, or text made to
    count as hidden; the pixels can."""
    a = ba.paper()
    b_title = ["Quantum Annealing Schedules", "for Sparse Graph Colouring"]
    w, h, px = image_of(text_lines("F3", 20, 4, 34, b_title, leading=24))

    def picture(d):
        image = d.add(stream("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                             "/BitsPerComponent 8" % (w, h), px))
        return {"res": {"XObject": "/ImT %d 0 R" % image}, "ops": "q 560 0 0 56 40 600 cm /ImT Do Q\n"}
    def inkless(d):
        proc = d.add(stream("", "0 0 d0\n"))
        font = d.add("<< /Type /Font /Subtype /Type3 /FontBBox [ 0 0 0 0 ] /FontMatrix [ 0.001 0 0 0.001 0 0 ] "
                     "/CharProcs << /z %d 0 R >> /Encoding << /Type /Encoding /Differences [ 1 /z ] >> /FirstChar 1 "
                     "/LastChar 1 /Widths [ 0 ] /Resources << >> /ToUnicode %d 0 R >>" % (proc, d.add(to_unicode("x"))))
        return {"res": {"Font": "/Z %d 0 R" % font}}
    def shows(line, y):
        words = " ".join("%s Tj /Z 24 Tf <01> Tj /F3 24 Tf ( ) Tj" % pdf_string(w) for w in line.split())
        return "BT /F3 24 Tf 40 %d Td %s ET\n" % (y, words)
    cases = [
        ("pixels-cover-hidden.pdf", cover(shows(b_title[0], 620) + shows(b_title[1], 590), hook=inkless),
         "a cover naming B in 24 pt (A's title is 18 pt), each word followed by a zero-width glyph that paints "
         "nothing (the trick that made a heading count as partly painted)",
         [["py", "region_dark_in", ["pixels-cover-hidden.pdf", [40, 590, 400, 640]]]],
         ("invalid", "pith.title.differs")),
        # No text on page 1 at all: nothing there to compare, so unverified, never trusted.
        ("pixels-cover-image.pdf", cover(hook=picture),
         "a cover whose only content is B's 20 pt title as a picture (no text)",
         [["py", "region_dark_in", ["pixels-cover-image.pdf", [40, 610, 400, 650]]], ["text_lacks", "Quantum", "both"]],
         ("unverified", "pith.title.none")),
        ("pixels-cover-smaller.pdf", cover(text_lines("F3", 16, 72, 600, b_title, leading=20) +
                                           text_lines("F2", 12, 72, 540, ba.AUTHORS)),
         "a cover naming B in 16 pt text (A's title is 18 pt) with its authors",
         [["text_has", ba.TITLE_B, "both"]], ("invalid", "pith.title.differs")),
    ]
    for name, first, what, proof, expect in cases:
        data = b.stamp(pages(first, a), "A", name)
        b.stamp_checks_title(name, "A", refused=True,
                             code="stamp.title_unchecked" if expect[0] == "unverified" else "stamp.title_not_shown")
        b.add(name, data, "pixels-cover",
              "two pages: %s, then paper A; stamped with A's record" % what, expect,
              "page 1 shows B's title in both renderers and holds none of A's: pdftotext and mutool extract A's "
              "title from page 2 only",
              proof + [["text_lacks", ba.TITLE_A, "both"]])
    highlights = cover(text_lines("F3", 14, 72, 700, ["Highlights"]) + text_lines("F2", 11, 72, 670, [ba.TITLE_A]) +
                       text_lines("F2", 10, 72, 640, ["- Kernels that skip empty blocks", "- Twice the context at equal cost"]))
    b.add("control-cover-highlights.pdf", b.stamp(pages(highlights, a), "A", "control-cover-highlights.pdf"), "control",
          "two pages: a highlights page that repeats A's title in 11 pt, then paper A; stamped with A's record", None,
          "front matter that names the paper itself", [], control=True)
    b.stamp_checks_title("control-cover-highlights.pdf", "A", refused=False)
    blank_picture = cover(hook=lambda d: {"res": {"XObject": "/ImP %d 0 R" % d.add(gray_image(3))},
                                          "ops": "q 400 0 0 400 106 200 cm /ImP Do Q\n"})
    b.add("control-cover-picture.pdf", b.stamp(pages(blank_picture, a), "A", "control-cover-picture.pdf"), "control",
          "two pages: a cover that is a picture with no words, then paper A; stamped with A's record", None,
          "a cover that names nothing", [], control=True)
    b.stamp_checks_title("control-cover-picture.pdf", "A", refused=False)

