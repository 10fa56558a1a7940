# SPDX-License-Identifier: MIT
"""Attack files on the title judgement's allowances (what it lets through so that honest
typography passes, doc/visible.md "The title from pixels"), each tried from the attacker's side,
with honest controls beside them:

  allow-formula  a word of the title that holds a formula or a TeX logo is checked in the text
                 layer only (OCR reads "ETRX" for LaTeX, "a" for alpha): the text letters glued to
                 the formula ("$k$-Sparse") or a logo ("\\LaTeX{}") drawn as another word;
  allow-logo     a logo's letters are moved off the baseline (OCR reads "ETRX" for LaTeX), so a logo is
                 confirmed letter by letter (each glyph drawn alone, read alone): a logo drawn as
                 another word ("\\LaTeX{}" drawn "Word", "\\TeX{}" drawn "Tax"), or its lowered
                 letter drawn as another ("TeX" drawn "Tax", "Tux");
  allow-glued    OCR's words are aligned with the title's in groups (a split or a join is no
                 error): the text layer parts two words the glyphs join ("in action" drawn
                 "inaction", "a moral" drawn "amoral") or joins two the glyphs part ("Therapist"
                 drawn "The rapist");
  allow-composed a letter TeX composes of two glyphs (a spacing accent over a base letter): the
                 "accent" draws letters ("Stable" drawn "Unstable");
  allow-mark     a footnote mark is raised, small, a few digits or one letter: a raised digit after
                 a number is a power ("10 GPUs" drawn "10^3 GPUs"), a raised word drawn as outlines;
  allow-punctuation  what OCR reads as punctuation is dropped: hollow hairline letters ("Im"
                 before "Possible", read "|");
  heading-type3, heading-rotated  class 2 in other layouts (headings.py's rule).

Each file is stamped by plain `pith stamp` where it accepts the title (words.stamp_plain). Proofs:
pdftotext and mutool extract the record's title (as the page prints it); both renderers draw the
pixels of a reference page whose text layer says what the glyphs draw (same_render); Tesseract
reads the drawn words, word for word, in a poppler and a MuPDF render (`ocr_words`)."""
import re

import build_attacks as ba
import headings
import words
from pdfgen import pdf_string

X, Y, SIZE = words.X, words.Y, words.SIZE


def ocr_words(p, name, want):
    """Tesseract reads `want` as these very words (spaces where it has them, none where it has
    none; case and punctuation aside) in both renders of page 1."""
    def plain(text):
        return " ".join(re.sub(r"[^0-9a-z]+", " ", w.lower()).strip() for w in text.split())
    texts = words.ocr_texts(p, name)
    for tool, text in texts.items():
        lines = [plain(l) for l in text.splitlines()]
        if not any(re.search(r"(?<![0-9a-z])%s(?![0-9a-z])" % re.escape(plain(want)), l) for l in lines):
            return "%s render: tesseract does not read %r word for word (first lines: %r)" % (
                tool, want, " / ".join(l for l in text.splitlines() if l.strip())[:200])
    p.note.append("tesseract reads %r word for word in both renders" % want)
    return None


def ocr_word_in(p, name, rect, want, dpi=400):
    """Tesseract, reading one word (--psm 8), reads the letters `want` (punctuation aside) in `rect`
    (PDF points) of page 1 as poppler and MuPDF render it (the crop set on white): a raised word
    OCR of the line misses."""
    for tool, text in words.ocr_crops(p, name, rect, dpi, 8):
        if re.sub(r"[^0-9A-Za-z]", "", text) != want:
            return "%s render: tesseract reads %r in %r, not %r" % (tool, text, rect, want)
    p.note.append("tesseract reads %r alone in both renders" % want)
    return None


CHECKS = {"ocr_words": ocr_words, "ocr_word_in": ocr_word_in}


def bbox_words(p, name, want):
    """pdftotext -bbox (poppler's words, as pith reads them) lists `want`'s words one after another."""
    rc, out, err = p.tool(["pdftotext", "-bbox", "-f", "1", "-l", "1", p.path(name), "-"])
    listed = re.findall(r"<word [^>]*>([^<]*)</word>", out)
    n = want.split()
    if any(listed[i:i + len(n)] == n for i in range(len(listed))):
        p.note.append("pdftotext -bbox lists the words %r" % n)
        return None
    return "pdftotext -bbox does not list the words %r" % n


