// SPDX-License-Identifier: MIT
#include "page/pixel_words.hpp"

#include "core/unicode.hpp"
#include "page/title.hpp"

#include <unicode/uchar.h>
#include <unicode/uscript.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace pith::page::pixels {

namespace {

UScriptCode script_of(UChar32 c) {
    UErrorCode status = U_ZERO_ERROR;
    const UScriptCode s = uscript_getScript(c, &status);
    return U_SUCCESS(status) ? s : USCRIPT_UNKNOWN;
}

// Cyrillic and Greek letters (case folded) whose small or capital form looks like a Latin
// letter's: a mixed title read with eng+rus gets either, and the pixels cannot tell them apart.
char32_t same_shape(char32_t c) {
    static constexpr std::pair<char32_t, char32_t> kShapes[] = {
        {U'\u0430', U'a'}, {U'\u0432', U'b'}, {U'\u0435', U'e'}, {U'\u043A', U'k'}, {U'\u043C', U'm'},
        {U'\u043D', U'h'}, {U'\u043E', U'o'}, {U'\u0440', U'p'}, {U'\u0441', U'c'}, {U'\u0442', U't'},
        {U'\u0443', U'y'}, {U'\u0445', U'x'}, {U'\u0456', U'i'}, {U'\u0458', U'j'}, {U'\u0455', U's'},
        {U'\u03B1', U'a'}, {U'\u03B2', U'b'}, {U'\u03B5', U'e'}, {U'\u03B6', U'z'}, {U'\u03B7', U'h'},
        {U'\u03B9', U'i'}, {U'\u03BA', U'k'}, {U'\u03BC', U'm'}, {U'\u03BD', U'v'}, {U'\u03BF', U'o'},
        {U'\u03C1', U'p'}, {U'\u03C4', U't'}, {U'\u03C5', U'y'}, {U'\u03C7', U'x'}};
    for (const auto& [from, to] : kShapes)
        if (c == from) return to;
    return c;
}

// The text with ß spelled b (Tesseract's Latin model reads it as B), normalised (title::normalise).
std::string for_tokens(const std::string& text) {
    std::string spelled = text;
    for (const char* sharp_s : {"\u00DF", "\u1E9E"})
        for (std::size_t at = spelled.find(sharp_s); at != std::string::npos; at = spelled.find(sharp_s, at))
            spelled.replace(at, std::strlen(sharp_s), "b");
    return title::normalise(spelled);
}

// A letter of a script other than Latin that stands alone in its word: a formula's (α, σ²), which
// OCR reads as a Latin letter or not at all.
bool lone_letter(const std::u32string& word, char32_t c) {
    const UScriptCode s = script_of(static_cast<UChar32>(c));
    if (s == USCRIPT_LATIN || s == USCRIPT_COMMON || s == USCRIPT_INHERITED || written_without_spaces(s) ||
        !u_isalpha(static_cast<UChar32>(c)))
        return false;
    return std::count_if(word.begin(), word.end(), [&](char32_t d) {
               return u_isalpha(static_cast<UChar32>(d)) && script_of(static_cast<UChar32>(d)) == s;
           }) < 2;
}

}  // namespace

bool spaceless(const std::u32string& token) {
    return token.size() == 1 && written_without_spaces(token[0]);
}

std::vector<std::u32string> tokens_of(const std::string& text) {
    std::vector<std::u32string> out;
    std::u32string word;  // its letters and digits
    auto flush = [&] {
        std::u32string token;
        for (char32_t c : word) {
            if (c == U' ') {  // a dash
                if (!token.empty()) out.push_back(token);
                token.clear();
                continue;
            }
            if (lone_letter(word, c)) continue;
            if (written_without_spaces(static_cast<char32_t>(c))) {
                if (!token.empty()) out.push_back(token);
                token.clear();
                out.push_back(std::u32string(1, c));
                continue;
            }
            c = same_shape(c);
            if (c == '0') c = 'o';
            if (c == '1' || c == 'i') c = 'l';
            token += c;
        }
        if (!token.empty()) out.push_back(token);
        word.clear();
    };
    each_char(for_tokens(text), [&](UChar32 c) {
        // A dash parts tokens as a space does ("α-Divergence": OCR reads the α as "a", which must
        // not stand in front of "divergence" as a prefix would); a lone letter of another script
        // is still judged in the whole word ("Mонтe-Kapлo").
        if (c == ' ') return flush();
        if (u_hasBinaryProperty(c, UCHAR_DASH)) word += U' ';
        if (u_isalnum(c)) word += static_cast<char32_t>(c);  // punctuation, symbols: OCR reads them unreliably
    });
    flush();
    return out;
}

std::vector<UScriptCode> scripts_of(const std::string& text) {
    std::vector<UScriptCode> out;
    std::vector<std::pair<UScriptCode, int>> word;  // letters of each script in the word
    auto flush = [&] {
        for (const auto& [script, letters] : word)
            if ((letters >= 2 || written_without_spaces(script)) &&
                std::find(out.begin(), out.end(), script) == out.end())
                out.push_back(script);
        word.clear();
    };
    each_char(title::normalise(text), [&](UChar32 c) {
        if (c == ' ') return flush();
        const UScriptCode s = script_of(c);
        if (!u_isalpha(c) || s == USCRIPT_COMMON || s == USCRIPT_INHERITED) return;
        auto it = std::find_if(word.begin(), word.end(), [&](const auto& p) { return p.first == s; });
        if (it == word.end()) word.push_back({s, 1});
        else ++it->second;
    });
    flush();
    return out;
}

std::string utf8(const std::u32string& s) {
    std::string out;
    for (char32_t c : s) {
        char buf[4];
        int32_t n = 0;
        UBool error = false;
        U8_APPEND(buf, n, 4, static_cast<UChar32>(c), error);
        if (!error) out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
}

double kth(std::vector<double> values, std::size_t k) {
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return values[k];
}

}  // namespace pith::page::pixels
