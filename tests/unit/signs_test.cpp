// SPDX-License-Identifier: MIT
// page/signs: the relation signs and a formula's digits a title's claim turns on, and the signs
// OCR has no character for read from their strokes (doc/visible.md "The title from pixels").
// Strokes are drawn here, as thick lines on a white image at 72 dpi (a pixel a point); the
// attack suite's words-sign files and the honest corpus's sign papers read real fonts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "page/signs.hpp"

using pith::page::pixels::Image;
using pith::page::pixels::sign_drawn;

namespace {

Image white(int columns, int rows) {
    Image im;
    im.dpi = 72;
    im.columns = columns;
    im.rows = rows;
    im.rgb.assign(static_cast<std::size_t>(columns) * rows * 3, 255);
    return im;
}

// A stroke from (x0, y0) to (x1, y1), `width` pixels thick, in black.
void stroke(Image& im, double x0, double y0, double x1, double y1, double width = 4) {
    const double length = std::hypot(x1 - x0, y1 - y0);
    for (int r = 0; r < im.rows; ++r)
        for (int c = 0; c < im.columns; ++c) {
            const double t = std::clamp(((c - x0) * (x1 - x0) + (r - y0) * (y1 - y0)) / (length * length), 0.0, 1.0);
            if (std::hypot(c - (x0 + t * (x1 - x0)), r - (y0 + t * (y1 - y0))) <= width / 2)
                for (int k = 0; k < 3; ++k) im.rgb[(static_cast<std::size_t>(r) * im.columns + c) * 3 + k] = 0;
        }
}

// A sign drawn in a 40 x 60 box at (10, 10): the box a text layer gives it.
char32_t drawn(const std::vector<std::array<double, 4>>& strokes) {
    Image im = white(60, 80);
    for (const auto& s : strokes) stroke(im, s[0], s[1], s[2], s[3]);
    return sign_drawn(im, 10, 10, 50, 70);
}

}  // namespace

TEST_CASE("signs: a title's relation signs and its formulas' digits", "[signs]") {
    using pith::page::pixels::signs_and_digits;
    CHECK(signs_and_digits("Size < 2/L", false) == U"<");
    CHECK(signs_and_digits("O(n\u00B2) \u2264 x", true) == U"2\u2264");  // ² folded to 2
    CHECK(signs_and_digits("GPT-3", false).empty());                    // a word's digits are the words' comparison's
    CHECK(signs_and_digits("P =\u0338 NP", false) == U"\u2260");        // ≠ spelled decomposed
    CHECK(pith::page::pixels::ocr_reads(U'<'));
    CHECK_FALSE(pith::page::pixels::ocr_reads(U'\u2264'));
    // pdfLaTeX's \neq: the negation slash, a word of its own, then "=".
    pith::page::visible::Word slash, equals, after;
    slash.text = "\u0338", slash.x0 = 10, slash.x1 = 14, slash.y0 = 0, slash.y1 = 12;
    equals.text = "=", equals.x0 = 11, equals.x1 = 20, equals.y0 = 2, equals.y1 = 10;
    after.text = "NP", after.x0 = 24, after.x1 = 40;
    const auto joined = pith::page::pixels::sign_words({slash, equals, after});
    REQUIRE(joined.size() == 2);
    CHECK(signs_and_digits(joined[0].text, false) == U"\u2260");
    CHECK((joined[0].x0 == 10 && joined[0].x1 == 20 && joined[0].y0 == 0 && joined[0].y1 == 12));
    CHECK(joined[1].text == "NP");
}

TEST_CASE("signs: read from their strokes", "[signs]") {
    // < and >: one stroke bent at its middle.
    CHECK(drawn({{{45, 15, 15, 30}}, {{15, 30, 45, 45}}}) == U'<');
    CHECK(drawn({{{15, 15, 45, 30}}, {{45, 30, 15, 45}}}) == U'>');
    // ≤ and ≥: that over a bar, level or aslant (Computer Modern sets it parallel to the lower arm).
    CHECK(drawn({{{45, 15, 15, 30}}, {{15, 30, 45, 45}}, {{15, 58, 45, 58}}}) == U'\u2264');
    CHECK(drawn({{{45, 15, 15, 30}}, {{15, 30, 45, 45}}, {{15, 52, 45, 62}}}) == U'\u2264');
    CHECK(drawn({{{15, 15, 45, 30}}, {{45, 30, 15, 45}}, {{15, 58, 45, 58}}}) == U'\u2265');
    // = and ≠: two bars, and a stroke across them.
    CHECK(drawn({{{15, 32, 45, 32}}, {{15, 46, 45, 46}}}) == U'=');
    CHECK(drawn({{{15, 32, 45, 32}}, {{15, 46, 45, 46}}, {{38, 18, 22, 60}}}) == U'\u2260');
    // Anything else is no sign: a dash, a cross, nothing.
    CHECK(drawn({{{15, 40, 45, 40}}}) == 0);
    CHECK(drawn({{{15, 15, 45, 60}}, {{45, 15, 15, 60}}}) == 0);
    CHECK(drawn({}) == 0);
    // A bar beside the bent stroke, not under it, makes no ≤.
    CHECK(drawn({{{30, 15, 12, 30}}, {{12, 30, 30, 45}}, {{36, 20, 48, 20}}}) == 0);
}