CHECKS["bbox_words"] = bbox_words


def ocr_turned(p, name, degrees, want, dpi=150):
    """Tesseract reads `want` in both renders of page 1 turned back by `degrees` (PIL): text set
    along a turned baseline, which OCR of the page as it stands does not read."""
    import subprocess
    import tempfile
    from PIL import Image
    with tempfile.TemporaryDirectory() as tmp:
        for tool, image in words.renders(p, name, dpi, tmp):
            Image.open(image).convert("L").rotate(-degrees, expand=True, fillcolor=255).save(tmp + "/t.png")
            r = subprocess.run(["tesseract", tmp + "/t.png", "-", "--psm", "11"], capture_output=True, timeout=300)
            if want not in r.stdout.decode("utf-8", "replace"):
                return "%s render turned %g degrees: tesseract does not read %r" % (tool, degrees, want)
    p.note.append("tesseract reads %r in both renders turned back %g degrees" % (want, degrees))
    return None


def region_ink(p, name, rect, darkest):
    """Both renderers paint `rect` (PDF points) of page 1 with a pixel of grey `darkest` (0-255)
    or darker: glyphs a reader sees, however pale."""
    for tool, (w, h, px) in p.renders(name).items():
        x0, x1, y0, y1 = int(rect[0]), int(rect[2]), int(h - rect[3]), int(h - rect[1])
        if min(px[y * w + x] for y in range(y0, y1) for x in range(x0, x1)) > darkest:
            return "%s: nothing as dark as %d in %r" % (tool, darkest, rect)
    return None


CHECKS.update({"ocr_turned": ocr_turned, "region_ink": region_ink})


def record(b, key, title):
    b.numbers[key] = b.record(key, title)
    return key


def attack(b, name, cls, key, shown, data, ref, what, drawn, expect, extract=None, forged_text=None, text=None):
    """Stamps `data` with record `key` (plain pith stamp where it accepts) and adds it: the text
    layer shows `shown`; the pixels are those of `ref`'s page and read `drawn` word for word
    (`drawn` None: the same pixels prove it)."""
    b.stamp(ref, key, "work/ref-" + name)
    stamped, said = words.stamp_plain(b, data, key, name)
    proof = (text or [["text_has", extract or shown, "both"]]) + [["same_render", "work/ref-" + name]]
    if drawn:
        proof.append(["mod", "allowances", "ocr_words", drawn])
    words.add(b, name, stamped, cls, what, expect,
              "pdftotext and mutool extract %r; both renderers draw exactly the pixels of the page whose text layer "
              "says %r%s" % (extract or shown, forged_text or drawn,
                             ", and Tesseract reads %r word for word in both renders" % drawn if drawn else ""),
              proof, said)


def control(b, name, key, data, what, shown):
    stamped, said = words.stamp_plain(b, data, key, name)
    words.add(b, name, stamped, "control", what, None, "pdftotext and mutool extract %r" % shown,
              [["text_has", shown, "both"]], said, control=True)


UNVERIFIED = ("unverified", "pith.title.pixels.unverified")


def type3_title(title, old, new):
    """(attack, reference) papers: `title` with its first `old` drawn as `new` by a Type 3 glyph
    whose ToUnicode spells `old` (words.forged_parts), and the same drawing spelled as drawn."""
    parts = words.forged_parts("type3", title, old, new)
    return words.title_paper(parts), words.title_paper(words.reference(parts))


# ---------------------------------------------------------------------------------------------
# allow-formula and allow-logo: a word with a formula or a logo in it is left to the text layer

