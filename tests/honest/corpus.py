# SPDX-License-Identifier: MIT
"""The honest corpus (issue 28): journal and conference classes x title forms x engines.

Each paper is an ordinary paper a publisher would receive: TeX Live's own class, the title
typed the way authors type it, no pith.sty. Its record's paper.title is written as an arXiv
record writes it: the TeX source of the title as typed in \\title, without the footnote mark
(\\thanks, \\tnoteref, \\titlenote, \\footnote, a $^\\star$), line break \\\\ and all.

CLASSES[name] = (front matter template, footnote mark): the template's {title} is the TeX
title; the mark is (text appended to the title, text added after \\title) in the class's own way.
FORMS[name] = (TeX title, record title); "{mark}" in a TeX title is where the mark goes.
"""
import itertools

BODY = r"""
\section{Introduction}
Large language models need ever more compute. This paper models the performance of
distributed training and inference and validates its predictions with published data
\cite{ref1}. The model predicts the time of one training step within ten per cent.
\section{Method}
We measure each kernel once and compose the measurements along the schedule.
\begin{thebibliography}{1}
\bibitem%s{ref1} A. Author, \emph{A reference}, 2024.
\end{thebibliography}
\end{document}
"""
ABSTRACT = (r"\begin{abstract}" "\n"
            r"We propose a general performance modeling methodology and workload analysis of "
            r"distributed training and inference, and validate it on published measurements." "\n"
            r"\end{abstract}" "\n")
FUNDING = "This work was funded by the Example Foundation."
NATBIB_ITEM = "[{Author}(2024)]"

