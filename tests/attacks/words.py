# SPDX-License-Identifier: MIT
"""Attack files: a forged word within OCR's tolerance. The text layer spells the record's title
exactly; the glyphs draw a title that differs in one short edit of one word that changes the
claim (a prefix that reverses it, a letter or two that make another word, a digit, a relation
sign, an exponent), and every viewer shows the glyphs. build() makes the prefix, letter and digit
classes, the relation signs and the exponents, and the controls: a word, a sign or a formula's
digit is confirmed only when a reading gives exactly it, so each is `unverified` (OCR reads the
drawn word; it cannot tell whether the drawn word or its own reading is wrong), or `invalid`
where every reading gives another sign OCR reads ("<" drawn as ">").

Four ways to make the glyphs differ from the text (each a font or a marked span, never hidden text):
  remapped    Helvetica-Bold re-encoded (/Differences) to draw the forged letters, its ToUnicode
              spelling the record's (same length only);
  type3       a Type 3 font, one code per piece: a piece's procedure draws the forged text (a
              prefix, two letters for one) and its ToUnicode spells the record's;
  names       a Type 3 font without ToUnicode whose glyph names spell the record's title
              (uniXXXX names where they lie) while their procedures draw other letters: the
              glyph named "I" draws "De", the one named "n" draws nothing;
  actualtext  the forged word in Helvetica-Bold inside a marked span whose /ActualText is the
              record's word (what extractors and screen readers give instead of the glyphs).

Each attack is stamped by plain `pith stamp` (no --no-title-check) with a record of its title;
where stamp refuses, the file is stamped with the flag and the manifest says so (`stamp`).
Proofs: pdftotext and mutool extract the record's title; both renderers draw exactly the pixels
of a reference whose text layer says what its glyphs draw; Tesseract reads the forged word (and
not the record's) in a poppler and a MuPDF render of page 1."""
import os
import re
import subprocess
import tempfile

import build_attacks as ba
from pdfgen import pdf_string, stream
from pithrun import isolated_env, run_pith

# Helvetica-Bold's advance widths (1000 units) of ASCII 32-126, from its AFM (metric-compatible
# with NimbusSans-Bold), so that a Type 3 glyph drawing forged letters advances as far as they do.
HB = [278, 333, 474, 556, 556, 889, 722, 278, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556,
      556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722,
      611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, 278, 556,
      611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778,
      556, 556, 500, 389, 280, 389, 584]
# Relation signs drawn from Symbol: code and width.
SYMBOL = {"=": (0x3D, 549), "\u2260": (0xB9, 549), "\u2264": (0xA3, 549), "\u2265": (0xB3, 549)}
NAMES = {" ": "space", "-": "hyphen", "'": "quoteright", "<": "less", ">": "greater", "=": "equal", "(": "parenleft",
         ")": "parenright", ".": "period", "/": "slash", "%": "percent", ",": "comma", ":": "colon", "0": "zero",
         "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
         "9": "nine"}
SIZE, X, Y = 18, 72, 700  # where paper() sets its title


def advance(text):
    """Width of `text` in Helvetica-Bold (Symbol for relation signs), 1000 units."""
    return sum(SYMBOL[c][1] if c in SYMBOL else HB[ord(c) - 32] for c in text)


def glyph_name(c):
    return NAMES.get(c, c)


def utf16(text):
    return "".join("%04X" % ord(c) for c in text)


def to_unicode(spelled):
    """ToUnicode CMap: code i+1 -> spelled[i] (a string of any length)."""
    pairs = "".join("<%02X> <%s>\n" % (i + 1, utf16(s)) for i, s in enumerate(spelled))
    return stream("", "/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
                  "/CIDSystemInfo << /Registry (Adobe) "
                  "/Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
                  "1 begincodespacerange <01> <FF> endcodespacerange\n%d beginbfchar\n%sendbfchar\n"
                  "endcmap CMapName currentdict /CMap defineresource pop end end\n" % (len(spelled), pairs))


