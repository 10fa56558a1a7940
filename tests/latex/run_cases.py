#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Single-document cases for latex/pith.sty (pdflatex unless stated).

  errors     malformed \\pithnumber stops with a clear pith error that
             names the problem and shows the expected form
  options    placement x style: badge text and link on page 1 (none: no
             badge, metadata still written), QR code, colour
  robust     \\pithbadge in \\section and \\title with hyperref bookmarks
             and pdfusetitle: nothing leaks into bookmarks, pdftitle, XMP
  pdfx       pith + \\pithnumber before pdfx: properties in pdfx's packet;
             pith after pdfx: documented warning, Info only, one /Metadata
  reproducible  two runs with SOURCE_DATE_EPOCH give identical PDFs
  metadata   the pith XMP is never lost: last page shipped before the end
             (\\clearpage, \\DocumentMetadata, lineno), a late \\pithnumber,
             and a clear error when it cannot be written (issue 16.1)
  keepxmp    every engine x {plain, hyperref, hyperxmp, docmeta}: each
             XMP tag the engine writes without pith is still there with
             pith (exiftool -a -G1 -XMP:all), dvips included (issue 16.2)
  messages   each pith message shows the author's value and no expl3
             internals (issue 16.6)
  fonts      XeLaTeX/LuaLaTeX with a typewriter font that has no TU shapes:
             no font warning from the badge (issue 16.7)

Usage: run_cases.py GROUP [--pith PATH]
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, HERE)
import pithtex  # noqa: E402
import run_matrix as M  # noqa: E402

BODY = "YRUNQITD2RKQXO2YH7SDTYYAQ3"
URL = "https://pith.science/pith/" + BODY
SHORT = "pith:YRUNQITD"


def doc(preamble, body="\\maketitle\nText.\n", docclass="article",
        before=""):
    return (before + "\\documentclass{%s}\n" % docclass + preamble +
            "\\title{Performance Modeling and Workload Analysis}\n"
            "\\author{A. Author}\n\\begin{document}\n" + body +
            "\\end{document}\n")


class Runner:
    def __init__(self, work, sty_dir, pith):
        self.work, self.sty_dir, self.pith = work, sty_dir, pith
        self.failures = 0

    def compile(self, name, src, engine="pdflatex", runs=1, job=None):
        """runs=2: the second run reads the .aux, so LaTeX knows which
        page is the last (shipout/lastpage then runs with that page).
        job: the job name, if not the directory's name."""
        wd = os.path.join(self.work, name)
        shutil.rmtree(wd, ignore_errors=True)
        os.makedirs(wd)
        name = job or name
        with open(os.path.join(wd, name + ".tex"), "w", encoding="utf-8") as f:
            f.write(src)
        for _ in range(runs):
            rc, out, log = M.compile_doc(engine, wd, name, self.sty_dir)
        pdf = os.path.join(wd, name + ".pdf")
        return rc, log, pdf if (rc == 0 and os.path.exists(pdf)) else None, wd

    def report(self, name, checks):
        bad = [(k, d) for k, (ok, d) in checks.items() if not ok]
        self.failures += bool(bad)
        print("%-4s %-28s %s" % ("ok" if not bad else "FAIL", name,
                                 " ".join(k if ok else k + "!"
                                          for k, (ok, _) in checks.items())))
        for k, d in bad:
            print("      %s: %s" % (k, d))


def page1_text(pdf):
    rc, out = M.run(["pdftotext", "-f", "1", "-l", "1", pdf, "-"],
                    os.path.dirname(pdf))
    return out


def link_uris(pdf):
    qj = M.qpdf_json(pdf)
    objs = M.objects(qj)
    uris = []
    for k, v in objs.items():
        val = v.get("value") if isinstance(v, dict) else None
        if isinstance(val, dict) and val.get("/Subtype") == "/Link":
            act = M.deref(objs, val.get("/A")) or {}
            uris.append(M.pdf_str(act.get("/URI")))
    return uris


def info(pdf):
    qj = M.qpdf_json(pdf)
    objs = M.objects(qj)
    trailer = objs.get("trailer", {}).get("value", {})
    d = M.deref(objs, trailer.get("/Info")) or {}
    return {k: M.pdf_str(v) for k, v in d.items()}


def one_metadata(pdf):
    rc, out = M.run(["qpdf", "--check", pdf], os.path.dirname(pdf))
    n = M.raw_metadata_keys(pdf)
    return (n == 1 and rc == 0 and "WARNING" not in out,
            "%d /Metadata, qpdf rc=%d" % (n, rc))


