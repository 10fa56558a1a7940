// SPDX-License-Identifier: MIT
// page/logo_letters: TeX's logos confirmed letter by letter (issue 41; doc/visible.md "The title
// from pixels"). The glyphs' readings are made up here; the attack suite's allow-logo files and
// the honest corpus's logo papers read real fonts.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "page/logo_letters.hpp"

using pith::page::pixels::GlyphMask;
using pith::page::pixels::Image;
using pith::page::pixels::Letters;
using pith::page::pixels::logo_letters;
using pith::page::pixels::logo_runs;
using pith::page::visible::Word;

namespace {

Word word(const std::string& text, double x0, double x1, double y0 = 40, double y1 = 60, double size = 17) {
    Word w;
    w.text = text, w.x0 = x0, w.x1 = x1, w.y0 = y0, w.y1 = y1, w.size = size, w.visible = true;
    return w;
}

Image white(int columns, int rows) {
    Image im;
    im.dpi = 72, im.columns = columns, im.rows = rows;
    im.rgb.assign(static_cast<std::size_t>(columns) * rows * 3, 255);
    return im;
}

void paint(Image& im, int c0, int r0, int c1, int r1, unsigned char grey = 0) {
    for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c)
            for (int k = 0; k < 3; ++k) im.rgb[(static_cast<std::size_t>(r) * im.columns + c) * 3 + k] = grey;
}

}  // namespace

TEST_CASE("logo letters: a logo is the title's words TeX sets without a space, holding tex", "[logo]") {
    // pdfLaTeX's \LaTeX: "L", the raised small "A" over it, "TEX" with the E lowered (its box deeper).
    const std::vector<Word> title = {word("A", 42, 56.7), word("L", 63.2, 74.8), word("A", 67.9, 77.3, 40, 50, 12),
                                     word("TEX", 74.4, 109.6, 40, 64), word("Package", 116, 183.3)};
    const auto runs = logo_runs(title);
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].letters == U"latex");
    CHECK(runs[0].text == "LATEX");
    CHECK((runs[0].x0 == 63.2 && runs[0].x1 == 109.6 && runs[0].y1 == 64));
    CHECK(std::vector<bool>(5, false) == runs[0].mirrored);
    // XeTeX and XeLaTeX mirror their E (set as E in a mirrored box, or as Ǝ): read mirrored back.
    const auto xetex = logo_runs({word("X", 10, 20), word("E", 19, 28), word("TEX", 27, 50)});
    REQUIRE(xetex.size() == 1);
    CHECK(xetex[0].mirrored == std::vector<bool>{false, true, false, false, false});
    const auto xelatex = logo_runs({word("X\u018ELATEX", 10, 60)});
    REQUIRE(xelatex.size() == 1);
    CHECK(xelatex[0].letters == U"xelatex");
    CHECK(xelatex[0].mirrored == std::vector<bool>{false, true, false, false, false, false, false});
    // LuaTeX and LuaLaTeX lower their E, mirror nothing.
    const auto luatex = logo_runs({word("LuaT", 10, 40), word("E", 39, 48, 44, 64), word("X", 47, 56)});
    REQUIRE(luatex.size() == 1);
    CHECK(luatex[0].letters == U"luatex");
    CHECK(luatex[0].mirrored == std::vector<bool>(6, false));
    // A space apart is two words: no logo; a word without tex is none.
    CHECK(logo_runs({word("T", 10, 20), word("EX", 26, 40)}).empty());
    CHECK(logo_runs({word("Package", 10, 60)}).empty());
}