def draw_ops(text):
    """Content that shows `text` from the origin at 1000 units (Helvetica-Bold /H, Symbol /S)."""
    out, font = [], None
    for c in text:
        want = "S" if c in SYMBOL else "H"
        if want != font:
            out.append("/%s 1000 Tf" % want)
            font = want
        out.append("<%02X> Tj" % SYMBOL[c][0] if c in SYMBOL else "%s Tj" % pdf_string(c))
    return "BT 0 0 Td %s ET\n" % " ".join(out) if out else ""


def pieces(title, old, new):
    """[(drawn, spelled)]: `title` letter for letter, with its first `old` (a whole word or sign) as
    one piece drawn as `new`."""
    at = title.index(old)
    return [(c, c) for c in title[:at]] + [(new, old)] + [(c, c) for c in title[at + len(old):]]


def symbol_font(d):
    return d.add("<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>")


def type3(d, drawn, names=None, spelled=None):
    """A Type 3 font whose code i+1 draws drawn[i]; glyph names `names` (default g1, g2, ...) and,
    when given, a ToUnicode spelling spelled[i]. Returns its object number."""
    names = names or ["g%d" % (i + 1) for i in range(len(drawn))]
    procs = {}
    for name, text in zip(names, drawn):
        if name not in procs:
            procs[name] = d.add(stream("", "%d 0 d0\n%s" % (advance(text), draw_ops(text))))
    tu = " /ToUnicode %d 0 R" % d.add(to_unicode(spelled)) if spelled is not None else ""
    return d.add("<< /Type /Font /Subtype /Type3 /FontBBox [ -170 -228 1003 962 ] /FontMatrix [ 0.001 0 0 0.001 0 0 ] "
                 "/CharProcs << %s >> /Encoding << /Type /Encoding /Differences [ 1 %s ] >> /FirstChar 1 /LastChar %d "
                 "/Widths [ %s ] /Resources << /Font << /H %d 0 R /S %d 0 R >> >>%s >>"
                 % (" ".join("/%s %d 0 R" % kv for kv in procs.items()), " ".join("/" + n for n in names), len(drawn),
                    " ".join(str(advance(t)) for t in drawn), ba.F3, symbol_font(d), tu))


def codes(n):
    return "<" + "".join("%02X" % (i + 1) for i in range(n)) + ">"


def fonts_hook(parts):
    """The hook adding a font /Wi for each lying part i of `parts` (see title_paper())."""
    def hook(d):
        res = []
        for i, (kind, drawn, spelled) in enumerate(parts):
            kind = kind.replace("super-", "")
            if kind in ("plain", "actualtext"):
                continue
            if kind == "remapped":
                assert len(drawn) == len(spelled)
                f = d.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding << /Type /Encoding "
                          "/Differences [ 1 %s ] >> /ToUnicode %d 0 R >>"
                          % (" ".join("/" + glyph_name(c) for c in drawn), d.add(to_unicode(list(spelled)))))
            elif kind == "type3":  # drawn, spelled: lists of pieces
                f = type3(d, drawn, spelled=spelled)
            elif kind == "names":  # spelled letter for letter; uniXXXX names where the drawing lies
                names = [glyph_name(s) if t == s else "uni%04X" % ord(s) for t, s in zip(drawn, spelled)]
                f = type3(d, drawn, names=names)
            else:
                raise ValueError(kind)
            res.append("/W%d %d 0 R" % (i, f))
        return {"res": {"Font": " ".join(res)}} if res else {}
    return hook