# ----------------------------------------------------------------------
ERRORS = [
    # (name, \pithnumber call, phrase the message must contain)
    ("short-alias", r"\pithnumber{YRUNQITD}", "only the 8-character short alias"),
    ("short-alias-prefixed", r"\pithnumber{pith:YRUNQITD}",
     "only the 8-character short alias"),
    ("25-chars", r"\pithnumber{YRUNQITD2RKQXO2YH7SDTYYAQ}",
     "exactly 26 characters"),
    ("digit-1", r"\pithnumber{YRUNQITD2RKQXO2YH7SDTYYAQ1}",
     "exactly 26 characters from A-Z and 2-7"),
    ("empty", r"\pithnumber{}", "the argument is empty"),
    ("bad-year", r"\pithnumber{pith:24:YRUNQITD2RKQXO2YH7SDTYYAQ3}",
     "a 4-digit year"),
    ("url", r"\pithnumber{https://pith.science/pith/YRUNQITD2RKQXO2YH7SDTYYAQ3}",
     "cannot occur in a Pith number"),
    ("hash", r"\pithnumber[hash=c468]{YRUNQITD2RKQXO2YH7SDTYYAQ3}",
     "option `hash' is malformed"),
    ("odd-hex", r"\pithnumber[record={7b2}]{YRUNQITD2RKQXO2YH7SDTYYAQ3}",
     "not an even number of hex digits"),
    ("bad-utf8", r"\pithnumber[record={ff}]{YRUNQITD2RKQXO2YH7SDTYYAQ3}",
     "not valid UTF-8"),
    ("year-mismatch", r"\pithnumber[year=2023]{pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3}",
     "year 2023 does not match year 2024"),
    # issue 32: what an author pastes by mistake is recognised and answered
    # with the command that resolves it
    ("arxiv-id", r"\pithnumber{2407.14645v1}",
     "is an arXiv identifier, not a Pith number. A Pith number exists once "
     "arXiv has the paper: run `pith tex --arxiv 2407.14645v1 > pith-number.tex'"),
    ("arxiv-prefixed", r"\pithnumber{arXiv:2407.14645}",
     "run `pith tex --arxiv 2407.14645 > pith-number.tex'"),
    ("arxiv-old-style", r"\pithnumber{hep-th/9901001v2}",
     "run `pith tex --arxiv hep-th/9901001v2 > pith-number.tex'"),
    ("short-alias-command", r"\pithnumber{pith:yrunqitd}",
     "Run `pith tex --number pith:YRUNQITD > pith-number.tex'"),
    ("two-numbers", "\\pithnumber{pith:%s}\n\\pithnumber{%s}" % (BODY, "A" * 26),
     "\\pithnumber{%s} differs from the \\pithnumber{pith:%s} given before: "
     "a paper has one Pith number" % ("A" * 26, BODY)),
    ("signature-no-hash",
     r"\pithnumber[signature={iekUcAhqlsXYJHuZ6BWiwyRpvyVCpil5OwYWAyLLn45lV6ZMRfTctOgg26rwUKvFdQgC7ZLrlMMou5vrn6HLAA==}]{YRUNQITD2RKQXO2YH7SDTYYAQ3}",
     "signature= given without hash="),
]


def group_errors(r):
    for name, call, phrase in ERRORS:
        rc, log, pdf, wd = r.compile("err-" + name,
                                     doc("\\usepackage{pith}\n" + call + "\n"))
        flat = re.sub(r"\s*\n(?:\(pith\))?\s*", " ", log)
        m = re.search(r"! Package pith Error: (.*?)(?: See the pith package|"
                      r" Type H <return>|\. l\.\d)", flat)
        msg = m.group(1) if m else ""
        form = "pith:YEAR:BODY" in msg or "Expected" in msg
        # issue 32: the error is the only pith message (no "no \pithnumber"
        # warnings follow it at \maketitle and \end{document})
        msgs = pith_messages(log)
        r.report("error " + name, {
            "one-message": (len(msgs) == 1, repr(msgs)),
            "stops": (rc != 0, "rc=%d" % rc),
            "pith-error": (bool(m), "no '! Package pith Error' in log"),
            "says-what": (phrase in msg, "%r not in %r" % (phrase, msg[:300])),
            "shows-form": (form, "no expected form in %r" % msg[:300]),
        })


    # issue 32: pith:BODY, the form badges and pith verify print, is a number
    rc, log, pdf, wd = r.compile("ok-pith-body", doc("\\usepackage{pith}\n"
                                                     "\\pithnumber{pith:%s}\n" % BODY))
    checks = {"compiles": (pdf is not None and not pith_messages(log),
                           "rc=%d %r" % (rc, pith_messages(log)))}
    checks.update(xmp_number_checks(r, pdf) if pdf else {})
    r.report("accepted pith:BODY", checks)


