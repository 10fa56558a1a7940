// SPDX-License-Identifier: MIT
// The rules for comments added after the stamp (src/verify/comment_drawing.cpp): each with a
// comment as a viewer writes it (MuPDF's appearances, as `mutool run` saved them) that passes,
// and one that draws something else, which fails.
#include "verify/comment_drawing.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include <string>
#include <vector>

namespace c = pith::verify::comments;

namespace {

c::Drawing on_page(const std::string& content) { return c::read_drawing(content, c::kIdentity); }

// The word's first letters as a pen strokes them, in page space (a stroke font, 22 pt high).
const std::string kLetters = "0 0 1 RG 2 w 72 735 m 72 757 l 83 757 l 85.2 752.6 l 83 746 l 72 746 l S "
                             "76.4 746 m 85.2 735 l S 104.8 757 m 91.6 757 l 91.6 735 l 104.8 735 l S\n";

// MuPDF's highlight of the quad from (100, 372) to (300, 392).
const std::vector<double> kQuad = {100, 392, 300, 392, 100, 372, 300, 372};
const std::string kMupdfHighlight = "/H gs 1 1 0 rg 100 372 m 95.2858 376.7142 95.2858 387.2858 100 392 c 300 392 l "
                                    "304.7142 387.2858 304.7142 376.7142 300 372 c f\n";

}  // namespace

TEST_CASE("an appearance is read into the paths it paints, with only the operators on the list", "[comments]") {
    const c::Drawing d = on_page("q 2 0 0 2 10 10 cm 1 w 0 0 m 5 0 l S Q");
    REQUIRE(d.refused.empty());
    REQUIRE(d.paths.size() == 1);
    CHECK(d.paths[0].stroked);
    CHECK(d.paths[0].points[1].x == Approx(20));
    CHECK(d.paths[0].width == Approx(2));
    CHECK(on_page("0 0 m 5 5 l n 1 0 0 RG 0 0 10 10 re f").paths.size() == 1);  // a path ended unpainted
    CHECK_FALSE(on_page("0 0 m 5 5 l W n 1 0 0 RG 0 0 10 10 re f").refused.empty());  // a clip: letters cut from a box
    CHECK_FALSE(on_page("BT /F1 12 Tf (RETRACTED) Tj ET").refused.empty());
    CHECK_FALSE(on_page("/Fm0 Do").refused.empty());
    CHECK_FALSE(on_page("/Pattern cs /P0 scn 0 0 10 10 re f").refused.empty());
    CHECK_FALSE(on_page("0 0 m 5 l S").refused.empty());  // an operand short
}

TEST_CASE("an appearance's box is fitted onto the annotation's rectangle", "[comments]") {
    c::Matrix m;
    REQUIRE(c::appearance_to_page({0, 0, 16, 16}, c::kIdentity, {301, 473, 319, 491}, m));
    const c::Drawing d = c::read_drawing("0 0 m 16 16 l S", m);
    CHECK(d.paths[0].points[0].x == Approx(301));
    CHECK(d.paths[0].points[1].y == Approx(491));
    CHECK_FALSE(c::appearance_to_page({0, 0, 0, 16}, c::kIdentity, {301, 473, 319, 491}, m));
}

TEST_CASE("a highlight fills one box a quad, covering it", "[comments]") {
    CHECK(c::markup_rule("Highlight", on_page(kMupdfHighlight), kQuad).empty());
    CHECK(c::markup_rule("Highlight", on_page("1 1 0 rg 100 372 200 20 re f"), kQuad).empty());
    // the word stroked inside the quad's area: MuPDF draws the word, poppler a box
    const std::vector<double> word_quad = {70, 759, 280, 759, 70, 733, 280, 733};
    CHECK_FALSE(c::markup_rule("Highlight", on_page(kLetters), word_quad).empty());
    // a filled letter E as large as the quad: MuPDF draws the E, poppler a box
    CHECK_FALSE(c::markup_rule("Highlight",
                               on_page("100 372 m 300 372 l 300 378 l 130 378 l 130 380 l 250 380 l 250 384 l 130 384 l "
                                       "130 386 l 300 386 l 300 392 l 100 392 l h f"),
                               kQuad)
                    .empty());
    // a star drawn across the quad: every turn one way, but twice round
    std::string star;
    for (int k = 0; k < 5; ++k) {
        const double a = (90 + k * 144) * 3.14159265 / 180;
        star += std::to_string(200 + 100 * std::cos(a)) + " " + std::to_string(382 + 10 * std::sin(a)) + (k ? " l " : " m ");
    }
    CHECK_FALSE(c::markup_rule("Highlight", on_page(star + "h f"), kQuad).empty());
    // a box half the quad's length, or a box elsewhere
    CHECK_FALSE(c::markup_rule("Highlight", on_page("1 1 0 rg 100 372 90 20 re f"), kQuad).empty());
    CHECK_FALSE(c::markup_rule("Highlight", on_page("1 1 0 rg 100 500 200 20 re f"), kQuad).empty());
    CHECK_FALSE(c::markup_rule("Highlight", on_page(kMupdfHighlight), {1, 2, 3}).empty());  // not quads
}

