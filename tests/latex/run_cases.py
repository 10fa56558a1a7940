#!/usr/bin/env python3
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

    def compile(self, name, src, engine="pdflatex"):
        wd = os.path.join(self.work, name)
        shutil.rmtree(wd, ignore_errors=True)
        os.makedirs(wd)
        with open(os.path.join(wd, name + ".tex"), "w", encoding="utf-8") as f:
            f.write(src)
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
        r.report("error " + name, {
            "stops": (rc != 0, "rc=%d" % rc),
            "pith-error": (bool(m), "no '! Package pith Error' in log"),
            "says-what": (phrase in msg, "%r not in %r" % (phrase, msg[:300])),
            "shows-form": (form, "no expected form in %r" % msg[:300]),
        })


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


GROUPS = {"example": group_example, "errors": group_errors, "options": group_options,
          "robust": group_robust, "pdfx": group_pdfx,
          "reproducible": group_reproducible}


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