def group_options(r):
    for placement in ["title", "footnote", "margin", "none"]:
        for style in ["text", "logo", "qr"]:
            for hyper in ["", "\\usepackage{hyperref}\n"]:
                name = "opt-%s-%s-%s" % (placement, style,
                                         "hyperref" if hyper else "plain")
                pre = ("\\usepackage[placement=%s,style=%s,color=red]{pith}\n"
                       "\\pithnumber{%s}\n" % (placement, style, BODY) + hyper)
                rc, log, pdf, wd = r.compile(name, doc(pre))
                checks = {"compile": (pdf is not None, "rc=%d" % rc)}
                if pdf:
                    text = page1_text(pdf)
                    uris = link_uris(pdf)
                    if placement == "none":
                        checks["no-badge"] = (SHORT not in text, "badge printed")
                        checks["no-link"] = (URL not in uris, "link present")
                    else:
                        checks["badge"] = (SHORT in text, "badge text missing")
                        checks["link"] = (URL in uris, "uris=%r" % uris)
                    vals = M.xmp_values(pdf)
                    checks["xmp"] = (vals.get("number") == "pith:" + BODY,
                                     "xmp=%r" % vals)
                    checks["metadata"] = one_metadata(pdf)
                    if placement == "title":
                        checks["below-title"] = (
                            text.find("Performance") < text.find(SHORT),
                            "badge before title")
                r.report(name, checks)
    # \pithbadge by hand, placement=none, and with every engine
    for engine in ["pdflatex", "xelatex", "lualatex", "dvips"]:
        name = "manual-badge-" + engine
        pre = "\\usepackage[placement=none]{pith}\n\\pithnumber{%s}\n" % BODY
        rc, log, pdf, wd = r.compile(
            name, doc(pre, "\\maketitle\nSee \\pithbadge.\n"), engine)
        checks = {"compile": (pdf is not None, "rc=%d" % rc)}
        if pdf:
            checks["badge"] = (SHORT in page1_text(pdf), "missing")
            checks["link"] = (URL in link_uris(pdf), "no link")
        r.report(name, checks)


def group_robust(r):
    pre = ("\\usepackage{pith}\n\\pithnumber{%s}\n"
           "\\usepackage[pdfusetitle,bookmarks]{hyperref}\n" % BODY)
    src = ("\\documentclass{article}\n" + pre +
           "\\title{Performance Modeling \\pithbadge}\n\\author{A. Author}\n"
           "\\begin{document}\n\\maketitle\n"
           "\\section{Intro \\protect\\pithbadge}\nText \\pithbadge.\n"
           "\\section{Method \\pithbadge}\\label{s}\nSee \\ref{s}.\n"
           "\\end{document}\n")
    for engine in ["pdflatex", "xelatex", "lualatex", "dvips"]:
        name = "robust-" + engine
        rc, log, pdf, wd = r.compile(name, src, engine)
        checks = {"compile": (pdf is not None, "rc=%d" % rc)}
        if pdf:
            inf = info(pdf)
            checks["pdftitle"] = ("pith:" not in inf.get("/Title", "")
                                  and "Performance" in inf.get("/Title", ""),
                                  "Title=%r" % inf.get("/Title"))
            out = ""
            outf = os.path.join(wd, name + ".out")
            if os.path.exists(outf):
                with open(outf, encoding="latin-1") as f:
                    out = f.read().replace("\\000", "")
            checks["bookmarks"] = ("pith:" not in out and "Intro" in out,
                                   "out=%r" % out[:200])
            checks["badge"] = (SHORT in page1_text(pdf), "missing")
            vals = M.xmp_values(pdf)
            checks["xmp"] = (vals.get("number") == "pith:" + BODY and
                             all("pith:YRUN" not in v for k, v in vals.items()
                                 if k not in ("number", "shortNumber")),
                             "xmp=%r" % vals)
        r.report(name, checks)


