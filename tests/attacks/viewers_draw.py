# SPDX-License-Identifier: MIT
"""Attack classes `viewers-clipping`, `viewers-numbers`, `viewers-transparency` (viewers_draw.py): one page that
the renderers draw differently.

pith judges what poppler (pdftoppm, Splash) shows; a reader may see the page in poppler's cairo
backend (pdftocairo, as in evince), in MuPDF or in Ghostscript. Each attack here is paper B (its
title drawn plainly) with a block that covers it in white and draws A's title, held by a
construct the renderers read differently: poppler draws the block (A's title), another renderer
does not (B's title), or the other way round. Stamped with A's record.
  - clipping: an empty clipping path (`W n` with no current path: MuPDF clips everything, the
    others nothing), a text clip mode set in a text object that shows no glyphs (`BT 7 Tr ET`,
    `BT 4 Tr ET`: Ghostscript clips everything, the others nothing);
  - numbers: a translation written `--0`, `-0-`, `.0.`, `0.0.0`, `0+` (Splash skips the block,
    cairo, MuPDF or Ghostscript read a number and draw it);
  - transparency: a luminosity soft mask whose transfer function inverts it (MuPDF applies it,
    poppler and Ghostscript draw as if it were the identity).
Controls use the constructs plainly (a clip to a rectangle, text clipped by its glyphs, plain
numbers, an alpha soft mask) and must stay trusted.

The proof "draws": page 1 as drawn by each renderer named (pdftoppm and pdftocairo -png at 72
dpi in gray with the crop box, mutool draw, Ghostscript's pgmraw device) is pixel for pixel one
reference file (or, with "!name", not it), and the references named differ in each renderer.
"""
import os
import struct
import zlib

import build_attacks as ba
from pdfgen import pdf_string, stream, text_lines

TITLE_A, TITLE_B = ba.TITLE_A, ba.TITLE_B
TOOLS = ("poppler", "cairo", "mupdf", "ghostscript")
COVER = "66 692 560 30 re f\n"  # white over the 18 pt title line at y=700
REF_A, REF_B = "work/rr-paper-a.pdf", "work/rr-paper-b.pdf"
REF_B_DRAWN = "work/rr-paper-b-outlines.pdf"  # paper B, its title drawn as filled outlines


def title(t):
    return text_lines("F3", 18, 72, 700, [t], leading=22)


# ---------------------------------------------------------------------------------------------
# the proof: ["mod", "viewers_draw", "draws", {"poppler": REF, "cairo": REF, ...}]

def read_png(path):
    """(width, height, pixels) of an 8-bit greyscale PNG (pdftocairo -png -gray)."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour == 0 and chunk[12] == 0, "%s is not 8-bit grey, not interlaced" % path
        elif kind == b"IDAT":
            idat += chunk
    raw, out, prev, i = zlib.decompress(idat), bytearray(), bytearray(w), 0
    for _ in range(h):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + w])
        i += 1 + w
        for x in range(w):
            a, b, c = (line[x - 1] if x else 0), prev[x], (prev[x - 1] if x else 0)
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return w, h, bytes(out)


def drawn(p, name):
    """{renderer: (w, h, pixels)} of page 1 at 72 dpi in gray: poppler and MuPDF as the suite
    renders them (Prover.renders), pdftocairo -png, Ghostscript's pgmraw device."""
    key = ("drawn", name)
    if key not in p.cache:
        result = dict(p.renders(name))
        base = p.path("work/draw-" + os.path.basename(name))
        p.tool(["pdftocairo", "-q", "-r", "72", "-gray", "-png", "-cropbox", "-f", "1", "-l", "1", "-singlefile",
                p.path(name), base + "-cairo"])
        p.tool(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pgmraw", "-r72", "-dFirstPage=1", "-dLastPage=1",
                "-sOutputFile=" + base + "-gs.pgm", p.path(name)])
        for tool, path, read in (("cairo", base + "-cairo.png", read_png), ("ghostscript", base + "-gs.pgm", ba.read_pgm)):
            # None: the renderer drew nothing (Ghostscript refuses a media box of five numbers); a
            # proof that names it fails
            result[tool] = read(path) if os.path.exists(path) and os.path.getsize(path) else None
        p.cache[key] = result
    return p.cache[key]


