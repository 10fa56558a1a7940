#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`pith verify --picture` (issue 34): the picture shows the regions `--json` lists, where it lists them.

usage: picture_test.py --pith PITH --source SRC --work DIR CASE   (png, html_chromium, gallery_chromium, errors)

Uses the verify suite's fixture (verify_setup: DIR/trusted.pdf, DIR/ring.json). For a trusted
paper, an attack that is invalid (a comment laid over the badge after stamping) and a file
rewritten by qpdf, it runs `pith verify --json --picture`, decodes the picture itself (PNG
chunks, CRCs, zlib, the row filters: nothing of pith's) and checks that every region of the
JSON is outlined in its outcome's colour along its four edges, at the place its PDF coordinates
and the render's scale (96 dpi) give, on the page found by its frame. Exit 0 pass, 1 fail, 77 skip (the _chromium cases without Chromium).
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pdfedit  # noqa: E402
from pithrun import Failure, case_main, check, chromium, isolated_env, offline_chromium, run_pith  # noqa: E402

COLOURS = {"ok": (26, 127, 55), "info": (9, 105, 218), "fail": (207, 34, 46)}  # src/verify/picture.hpp
PAGE_EDGE = (140, 149, 159)  # the 1-px frame round each page (PNG) or sheet (HTML)
SCALE = 96 / 72


def byte_add(a, b):
    """Bytewise (a + b) mod 256 of two equal-length byte strings, on big integers (fast in Python)."""
    n = len(a)
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    low, high = int.from_bytes(b"\x7f" * n, "big"), int.from_bytes(b"\x80" * n, "big")
    return (((x & low) + (y & low)) ^ ((x ^ y) & high)).to_bytes(n, "big")


def unfilter_slow(kind, line, prev, bpp):
    line = bytearray(line)
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if kind == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        else:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return bytes(line)


def read_png(data):
    """(width, height, rows of RGB bytes, {chunk type: [data]}) of an 8-bit RGB or RGBA PNG;
    every chunk's CRC is checked."""
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature: %r" % data[:8])
    pos, chunks = 8, {}
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        check(zlib.crc32(kind + body) == crc, "bad CRC in the %s chunk" % kind)
        chunks.setdefault(kind.decode("latin-1"), []).append(body)
        pos += 12 + n
    check(list(chunks)[0] == "IHDR" and "IEND" in chunks, "chunks %s" % list(chunks))
    w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunks["IHDR"][0])
    check(depth == 8 and ctype in (2, 6) and interlace == 0, "PNG format %d/%d/%d" % (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(b"".join(chunks["IDAT"])), w * bpp
    check(len(raw) == h * (stride + 1), "IDAT holds %d bytes, not %d" % (len(raw), h * (stride + 1)))
    rows, prev = [], bytes(stride)
    for y in range(h):
        kind, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        if kind == 1:
            shift = bpp
            while shift < stride:  # a prefix sum by doubling steps: line[i] += line[i - bpp] ...
                line = byte_add(line, bytes(shift) + line[:-shift])
                shift *= 2
        elif kind == 2:
            line = byte_add(line, prev)
        elif kind in (3, 4):
            line = unfilter_slow(kind, line, prev, bpp)
        else:
            check(kind == 0, "row %d: filter %d" % (y, kind))
        rows.append(line if bpp == 3 else b"".join(line[x * 4:x * 4 + 3] for x in range(w)))
        prev = line
    return w, h, rows, chunks


def pixel(rows, x, y):
    return tuple(rows[y][3 * x:3 * x + 3])


def near(a, b, tolerance):
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


def find_page(rows, start_x=0):
    """Top-left pixel inside the first page frame at or right of start_x: (x, y)."""
    edge = bytes(PAGE_EDGE)
    for y, row in enumerate(rows):
        at = row.find(edge, 3 * start_x)
        while at >= 0 and at % 3:
            at = row.find(edge, at + 1)
        if at >= 0:
            return at // 3 + 1, y + 1
    raise Failure("no page frame %s in the picture" % (PAGE_EDGE,))


def page_size(pdf):
    """(width, height) of page 1 in points, by pdfinfo (poppler-utils): not pith's reading."""
    out = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
    m = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", out)
    check(m, "pdfinfo gives no page size: " + out)
    return float(m.group(1)), float(m.group(2))


OUTSIDE = 14  # frames are drawn outside the box, those of regions on one box nested: at most this far out


def edge_share(rows, box, colour, tolerance):
    """For each edge of `box` (top, bottom, left, right): the share of its points with a pixel of
    `colour` just outside it (1 to OUTSIDE pixels out, along the normal)."""
    x0, y0, x1, y1 = box
    width, height = len(rows[0]) // 3, len(rows)
    def share(points, dx, dy):
        hits = 0
        for x, y in points:
            hits += any(0 <= x + k * dx < width and 0 <= y + k * dy < height and near(pixel(rows, x + k * dx, y + k * dy), colour, tolerance)
                        for k in range(1, OUTSIDE + 1))
        return hits / max(1, len(points))
    return (share([(x, y0) for x in range(x0, x1)], 0, -1), share([(x, y1 - 1) for x in range(x0, x1)], 0, 1),
            share([(x0, y) for y in range(y0, y1)], -1, 0), share([(x1 - 1, y) for y in range(y0, y1)], 1, 0))


def check_regions(name, rows, report, origins, height_pt, tolerance=0, scale=SCALE):
    """Every region of the report outlined in its colour where its coordinates say; `origins`:
    the top-left pixel of each page shown, by page number."""
    check(report["regions"], "%s: no regions in --json" % name)
    for r in report["regions"]:
        check(set(r) >= {"page", "x0", "y0", "x1", "y1", "kind", "outcome", "label"}, "%s: region %r" % (name, r))
        check(r["page"] in origins, "%s: region on page %d, not shown" % (name, r["page"]))
        left, top = origins[r["page"]]
        box = (left + int(r["x0"] * scale), top + int((height_pt - r["y1"]) * scale),
               left + int(-(-r["x1"] * scale // 1)), top + int(-(-(height_pt - r["y0"]) * scale // 1)))
        shares = edge_share(rows, box, COLOURS[r["outcome"]], tolerance)
        want = 0.4 if r["outcome"] == "info" else 0.6  # dashed: 8 on, 5 off; labels may hide part of an edge
        check(sum(shares) / 4 >= want and min(shares) > 0.2,
              "%s: region %s %s (%s) is not outlined at %s: shares %s" % (name, r["kind"], r["outcome"], r["label"], box, shares))
    print("%s: %d regions outlined where --json puts them (%s)" % (name, len(report["regions"]),
                                                                ", ".join(sorted({r["kind"] + "/" + r["outcome"] for r in report["regions"]}))))


class Ctx:
    def __init__(self, args):
        self.pith, self.work, self.src = args.pith, args.work, args.source
        # A folder per case: ctest runs them side by side, and Chromium locks its profile.
        self.out = os.path.join(self.work, "picture", args.case)
        os.makedirs(self.out, exist_ok=True)
        self.home = os.path.join(self.work, "home")

    def path(self, name):
        return os.path.join(self.out, name)

    def run(self, args):
        return run_pith(self.pith, args, isolated_env(self.home, SOURCE_DATE_EPOCH="1780000000"))

    def verify(self, pdf, picture, extra=()):
        """(exit, report) of `pith verify --json --picture PICTURE PDF`."""
        rc, out, err = self.run(["verify", "--json", "--keyring", os.path.join(self.work, "ring.json"), "--picture", picture, pdf]
                                + list(extra))
        check(rc in (0, 1, 4), "verify --picture %s: exit %d: %s" % (pdf, rc, err))
        return rc, json.loads(out)


def attack(ctx):
    """The trusted paper with a reader's comment laid over the badge after stamping: invalid."""
    src = os.path.join(ctx.work, "trusted.pdf")
    data = open(src, "rb").read()
    _, trailer, _ = pdfedit.last_trailer(data)
    size = int(pdfedit.trailer_entry(trailer, "Size"))
    page = pdfedit.show_object(src, 2)
    annots = re.search(r"/Annots \[ (\d+) 0 R \]", page)
    check(annots, "unexpected page object: " + page)
    rect = re.search(r"/Rect \[ ([^\]]*) \]", pdfedit.show_object(src, int(annots.group(1)))).group(1)
    objects = {size: "<< /Type /Annot /Subtype /Text /Rect [ %s ] /Contents (covered) /P 2 0 R >>" % rect,
               2: page.replace(annots.group(0), "/Annots [ %s 0 R %d 0 R ]" % (annots.group(1), size))}
    path = ctx.path("comment-over-badge.pdf")
    open(path, "wb").write(pdfedit.append_update(data, objects))
    return path


def content_replaced(ctx):
    """The trusted paper with its page's content stream replaced by an update: invalid, the page marked whole."""
    src = os.path.join(ctx.work, "trusted.pdf")
    objects = {3: pdfedit.stream("", b"BT /F36 24 Tf 72 700 Td (Another text) Tj ET\n")}
    path = ctx.path("content-replaced.pdf")
    open(path, "wb").write(pdfedit.append_update(open(src, "rb").read(), objects))
    return path


def rewritten(ctx):
    path = ctx.path("rewritten-qpdf.pdf")
    subprocess.run(["qpdf", os.path.join(ctx.work, "trusted.pdf"), path], check=True)
    return path


def case_png(ctx):
    trusted = os.path.join(ctx.work, "trusted.pdf")
    width_pt, height_pt = page_size(trusted)
    cases = [("trusted", trusted, "trusted"), ("attack", attack(ctx), "invalid"), ("rewritten", rewritten(ctx), "unverified"),
             ("content", content_replaced(ctx), "invalid")]
    for name, pdf, state in cases:
        png = ctx.path(name + ".png")
        rc, report = ctx.verify(pdf, png)
        check(report["state"] == state, "%s: state %s, expected %s" % (name, report["state"], state))
        w, h, rows, chunks = read_png(open(png, "rb").read())
        left, top = find_page(rows)
        bottom = top  # down the frame's left column (labels stay right of it), then along its bottom row
        while pixel(rows, left - 1, bottom) == PAGE_EDGE:
            bottom += 1
        right = left
        while pixel(rows, right, bottom - 1) == PAGE_EDGE:
            right += 1
        columns = right - left - 1  # the frame's bottom row reaches one pixel past the page on either side
        check(abs(columns - width_pt * SCALE) <= 1, "%s: page %d px wide, pdfinfo says %g pt" % (name, columns, width_pt))
        check_regions(name, rows, report, {1: (left, top)}, height_pt)
        kinds = {(r["kind"], r["outcome"]) for r in report["regions"]}
        description = chunks["iTXt"][0].split(b"\0", 5)[-1].decode("utf-8")
        check(description.startswith("pith verify: " + state), "%s: PNG description %r" % (name, description[:200]))
        if name == "trusted":
            check({("title", "ok"), ("badge", "ok"), ("link", "ok")} <= kinds, "trusted: regions %s" % kinds)
            page = [rows[y][3 * left:3 * right] for y in range(top, h) if y < len(rows)]
            check(not any(bytes(COLOURS["fail"]) in row for row in page), "trusted: the fail colour on the page")
        if name == "content":
            check(("content", "fail") in kinds, "content: the replaced page is not marked: %s" % kinds)
        if name == "attack":
            check(("annotation", "fail") in kinds, "attack: no failed annotation region: %s" % kinds)
            check("FAIL" in description, "attack: the description names no failure")
        print("%s: %s, %dx%d PNG, %d bytes" % (name, state, w, h, os.path.getsize(png)))


def chromium_run(ctx, args):
    if not chromium():
        print("SKIP: chromium not installed")
        sys.exit(77)
    p = subprocess.run(offline_chromium(ctx.path("chrome-profile")) + ["--hide-scrollbars", "--force-device-scale-factor=1",
                                                                       "--window-size=1600,1200"] + args,
                       capture_output=True, timeout=120)
    check(p.returncode == 0, "chromium %s: exit %d %s" % (args[0], p.returncode, p.stderr[-500:]))
    return p.stdout.decode("utf-8", "replace")


def case_html_chromium(ctx):
    if not chromium():
        print("SKIP: chromium not installed")
        sys.exit(77)
    trusted = os.path.join(ctx.work, "trusted.pdf")
    _, height_pt = page_size(trusted)
    for name, pdf in (("trusted", trusted), ("attack", attack(ctx))):
        html = ctx.path(name + ".html")
        rc, report = ctx.verify(pdf, html)
        text = open(html, encoding="utf-8").read()
        check(text.count('class="region ') == len(report["regions"]), "%s: HTML regions differ from --json" % name)
        check(re.search(r'<img [^>]*alt="page 1 of [^"]+"', text), "%s: the page image has no alt text" % name)
        shot = ctx.path(name + "-shot.png")
        chromium_run(ctx, ["--screenshot=" + shot, "file://" + os.path.abspath(html)])
        w, h, rows, _ = read_png(open(shot, "rb").read())
        left, top = find_page(rows)
        check_regions(name + " (chromium)", rows, report, {1: (left, top)}, height_pt, tolerance=12)


def case_gallery_chromium(ctx):
    """pith batch --verify --gallery: every report line is a card, with its state in words, a
    thumbnail drawn by the workers (regions where --json puts them), and filters that work."""
    if not chromium():
        print("SKIP: chromium not installed")
        sys.exit(77)
    trusted = os.path.join(ctx.work, "trusted.pdf")
    files = [trusted, attack(ctx), rewritten(ctx), os.path.join(ctx.src, "examples", "article.pdf"), ctx.path("no-such.pdf")]
    manifest, report, gallery = ctx.path("gallery.jsonl"), ctx.path("gallery-report.jsonl"), ctx.path("gallery")
    open(manifest, "w").write("".join(f + "\n" for f in files))
    shutil.rmtree(gallery, ignore_errors=True)
    rc, out, err = ctx.run(["batch", "--verify", manifest, "--keyring", os.path.join(ctx.work, "ring.json"), "--report", report,
                            "--gallery", gallery, "-q"])
    check(rc == 1, "batch --gallery: exit %d: %s" % (rc, err))
    lines = [json.loads(l) for l in open(report) if '"event":"file"' in l]
    check(len(lines) == len(files), "report has %d file lines" % len(lines))
    text = open(os.path.join(gallery, "index.html"), encoding="utf-8").read()
    check(text.count('<li class="card ') == len(lines), "index.html has %d cards for %d lines" % (text.count('<li class="card '), len(lines)))
    check("http://" not in text and "https://" not in text.replace("https://pith.science", ""), "the gallery names a network address")
    for line in lines:
        check(line["file"] in text and 'data-state="%s"' % line["status"] in text, "no card for %s (%s)" % (line["file"], line["status"]))
        if line["status"] != "unreadable":
            check(line.get("thumbnail"), "%s: no thumbnail in the report line" % line["file"])
            read_png(open(os.path.join(gallery, line["thumbnail"]), "rb").read())
            check('loading="lazy" src="%s" alt="page 1 of ' % line["thumbnail"] in text, "%s: img not lazy or without alt" % line["file"])
    # The workers' thumbnail of the trusted paper outlines the regions --json gives, at 24 dpi.
    rc, report_json = ctx.verify(trusted, ctx.path("unused.png"))
    thumb = next(l["thumbnail"] for l in lines if l["file"] == trusted)
    _, _, rows, _ = read_png(open(os.path.join(gallery, thumb), "rb").read())
    check_regions("thumbnail", rows, report_json, {1: (0, 0)}, page_size(trusted)[1], scale=24 / 72)
    # Filters, from the address: only the invalid card shows.
    dom = chromium_run(ctx, ["--dump-dom", "file://" + os.path.abspath(os.path.join(gallery, "index.html")) + "#state=invalid&code="])
    cards = re.findall(r'<li class="card [^"]*" data-state="([^"]*)"[^>]*?( hidden="")?>', dom)
    check(len(cards) == len(lines), "chromium shows %d cards" % len(cards))
    check(all((state == "invalid") == (hidden == "") for state, hidden in cards), "filter state=invalid: %s" % cards)
    check(re.search(r'<output id="shown"[^>]*>1 of 5 shown</output>', dom), "the count does not say 1 of 5")
    shot = ctx.path("gallery-shot.png")
    chromium_run(ctx, ["--screenshot=" + shot, "file://" + os.path.abspath(os.path.join(gallery, "index.html"))])
    _, _, rows, _ = read_png(open(shot, "rb").read())
    for outcome in ("ok", "fail"):  # the thumbnails were loaded and drawn: their outlines are on the screen
        check(any(bytes(COLOURS[outcome]) in row for row in rows), "no %s outline in the gallery's screenshot" % outcome)
    print("gallery: %d cards, filters and thumbnails checked in chromium" % len(cards))
    # Stamping: the batch's check of each output draws its thumbnail too.
    stamp_manifest, stamp_gallery = ctx.path("stamp.jsonl"), ctx.path("stamp-gallery")
    shutil.rmtree(stamp_gallery, ignore_errors=True)
    open(stamp_manifest, "w").write(json.dumps({"input": os.path.join(ctx.src, "examples", "article.pdf"), "output": ctx.path("stamped.pdf"),
                                                "record": os.path.join(ctx.work, "signed.json")}) + "\n")
    rc, out, err = ctx.run(["batch", stamp_manifest, "--report", ctx.path("stamp-report.jsonl"), "--gallery", stamp_gallery, "--redo", "-q"])
    check(rc == 0, "batch (stamp) --gallery: exit %d: %s" % (rc, err))
    line = next(json.loads(l) for l in open(ctx.path("stamp-report.jsonl")) if '"event":"file"' in l)
    check(line["status"] == "stamped" and line.get("thumbnail") == "thumbs/1.png", "stamp line: %s" % line)
    read_png(open(os.path.join(stamp_gallery, "thumbs", "1.png"), "rb").read())
    check(open(os.path.join(stamp_gallery, "index.html")).read().count('<li class="card ') == 1, "stamp gallery: not one card")


def case_errors(ctx):
    trusted = os.path.join(ctx.work, "trusted.pdf")
    before = set(os.listdir(ctx.out))
    for args, pattern in ((["--picture", ctx.path("x.gif"), trusted], r"name a \.png or \.html file"),
                          (["--picture", ctx.path("no-such-dir/x.png"), trusted], r"cannot create a temporary file"),
                          (["--picture", ctx.path("two.png"), trusted, trusted], r"--picture draws one file"),
                          (["--picture", ctx.path("missing.png"), ctx.path("no-such.pdf")], r"no-such\.pdf")):
        rc, out, err = ctx.run(["verify"] + args)
        check(rc == 2 and re.search(pattern, err), "verify %s: exit %d, %r" % (" ".join(args), rc, err))
        print("refused: %s" % err.strip().splitlines()[-1])
    manifest = ctx.path("errors.jsonl")
    open(manifest, "w").write(trusted + "\n")
    before = set(os.listdir(ctx.out))
    for args, pattern in ((["--gallery", ctx.path("g")], r"--gallery needs --report FILE"),
                          (["--gallery", "/proc/pith-gallery", "--report", ctx.path("r.jsonl")], r"cannot create /proc/pith-gallery/thumbs")):
        rc, out, err = ctx.run(["batch", "--verify", manifest, "-q"] + args)
        check(rc == 2 and re.search(pattern, err), "batch %s: exit %d, %r" % (" ".join(args), rc, err))
        print("refused: %s" % err.strip().splitlines()[-1])
    check(set(os.listdir(ctx.out)) == before, "files left behind: %s" % (set(os.listdir(ctx.out)) - before))


def main():
    return case_main(globals(), Ctx, work=True)


if __name__ == "__main__":
    sys.exit(main())