def group_pdfx(r):
    fx = M.fixture()
    receipt = pithtex.pith_tex(fx["canonical_record"], fx["receipt"],
                               fx["title"])
    xmpdata = ("\\Title{Performance Modeling}\n\\Author{A. Author}\n"
               "\\Keywords{LLM}\n")
    cases = {
        "pdfx-pith-first": ("\\usepackage{pith}\n" + receipt +
                            "\\usepackage[a-2b]{pdfx}\n", True),
        "pdfx-pith-after": ("\\usepackage[a-2b]{pdfx}\n\\usepackage{pith}\n"
                            + receipt, False),
    }
    for engine in ["pdflatex", "lualatex"]:
        for name, (pre, inside) in cases.items():
            name = name + "-" + engine
            wd = os.path.join(r.work, name)
            shutil.rmtree(wd, ignore_errors=True)
            os.makedirs(wd)
            with open(os.path.join(wd, name + ".xmpdata"), "w") as f:
                f.write(xmpdata)
            with open(os.path.join(wd, name + ".tex"), "w") as f:
                f.write(doc(pre))
            rc, out, log = M.compile_doc(engine, wd, name, r.sty_dir)
            pdf = os.path.join(wd, name + ".pdf")
            ok = rc == 0 and os.path.exists(pdf)
            checks = {"compile": (ok, "rc=%d" % rc)}
            if ok:
                checks["metadata"] = one_metadata(pdf)
                vals = M.xmp_values(pdf)
                packet = M.catalog_packet(pdf)
                checks["pdfx-packet"] = ("pdfaid:part" in packet,
                                         "catalog packet is not pdfx's")
                if inside:
                    checks["xmp"] = (
                        vals.get("number") == fx["pith_number"] and
                        vals.get("canonicalRecord") ==
                        pithtex.canonical_json(fx["canonical_record"]),
                        "xmp=%r" % sorted(vals))
                else:
                    checks["documented-no-xmp"] = (
                        not vals and "pdfx wrote its XMP packet before" in
                        re.sub(r"\s*\n(?:\(pith\))?\s*", " ", log),
                        "vals=%r" % sorted(vals))
                checks["info"] = (info(pdf).get("/PithNumber") ==
                                  fx["pith_number"], "info=%r" % info(pdf))
                checks["badge"] = (SHORT in page1_text(pdf), "missing")
            r.report(name, checks)


def group_reproducible(r):
    fx = M.fixture()
    receipt = pithtex.pith_tex(fx["canonical_record"], fx["receipt"],
                               fx["title"])
    for engine in ["pdflatex", "xelatex", "lualatex", "dvips"]:
        digests = []
        for i in range(2):
            name = "repro-%s" % engine
            rc, log, pdf, wd = r.compile(
                name, doc("\\usepackage{pith}\n" + receipt +
                          "\\usepackage{hyperref}\n"), engine)
            if pdf:
                with open(pdf, "rb") as f:
                    digests.append(hashlib.sha256(f.read()).hexdigest())
        same = len(digests) == 2 and digests[0] == digests[1]
        if engine == "dvips":
            # ps2pdf (Ghostscript) writes its own time stamps and document
            # ID; only the pith data must be identical (documented).
            same = len(digests) == 2
        r.report("reproducible-" + engine, {"identical": (same, repr(digests))})


def group_example(r):
    """examples/paper.tex as shipped, and with the commented `pith tex`
    block pasted in place of the short \\pithnumber line."""
    path = os.path.join(HERE, "..", "..", "examples", "paper.tex")
    with open(path, encoding="utf-8") as f:
        src = f.read()
    main, _, tail = src.partition("\\end{document}")
    block = "".join(l[2:] + "\n" for l in tail.splitlines()
                    if l.startswith("% ") and not l.startswith("% --")
                    and not l.startswith("% The full") and
                    not l.startswith("% To use"))
    block = block[block.index("% Pith number"):]
    full = main.replace("\n\\pithnumber{YRUNQITD2RKQXO2YH7SDTYYAQ3}\n",
                        "\n" + block, 1) \
        + "\\end{document}\n"
    fx = M.fixture()
    for label, text, number in [
            ("as-shipped", src, "pith:" + BODY),
            ("with-receipt", full, fx["pith_number"])]:
        for engine in ["pdflatex", "xelatex", "lualatex", "dvips"]:
            name = "example-%s-%s" % (label, engine)
            rc, log, pdf, wd = r.compile(name, text, engine)
            checks = {"compile": (pdf is not None, "rc=%d" % rc)}
            if pdf:
                vals = M.xmp_values(pdf)
                checks["badge"] = (SHORT in page1_text(pdf), "missing")
                checks["link"] = (URL in link_uris(pdf), "no link")
                checks["xmp"] = (vals.get("number") == number, repr(vals))
                checks["metadata"] = one_metadata(pdf)
                if label == "with-receipt":
                    checks["record"] = (vals.get("canonicalRecord") ==
                                        pithtex.canonical_json(
                                            fx["canonical_record"]),
                                        "canonicalRecord differs")
                if r.pith and os.path.exists(r.pith):
                    rc2, out = M.run([r.pith, "verify", pdf, "--json"], wd)
                    try:
                        j = json.loads(out)
                        ok = j.get("number") == number and (
                            j.get("state") == "unverified"
                            if label == "as-shipped" else
                            not j.get("failure") and bool(j.get("success")))
                        checks["pith-verify"] = (ok, out[:300])
                    except ValueError:
                        checks["pith-verify"] = (False, out[:300])
                else:
                    checks["pith-verify"] = (False, "pith binary not found: %r"
                                             % r.pith)
            r.report(name, checks)


ENGINES = ["pdflatex", "xelatex", "lualatex", "dvips"]
PITH = "\\usepackage{pith}\n\\pithnumber{%s}\n" % BODY