def title_paper(parts, body=None):
    """paper() with the title made of `parts`: [(kind, drawn, spelled)], kind one of "plain"
    (Helvetica-Bold, what it draws it spells), "remapped", "type3", "names", "actualtext", or
    "super-<kind>" (the same, set as a superscript). Each lying part gets a font of its own."""
    hook = fonts_hook(parts)
    ops = []
    for i, (kind, drawn, spelled) in enumerate(parts):
        sup = kind.startswith("super-")
        k = kind[6:] if sup else kind
        fs = SIZE * 0.6 if sup else SIZE
        rise, unrise = (" %g Ts" % (SIZE * 0.4), " 0 Ts") if sup else ("", "")
        if k == "plain":
            ops.append("/F3 %g Tf%s %s Tj%s" % (fs, rise, pdf_string(drawn), unrise))
        elif k == "actualtext":
            ops.append("/Span << /ActualText <FEFF%s> >> BDC /F3 %g Tf%s %s Tj%s EMC"
                       % (utf16(spelled), fs, rise, pdf_string(drawn), unrise))
        else:
            ops.append("/W%d %g Tf%s %s Tj%s" % (i, fs, rise, codes(len(drawn)), unrise))
    title_ops = "BT %g %g Td %s ET\n" % (X, Y, " ".join(ops))
    return ba.paper(title_ops=title_ops, hook=hook, **({"body": body} if body else {}))


def forged_parts(kind, title, old, new):
    """The title's parts with `old` drawn as `new`, the `kind` way (the rest plain Helvetica-Bold)."""
    at = title.index(old)
    before, after = title[:at], title[at + len(old):]
    if kind == "type3":
        # The whole title in the Type 3 font (poppler parts a line where its words' font boxes differ),
        # one code a letter but one piece for the letters that differ (MuPDF maps a code to at most
        # 8 characters).
        head, rest, before, after = before, after, "", ""
        while len(old) > 1 and len(new) > 1 and old[0] == new[0]:
            head, old, new = head + old[0], old[1:], new[1:]
        while len(old) > 1 and len(new) > 1 and old[-1] == new[-1]:
            rest, old, new = old[-1] + rest, old[:-1], new[:-1]
        drawn, spelled = list(head) + [new] + list(rest), list(head) + [old] + list(rest)
        return [p for p in [("plain", before, before), ("type3", drawn, spelled), ("plain", after, after)] if p[1]]
    if kind == "remapped":
        mid = [("remapped", new, old)]
    elif kind == "names":
        # Letter for letter: the letters of `old` draw `new` between them (the first takes what
        # is left over, the others one letter each or nothing).
        drawn = list(new[:len(old)]) if len(new) >= len(old) else list(new) + [""] * (len(old) - len(new))
        if len(new) > len(old):
            drawn[-1] = new[len(old) - 1:]
        mid = [("names", drawn, list(old))]
    elif kind == "actualtext":
        mid = [("actualtext", new, old)]
    else:
        raise ValueError(kind)
    return [p for p in [("plain", before, before)] + mid + [("plain", after, after)] if p[1]]


def reference(parts):
    """The parts of the page whose text layer says what `parts`' glyphs draw: the same drawings,
    spelled as drawn (glyph names that lie become a Type 3 font with an honest ToUnicode, a span's
    ActualText goes)."""
    out = []
    for kind, drawn, spelled in parts:
        sup = "super-" if kind.startswith("super-") else ""
        base = kind.replace("super-", "")
        base = {"names": "type3", "actualtext": "plain"}.get(base, base)
        out.append((sup + base, drawn, drawn))
    return out


# ---------------------------------------------------------------------------------------------
# stamping with plain `pith stamp`

def stamp_plain(b, data, record, name):
    """Stamps with plain `pith stamp`; where stamp refuses the title, stamps with --no-title-check.
    Returns (bytes, "accepted" or "refused: <error>")."""
    src = b.write("work/src-" + os.path.basename(name), data)
    args = ["stamp", src, "--record", b.path("records/%s.signed.json" % record), "-o", b.path(name)]
    rc, _, err = run_pith(b.pith, args, isolated_env(b.home, SOURCE_DATE_EPOCH=ba.EPOCH))
    if rc == 0:
        return b.read(name), "accepted"
    m = re.search(r"\[([a-z_.]+)\]", err)
    data = b.stamp(data, record, name)
    return data, "refused: %s" % (m.group(1) if m else err.strip()[:120])


