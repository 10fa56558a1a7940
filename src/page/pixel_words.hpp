// SPDX-License-Identifier: MIT
#pragma once
// The words of a title as both readings give them, for pixels.cpp (which reads the pixels) and
// pixel_judgement.cpp (which compares the two readings): tokens, scripts, UTF-8. Internal to page/.
#include <unicode/uscript.h>
#include <unicode/utf8.h>
#include <unicode/uchar.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pith::page::pixels {

// Calls f(c) for each code point of `text` and f(' ') between words.
template <typename F>
void each_char(const std::string& norm, F f) {
    for (int32_t i = 0; i < static_cast<int32_t>(norm.size());) {
        UChar32 c;
        U8_NEXT(norm.data(), i, static_cast<int32_t>(norm.size()), c);
        if (c >= 0) f(u_isspace(c) ? UChar32{' '} : c);
    }
}

// A word's tokens as compared: its letters and digits, case folded, accents dropped
// (title::normalise), with the characters OCR confuses folded together (0/o, 1/i/l, ß/B, Latin and
// Cyrillic or Greek letters of one shape); a dash parts tokens, a script written without spaces
// gives a token per character.
std::vector<std::u32string> tokens_of(const std::string& text);
// A token of one character of a script written without spaces (one Han character can be a word).
bool spaceless(const std::u32string& token);
// The scripts `text` is written in, in order: those with a word of two letters or more (a lone
// Greek letter is a formula's), or one letter of a script written without spaces.
std::vector<UScriptCode> scripts_of(const std::string& text);
std::string utf8(const std::u32string& s);
// The k-th smallest of `values` (0 the smallest; k < values.size()): a median, a percentile.
double kth(std::vector<double> values, std::size_t k);

}  // namespace pith::page::pixels