def draws(p, name, want):
    """Page 1 of `name` draws, in each renderer `want` names, as that reference, pixel for pixel
    (or differently from it: "!ref"); the references named differ in every renderer."""
    mine = drawn(p, name)
    refs = sorted(set(r.lstrip("!") for r in want.values()))
    for tool in TOOLS:
        if tool not in want:
            continue
        ref = want[tool]
        same = not ref.startswith("!")
        theirs = drawn(p, ref.lstrip("!"))[tool]
        if mine[tool] is None or theirs is None:
            return "%s could not draw %s" % (tool, name if mine[tool] is None else ref.lstrip("!"))
        if (mine[tool] == theirs) != same:
            diff = sum(1 for x, y in zip(mine[tool][2], theirs[2]) if x != y)
            return "%s: page 1 %s %s (%d pixels differ)" % (tool, "differs from" if same else "draws as", ref.lstrip("!"), diff)
    for tool in TOOLS:
        pictures = [drawn(p, r)[tool] for r in refs]
        if len(set(pictures)) != len(pictures):
            return "%s draws %s alike: the proof shows nothing" % (tool, " and ".join(refs))
    p.note.append(", ".join("%s %s%s" % (t, "not " if want[t].startswith("!") else "", os.path.basename(want[t].lstrip("!")))
                            for t in TOOLS if t in want))
    return None


CHECKS = {"draws": draws}


def proof(**want):
    return [["mod", "viewers_draw", "draws", want]]


# ---------------------------------------------------------------------------------------------
# the papers

def outlined(t):
    """Operators drawing `t` where the title goes as filled outlines (paths: no text)."""
    import io
    import pikepdf
    import headings
    pdf = pikepdf.open(io.BytesIO(headings.outlines(title(t))))
    page = pdf.pages[0]
    parts = page.Contents if isinstance(page.Contents, pikepdf.Array) else [page.Contents]
    return "q\n" + b"\n".join(c.read_bytes() for c in parts).decode("latin-1") + "\nQ\n"


def switched(held, inner=TITLE_A, outer=TITLE_B, res=None, drawn_outer=None):
    """Paper `outer`'s title (as text, or `drawn_outer`), then a block (q ... Q) opening with `held`
    that covers it in white and draws `inner`'s title: the renderers that draw the block show
    `inner`, the others `outer`."""
    ops = (drawn_outer or title(outer)) + "q " + held + "\n1 g " + COVER + "0 g " + title(inner) + "Q\n"

    def hook(d):
        return {"res": res(d)} if res else {}
    return ba.paper(title_ops=ops, hook=hook)


def others(shows_a, shows_b, ref_b=REF_B):
    want = {t: REF_A for t in shows_a}
    want.update({t: ref_b for t in shows_b})
    return want


def names(tools):
    return ", ".join({"poppler": "poppler (pdftoppm)", "cairo": "pdftocairo", "mupdf": "MuPDF",
                      "ghostscript": "Ghostscript"}[t] for t in tools)


def attack(b, name, cls, data, what, expect, shows_a, shows_b, ref_b=REF_B):
    assert "poppler" in shows_a
    b.add(name, b.stamp(data, "A", name), cls, what + ", stamped with A's record", expect,
          "%s show%s A's title; %s show%s B's" % (names(shows_a), "" if len(shows_a) == 1 else "", names(shows_b),
                                                 "s" if len(shows_b) == 1 else ""),
          proof(**others(shows_a, shows_b, ref_b)))


def control(b, name, data, what, want):
    b.add(name, b.stamp(data, "A", name), "control", "honest A with " + what, None,
          "every renderer draws it as paper A", proof(**want) + [["text_has", TITLE_A, "both"]], control=True)