def add(b, name, data, cls, description, expect, claim, proof, stamp_said, control=False):
    b.add(name, data, cls, description + "; stamped by plain pith stamp: " + stamp_said, expect, claim, proof,
          control=control)
    b.entries[-1]["stamp"] = stamp_said


# ---------------------------------------------------------------------------------------------
# proof: Tesseract on a poppler and a MuPDF render

def renders(p, name, dpi, tmp, ext="png"):
    """Page 1 of `name` rendered in grey at `dpi` by poppler and MuPDF into `tmp`, as `ext` (png or
    pgm): [(renderer, image path)]."""
    subprocess.run(["pdftoppm", "-q", "-r", str(dpi), "-gray", "-f", "1", "-l", "1", "-singlefile"]
                   + (["-png"] if ext == "png" else []) + [p.path(name), tmp + "/p"], check=True)
    subprocess.run(["mutool", "draw", "-q", "-r", str(dpi), "-c", "gray", "-o", tmp + "/m." + ext, p.path(name), "1"],
                   check=True)
    return [("poppler", tmp + "/p." + ext), ("mupdf", tmp + "/m." + ext)]


def ocr_texts(p, name, dpi=200):
    """{'poppler': text, 'mupdf': text}: Tesseract (eng, automatic layout) of page 1 rendered by each."""
    key = ("ocr", name, dpi)
    if key in p.cache:
        return p.cache[key]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for tool, image in renders(p, name, dpi, tmp):
            r = subprocess.run(["tesseract", image, "-", "-l", "eng", "--psm", "3"], capture_output=True, timeout=300)
            text = r.stdout.decode("utf-8", "replace").replace("\u2019", "'").replace("\u2018", "'")
            out[tool] = text.translate(PLAIN_SIGNS)
    p.cache[key] = out
    return out


# Tesseract's English model reads the relation signs it lacks as the plain ones.
PLAIN_SIGNS = str.maketrans({"\u2264": "<", "\u2265": ">"})


def phrase_re(phrase):
    """A phrase as OCR may space it: spaces optional, not inside a longer word, I and l read as
    either (Helvetica draws them alike); "\u2264" and "\u2265" read as "<" and ">"."""
    phrase = phrase.translate(PLAIN_SIGNS)
    body = r"\s*".join("[Il1|]" if c in "Il" else re.escape(c) for c in phrase if not c.isspace())
    return re.compile(r"(?<![A-Za-z0-9])" + body + r"(?![A-Za-z0-9])")


def ocr_reads(p, name, want, lacks=None, dpi=200):
    """Tesseract reads `want` (a phrase, spaces optional) in both renders of page 1, and not `lacks`."""
    texts = ocr_texts(p, name, dpi)
    for tool, text in texts.items():
        if not phrase_re(want).search(text):
            return "%s render: tesseract does not read %r (first lines: %r)" % (tool, want, " / ".join(
                l for l in text.splitlines() if l.strip())[:160])
        if lacks and phrase_re(lacks).search(text):
            return "%s render: tesseract reads %r" % (tool, lacks)
    line = next((l.strip() for l in texts["poppler"].splitlines() if phrase_re(want).search(l)), "")
    line_m = next((l.strip() for l in texts["mupdf"].splitlines() if phrase_re(want).search(l)), "")
    p.note.append("tesseract reads %r (poppler) and %r (mupdf)" % (line, line_m))
    return None


