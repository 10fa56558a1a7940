# SPDX-License-Identifier: MIT
"""Attack classes `viewers-operands`, `viewers-matrix`, `viewers-geometry`, `viewers-colour` and two
more `viewers-transparency` files (viewers_syntax.py): one page the renderers draw differently,
through the syntax of its operators, its matrices, its page boxes, its colours' numbers and a soft
mask's backdrop.

As in viewers_draw.py, each page shows one title in poppler (pdftoppm, Splash: what pith reads)
and another in a renderer a reader may use instead (pdftocairo as in Evince, MuPDF, Ghostscript):
  - operands: an operator given too few operands in a form (poppler drops the rest of the form,
    MuPDF and Ghostscript draw it), too many or names for numbers (MuPDF takes the first six, or
    reads a name as 0, and the matrix draws nothing), a number cut in two by the end of one part of
    a content array (`0` and `0 cm`: seven operands), a text rendering mode 8 (MuPDF draws no text);
  - matrix: a `cm` or a form's `/Matrix` that cannot be inverted (cairo passes over it and draws
    the block, poppler, MuPDF and Ghostscript draw nothing under it);
  - geometry: a `/MediaBox` of five or six numbers, the page's own or inherited (poppler shows
    Letter, MuPDF the first four numbers: the upper half of a page holding two papers);
  - colour: `sc` given more numbers than its colour space takes (poppler and cairo skip it and keep
    the colour before, MuPDF and Ghostscript take the numbers they need): B's outlined title white
    and A's black in one, the other way round in the other;
  - transparency: a luminosity soft mask whose backdrop (`/BC [1]`) has no group colour space
    (poppler drops it and the mask hides the block, MuPDF and Ghostscript take it and show it).
Where B's title is drawn as filled outlines, the text layer holds A's title only and only the
closed list catches the file. Each was `trusted` before the closed list named it (operands of
another number or kind, a text mode outside 0-7, a matrix that cannot be inverted, a backdrop with
no colour space, a media box that is not four numbers): `unverified`, pith.construct.unlisted.
Proof: viewers_draw's `draws` (page 1 pixel for pixel as the reference named in each renderer).
"""
import io

import build_attacks as ba
import viewers_draw as vd
from pdfgen import stream, text_lines

TITLE_A, TITLE_B = ba.TITLE_A, ba.TITLE_B
CHECKS = vd.CHECKS
REF_A, REF_B, REF_B_DRAWN = vd.REF_A, vd.REF_B, vd.REF_B_DRAWN
REF_NONE = "work/rr-paper-untitled.pdf"  # paper A's page without a title, stamped
REF_B_PLAIN = "work/plain-paper-b.pdf"  # paper B as written, not stamped (no badge)
UNLISTED = ("unverified", "pith.construct.unlisted")
# the rest of paper()'s page below its title: authors, abstract, body, logo, image
REST = (text_lines("F2", 12, 72, 670, ba.AUTHORS) + text_lines("F2", 10, 72, 630, ba.BODY)
        + "q 1 0 0 1 72 60 cm /Fm0 Do Q q 40 0 0 40 500 50 cm /Im0 Do Q\n")


def block(inner):
    """Covers the title line in white and draws `inner`'s title."""
    return "1 g " + vd.COVER + "0 g " + vd.title(inner)


def in_form(body, matrix=None, title_ops=None):
    """Paper A (its title drawn by `title_ops` when given), then a form drawing `body` (its own
    /Matrix if given)."""
    def hook(d):
        m = " /Matrix [ %s ]" % matrix if matrix else ""
        form = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 612 792 ]%s /Resources << /Font << /F3 %d 0 R >> >>"
                            % (m, ba.F3), body))
        return {"ops": "q /FX Do Q\n", "res": {"XObject": "/FX %d 0 R" % form}}
    return ba.paper(title_ops=title_ops, hook=hook)