# name: (document up to the body, with {title} and {after}, the text after \title; mark; bibitem option)
CLASSES = {
    "article": (r"""\documentclass[twocolumn]{article}
\title{{title}}{after}
\author{Ali BanaGozar \and Joyjit Kundu}
\begin{document}
\maketitle
""" + ABSTRACT, (r"\thanks{%s}" % FUNDING, ""), ""),
    "scrartcl": (r"""\documentclass{scrartcl}
\title{{title}}{after}
\author{Ali BanaGozar \and Joyjit Kundu}
\begin{document}
\maketitle
""" + ABSTRACT, (r"\thanks{%s}" % FUNDING, ""), ""),
    # amsart sets the title in capitals (math stays as it is)
    "amsart": (r"""\documentclass{amsart}
\title{{title}}{after}
\author{Ali BanaGozar}
\address{imec, Leuven, Belgium}
\begin{document}
""" + ABSTRACT + r"\maketitle" "\n", (r"\thanks{%s}" % FUNDING, ""), ""),
    "revtex-aps": (r"""\documentclass[aps,prl,reprint]{revtex4-2}
\begin{document}
\title{{title}}{after}
\author{Ali BanaGozar}
\affiliation{imec, Leuven, Belgium}
""" + ABSTRACT + r"\maketitle" "\n", (r"\thanks{%s}" % FUNDING, ""), ""),
    "revtex-aip": (r"""\documentclass[aip,jap,reprint]{revtex4-2}
\begin{document}
\title{{title}}{after}
\author{Ali BanaGozar}
\affiliation{imec, Leuven, Belgium}
""" + ABSTRACT + r"\maketitle" "\n", (r"\thanks{%s}" % FUNDING, ""), ""),
    "elsarticle": (r"""\documentclass[preprint]{elsarticle}
\begin{document}
\begin{frontmatter}
\title{{title}}{after}
\author{Ali BanaGozar}
\affiliation{organization={imec}, city={Leuven}, country={Belgium}}
""" + ABSTRACT + r"\end{frontmatter}" "\n",
        (r"\tnoteref{t1}", "\n" r"\tnotetext[t1]{%s}" % FUNDING), ""),
    # Elsevier CAS double column: \tnotemark + \tnotetext
    "cas-dc": (r"""\documentclass[a4paper,fleqn]{cas-dc}
\usepackage[numbers]{natbib}
\begin{document}
\shorttitle{Performance modeling}
\shortauthors{A. BanaGozar}
\title [mode = title]{{title}}{after}
\author{Ali BanaGozar}
\affiliation{organization={imec}, city={Leuven}, country={Belgium}}
""" + ABSTRACT + r"""\begin{keywords}
performance modeling \sep language models
\end{keywords}
\maketitle
""", (r"\tnotemark[1]", "\n" r"\tnotetext[1]{%s}" % FUNDING), ""),
    "ieeetran-journal": (r"""\documentclass[journal]{IEEEtran}
\begin{document}
\title{{title}}{after}
\author{Ali~BanaGozar and Joyjit~Kundu\thanks{Manuscript received July 19, 2024.}}
\maketitle
""" + ABSTRACT, (r"\thanks{%s}" % FUNDING, ""), ""),
    "ieeetran-conference": (r"""\documentclass[conference]{IEEEtran}
\begin{document}
\title{{title}}{after}
\author{\IEEEauthorblockN{Ali BanaGozar}\IEEEauthorblockA{imec, Leuven, Belgium}}
\maketitle
""" + ABSTRACT, (r"\thanks{%s}" % FUNDING, ""), ""),
    "llncs": (r"""\documentclass{llncs}
\begin{document}
\title{{title}}{after}
\author{Ali BanaGozar \and Joyjit Kundu}
\institute{imec, Leuven, Belgium}
\maketitle
""" + ABSTRACT, (r"\thanks{%s}" % FUNDING, ""), ""),
    # acmart's own title footnote is \titlenote, after \title
    "acmart-sigconf": (r"""\documentclass[sigconf]{acmart}
\settopmatter{printacmref=false}
\setcopyright{none}
\begin{document}
\title{{title}}{after}
\author{Ali BanaGozar}
\affiliation{\institution{imec}\city{Leuven}\country{Belgium}}
""" + ABSTRACT + r"\maketitle" "\n", ("", "\n" r"\titlenote{%s}" % FUNDING), ""),
    "acmart-acmsmall": (r"""\documentclass[acmsmall]{acmart}
\settopmatter{printacmref=false}
\setcopyright{none}
\begin{document}
\title{{title}}{after}
\author{Ali BanaGozar}
\affiliation{\institution{imec}\city{Leuven}\country{Belgium}}
""" + ABSTRACT + r"\maketitle" "\n", ("", "\n" r"\titlenote{%s}" % FUNDING), ""),
    # AASTeX sets the title in capitals; its title footnote is \footnote
    "aastex631": (r"""\documentclass[twocolumn]{aastex631}
\begin{document}
\title{{title}}{after}
\author{Ali BanaGozar}
\affiliation{imec, Leuven, Belgium}
""" + ABSTRACT + r"\keywords{Computational methods (1965)}" "\n",
        (r"\footnote{%s}" % FUNDING, ""), NATBIB_ITEM),
    "mnras": (r"""\documentclass[fleqn,usenatbib]{mnras}
\title{{title}}{after}
\author[A. BanaGozar]{Ali BanaGozar\\ imec, Leuven, Belgium}
\begin{document}
\maketitle
""" + ABSTRACT + r"""\begin{keywords}
methods: numerical
\end{keywords}
""", (r"\thanks{%s}" % FUNDING, ""), NATBIB_ITEM),
    # ACS: the abstract sets the title block, there is no \maketitle; \footnote is its title
    # footnote (\thanks is not used by this class)
    "achemso": (r"""\documentclass[journal=jacsat,manuscript=article]{achemso}
\title{{title}}{after}
\author{Ali BanaGozar}
\affiliation{imec, Leuven, Belgium}
\email{ali@example.org}
\begin{document}
""" + ABSTRACT, (r"\footnote{%s}" % FUNDING, ""), ""),
}