# (class, file stem, record title (TeX), the page's title, the word drawn otherwise, what is drawn, what changes)
FORMULA = [
    ("allow-formula", "sparse", "Learning $k$-Sparse Polynomials in Linear Time",
     "Learning k-Sparse Polynomials in Linear Time", "Sparse", "Dense", "sparse made dense"),
    ("allow-formula", "regularized", "Why $L_2$-Regularized Training Is Robust",
     "Why L2-Regularized Training Is Robust",
     "Regularized", "Unregularized", "regularized made unregularized"),
    ("allow-logo", "word-glued", "Non-\\TeX{} Users Prefer Markdown", "Non-TeX Users Prefer Markdown", "Non-TeX", "TeX",
     "the negation glued to the logo drawn as nothing"),
    ("allow-logo", "word-logo", "Why Students Prefer \\LaTeX{}", "Why Students Prefer LaTeX", "LaTeX", "Word",
     "the logo drawn as another word"),
    ("allow-logo", "word-tax", "A \\TeX{} Guide for Small Businesses", "A TeX Guide for Small Businesses", "TeX", "Tax",
     "the logo drawn as the word it nearly spells"),
    ("allow-logo", "word-xetex", "Typesetting Arabic with \\XeTeX{}", "Typesetting Arabic with XeTeX", "XeTeX", "Word",
     "XeTeX's logo drawn as another word"),
]


def build_formula(b, entries=FORMULA):
    for cls, stem, tex, shown, old, new, what in entries:
        key = record(b, "AF-" + stem, tex)
        data, ref = type3_title(shown, old, new)
        forged = shown.replace(old, new, 1)
        attack(b, "%s-%s.pdf" % (cls, stem), cls, key, shown, data, ref,
               "a record titled %r; the page's text layer spells %r, but a Type 3 glyph draws %r for %r (%s): the "
               "word holds a formula or a logo" % (tex, shown, new, old, what),
               words.forged_word(forged, new), UNVERIFIED, forged_text=forged)
    if entries is FORMULA:
        key = record(b, "AFC-sparse", FORMULA[0][2])
        control(b, "control-allow-formula.pdf", key, ba.paper(title=FORMULA[0][3]),
                "a record titled %r on the paper that shows it" % FORMULA[0][2], FORMULA[0][3])


# ---------------------------------------------------------------------------------------------
# allow-logo: a logo's moved letters

def logo_ops(before, logo, after, lowered_at):
    """A title line: `before`, then `logo` with its letter `lowered_at` set lower (as TeX lowers
    the E of its logo), then `after`."""
    head, moved, tail = logo[:lowered_at], logo[lowered_at], logo[lowered_at + 1:]
    return ("BT /F3 %g Tf %g %g Td %s Tj -3.5 Ts %s Tj 0 Ts %s Tj ET\n"
            % (SIZE, X, Y, pdf_string(before + head), pdf_string(moved), pdf_string(tail + after)))


# (file stem, record title, before the logo, the logo, after it, what the glyphs draw, what changes)
LOGO = [("tax", "Typesetting Proofs with TeX Is Easy", "Typesetting Proofs with ", "TeX", " Is Easy", "TaX",
         "TeX drawn as TaX, tax: its lowered letter a vowel"),
        # OCR of the line reads the lowered a as g: the letters read one by one read it as a
        ("latax", "Writing Papers in LaTeX Made Simple", "Writing Papers in ", "LaTeX", " Made Simple", "LaTaX",
         "LaTeX drawn as LaTaX, its lowered letter a vowel"),
        ("tux", "Typesetting with TeX on Linux", "Typesetting with ", "TeX", " on Linux", "TuX",
         "TeX drawn as TuX, Linux's penguin Tux: its lowered letter another vowel")]


def build_logo(b, entries=LOGO):
    cls = "allow-logo"
    for stem, title, before, logo, after, drawn, what in entries:
        key = record(b, "AL-" + stem, title)
        at = logo.index("e")

        # The lowered letter's glyph draws another: Helvetica-Bold re-encoded, its ToUnicode the logo's.
        def hook(d, logo=logo, drawn=drawn, at=at):
            f = d.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding << /Type /Encoding "
                      "/Differences [ 1 /%s ] >> /ToUnicode %d 0 R >>"
                      % (drawn[at], d.add(words.to_unicode([logo[at]]))))
            return {"res": {"Font": "/W0 %d 0 R" % f}}
        ops = ("BT /F3 %g Tf %g %g Td %s Tj -3.5 Ts /W0 %g Tf <01> Tj 0 Ts /F3 %g Tf %s Tj ET\n"
               % (SIZE, X, Y, pdf_string(before + logo[:at]), SIZE, SIZE, pdf_string(logo[at + 1:] + after)))
        attack(b, "%s-%s.pdf" % (cls, stem), cls, key, title, ba.paper(title_ops=ops, hook=hook),
               ba.paper(title_ops=logo_ops(before, drawn, after, at)),
               "a record titled %r, its logo set as TeX sets it (a letter lowered); the glyph of the lowered letter "
               "draws %r (%s)" % (title, drawn[at], what), None, UNVERIFIED, extract=before.strip(),
               forged_text=title.replace(logo, drawn))
    if entries is LOGO:
        # honest: the logos' E lowered, as TeX sets it (the text layer parts "LaT", "e", "X")
        for stem, title, before, logo, after in (
                ("tex", LOGO[0][1], "Typesetting Proofs with ", "TeX", " Is Easy"),
                ("latex", LOGO[1][1], "Writing Papers in ", "LaTeX", " Made Simple")):
            key = record(b, "ALC-" + stem, title)
            control(b, "control-allow-logo-%s.pdf" % stem, key,
                    ba.paper(title_ops=logo_ops(before, logo, after, logo.index("e"))),
                    "a record titled %r on the paper that sets the logo's E lowered" % title, before.strip())