def saved(pdf):
    out = io.BytesIO()
    import pikepdf
    pdf.save(out, static_id=True, compress_streams=False, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


def content_split(data, after):
    """The page's content as an array of two streams, the first ending just after `after`."""
    import pikepdf
    pdf = pikepdf.open(io.BytesIO(data))
    page = pdf.pages[0]
    raw = page.Contents.read_bytes()
    cut = raw.index(after.encode()) + len(after)
    page.obj.Contents = pikepdf.Array([pdf.make_indirect(pikepdf.Stream(pdf, raw[:cut])),
                                       pdf.make_indirect(pikepdf.Stream(pdf, raw[cut:]))])
    return saved(pdf)


def two_papers(media, on_pages_node=False):
    """Paper A on [0 0 612 792] and paper B above it, on [0 792 612 1584]; the page's media box
    written `media` (on the page tree's root instead when `on_pages_node`)."""
    import pikepdf
    pdf = pikepdf.open(io.BytesIO(ba.paper(hook=lambda d: {"ops": "q 1 0 0 1 0 792 cm " + vd.title(TITLE_B) + REST + "Q\n"})))
    page = pdf.pages[0].obj
    if on_pages_node:
        del page["/MediaBox"]
        pdf.Root.Pages.MediaBox = pikepdf.Array(media)
    else:
        page.MediaBox = pikepdf.Array(media)
    return saved(pdf)


def references(b):
    vd.references(b)
    b.stamp(ba.paper(title_ops=vd.outlined(TITLE_B)), "A", REF_B_DRAWN)
    b.stamp(ba.paper(title_ops=""), "A", REF_NONE)
    b.write(REF_B_PLAIN, ba.paper_b())


def build_operands(b):
    form_few = "the form's content opens with `1 0 0 1 cm` (four operands where cm takes six)"
    vd.attack(b, "viewers-operands-few-in-form.pdf", "viewers-operands", in_form("1 0 0 1 cm\n" + block(TITLE_B)),
              "paper A, then a form that covers its title in white and draws B's; " + form_few, UNLISTED,
              ("poppler", "cairo"), ("mupdf", "ghostscript"))
    vd.attack(b, "viewers-operands-none-in-form.pdf", "viewers-operands", in_form("g\n" + block(TITLE_B)),
              "paper A, then a form that covers its title in white and draws B's; the form opens with `g` "
              "without its operand", UNLISTED, ("poppler", "cairo"), ("mupdf", "ghostscript"))
    drawn_b = vd.outlined(TITLE_B)
    for key, held, what in (("many", "0 1 0 0 1 0 0 cm", "`0 1 0 0 1 0 0 cm` (seven operands: MuPDF takes the first six, "
                                                          "a matrix that draws nothing; the others the last six)"),
                            ("names", "/a /b /c /d /e /f cm", "`/a /b /c /d /e /f cm` (names for numbers: poppler skips "
                                                               "the operator, MuPDF reads 0)")):
        vd.attack(b, "viewers-operands-%s.pdf" % key, "viewers-operands", vd.switched(held, drawn_outer=drawn_b),
                  "paper B, its title drawn as filled outlines, then a block opened by " + what + " that covers it in "
                  "white and draws A's title", UNLISTED, ("poppler", "cairo", "ghostscript"), ("mupdf",), REF_B_DRAWN)
    split = content_split(vd.switched("1 0 0 1 0 00 cm", inner=TITLE_B, outer=TITLE_A), "1 0 0 1 0 0")
    vd.attack(b, "viewers-operands-split.pdf", "viewers-operands", split,
              "paper A's title, then a block that covers it in white and draws B's, opened by `1 0 0 1 0 0` at the end "
              "of one part of the page's content array and `0 cm` at the start of the next (`00` read whole as one part would give it; seven operands: poppler and "
              "Ghostscript take the last six, a matrix that draws nothing; MuPDF the first six, and cairo passes over "
              "the matrix)", UNLISTED, ("poppler", "ghostscript"), ("cairo", "mupdf"))
    data = vd.switched("8 Tr", drawn_outer=drawn_b)
    b.add("viewers-operands-text-mode-8.pdf", b.stamp(data, "A", "viewers-operands-text-mode-8.pdf"), "viewers-operands",
          "paper B, its title drawn as filled outlines, then a block that covers it in white and draws A's title in text "
          "rendering mode 8 (there are eight, 0 to 7), stamped with A's record", UNLISTED,
          "poppler (pdftoppm), pdftocairo and Ghostscript fill the text: A's title; MuPDF draws no text there: no title",
          vd.proof(poppler=REF_A, cairo=REF_A, ghostscript=REF_A, mupdf=REF_NONE))


def build_matrix(b):
    shows_a, shows_b = ("poppler", "mupdf", "ghostscript"), ("cairo",)
    for key, held in (("zero", "0 0 0 0 0 0 cm"), ("rank-one", "1 1 1 1 0 0 cm"), ("flat", "0 0 0 1 0 0 cm")):
        vd.attack(b, "viewers-matrix-%s.pdf" % key, "viewers-matrix", vd.switched(held, inner=TITLE_B, outer=TITLE_A),
                  "paper A's title, then a block under `%s` (a matrix that cannot be inverted) that covers it in white "
                  "and draws B's title" % held, UNLISTED, shows_a, shows_b)
    for key, matrix in (("form-zero", "0 0 0 0 0 0"), ("form-rank-one", "1 1 1 1 0 0")):
        vd.attack(b, "viewers-matrix-%s.pdf" % key, "viewers-matrix", in_form(block(TITLE_B), matrix),
                  "paper A, then a form whose /Matrix [%s] cannot be inverted that covers its title in white and draws "
                  "B's" % matrix, UNLISTED, shows_a, shows_b)


def build_geometry(b):
    for key, media, inherited, what in (
            ("mediabox-five", [0, 792, 612, 1584, 5], False, "/MediaBox [0 792 612 1584 5] (five numbers)"),
            ("mediabox-six", [0, 792, 612, 1584, 0, 0], False, "/MediaBox [0 792 612 1584 0 0] (six numbers)"),
            ("mediabox-inherited", [0, 792, 612, 1584, 5], True, "no /MediaBox of its own, and the page tree's root's "
                                                                 "/MediaBox [0 792 612 1584 5]")):
        b.add("viewers-geometry-%s.pdf" % key, b.stamp(two_papers(media, inherited), "A", "viewers-geometry-%s.pdf" % key),
              "viewers-geometry", "one page drawing paper A on [0 0 612 792] and paper B above it on [0 792 612 1584], "
              "with " + what + ", stamped with A's record", UNLISTED,
              "poppler (pdftoppm) and pdftocairo take a box that is not four numbers for Letter: paper A, stamped; MuPDF "
              "takes the first four numbers: paper B, as written (the badge lies below what it shows); Ghostscript "
              "draws nothing", vd.proof(poppler=REF_A, cairo=REF_A, mupdf=REF_B_PLAIN))


def build_backdrop(b):
    def mask(d):
        group = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 1 1 ] /Group << /S /Transparency >>", ""))
        gs = d.add("<< /Type /ExtGState /SMask << /Type /Mask /S /Luminosity /BC [ 1 ] /G %d 0 R >> >>" % group)
        return {"res": {"ExtGState": "/GX %d 0 R" % gs}}
    what = ("a block under a luminosity soft mask over an empty group with a backdrop `/BC [1]` and no group colour "
            "space (dropped: a black backdrop hides the block; taken: a white one shows it) that covers it in white and "
            "draws B's title")
    data = ba.paper(title_ops=vd.title(TITLE_A) + "q /GX gs\n" + block(TITLE_B) + "Q\n", hook=mask)
    vd.attack(b, "viewers-softmask-backdrop.pdf", "viewers-transparency", data, "paper A's title, then " + what,
              ("invalid", "pith.title.not_title"), ("poppler",), ("mupdf", "ghostscript"))
    data = ba.paper(title_ops=vd.title(TITLE_A) + "q /GX gs\n1 g " + vd.COVER + "0 g " + vd.outlined(TITLE_B) + "Q\n",
                    hook=mask)
    vd.attack(b, "viewers-softmask-backdrop-outlines.pdf", "viewers-transparency", data,
              "paper A's title, then " + what.replace("B's title", "B's title as filled outlines (no text)"), UNLISTED,
              ("poppler", "cairo"), ("mupdf", "ghostscript"), REF_B_DRAWN)