MARK = "{mark}"
# name: (TeX title as typed in \title, the record's title as arXiv writes it)
FORMS = {
    "plain": ("Performance Modeling of Distributed Language Model Training",
              "Performance Modeling of Distributed Language Model Training"),
    # the class's own footnote mark on the title (CLASSES' mark)
    "mark": ("Workload Analysis of Distributed Inference" + MARK,
             "Workload Analysis of Distributed Inference"),
    # a mark typed by hand
    "star": (r"Energy-Aware Scheduling for Sparse Training$^{\star}$",
             "Energy-Aware Scheduling for Sparse Training"),
    "math-sparse": (r"Learning $k$-Sparse Polynomials in $O(n\log n)$ Time",
                    r"Learning $k$-Sparse Polynomials in $O(n\log n)$ Time"),
    "math-greek": (r"Robust $\alpha$-Divergence Estimation from Samples $x_i$ with $\sigma^2$ Noise",
                   r"Robust $\alpha$-Divergence Estimation from Samples $x_i$ with $\sigma^2$ Noise"),
    "math-cal": (r"An $\mathcal{O}(\sqrt{n})$ Regret Bound for Online Learning",
                 r"An $\mathcal{O}(\sqrt{n})$ Regret Bound for Online Learning"),
    "math-first": (r"$\ell_1$-Regularized Regression for Sparse Signals",
                   r"$\ell_1$-Regularized Regression for Sparse Signals"),
    # relation signs in formulas: < and digits OCR reads, ≥ and ≠ read from their strokes
    "math-relations": (r"Learning Halfspaces with Noise Rate $\eta < 1/2$ and Margin $\gamma \geq \epsilon$ Unless $P \neq NP$",
                       r"Learning Halfspaces with Noise Rate $\eta < 1/2$ and Margin $\gamma \geq \epsilon$ Unless $P \neq NP$"),
    "accents-tex": (r"Schr\"odinger Bridges on Erd\H{o}s--R\'enyi Graphs for Fran\c{c}ais and Stra{\ss}e Data",
                    r"Schr\"odinger Bridges on Erd\H{o}s--R\'enyi Graphs for Fran\c{c}ais and Stra{\ss}e Data"),
    "accents-unicode": ("Schrödinger Bridges on Erdős–Rényi Graphs for Français and Straße Data",
                        "Schrödinger Bridges on Erdős–Rényi Graphs for Français and Straße Data"),
    "punctuation": (r"Trust \& Provenance: ``Honest'' Papers---Then and Now, 1990--2020",
                    r"Trust \& Provenance: ``Honest'' Papers---Then and Now, 1990--2020"),
    "two-line": (r"Performance Modeling and Workload Analysis\\ of Distributed Language Model Training",
                 r"Performance Modeling and Workload Analysis\\ of Distributed Language Model Training"),
    "three-line": (r"Scaling Laws, Data Mixtures and Compute Budgets: A~Performance Model of Distributed "
                   r"Training and Inference for Large Language Models on Heterogeneous Accelerator Clusters",
                   r"Scaling Laws, Data Mixtures and Compute Budgets: A~Performance Model of Distributed "
                   r"Training and Inference for Large Language Models on Heterogeneous Accelerator Clusters"),
    "logo": (r"A \LaTeX{} Package for Verifiable Paper Numbers",
             r"A \LaTeX{} Package for Verifiable Paper Numbers"),
    "braces": (r"{GPU}s and \emph{Sparse} Attention for Long-Context Models",
               r"{GPU}s and \emph{Sparse} Attention for Long-Context Models"),
    "small-caps": (r"\textsc{Pith}: Verifiable Numbers for Scientific Papers",
                   r"\textsc{Pith}: Verifiable Numbers for Scientific Papers"),
}

ENGINES = ["pdflatex", "lualatex"]