# ---------------------------------------------------------------------------------------------
# allow-glued: word boundaries the text layer and the glyphs disagree on

def kerned_join(title, first, second):
    """Title ops: `title` with the space between `first` and `second` taken back by a TJ kern of
    its width, so the glyphs join the two words while the text layer holds the space."""
    at = title.index(first + " " + second) + len(first) + 1
    return "BT /F3 %g Tf %g %g Td [ %s %d %s ] TJ ET\n" % (
        SIZE, X, Y, pdf_string(title[:at]), words.HB[0], pdf_string(title[at:]))


def build_glued(b):
    cls = "allow-glued"
    for stem, title, shown, first, second, drawn, what in (
            ("inaction", "Reinforcement Learning in Action", "Reinforcement Learning in action", "in", "action",
             "Reinforcement Learning inaction", "in action made inaction"),
            ("amoral", "Reward Models as a Moral Compass", "Reward Models as a moral Compass", "a", "moral",
             "as amoral Compass", "a moral compass made amoral"),
            ("nowhere", "Robust Generalisation Is Now Here", "Robust Generalisation Is Now here", "Now", "here",
             "Is Nowhere", "now here made nowhere"),
            ("atypical", "A Typical Failure of Gradient Descent", "A typical Failure of Gradient Descent", "A",
             "typical", "Atypical Failure", "a typical failure made atypical")):
        key = record(b, "AG-" + stem, title)
        data = ba.paper(title_ops=kerned_join(shown, first, second))
        ref = ba.paper(title=shown.replace(first + " " + second, first + second))
        attack(b, "%s-%s.pdf" % (cls, stem), cls, key, shown, data, ref,
               "a record titled %r; the text layer holds the space between %r and %r (poppler's words part them), a "
               "TJ kern takes its width back, so the glyphs join them (%s)" % (title, first, second, what), drawn,
               UNVERIFIED,
               text=[["text_has", shown, "mupdf"], ["mod", "allowances", "bbox_words", first + " " + second]])
    for stem, title, word, split, drawn, what in (
            ("therapist", "Therapist Training Outcomes in Rural Clinics", "Therapist", 3, "The rapist Training",
             "therapist made the rapist"),
            ("notable", "Sparse Transformers Are Notable Reasoners", "Notable", 3, "Are Not able Reasoners",
             "notable made not able")):
        key = record(b, "AG-" + stem, title)
        at = title.index(word) + split
        spaced = title[:at] + " " + title[at:]
        # One Type 3 code a letter; the glyph of the word's letter before the gap advances a space
        # further (its ToUnicode spells the letter alone).
        drawn_list = list(title[:at - 1]) + [title[at - 1] + " "] + list(title[at:])
        data = words.title_paper([("type3", drawn_list, list(title))])
        ref = words.title_paper([("type3", list(spaced), list(spaced))])
        attack(b, "%s-%s.pdf" % (cls, stem), cls, key, title, data, ref,
               "a record titled %r; a Type 3 glyph of %r advances a space further, so the glyphs part the word while "
               "the text layer spells it whole (%s)" % (title, title[at - 1], what), drawn, UNVERIFIED,
               forged_text=spaced)
    title = "Reinforcement Learning in Action"
    key = record(b, "AGC-kerned", title)
    # honest: a title set with a TJ kern after each word, its spaces kept
    tj = " ".join("%s -20" % pdf_string(w + " ") for w in title.split())
    control(b, "control-allow-glued-kerned.pdf", key,
            ba.paper(title_ops="BT /F3 %g Tf %g %g Td [ %s ] TJ ET\n" % (SIZE, X, Y, tj)),
            "a record titled %r on a paper that sets it with a TJ kern after each word" % title, "Reinforcement")


