// SPDX-License-Identifier: MIT
#pragma once
// The relation signs and a formula's digits in a title: characters a claim turns on ("Step Size
// < 2/L", "O(n^2)") that the words' comparison leaves out (it keeps letters and digits of words,
// pixel_words.hpp's tokens_of()), and how the pixels show them. Tesseract's Latin model gives < > =
// and digits; it has no ≤, ≥ or ≠, so those are read from their strokes (sign_drawn()).
#include "page/pixels.hpp"
#include "page/visible.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pith::page::pixels {

inline constexpr std::u32string_view kRelationSigns = U"<>=\u2264\u2265\u2260";
// Those Tesseract's Latin model can give.
bool ocr_reads(char32_t sign);

// `text`'s relation signs and, where `formula`, its digits, in order; compatibility forms
// folded (² is 2).
std::u32string signs_and_digits(const std::string& text, bool formula);

inline constexpr std::string_view kNegation = "\u0338";
// `words` with TeX's negation (a slash set as a glyph of its own, U+0338 in the text layer, over
// the sign after it: pdfLaTeX's \neq is "̸" then "=") joined to that sign: one word "≠" in the
// box of both.
std::vector<visible::Word> sign_words(const std::vector<visible::Word>& words);

// The relation sign the ink inside x0..x1, y0..y1 (points, in `image`'s page coordinates) draws,
// read from its strokes: '<' or '>' (one stroke bent at the middle, pointing left or right), '≤'
// or '≥' (that over a bar of its own), '=' (two bars one over the other), '≠' (two bars a stroke
// crosses); 0 for anything else.
char32_t sign_drawn(const Image& image, double x0, double y0, double x1, double y1);

}  // namespace pith::page::pixels
