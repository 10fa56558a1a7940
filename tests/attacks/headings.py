# SPDX-License-Identifier: MIT
"""Attack files: a second heading that reframes the paper. The record's title is on page 1, set
as a title, but the page as a reader sees it is another paper: a line of its own above the title
in nearly the same type ("A Critique of"), a larger title in another colour beside a paler record
title, a larger heading drawn as outlines, as an image or in glyphs the text layer calls hidden,
a heading written as one "word" joined by punctuation, two titles side by side, one huge word
over the title; and, not in the default build (headings_same_type.py), other titles below A's in
its type. Each is `invalid` (pith.title.pixels.outranked: the lines
the pixels show, whatever draws them, weighed by the type they are set in, src/page/pixels.cpp;
a line of two words or more in the text layer right over the title in nearly its type outranks it
before the pixels are read: pith.title.not_title, src/page/title.cpp).

Each is paper A's page (or A's title on a page of its own) stamped by plain `pith stamp` with A's
record (words.stamp_plain). Proofs: pdftotext and mutool extract A's title; Tesseract reads the
heading in a poppler and a MuPDF render of page 1; where the heading is no text, neither extractor
finds it."""
import io
import subprocess
import tempfile

import build_attacks as ba
import pixels
import words
from pdfgen import pdf_string, stream, text_lines

TITLE = text_lines("F3", 18, 72, 700, [ba.TITLE_A], leading=22)


def line(text, size, y, colour="0 g", x=72, font="F3"):
    return "q %s BT /%s %g Tf %g %g Td %s Tj ET Q\n" % (colour, font, size, x, y, pdf_string(text))


def page_of(ops, box=(612, 792)):
    """A page showing only `ops` (fonts F2 Times-Roman, F3 Helvetica-Bold), without text elsewhere."""
    return pixels.cover(ops) if box == (612, 792) else ba.paper(title_ops=ops, body=[], box=box)


def outlines(ops):
    """`ops` on an empty page, its text turned into filled outlines (Ghostscript -dNoOutputFonts)."""
    with tempfile.TemporaryDirectory() as tmp:
        with open(tmp + "/in.pdf", "wb") as f:
            f.write(page_of(ops))
        subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-dNoOutputFonts", "-sDEVICE=pdfwrite",
                        "-o", tmp + "/out.pdf", tmp + "/in.pdf"], check=True, capture_output=True)
        with open(tmp + "/out.pdf", "rb") as f:
            return f.read()