# ---------------------------------------------------------------------------------------------
# allow-composed: a letter of two glyphs (an accent over a base letter)

def build_composed(b):
    cls = "allow-composed"
    for stem, title, word, drawn, accent, after in (
            ("unstable", "Fine-Tuning Leaves Pretrained Features Stable", "Stable", "Un", "\u00a8", False),
            ("illegal", "Scraping Public Websites Is Legal", "Legal", "Il", "\u00b4", False),
            ("cant", "Transformers Can Learn Parity with Scratchpads", "Can", "'t", "\u0301", True)):
        key = record(b, "AC-" + stem, title)
        at = title.index(word) + (len(word) if after else 0)
        # The "accent": a Type 3 glyph spelled as an accent (a spacing one, which the text layer
        # drops as it does an OT1 accent poppler does not combine, or a combining one, which
        # normalising drops) that draws letters before or after the word.
        drawn_list = list(title[:at]) + [drawn] + list(title[at:])
        spelled = list(title[:at]) + [accent] + list(title[at:])
        data = words.title_paper([("type3", drawn_list, spelled)])
        ref = words.title_paper([("type3", drawn_list, drawn_list)])
        forged = title[:at] + drawn + title[at:]
        shown = word + drawn if after else drawn + word
        attack(b, "%s-%s.pdf" % (cls, stem), cls, key, title, data, ref,
               "a record titled %r; %s %r a Type 3 glyph spelled as an accent (U+%04X) draws %r"
               % (title, "after" if after else "before", word, ord(accent), drawn), words.forged_word(forged, shown),
               UNVERIFIED, extract=title[:at] if not after else title[at:], forged_text=forged)
    # honest: an accent set as TeX's OT1 fonts set it, a glyph of its own over the letter
    title = "Schr\u00f6dinger Bridges for Generative Models"
    key = record(b, "ACC-accent", title)
    back = words.HB[ord("o") - 32] / 2 + 333 / 2  # from after the o back to centre the dieresis (333 wide) over it
    ops = ("BT /F3 %g Tf %g %g Td [ (Schro) %d (\\250) %d (dinger Bridges for Generative Models) ] TJ ET\n"
           % (SIZE, X, Y, back, 333 - back))
    control(b, "control-allow-composed.pdf", key, ba.paper(title_ops=ops),
            "a record titled %r on a paper that draws the \u00f6 as an o and a dieresis glyph moved over it" % title,
            "Bridges for Generative Models")


# ---------------------------------------------------------------------------------------------
# allow-mark: raised text taken for a footnote mark

def build_mark(b):
    cls = "allow-mark"
    for stem, title, before, mark, after in (
            ("power", "Training Language Models on 10 GPUs", "Training Language Models on 10", "3", " GPUs"),
            ("billion", "Scaling Laws Hold for 10 Billion Parameters", "Scaling Laws Hold for 10", "2",
             " Billion Parameters")):
        key = record(b, "AM-" + stem, title)
        ops = "BT /F3 %g Tf %g %g Td %s Tj /F3 %g Tf %g Ts %s Tj 0 Ts /F3 %g Tf %s Tj ET\n" % (
            SIZE, X, Y, pdf_string(before), SIZE * 0.6, SIZE * 0.4, pdf_string(mark), SIZE, pdf_string(after))
        stamped, said = words.stamp_plain(b, ba.paper(title_ops=ops), key, "%s-%s.pdf" % (cls, stem))
        words.add(b, "%s-%s.pdf" % (cls, stem), stamped, cls,
                  "a record titled %r; the page raises a %g pt %r right after the number, a power to a reader "
                  "(%s^%s %s), a footnote mark by its size and place" % (title, SIZE * 0.6, mark, before.split()[-1],
                                                                         mark, after.split()[0]),
                  ("invalid", "pith.title.differs"),
                  "pdftotext and mutool extract the title with the raised digit after the number; Tesseract reads "
                  "the digit alone in both renders",
                  [["text_has", after.strip(), "both"],
                   ["mod", "words", "ocr_glyph", words.superscript_box(before, mark), mark]], said)
    title = "Training Language Models on 10 GPUs"
    key = record(b, "AMC-mark", title)
    for stem, before, mark, after in (("star", title, "*", ""),
                                      ("word", "Training Language Models", "1", " on 10 GPUs")):
        ops = "BT /F3 %g Tf %g %g Td %s Tj /F3 %g Tf %g Ts %s Tj 0 Ts /F3 %g Tf %s Tj ET\n" % (
            SIZE, X, Y, pdf_string(before), SIZE * 0.6, SIZE * 0.4, pdf_string(mark), SIZE, pdf_string(after))
        control(b, "control-allow-mark-%s.pdf" % stem, key, ba.paper(title_ops=ops),
                "a record titled %r with a raised footnote mark %r after %r" % (title, mark, before.split()[-1]),
                "Training Language Models")