def inside(block, res=None):
    """Paper A, its title drawn inside a block (q ... Q) opening with `block`."""
    return ba.paper(title_ops="q " + block + "\n" + title(TITLE_A) + "Q\n", hook=lambda d: {"res": res(d)} if res else {})


# (key, block's opening, what, pith's answer, renderers showing A, renderers showing B)
CLIPS = [
    ("wn-empty", "W n", "paper B with a block clipped by `W n` with no current path (an empty clipping path) that covers B's "
     "title and draws A's", ("poppler", "cairo", "ghostscript"), ("mupdf",)),
    ("wstar-empty", "W* n", "the same with `W* n` (even-odd) and no current path", ("poppler", "cairo", "ghostscript"),
     ("mupdf",)),
    ("wn-closed", "h W n", "the same with `h W n` (a close, no path)", ("poppler", "cairo", "ghostscript"), ("mupdf",)),
    ("tr7-empty", "BT 7 Tr ET 0 Tr", "paper B with a block opening with a text object in clip mode 7 that shows no glyph "
     "(`BT 7 Tr ET`), then covering B's title and drawing A's", ("poppler", "cairo", "mupdf"), ("ghostscript",)),
    ("tr7-empty-string", "BT /F3 18 Tf 7 Tr () Tj ET 0 Tr", "the same with clip mode 7 showing an empty string (`() Tj`)",
     ("poppler", "cairo", "mupdf"), ("ghostscript",)),
    ("tr4-empty", "BT 4 Tr ET 0 Tr", "the same with fill-and-clip mode 4 (`BT 4 Tr ET`)", ("poppler", "cairo", "mupdf"),
     ("ghostscript",)),
    ("tr5-empty", "BT 5 Tr ET 0 Tr", "the same with stroke-and-clip mode 5 (`BT 5 Tr ET`)", ("poppler", "cairo", "mupdf"),
     ("ghostscript",)),
    ("tr6-empty", "BT 6 Tr ET 0 Tr", "the same with fill-stroke-and-clip mode 6 (`BT 6 Tr ET`)", ("poppler", "cairo", "mupdf"),
     ("ghostscript",)),
]

# (key, the translation's y written so, renderers showing A, renderers showing B)
NUMBERS = [
    ("double-minus", "--0", ("poppler",), ("cairo", "mupdf", "ghostscript")),
    ("minus-after", "-0-", ("poppler",), ("cairo", "mupdf", "ghostscript")),
    ("two-points", ".0.", ("poppler", "mupdf"), ("cairo", "ghostscript")),
    ("dotted", "0.0.0", ("poppler", "mupdf"), ("cairo", "ghostscript")),
    ("plus-after", "0+", ("poppler", "mupdf"), ("cairo", "ghostscript")),
]

INVERT = "<< /FunctionType 2 /Domain [ 0 1 ] /C0 [ 1 ] /C1 [ 0 ] /N 1 >>"


def mask(tr, grey=1):
    """Resources with /GX: a luminosity soft mask over a group filled in `grey` (1: white, which
    lets everything through; 0: black, which lets nothing through), its transfer function `tr`."""
    def res(d):
        group = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 612 792 ] /Group << /S /Transparency /CS /DeviceGray >>",
                             "%g g 0 0 612 792 re f\n" % grey))
        t = (" /TR %d 0 R" % d.add(INVERT)) if tr == "invert" else " /TR /Identity"
        gs = d.add("<< /Type /ExtGState /SMask << /Type /Mask /S /Luminosity%s /G %d 0 R >> >>" % (t, group))
        return {"ExtGState": "/GX %d 0 R" % gs}
    return res


def references(b):
    b.stamp(ba.paper(), "A", REF_A)
    b.stamp(ba.paper_b(), "A", REF_B)