REF_B_HIGH = "work/rr-paper-b-outlines-high.pdf"  # paper B's title as outlines 30 pt above the title line, stamped
# (key, sets a colour black where its numbers are taken and white where they are skipped, the other way round)
COLOURS = [("gray", "1 g 0 0 0 sc", "0 g 1 1 1 sc", "in DeviceGray, three numbers where it takes one"),
           ("rgb", "/DeviceRGB cs 1 1 1 sc 0 0 0 0 sc", "/DeviceRGB cs 0 0 0 sc 1 1 1 1 sc",
            "in DeviceRGB, four numbers where it takes three")]


def build_colour(b):
    high = "q 1 0 0 1 0 30 cm " + vd.outlined(TITLE_B) + "Q\n"
    b.stamp(ba.paper(title_ops=high), "A", REF_B_HIGH)
    for key, black_if_taken, white_if_taken, what in COLOURS:
        assert "0 g\n" in high
        ops = high.replace("0 g\n", black_if_taken + "\n", 1) + "q " + white_if_taken + "\n" + vd.title(TITLE_A) + "Q\n"
        vd.attack(b, "viewers-colour-%s.pdf" % key, "viewers-colour", ba.paper(title_ops=ops),
                  "paper B's title as filled outlines 30 pt above the title line, then paper A's title as text, each in a "
                  "colour given by `sc` %s (poppler and cairo skip the operator and keep the colour before it: B "
                  "white, A black; MuPDF and Ghostscript take the numbers they need: B black, A white)" % what,
                  UNLISTED, ("poppler", "cairo"), ("mupdf", "ghostscript"), REF_B_HIGH)


def build_controls(b):
    every = {t: REF_A for t in vd.TOOLS}
    vd.control(b, "control-viewers-operands.pdf",
               vd.inside("1 0 0 1 0 0 cm 0 g [ 3 1 ] 0 d 1 j 0 J 0 Tr 1 0 0 1 0 0 cm"),
               "its title drawn in a block opened by operators given the operands they take (`cm`, `g`, `d`, `j`, `J`, "
               "`Tr`)", every)
    vd.control(b, "control-viewers-matrix.pdf", in_form("0 g " + vd.title(TITLE_A), "1 0 0 1 0 0", title_ops=""),
               "its title drawn by a form whose /Matrix [1 0 0 1 0 0] can be inverted", every)
    import pikepdf
    pdf = pikepdf.open(io.BytesIO(ba.paper()))
    del pdf.pages[0].obj["/MediaBox"]
    pdf.Root.Pages.MediaBox = pikepdf.Array([0, 0, 612, 792])
    pdf.pages[0].obj.CropBox = pikepdf.Array([612, 792, 0, 0])
    vd.control(b, "control-viewers-geometry.pdf", saved(pdf),
               "its /MediaBox on the page tree's root (inherited) and a /CropBox written from its upper corner", every)


def build(b, a):
    references(b)
    build_operands(b)
    build_matrix(b)
    build_geometry(b)
    build_backdrop(b)
    build_colour(b)
    build_controls(b)