def build_mark_word(b):
    """A raised word drawn as outlines: no text for the text layer, read as a quote mark by OCR
    (the comparison drops punctuation; what stands between two title words is weighed apart)."""
    key = record(b, "AM-not", "Attention Is Sufficient for Long Contexts")
    gap = 1000  # room for the raised word: the space after "Is" widened by a TJ kern
    base = ba.paper(title_ops="BT /F3 %g Tf %g %g Td [ (Attention Is ) %d (Sufficient for Long Contexts) ] TJ ET\n"
                    % (SIZE, X, Y, -gap))
    x = X + words.advance("Attention Is ") * SIZE / 1000 + 1
    data = headings.overlay(base, headings.outlines(headings.line("not", SIZE * 0.6, Y + SIZE * 0.4, x=x)))
    stamped, said = words.stamp_plain(b, data, key, "allow-mark-word.pdf")
    words.add(b, "allow-mark-word.pdf", stamped, "allow-mark",
              "a record titled 'Attention Is Sufficient for Long Contexts'; a raised 10.8 pt 'not' drawn as outlines "
              "after 'Is' (a superscript that is a word; no text)", UNVERIFIED,
              "pdftotext and mutool extract the title without 'not'; Tesseract reads 'not' alone in both renders",
              [["text_has", "Attention Is Sufficient", "both"], ["text_lacks", "Is not", "both"],
               ["mod", "allowances", "ocr_word_in", [x - 1, Y + SIZE * 0.4 - 3, x + 16.5, Y + SIZE * 0.4 + 10], "not"]],
              said)


# ---------------------------------------------------------------------------------------------
# heading-*: class 2 again, in other layouts (headings.py's classes: a line that makes the page
# another paper)

def glyphs_as_spaces(text, size, x, y):
    """(ops, hook): `text` drawn by a Type 3 font whose ToUnicode spells each glyph as a space,
    so that the text layer holds no word where the heading stands."""
    def hook(d):
        f = words.type3(d, list(text), spelled=[" "] * len(text))
        return {"res": {"Font": "/SP %d 0 R" % f}}
    return "BT /SP %g Tf %g %g Td %s Tj ET\n" % (size, x, y, words.codes(len(text))), hook


def heading(b, name, cls, data, what, expect, claim, proof):
    stamped, said = words.stamp_plain(b, data, "A", name)
    words.add(b, name, stamped, cls, what + "; stamped with A's record", expect, claim,
              [["text_has", ba.TITLE_A, "both"]] + proof, said)


