# SPDX-License-Identifier: MIT
"""Attack class `comments-drawn` (comments_drawn.py), issue 42's class 4: comments appended after
the stamp whose appearance draws a word with strokes (no text operator), as a pen would: the word
RETRACTED in blue strokes, 22 pt high. Each is the honest stamped A plus one revision
(tests/lib/pdfedit.py) adding the annotation and its appearance:
  - an Ink comment whose ink list and appearance spell the word over the title;
  - a Highlight over the title whose appearance strokes the word (poppler and cairo redraw a
    highlight from its quad points, a box over the title; MuPDF and Ghostscript draw the word);
  - Circle, Line, Polygon and Caret annotations whose appearance strokes the word above the title,
    clear of it and of the badge (none is a comment pith accepts after the stamp);
  - comments on the list pith accepts after the stamp, clear of the title, that are not what a
    viewer draws from their own data or whose strokes read as the word (src/verify/
    comment_drawing.cpp): an Ink comment spelling it above the title or over the abstract, an Ink
    comment whose appearance is not its one short ink stroke, a Highlight above the title whose
    appearance strokes the word, fills its box through a clip cut as the word, or fills letter
    outlines each as large as its quad (EFFECT), a sticky note
    whose appearance is the word, a closed pop-up over the title whose appearance poppler draws.
Each is `invalid` (pith.changed.annotation). Proof: the renderers named draw the area otherwise
than the stamped paper without the revision (`r2c_region`), and the word's strokes are the
appearance's only painting (`strokes_only`: no text, image or shading operator; the clipped
highlight's painting is one box). Controls: comments MuPDF saves (`mutool run`) on the abstract's
lines, `trusted`.
"""
import math
import subprocess

import pdfedit

import build_attacks as ba
from pdfgen import stream

BASE = "work/comments-base.pdf"  # the honest stamped A the revisions are appended to
# a stroke font: each letter as polylines on a 6 x 10 grid
LETTERS = {"R": [[(0, 0), (0, 10), (5, 10), (6, 8), (5, 5), (0, 5)], [(2, 5), (6, 0)]],
           "E": [[(6, 10), (0, 10), (0, 0), (6, 0)], [(0, 5), (4, 5)]],
           "T": [[(0, 10), (6, 10)], [(3, 10), (3, 0)]],
           "A": [[(0, 0), (3, 10), (6, 0)], [(1.5, 5), (4.5, 5)]],
           "C": [[(6, 10), (0, 10), (0, 0), (6, 0)]],
           "D": [[(0, 0), (0, 10), (4, 10), (6, 7), (6, 3), (4, 0), (0, 0)]]}
WORD = "RETRACTED"
ABOVE = (72, 735)  # where the word starts above the title (it ends near x=280, y=759)
OVER = (200, 698)  # on the title line


def strokes(x, y, scale=2.2, gap=9):
    """The word's strokes on the page, each a list of points, starting at (x, y)."""
    return [[(x + (i * gap + px) * scale, y + py * scale) for px, py in line]
            for i, ch in enumerate(WORD) for line in LETTERS[ch]]


def word_annotation(subtype, at, extra=""):
    """(appearance, annotation with %d for the appearance's number, rect) drawing the word at `at`."""
    lines = strokes(*at)
    xs = [p[0] for line in lines for p in line]
    ys = [p[1] for line in lines for p in line]
    rect = [min(xs) - 2, min(ys) - 2, max(xs) + 2, max(ys) + 2]
    ops = "0 0 1 RG 2 w 1 J 1 j\n" + "".join(
        " ".join("%g %g %s" % (px - rect[0], py - rect[1], "l" if k else "m") for k, (px, py) in enumerate(line)) + " S\n"
        for line in lines)
    ap = stream("/Type /XObject /Subtype /Form /BBox [ 0 0 %g %g ]" % (rect[2] - rect[0], rect[3] - rect[1]), ops)
    if subtype == "Ink" and "/InkList" not in extra:
        extra += " /InkList [ %s ] /BS << /W 2 >>" % " ".join(
            "[ " + " ".join("%g %g" % p for p in line) + " ]" for line in lines)
    if extra.startswith("quads"):
        extra = "/QuadPoints [ %g %g %g %g %g %g %g %g ]" % (rect[0], rect[3], rect[2], rect[3], rect[0], rect[1], rect[2],
                                                              rect[1])
    annot = ("<< /Type /Annot /Subtype /%s /Rect [ %g %g %g %g ] /F 4 /C [ 0 0 1 ] %s /AP << /N %%d 0 R >> >>"
             % (subtype, rect[0], rect[1], rect[2], rect[3], extra))
    return ap, annot, rect


