// SPDX-License-Identifier: MIT
// verify/tex_title: a record's title written in TeX, as the page shows it (doc/titles.md).
#include <catch2/catch.hpp>

#include "page/tex_title.hpp"

using pith::page::tex_title::Piece;
using pith::page::tex_title::typeset;

namespace {

std::string shown(const std::string& tex) { return typeset(tex).text(); }

// The pieces as "T:text|M:math|U:source".
std::string pieces(const std::string& tex) {
    std::string out;
    for (const Piece& p : typeset(tex).pieces)
        out += std::string(out.empty() ? "" : "|") + (p.kind == Piece::Kind::Text ? "T:" : p.kind == Piece::Kind::Math ? "M:" : "U:") + p.text;
    return out;
}

}  // namespace

TEST_CASE("typeset: a title without TeX is itself", "[tex_title]") {
    CHECK(pieces("Sparse Attention Kernels for Long Context Models") == "T:Sparse Attention Kernels for Long Context Models");
    CHECK(pieces("Schrödinger Bridges on Erdős–Rényi Graphs") == "T:Schrödinger Bridges on Erdős–Rényi Graphs");
    CHECK(pieces("") == "");
}

TEST_CASE("typeset: accents and special letters", "[tex_title]") {
    CHECK(shown("Schr\\\"odinger Bridges on Erd\\H{o}s--R\\'enyi Graphs") == "Schrödinger Bridges on Erdős–Rényi Graphs");
    CHECK(shown("Schr{\\\"o}dinger") == "Schrödinger");
    CHECK(shown("Schr\\\"{o}dinger") == "Schrödinger");
    CHECK(shown("Fran\\c{c}ais et \\`a la Gar\\c con") == "Français et à la Garçon");
    CHECK(shown("Stra{\\ss}e, \\O{}stergaard, \\AA{}ngstr\\\"om, \\L{}\\'od\\'z, {\\o}l") == "Straße, Østergaard, Ångström, Łódź, øl");
    CHECK(shown("na\\\"{\\i}ve") == "naïve");
    CHECK(shown("\\v{C}ech and \\u{g} and \\~n \\^o \\=a \\.z \\k{a} \\r{u}") == "Čech and ğ and ñ ô ā ż ą ů");
}

TEST_CASE("typeset: dashes, quotes, escapes, spaces", "[tex_title]") {
    CHECK(shown("Trust \\& Provenance") == "Trust & Provenance");
    CHECK(shown("``quoted'' and `single'") == "“quoted” and ‘single’");
    CHECK(shown("pages 1--2 --- and x-y") == "pages 1–2 — and x-y");
    CHECK(shown("100\\% of \\$5 \\#1 a\\_b") == "100% of $5 #1 a_b");
    CHECK(shown("A~Title\\\\ on Two Lines") == "A Title on Two Lines");
    CHECK(shown("A Title\\\\[2pt]Broken") == "A Title Broken");
    CHECK(shown("Hyphen\\-ated") == "Hyphenated");
}

TEST_CASE("typeset: font commands and braces", "[tex_title]") {
    CHECK(shown("\\emph{Deep} \\textbf{Learning} for {GPU}s and \\textsc{Small Caps}") == "Deep Learning for GPUs and Small Caps");
    CHECK(shown("{\\em Emphasis} and {\\bf bold}") == "Emphasis and bold");
    CHECK(shown("\\texttt{code} \\textit{it} \\underline{u}") == "code it u");
    CHECK(shown("A Title\\thanks{Funded by X.}") == "A Title");
    CHECK(shown("A Title\\tnoteref{t1}\\footnote{note}") == "A Title");
    CHECK(shown("\\href{https://x.org}{Link Text}") == "Link Text");
}

TEST_CASE("typeset: inline math", "[tex_title]") {
    CHECK(pieces("Learning $k$-Sparse Polynomials in $O(n\\log n)$ Time") ==
          "T:Learning |M:k|T:-Sparse Polynomials in |M:O(n log n)|T: Time");
    CHECK(shown("$\\alpha$-Stable and $\\Gamma$ and $\\varepsilon \\leq \\delta$") == "α-Stable and Γ and ε≤δ");
    CHECK(shown("$x_i^{2}$ and $\\sqrt{n}$ and $\\frac{1}{2}$") == "xi2 and √n and 1 2");
    CHECK(shown("$\\mathcal{O}(1)$ in $\\mathbb{R}^d$ with $\\ell_1$") == "O(1) in Rd with ℓ1");
    CHECK(shown("\\(a \\times b\\) and \\[c\\]") == "a ×b and c");
    CHECK(shown("$\\text{SU}(2)$ and $\\operatorname{Tr}$") == "SU(2) and Tr");
    CHECK(pieces("$\\mathcal{N}=4$ Theory") == "M:N=4|T: Theory");
}

TEST_CASE("typeset: logos are typeset as formulas (their letters are kerned)", "[tex_title]") {
    CHECK(pieces("Typesetting with \\LaTeX{} and \\TeX") == "T:Typesetting with |M:LaTeX|T: and |M:TeX");
    CHECK(shown("\\LaTeXe\\ Packages") == "LaTeX2e Packages");
}

TEST_CASE("typeset: what pith cannot typeset is marked, never guessed", "[tex_title]") {
    CHECK(pieces("The \\ours{} Method") == "T:The |U:\\ours|T: Method");
    CHECK(pieces("A $\\weird x$ Formula") == "T:A |U:\\weird|M:x|T: Formula");
    CHECK(typeset("The \\ours{} and \\theirs Method").unknown() == std::vector<std::string>{"\\ours", "\\theirs"});
    // Unbalanced braces and math, deep nesting, a trailing backslash: never a crash.
    CHECK(shown("{{{Title") == "Title");
    CHECK(shown("Title}}} $x") == "Title x");
    CHECK_NOTHROW(typeset(std::string(10000, '{') + "x"));
    CHECK(shown("Title \\") == "Title ");
}
