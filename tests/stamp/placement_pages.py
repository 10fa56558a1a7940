#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pith stamp's automatic placement (issue 21) on synthetic pages made here: content in every
corner, along each margin, in all corners and margins but one gap, and everywhere (a full-page
image); each page in every /Rotate and with boxes whose origin is not 0,0.

Proves, with poppler's pdftoppm/pdftotext and zbarimg as independent checkers:
  - the badge's pixels (render after minus render before) never fall on pixels the page already
    inked, except on the everywhere page;
  - there the badge is boxed: its text reads back with pdftotext and the rendering shows dark
    text on an opaque light box (WCAG contrast >= 4.5);
  - an explicit --corner is honoured and warned about when it covers content;
  - with --qr the QR code decodes to the resolver URL at print resolution (300 dpi);
  - pith verify recognises the badge at a chosen spot and the boxed one as pith's own, and
    rejects a look-alike: pith's update with the badge blown up five times."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pdfwriter import classic, stream, write  # noqa: E402
from pgm import read_pgm  # noqa: E402

INK = 24          # of 255 below white: a pixel the page inked (same level pith uses)
CHANGE = 24       # of 255: a pixel the stamp changed
W, H = 612, 792   # the page as displayed
RESOLVER = "https://example.org/r/"

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
    return ok


def run(args):
    return subprocess.run(args, capture_output=True, timeout=120)


# ------------------------------------------------------------------ synthetic PDFs

def boxes_for(rotate, offset):
    """(MediaBox, CropBox) whose visible area, turned by `rotate`, is W x H."""
    vw, vh = (H, W) if rotate in (90, 270) else (W, H)
    if not offset:
        return [0, 0, vw, vh], [0, 0, vw, vh]
    media = [-300, -400, -300 + vw + 80, -400 + vh + 60]
    crop = [-260, -370, -260 + vw, -370 + vh]
    return media, crop


def to_user(u, v, crop, rotate):
    """A point of the displayed page (from its lower-left, upright) in default user space."""
    llx, lly, urx, ury = crop
    return {0: (llx + u, lly + v), 90: (urx - v, lly + u), 180: (urx - u, ury - v), 270: (llx + v, ury - u)}[rotate]


def rect_ops(x0, y0, x1, y1, crop, rotate):
    (a, b), (c, d) = to_user(x0, y0, crop, rotate), to_user(x1, y1, crop, rotate)
    return "%g %g %g %g re f\n" % (min(a, c), min(b, d), abs(c - a), abs(d - b))


def text_ops(text, u, v, size, crop, rotate):
    """Text set upright for the reader at displayed (u, v)."""
    x, y = to_user(u, v, crop, rotate)
    m = {0: (1, 0, 0, 1), 90: (0, 1, -1, 0), 180: (-1, 0, 0, -1), 270: (0, -1, 1, 0)}[rotate]
    return "BT /F1 %g Tf %g %g %g %g %g %g Tm (%s) Tj ET\n" % (size, m[0], m[1], m[2], m[3], x, y, text)


# Displayed-page rectangles (x0, y0, x1, y1) each case inks, in black, plus text.
CASES = {
    "corners": [(0, H - 70, 170, H), (W - 170, H - 70, W, H), (0, 0, 170, 70), (W - 170, 0, W, 70)],
    "top-margin": [(0, H - 60, W, H)],
    "bottom-margin": [(0, 0, W, 60)],
    "left-margin": [(0, 0, 60, H)],
    "right-margin": [(W - 60, 0, W, H)],
    # every corner and both margins inked but for one gap in the top margin
    "one-gap": [(0, H - 60, 250, H), (400, H - 60, W, H), (0, 0, W, 60)],
    "everywhere": [],
}
TEXT = {"corners": [("Title", W - 200, H - 58, 60)], "one-gap": [("Running head", 30, H - 40, 20)]}


