#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Renderer differential: every file pith calls trusted shows the same title in poppler's Splash
(`pdftoppm`, the renderer pith itself reads), poppler's cairo (`pdftocairo`), MuPDF
(`mutool draw`) and Ghostscript (`gs`).

pith reads the title block with poppler only; a reader may open the paper in SumatraPDF or
zathura (MuPDF), Evince (cairo) or a Ghostscript-based viewer. For each trusted file this script
renders the title's page (the `title` region of `pith verify --json`) in the four renderers at
one resolution, cuts out the title block and:

  OCR      reads each cut-out with the tesseract CLI: the renderer shows the title when every
           word of the title as the text layer sets it (pdftotext inside the region) is read,
           exactly after case folding, accents and punctuation dropped, and no word of three
           letters or more is read there that is not a title word and that Splash's cut-out
           does not show either (another title drawn over it);
  pixels   where OCR does not read every word (formulas, small marks), the renderer's cut-out,
           binarised at 192, must match Splash's within a small tolerance: at most 5 % of either's
           ink farther than 2 px from the other's. Splash is what pith read: a render that
           agrees with it shows what pith judged.

A trusted file passes when every renderer shows its title by OCR or by pixels. Attack files
are verified too: any `trusted` attack fails the run. The number of trusted files compared is
held to the counts stated in EXPECTED below (a dropped input fails the run).

Inputs (each optional, at least one):
  --attacks DIR    the attack suite's folder (tests/attacks/build_attacks.py --out DIR, the
                   ctest fixture pith_attacks): every control is verified here and compared;
                   the attacks are verified (the sample: the viewers-* and pixels-* classes; --full: all)
  --honest DIR     a run_honest.py --keep folder (fixture pith_honest_papers): each trusted
                   paper's stamped.pdf and its verify report (kept.json)
  --corpus-stamped DIR   a property_corpus.py --keep folder (fixture pith_corpus_stamped)

usage: renderers.py --pith PITH --work DIR [--sample | --full] [--attacks DIR] [--honest DIR]...
                    [--corpus-stamped DIR] [--jobs N] [--only SUBSTR]
       renderers.py --selftest --pith PITH --work DIR