def clipped_highlight(at):
    """(appearance, annotation with %d, rect): a Highlight whose quad is the word's box and whose
    appearance fills that box through a clip cut as the word's strokes (each segment a thin
    quadrilateral): MuPDF draws the word, poppler a box from the quad points."""
    ap, annot, rect = word_annotation("Highlight", at, "quads")
    parts = []
    for line in strokes(*at):
        for (x0, y0), (x1, y1) in zip(line, line[1:]):
            n = math.hypot(x1 - x0, y1 - y0) or 1
            ox, oy = -(y1 - y0) / n * 1.2, (x1 - x0) / n * 1.2
            parts.append(" ".join("%g %g %s" % (x - rect[0], y - rect[1], op) for x, y, op in (
                (x0 + ox, y0 + oy, "m"), (x1 + ox, y1 + oy, "l"), (x1 - ox, y1 - oy, "l"), (x0 - ox, y0 - oy, "l"))) + " h")
    w, h = rect[2] - rect[0], rect[3] - rect[1]
    ops = "\n".join(parts) + "\nW n\n0 0 1 rg 0 0 %g %g re f\n" % (w, h)
    return stream("/Type /XObject /Subtype /Form /BBox [ 0 0 %g %g ]" % (w, h), ops), annot, rect


# Letters with no hole as outlines on the 6 x 10 grid, for a highlight that fills them.
SOLID = {"E": [(0, 0), (6, 0), (6, 2), (2, 2), (2, 4), (5, 4), (5, 6), (2, 6), (2, 8), (6, 8), (6, 10), (0, 10)],
         "F": [(0, 0), (2, 0), (2, 4), (5, 4), (5, 6), (2, 6), (2, 8), (6, 8), (6, 10), (0, 10)],
         "C": [(0, 0), (6, 0), (6, 2), (2, 2), (2, 8), (6, 8), (6, 10), (0, 10)],
         "T": [(2, 0), (4, 0), (4, 8), (6, 8), (6, 10), (0, 10), (0, 8), (2, 8)]}


def letters_highlight(word, at, scale=2.2, gap=8):
    """(appearance, annotation with %d, rect): a Highlight with one quad a letter, each letter's
    box, whose appearance fills each letter's outline (one subpath as large as its quad): MuPDF
    draws the letters, poppler a box a quad."""
    x, y = at
    cells = [[(x + (i * gap + px) * scale, y + py * scale) for px, py in SOLID[ch]] for i, ch in enumerate(word)]
    rect = [x - 2, y - 2, x + ((len(word) - 1) * gap + 6) * scale + 2, y + 10 * scale + 2]
    ops = "0 0 1 rg\n" + "".join(" ".join("%g %g %s" % (px - rect[0], py - rect[1], "l" if k else "m")
                                           for k, (px, py) in enumerate(cell)) + " h f\n" for cell in cells)
    boxes = [(min(px for px, _ in c), max(px for px, _ in c)) for c in cells]
    top = y + 10 * scale
    quads = " ".join("%g %g %g %g %g %g %g %g" % (x0, top, x1, top, x0, y, x1, y) for x0, x1 in boxes)
    ap = stream("/Type /XObject /Subtype /Form /BBox [ 0 0 %g %g ]" % (rect[2] - rect[0], rect[3] - rect[1]), ops)
    annot = ("<< /Type /Annot /Subtype /Highlight /Rect [ %g %g %g %g ] /F 4 /C [ 0 0 1 ] /QuadPoints [ %s ] "
             "/AP << /N %%d 0 R >> >>" % (rect[0], rect[1], rect[2], rect[3], quads))
    return ap, annot, rect


def strokes_only(p, name, num):
    """Object `num` of `name` (the appearance) paints with S only: no text, image or shading."""
    rc, body, err = p.tool(["qpdf", "--show-object=%d" % num, "--filtered-stream-data", p.path(name)])
    ops = body.split()
    painted = [op for op in ("Tj", "TJ", "'", '"', "Do", "BI", "sh", "f", "F", "f*", "B", "b", "re") if op in ops]
    if rc != 0 or painted or ops.count("S") != len(strokes(0, 0)):
        return "the appearance holds %s and %d strokes (exit %d)" % (painted, ops.count("S"), rc)
    return None