def image_xobject():
    """A 64 x 64 RGB pattern with no pixel light enough to count as paper (channels 110..209): the
    full-bleed picture, light enough everywhere for a black title on it to be read."""
    data = bytearray()
    for y in range(64):
        for x in range(64):
            data += bytes((110 + (x * 5) % 100, 110 + (y * 7) % 100, 110 + ((x + y) * 3) % 100))
    return zlib.compress(bytes(data))


def make_pdf(path, case, rotate, offset, title="Title"):
    """The page of `case`, with the record's title across its middle (so that pith verify finds it)."""
    media, crop = boxes_for(rotate, offset)
    content = "0 0 0 rg\n"
    for r in CASES[case]:
        content += rect_ops(*r, crop, rotate)
    for text, u, v, size in TEXT.get(case, []):
        content += text_ops(text, u, v, size, crop, rotate)
    if case == "everywhere":
        llx, lly, urx, ury = media
        content += "q %g 0 0 %g %g %g cm /Im1 Do Q\n" % (urx - llx, ury - lly, llx, lly)
    # the title where a reader sees it: between the margins' bands (at 8 pt the record's title ends
    # near x = 480, clear of the right band, which would hide its last word black on black)
    content += text_ops(title.replace("\\", "").replace("(", "").replace(")", ""), 80, H / 2, 8, crop, rotate)
    content = content.encode()
    image = image_xobject()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        ("<< /Type /Page /Parent 2 0 R /MediaBox [%s] /CropBox [%s] /Rotate %d /Contents 4 0 R "
         "/Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> >>"
         % (" ".join(map(str, media)), " ".join(map(str, crop)), rotate)).encode(),
        stream("", content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        stream("/Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace /DeviceRGB /BitsPerComponent 8 "
               "/Filter /FlateDecode", image),
    ]
    write(path, classic(objects))


# ------------------------------------------------------------------ rendering


def render(pdf, prefix, dpi=72):
    r = run(["pdftoppm", "-q", "-r", str(dpi), "-gray", "-singlefile", pdf, prefix])
    return read_pgm(prefix + ".pgm") if r.returncode == 0 else None


def compare(before, after):
    """(badge pixels, of them on prior ink, bbox of the badge pixels)."""
    w, h, a = before
    _, _, b = after
    changed = overlap = 0
    x0, y0, x1, y1 = w, h, -1, -1
    for y in range(h):
        ra, rb = a[y * w:(y + 1) * w], b[y * w:(y + 1) * w]
        if ra == rb:
            continue
        for x in range(w):
            if abs(ra[x] - rb[x]) > CHANGE:
                changed += 1
                overlap += ra[x] < 255 - INK
                x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
    return changed, overlap, (x0, y0, x1, y1)


def luminance(gray):
    c = gray / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def contrast(after, bbox):
    """WCAG contrast between the box (its typical light pixel) and the text (its darkest), and the
    share of light pixels in the badge's area (an opaque box over a dark picture)."""
    w, _, b = after
    x0, y0, x1, y1 = bbox
    px = sorted(b[y * w + x] for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))
    light = px[int(0.9 * (len(px) - 1))]
    dark = px[0]
    ratio = (luminance(light) + 0.05) / (luminance(dark) + 0.05)
    return ratio, sum(p >= 230 for p in px) / len(px)


# ------------------------------------------------------------------ the checks

def paper_title(node):
    """paper.title wherever the record nests it."""
    if isinstance(node, dict):
        if isinstance(node.get("paper"), dict) and isinstance(node["paper"].get("title"), str):
            return node["paper"]["title"]
        node = list(node.values())
    if isinstance(node, list):
        for item in node:
            found = paper_title(item)
            if found:
                return found
    return None


def stamp(pith, record, inp, out, extra=()):
    r = run([pith, "stamp", inp, "--record", record, "-o", out, "--json", "--resolver", RESOLVER, *extra])
    try:
        return r, json.loads(r.stdout)
    except ValueError:
        return r, {}