def ocr_crops(p, name, rect, dpi, psm):
    """What Tesseract (--psm `psm`) reads in `rect` (PDF points) of page 1 as poppler and MuPDF
    render it at `dpi`, the crop set on white: [(renderer, text)]."""
    from pgm import read_pgm
    read = []
    with tempfile.TemporaryDirectory() as tmp:
        for tool, image in renders(p, name, dpi, tmp, "pgm"):
            w, h, px = read_pgm(image)
            k, pad = dpi / 72, 40
            x0, x1, y0, y1 = int(rect[0] * k), int(rect[2] * k), int(h - rect[3] * k), int(h - rect[1] * k)
            cw, ch = x1 - x0 + 2 * pad, y1 - y0 + 2 * pad
            out = bytearray([255]) * (cw * ch)
            for y in range(y0, y1):
                out[(y - y0 + pad) * cw + pad:(y - y0 + pad) * cw + pad + x1 - x0] = px[y * w + x0:y * w + x1]
            with open(tmp + "/c.pgm", "wb") as f:
                f.write(b"P5\n%d %d\n255\n" % (cw, ch) + bytes(out))
            r = subprocess.run(["tesseract", tmp + "/c.pgm", "-", "--psm", str(psm)], capture_output=True, timeout=120)
            read.append((tool, r.stdout.decode("utf-8", "replace").strip()))
    return read


def ocr_glyph(p, name, rect, want, dpi=400):
    """Tesseract, reading one character (--psm 10), reads `want` in `rect` (PDF points) of page 1
    as poppler and MuPDF render it (at `dpi`, the crop set on white): a superscript, which OCR of
    the whole line misses."""
    for tool, text in ocr_crops(p, name, rect, dpi, 10):
        if text != want:
            return "%s render: tesseract reads %r in %r, not %r" % (tool, text, rect, want)
    p.note.append("tesseract reads the superscript as %r in both renders" % want)
    return None


CHECKS = {"ocr_reads": ocr_reads, "ocr_glyph": ocr_glyph}


# ---------------------------------------------------------------------------------------------
# the attacks