def flat_log(log):
    """The .log with TeX's line breaks and (pith) continuations joined."""
    return re.sub(r"\s*\n(?:\(pith\))?\s*", " ", log)


def pith_messages(log):
    """Text of every pith warning and error in a .log, one string each."""
    out = []
    for m in re.finditer(r"(?:! Package pith Error|Package pith Warning):\s+"
                         r"(.*?)(?:\n\n|\nSee the pith|\nType  H|\nl\.\d)",
                         log, re.S):
        out.append(re.sub(r"\s*\n(?:\(pith\))?\s*", " ", m.group(1)))
    return out


# expl3 internals a message must never show: \__pith..., \str_use:N, ...
INTERNALS = re.compile(r"\\[A-Za-z@]*_|\\[A-Za-z@]+:[A-Za-z]+\b")


def exiftool_json(pdf, *tags):
    """exiftool -j's view of `tags` in `pdf` (empty dict if none)."""
    rc, out = M.run(["exiftool", "-j", *tags, pdf], os.path.dirname(pdf))
    try:
        j = json.loads(out)[0]
    except (ValueError, IndexError):
        return {}
    j.pop("SourceFile", None)
    return j


def pith_xmp(pdf):
    """exiftool's view of the pith XMP properties (empty dict if none)."""
    return exiftool_json(pdf, "-XMP-pith:all")


def xmp_number_checks(r, pdf, number="pith:" + BODY):
    """The pith number in the XMP, seen by exiftool and by pith extract."""
    checks = {"xmp": (pith_xmp(pdf).get("Number") == number,
                      "exiftool -XMP-pith:all: %r" % pith_xmp(pdf))}
    if r.pith and os.path.exists(r.pith):
        rc, out = M.run([r.pith, "extract", pdf, "--json"],
                        os.path.dirname(pdf))
        try:
            got = json.loads(out).get("number")
        except ValueError:
            got = None
        checks["extract"] = (got == number, "pith extract: %r" % out[:200])
    else:
        checks["extract"] = (False, "pith binary not found: %r" % r.pith)
    return checks