def source(cls, form):
    """The paper's LaTeX source."""
    front, (in_title, after), bibopt = CLASSES[cls]
    tex = FORMS[form][0]
    if MARK not in tex:
        in_title, after = "", ""
    title = tex.replace(MARK, in_title)
    return front.replace("{title}", title, 1).replace("{after}", after, 1) + BODY % bibopt


def record_title(form):
    return FORMS[form][1]


# Papers that cannot show their title as written: TeX stops or drops its glyphs (each fails without
# pith too), or, last two, the font gives a glyph no text (doc/known-limits.md):
NOT_TYPESET = {
    ("amsart", "accents-unicode", "pdflatex"):
        "amsart upper-cases the title byte by byte: pdfLaTeX stops with \"Unicode character ^^80 "
        "(U+0080) not set up for use with LaTeX\"; the author writes Schr\\\"odinger instead",
    ("cas-dc", "accents-unicode", "lualatex"):
        "cas-dc's STIX text font has no \u0151 and no \u2013: LuaLaTeX drops them (\"There is no \u0151 (U+0151) in font "
        "t1-stixgeneral!\"), so the page does not show the title as written",
    # Typeset, but no reader's text layer holds the title: the open limit of doc/known-limits.md.
    ("cas-dc", "math-cal", "pdflatex"):
        "cas-dc's STIX math calligraphy font gives its \U0001d4aa no text: neither pdftotext nor mutool extracts it, "
        "so the text layer does not show the title's formula (pith reads the title from the text layer first)",
    ("cas-dc", "math-cal", "lualatex"):
        "as with pdfLaTeX: STIXMathCalligraphy's \U0001d4aa has no text in the PDF",
    ("cas-dc", "math-relations", "pdflatex"):
        "cas-dc's STIX fonts give 1/2's slash as U+2215 and NP without its space (\"1\u22152\", \"\U0001d441\U0001d443\"): "
        "the text layer does not match the record's formula",
}
# LuaLaTeX without unicode-math sets formulas in TeX's legacy math fonts, whose glyphs the PDF
# gives no text: the text layer shows \neq's slash as "6" and \epsilon as U+000F ("P 6 = N P").
NOT_TYPESET.update({(cls, "math-relations", "lualatex"):
                    "LuaLaTeX's legacy math fonts have no ToUnicode: the text layer shows \\neq as \"6 =\" and "
                    "\\epsilon as U+000F"
                    for cls in ("aastex631", "achemso", "amsart", "article", "cas-dc", "elsarticle", "ieeetran-conference",
                                "ieeetran-journal", "llncs", "mnras", "revtex-aip", "revtex-aps", "scrartcl")})


# The papers per engine of each run, stated beside the lists they come from: run_honest.py fails a
# run of another size (a class, form or engine dropped, a sample that lost a diagonal, a paper lost
# on the way). Change them with the lists.
SAMPLE_PAPERS = {"pdflatex": 24, "lualatex": 21}
FULL_PAPERS = {"pdflatex": 237, "lualatex": 225}


def product():
    """Every (class, form, engine) TeX can typeset."""
    return [p for p in itertools.product(CLASSES, FORMS, ENGINES) if p not in NOT_TYPESET]


def sample():
    """The CI sample (deterministic): two diagonals of class x form, one per engine, so every
    class and every form appears with each engine; and each class's own footnote mark (the
    one form that differs by class), engines alternating."""
    classes, forms = list(CLASSES), list(FORMS)
    n = max(len(classes), len(forms))
    out = []
    for shift, engine in ((0, "pdflatex"), (len(forms) // 2, "lualatex")):
        for i in range(n):
            paper = (classes[i % len(classes)], forms[(i + shift) % len(forms)], engine)
            if paper not in NOT_TYPESET:
                out.append(paper)
    for i, cls in enumerate(classes):
        paper = (cls, "mark", ENGINES[i % 2])
        if paper not in out:
            out.append(paper)
    return out


def label(cls, form, engine):
    return "%s.%s.%s" % (cls, form, engine)
