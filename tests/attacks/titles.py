# SPDX-License-Identifier: MIT
"""Attacks on the rules that let honest titles through (issue 28): titles written in TeX, footnote
marks, a link the paper already had, a page without text (doc/titles.md). Each loosened rule is
tried from the attacker's side, with an honest control beside it."""
from build_attacks import TITLE_A, TITLE_B, paper, paper_b
from pdfgen import pdf_string, text_lines
from pdfwriter import minimal_pdf
from pithrun import isolated_env, run_pith

TEX_TITLE = "Learning $k$-Sparse Polynomials in $O(n\\log n)$ Time"
TEX_SHOWN = "Learning k-Sparse Polynomials in O(n log n) Time"
THERAPIST = "Therapist Training Outcomes in Rural Clinics"


def title_with_mark(title, mark, size=10, rise=7):
    """The title (Helvetica-Bold 18 at the usual place) and right after it `mark`, smaller and raised."""
    return "BT /F3 18 Tf 72 700 Td %s Tj /F3 %g Tf %g Ts %s Tj 0 Ts ET\n" % (pdf_string(title), size, rise, pdf_string(mark))


def refused(b, name, record, code):
    """pith stamp without --no-title-check refuses the input of `name` with `code`."""
    src = b.path("work/src-" + name)
    rc, _, err = run_pith(b.pith, ["stamp", src, "--record", b.path("records/%s.signed.json" % record), "-o",
                                   b.path("work/checked.pdf")], isolated_env(b.home))
    if rc != 2 or "[%s]" % code not in err:
        raise SystemExit("%s: pith stamp's title check: exit %d: %s" % (name, rc, err.strip()))


def stamped_unchecked(b, name, record):
    """pith stamp without --no-title-check stamps the input of `name` (exit 0)."""
    src = b.path("work/src-" + name)
    rc, _, err = run_pith(b.pith, ["stamp", src, "--record", b.path("records/%s.signed.json" % record), "-o",
                                   b.path("work/checked.pdf")], isolated_env(b.home))
    if rc != 0:
        raise SystemExit("%s: pith stamp refused an honest paper: exit %d: %s" % (name, rc, err.strip()))


def build(b, a):
    b.numbers["TEX"] = b.record("TEX", TEX_TITLE)
    b.numbers["THERAPIST"] = b.record("THERAPIST", THERAPIST)

    # A record title in TeX, and the paper that shows it typeset: trusted.
    data = b.stamp(paper(title=TEX_SHOWN), "TEX", "control-tex-title.pdf")
    stamped_unchecked(b, "control-tex-title.pdf", "TEX")
    b.add("control-tex-title.pdf", data, "control", "a record whose title is TeX as arXiv keeps it ($k$, $O(n\\log n)$), "
          "on the paper that shows it typeset", None, "pdftotext shows the typeset title as the first line",
          [["py", "title_line_is", [TEX_SHOWN]]], control=True)
    # The same record on a paper whose formula differs.
    other = "Learning k-Sparse Polynomials in O(n^2) Time"
    data = b.stamp(paper(title=other), "TEX", "title-tex-formula-differs.pdf")
    refused(b, "title-tex-formula-differs.pdf", "TEX", "stamp.title_not_shown")
    b.add("title-tex-formula-differs.pdf", data, "title-tex", "the TeX record's title on a paper whose title has "
          "another formula (O(n^2) for O(n log n))", ("invalid", "pith.title.differs"),
          "pdftotext and mutool show the other formula as the title",
          [["py", "title_line_is", [other]], ["text_lacks", "O(n log n)", "both"]])
    # Word boundaries: "The Rapist" is not "Therapist".
    rapist = "The Rapist Training Outcomes in Rural Clinics"
    data = b.stamp(paper(title=rapist), "THERAPIST", "title-word-boundary.pdf")
    refused(b, "title-word-boundary.pdf", "THERAPIST", "stamp.title_not_shown")
    b.add("title-word-boundary.pdf", data, "title-tex", "a record titled \"%s\" on a paper titled \"%s\": the same "
          "letters, other words" % (THERAPIST, rapist), ("invalid", "pith.title.differs"),
          "pdftotext and mutool show the page's title with its own word breaks", [["py", "title_line_is", [rapist]]])

    # Footnote marks: an honest one after the title, and a "mark" that is a word.
    data = b.stamp(paper(title_ops=title_with_mark(TITLE_A, "1")), "A", "control-title-mark.pdf")
    stamped_unchecked(b, "control-title-mark.pdf", "A")
    b.add("control-title-mark.pdf", data, "control", "paper A with a raised 10 pt footnote mark \"1\" after its title",
          None, "pdftotext shows the title with the mark", [["py", "title_line_is", [TITLE_A]],
                                                            ["py", "words_small_low", ["1", 11, 0.0]]], control=True)
    data = b.stamp(paper(title_ops=title_with_mark(TITLE_A, "not")), "A", "title-mark-word.pdf")
    refused(b, "title-mark-word.pdf", "A", "stamp.title_not_shown")
    b.add("title-mark-word.pdf", data, "title-mark", "A's title followed by a raised 10 pt word \"not\", set as a "
          "footnote mark would be", ("invalid", "pith.title.not_title"),
          "pdftotext and mutool show the word after the title; pdftotext -bbox shows it small",
          [["text_has", TITLE_A, "both"], ["py", "words_small_low", ["not", 11, 0.0]]])
    # A footnote-size copy of A's title at the foot of paper B.
    foot = {"ops": text_lines("F2", 7, 72, 40, ["1 " + TITLE_A])}
    data = b.stamp(paper_b(hook=lambda d: foot), "A", "title-footnote-copy.pdf")
    refused(b, "title-footnote-copy.pdf", "A", "stamp.title_not_shown")
    b.add("title-footnote-copy.pdf", data, "title-mark", "paper B with A's title as a 7 pt footnote at the foot of "
          "the page", ("invalid", "pith.title.not_title"), "pdftotext shows B's title first and A's in small type low",
          [["py", "title_line_is", [TITLE_B]], ["py", "words_small_low", [TITLE_A, 9, 0.8]]])

    # A link the paper already had under the badge: trusted; the same link added after the stamp is not
    # (the appended-link attacks of build_links).
    def full_page_link(d):
        return {"annots": [d.add("<< /Type /Annot /Subtype /Link /Rect [ 0 0 612 792 ] /Border [ 0 0 0 ] "
                                 "/A << /S /URI /URI (https://example.org/) >> >>")]}
    data = b.stamp(paper(hook=full_page_link), "A", "control-link-under-badge.pdf")
    stamped_unchecked(b, "control-link-under-badge.pdf", "A")
    b.add("control-link-under-badge.pdf", data, "control", "paper A whose page 1 was one link from corner to corner "
          "before it was stamped (as the pdfTeX manual's is)", None, "pikepdf: two links, the page-wide one first",
          [["py", "annot_count", [2]]], control=True)

    # A page that shows no text: stamp refuses it; stamped anyway, verify cannot check a title.
    b.write("work/src-title-no-text.pdf", minimal_pdf())
    refused(b, "title-no-text.pdf", "A", "stamp.title_unchecked")
    data = b.stamp(minimal_pdf(), "A", "title-no-text.pdf")
    b.add("title-no-text.pdf", data, "title-none", "a page that shows no text (a scan's image would do the same), "
          "stamped with --no-title-check", ("unverified", "pith.title.none"),
          "pdftotext finds no text but pith's badge", [["text_lacks", "Sparse", "both"]])
