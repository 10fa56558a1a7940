# SPDX-License-Identifier: MIT
"""Attack class `comments-drawn` (comments_drawn.py), issue 42's class 4: comments appended after
the stamp whose appearance draws a word with strokes (no text operator), as a pen would: the word
RETRACTED in blue strokes, 22 pt high. Each is the honest stamped A plus one revision
(tests/lib/pdfedit.py) adding the annotation and its appearance:
  - an Ink comment whose ink list and appearance spell the word over the title;
  - a Highlight over the title whose appearance strokes the word (poppler and cairo redraw a
    highlight from its quad points, a box over the title; MuPDF and Ghostscript draw the word);
  - Circle, Line, Polygon and Caret annotations whose appearance strokes the word above the title,
    clear of it and of the badge (none is a comment pith accepts after the stamp).
Each is `invalid` (pith.changed.annotation). Proof: the renderers named draw the area otherwise
than the stamped paper without the revision (`r2c_region`), and the word's strokes are the
appearance's only painting (`strokes_only`: no text, image or shading operator).
"""
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
# Kept out of the default build (comments_open.py): comments pith accepts after the stamp today,
# `trusted`, though they draw the word (issue 42, class 4: a comment's appearance must be what a
# viewer draws from its own data, and its strokes must not read as words).
OPEN = [
    ("comments-open-ink-above-title.pdf", "Ink", ABOVE, "",
     "an Ink comment whose ink list and appearance spell RETRACTED above the title", "both",
     "poppler and MuPDF draw the word above the title"),
    ("comments-open-ink-over-body.pdf", "Ink", BODY, "",
     "an Ink comment whose ink list and appearance spell RETRACTED over the abstract", "both",
     "poppler and MuPDF draw the word over the abstract"),
    ("comments-open-ink-appearance.pdf", "Ink", ABOVE, "/InkList [ [ 72 735 73 735 ] ] /BS << /W 2 >>",
     "an Ink comment whose ink list is one short stroke and whose appearance spells RETRACTED above the title", "both",
     "poppler and MuPDF draw the appearance, the word, not the ink list"),
    ("comments-open-highlight-above-title.pdf", "Highlight", ABOVE, "quads",
     "a Highlight above the title whose appearance strokes RETRACTED", "both",
     "poppler (and pdftocairo) redraw the highlight from its quad points, a box; MuPDF (and Ghostscript) draw the "
     "appearance, the word"),
    ("comments-open-note-above-title.pdf", "Text", ABOVE, "/Name /Comment",
     "a sticky note whose appearance strokes RETRACTED above the title (no icon)", "both",
     "poppler and MuPDF draw the word above the title"),
]


def build_open(b):
    build(b, None, OPEN, "comments-open")


def build(b, a, files=FILES, cls="comments-drawn"):
    base = b.stamp(ba.paper(), "A", BASE)
    page = ba.show(b.path(BASE), ba.PAGE)
    n = int(pdfedit.trailer_entry(pdfedit.last_trailer(base)[1], "Size"))
    for name, subtype, at, extra, what, which, claim in files:
        ap, annot, rect = word_annotation(subtype, at, extra)
        data = pdfedit.append_update(base, {n: ap, n + 1: annot % n, ba.PAGE: ba.with_annot(page, n + 1)})
        b.add(name, data, cls, "honest A stamped, then one appended revision that adds " + what,
              ("invalid", "pith.changed.annotation"), claim,
              [["py", "r2c_region", [BASE, [int(v) for v in rect], which]], ["mod", "comments_drawn", "strokes_only", n],
               ["text_has", ba.TITLE_A, "both"]])