# (class, file stem, record title, the word (or sign) in the record, what the glyphs draw, technique, what changes)
WORDS = [
    ("words-prefix", "increases", "Dropout Increases Calibration Error in Ensembles", "Increases", "Decreases",
     "remapped", "the effect reversed"),
    ("words-prefix", "maximizes", "Gradient Descent Maximizes the Margin", "Maximizes", "Minimizes", "type3",
     "the effect reversed"),
    ("words-prefix", "impossible", "Exact Recovery Is Possible Below the Threshold", "Possible", "Impossible", "type3",
     "possible made impossible"),
    ("words-prefix", "unstable", "Fine-Tuning Leaves Pretrained Features Stable", "Stable", "Unstable", "actualtext",
     "stable made unstable"),
    ("words-prefix", "atypical", "Typical Sets Explain Generalization", "Typical", "Atypical", "names",
     "typical made atypical"),
    ("words-prefix", "exclusion", "Inclusion of Synthetic Data Improves Robustness", "Inclusion", "Exclusion", "names",
     "inclusion made exclusion"),
    ("words-prefix", "inconsistent", "Scaling Laws Are Consistent Across Domains", "Consistent", "Inconsistent",
     "type3", "consistent made inconsistent"),
    ("words-letters", "cant", "Transformers Can Learn Parity with Scratchpads", "Can", "Can't", "names",
     "can made can't (the glyph named n draws n't)"),
    ("words-letters", "casual", "Causal Attention Masks for Language Models", "Causal", "Casual", "remapped",
     "two letters swapped: another word"),
    ("words-letters", "pains", "Scaling Gains in Sparse Mixture Models", "Gains", "Pains", "remapped",
     "one letter: another word"),
    ("words-letters", "defective", "Gradient Clipping Is Effective for Privacy", "Effective", "Defective", "type3",
     "effective made defective"),
    ("words-letters", "probable", "Provable Robustness of Randomized Smoothing", "Provable", "Probable", "actualtext",
     "provable made probable"),
    ("words-letters", "optical", "Optimal Transport for Domain Adaptation", "Optimal", "Optical", "names",
     "one letter: another word"),
    ("words-digit", "gpt", "Outperforming GPT-3 with a Small Retrieval Model", "GPT-3", "GPT-4", "remapped",
     "another model's version"),
    ("words-digit", "speedup", "A 100x Speedup for Sparse Linear Solvers", "100x", "800x", "names",
     "another factor"),
    ("words-digit", "year", "Benchmarks Released Before 2023 Are Contaminated", "2023", "2028", "actualtext",
     "another year"),
    ("words-digit", "rate", "Error Rates Fall Below 2.1 Percent on ImageNet", "2.1", "2.7", "type3",
     "another number"),
    ("words-digit", "accuracy", "Reaching 99.5% Accuracy with Small Models", "99.5%", "89.5%", "remapped",
     "another number"),
    ("words-sign", "less", "Gradient Descent Converges When Step Size < 2/L", "<", ">", "remapped",
     "the relation reversed"),
    ("words-sign", "notequal", "Monotone Circuit Lower Bounds Imply P \u2260 NP", "\u2260", "=", "type3",
     "the relation reversed"),
    ("words-sign", "lessequal", "Test Error \u2264 Training Error for Wide Networks", "\u2264", "\u2265", "names",
     "the relation reversed"),
    ("words-sign", "noise", "Learning Halfspaces When Noise Rate < 1/2", "<", ">", "actualtext",
     "the relation reversed"),
]
# (file stem, record title (TeX), what the page shows before and after the exponent, the exponent,
#  the forged one, technique)
EXPONENTS = [
    ("square", "Learning Parities in $O(n^2)$ Time", "Learning Parities in O(n", ") Time", "2", "3", "super-remapped"),
    ("context", "Training Cost Grows as $N^2$ in Context Length", "Training Cost Grows as N", " in Context Length", "2",
     "4", "super-actualtext"),
    ("decay", "Error Decays as $1/T^2$ for Accelerated Methods", "Error Decays as 1/T", " for Accelerated Methods",
     "2", "1", "super-type3"),
]
TECHNIQUES = {"remapped": "Helvetica-Bold re-encoded (/Differences) to draw %r, its ToUnicode spelling %r",
              "type3": "a Type 3 glyph whose procedure draws %r, its ToUnicode spelling %r",
              "names": "Type 3 glyphs without ToUnicode that draw %r under glyph names spelling %r",
              "actualtext": "%r in Helvetica-Bold inside a span whose /ActualText is %r"}


def build_word(b, cls, stem, title, old, new, kind, what):
    key = "W-" + stem
    b.numbers[key] = b.record(key, title)
    forged = title.replace(old, new, 1)
    ref = "work/ref-words-%s.pdf" % stem
    # The reference: the same fonts and pieces, drawing and spelling the forged title.
    parts = forged_parts(kind, title, old, new)
    b.stamp(title_paper(reference(parts)), key, ref)
    name = "%s-%s.pdf" % (cls, stem)
    data, said = stamp_plain(b, title_paper(parts), key, name)
    how = TECHNIQUES[kind.replace("super-", "")] % (new, old)
    # MuPDF's extractor gives a span's glyphs, not its /ActualText: it copies the forged title.
    proof = ([["text_has", title, "poppler"], ["text_has", forged, "mupdf"]] if kind == "actualtext" else
             [["text_has", title, "both"]])
    proof += [["same_render", ref], ["mod", "words", "ocr_reads", forged_word(forged, new), forged_word(title, old)]]
    # "<" drawn as ">": every reading gives the other sign. OCR has no ≤ or ≠: not confirmed.
    expect = (("invalid", "pith.title.pixels.differs") if cls == "words-sign" and old in "<>=" else
              ("unverified", "pith.title.pixels.unverified"))
    add(b, name, data, cls,
        "a record titled %r; the page's title spells it, but draws %r (%s: %s)" % (title, forged, what, how),
        expect,
        "pdftotext and mutool extract the record's title; both renderers draw exactly the pixels of the page whose "
        "text layer says %r, and Tesseract reads the forged words in both renders" % forged, proof, said)