def one_page(pith, record, tmp, case, rotate, offset):
    name = "%s-r%d%s" % (case, rotate, "-offset" if offset else "")
    src, out = os.path.join(tmp, name + ".pdf"), os.path.join(tmp, name + "-stamped.pdf")
    make_pdf(src, case, rotate, offset, paper_title(json.load(open(record))))
    r, s = stamp(pith, record, src, out)
    if not check(r.returncode == 0, "%s: stamp exits 0 (%s)" % (name, r.stderr.decode().strip()[:200])):
        return None
    badge = s.get("badge") or {}
    before, after = render(src, os.path.join(tmp, name + "-before")), render(out, os.path.join(tmp, name + "-after"))
    if not check(before and after and before[:2] == after[:2], "%s: pdftoppm renders both at the same size" % name):
        return None
    changed, overlap, bbox = compare(before, after)
    text = run(["pdftotext", out, "-"]).stdout.decode(errors="replace")
    short = "pith:" + s.get("number", ":").rsplit(":", 1)[1][:8]
    check(changed >= 30, "%s: the badge changed %d pixels" % (name, changed))
    check(short in text, "%s: pdftotext reads %s" % (name, short))
    where = "%s (%s)" % (badge.get("spot"), badge.get("why"))
    if case != "everywhere":
        check(overlap == 0 and badge.get("boxed") is False and badge.get("inked") == 0,
              "%s: badge at %s: %d of its %d pixels on prior ink, boxed=%s" % (name, where, overlap, changed, badge.get("boxed")))
    else:
        ratio, light = contrast(after, bbox)
        check(badge.get("boxed") is True and "no free spot" in badge.get("why", ""),
              "%s: no free spot, badge boxed and said so: %s" % (name, where))
        check(ratio >= 4.5 and light >= 0.5,
              "%s: boxed badge contrast %.1f:1 (>= 4.5), %.0f%% of its area light (>= 50%%)" % (name, ratio, 100 * light))
        check("no free spot" in r.stderr.decode(), "%s: stamp warns there is no free spot" % name)
    return out, s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    record = os.path.join(a.source, "examples", "record.json")
    tmp = tempfile.mkdtemp(prefix="pith-placement-")
    try:
        outputs = {}
        for case in CASES:
            for rotate in (0, 90, 180, 270):
                for offset in (False, True):
                    got = one_page(a.pith, record, tmp, case, rotate, offset)
                    if got:
                        outputs[(case, rotate, offset)] = got

        # Where the free spot is, on the upright page: what the cases were built to exercise.
        expect = {"corners": "top margin", "top-margin": "bottom-right corner", "bottom-margin": "top-right corner",
                  "left-margin": "top-right corner", "right-margin": "top-left corner", "one-gap": "top margin"}
        for case, spot in expect.items():
            for rotate in (0, 90, 180, 270):
                got = outputs.get((case, rotate, True))
                check(got and got[1]["badge"]["spot"] == spot,
                      "%s /Rotate %d: badge at the %s (got %s)" % (case, rotate, spot, got and got[1]["badge"]["spot"]))

        # An explicit corner is honoured, and warned about when it covers content.
        src = os.path.join(tmp, "corners-r90-offset.pdf")
        out = os.path.join(tmp, "explicit.pdf")
        r, s = stamp(a.pith, record, src, out, ["--corner", "top-right"])
        changed, overlap, _ = compare(render(src, os.path.join(tmp, "explicit-before")),
                                      render(out, os.path.join(tmp, "explicit-after")))
        check(r.returncode == 0 and s["badge"]["spot"] == "top-right corner" and overlap > 0 and s["badge"]["inked"] > 0,
              "--corner top-right is honoured over content (%d of %d badge pixels on prior ink)" % (overlap, changed))
        check("covers content" in r.stderr.decode(), "--corner over content warns: %s" % r.stderr.decode().strip()[:160])
        r, s = stamp(a.pith, record, src, out, ["--at", "250,300"])
        check(r.returncode == 0 and s["badge"]["spot"] == "at 250,300" and "covers" not in r.stderr.decode(),
              "--at on free paper is honoured without a warning")

        # A page poppler cannot measure (it crashes, or hangs past the time limit) still gets its
        # badge, where configured, boxed to stay readable, with a warning.
        src = os.path.join(tmp, "corners-r0.pdf")
        for hook in ("PITH_TEST_GLANCE_CRASH", "PITH_TEST_GLANCE_HANG"):
            env = dict(os.environ, **{hook: "1"})
            r = subprocess.run([a.pith, "stamp", src, "--record", record, "-o", out, "--json"], capture_output=True,
                               timeout=60, env=env)
            s = json.loads(r.stdout or b"{}")
            b = s.get("badge") or {}
            check(r.returncode == 0 and b.get("boxed") is True and b.get("measured") is False and
                  b.get("spot") == "top-right corner" and "could not be measured" in r.stderr.decode(),
                  "%s: stamped, boxed at the configured corner, warned: %s" % (hook, r.stderr.decode().strip()[:160]))

        # QR codes decode to the resolver URL at print resolution, on a page that had to search.
        for rotate in (0, 270):
            src = os.path.join(tmp, "corners-r%d-offset.pdf" % rotate)
            out = os.path.join(tmp, "qr-r%d.pdf" % rotate)
            r, s = stamp(a.pith, record, src, out, ["--qr"])
            changed, overlap, _ = compare(render(src, os.path.join(tmp, "qr-before")), render(out, os.path.join(tmp, "qr-after")))
            check(r.returncode == 0 and overlap == 0 and s["badge"]["spot"] != "top-right corner",
                  "--qr /Rotate %d: badge with QR at %s, none of its %d pixels on prior ink" % (rotate, s.get("badge", {}).get("spot"), changed))
            page = render(out, os.path.join(tmp, "qr-print"), dpi=300)
            z = run(["zbarimg", "-q", "--raw", os.path.join(tmp, "qr-print.pgm")])
            url = RESOLVER + s.get("number", ":").rsplit(":", 1)[1]
            check(page and z.stdout.decode().strip() == url, "--qr /Rotate %d: zbarimg reads %s (got %r)" % (rotate, url, z.stdout.decode().strip()))

        # pith verify recognises both variants, at a chosen spot, as pith's badge (default resolver).
        for case, rotate in (("one-gap", 90), ("everywhere", 180)):
            src = os.path.join(tmp, "%s-r%d-offset.pdf" % (case, rotate))
            out = os.path.join(tmp, "verify.pdf")
            r = run([a.pith, "stamp", src, "--record", record, "-o", out, "--json"])
            spot = json.loads(r.stdout or b"{}").get("badge", {}).get("spot")
            v = run([a.pith, "verify", out, "--json"])
            j = json.loads(v.stdout or b"{}")
            codes = {f.get("code") for f in j.get("success", [])}
            check("pith.update.match" in codes and "pith.badge.text.match" in codes and not j.get("failure"),
                  "verify: %s /Rotate %d: the badge at %s is pith's and shows its number (state %s, failures: %s)"
                  % (case, rotate, spot, j.get("state"), [f.get("code") for f in j.get("failure", [])]))
        # A look-alike: pith's own update with the badge's matrix blown up five times (the badge
        # then covers the page) is no badge pith stamp writes.
        out = os.path.join(tmp, "upright.pdf")
        run([a.pith, "stamp", os.path.join(tmp, "left-margin-r0.pdf"), "--record", record, "-o", out])
        data = open(out, "rb").read()
        m = re.search(rb"/Artifact BMC\nq (1) 0 0 (1) ", data)
        if check(m is not None, "the upright badge's closing stream is found in the stamped file"):
            big = data[:m.start(1)] + b"5" + data[m.end(1):m.start(2)] + b"5" + data[m.end(2):]
            with open(os.path.join(tmp, "blown-up.pdf"), "wb") as f:
                f.write(big)
            v = run([a.pith, "verify", os.path.join(tmp, "blown-up.pdf"), "--json"])
            j = json.loads(v.stdout or b"{}")
            check(j.get("state") == "invalid" and "pith.update.mismatch" in [f.get("code") for f in j.get("failure", [])],
                  "verify: a badge scaled 5 times in pith's update is rejected (state %s)" % j.get("state"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