def overlay(data, *layers):
    """`data`'s page 1 with each of `layers` (one-page PDFs of the same size) drawn over it."""
    import pikepdf
    pdf = pikepdf.open(io.BytesIO(data))
    opened = [pikepdf.open(io.BytesIO(layer)) for layer in layers]
    for other in opened:
        form = pdf.copy_foreign(pikepdf.Page(other.pages[0]).as_form_xobject())
        pikepdf.Page(pdf.pages[0]).add_overlay(form, pikepdf.Rectangle(0, 0, 612, 792))
    out = io.BytesIO()
    pdf.save(out, static_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


def side_by_side(left, right):
    """One 1224 x 792 page: `left`'s page 1 and `right`'s side by side (two pages printed 2-up)."""
    import pikepdf
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(1224, 792))
    opened = [pikepdf.open(io.BytesIO(d)) for d in (left, right)]
    for i, other in enumerate(opened):
        form = pdf.copy_foreign(pikepdf.Page(other.pages[0]).as_form_xobject())
        pikepdf.Page(pdf.pages[0]).add_overlay(form, pikepdf.Rectangle(612 * i, 0, 612 * (i + 1), 792))
    out = io.BytesIO()
    pdf.save(out, static_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


def image_hook(ops, y, height=44):
    """A hook drawing `ops` (set on a 560 x height box) as a grey image at (40, y): no text."""
    w, h, px = pixels.image_of(ops, box=(560, height))

    def hook(d):
        image = d.add(stream("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                             "/BitsPerComponent 8" % (w, h), px))
        return {"res": {"XObject": "/ImH %d 0 R" % image}, "ops": "q 560 0 0 %d 40 %d cm /ImH Do Q\n" % (height, y)}
    return hook


REFRAME = "Why Sparse Attention Kernels Fail"  # a heading that reverses A's claim


def attack(b, name, cls, data, what, heading, proof=(), expect=("invalid", "pith.title.pixels.outranked"), lacks=None):
    stamped, said = words.stamp_plain(b, data, "A", name)
    words.add(b, name, stamped, cls, what + "; stamped with A's record", expect,
              "pdftotext and mutool extract A's title; Tesseract reads %r in both renders of page 1" % heading,
              [["text_has", ba.TITLE_A, "both"], ["mod", "words", "ocr_reads", heading, lacks]] + list(proof), said)


def build_above(b):
    cls = "heading-above"
    in_text_layer = ("invalid", "pith.title.not_title")  # two words or more: the text layer's line outranks it
    for stem, text, size, expect in (("critique", "A Critique of", 17, in_text_layer),
                                     ("erratum", "Erratum to:", 17, in_text_layer),
                                     ("response", "A Response to", 17, in_text_layer),
                                     ("retracted", "Retracted:", 18, ("invalid", "pith.title.pixels.outranked"))):
        attack(b, "%s-%s.pdf" % (cls, stem), cls, ba.paper(title_ops=line(text, size, 724) + TITLE),
               "paper A with %r as a line of its own above its title in %g pt Helvetica-Bold (the title's is 18 pt)"
               % (text, size), text.rstrip(":"), expect=expect)


def build_colour(b):
    cls = "heading-colour"
    b_lines = ["Quantum Annealing Schedules", "for Sparse Graph Colouring"]
    ops = line(ba.TITLE_A, 14, 742, "0.45 g") + text_lines("F3", 16, 72, 706, b_lines, leading=20).replace(
        "BT", "q 0.6 0 0 rg BT", 1).replace("ET", "ET Q", 1)
    attack(b, "heading-colour-below.pdf", cls, ba.paper(title_ops=ops),
           "A's title in 14 pt grey (#737373) at the top, and below it B's title in 16 pt dark red (two lines), above "
           "A's authors and abstract", "Quantum Annealing Schedules")
    ops = line(ba.TITLE_A, 18, 752, "0.6 g") + text_lines("F3", 20, 72, 722, b_lines, leading=24).replace(
        "BT", "q 0 0 0.7 rg BT", 1).replace("ET", "ET Q", 1)
    attack(b, "heading-colour-larger.pdf", cls, ba.paper(title_ops=ops, body=ba.BODY[:4]),
           "A's title in 18 pt light grey (#999999) at the top, and below it B's title in 20 pt blue (two lines)",
           "Quantum Annealing Schedules")


def build_drawn(b):
    cls = "heading-drawn"
    heading = line(REFRAME, 22, 728)
    attack(b, "heading-drawn-outlines.pdf", cls, overlay(ba.paper(), outlines(heading)),
           "paper A with %r above its title in 22 pt Helvetica-Bold drawn as filled outlines (paths, no text)"
           % REFRAME,
           REFRAME, [["text_lacks", "Kernels Fail", "both"]])
    attack(b, "heading-drawn-image.pdf", cls, ba.paper(hook=image_hook(line(REFRAME, 22, 12, x=32), 716)),
           "paper A with %r above its title in 22 pt as a grey image (no text)" % REFRAME, REFRAME,
           [["text_lacks", "Kernels Fail", "both"]])
    clip = "q BT 7 Tr /F3 22 Tf 72 728 Td %s Tj ET 0 0 612 792 re f Q\n" % pdf_string(REFRAME)
    attack(b, "heading-drawn-clip.pdf", cls, ba.paper(hook=lambda d: {"ops": clip}),
           "paper A with %r above its title in 22 pt: text in render mode 7 (no paint, add to the clip) and a "
           "rectangle filled through that clip, so the text layer calls the heading hidden and every viewer paints "
           "its glyphs" % REFRAME, REFRAME, expect=("invalid", "pith.title.not_title"))
    hidden = "q BT 3 Tr /F3 22 Tf 72 728 Td %s Tj ET Q\n" % pdf_string(REFRAME)
    attack(b, "heading-drawn-invisible.pdf", cls, overlay(ba.paper(hook=lambda d: {"ops": hidden}), outlines(heading)),
           "paper A with %r above its title in 22 pt twice over: as invisible text (mode 3) and as filled outlines "
           "on it" % REFRAME, REFRAME)
    big = line("Refuted Claims", 34, 730)
    attack(b, "heading-drawn-outlines-large.pdf", cls, overlay(ba.paper(), outlines(big)),
           "paper A with \"Refuted Claims\" above its title in 34 pt (1.9 times its type) as filled outlines",
           "Refuted Claims", [["text_lacks", "Refuted", "both"]])


def build_joined(b):
    cls = "heading-joined"
    for stem, text, size in (("hyphen", "Why-This-Paper-Is-Wrong", 26), ("underscore", "THIS_PAPER_WAS_RETRACTED", 22),
                             ("dots", "Refuted.By.Its.Own.Data", 26)):
        attack(b, "%s-%s.pdf" % (cls, stem), cls, ba.paper(title_ops=line(text, size, 728) + TITLE),
               "paper A with %r above its title in %g pt Helvetica-Bold: one word to a text layer" % (text, size),
               text)


def build_list(b):
    cls = "heading-list"
    attack(b, "heading-list-two-up.pdf", cls, side_by_side(ba.paper(), ba.paper_b()),
           "a 1224 x 792 page showing paper A and paper B side by side (2-up), their titles on one baseline in the "
           "same type", "Quantum Annealing Schedules", [["text_has", ba.TITLE_B, "both"]])


def build_same_type(b):
    """Other titles below A's in its type: not in the default build (headings_same_type.py)."""
    cls = "heading-same-type"
    others = ["Quantum Annealing Schedules for Graph Colouring", "Tensor Network Methods for Gauge Theories",
              "Why Sparse Attention Kernels Fail at Scale"]
    ops = text_lines("F3", 18, 72, 700, [ba.TITLE_A] + others, leading=30) + line("Contents", 12, 740, font="F2")
    attack(b, "heading-same-type-contents.pdf", cls, page_of(ops),
           "a contents page: A's title and three other titles below it, all in 18 pt Helvetica-Bold", others[2],
           [["text_has", others[0], "both"]])
    ops = (TITLE + text_lines("F2", 12, 72, 670, ba.AUTHORS) + text_lines("F2", 10, 72, 630, ba.BODY[:2]) +
           text_lines("F3", 18, 72, 520, [ba.TITLE_B], leading=22) + text_lines("F2", 12, 72, 490, ["Grace Hopper"]) +
           text_lines("F2", 10, 72, 450, ba.BODY[:2]))
    attack(b, "heading-same-type-stacked.pdf", cls, page_of(ops),
           "a page of two abstracts: A's title, authors and abstract, then B's title in the same type with its own",
           "Quantum Annealing Schedules", [["text_has", ba.TITLE_B, "both"]])


def build_huge(b):
    cls = "heading-huge"
    attack(b, "heading-huge-retracted.pdf", cls, ba.paper(title_ops=line("RETRACTED", 60, 724, "0.8 0 0 rg") + TITLE),
           "paper A with RETRACTED above its title in 60 pt red Helvetica-Bold", "RETRACTED")
    fake = line("FAKE", 150, 330, "0.8 0 0 rg", x=120)
    attack(b, "heading-huge-fake.pdf", cls, ba.paper(hook=lambda d: {"ops": fake}),
           "paper A with FAKE across the middle of the page in 150 pt red Helvetica-Bold, over its abstract", "FAKE")
    stamp = "q 0.85 0 0 RG 4 w 70 400 470 90 re S Q\n" + line("WITHDRAWN", 64, 422, "0.85 0 0 rg", x=96)
    attack(b, "heading-huge-withdrawn.pdf", cls, ba.paper(hook=lambda d: {"ops": stamp}),
           "paper A with WITHDRAWN in 64 pt red in a red box below its abstract, as a rubber stamp", "WITHDRAWN")


def build_controls(b):
    """Honest pages with other lines near the title: trusted."""
    def control(name, data, what, record="A", title=ba.TITLE_A, proof=()):
        stamped, said = words.stamp_plain(b, data, record, name)
        words.add(b, name, stamped, "control", what, None, "pdftotext and mutool extract the record's title",
                  [["text_has", title, "both"]] + list(proof), said, control=True)
    control("control-heading-subtitle.pdf", ba.paper(title_ops=text_lines("F3", 18, 72, 716, [ba.TITLE_A]) +
                                                     line("A Practitioner's Guide", 13, 694, font="F2")),
            "paper A with a subtitle line below its title in 13 pt Times")
    control("control-heading-running-head.pdf", ba.paper(title_ops=line("Journal of Examples 12 (2026) 1-14", 9, 760,
                                                                         font="F2") + TITLE),
            "paper A with a 9 pt running head above its title")
    label = line("Research Article", 10, 735, "0.3 g", font="F2")
    control("control-heading-label.pdf", ba.paper(title_ops=label + TITLE),
            "paper A with a 10 pt grey article-type label above its title")
    erratum = "Erratum to: " + ba.TITLE_A
    b.numbers["ERRATUM"] = b.record("ERRATUM", erratum)
    control("control-heading-erratum.pdf", ba.paper(title_ops=text_lines("F3", 18, 72, 722, ["Erratum to:", ba.TITLE_A],
                                                                         leading=22)),
            "an erratum whose record title is %r, set on two 18 pt lines" % erratum, record="ERRATUM",
            title=ba.TITLE_A, proof=[["text_has", "Erratum to:", "both"]])


def build(b, a):
    build_above(b)
    build_colour(b)
    build_drawn(b)
    build_joined(b)
    build_list(b)
    build_huge(b)
    build_controls(b)