def group_metadata(r):
    clear = "\\maketitle\nText.\n\\clearpage\n"
    cases = []
    # the last page is shipped before \end{document}: every engine
    for e in ENGINES:
        cases.append(("clearpage-" + e, doc(PITH, clear), e))
    # LaTeX's PDF management builds its XMP at the last page
    for e in ["pdflatex", "xelatex", "lualatex"]:
        cases.append(("docmeta-clearpage-" + e,
                      doc(PITH, clear, before="\\DocumentMetadata{}\n"), e))
    # line numbers (lineno's output routine)
    lineno = "\\usepackage{lineno}\n\\linenumbers\n" + PITH
    cases.append(("lineno-xelatex", doc(lineno), "xelatex"))
    cases.append(("lineno-clearpage-xelatex", doc(lineno, clear), "xelatex"))
    cases.append(("lineno-docmeta-xelatex",
                  doc(lineno, clear, before="\\DocumentMetadata{}\n"),
                  "xelatex"))
    for name, src, engine in cases:
        rc, log, pdf, wd = r.compile("meta-" + name, src, engine, runs=2)
        checks = {"compile": (pdf is not None, "rc=%d" % rc)}
        if pdf:
            checks.update(xmp_number_checks(r, pdf))
            checks["info"] = (info(pdf).get("/PithNumber") == "pith:" + BODY,
                              "info=%r" % info(pdf))
            if "docmeta" in name:
                rc2, out = M.run(["exiftool", "-j", "-XMP-xmp:CreatorTool",
                                  pdf], wd)
                checks["latex-packet"] = ("CreatorTool" in out,
                                          "LaTeX's own XMP lost: " + out)
        r.report(name, checks)

    # hyperxmp with a \\special driver: its packet (with pith's properties) is
    # \\special material at \\AtEndDocument.  On a full last page \\clearpage
    # breaks before it and it was left on a page never shipped; pith.sty puts
    # it on the next page shipped.
    full = "\\maketitle\nText.\n\\par\\vspace{\\textheight}\n"
    hyxmp = "\\usepackage{hyperref}\n\\usepackage{hyperxmp}\n" + PITH
    for e in ["xelatex", "dvips"]:
        name = "hyperxmp-full-last-page-" + e
        rc, log, pdf, wd = r.compile("meta-" + name, doc(hyxmp, full), e)
        checks = {"compile": (pdf is not None, "rc=%d" % rc)}
        if pdf:
            checks.update(xmp_number_checks(r, pdf))
            src = exiftool_json(pdf, "-XMP-dc:Source").get("Source", "")
            checks["hyperxmp-packet"] = (src.endswith(".tex"), "dc:source %r" % src)
        r.report(name, checks)

    # \pithnumber after page 1: a warning, and the metadata is written
    late = ("\\maketitle\nText.\n\\clearpage\nPage 2.\n"
            "\\pithnumber{%s}\n\\clearpage\nPage 3.\n" % BODY)
    for e in ENGINES:
        for dm in ["", "\\DocumentMetadata{}\n"]:
            if dm and e == "dvips":
                continue
            name = "late-%s%s" % (e, "-docmeta" if dm else "")
            rc, log, pdf, wd = r.compile(
                "meta-" + name, doc("\\usepackage{pith}\n", late, before=dm),
                e, runs=2)
            checks = {"compile": (pdf is not None, "rc=%d" % rc)}
            msgs = " | ".join(pith_messages(log))
            checks["late-warning"] = (
                "\\pithnumber{pith:%s} came after page 1 was shipped out"
                % BODY in msgs, msgs[:300])
            if pdf:
                checks.update(xmp_number_checks(r, pdf))
                checks["info"] = (info(pdf).get("/PithNumber") == "pith:" + BODY,
                                  "info=%r" % info(pdf))
            r.report(name, checks)

    # revtex ships its last pages at TeX's \\end, after \\end{document}'s
    # hooks: a number on the last page is written with it, no false error
    revtex = ("\\documentclass[aps,reprint]{revtex4-2}\n\\usepackage{pith}\n"
              "\\begin{document}\n\\title{Performance Modeling}\n"
              "\\author{A. Author}\n\\maketitle\nText.\n\\clearpage\n"
              "Page 2.\n\\pithnumber{%s}\nMore.\n\\end{document}\n" % BODY)
    for e in ["xelatex", "dvips", "pdflatex"]:
        name = "revtex-last-page-" + e
        rc, log, pdf, wd = r.compile("meta-" + name, revtex, e, runs=2)
        checks = {"compile": (pdf is not None, "rc=%d" % rc)}
        if pdf:
            checks.update(xmp_number_checks(r, pdf))
        r.report(name, checks)

    # cannot be written any more: an error, not a PDF without the data
    too_late = ("\\maketitle\nText.\n\\clearpage\n"
                "\\pithnumber{%s}\n" % BODY)
    for name, src, engine, phrase in [
            ("after-last-page-xelatex", doc("\\usepackage{pith}\n", too_late),
             "xelatex", "came after the last page"),
            ("after-last-page-dvips", doc("\\usepackage{pith}\n", too_late),
             "dvips", "came after the last page"),
            ("after-last-page-docmeta-pdflatex",
             doc("\\usepackage{pith}\n", too_late,
                 before="\\DocumentMetadata{}\n"),
             "pdflatex", "LaTeX's XMP packet was built before"),
            ("second-number-in-body-pdflatex",
             doc(PITH, "\\maketitle\nText.\n\\clearpage\n"
                 "\\pithnumber{pith:2024:%s}\n" % BODY), "pdflatex",
             "came after the metadata for pith:%s was written" % BODY)]:
        rc, log, pdf, wd = r.compile("meta-" + name, src, engine, runs=2)
        msgs = " | ".join(pith_messages(log))
        r.report(name, {
            "stops": (rc != 0, "rc=%d" % rc),
            "pith-error": ("! Package pith Error" in log, "no pith error"),
            "says-why": (phrase in msgs, "%r not in %r" % (phrase, msgs[:300])),
        })


# tags whose value legitimately differs between two compiles
VOLATILE = ("Date", "DocumentID", "InstanceID")


def xmp_tags(pdf):
    return exiftool_json(pdf, "-a", "-G1", "-XMP:all")


def group_keepxmp(r):
    variants = {
        "plain": ("", ""),
        "hyperref": ("", "\\usepackage{hyperref}\n"
                     "\\hypersetup{pdftitle={Performance Modeling},"
                     "pdfauthor={A. Author},pdfkeywords={LLM}}\n"),
        "hyperxmp": ("", "\\usepackage{hyperref}\n\\usepackage{hyperxmp}\n"
                     "\\hypersetup{pdftitle={Performance Modeling},"
                     "pdfauthor={A. Author},pdfkeywords={LLM}}\n"),
        "docmeta": ("\\DocumentMetadata{}\n", "\\usepackage{hyperref}\n"
                    "\\hypersetup{pdftitle={Performance Modeling},"
                    "pdfauthor={A. Author}}\n"),
    }
    for e in ENGINES:
        for v, (before, pre) in variants.items():
            name = "keep-%s-%s" % (e, v)
            tags = {}
            for label, p in [("without", pre), ("with", pre + PITH)]:
                # same job name: dc:Source and Ghostscript's dc:Title
                # are the file name
                rc, log, pdf, wd = r.compile(name + "-" + label,
                                             doc(p, before=before), e,
                                             job="paper")
                tags[label] = xmp_tags(pdf) if pdf else None
            checks = {"compile": (None not in tags.values(), "a compile failed")}
            if None not in tags.values():
                lost = [k for k in tags["without"] if k not in tags["with"]]
                changed = [k for k in tags["without"] if k in tags["with"]
                           and not any(x in k for x in VOLATILE)
                           and not M.same_or_more(tags["without"][k],
                                                tags["with"][k])]
                checks["kept"] = (not lost and not changed,
                                  "lost %s changed %s" % (lost, changed))
                checks["pith-added"] = (
                    tags["with"].get("XMP-pith:Number") == "pith:" + BODY,
                    "no XMP-pith:Number")
                if e == "dvips" or v in ("hyperxmp", "docmeta"):
                    # a packet to keep exists (Ghostscript's, hyperxmp's,
                    # LaTeX's): the comparison is not vacuous
                    checks["engine-wrote"] = (
                        len(tags["without"]) >= 5,
                        "%d tags without pith" % len(tags["without"]))
            r.report(name, checks)