CHECKS = {"strokes_only": strokes_only}

# (file, subtype, where the word goes, the annotation's own entries, renderers that draw the word, claim)
FILES = [
    ("comments-ink-over-title.pdf", "Ink", OVER, "",
     "an Ink comment whose ink list and appearance spell RETRACTED over the title", "both",
     "poppler and MuPDF draw the strokes over the title"),
    ("comments-highlight-over-title.pdf", "Highlight", OVER, "quads",
     "a Highlight over the title whose appearance strokes RETRACTED", "both",
     "poppler redraws the highlight from its quad points (a box over the title), MuPDF draws the word: both change the "
     "title"),
    ("comments-circle-above-title.pdf", "Circle", ABOVE, "",
     "a Circle annotation whose appearance strokes RETRACTED above the title", "both",
     "poppler and MuPDF draw the word above the title"),
    ("comments-line-above-title.pdf", "Line", ABOVE, "/L [ 72 735 280 735 ]",
     "a Line annotation whose appearance strokes RETRACTED above the title", "both",
     "poppler and MuPDF draw the word above the title"),
    ("comments-polygon-above-title.pdf", "Polygon", ABOVE, "/Vertices [ 72 735 280 735 280 759 ]",
     "a Polygon annotation whose appearance strokes RETRACTED above the title", "both",
     "poppler and MuPDF draw the word above the title"),
    ("comments-caret-above-title.pdf", "Caret", ABOVE, "",
     "a Caret annotation whose appearance strokes RETRACTED above the title", "both",
     "poppler and MuPDF draw the word above the title"),
]

BODY = (72, 600)  # over the abstract's lines
# Comments on the list pith accepts after the stamp, whose appearance is not what a viewer draws
# from their own data, or whose strokes read as a word (comment_drawing.hpp's rules).
FILES += [
    ("comments-ink-above-title.pdf", "Ink", ABOVE, "",
     "an Ink comment whose ink list and appearance spell RETRACTED above the title", "both",
     "poppler and MuPDF draw the word above the title"),
    ("comments-ink-over-body.pdf", "Ink", BODY, "",
     "an Ink comment whose ink list and appearance spell RETRACTED over the abstract", "both",
     "poppler and MuPDF draw the word over the abstract"),
    ("comments-ink-appearance.pdf", "Ink", ABOVE, "/InkList [ [ 72 735 73 735 ] ] /BS << /W 2 >>",
     "an Ink comment whose ink list is one short stroke and whose appearance spells RETRACTED above the title", "both",
     "poppler and MuPDF draw the appearance, the word, not the ink list"),
    ("comments-highlight-above-title.pdf", "Highlight", ABOVE, "quads",
     "a Highlight above the title whose appearance strokes RETRACTED", "both",
     "poppler (and pdftocairo) redraw the highlight from its quad points, a box; MuPDF (and Ghostscript) draw the "
     "appearance, the word"),
    ("comments-note-above-title.pdf", "Text", ABOVE, "/Name /Comment",
     "a sticky note whose appearance strokes RETRACTED above the title (no icon)", "both",
     "poppler and MuPDF draw the word above the title"),
    ("comments-popup-over-title.pdf", "Popup", OVER, "",
     "a closed Popup over the title (where a note's window opens, as MuPDF places it) whose appearance strokes "
     "RETRACTED", "poppler", "poppler draws the popup's appearance, the word over the title (MuPDF draws no pop-up)"),
]