TEST_CASE("an underline, strike-out or squiggle is a thin line along its quad", "[comments]") {
    CHECK(c::markup_rule("Underline", on_page("0 1 0 RG 1.25 w 100 334.86 m 300 334.86 l S"),
                         {100, 352, 300, 352, 100, 332, 300, 332})
              .empty());
    CHECK(c::markup_rule("StrikeOut", on_page("1 0 0 RG 1.25 w 100 300.57 m 300 300.57 l S"),
                         {100, 312, 300, 312, 100, 292, 300, 292})
              .empty());
    std::string zigzag = "1 0 1 RG 1.25 w 100 252 m";
    for (int i = 1; i <= 70; ++i) zigzag += " " + std::to_string(100 + i * 200.0 / 70) + (i % 2 ? " 254.86 l" : " 252 l");
    CHECK(c::markup_rule("Squiggly", on_page(zigzag + " S"), {100, 272, 300, 272, 100, 252, 300, 252}).empty());
    // a quad turned a quarter: the line runs up the page
    CHECK(c::markup_rule("Underline", on_page("1 w 101 100 m 101 300 l S"), {100, 100, 100, 300, 120, 100, 120, 300}).empty());
    // letters in a tall quad: strokes that go back and forth, across it
    const std::vector<double> word_quad = {70, 759, 280, 759, 70, 733, 280, 733};
    CHECK_FALSE(c::markup_rule("Underline", on_page(kLetters), word_quad).empty());
    CHECK_FALSE(c::markup_rule("StrikeOut", on_page("1 w 100 300 m 300 300 l S"), {100, 352, 300, 352, 100, 332, 300, 332}).empty());
}

TEST_CASE("an ink comment's appearance strokes its ink list", "[comments]") {
    const std::vector<c::Polyline> ink = {{{100, 192}, {150, 182}, {200, 192}}, {{100, 172}, {200, 172}}};
    CHECK(c::ink_appearance_rule(on_page("2 w 1 0 0 RG 1 J 1 j 100 192 m 150 182 l 200 192 l 100 172 m 200 172 l S"), ink, 2)
              .empty());
    CHECK(c::ink_appearance_rule(on_page("2 w 100 192 m 120 188 140 184 150 182 c 200 192 l S"), ink, 2).empty());
    // the word where the ink list is one short stroke
    CHECK_FALSE(c::ink_appearance_rule(on_page(kLetters), {{{72, 735}, {73, 735}}}, 2).empty());
    CHECK_FALSE(c::ink_appearance_rule(on_page("100 172 m 200 172 l 200 192 l f"), ink, 2).empty());  // a fill
    CHECK_FALSE(c::ink_appearance_rule(on_page("30 w 100 172 m 200 172 l S"), ink, 2).empty());      // far wider
}

TEST_CASE("an ink comment's strokes are marks that stand apart: lines and loops, not letters", "[comments]") {
    const c::Polyline underline = {{100, 400}, {160, 401}, {230, 399}, {300, 400}};
    c::Polyline circle;
    for (int k = 0; k <= 36; ++k)
        circle.push_back({200 + 60 * std::cos(k * 3.14159265 / 18), 450 + 14 * std::sin(k * 3.14159265 / 18)});
    CHECK(c::ink_marks_rule({underline, circle}, 2, {}).empty());
    CHECK(c::ink_marks_rule({{{72, 300}, {72, 320}}}, 2, {{underline, 2}}).empty());  // a bar in the margin
    // R, E: strokes that bend without closing
    CHECK_FALSE(c::ink_marks_rule({{{72, 735}, {72, 757}, {83, 757}, {85.2, 752.6}, {83, 746}, {72, 746}}}, 2, {}).empty());
    // T: two straight strokes that join, in one comment or in two
    const c::Polyline bar = {{72, 757}, {85, 757}}, stem = {{78.5, 757}, {78.5, 735}};
    CHECK_FALSE(c::ink_marks_rule({bar, stem}, 2, {}).empty());
    CHECK_FALSE(c::ink_marks_rule({stem}, 2, {{bar, 2}}).empty());
}

TEST_CASE("a sticky note is icon-sized; a pop-up paints nothing", "[comments]") {
    CHECK(c::note_rule({301, 473, 319, 491}, nullptr).empty());
    const pith::pdf::Rect box{0, 0, 16, 16};
    CHECK(c::note_rule({301, 473, 319, 491}, &box).empty());
    CHECK_FALSE(c::note_rule({70, 733, 282, 759}, nullptr).empty());  // the word's size
    const pith::pdf::Rect wide{0, 0, 200, 24};
    CHECK_FALSE(c::note_rule({301, 473, 319, 491}, &wide).empty());  // drawn at its box's size where a viewer does not zoom it
    CHECK(c::popup_rule(on_page("")).empty());
    CHECK_FALSE(c::popup_rule(on_page(kLetters)).empty());
}

TEST_CASE("a comment's graphics state sets line style, alpha and blend mode, no soft mask", "[comments]") {
    CHECK(c::ext_gstate_rule({{"Type", "ExtGState"}, {"BM", "Multiply"}, {"CA", ""}}).empty());  // MuPDF's highlight
    CHECK(c::ext_gstate_rule({{"SMask", "None"}}).empty());
    CHECK_FALSE(c::ext_gstate_rule({{"SMask", ""}}).empty());  // a mask shaped as letters
    CHECK_FALSE(c::ext_gstate_rule({{"TR", "Identity"}}).empty());
}