def forged_word(title, word):
    """The phrase around `word` OCR is asked for: the word with its neighbours (a sign alone is
    no phrase)."""
    words = title.split()
    for i, w in enumerate(words):
        if word in w:
            return " ".join(words[max(0, i - 1):i + 2])
    raise ValueError(word)


def build_exponent(b, stem, record_title, before, after, old, new, kind):
    key = "W-" + stem
    b.numbers[key] = b.record(key, record_title)
    base = kind.replace("super-", "")

    def parts(drawn, spelled):
        if base == "remapped":
            mid = (kind, drawn, spelled)
        elif base == "type3":
            mid = (kind, [drawn], [spelled])
        else:
            mid = (kind, drawn, spelled)
        return [("plain", before, before), mid, ("plain", after, after)]
    ref = "work/ref-words-%s.pdf" % stem
    b.stamp(title_paper(reference(parts(new, old))), key, ref)
    name = "words-exponent-%s.pdf" % stem
    data, said = stamp_plain(b, title_paper(parts(new, old)), key, name)
    shown_title, forged_title = before + old + after, before + new + after
    how = TECHNIQUES[base] % (new, old)
    add(b, name, data, "words-exponent", "a record titled %r (shown %r, the exponent raised); the page's text layer "
        "spells it, but its glyphs draw the exponent %s (%s)" % (record_title, shown_title, new, how),
        ("unverified", "pith.title.pixels.unverified"),
        "pdftotext and mutool extract the record's title with exponent %s; both renderers draw exactly the pixels of "
        "the page whose text layer says %r" % (old, forged_title),
        ([["text_has", shown_title, "poppler"], ["text_has", forged_title, "mupdf"]] if base == "actualtext" else
         [["text_has", shown_title, "both"]]) +
        [["same_render", ref], ["mod", "words", "ocr_glyph", superscript_box(before, new), new]],
        said)


def superscript_box(before, text):
    """The box (PDF points) of `text` set as title_paper() sets a superscript after `before`."""
    x = X + advance(before) * SIZE / 1000
    size, rise = SIZE * 0.6, SIZE * 0.4
    return [x - 0.5, Y + rise - 1, x + advance(text) * size / 1000 + 0.5, Y + rise + size * 0.75 + 1]


def build_controls(b):
    """Honest titles with a digit, a relation sign, an exponent and a Type 3 font: trusted."""
    for stem, title, parts in (
            ("digit", "Outperforming GPT-3 with a Small Retrieval Model",
             [("plain", "Outperforming GPT-3 with a Small Retrieval Model", None)]),
            ("sign", "Monotone Circuit Lower Bounds Imply P \u2260 NP",
             [("plain", "Monotone Circuit Lower Bounds Imply P ", None), ("type3", ["\u2260"], ["\u2260"]),
              ("plain", " NP", None)]),
            ("less", "Gradient Descent Converges When Step Size < 2/L",
             [("plain", "Gradient Descent Converges When Step Size < 2/L", None)]),
            ("exponent", "Learning Parities in $O(n^2)$ Time",
             [("plain", "Learning Parities in O(n", None), ("super-remapped", "2", "2"), ("plain", ") Time", None)])):
        key = "WC-" + stem
        b.numbers[key] = b.record(key, title)
        name = "control-words-%s.pdf" % stem
        parts = [(k, d, d if s is None else s) for k, d, s in parts]
        data, said = stamp_plain(b, title_paper(parts), key, name)
        shown_title = "".join(d if isinstance(d, str) else "".join(d) for _, d, _ in parts)
        add(b, name, data, "control", "a record titled %r on the paper that shows it, honestly drawn" % title, None,
            "pdftotext and mutool extract the title the page shows", [["text_has", shown_title, "both"]], said,
            control=True)


def build(b, a):
    for entry in WORDS:
        build_word(b, *entry)
    for entry in EXPONENTS:
        build_exponent(b, *entry)
    build_controls(b)