# Honest comments saved by MuPDF (`mutool run`) on the abstract's lines (top-left coordinates,
# as MuPDF's scripts take them): they must stay trusted.
LINES = [(72, 155.17, 357.48, 164.17), (72, 167.67, 332.54, 176.67), (72, 192.67, 352.25, 201.67)]
CONTROLS = [
    ("control-comments-markup-mupdf.pdf", "an Underline, a StrikeOut and a Squiggly on three of the abstract's lines",
     "".join("var a = page.createAnnotation('%s');\n"
             "a.setQuadPoints([[%g, %g, %g, %g, %g, %g, %g, %g]]);\na.update();\n"
             % (kind, x0, y0, x1, y0, x0, y1, x1, y1) for kind, (x0, y0, x1, y1) in zip(("Underline", "StrikeOut", "Squiggly"), LINES))),
    ("control-comments-ink-mupdf.pdf", "Ink comments: a hand-drawn underline under the abstract's first line and a loop "
     "around words of its fourth",
     "var u = page.createAnnotation('Ink');\nu.setInkList([[[72, 166], [160, 166.6], [250, 165.6], [357, 166]]]);\n"
     "u.setBorder(1.5);\nu.setColor([1, 0, 0]);\nu.update();\n"
     "var pts = [];\nfor (var k = 0; k <= 36; k++) pts.push([112 + 44 * Math.cos(k * Math.PI / 18), "
     "197 + 9 * Math.sin(k * Math.PI / 18)]);\n"
     "var c = page.createAnnotation('Ink');\nc.setInkList([pts]);\nc.setBorder(2);\nc.update();\n"),
    ("control-comments-note-mupdf.pdf", "a sticky note beside the abstract (MuPDF adds its closed pop-up at the page's top "
     "left, over the title)",
     "var n = page.createAnnotation('Text');\nn.setRect([400, 150, 418, 168]);\nn.setContents('see the appendix');\n"
     "n.update();\n"),
]


def mupdf_saved(b, data, name, body):
    """`data` with the comments `body` (a mutool script's lines on `page`) saved incrementally by MuPDF."""
    src = b.write("work/mu-src-" + name, data)
    script = b.write("work/mu-" + name + ".js", ("var doc = new PDFDocument(scriptArgs[0]);\nvar page = doc.loadPage(0);\n"
                                                 + body + "doc.save(scriptArgs[1], 'incremental');\n").encode())
    out = b.path("work/mu-out-" + name)
    subprocess.run(["mutool", "run", script, src, out], check=True, capture_output=True)
    with open(out, "rb") as f:
        return f.read()


def controls(b, base):
    for name, what, body in CONTROLS:
        b.add(name, mupdf_saved(b, base, name, body), "control", "honest A stamped, then " + what + ", saved by MuPDF",
              None, "poppler and MuPDF draw the comments over the abstract, the title as stamped",
              [["py", "r2c_region", [BASE, [66, 590, 420, 640], "both"]], ["text_has", ba.TITLE_A, "both"]], control=True)


def build(b, a, files=FILES, cls="comments-drawn"):
    base = b.stamp(ba.paper(), "A", BASE)
    controls(b, base)
    page = ba.show(b.path(BASE), ba.PAGE)
    n = int(pdfedit.trailer_entry(pdfedit.last_trailer(base)[1], "Size"))
    for name, subtype, at, extra, what, which, claim in files:
        ap, annot, rect = word_annotation(subtype, at, extra)
        data = pdfedit.append_update(base, {n: ap, n + 1: annot % n, ba.PAGE: ba.with_annot(page, n + 1)})
        b.add(name, data, cls, "honest A stamped, then one appended revision that adds " + what,
              ("invalid", "pith.changed.annotation"), claim,
              [["py", "r2c_region", [BASE, [int(v) for v in rect], which]], ["mod", "comments_drawn", "strokes_only", n],
               ["text_has", ba.TITLE_A, "both"]])
    ap, annot, rect = letters_highlight("EFFECT", ABOVE)
    b.add("comments-highlight-letters-above-title.pdf",
          pdfedit.append_update(base, {n: ap, n + 1: annot % n, ba.PAGE: ba.with_annot(page, n + 1)}), cls,
          "honest A stamped, then one appended revision that adds a Highlight above the title with one quad a letter, "
          "whose appearance fills each letter's outline (EFFECT, as large as its quad)", ("invalid", "pith.changed.annotation"),
          "poppler redraws the highlight from its quad points, a box a letter; MuPDF draws the appearance, the letters",
          [["py", "r2c_region", [BASE, [int(v) for v in rect], "both"]], ["text_has", ba.TITLE_A, "both"]])
    ap, annot, rect = clipped_highlight(ABOVE)
    b.add("comments-highlight-clipped-above-title.pdf",
          pdfedit.append_update(base, {n: ap, n + 1: annot % n, ba.PAGE: ba.with_annot(page, n + 1)}), cls,
          "honest A stamped, then one appended revision that adds a Highlight above the title whose appearance fills "
          "its quad's box through a clip cut as the word RETRACTED", ("invalid", "pith.changed.annotation"),
          "poppler redraws the highlight from its quad points, a box; MuPDF draws the appearance, the word cut out of the "
          "box", [["py", "r2c_region", [BASE, [int(v) for v in rect], "both"]], ["text_has", ba.TITLE_A, "both"]])