Exit 0 when every trusted file shows its title in all four renderers and the counts hold, 1 otherwise.
Python standard library only (tests/lib, tests/corpus/stamp_suite.py).
"""
import argparse
import concurrent.futures
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(TESTS, "lib"))
sys.path.insert(0, os.path.join(TESTS, "corpus"))
sys.path.insert(0, os.path.join(TESTS, "honest"))
from pgm import read_pgm  # noqa: E402
from pithrun import isolated_env, run_pith  # noqa: E402
import corpus as honest_corpus  # noqa: E402
import property_corpus  # noqa: E402

RENDERERS = ("splash", "cairo", "mupdf", "gs")
TOOLS = {"splash": ("pdftoppm", "poppler-utils"), "cairo": ("pdftocairo", "poppler-utils"),
         "mupdf": ("mutool", "mupdf-tools"), "gs": ("gs", "ghostscript"), "ocr": ("tesseract", "tesseract-ocr"),
         "text": ("pdftotext", "poppler-utils")}
TOOL_TIMEOUT = 180
# A pixel darker than this is ink. Not 128: the renderers turn colour into grey differently
# (pure red is 77 in poppler and MuPDF, 129 in Ghostscript), and coloured type is ink in all.
INK = 192
REACH = 2             # px: ink this close to the other render's ink agrees with it
PIXEL_TOLERANCE = 0.05  # the share of ink allowed farther than REACH from the other render's
MAX_PIXELS = 40e6     # a full page at the chosen resolution stays under this

# The trusted files each source must give, stated beside the data they come from. A source that
# gives fewer (a paper dropped, a fixture that kept nothing) fails the run.
#  attack controls: tests/attacks/expected_counts.json's "control" (every control is trusted);
#  honest papers: tests/honest/corpus.py's SAMPLE_PAPERS / FULL_PAPERS (every paper is trusted);
#  the corpus: property_corpus.py's FLOORS "accepted" for the corpus it ran on (each then trusted).
# The CI sample compares a part of each, in a fixed choice: SAMPLE_EVERY keeps every n-th file
# of a source in name order, and SAMPLE_COMPARED states how many that is.
SAMPLE_EVERY = {"attacks": 1, "honest": 3, "corpus": 3}
SAMPLE_COMPARED = {"attacks": 62, "honest": 15, "corpus": {147: 24, 30: 7}}
# Trusted files a renderer cannot draw at all: no other title, but its readers see none. Each
# names the error; a renderer not named here that cannot draw a trusted file fails the run, and
# so does an entry whose renderer draws the file now.
CANNOT_DRAW = {
    "corpus/encrypted/podofo-AESV2-128_KeyLength129Violation.pdf": {
        "mupdf": "MuPDF 1.21 refuses the /Length 129 of its AES-128 encryption (\"invalid encryption key length\"); "
                 "the corpus file too"},
    "corpus/encrypted/r5-empty-password.pdf": {
        "gs": "Ghostscript 10.00 does not decrypt revision 5 AES-256 (\"Password did not work\"); the corpus file too"},
    # pith's doing: Ghostscript 10.00 opens the corpus file, not the stamped one. pith's update
    # trailer has /Prev to the hybrid file's last section but no /XRefStm, and Ghostscript then
    # takes object 107 (listed in the cross-reference stream only) for free ("Couldn't
    # initialise file"). The same trailer with /XRefStm of the last section opens.
    "corpus/valid/hybrid-xref.pdf": {
        "gs": "Ghostscript 10.00 cannot open the stamped file (\"Dereference of free object 107\")"},
}
SAMPLE_ATTACK_CLASSES = ("viewers-", "pixels-")  # built on what viewers or pixels show differently


def expected_counts(attacks_dir=None):
    with open(os.path.join(TESTS, "attacks", "expected_counts.json"), encoding="utf-8") as f:
        controls = json.load(f)["classes"]["control"]
    honest = {"sample": sum(honest_corpus.SAMPLE_PAPERS.values()), "full": sum(honest_corpus.FULL_PAPERS.values())}
    corpus = {rows: floor["accepted"] for rows, floor in property_corpus.FLOORS.items()}
    return {"controls": controls, "honest": honest, "corpus": corpus}


# ---------------------------------------------------------------------------------------------
# words

def norm(word):
    """A word as the judgement compares it: case folded, accents and ligatures undone, letters
    and digits only."""
    w = unicodedata.normalize("NFKD", word).casefold()
    return "".join(c for c in w if c.isalnum() and not unicodedata.combining(c))


def title_words(pdf, page, box, password):
    """The words pdftotext sets inside `box` (pixels of the page at 72 dpi, as displayed): the
    title as the text layer shows it, which pith matched against the record."""
    args = ["pdftotext", "-q", "-bbox", "-f", str(page), "-l", str(page)]
    if password:
        args += ["-opw", password, "-upw", password]
    p = subprocess.run(args + [pdf, "-"], capture_output=True, timeout=TOOL_TIMEOUT)
    doc = p.stdout.decode("utf-8", "replace")
    out = []
    word = r'<word xMin="([^"]*)" yMin="([^"]*)" xMax="([^"]*)" yMax="([^"]*)">([^<]*)</word>'
    for x0, y0, x1, y1, w in re.findall(word, doc):
        cx, cy = (float(x0) + float(x1)) / 2, (float(y0) + float(y1)) / 2
        if box[0] <= cx <= box[2] and box[1] <= cy <= box[3]:
            out.append((html.unescape(w), float(y1) - float(y0)))
    return out


# ---------------------------------------------------------------------------------------------
# rendering

def read_tiff(path):
    """(width, height, pixel bytes) of an uncompressed 8-bit greyscale TIFF (pdftocairo -tiff -gray)."""
    with open(path, "rb") as f:
        data = f.read()
    e = "<" if data[:2] == b"II" else ">"
    (ifd,) = struct.unpack(e + "I", data[4:8])
    (n,) = struct.unpack(e + "H", data[ifd:ifd + 2])
    tags = {}
    for i in range(n):
        tag, typ, count, value = struct.unpack(e + "HHI4s", data[ifd + 2 + 12 * i:ifd + 14 + 12 * i])
        size = {3: 2, 4: 4}.get(typ, 1)
        raw = value if size * count <= 4 else data[struct.unpack(e + "I", value)[0]:][:size * count]
        fmt = {2: "H", 4: "I"}.get(size, "B")
        tags[tag] = list(struct.unpack(e + fmt * count, raw[:size * count]))
    w, h = tags[256][0], tags[257][0]
    assert tags.get(259, [1])[0] == 1 and tags.get(258, [8])[0] == 8 and tags.get(277, [1])[0] == 1, \
        "%s is not an uncompressed 8-bit greyscale TIFF" % path
    pix = b"".join(data[o:o + c] for o, c in zip(tags[273], tags[279]))
    if tags.get(262, [1])[0] == 0:  # WhiteIsZero
        pix = pix.translate(bytes(255 - i for i in range(256)))
    return w, h, pix[:w * h]


def render(tool, pdf, page, dpi, password, base):
    """Page `page` of `pdf` at `dpi`, greyscale, as `tool` draws it: (width, height, bytes)."""
    pw = password or ""
    if tool == "splash":
        cmd = ["pdftoppm", "-q", "-r", str(dpi), "-gray", "-f", str(page), "-l", str(page), "-singlefile"]
        cmd += (["-opw", pw, "-upw", pw] if pw else []) + [pdf, base]
        out = base + ".pgm"
    elif tool == "cairo":
        cmd = ["pdftocairo", "-q", "-r", str(dpi), "-gray", "-tiff", "-tiffcompression", "none", "-f", str(page),
               "-l", str(page), "-singlefile"] + (["-opw", pw, "-upw", pw] if pw else []) + [pdf, base]
        out = base + ".tif"
    elif tool == "mupdf":
        out = base + ".pgm"
        cmd = ["mutool", "draw", "-q", "-r", str(dpi), "-c", "gray", "-o", out] + (["-p", pw] if pw else [])
        cmd += [pdf, str(page)]
    else:
        out = base + ".pgm"
        cmd = ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pgmraw", "-r%d" % dpi, "-dTextAlphaBits=4",
               "-dGraphicsAlphaBits=4", "-dUseCropBox", "-dFirstPage=%d" % page, "-dLastPage=%d" % page, "-o", out]
        cmd += (["-sPDFPassword=" + pw] if pw else []) + [pdf]
    p = subprocess.run(cmd, capture_output=True, timeout=TOOL_TIMEOUT)
    if p.returncode != 0 or not os.path.exists(out) or os.path.getsize(out) == 0:
        said = [line.strip() for line in p.stderr.decode("utf-8", "replace").splitlines()
                if line.strip() and "ICC support is not available" not in line]
        raise RuntimeError("%s drew nothing (exit %d): %s" % (cmd[0], p.returncode, " / ".join(said)[-300:]))
    return read_tiff(out) if tool == "cairo" else read_pgm(out)


def crop(img, box):
    """The pixels of `img` inside box (x0, y0, x1, y1), clipped to the image: (w, h, bytes)."""
    w, h, pix = img
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(w, int(box[2] + 0.999)), min(h, int(box[3] + 0.999))
    if x1 <= x0 or y1 <= y0:
        return 0, 0, b""
    return x1 - x0, y1 - y0, b"".join(pix[y * w + x0:y * w + x1] for y in range(y0, y1))


def write_pgm(path, img):
    w, h, pix = img
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (w, h) + pix)


BITS = bytes(ord("1") if i < INK else ord("0") for i in range(256))


def ink_rows(img):
    """Each row of `img` as an int whose set bits are its ink pixels (bit 0 the rightmost)."""
    w, h, pix = img
    return [int(pix[y * w:(y + 1) * w].translate(BITS) or b"0", 2) for y in range(h)]


def grow(rows, reach):
    """Ink rows dilated by `reach` pixels in every direction (a square)."""
    wide = []
    for r in rows:
        v = r
        for k in range(1, reach + 1):
            v |= (r << k) | (r >> k)
        wide.append(v)
    out = []
    for y in range(len(wide)):
        v = 0
        for yy in range(max(0, y - reach), min(len(wide), y + reach + 1)):
            v |= wide[yy]
        out.append(v)
    return out


def pixel_difference(a, b):
    """The share of ink of either cut-out farther than REACH px from the other's ink (0 to 1),
    and the ink of each; cut-outs of different sizes are compared over their common part."""
    w, h = min(a[0], b[0]), min(a[1], b[1])
    a, b = crop(a, (0, 0, w, h)), crop(b, (0, 0, w, h))
    ra, rb = ink_rows(a), ink_rows(b)
    ga, gb = grow(ra, REACH), grow(rb, REACH)
    ink_a = sum(r.bit_count() for r in ra)
    ink_b = sum(r.bit_count() for r in rb)
    off_a = sum((x & ~y).bit_count() for x, y in zip(ra, gb))
    off_b = sum((x & ~y).bit_count() for x, y in zip(rb, ga))
    share = max(off_a / ink_a if ink_a else (1.0 if ink_b else 0.0),
                off_b / ink_b if ink_b else (1.0 if ink_a else 0.0))
    return share, ink_a, ink_b


# ---------------------------------------------------------------------------------------------
# OCR

# Tesseract's languages for the scripts of a title, as pith chooses them (doc/visible.md, "Titles in
# other scripts"): a script counts where a word has two letters of it, or one of a script written
# without spaces.
SCRIPTS = (("CJK UNIFIED", "chi_sim", 1), ("HIRAGANA", "jpn", 1), ("KATAKANA", "jpn", 1), ("HANGUL", "kor", 1),
           ("CYRILLIC", "rus", 2), ("GREEK", "ell", 2), ("ARABIC", "ara", 2), ("HEBREW", "heb", 2),
           ("DEVANAGARI", "hin", 2))
UNSPACED = ("chi_sim", "jpn")


def languages(words):
    langs = ["eng"]
    for w in words:
        for prefix, lang, least in SCRIPTS:
            if sum(1 for c in w if unicodedata.name(c, "").startswith(prefix)) >= least and lang not in langs:
                langs.append(lang)
    if "jpn" in langs and "chi_sim" in langs:
        langs.remove("chi_sim")  # jpn reads the kanji too
    return langs


def ocr(paths, work, langs=("eng",)):
    """{path: [(word, confidence)]} read by the tesseract CLI (automatic layout), one run for all
    the cut-outs of a file."""
    listing = os.path.join(work, "ocr-list.txt")
    with open(listing, "w") as f:
        f.write("\n".join(paths) + "\n")
    base = os.path.join(work, "ocr")
    env = dict(os.environ, OMP_THREAD_LIMIT="1")  # one thread: the files run in parallel already
    p = subprocess.run(["tesseract", listing, base, "-l", "+".join(langs), "--psm", "3", "tsv"], capture_output=True,
                       timeout=TOOL_TIMEOUT, env=env)
    if p.returncode != 0:
        raise RuntimeError("tesseract failed (exit %d): %s"
                           % (p.returncode, p.stderr.decode("utf-8", "replace")[-300:]))
    out = {path: [] for path in paths}
    with open(base + ".tsv", encoding="utf-8", errors="replace") as f:
        for line in f.read().splitlines()[1:]:
            cells = line.split("\t")
            if len(cells) < 12 or cells[0] != "5" or not cells[11].strip():
                continue
            out[paths[int(cells[1]) - 1]].append((cells[11], float(cells[10])))
    return out


def ocr_verdict(want, read, splash_read, unspaced=False):
    """(missing title words, extra words) of one renderer's reading against the title's words. A
    title in a script written without spaces is compared as one string: OCR reads each character
    as a word of its own."""
    got = [norm(w) for w, _ in read if norm(w)]
    if unspaced:
        return ([] if "".join(want) in "".join(got) else ["".join(want)]), []
    pool = list(got)
    missing = []
    for w in want:
        if w in pool:
            pool.remove(w)
        else:
            missing.append(w)
    splash = {norm(w) for w, _ in splash_read}
    extra = [norm(w) for w, c in read
             if c >= 50 and len(norm(w)) >= 3 and norm(w) not in want and norm(w) not in splash]
    return missing, extra


# ---------------------------------------------------------------------------------------------
# one file

def display_box(rect, visible, rotate, scale):
    """A default-user-space rectangle in pixels of the page as displayed at 72 * scale dpi."""
    cx0, cy0, cx1, cy1 = visible
    w, h = cx1 - cx0, cy1 - cy0
    pts = []
    for x, y in ((rect[0], rect[1]), (rect[2], rect[3]), (rect[0], rect[3]), (rect[2], rect[1])):
        u, v = x - cx0, y - cy0
        pts.append({0: (u, h - v), 90: (v, u), 180: (w - u, v)}.get(rotate, (h - v, w - u)))
    xs, ys = [p[0] * scale for p in pts], [p[1] * scale for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def page_box(pdf, page, password):
    """(crop box as pdfinfo gives it, rotation) of a page."""
    args = ["pdfinfo", "-box", "-f", str(page), "-l", str(page)]
    args += ["-opw", password, "-upw", password] if password else []
    p = subprocess.run(args + [pdf], capture_output=True, timeout=TOOL_TIMEOUT)
    text = p.stdout.decode("utf-8", "replace")
    m = re.search(r"Page\s+%d CropBox:\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)" % page, text)
    r = re.search(r"Page\s+%d rot:\s+(\d+)" % page, text)
    if not m:
        raise RuntimeError("pdfinfo gives no crop box for page %d" % page)
    box = [float(v) for v in m.groups()]
    box = [min(box[0], box[2]), min(box[1], box[3]), max(box[0], box[2]), max(box[1], box[3])]
    return box, int(r.group(1)) % 360 if r else 0


def title_region(report):
    regions = [r for r in (report or {}).get("regions", []) if r.get("kind") == "title" and r.get("outcome") == "ok"]
    if not regions:
        return None
    page = regions[0]["page"]
    mine = [r for r in regions if r["page"] == page]
    return page, [min(r["x0"] for r in mine), min(r["y0"] for r in mine),
                  max(r["x1"] for r in mine), max(r["y1"] for r in mine)]


def compare(item, work, plant=None):
    """Renders and reads one trusted file: a result dict (ok, per renderer what was read, why)."""
    pdf, password, report = item["pdf"], item.get("password") or "", item["report"]
    res = {"name": item["name"], "source": item["source"], "state": report.get("state"), "renderers": {}}
    region = title_region(report)
    if region is None:
        return dict(res, ok=False, why="trusted, but the report has no title region")
    page, rect = region
    visible, rotate = page_box(pdf, page, password)
    box72 = display_box(rect, visible, rotate, 1.0)
    words = title_words(pdf, page, box72, password)
    want = [norm(w) for w, _ in words if norm(w)]
    res["title"] = " ".join(w for w, _ in words)
    if not want:
        return dict(res, ok=False, why="pdftotext shows no words in the title region")
    height = sorted(h for _, h in words)[len(words) // 2]  # the title's usual word height, in points
    dpi = max(100, min(300, int(72 * 20 / (0.38 * max(height, 1.0)))))
    area = (visible[2] - visible[0]) * (visible[3] - visible[1]) / 72.0 / 72.0
    while dpi > 50 and area * dpi * dpi > MAX_PIXELS:
        dpi -= 10
    res["dpi"] = dpi
    scale = dpi / 72.0
    x0, y0, x1, y1 = display_box(rect, visible, rotate, scale)
    pad = 0.3 * height * scale
    cut = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
    os.makedirs(work, exist_ok=True)
    cuts, paths = {}, []
    bad, drawn = [], []
    for tool in RENDERERS:
        src = plant[1] if plant and plant[0] == tool else pdf
        try:
            img = render(tool, src, page, dpi, password, os.path.join(work, tool))
        except RuntimeError as e:
            # no picture is no other title, but a reader of that viewer sees none: stated or failed
            stated = CANNOT_DRAW.get(item["name"], {}).get(tool)
            res["renderers"][tool] = {"shows": "%s: %s" % ("CANNOT DRAW, as CANNOT_DRAW states" if stated
                                                           else "CANNOT DRAW", e), "read": None}
            if not stated:
                bad.append(tool)
            continue
        if tool == "splash" or "splash" in cuts:
            cuts[tool] = crop(img, cut)
            path = os.path.join(work, "title-%s.pgm" % tool)
            write_pgm(path, cuts[tool])
            paths.append(path)
            drawn.append(tool)
            res["renderers"][tool] = {"size": [img[0], img[1]]}
    stale = [t for t in CANNOT_DRAW.get(item["name"], {}) if t in drawn]
    if stale:
        bad += stale
        for t in stale:
            res["renderers"][t]["stale"] = "draws it now: remove it from CANNOT_DRAW"
    if "splash" not in cuts:
        return dict(res, ok=False, why="pdftoppm cannot draw the page pith read: " + res["renderers"]["splash"]["shows"])
    langs = languages(w for w, _ in words)
    res["ocr"] = "+".join(langs)
    read = ocr(paths, work, langs)
    splash_read = read[paths[0]]
    for tool, path in zip(drawn, paths):
        r = res["renderers"][tool]
        r["read"] = " ".join(w for w, _ in read[path])
        missing, extra = ocr_verdict(want, read[path], splash_read, any(lang in UNSPACED for lang in langs))
        noisy = "OCR missed %s%s" % (" ".join(missing) or "nothing", ", read more: " + " ".join(extra) if extra else "")
        if tool != "splash":
            r["pixels"] = round(pixel_difference(cuts["splash"], cuts[tool])[0], 4)
        if not missing and not extra:
            r["shows"] = "title (OCR)" + ("; pixels %.2f %% off Splash" % (100 * r["pixels"]) if "pixels" in r else "")
        elif tool == "splash":
            r["shows"] = "what pith read (%s)" % noisy
        elif r["pixels"] <= PIXEL_TOLERANCE:
            r["shows"] = "as Splash (pixels %.2f %%; %s)" % (100 * r["pixels"], noisy)
        else:
            r["shows"] = "ANOTHER PICTURE (pixels %.1f %% off Splash; %s)" % (100 * r["pixels"], noisy)
            bad.append(tool)
    if not bad:
        shutil.rmtree(work, ignore_errors=True)  # a disagreement keeps its renders as proof
        return dict(res, ok=True, why=None)
    return dict(res, ok=False, why="%s show%s another title block: renders in %s"
                % (", ".join(bad), "s" if len(bad) == 1 else "", work))


# ---------------------------------------------------------------------------------------------
# the inputs

def verify(pith, pdf, keyring, home, trust=None):
    args = ["verify", "--json", "--keyring", keyring] + (["--trust", trust] if trust else []) + [pdf]
    rc, out, err = run_pith(pith, args, isolated_env(home), timeout=300)
    try:
        j = json.loads(out.splitlines()[0]) if out.strip() else {}
    except ValueError:
        j = {}
    return rc, j


def attack_items(args, home):
    """(items to compare, attack results, controls in the manifest): every control verified and
    (when trusted) compared; attacks verified and any trusted one reported."""
    d = os.path.abspath(args.attacks)
    with open(os.path.join(d, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    entries = manifest["files"] if isinstance(manifest, dict) else manifest
    controls = sorted((e for e in entries if e.get("control")), key=lambda e: e["name"])
    attacks = sorted((e for e in entries if not e.get("control")), key=lambda e: e["name"])
    if args.sample:
        controls = controls[::SAMPLE_EVERY["attacks"]]
        attacks = [e for e in attacks if e["class"].startswith(SAMPLE_ATTACK_CLASSES)]
    if args.only:
        controls = [e for e in controls if args.only in e["name"]]
        attacks = [e for e in attacks if args.only in e["name"]]

    def one(e):
        trust = os.path.join(d, e["trust"]) if e.get("trust") else None
        rc, j = verify(args.pith, os.path.join(d, e["name"]), os.path.join(d, e["keyring"]), home, trust)
        return e, rc, j
    items, attack_results = [], []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for e, rc, j in ex.map(one, controls + attacks):
            if e.get("control"):
                items.append({"name": "attacks/" + e["name"], "source": "attacks", "pdf": os.path.join(d, e["name"]),
                              "report": j, "exit": rc})
            else:
                attack_results.append((e["name"], j.get("state"), rc))
    return items, attack_results, len(controls)


def kept_items(folder, source, sample):
    """The trusted files a --keep run left in `folder` (one sub-folder each: stamped.pdf, kept.json)."""
    items = []
    if not os.path.isdir(folder):
        print("FAIL: %s: no such folder (did its fixture run?)" % folder)
        return items
    for sub in sorted(os.listdir(folder)):
        kept = os.path.join(folder, sub, "kept.json")
        if not os.path.isfile(kept):
            continue
        with open(kept, encoding="utf-8") as f:
            k = json.load(f)
        items.append({"name": "%s/%s" % (source, k["name"]), "source": source,
                      "pdf": os.path.join(folder, sub, "stamped.pdf"),
                      "password": k.get("password"), "report": k["verify"], "exit": k.get("exit", 0)})
    return items[::SAMPLE_EVERY[source]] if sample else items


def corpus_rows(folder):
    """The rows of the corpus a property_corpus.py --keep run read (its report names them)."""
    try:
        with open(os.path.join(folder, "kept-corpus.json"), encoding="utf-8") as f:
            return json.load(f)["manifest_rows"]
    except (OSError, ValueError, KeyError):
        return 0


def count_problems(source, found, want):
    if found < want:
        return ["%s: %d trusted files compared, %d stated (EXPECTED in renderers.py)" % (source, found, want)]
    return []


# ---------------------------------------------------------------------------------------------
# the run

def check_tools():
    missing = ["%s (Debian package %s)" % t for t in TOOLS.values() if shutil.which(t[0]) is None]
    return "missing tools: " + ", ".join(sorted(set(missing))) if missing else None


def run(args):
    problem = check_tools()
    if problem:
        print("FAIL: " + problem)
        return 1
    t0 = time.time()
    shutil.rmtree(args.work, ignore_errors=True)
    home = os.path.join(args.work, "home")
    os.makedirs(home)
    want = expected_counts()
    items, attack_results, problems = [], [], []
    stated = {}
    if args.attacks:
        got, attack_results, n_controls = attack_items(args, home)
        items += got
        stated["attacks"] = SAMPLE_COMPARED["attacks"] if args.sample else want["controls"]
    if args.honest:
        for folder in args.honest:
            items += kept_items(folder, "honest", args.sample)
        stated["honest"] = SAMPLE_COMPARED["honest"] if args.sample else want["honest"]["full"]
    if args.corpus_stamped:
        rows = corpus_rows(args.corpus_stamped)
        items += kept_items(args.corpus_stamped, "corpus", args.sample)
        stated["corpus"] = (SAMPLE_COMPARED["corpus"] if args.sample else want["corpus"]).get(rows, 0)
        if not stated["corpus"]:
            problems.append("corpus: no count stated for a corpus of %d files" % rows)
    if not stated:
        print("FAIL: no input (--attacks, --honest, --corpus-stamped)")
        return 1
    if args.only:
        items = [i for i in items if args.only in i["name"]]
    trusted = [i for i in items if i["report"].get("state") == "trusted" and i["exit"] == 0]
    for i in items:
        if i not in trusted:
            problems.append("%s: expected trusted, pith says %s" % (i["name"], i["report"].get("state")))
    for name, state, rc in attack_results:
        if state == "trusted" or rc == 0:
            problems.append("attacks/%s: an attack pith calls trusted (exit %d)" % (name, rc))
    plant = tuple(args.plant.split(":", 1)) if args.plant else None

    def one(item):
        work = os.path.join(args.work, "files", item["name"].replace("/", "__"))
        try:
            return compare(item, work, plant)
        except Exception as e:  # noqa: BLE001 (a file that cannot be compared fails, the run goes on)
            return {"name": item["name"], "source": item["source"], "state": "trusted", "ok": False, "renderers": {},
                    "why": "could not compare: %s" % e}
    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for r in ex.map(one, trusted):
            results.append(r)
            print("%s %s: %s; title %r at %s dpi" % ("PASS" if r["ok"] else "FAIL", r["name"], r["state"],
                                                    r.get("title"),
                                                    r.get("dpi")))
            for tool, t in r["renderers"].items():
                print("    %-7s %s; read %r" % (tool, t.get("shows"), t.get("read")))
            if r.get("why"):
                print("    " + r["why"])
    print()
    for name, state, rc in attack_results:
        print("attack %s: %s" % (name, state))
    per_source = {}
    for r in results:
        per_source[r["source"]] = per_source.get(r["source"], 0) + 1
    if not args.only:
        for source, n in sorted(stated.items()):
            problems += count_problems(source, per_source.get(source, 0), n)
    disagree = [r for r in results if not r["ok"]]
    with open(os.path.join(args.work, "report.json"), "w", encoding="utf-8") as f:
        json.dump({"results": results, "attacks": attack_results, "problems": problems}, f, indent=1,
                  ensure_ascii=False)
    print("%d trusted files compared (%s), %d attacks verified; %d disagree; %.1f s"
          % (len(results), ", ".join("%s %d of %d stated" % (s, per_source.get(s, 0), n)
                                     for s, n in sorted(stated.items())),
             len(attack_results), len(disagree), time.time() - t0))
    for r in disagree:
        print("FAIL %s: %s" % (r["name"], r["why"]))
    for p in problems:
        print("FAIL " + p)
    return 1 if disagree or problems else 0


# ---------------------------------------------------------------------------------------------
# the self-test

FAKE_PITH = """#!/usr/bin/env python3
# A stand-in for pith in the self-test: `verify --json ... FILE` prints the answer ANSWERS gives FILE.
import json, os, sys
answer = json.load(open(os.environ["FAKE_PITH_ANSWERS"]))[os.path.basename(sys.argv[-1])]
print(json.dumps(answer["report"]))
sys.exit(answer["exit"])
"""


def selftest(args):
    """The check on planted faults: a made-up render showing another title (MuPDF drawing paper
    B where the others draw paper A) must fail the file; the honest file must pass; a trusted
    attack and a dropped input must fail the run."""
    import pdfedit
    tmp = os.path.abspath(args.work)
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, "attacks"))
    title_a, title_b = "Sparse Attention Kernels for Long Context Models", "Quantum Error Correction with Surface Codes"
    body = ["", "", "Ada Lovelace and Charles Babbage", "",
            "Abstract. We study kernels for attention over long inputs."]
    paper_a = pdfedit.make_pdf([title_a] + body, font_size=16)
    paper_b = pdfedit.make_pdf([title_b] + body, font_size=16)
    for name, data in (("control-a.pdf", paper_a), ("paper-b.pdf", paper_b), ("attack-b.pdf", paper_b)):
        with open(os.path.join(tmp, "attacks", name), "wb") as f:
            f.write(data)
    region = {"page": 1, "x0": 50, "y0": 712, "x1": 460, "y1": 736, "kind": "title", "outcome": "ok", "label": "title"}
    trusted = {"state": "trusted", "regions": [region]}
    manifest = [{"name": "control-a.pdf", "class": "control", "control": True, "keyring": "ring.json"},
                {"name": "attack-b.pdf", "class": "viewers-test", "control": False, "keyring": "ring.json"}]
    with open(os.path.join(tmp, "attacks", "manifest.json"), "w") as f:
        json.dump(manifest, f)
    fake = os.path.join(tmp, "pith")
    with open(fake, "w") as f:
        f.write(FAKE_PITH)
    os.chmod(fake, 0o755)

    def answers(attack_state):
        path = os.path.join(tmp, "answers-%s.json" % attack_state)
        with open(path, "w") as f:
            json.dump({"control-a.pdf": {"report": trusted, "exit": 0},
                       "attack-b.pdf": {"report": {"state": attack_state},
                                        "exit": 0 if attack_state == "trusted" else 1}}, f)
        return path

    def run_case(attack_state, *extra):
        env = dict(os.environ, FAKE_PITH_ANSWERS=answers(attack_state))
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--pith", fake,
                            "--work", os.path.join(tmp, "run"),
                            "--attacks", os.path.join(tmp, "attacks"), "--full", "--selftest-counts"] + list(extra),
                           capture_output=True, text=True, env=env, timeout=600)
        return p.returncode, p.stdout + p.stderr
    b_pdf = os.path.join(tmp, "attacks", "paper-b.pdf")
    cases = [("the honest file in all four renderers", ("invalid",), 0, "1 trusted files compared"),
             ("MuPDF shows another title (a made-up render of paper B)", ("invalid", "--plant", "mupdf:" + b_pdf), 1,
              "FAIL attacks/control-a.pdf: mupdf shows another title block"),
             ("Ghostscript shows another title", ("invalid", "--plant", "gs:" + b_pdf), 1,
              "gs shows another title block"),
             ("MuPDF cannot draw the file", ("invalid", "--plant", "mupdf:" + os.path.join(tmp, "pith")), 1,
              "mupdf shows another title block"),
             ("an attack pith calls trusted", ("trusted",), 1, "an attack pith calls trusted"),
             ("a dropped input (a control missing)", ("invalid", "--selftest-counts", "2"), 1,
              "attacks: 1 trusted files compared, 2 stated")]
    bad = []
    for what, (state, *extra), want_rc, want_text in cases:
        rc, out = run_case(state, *extra)
        good = rc == want_rc and want_text in out
        print("%-60s exit %d: %s" % (what, rc, "right" if good else "WRONG"))
        for line in out.splitlines():
            if line.startswith("    "):
                print("  " + line)
        if not good:
            print(out[-3000:])
            bad.append(what)
    words = ocr_verdict(["sparse", "attention"], [("Sparse", 96.0), ("Attenti0n", 90.0)], [])
    if words != (["attention"], ["attenti0n"]):
        bad.append("ocr_verdict: %r" % (words,))
    print("renderers selftest: %d cases: %s" % (len(cases) + 1, "WRONG: %s" % bad if bad else "all right"))
    if not bad:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pith", required=True)
    ap.add_argument("--work", required=True, help="scratch folder (renders of a disagreement stay there)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--sample", action="store_true", help="the CI sample (default)")
    g.add_argument("--full", action="store_true", help="every trusted file of every input")
    ap.add_argument("--attacks", help="the attack suite's folder (manifest.json)")
    ap.add_argument("--honest", action="append", help="a run_honest.py --keep folder (may be repeated)")
    ap.add_argument("--corpus-stamped", help="a property_corpus.py --keep folder")
    ap.add_argument("--only", help="only files whose name holds this (no count check)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--selftest", action="store_true", help="check the check on planted faults")
    ap.add_argument("--plant", help=argparse.SUPPRESS)  # RENDERER:PDF, the self-test's made-up render
    ap.add_argument("--selftest-counts", nargs="?", const="1", help=argparse.SUPPRESS)  # the self-test's stated count
    args = ap.parse_args()
    if args.selftest:
        return selftest(args)
    args.sample = not args.full
    if args.selftest_counts:
        SAMPLE_COMPARED["attacks"] = int(args.selftest_counts)
        args.full, args.sample = False, True
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