MESSAGES = [
    # (name, preamble, body, engine, the author's value the message shows)
    ("bad-number", "\\usepackage{pith}\n\\pithnumber{YRUNQITD2RKQ}\n", None,
     "\\pithnumber{YRUNQITD2RKQ} is not a Pith number"),
    ("short-alias", "\\usepackage{pith}\n\\pithnumber{YRUNQITD}\n", None,
     "\\pithnumber{YRUNQITD} is only the 8-character short alias"),
    ("arxiv-id", "\\usepackage{pith}\n\\pithnumber{arXiv:2407.14645v1}\n", None,
     "\\pithnumber{arXiv:2407.14645v1} is an arXiv identifier"),
    ("bad-option", "\\usepackage{pith}\n\\pithnumber[hash=c468]{%s}\n" % BODY,
     None, "option `hash' is malformed: `c468' does not have the right form"),
    ("bad-option-keyid",
     "\\usepackage{pith}\n\\pithnumber[keyid={a b}]{%s}\n" % BODY,
     None, "`a b' does not have the right form"),
    ("year-mismatch",
     "\\usepackage{pith}\n\\pithnumber[year=2023]{pith:2024:%s}\n" % BODY,
     None, "year 2023 does not match year 2024"),
    ("year-mismatch-record",
     "\\usepackage{pith}\n\\pithnumber[record={%s}]{pith:2024:%s}\n"
     % ('{"metadata":{"submitted_at":"2023-01-01"}}'.encode().hex(), BODY),
     None, "year 2023 does not match year 2024 (from the record's "
     "submitted_at"),
    ("signature-without-hash",
     "\\usepackage{pith}\n\\pithnumber[signature={%s==}]{%s}\n"
     % ("A" * 86, BODY), None, "signature= given without hash="),
    ("bad-choice", "\\usepackage[placement=top]{pith}\n", None,
     "Unknown value `top' for option `placement'"),
    ("no-number", "\\usepackage{pith}\n", "Text.\n",
     "No \\pithnumber was given before \\end{document}"),
    ("no-number-maketitle", "\\usepackage{pith}\n",
     "\\maketitle\n\\pithnumber{%s}\nText.\n" % BODY,
     "No \\pithnumber was given before \\maketitle: no badge was printed"),
    ("no-number-pithbadge", "\\usepackage{pith}\n", "\\pithbadge\n",
     "No \\pithnumber was given before \\pithbadge"),
    ("two-numbers", PITH + "\\pithnumber{pith:2024:%s}\n" % ("A" * 26), None,
     "\\pithnumber{pith:2024:%s} differs from the \\pithnumber{pith:%s} "
     "given before" % ("A" * 26, BODY)),
    ("title-mismatch", "\\usepackage{pith}\n\\pithnumber[title={%s}]{%s}\n"
     % ("Performance Modelling and Workload Analysis".encode().hex(), BODY), None,
     "The \\title `Performance Modeling and Workload Analysis' does not match "
     "the title `Performance Modelling and Workload Analysis' of the record"),
    ("adapter-missing", PITH + "\\makeatletter\\let\\@maketitle\\relax\\makeatother\n",
     None, "adapter maketitle: \\@maketitle was not found in this version of "
     "this class; the badge follows \\maketitle instead"),
    ("no-xmp-adapter-off", "\\usepackage{hyperref,hyperxmp}\n"
     "\\usepackage[adapter/hyperxmp=false]{pith}\n\\pithnumber{%s}\n" % BODY, None,
     "adapter/hyperxmp=false and hyperxmp writes the XMP packet; the pith XMP "
     "properties are not written"),
    ("late", "\\usepackage{pith}\n",
     "Text.\n\\clearpage\n\\pithnumber{%s}\nPage 2.\n" % BODY,
     "\\pithnumber{pith:%s} came after page 1 was shipped out" % BODY),
    ("already-written", PITH,
     "Text.\n\\clearpage\n\\pithnumber{pith:2024:%s}\nPage 2.\n" % BODY,
     "\\pithnumber{pith:2024:%s} came after the metadata for pith:%s"
     % (BODY, BODY)),
    ("not-written", "\\usepackage{pith}\n",
     "Text.\n\\clearpage\n\\pithnumber{%s}\n" % BODY,
     "The pith metadata for pith:%s could not be written" % BODY),
    ("no-maketitle", PITH, "Text.\n",
     "placement=title but \\maketitle was never used"),
    # a hyperxmp whose packet has no rdf:Description for pith to extend
    ("no-xmp-hyperxmp", "\\usepackage{hyperref,hyperxmp}\n" + PITH +
     "\\makeatletter\\def\\hyxmp@construct@packet{\\def\\hyxmp@xml"
     "{<rdf:RDF></rdf:RDF>}}\\makeatother\n", None,
     "adapter hyperxmp: hyperxmp's packet (\\hyxmp@xml) has no "
     "`rdf:Description rdf:about=\"\"' and `</rdf:Description>'; the pith "
     "XMP properties are not written"),
    ("no-xmp-pdfx", "\\usepackage[a-2b]{pdfx}\n" + PITH, None,
     "pdfx wrote its XMP packet before \\pithnumber was known"),
    ("unknown-driver", PITH, None,
     "Unknown output driver; the badge is printed without a link"),
]


