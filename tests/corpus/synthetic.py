# SPDX-License-Identifier: MIT
"""Hand-written PDFs for the badge geometry test (standard library only).

Each case is a small PDF whose page geometry is awkward in one way: /Rotate, a MediaBox with a
non-zero (or negative) origin, a CropBox smaller than the MediaBox, MediaBox/Resources/Rotate
inherited from the Pages node, /Contents as an array, no /Resources at all, and content that
leaves the graphics state dirty (unbalanced cm, white fill colour). The page shows a few black
rectangles in the middle of the visible area so it is not empty, and nothing near the corners.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pdfwriter  # noqa: E402


def _fmt(v):
    return ("%.4f" % v).rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def box(b):
    return "[" + " ".join(_fmt(v) for v in b) + "]"


def write_pdf(path, objects, root=1):
    """objects: list of bytes/str bodies; object i+1 is objects[i]. Writes a classic xref."""
    pdfwriter.write(path, pdfwriter.classic(objects, root))


def stream(data, compress=False):
    return pdfwriter.stream("", data, compress)


def rects_for(visible, scale=1.0):
    """Black rectangles in the middle third of the visible box (coordinates divided by `scale`
    for content drawn under a `scale 0 0 scale 0 0 cm`)."""
    x0, y0, x1, y1 = visible
    w, h = x1 - x0, y1 - y0
    parts = ["0 g"]
    for fx, fy, fw, fh in ((0.35, 0.40, 0.30, 0.05), (0.40, 0.50, 0.08, 0.12), (0.52, 0.55, 0.10, 0.04)):
        parts.append("%s %s %s %s re f" % tuple(_fmt(v / scale) for v in
                                                 (x0 + fx * w, y0 + fy * h, fw * w, fh * h)))
    return "\n".join(parts) + "\n"


# name -> dict(media, crop, rotate, where, contents, resources, page_count, stamp_page, dirty)
CASES = {
    "rot0":              dict(media=[0, 0, 612, 792]),
    "rot90":             dict(media=[0, 0, 612, 792], rotate=90),
    "rot180":            dict(media=[0, 0, 612, 792], rotate=180),
    "rot270":            dict(media=[0, 0, 612, 792], rotate=270),
    "rot-90":            dict(media=[0, 0, 612, 792], rotate=-90),
    "origin":            dict(media=[100, 200, 712, 992]),
    "origin-rot90":      dict(media=[100, 200, 712, 992], rotate=90),
    "negative-origin":   dict(media=[-300, -400, 312, 392], rotate=180),
    "crop":              dict(media=[0, 0, 612, 792], crop=[50, 80, 450, 700]),
    "crop-origin-rot270": dict(media=[100, 200, 712, 992], crop=[150, 260, 600, 900], rotate=270),
    "crop-rot90":        dict(media=[0, 0, 612, 792], crop=[40, 100, 560, 500], rotate=90),
    "inherited":         dict(media=[0, 0, 500, 400], rotate=90, inherit=True, page_count=2, stamp_page=2),
    "contents-array":    dict(media=[0, 0, 612, 792], contents="array"),
    "contents-array-rot180": dict(media=[20, 30, 632, 822], contents="array", rotate=180),
    "no-resources":      dict(media=[0, 0, 612, 792], resources=False),
    "no-resources-rot270": dict(media=[0, 0, 400, 300], resources=False, rotate=270),
    "dirty-gstate":      dict(media=[0, 0, 612, 792], dirty=True),
    "dirty-gstate-array-rot90": dict(media=[0, 0, 612, 792], dirty=True, contents="array", rotate=90),
}


def build(name, path):
    c = CASES[name]
    media, crop, rotate = c["media"], c.get("crop"), c.get("rotate", 0)
    visible = crop or media
    inherit = c.get("inherit", False)
    resources = c.get("resources", True)
    n_pages = c.get("page_count", 1)
    dirty = c.get("dirty", False)

    objs = []  # 1 catalog, 2 pages, then page objects and streams

    def add(body):
        objs.append(body)
        return len(objs)

    add("<< /Type /Catalog /Pages 2 0 R >>")
    add(None)  # pages, filled below
    page_ids = []
    for p in range(n_pages):
        if dirty:
            # Leaves a scaled CTM, a white fill/stroke colour and a thick line behind (no q/Q).
            pieces = ["2 0 0 2 0 0 cm\n", rects_for(visible, 2.0), "1 g 1 G 7 w\n"]
        else:
            pieces = [rects_for(visible)]
        if c.get("contents") == "array":
            # Split mid-way through the operators: a stream boundary is only whitespace.
            text = "".join(pieces)
            cut = [len(text) // 3, 2 * len(text) // 3]
            cut = [text.index("\n", k) + 1 for k in cut]
            chunks = [text[:cut[0]], text[cut[0]:cut[1]], text[cut[1]:]]
            ids = [add(stream(ch, compress=(i == 1))) for i, ch in enumerate(chunks)]
            contents = "[" + " ".join("%d 0 R" % i for i in ids) + "]"
        else:
            contents = "%d 0 R" % add(stream("".join(pieces), compress=True))
        entries = ["/Type /Page", "/Parent 2 0 R", "/Contents " + contents]
        if not inherit:
            entries.append("/MediaBox " + box(media))
            if crop:
                entries.append("/CropBox " + box(crop))
            if rotate:
                entries.append("/Rotate %d" % rotate)
            if resources:
                entries.append("/Resources << /ProcSet [/PDF] >>")
        page_ids.append(add("<< " + " ".join(entries) + " >>"))
    pages = ["/Type /Pages", "/Kids [" + " ".join("%d 0 R" % i for i in page_ids) + "]", "/Count %d" % n_pages]
    if inherit:
        pages.append("/MediaBox " + box(media))
        if crop:
            pages.append("/CropBox " + box(crop))
        if rotate:
            pages.append("/Rotate %d" % rotate)
        if resources:
            pages.append("/Resources << /ProcSet [/PDF] >>")
    objs[1] = "<< " + " ".join(pages) + " >>"
    write_pdf(path, objs)
    return dict(media=media, crop=crop, rotate=rotate % 360, stamp_page=c.get("stamp_page", 1))