def build_reframing(b):
    ops, hook = glyphs_as_spaces(headings.REFRAME, 22, 72, 728)
    heading(b, "heading-type3-spaces.pdf", "heading-type3", ba.paper(title_ops=ops + headings.TITLE, hook=hook),
            "paper A with %r above its title in 22 pt, drawn by Type 3 glyphs whose ToUnicode spells each as a space "
            "(no word in the text layer)" % headings.REFRAME, ("invalid", "pith.title.pixels.outranked"),
            "pdftotext and mutool extract A's title and not the heading; Tesseract reads the heading in both renders",
            [["text_lacks", "Kernels Fail", "both"], ["mod", "words", "ocr_reads", headings.REFRAME, None]])
    turned = "q 0.8 0 0 rg BT /F3 60 Tf 0.866 0.5 -0.5 0.866 150 280 Tm (RETRACTED) Tj ET Q\n"
    heading(b, "heading-rotated-retracted.pdf", "heading-rotated", ba.paper(hook=lambda d: {"ops": turned}),
            "paper A with RETRACTED across its page in 60 pt red Helvetica-Bold, its text matrix turned 30 degrees",
            ("invalid", "pith.title.not_title"),
            "pdftotext extracts A's title, mutool A's title and RETRACTED; Tesseract reads RETRACTED in both "
            "renders turned back 30 degrees",
            [["text_has", "RETRACTED", "mupdf"], ["mod", "allowances", "ocr_turned", 30, "RETRACTED"]])


def build_pale(b):
    """A reframing line a reader sees in pale grey, which OCR does not read: the text layer's line
    right over the title in nearly its type outranks it."""
    heading(b, "heading-pale-critique.pdf", "heading-pale",
            ba.paper(title_ops=headings.line("A Critique of", 17, 724, "0.72 g") + headings.TITLE),
            "paper A with 'A Critique of' as a line of its own above its title in 17 pt Helvetica-Bold, pale grey "
            "(#b8b8b8, a contrast of 2:1 on white)", ("invalid", "pith.title.not_title"),
            "pdftotext and mutool extract 'A Critique of' above A's title; both renderers paint its glyphs grey "
            "(#b8b8b8 or darker)", [["text_has", "A Critique of", "both"], ["mod", "allowances", "region_ink",
                                                                             [72, 724, 180, 736], 190]])


# ---------------------------------------------------------------------------------------------
# allow-punctuation: what OCR reads as punctuation is dropped from the comparison

def hairlines(ops):
    """`ops` on an empty page as outlines (headings.outlines) stroked with a zero-width line: one
    device pixel wide whatever the resolution, letters a reader reads and OCR takes for symbols."""
    import io
    import pikepdf
    pdf = pikepdf.open(io.BytesIO(headings.outlines(ops)))
    page = pdf.pages[0]
    out = [([], pikepdf.Operator("q")), ([0], pikepdf.Operator("w")), ([0], pikepdf.Operator("G"))]
    for operands, op in pikepdf.parse_content_stream(page):
        out.append((operands, pikepdf.Operator("S") if str(op) in ("f", "f*", "F") else op))
    out.append(([], pikepdf.Operator("Q")))
    page.Contents = pdf.make_stream(pikepdf.unparse_content_stream(out))
    buf = io.BytesIO()
    pdf.save(buf, static_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return buf.getvalue()


def build_hairline(b):
    title = "Exact Recovery Is Possible Below the Threshold"
    key = record(b, "AP-hairline", title)
    room = words.advance("Im")
    base = ba.paper(title_ops="BT /F3 %g Tf %g %g Td [ (Exact Recovery Is ) %d (Possible Below the Threshold) ] TJ "
                              "ET\n" % (SIZE, X, Y, -room))
    x = X + words.advance("Exact Recovery Is ") * SIZE / 1000
    data = headings.overlay(base, hairlines(headings.line("Im", SIZE, Y, x=x)))
    stamped, said = words.stamp_plain(b, data, key, "allow-punctuation-hairline.pdf")
    words.add(b, "allow-punctuation-hairline.pdf", stamped, "allow-punctuation",
              "a record titled %r; 'Im' drawn right before 'Possible' as letter outlines stroked with a zero-width "
              "line (hollow letters a reader reads, 'ImPossible'; OCR reads '|' or '[' there), no text" % title,
              UNVERIFIED, "pdftotext and mutool extract the record's title; both renderers paint grey strokes "
              "(#aaaaaa or darker) where 'Im' stands",
              [["text_has", title, "both"], ["text_lacks", "Impossible", "both"],
               ["mod", "allowances", "region_ink", [x, Y - 1, x + 20, Y + 14], 170]], said)


def build(b, a):
    """The default build's files (expected_counts.json)."""
    build_formula(b)
    build_logo(b)
    build_glued(b)
    build_composed(b)
    build_mark(b)
    build_mark_word(b)
    build_hairline(b)
    build_reframing(b)
    build_pale(b)