TEST_CASE("logo letters: each glyph read alone must be its letter", "[logo]") {
    CHECK(logo_letters(U"latex", {"L", "A", "T", "E", "X"}) == Letters::Confirmed);
    CHECK(logo_letters(U"latex", {"L", "a", "t", "e", "x"}) == Letters::Confirmed);  // case: TeX's small capital A
    CHECK(logo_letters(U"latex", {"L", "A", "T", "E", "Xx"}) == Letters::Confirmed);  // one glyph, its letter twice
    // The lowered letter drawn as a vowel ("LaTaX") or a consonant ("LaTgX"): another letter.
    CHECK(logo_letters(U"latex", {"L", "a", "T", "a", "X"}) == Letters::Other);
    CHECK(logo_letters(U"latex", {"L", "A", "T", "g", "X"}) == Letters::Other);
    CHECK(logo_letters(U"tex", {"T", "a", "x"}) == Letters::Other);
    CHECK(logo_letters(U"tex", {"T", "ea", "X"}) == Letters::Other);  // more than its letter
    // A glyph OCR reads as nothing, or glyphs that are not as many as the letters: unread.
    CHECK(logo_letters(U"latex", {"L", "A", "T", "", "X"}) == Letters::Unread);
    CHECK(logo_letters(U"latex", {"W", "o", "r", "d"}) == Letters::Unread);
    CHECK(logo_letters(U"latex", {}) == Letters::Unread);
    // A text word glued to the logo ("Non-TeX", "LaTeX-Beamer") is read as every word is
    // (TitleWords::glued), not here: only the logo's own letters are compared.
    CHECK(pith::page::pixels::in_logo(U"non-tex") == std::vector<bool>{false, false, false, false, true, true, true});
    CHECK(pith::page::pixels::in_logo(U"latex:") == std::vector<bool>{true, true, true, true, true, false});
    const std::vector<bool> han = {true, true, true, true, true, false, false};
    CHECK(pith::page::pixels::in_logo(U"latex\u6a21\u677f") == han);
    CHECK(logo_letters(U"non-tex", {"N", "o", "n", "-", "T", "E", "X"}) == Letters::Confirmed);
    CHECK(logo_letters(U"non-tex", {"N", "o", "n", "a", "T", "E", "X"}) == Letters::Confirmed);
    CHECK(logo_letters(U"non-tex", {"N", "o", "n", "-", "T", "a", "X"}) == Letters::Other);
    CHECK(logo_letters(U"non-tex", {"N", "o", "n", "-", "T", "E"}) == Letters::Unread);  // a glyph short
    // A punctuation mark in the logo's place reads as no letter, or as nothing (OCR drops a colon).
    CHECK(logo_letters(U"latex:", {"L", "A", "T", "E", "X", ""}) == Letters::Confirmed);
    // tokens_of()'s folds, as every word is compared: 0/o, 1/i/l.
    CHECK(logo_letters(U"bibtex", {"B", "l", "b", "T", "E", "X"}) == Letters::Confirmed);
}

TEST_CASE("logo letters: a glyph is read only where the page shows it as drawn", "[logo]") {
    // A glyph's mask: a bar 10..30 x 10..40 in a 60 x 50 slice; its character's box 8..32 x 5..45 pt.
    GlyphMask g{"E", 8, 5, 32, 45, white(60, 50)};
    paint(g.ink, 10, 10, 30, 40);
    Image page = white(60, 50);
    paint(page, 10, 10, 30, 40);
    CHECK(pith::page::pixels::shown_as_drawn(g, page, {g}));
    // Covered: half of it painted white.
    Image covered = page;
    paint(covered, 10, 10, 30, 25, 255);
    CHECK_FALSE(pith::page::pixels::shown_as_drawn(g, covered, {g}));
    // Drawn over: a stroke no glyph draws, inside its box, makes it another letter.
    Image stroked = page;
    paint(stroked, 30, 10, 32, 40);
    paint(stroked, 8, 41, 32, 44);
    CHECK_FALSE(pith::page::pixels::shown_as_drawn(g, stroked, {g}));
    // Ink of the logo's other glyphs (a kerned neighbour reaching into its box) is explained.
    GlyphMask next{"X", 31, 5, 50, 45, white(60, 50)};
    paint(next.ink, 29, 10, 48, 40);
    Image both = page;
    paint(both, 29, 10, 48, 40);
    CHECK(pith::page::pixels::shown_as_drawn(g, both, {g, next}));
    CHECK_FALSE(pith::page::pixels::shown_as_drawn(g, both, {g}));
    // The glyph alone: cut to its ink with a margin, and mirrored back for XeTeX's E.
    const Image alone = pith::page::pixels::glyph_image(g);
    CHECK((alone.columns == 20 + 2 * 9 && alone.rows == 30 + 2 * 9));  // a margin of a third of 29 pixels
    std::size_t black = 0;
    for (std::size_t i = 0; i < alone.rgb.size(); i += 3) black += alone.rgb[i] == 0;
    CHECK(black == 20 * 30);
    Image half = white(4, 1);
    paint(half, 0, 0, 1, 1);
    CHECK(pith::page::pixels::mirrored(half).rgb[3 * 3] == 0);
    CHECK(pith::page::pixels::mirrored(half).rgb[0] == 255);
}