def build_clip_outlines(b):
    """The clipping attacks with B's title drawn as filled outlines, so that the text layer holds A's
    title only: only the closed list catches them (viewers_draw_outlines.py)."""
    references(b)
    b.stamp(ba.paper(title_ops=outlined(TITLE_B)), "A", REF_B_DRAWN)
    for key, held, what, shows_a, shows_b in CLIPS:
        what = "B's title drawn as filled outlines (no text), as in viewers-clip-%s.pdf: %s" % (key, what)
        attack(b, "viewers-clip-%s-outlines.pdf" % key, "viewers-clipping-outlines", switched(held, drawn_outer=outlined(TITLE_B)),
               what, ("unverified", "pith.construct.unlisted"), shows_a, shows_b, REF_B_DRAWN)


def build(b, a):
    references(b)
    every = {t: REF_A for t in TOOLS}
    expect = ("unverified", "pith.construct.unlisted")
    for key, held, what, shows_a, shows_b in CLIPS:
        attack(b, "viewers-clip-%s.pdf" % key, "viewers-clipping", switched(held), what, ("invalid", "pith.title.not_title"),
               shows_a, shows_b)
    control(b, "control-viewers-clip-rect.pdf", inside("66 692 560 30 re W n"),
            "its title drawn inside a block clipped to the title line's rectangle (`re W n`)", every)
    control(b, "control-viewers-clip-text.pdf",
            ba.paper(title_ops="q BT /F3 18 Tf 4 Tr 72 700 Td %s Tj ET 0 Tr Q\n" % pdf_string(TITLE_A)),
            "its title shown in fill-and-clip mode 4 (`4 Tr`) inside q ... Q", every)
    for key, n, shows_a, shows_b in NUMBERS:
        attack(b, "viewers-number-%s.pdf" % key, "viewers-numbers", switched("1 0 0 1 0 %s cm" % n,
                                                                              inner=TITLE_B, outer=TITLE_A),
               "paper A's title, then a block translated by `1 0 0 1 0 %s cm` that covers it in white and draws B's title" % n,
               expect, shows_a, shows_b)
    control(b, "control-viewers-numbers.pdf", inside("1 0 0 1 0 -.0 cm 1.0 0 0 +1 +0 0. cm"),
            "its title drawn in a block translated by plain numbers (`-.0`, `+1`, `0.`)", every)
    attack(b, "viewers-softmask-transfer.pdf", "viewers-transparency",
           switched("/GX gs", inner=TITLE_B, outer=TITLE_A, res=mask("invert")),
           "paper A's title, then a block under a luminosity soft mask over a white group whose /TR inverts it (applied: "
           "transparent; ignored: opaque) that covers it in white and draws B's title", ("invalid", "pith.title.not_title"),
           ("poppler", "ghostscript"),
           ("mupdf",))
    b.stamp(ba.paper(title_ops=outlined(TITLE_B)), "A", REF_B_DRAWN)
    b.add("viewers-softmask-black.pdf", b.stamp(ba.paper(title_ops=outlined(TITLE_B) + "q /GX gs\n" + title(TITLE_A) + "Q\n",
                                                          hook=lambda d: {"res": mask("identity", grey=0)(d)}),
                                                 "A", "viewers-softmask-black.pdf"),
          "viewers-transparency", "paper B, its title drawn as outlines, and paper A's title as text under a luminosity soft "
          "mask over a black group (/TR /Identity), which lets nothing through, stamped with A's record",
          ("invalid", "pith.title.hidden"), "poppler, MuPDF and Ghostscript show B's title only (cairo draws A's over it)",
          proof(**{t: REF_B_DRAWN for t in ("poppler", "mupdf", "ghostscript")}))
    control(b, "control-viewers-softmask-identity.pdf", inside("/GX gs", res=mask("identity")),
            "its title drawn under a luminosity soft mask over a white group whose /TR is /Identity (opaque everywhere)",
            every)
    control(b, "control-viewers-softmask-none.pdf", inside("/GX gs", res=lambda d: {"ExtGState": "/GX %d 0 R" % d.add(
            "<< /Type /ExtGState /SMask /None /BM /Normal /ca 1 /CA 1 >>")}),
            "its title drawn under a graphics state resetting transparency (`/SMask /None /BM /Normal /ca 1 /CA 1`)", every)