def group_messages(r):
    for name, pre, body, value in MESSAGES:
        engine = "xelatex" if name == "not-written" else "pdflatex"
        before = ""
        if name == "unknown-driver":  # expl3's dvisvgm back end: no links
            engine, before = "dvips", "\\RequirePackage[backend=dvisvgm]{expl3}\n"
        src = doc(pre, body or "\\maketitle\nText.\n", before=before)
        rc, log, pdf, wd = r.compile("msg-" + name, src, engine)
        msgs = pith_messages(log)
        hit = [m for m in msgs if value in m]
        bad = [m for m in msgs if INTERNALS.search(m)]
        checks = {"issued": (bool(hit), "%r not in %r" % (value, msgs)),
                  "no-internals": (not bad, "internals in %r" % bad)}
        if name == "no-number-maketitle":
            # the metadata is written although the badge is not printed
            checks["no-false-claim"] = (
                not any("no metadata" in m for m in msgs), repr(msgs))
            checks.update(xmp_number_checks(r, pdf) if pdf else
                          {"xmp": (False, "no PDF, rc=%d" % rc)})
        r.report("message " + name, checks)


def group_fonts(r):
    """The document's typewriter family is pcr (courier), which has no TU
    shapes: the badge must not make NFSS substitute with a warning."""
    pre = ("\\usepackage{fontspec}\n\\setmainfont{TeX Gyre Termes}\n"
           "\\usepackage{courier}\n")
    for e in ["xelatex", "lualatex"]:
        for style in ["text", "logo"]:
            name = "font-%s-%s" % (e, style)
            rc, log, pdf, wd = r.compile(
                name, doc(pre + PITH.replace("{pith}", "[style=%s]{pith}"
                                             % style)), e)
            warn = re.findall(r"LaTeX Font Warning: .*", log)
            checks = {"compile": (pdf is not None, "rc=%d" % rc),
                      "no-font-warning": (not warn, repr(warn[:3]))}
            if pdf:
                checks["badge"] = (SHORT in page1_text(pdf), "missing")
                rc2, fonts = M.run(["pdffonts", pdf], wd)
                checks["mono-fallback"] = ("LMMono" in fonts, fonts[-300:])
            r.report(name, checks)


GROUPS = {"example": group_example, "errors": group_errors, "options": group_options,
          "robust": group_robust, "pdfx": group_pdfx,
          "reproducible": group_reproducible, "metadata": group_metadata,
          "keepxmp": group_keepxmp, "messages": group_messages,
          "fonts": group_fonts}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group", choices=sorted(GROUPS) + ["all"])
    ap.add_argument("--sty-dir", default=os.path.join(HERE, "..", "..", "latex"))
    ap.add_argument("--work", default="/tmp/latexwork/cases")
    ap.add_argument("--pith", default=os.environ.get("PITH_BIN", ""))
    args = ap.parse_args()
    r = Runner(os.path.abspath(args.work), os.path.abspath(args.sty_dir),
               args.pith)
    for g in (sorted(GROUPS) if args.group == "all" else [args.group]):
        GROUPS[g](r)
    print("%d case(s) failed" % r.failures)
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
