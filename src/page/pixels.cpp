// SPDX-License-Identifier: MIT
#include "page/pixels.hpp"

#include "core/edit_distance.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/reply.hpp"
#include "ocr/ocr_abi.h"
#include "page/poppler_module.hpp"
#include "page/signs.hpp"
#include "page/title.hpp"
#include "poppler/page_region_abi.h"

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

namespace pith::pixels {

namespace {

// ---------------------------------------------------------------- reading (child side)

struct Rendering {
    const std::function<void(std::size_t, Image)>* rendered;
    std::exception_ptr failed;  // thrown by `rendered`, for render_regions() to throw
};

void on_pixels(void* context, int k, const PithRegionPixels* p) {
    auto* c = static_cast<Rendering*>(context);
    Image image;
    image.columns = p->rendered ? p->columns : 0;  // cut short: says nothing
    image.rows = p->rows;
    image.dpi = p->dpi;
    image.x0 = p->x0;
    image.y0 = p->y0;
    image.rgb.assign(p->rgb, p->rgb + static_cast<std::size_t>(p->columns) * p->rows * 3);
    try {
        (*c->rendered)(static_cast<std::size_t>(k), std::move(image));
    } catch (...) {
        if (!c->failed) c->failed = std::current_exception();
    }
}

// One thread for OpenMP: the reading is small, and OpenMP's pool costs more than it gains on 2
// cores. libgomp reads it when pith-ocr.so loads it, so it is set before, and before pith starts
// a thread that may load it (setenv() must not race a getenv()).
void one_openmp_thread() { ::setenv("OMP_THREAD_LIMIT", "1", 0); }

struct OcrContext {
    const Image* image;
    std::vector<OcrWord>* words;
    int pass;
};

void on_word(void* context, const PithOcrWord* w) {
    auto* c = static_cast<OcrContext*>(context);
    const double scale = 72 / c->image->dpi;
    OcrWord o;
    o.text.assign(w->text, w->text_size);
    o.x0 = c->image->x0 + w->x0 * scale;
    o.y0 = c->image->y0 + w->y0 * scale;
    o.x1 = c->image->x0 + w->x1 * scale;
    o.y1 = c->image->y0 + w->y1 * scale;
    o.confidence = w->confidence;
    o.pass = c->pass;
    c->words->push_back(std::move(o));
}

// ---------------------------------------------------------------- encoding
// "pith-pixels 1 <read> <columns> <rows> <dpi> <x0> <y0> <row0> <words> <why bytes>\n<why><rgb>", then
// per word "<x0> <y0> <x1> <y1> <confidence> <pass> <text bytes>\n<text>\n". Numbers as hex floats.

using reply::put_number;
using reply::Reply;

// ---------------------------------------------------------------- comparing

// A word as compared: its letters and digits, case folded, accents dropped (title::normalise),
// with the characters OCR confuses folded together (0/o, 1/i/l, ß/B, Latin and Cyrillic or Greek
// letters of one shape). A script written without spaces gives a token per character.
struct Token {
    std::u32string text;
    const OcrWord* ocr = nullptr;  // the OCR word it comes from, for OCR tokens
    bool restored = false;         // its first letter put back (restore_initials()): not read, so never exact
};

UScriptCode script_of(UChar32 c) {
    UErrorCode status = U_ZERO_ERROR;
    const UScriptCode s = uscript_getScript(c, &status);
    return U_SUCCESS(status) ? s : USCRIPT_UNKNOWN;
}

// Scripts written without spaces between words (Hangul is spaced).
bool spaceless(UScriptCode s) {
    return s == USCRIPT_HAN || s == USCRIPT_HIRAGANA || s == USCRIPT_KATAKANA || s == USCRIPT_THAI || s == USCRIPT_LAO ||
           s == USCRIPT_KHMER || s == USCRIPT_MYANMAR;
}
bool spaceless(const std::u32string& token) { return token.size() == 1 && spaceless(script_of(static_cast<UChar32>(token[0]))); }

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

// Calls f(c) for each code point of `text` and f(' ') between words.
template <typename F>
void each_char(const std::string& norm, F f) {
    for (int32_t i = 0; i < static_cast<int32_t>(norm.size());) {
        UChar32 c;
        U8_NEXT(norm.data(), i, static_cast<int32_t>(norm.size()), c);
        if (c >= 0) f(u_isspace(c) ? UChar32{' '} : c);
    }
}

// A letter of a script other than Latin that stands alone in its word: a formula's (α, σ²), which
// OCR reads as a Latin letter or not at all.
bool lone_letter(const std::u32string& word, char32_t c) {
    const UScriptCode s = script_of(static_cast<UChar32>(c));
    if (s == USCRIPT_LATIN || s == USCRIPT_COMMON || s == USCRIPT_INHERITED || spaceless(s) || !u_isalpha(static_cast<UChar32>(c)))
        return false;
    return std::count_if(word.begin(), word.end(), [&](char32_t d) { return u_isalpha(static_cast<UChar32>(d)) && script_of(static_cast<UChar32>(d)) == s; }) < 2;
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
            if (spaceless(script_of(static_cast<UChar32>(c)))) {
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

// The scripts `text` is written in, in order: those with a word of two letters or more (a lone
// Greek letter is a formula's), or one letter of a script written without spaces.
std::vector<UScriptCode> scripts_of(const std::string& text) {
    std::vector<UScriptCode> out;
    std::vector<std::pair<UScriptCode, int>> word;  // letters of each script in the word
    auto flush = [&] {
        for (const auto& [script, letters] : word)
            if ((letters >= 2 || spaceless(script)) && std::find(out.begin(), out.end(), script) == out.end()) out.push_back(script);
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

// Tesseract's languages, with the script they read and the Debian package of their data
// (.ci/packages.txt installs all but Thai).
struct OcrLanguage {
    UScriptCode script;
    const char* code;
    const char* name;
    const char* package;
};
constexpr OcrLanguage kOcrLanguages[] = {
    {USCRIPT_LATIN, "eng", "Latin", "tesseract-ocr-eng"},
    {USCRIPT_HAN, "chi_sim", "Han (simplified)", "tesseract-ocr-chi-sim"},  // and chi_tra, read apart (languages_for())
    {USCRIPT_HAN, "chi_tra", "Han (traditional)", "tesseract-ocr-chi-tra"},
    {USCRIPT_HIRAGANA, "jpn", "Japanese", "tesseract-ocr-jpn"},
    {USCRIPT_KATAKANA, "jpn", "Japanese", "tesseract-ocr-jpn"},
    {USCRIPT_HANGUL, "kor", "Hangul", "tesseract-ocr-kor"},
    {USCRIPT_CYRILLIC, "rus", "Cyrillic", "tesseract-ocr-rus"},
    {USCRIPT_GREEK, "ell", "Greek", "tesseract-ocr-ell"},
    {USCRIPT_ARABIC, "ara", "Arabic", "tesseract-ocr-ara"},
    {USCRIPT_HEBREW, "heb", "Hebrew", "tesseract-ocr-heb"},
    {USCRIPT_DEVANAGARI, "hin", "Devanagari", "tesseract-ocr-hin"},
    {USCRIPT_THAI, "tha", "Thai", "tesseract-ocr-tha"},
};

// "Arabic (ara): install the Debian package tesseract-ocr-ara" for the languages of "a+b" that
// do not load alone.
std::string missing_data(PithOcrInitFn init, const std::string& languages) {
    std::string what, packages;
    std::size_t count = 0;
    for (std::size_t at = 0; at <= languages.size();) {
        const std::size_t end = std::min(languages.find_first_of("+ ", at), languages.size());
        const std::string code = languages.substr(at, end - at);
        at = end + 1;
        if (init(code.c_str())) continue;
        const auto l = std::find_if(std::begin(kOcrLanguages), std::end(kOcrLanguages), [&](const auto& o) { return code == o.code; });
        what += (what.empty() ? "" : ", ") + (l == std::end(kOcrLanguages) ? code : std::string(l->name) + " (" + code + ")");
        packages += (packages.empty() ? "" : " ") + (l == std::end(kOcrLanguages) ? "tesseract-ocr-" + code : std::string(l->package));
        ++count;
    }
    if (what.empty()) return "Tesseract does not start with " + languages;
    return "Tesseract has no data for " + what + ": install the Debian package" + (count > 1 ? "s " : " ") + packages;
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

// OCR's character errors tolerated: one in five characters (none in a word of 1-3).
std::size_t allowed_errors(std::size_t length) { return (length + 1) / 5; }

// Whether OCR's letters `o` can be a misreading of the title's `t`: at most `allowed` edits,
// lengths within one of each other, and no letter added or dropped in front. A prefix makes
// another word ("possible" drawn as "impossible", "typical" as "atypical"), a misreading rarely.
bool misread(const std::u32string& t, const std::u32string& o, std::size_t allowed) {
    if (edit_distance(t, o) > allowed) return false;
    if (t.size() == o.size()) return true;
    return std::max(t.size(), o.size()) - std::min(t.size(), o.size()) == 1 && !t.empty() && !o.empty() && t.front() == o.front();
}

// TeX's logos in a word as tokens_of() gives it ("tex", "latex", "luatex", "tex2e", "enctex"): OCR
// reads the letters they raise or lower from the baseline (the A of LaTeX, the E of TeX) as other
// letters or not at all ("LuaTX", "IATRX", "TrEX"). A logo stands for its own letters only: every
// other letter must be read exactly, and a moved letter as itself, as at most two consonants or
// not at all; never as a vowel, which would make a word of it ("TeX" drawn as "Tax").
bool consonant(char32_t c) {
    return c >= U'b' && c <= U'z' && std::u32string_view(U"eiouy").find(c) == std::u32string_view::npos;
}

// Whether `read` gives `title` from `i` on; `moved`: title's positions that are a logo's moved letter.
bool reads_as(const std::u32string& title, const std::vector<bool>& moved, std::size_t i, std::u32string_view read) {
    if (i == title.size()) return read.empty();
    if (!moved[i]) return !read.empty() && read.front() == title[i] && reads_as(title, moved, i + 1, read.substr(1));
    if (reads_as(title, moved, i + 1, read)) return true;  // not read at all
    for (std::size_t n = 1; n <= 2 && n <= read.size(); ++n) {
        const auto letter = [&](char32_t c) { return c == title[i] || consonant(c); };
        const bool letters = std::all_of(read.begin(), read.begin() + static_cast<std::ptrdiff_t>(n), letter);
        if (letters && reads_as(title, moved, i + 1, read.substr(n))) return true;
    }
    return false;
}

// Whether `read` is OCR's reading of `title`, a word with a TeX logo in it.
bool logo_reading(const std::u32string& title, const std::u32string& read) {
    std::vector<bool> moved(title.size(), false);
    bool logo = false;
    for (std::size_t at = title.find(U"tex"); at != std::u32string::npos; at = title.find(U"tex", at + 3)) {
        moved[at + 1] = logo = true;  // TeX's E
        if (at >= 2 && title.compare(at - 2, 2, U"la") == 0) moved[at - 1] = true;  // LaTeX's A
    }
    return logo && reads_as(title, moved, 0, read);
}

// A word that counts: two characters or more (a lone letter or digit can be a speck or a
// footnote mark, and changes no title into another), or a character of a script written
// without spaces (one Han character can be a word).
bool counts(const std::u32string& t) { return t.size() >= 2 || spaceless(t); }

// A word of the title that must be shown: one that counts, or a digit alone (one digit makes
// another number: "GPT-3", "GPT-4"; tokens_of() has folded 0 and 1 into o and l).
bool must_show(const std::u32string& t) {
    return counts(t) || (t.size() == 1 && (u_isdigit(static_cast<UChar32>(t[0])) || t[0] == U'o' || t[0] == U'l'));
}

// Letters as the "mostly formula" and outranking rules count them: a character of a script
// written without spaces counts as two (a two-character Chinese title is a title).
std::size_t letters_of(const std::string& text) {
    std::size_t n = 0;
    for (const auto& token : tokens_of(text)) n += spaceless(token) ? 2 : token.size();
    return n;
}

// Title tokens aligned with the OCR tokens read where the title stands, to place each word:
// groups of 1-3 title tokens against 1-3 OCR tokens (OCR splits and joins words inside formulas:
// "O(n logn)") are placed together when their letters agree within allowed_errors(); the
// alignment leaves as few counting tokens unplaced as it can. Characters of scripts written
// without spaces are tokens of their own, placed only when equal; between two placed, one
// character misread, dropped or added (allowed_errors() of the title's characters, never two side
// by side) is placed as in a word. A token placed within tolerance is not confirmed: only `exact`
// ones are (judge()).
struct Alignment {
    std::vector<std::u32string> missing;  // title tokens the pixels do not show
    std::vector<std::u32string> extra;    // OCR tokens the title does not have
    std::size_t matched = 0;              // counting title tokens matched
    std::size_t title = 0;                // title tokens
    // Title tokens (by index) this reading gives exactly, up to what tokens_of() folds: the only
    // confirmation of a word, as one letter can make another ("increases", "decreases").
    std::vector<bool> exact;
    // Title tokens matched only within OCR's tolerance, each with what OCR read there.
    std::vector<std::pair<std::u32string, std::u32string>> inexact;
    std::size_t added = 0;  // characters of a script without spaces read where the title has none, tolerated
    std::size_t differences() const { return missing.size() + extra.size(); }
};

// One move of the alignment: `a` title tokens from `i` against `b` OCR tokens from `j` (0: skipped).
struct Step {
    std::size_t i = 0, j = 0;
    int a = 0, b = 0;
};

double skip_cost(const std::u32string& s, double confidence) { return counts(s) && confidence >= kMinConfidence ? 1.0 : 0.01; }
constexpr double kInexactCost = 0.02;
double confidence_of(const Token& o) { return o.ocr ? o.ocr->confidence : 100; }

std::vector<Step> best_steps(const std::vector<std::u32string>& t, const std::vector<Token>& o) {
    const std::size_t n = t.size(), m = o.size();
    constexpr double kInf = std::numeric_limits<double>::infinity();
    struct Cell {
        double cost = kInf;
        int a = 0, b = 0;  // the move that reached it
    };
    std::vector<std::vector<Cell>> dp(n + 1, std::vector<Cell>(m + 1));
    dp[0][0].cost = 0;
    for (std::size_t i = 0; i <= n; ++i)
        for (std::size_t j = 0; j <= m; ++j) {
            const double here = dp[i][j].cost;
            if (here == kInf) continue;
            auto relax = [&](std::size_t ni, std::size_t nj, double cost, int a, int b) {
                if (here + cost < dp[ni][nj].cost) dp[ni][nj] = {here + cost, a, b};
            };
            if (i < n) relax(i + 1, j, must_show(t[i]) ? 1.0 : 0.01, 1, 0);
            if (j < m) relax(i, j + 1, skip_cost(o[j].text, confidence_of(o[j])), 0, 1);
            std::u32string tt;
            for (std::size_t a = 1; a <= 3 && i + a <= n; ++a) {
                tt += t[i + a - 1];
                std::u32string oo;
                for (std::size_t b = 1; b <= 3 && j + b <= m; ++b) {
                    oo += o[j + b - 1].text;
                    if (a == b && a > 1) continue;  // no split or join: word by word, each with its own allowance
                    // A split or join is no error in itself; at most one error in it (two words
                    // each misread must not pass as one).
                    const std::size_t allowed = a == 1 && b == 1 ? allowed_errors(std::max(tt.size(), oo.size()))
                                                                 : std::min<std::size_t>(1, allowed_errors(std::min(tt.size(), oo.size())));
                    // An exact reading is preferred to one within tolerance, which costs a little
                    // more than a speck skipped (a speck joined to a word must not spoil it).
                    if (misread(tt, oo, allowed))
                        relax(i + a, j + b, tt == oo ? 0 : kInexactCost, static_cast<int>(a), static_cast<int>(b));
                }
            }
        }
    std::vector<Step> steps;
    for (std::size_t i = n, j = m; i > 0 || j > 0;) {
        const Cell& c = dp[i][j];
        i -= c.a;
        j -= c.b;
        steps.push_back({i, j, c.a, c.b});
    }
    std::reverse(steps.begin(), steps.end());
    return steps;
}

Alignment align(const std::vector<std::u32string>& t, const std::vector<Token>& o) {
    const std::vector<Step> steps = best_steps(t, o);
    std::size_t characters = 0;
    for (const auto& token : t) characters += spaceless(token);
    std::size_t tolerated = allowed_errors(characters);
    Alignment out;
    out.title = t.size();
    out.exact.resize(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) out.exact[i] = !must_show(t[i]);  // a lone letter: nothing to confirm
    for (std::size_t k = 0; k < steps.size();) {
        const Step& s = steps[k];
        if (s.a > 0 && s.b > 0) {
            std::u32string title_letters, read_letters;
            bool restored = false;
            for (int x = 0; x < s.a; ++x) out.matched += counts(t[s.i + x]), title_letters += t[s.i + x];
            for (int x = 0; x < s.b; ++x) read_letters += o[s.j + x].text, restored = restored || o[s.j + x].restored;
            const bool same = title_letters == read_letters || logo_reading(title_letters, read_letters);
            const bool exact = same && !restored;
            for (int x = 0; x < s.a; ++x) out.exact[s.i + x] = exact || !must_show(t[s.i + x]);
            if (!exact) out.inexact.emplace_back(title_letters, read_letters);
            ++k;
            continue;
        }
        // A gap: the run of skipped tokens up to the next match.
        std::vector<std::u32string> missing, extra;
        for (; k < steps.size() && !(steps[k].a > 0 && steps[k].b > 0); ++k) {
            if (steps[k].a > 0 && must_show(t[steps[k].i])) missing.push_back(t[steps[k].i]);
            if (steps[k].b > 0 && skip_cost(o[steps[k].j].text, confidence_of(o[steps[k].j])) >= 1) extra.push_back(o[steps[k].j].text);
        }
        const bool one_character = missing.size() + extra.size() > 0 && missing.size() <= 1 && extra.size() <= 1 &&
                                   std::all_of(missing.begin(), missing.end(), [](const auto& x) { return spaceless(x); }) &&
                                   std::all_of(extra.begin(), extra.end(), [](const auto& x) { return spaceless(x); });
        if (one_character && tolerated > 0) {  // the character is not confirmed (exact stays false)
            --tolerated;
            out.inexact.emplace_back(missing.empty() ? U"" : missing.front(), extra.empty() ? U"" : extra.front());
            out.added += missing.empty();
            continue;
        }
        out.missing.insert(out.missing.end(), missing.begin(), missing.end());
        out.extra.insert(out.extra.end(), extra.begin(), extra.end());
    }
    return out;
}

std::string quoted_list(const std::vector<std::u32string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "\"" : ", \"") + utf8(w) + "\"";
    return out;
}

std::string one_decimal(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// sRGB channel to linear light (WCAG 2).
double linear(int c) {
    const double s = c / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
}

double luminance(const unsigned char* p) {
    static const std::vector<double> table = [] {
        std::vector<double> t(256);
        for (int c = 0; c < 256; ++c) t[c] = linear(c);
        return t;
    }();
    return 0.2126 * table[p[0]] + 0.7152 * table[p[1]] + 0.0722 * table[p[2]];
}

double ratio(double a, double b) { return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05); }

// OCR's words in reading order: lines from the top (words whose middles lie within half a line
// of each other), each from the left. Sparse-text segmentation gives them block by block.
template <typename W>
std::vector<W> reading_order(std::vector<W> words, double line) {
    auto middle = [](const W& w) { return (w.y0 + w.y1) / 2; };
    std::stable_sort(words.begin(), words.end(), [&](const W& a, const W& b) { return middle(a) < middle(b); });
    for (std::size_t start = 0; start < words.size();) {
        std::size_t end = start + 1;
        while (end < words.size() && middle(words[end]) - middle(words[start]) < line / 2) ++end;
        std::stable_sort(words.begin() + static_cast<std::ptrdiff_t>(start), words.begin() + static_cast<std::ptrdiff_t>(end),
                         [](const W& a, const W& b) { return a.x0 < b.x0; });
        start = end;
    }
    return words;
}

// The k-th smallest of `values` (0 the smallest; k < values.size()): a median, a percentile.
double kth(std::vector<double> values, std::size_t k) {
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return values[k];
}

// Whether an OCR word's middle lies on a text-layer word (its box, `margin` points around it).
bool over(const OcrWord& o, const visible::Word& w, double margin = 2) {
    const double cx = (o.x0 + o.x1) / 2, cy = (o.y0 + o.y1) / 2;
    return cx >= w.x0 - margin && cx <= w.x1 + margin && cy >= w.y0 - margin && cy <= w.y1 + margin;
}

}  // namespace

// ---------------------------------------------------------------- public

std::size_t edit_distance(std::u32string_view a, std::u32string_view b) { return pith::edit_distance(a, b); }

namespace {

// The pixels of `image` that the box x0..x1, y0..y1 (points) with `margin` (points) touches, in
// the render's rows and columns, within those `image` holds.
struct PixelBox {
    int c0, r0, c1, r1;
};
PixelBox box_of(const Image& image, double x0, double y0, double x1, double y1, double margin) {
    const double scale = image.dpi / 72;
    return {std::clamp(static_cast<int>(std::floor((x0 - margin - image.x0) * scale)), 0, image.columns),
            std::clamp(static_cast<int>(std::floor((y0 - margin - image.y0) * scale)), image.row0, image.row0 + image.rows),
            std::clamp(static_cast<int>(std::ceil((x1 + margin - image.x0) * scale)), 0, image.columns),
            std::clamp(static_cast<int>(std::ceil((y1 + margin - image.y0) * scale)), image.row0, image.row0 + image.rows)};
}

}  // namespace


Image around(Image image, const std::vector<visible::Word>& words) {
    if (image.columns <= 0 || image.rows <= 0 || !(image.dpi > 0) || words.empty()) return image;
    int r0 = image.row0 + image.rows, r1 = image.row0;
    for (const auto& w : words) {
        const PixelBox b = box_of(image, w.x0, w.y0, w.x1, w.y1, (w.y1 - w.y0) / 3);  // contrast()'s larger box
        r0 = std::min(r0, b.r0), r1 = std::max(r1, b.r1);
    }
    if (r1 <= r0) r0 = r1 = image.row0;
    const std::size_t row = static_cast<std::size_t>(image.columns) * 3;
    image.rgb.erase(image.rgb.begin() + static_cast<std::ptrdiff_t>((r1 - image.row0) * row), image.rgb.end());
    image.rgb.erase(image.rgb.begin(), image.rgb.begin() + static_cast<std::ptrdiff_t>((r0 - image.row0) * row));
    image.rows = r1 - r0;
    image.row0 = r0;
    return image;
}

double contrast(const Image& image, double x0, double y0, double x1, double y1) {
    if (image.columns <= 0 || image.rows <= 0 || !(image.dpi > 0)) return 1;
    auto at = [&](int r, int c) { return image.rgb.data() + (static_cast<std::size_t>(r - image.row0) * image.columns + c) * 3; };
    // Background: the commonest luminance (of 256 levels) in the box and a margin of a third of its height.
    const PixelBox outer = box_of(image, x0, y0, x1, y1, (y1 - y0) / 3);
    std::vector<long> histogram(256);
    for (int r = outer.r0; r < outer.r1; ++r)
        for (int c = outer.c0; c < outer.c1; ++c) ++histogram[std::min(255, static_cast<int>(luminance(at(r, c)) * 255 + 0.5))];
    const double background = (std::max_element(histogram.begin(), histogram.end()) - histogram.begin()) / 255.0;
    // Glyphs: the pixels of the box itself that differ from the background at all.
    const PixelBox inner = box_of(image, x0, y0, x1, y1, 0);
    std::vector<double> ink;
    for (int r = inner.r0; r < inner.r1; ++r)
        for (int c = inner.c0; c < inner.c1; ++c)
            if (const double k = ratio(luminance(at(r, c)), background); k >= 1.02) ink.push_back(k);
    if (ink.empty()) return 1;
    const std::size_t at90 = ink.size() * 9 / 10;
    return kth(std::move(ink), at90);
}

std::vector<visible::Word> TitleWords::all() const {
    std::vector<visible::Word> out = read;
    out.insert(out.end(), unread.begin(), unread.end());
    return out;
}

TitleWords title_words(const visible::Page& page, std::pair<std::size_t, std::size_t> span, const std::vector<std::size_t>& unread) {
    TitleWords out;
    for (std::size_t i = span.first; i <= span.second && i < page.words.size(); ++i)
        (std::find(unread.begin(), unread.end(), i) == unread.end() ? out.read : out.unread).push_back(page.words[i]);
    for (const visible::Word& w : page.words)
        if (w.visible) (title::badge_word(w) ? out.badge : out.page).push_back(w);
    return out;
}

Region region_for(const visible::Page& page, const std::vector<visible::Word>& title) {
    Region r;
    if (title.empty()) return r;
    std::vector<double> sizes;
    double bottom = 0, height = 0;
    for (const auto& w : title) {
        sizes.push_back(w.size);
        bottom = std::max(bottom, w.y1);
        height = std::max(height, w.y1 - w.y0);
    }
    const double size = std::max(1.0, kth(sizes, sizes.size() / 2));
    r.x0 = 0;
    r.x1 = page.width;
    r.y0 = 0;
    r.y1 = std::min(page.height, bottom + 1.5 * height);  // the next line whole: OCR reads half a line as junk
    r.dpi = std::clamp(kXHeightPixels / (0.45 * size) * 72, kMinDpi, kMaxDpi);
    r.rest_y0 = bottom;
    r.page_height = page.height;
    r.rest_dpi = std::clamp(kRestXHeightPixels / (0.45 * size) * 72, kRestMinDpi, kRestMaxDpi);
    r.rest_line = 0.9 * size;  // a line's box in type `size`: ascenders to descenders
    return r;
}

// The engines of Languages::tesseract ("chi_sim chi_tra+eng": two).
std::vector<std::string> engines_of(const std::string& tesseract) {
    std::vector<std::string> out;
    for (std::size_t at = 0; at < tesseract.size();) {
        const std::size_t end = std::min(tesseract.find(' ', at), tesseract.size());
        if (end > at) out.push_back(tesseract.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

Languages languages_for(const std::vector<visible::Word>& title) {
    // Tesseract reads lines across the image; a page turned after the title was set (qpdf
    // --rotate, a viewer's "rotate and save") shows it down the page, which it reads as junk.
    if (std::any_of(title.begin(), title.end(), [](const visible::Word& w) { return w.rotation != 0; }))
        return {"", "the title runs sideways on the page as it is shown (turned after it was set), which pith's OCR does not read"};
    std::vector<UScriptCode> scripts;
    for (const auto& w : title)
        for (UScriptCode s : scripts_of(w.text))
            if (std::find(scripts.begin(), scripts.end(), s) == scripts.end()) scripts.push_back(s);
    // Japanese: kana with Han characters (kanji), which jpn reads.
    const bool kana = std::any_of(scripts.begin(), scripts.end(), [](UScriptCode s) { return s == USCRIPT_HIRAGANA || s == USCRIPT_KATAKANA; });
    std::vector<std::string> codes;
    bool latin = false;
    for (UScriptCode s : scripts) {
        if (s == USCRIPT_LATIN) {
            latin = true;
            continue;
        }
        bool known = false;
        for (const OcrLanguage& l : kOcrLanguages) {
            const std::string code = kana && s == USCRIPT_HAN ? "jpn" : l.code;
            if (l.script != s) continue;
            known = true;
            if (std::find(codes.begin(), codes.end(), code) == codes.end()) codes.push_back(code);
        }
        if (!known) return {"", std::string("the title is written in ") + uscript_getName(s) + ", for which pith knows no OCR language"};
    }
    if (codes.empty()) return {kLatin, ""};
    if (latin) codes.push_back(kLatin);
    // Han's two models apart: the engine's languages with chi_sim, then with chi_tra.
    auto joined = [&](const char* han) {
        std::string out;
        for (const auto& c : codes)
            if (c != "chi_tra") out += (out.empty() ? "" : "+") + (c == "chi_sim" ? std::string(han) : c);
        return out;
    };
    std::string out = joined("chi_sim");
    if (std::find(codes.begin(), codes.end(), "chi_sim") != codes.end()) out += " " + joined("chi_tra");
    const bool han = std::any_of(scripts.begin(), scripts.end(), [](UScriptCode s) { return s == USCRIPT_HAN || s == USCRIPT_HIRAGANA || s == USCRIPT_KATAKANA; });
    return {out, "", han ? 0.75 : 1};
}

std::string preload(const std::string& languages) {
    static std::mutex mutex;
    static std::map<std::string, std::string> started;  // languages -> why not ("": ready)
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = started.find(languages); it != started.end()) return it->second;
    std::string& why = started[languages];
#if PITH_TEST_HOOKS
    if (std::getenv("PITH_TEST_NO_OCR")) return why = "no OCR here (PITH_TEST_NO_OCR)";  // test hook: Tesseract missing
#endif
    one_openmp_thread();
    try {
        const auto init = reinterpret_cast<PithOcrInitFn>(poppler_module::symbol(PITH_OCR_INIT_SYMBOL, "pith-ocr.so"));
        if (!init(languages.c_str())) why = missing_data(init, languages);
    } catch (const Error& e) {
        why = e.what();
    }
    return why;
}

void render_regions(std::string_view pdf, int index, const std::string& password, const std::vector<Slice>& slices,
                    const std::function<void(std::size_t, Image)>& rendered) {
    static const auto render = reinterpret_cast<PithPageRegionsFn>(poppler_module::symbol(PITH_PAGE_REGIONS_SYMBOL));
    std::vector<PithRegion> regions;
    for (const Slice& s : slices) regions.push_back({s.x0, s.y0, s.x1, s.y1, s.dpi});
    Rendering c{&rendered, nullptr};
    (void)render(pdf.data(), pdf.size(), index, password.c_str(), regions.data(), static_cast<int>(regions.size()), kRenderSeconds,
                 &on_pixels, &c);
    if (c.failed) std::rethrow_exception(c.failed);
}

Image render_region(std::string_view pdf, int index, const std::string& password, double x0, double y0, double x1, double y1,
                    double dpi) {
    Image out;
    render_regions(pdf, index, password, {{x0, y0, x1, y1, dpi}}, [&](std::size_t, Image image) { out = std::move(image); });
    return out;
}

void preload_readers() {
    try {
        visible::preload();
    } catch (const Error&) {  // each file then says why its page was not read
    }
    (void)preload();
}

namespace {

// The lines of the page below the title (`rest`, Region::rest_*) that stand as tall as a line in
// the title's type, found by layout analysis alone; nullopt when there is no telling.
std::optional<std::vector<PithOcrLine>> tall_lines(const Image& rest, const Region& region) {
    if (rest.columns <= 0) return std::nullopt;
    PithOcrTallLinesFn find = nullptr;
    try {
        find = reinterpret_cast<PithOcrTallLinesFn>(poppler_module::symbol(PITH_OCR_TALL_LINES_SYMBOL, "pith-ocr.so"));
    } catch (const Error&) {  // preload() says why, where the engine starts
        return std::nullopt;
    }
    std::vector<PithOcrLine> lines;
    const int min_height = static_cast<int>(std::floor(region.rest_line * rest.dpi / 72));
    const auto on_line = [](void* context, const PithOcrLine* line) { static_cast<std::vector<PithOcrLine>*>(context)->push_back(*line); };
    if (find(rest.rgb.data(), rest.columns, rest.rows, static_cast<int>(std::lround(rest.dpi)), min_height, on_line, &lines) != 1)
        return std::nullopt;
    return lines;
}

// Those lines read by `engine`, as words of pass kPassBelow; a page that cannot be read there
// fails the reading.
void read_rest(const Image& rest, const std::optional<std::vector<PithOcrLine>>& lines, const std::string& engine, Reading& r) {
    static const auto read_lines = reinterpret_cast<PithOcrLinesFn>(poppler_module::symbol(PITH_OCR_LINES_SYMBOL, "pith-ocr.so"));
    if (rest.columns <= 0) {
        r.read = false, r.why = "the page below the title was not rendered";
        return;
    }
    if (lines && lines->empty()) return;  // the common case: nothing below as tall as the title's type
    OcrContext c{&rest, &r.words, kPassBelow};
    if (!lines || read_lines(engine.c_str(), rest.rgb.data(), rest.columns, rest.rows, static_cast<int>(std::lround(rest.dpi)),
                             lines->data(), static_cast<int>(lines->size()), &on_word, &c) != 1)
        r.read = false, r.why = "Tesseract could not read the page below the title";
}

// Latin letters Tesseract's English model misreads ("Erdés" for "Erdős", "Strafe" for "Straße"),
// each with a language whose data reads it (Debian's tesseract-ocr-LANG, .ci/packages.txt).
struct LetterLanguage {
    std::u32string_view letters;  // small letters; a capital is folded to its small one
    const char* code;
};
constexpr LetterLanguage kLetterLanguages[] = {
    {U"äöüß", "deu"}, {U"őű", "hun"}, {U"àâæçèéêëîïôœùûÿ", "fra"}, {U"áíñóú", "spa"}, {U"åø", "dan"},
    {U"ðþ", "isl"}, {U"čďěňřšťůž", "ces"}, {U"ąćęłńśźż", "pol"}, {U"ãõ", "por"}, {U"ğış", "tur"},
    {U"ăîșțş", "ron"},
};

// The languages of kLetterLanguages the title's letters call for, in the table's order.
std::vector<std::string> letter_languages(const std::vector<visible::Word>& title) {
    std::u32string letters;
    for (const visible::Word& w : title)
        each_char(w.text, [&](UChar32 c) { letters += static_cast<char32_t>(u_tolower(c)); });
    std::vector<std::string> out;
    for (const LetterLanguage& l : kLetterLanguages)
        if (letters.find_first_of(l.letters) != std::u32string::npos) out.push_back(l.code);
    return out;
}

using Box = std::array<double, 4>;  // points: x0, y0, x1, y1

// The box of `w` read alone: little to the sides (a word alone, not the edge of a picture it
// touches); `tight`: never past the middle of the gap to a neighbour on its line in `title` (a
// formula's pieces set without a space: ℓ and its subscript 1, which OCR reads together as "L").
Box alone(const visible::Word& w, const std::vector<visible::Word>& title, bool tight) {
    const double pad = 0.3 * (w.y1 - w.y0);
    double left = pad / 2, right = pad / 2;
    for (const visible::Word& n : title) {
        if (!tight || &n == &w || n.y1 <= w.y0 || n.y0 >= w.y1) continue;
        if (n.x1 <= w.x0 + 0.5) left = std::min(left, std::max(0.0, w.x0 - n.x1) / 2);
        if (n.x0 >= w.x1 - 0.5) right = std::min(right, std::max(0.0, n.x0 - w.x1) / 2);
    }
    return {w.x0 - left, w.y0 - pad, w.x1 + right, w.y1 + pad};
}

// Each relation sign of `title` that OCR has no character for, set as a word of its own, read
// from its strokes in `image` (signs.hpp): words of pass kPassStrokes.
void read_strokes(const Image& image, const std::vector<visible::Word>& title, Reading& r) {
    for (const visible::Word& w : sign_words(title)) {
        const std::u32string sign = signs_and_digits(w.text, false);
        if (sign.size() != 1 || ocr_reads(sign[0]) || !tokens_of(w.text).empty()) continue;
        const double pad = 0.1 * (w.y1 - w.y0);
        if (const char32_t drawn = sign_drawn(image, w.x0 - pad, w.y0 - pad, w.x1 + pad, w.y1 + pad))
            r.words.push_back({utf8(std::u32string(1, drawn)), w.x0, w.y0, w.x1, w.y1, 100, kPassStrokes});
    }
}

// The title's lines and words, read closer: rendered again at kCloserScale times `dpi` (only
// their band of the page), each line read alone (kPassCloser + k) and each word read alone
// (kPassAlone + k) by reader k: the title's engines, then the language data its letters call for
// (letter_languages()), so that a word OCR misread in the title block is read at a size, in a
// mode and with data where a misreading is rarer. Language data not installed is not read: its
// words stay unconfirmed. A relation sign OCR has no character for is read from its strokes.
void read_closer(std::string_view pdf, int index, const std::string& password, const Region& region, double dpi,
                 const std::vector<visible::Word>& title, const std::vector<std::string>& engines, Reading& r) {
    static const auto read_lines =
        reinterpret_cast<PithOcrLinesFn>(poppler_module::symbol(PITH_OCR_LINES_SYMBOL, "pith-ocr.so"));
    std::vector<Box> lines, words, tight;  // tight: the words with a neighbour in their margin
    for (const visible::Word& w : title) {
        const bool joins = !lines.empty() && (w.y0 + w.y1) / 2 > lines.back()[1] && (w.y0 + w.y1) / 2 < lines.back()[3];
        if (!joins) lines.push_back({w.x0, w.y0, w.x1, w.y1});
        Box& l = lines.back();
        l = {std::min(l[0], w.x0), std::min(l[1], w.y0), std::max(l[2], w.x1), std::max(l[3], w.y1)};
        words.push_back(alone(w, title, false));
        if (const Box b = alone(w, title, true); b != words.back()) tight.push_back(b);
    }
    if (lines.empty()) return;
    double top = 1e300, bottom = -1e300;
    for (Box& l : lines) {
        const double pad = 0.35 * (l[3] - l[1]);
        l = {l[0] - 2 * pad, l[1] - pad, l[2] + 2 * pad, l[3] + pad};
        top = std::min(top, l[1]), bottom = std::max(bottom, l[3]);
    }
    const double closer = std::min(kMaxCloserDpi, kCloserScale * dpi);
    const Image image =
        render_region(pdf, index, password, region.x0, std::max(region.y0, top), region.x1, bottom, closer);
    if (image.columns <= 0) return;
    const auto pixels = [&](const std::vector<Box>& boxes) {
        const double px = image.dpi / 72;
        std::vector<PithOcrLine> out;
        for (const Box& b : boxes)
            out.push_back({std::clamp(static_cast<int>((b[0] - image.x0) * px), 0, image.columns),
                           std::clamp(static_cast<int>((b[1] - image.y0) * px), 0, image.rows),
                           std::clamp(static_cast<int>((b[2] - image.x0) * px), 0, image.columns),
                           std::clamp(static_cast<int>((b[3] - image.y0) * px), 0, image.rows)});
        return out;
    };
    const std::vector<PithOcrLine> line_boxes = pixels(lines), word_boxes = pixels(words), tight_boxes = pixels(tight);
    std::vector<std::string> readers(engines.begin(), engines.begin() + std::min<std::ptrdiff_t>(2, engines.size()));
    for (const std::string& code : letter_languages(title))
        if (std::find(readers.begin(), readers.end(), code) == readers.end() && preload(code).empty())
            readers.push_back(code);
    const auto read = [&](const std::string& reader, const std::vector<PithOcrLine>& boxes, int pass) {
        OcrContext c{&image, &r.words, pass};
        read_lines(reader.c_str(), image.rgb.data(), image.columns, image.rows, static_cast<int>(std::lround(image.dpi)),
                   boxes.data(), static_cast<int>(boxes.size()), &on_word, &c);
    };
    for (std::size_t k = 0; k < readers.size() && k < static_cast<std::size_t>(kCloserReaders); ++k) {
        read(readers[k], line_boxes, kPassCloser + static_cast<int>(k));
        read(readers[k], word_boxes, kPassAlone + static_cast<int>(k));
    }
    if (!tight_boxes.empty()) read(readers.front(), tight_boxes, kPassTight);
    read_strokes(image, title, r);
}

}  // namespace

Reading read(std::string_view pdf, int index, const std::string& password, const Region& region, const Languages& languages,
             const TitleWords* title) {
    Reading r;
    if (languages.tesseract.empty()) {
        r.why = languages.why;
        return r;
    }
    one_openmp_thread();
    const std::vector<std::string> engines = engines_of(languages.tesseract);
    // A later engine (Han's traditional model after the simplified one) starts only when the
    // passes before it have not agreed: it costs seconds.
    const auto ready = [&](std::size_t k) {
        r.why = preload(engines[k]);
        r.read = r.why.empty();
        return r.read;
    };
    const auto pass = [&](std::size_t k, int layout) {  // after ready(k): pith-ocr.so is loaded
        static const auto ocr = reinterpret_cast<PithOcrFn>(poppler_module::symbol(PITH_OCR_SYMBOL, "pith-ocr.so"));
        OcrContext c{&r.image, &r.words, static_cast<int>(2 * k) + layout};
        r.read = ocr(engines[k].c_str(), r.image.rgb.data(), r.image.columns, r.image.rows,
                     static_cast<int>(std::lround(r.image.dpi)), layout, &on_word, &c) == 1;
        if (!r.read) r.why = "Tesseract could not read the title block";
        return r.read;
    };
    // The title block, and the page below it when there is one, from one opening of the file.
    // The first pass over the title block starts on a thread of its own as soon as poppler has
    // drawn it (once the engine has started), while this thread draws the page below and finds
    // its tall lines: on two cores the two overlap.
    std::vector<Slice> slices = {{region.x0, region.y0, region.x1, region.y1, std::max(kMinDpi, region.dpi * languages.dpi_scale)}};
    const bool rest = region.rest_dpi > 0 && region.page_height > region.rest_y0;
    if (rest) slices.push_back({region.x0, region.rest_y0, region.x1, region.page_height, region.rest_dpi});
    std::future<bool> first;
    Image below;
    render_regions(pdf, index, password, slices, [&](std::size_t k, Image image) {
        if (k == 1) return void(below = std::move(image));
        r.image = std::move(image);
        if (r.image.columns > 0) first = std::async(std::launch::async, [&] { return ready(0) && pass(0, PITH_OCR_SPARSE); });
    });
    const std::optional<std::vector<PithOcrLine>> tall = rest ? tall_lines(below, region) : std::nullopt;
    if (!first.valid()) {
        r.why = "the title block was not rendered";
        r.image = Image{};
        return r;
    }
    if (!first.get()) return r;
    if (rest) read_rest(below, tall, engines[0], r);
    if (!r.read || (title && judge(*title, r).verdict == Verdict::Agrees)) return r;
    if (!pass(0, PITH_OCR_AUTO)) return r;
    for (std::size_t k = 1; k < engines.size(); ++k)
        if (!ready(k) || !pass(k, PITH_OCR_SPARSE) || !pass(k, PITH_OCR_AUTO)) return r;
    if (title && judge(*title, r).verdict == Verdict::Unverified) {  // the readings disagree: read closer
        // The title's words, and its formulas' words with a digit or a sign, or TeX's negation
        // slash (require_signs_and_digits()).
        std::vector<visible::Word> closer = title->read;
        for (const visible::Word& w : title->unread)
            if (!signs_and_digits(w.text, true).empty() || w.text == kNegation) closer.push_back(w);
        read_closer(pdf, index, password, region, slices.front().dpi, closer, engines, r);
    }
    return r;
}

std::string encode(const Reading& r) {
    std::string out = "pith-pixels 1 ";
    out.reserve(256 + r.why.size() + r.image.rgb.size() + 128 * r.words.size());
    out += r.read ? "1 " : "0 ";
    out += std::to_string(r.image.columns) + " " + std::to_string(r.image.rows) + " ";
    put_number(out, r.image.dpi);
    put_number(out, r.image.x0);
    put_number(out, r.image.y0);
    out += std::to_string(r.image.row0) + " ";
    out += std::to_string(r.words.size()) + " " + std::to_string(r.why.size()) + "\n" + r.why;
    out.append(r.image.rgb.begin(), r.image.rgb.end());
    for (const OcrWord& w : r.words) {
        for (double v : {w.x0, w.y0, w.x1, w.y1, w.confidence, static_cast<double>(w.pass)}) put_number(out, v);
        out += std::to_string(w.text.size()) + "\n" + w.text + "\n";
    }
    return out;
}

std::optional<Reading> decode(std::string_view bytes) {
    Reply in(bytes);
    Reading r;
    if (!in.literal("pith-pixels 1 ")) return std::nullopt;
    const std::optional<std::size_t> read = in.count(), columns = in.count(), rows = in.count();
    const std::optional<double> dpi = in.number(), x0 = in.number(), y0 = in.number();
    const std::optional<std::size_t> row0 = in.count(), words = in.count(), why_size = in.count('\n');
    if (!read || *read > 1 || !columns || !rows || !dpi || !x0 || !y0 || !row0 || !words || !why_size) return std::nullopt;
    if (*columns > 100000 || *rows > 100000 || *row0 > 100000) return std::nullopt;
    std::optional<std::string> why = in.bytes(*why_size), rgb = in.bytes(*columns * *rows * 3);
    if (!why || !rgb) return std::nullopt;
    r.read = *read == 1;
    r.why = std::move(*why);
    r.image = {static_cast<int>(*columns), static_cast<int>(*rows), *dpi, *x0, *y0, {rgb->begin(), rgb->end()}, static_cast<int>(*row0)};
    for (std::size_t i = 0; i < *words; ++i) {
        OcrWord w;
        for (double* v : {&w.x0, &w.y0, &w.x1, &w.y1, &w.confidence}) {
            const std::optional<double> n = in.number();
            if (!n) return std::nullopt;
            *v = *n;
        }
        const std::optional<double> pass = in.number();  // a number, not a count: it may exceed the bytes left
        if (!pass || *pass < 0 || *pass > kPassTight || *pass != std::floor(*pass)) return std::nullopt;
        w.pass = static_cast<int>(*pass);
        const std::optional<std::size_t> size = in.count('\n');
        if (!size) return std::nullopt;
        std::optional<std::string> text = in.bytes(*size);
        if (!text || !in.literal("\n")) return std::nullopt;
        w.text = std::move(*text);
        r.words.push_back(std::move(w));
    }
    if (!in.done()) return std::nullopt;
    return r;
}

namespace {

// A title's words as the Request carries them: a page of just those words (visible::encode).
void put_words(std::string& out, const std::vector<visible::Word>& words) {
    const std::string page = visible::encode(visible::Page{0, 0, words});
    out += std::to_string(page.size()) + "\n" + page;
}

std::optional<std::vector<visible::Word>> take_words(Reply& in) {
    const std::optional<std::size_t> size = in.count('\n');
    std::optional<std::string> bytes = size ? in.bytes(*size) : std::nullopt;
    std::optional<visible::Page> page = bytes ? visible::decode(*bytes) : std::nullopt;
    if (!page) return std::nullopt;
    return std::move(page->words);
}

std::optional<std::string> take_text(Reply& in) {
    const std::optional<std::size_t> size = in.count('\n');
    return size ? in.bytes(*size) : std::nullopt;
}

}  // namespace

std::string encode(const Request& q) {
    std::string out = "pith-ask 1 " + std::to_string(q.index) + " ";
    const Region& r = q.region;
    for (double v : {r.x0, r.y0, r.x1, r.y1, r.dpi, r.rest_y0, r.page_height, r.rest_dpi, r.rest_line, q.languages.dpi_scale}) put_number(out, v);
    out += std::to_string(q.languages.tesseract.size()) + "\n" + q.languages.tesseract;
    out += std::to_string(q.languages.why.size()) + "\n" + q.languages.why;
    out += q.title ? "1 " : "0 ";
    if (q.title) {
        put_words(out, q.title->read);
        put_words(out, q.title->unread);
        put_words(out, q.title->badge);
        put_words(out, q.title->page);
    }
    return out;
}

std::optional<Request> decode_request(std::string_view bytes) {
    Reply in(bytes);
    Request q;
    std::optional<std::size_t> index;
    if (!in.literal("pith-ask 1 ") || !(index = in.count()) || *index > 1000000) return std::nullopt;
    q.index = static_cast<int>(*index);
    Region& r = q.region;
    for (double* v : {&r.x0, &r.y0, &r.x1, &r.y1, &r.dpi, &r.rest_y0, &r.page_height, &r.rest_dpi, &r.rest_line, &q.languages.dpi_scale}) {
        const std::optional<double> n = in.number();
        if (!n) return std::nullopt;
        *v = *n;
    }
    std::optional<std::string> tesseract = take_text(in), why = tesseract ? take_text(in) : std::nullopt;
    const std::optional<bool> title = why ? in.flag() : std::nullopt;
    if (!title) return std::nullopt;
    q.languages.tesseract = std::move(*tesseract);
    q.languages.why = std::move(*why);
    if (*title) {
        std::optional<std::vector<visible::Word>> read = take_words(in), unread = read ? take_words(in) : std::nullopt,
                                                  badge = unread ? take_words(in) : std::nullopt,
                                                  page = badge ? take_words(in) : std::nullopt;
        if (!page) return std::nullopt;
        q.title = TitleWords{std::move(*read), std::move(*unread), std::move(*badge), std::move(*page)};
    }
    if (!in.done()) return std::nullopt;
    return q;
}

// The child loads Tesseract's data for `engine` on a thread of its own, from the moment it
// starts: Tesseract's start is the slowest step of the reading, and meanwhile the child's main
// thread waits for the request and renders the title block (on a second core where there is
// one). read() waits for the load where it needs the engine (preload() holds its lock); another
// script's engine loads once the request names it.
void Reader::start(const std::string& engine) {
    child_ = child::Child(
        [engine] {
            one_openmp_thread();
            if (engine.empty()) return;
            try {
                std::thread([engine] {
                    try {
                        (void)preload(engine);
                    } catch (...) {  // read() says why, when it loads the engine itself
                    }
                }).detach();  // the child ends with _exit(): nothing waits for it
            } catch (const std::system_error&) {  // no thread to spare: read() loads it
            }
        },
        [this](const std::string& asked) {
            const std::optional<Request> q = decode_request(asked);
            if (!q) return std::string("Ethe request to read the title block does not decode");
            visible::limit_reading_child(kChildCpuSeconds);
            try {
                Reading r = read(pdf_, q->index, password_, q->region, q->languages, q->title ? &*q->title : nullptr);
                if (q->title) r.image = around(std::move(r.image), q->title->all());  // the reply carries what judge() reads
                return "R" + encode(r);
            } catch (const Error& e) {
                return std::string("E") + e.what();
            }
        });
}

Reader::Reader(std::string_view pdf, const std::string& password) : pdf_(pdf), password_(password) { start(kLatin); }

Reader::Reader(std::string_view pdf, const std::string& password, Request request) : pdf_(pdf), password_(password) {
    const std::vector<std::string> engines = engines_of(request.languages.tesseract);
    start(engines.empty() ? "" : engines[0]);
    ask(std::move(request));
}

void Reader::ask(Request request) {
    (void)child_.send(encode(request));  // a child that is gone: collect() says so
    request_ = std::move(request);
}

std::unique_ptr<Reader> reader_for(std::unique_ptr<Reader> started, std::string_view pdf, const std::string& password, Request request) {
    if (!started) return std::make_unique<Reader>(pdf, password, std::move(request));
    started->ask(std::move(request));
    return started;
}

Reading Reader::collect() {
    if (!request_) return {false, "the title block's reading was not asked for", {}, {}};
    if (!child_.started()) {  // no child: in this process then
        const Request& q = *request_;
        try {
            return read(pdf_, q.index, password_, q.region, q.languages, q.title ? &*q.title : nullptr);
        } catch (const Error& e) {
            return {false, e.what(), {}, {}};
        }
    }
    const child::Ended ended = child_.wait(kChildWallSeconds);
    const std::optional<std::string>& received = ended.bytes;
    Reading failed;
    if (!received) failed.why = "the title block was not read within " + std::to_string(static_cast<int>(kChildWallSeconds)) + " s";
    else if (!ended.exited_cleanly() || received->empty())
        failed.why = "reading the title block crashed or ran out of time or memory";
    else if ((*received)[0] == 'E') failed.why = received->substr(1);
    else if (std::optional<Reading> r = decode(std::string_view(*received).substr(1)); r && (*received)[0] == 'R') return std::move(*r);
    else failed.why = "the title block's reading does not decode";
    return failed;
}

namespace {

constexpr const char* kReadsNothing = "OCR reads no words there: the pixels do not confirm it";

// Why the pixels cannot be read for this title ("" when they can): not read at all, a script
// without OCR data, too few letters (a formula).
std::string unreadable(const std::vector<visible::Word>& title, const Reading& r) {
    if (const Languages l = languages_for(title); !l.why.empty()) return l.why;
    if (!r.read) return r.why;
    std::size_t letters = 0;
    for (const auto& w : title) letters += letters_of(w.text);
    if (letters < 4) return "the title is mostly formula or symbols, which OCR does not read";
    return "";
}

// The title's faintest word (of two characters or more) and its contrast.
std::pair<std::string, double> faintest(const std::vector<visible::Word>& title, const Image& image) {
    std::pair<std::string, double> out{"", 21};
    for (const auto& w : title) {
        const auto tokens = tokens_of(w.text);
        if (std::none_of(tokens.begin(), tokens.end(), counts)) continue;
        const double k = contrast(image, w.x0, w.y0, w.x1, w.y1);
        if (k < out.second) out = {w.text, k};
    }
    return out;
}

// Two words side by side, above `bottom`, each taller than `height`: one large word alone may be
// a logo or a drop cap (as in the text layer's rule, title.cpp). Quoted, or "" when there are none.
std::string large_pair(const std::vector<const OcrWord*>& words, double height, double bottom) {
    std::vector<const OcrWord*> large;
    for (const OcrWord* w : words) {
        const double h = w->y1 - w->y0;
        if (letters_of(w->text) >= 3 && w->confidence >= kMinConfidence && w->x1 - w->x0 >= h && w->y1 <= bottom && h > height)
            large.push_back(w);
    }
    for (const OcrWord* w : large)
        for (const OcrWord* v : large)
            if (v != w && std::abs((v->y0 + v->y1) / 2 - (w->y0 + w->y1) / 2) <= (w->y1 - w->y0) / 2)
                return "\"" + w->text + " " + v->text + "\"";
    return "";
}

// A word's type size, points, from the height of its ink and its letters: whatever drew it
// (text, outlines, an image), the ink of a word with ascenders or capitals and descenders stands
// about 0.91 of its type tall, with ascenders alone 0.70, with descenders alone 0.66, in
// x-height letters alone 0.45 (Computer Modern, Times and Helvetica agree within a tenth).
double ink_type(const OcrWord& w) {
    constexpr std::u32string_view kAscending = U"bdfhklt!?()[]{}/|'\"\u00df", kDescending = U"gjpqy,;()[]{}|/Q";
    bool up = false, down = false;
    each_char(w.text, [&](UChar32 c) {
        const auto is = [&](std::u32string_view set) { return set.find(static_cast<char32_t>(c)) != set.npos; };
        up = up || u_isupper(c) || u_isdigit(c) || is(kAscending);
        down = down || is(kDescending);
    });
    return (w.y1 - w.y0) / (up && down ? 0.91 : up ? 0.70 : down ? 0.66 : 0.45);
}

// A word's type as the page sets it: where the text layer's visible words under it explain its
// ink (their boxes, a quarter of their height around them, span it from top to bottom), the
// smaller of their largest font size and its ink's type (OCR's box around two lines of small
// text, a table's rows, is no large word; glyphs drawn smaller than their text box are small);
// else its ink's (text drawn as outlines or an image, glyphs drawn beyond their box).
double type_of(const OcrWord& w, const std::vector<visible::Word>& page) {
    double top = 1e300, bottom = -1e300, size = 0;
    for (const visible::Word& t : page) {
        if (!t.visible || t.x1 <= w.x0 || t.x0 >= w.x1 || t.y1 <= w.y0 || t.y0 >= w.y1) continue;
        const double margin = 0.25 * (t.y1 - t.y0);
        top = std::min(top, t.y0 - margin), bottom = std::max(bottom, t.y1 + margin), size = std::max(size, t.size);
    }
    const double ink = ink_type(w);
    return top <= w.y0 && bottom >= w.y1 ? std::min(size, ink) : ink;
}

// The OCR words the outranking rules weigh: read with kMinConfidence or more, with a letter,
// wider than tall (not a margin's stamp read across).
bool weighs(const OcrWord& w) {
    return w.confidence >= kMinConfidence && letters_of(w.text) > 0 && w.x1 - w.x0 >= w.y1 - w.y0;
}

// Lines of the page as the pixels show them, top to bottom: words side by side (their middles
// within half a word's height; a word read twice, once), each line in the lower median type of
// its words (type_of()).
struct InkLine {
    std::vector<const OcrWord*> words;
    double y0 = 1e300, y1 = -1e300, type = 0;
    std::string text() const {
        std::string out;
        for (const OcrWord* w : words) out += (out.empty() ? "" : " ") + w->text;
        return out;
    }
    std::size_t letters() const {
        std::size_t n = 0;
        for (const OcrWord* w : words) n += letters_of(w->text);
        return n;
    }
    std::size_t tokens() const {  // of three letters or more
        std::size_t n = 0;
        for (const OcrWord* w : words)
            for (const auto& t : tokens_of(w->text)) n += t.size() >= 3 || spaceless(t);
        return n;
    }
};
std::vector<InkLine> ink_lines(std::vector<const OcrWord*> words, const std::vector<visible::Word>& page) {
    std::sort(words.begin(), words.end(), [](const OcrWord* a, const OcrWord* b) { return a->x0 < b->x0; });
    std::vector<InkLine> lines;
    for (const OcrWord* w : words) {
        const double cy = (w->y0 + w->y1) / 2, h = w->y1 - w->y0;
        auto it = std::find_if(lines.begin(), lines.end(), [&](const InkLine& l) {
            return std::abs((l.y0 + l.y1) / 2 - cy) <= std::min(h, l.y1 - l.y0) / 2;
        });
        if (it == lines.end()) it = lines.insert(lines.end(), InkLine{});
        const auto same = [&](const OcrWord* v) {  // read twice: by the title block's pass and below it
            return std::min(v->x1, w->x1) - std::max(v->x0, w->x0) > (w->x1 - w->x0) / 2;
        };
        if (std::any_of(it->words.begin(), it->words.end(), same)) continue;
        it->words.push_back(w);
        it->y0 = std::min(it->y0, w->y0), it->y1 = std::max(it->y1, w->y1);
    }
    for (InkLine& l : lines) {
        std::vector<double> types;
        for (const OcrWord* w : l.words) types.push_back(type_of(*w, page));
        l.type = kth(types, (types.size() - 1) / 2);  // the lower median: of two words, the smaller
    }
    std::sort(lines.begin(), lines.end(), [](const InkLine& a, const InkLine& b) { return a.y0 < b.y0; });
    return lines;
}

// The title is the page's own when no other line of three letters or more (two in huge type)
// outranks it (pixels.hpp's kAboveType and the ratios beside it; doc/visible.md), the title's
// type and every line's as the page sets them (type_of()). "" when none outranks it, else what
// does and where.
std::string outranking(const std::vector<const OcrWord*>& elsewhere, const std::vector<const OcrWord*>& title_ink,
                       double top, double bottom, const std::vector<const OcrWord*>& below,
                       const std::vector<visible::Word>& page) {
    std::vector<double> types;
    for (const OcrWord* w : title_ink) types.push_back(type_of(*w, page));
    if (types.empty()) return "";
    const double type = kth(types, types.size() / 2);
    std::vector<const OcrWord*> others;
    for (const auto* words : {&elsewhere, &below})
        for (const OcrWord* w : *words)
            if (weighs(*w)) others.push_back(w);
    for (const InkLine& l : ink_lines(others, page)) {
        if (l.letters() < 2) continue;  // a mark, a digit, a speck, a drop cap
        const double ratio = l.type / type;
        const std::string line = "\"" + l.text() + "\" ";
        const std::string times = one_decimal(ratio) + " times the title's type";
        const double middle = (l.y0 + l.y1) / 2;
        if (ratio >= kHugeType && middle >= top) return line + "in type " + times;
        if (l.letters() < 3) continue;
        const bool right_over = l.y1 >= top - kPrefixGap * type;
        if (middle < top && ((ratio >= kLargerType && l.tokens() >= 2) || (ratio >= kAboveType && right_over)))
            return line + "above it in type " + times;
        if (middle >= top && middle <= bottom && ratio >= kAboveType && l.tokens() >= 2)
            return line + "beside it in type " + times;
        if (middle > bottom && ratio >= kLargerType && l.tokens() >= 2) return line + "below it in type " + times;
    }
    return "";
}

std::string joined_text(const std::vector<visible::Word>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w.text;
    return out;
}

bool right_to_left(const std::u32string& token) {
    return std::any_of(token.begin(), token.end(), [](char32_t c) {
        const UCharDirection d = u_charDirection(static_cast<UChar32>(c));
        return d == U_RIGHT_TO_LEFT || d == U_RIGHT_TO_LEFT_ARABIC;
    });
}

// The title's tokens aligned with OCR's. Tesseract gives a right-to-left word's letters in
// logical order, and pith puts OCR's words in order from the left (reading_order()); the text
// layer gives a word's letters in logical order or, where the PDF stores them in visual order
// (title.cpp), reversed. So a title with right-to-left words is taken from the left too, its
// words' letters as given or reversed, whichever agrees better.
Alignment align_title(const std::vector<visible::Word>& title, const std::vector<Token>& here, double line) {
    auto tokens = [](const std::vector<visible::Word>& words) {
        std::vector<std::u32string> t;
        for (const auto& w : words)
            for (auto& token : tokens_of(w.text)) t.push_back(std::move(token));
        return t;
    };
    std::vector<std::u32string> t = tokens(title);
    if (std::none_of(t.begin(), t.end(), right_to_left)) return align(t, here);
    t = tokens(reading_order(title, line));
    const Alignment logical = align(t, here);
    for (auto& token : t)
        if (right_to_left(token)) std::reverse(token.begin(), token.end());
    const Alignment reversed = align(t, here);
    return reversed.differences() < logical.differences() ? reversed : logical;
}

// OCR misses a word's first letter where it touches something (a box's edge, a picture): "ello"
// for "Hello". Such a reading is put right when OCR's word starts where the title word's second
// letter stands (a letter's width or more to the right of the word's start): the glyph is
// there, OCR did not read it. A reading that starts where the word starts and lacks its first
// letter is another word drawn ("synchronous" where the record says "asynchronous"), and stays.
void restore_initials(const std::vector<visible::Word>& title, std::vector<Token>& here) {
    for (Token& t : here) {
        for (const visible::Word& w : title) {
            const double cy = (t.ocr->y0 + t.ocr->y1) / 2;
            if (cy < w.y0 || cy > w.y1 || t.ocr->x1 <= w.x0 || t.ocr->x0 >= w.x1) continue;
            const std::vector<std::u32string> tokens = tokens_of(w.text);
            if (tokens.empty() || tokens.front().size() < 3 || t.text != tokens.front().substr(1)) continue;
            const double letter = (w.x1 - w.x0) / static_cast<double>(tokens.front().size());
            if (t.ocr->x0 - w.x0 >= 0.6 * letter) t.text = tokens.front(), t.restored = true;
        }
    }
}

// Whether an OCR word stands where the title stands: on its lines, within a line's height of its ends.
bool in_title(const std::vector<visible::Word>& title, const OcrWord& w) {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (const auto& t : title)
        x0 = std::min(x0, t.x0), y0 = std::min(y0, t.y0), x1 = std::max(x1, t.x1), y1 = std::max(y1, t.y1);
    const double line = std::max(1.0, title.front().y1 - title.front().y0);
    const double cx = (w.x0 + w.x1) / 2, cy = (w.y0 + w.y1) / 2;
    return cy >= y0 && cy <= y1 && cx >= x0 - line && cx <= x1 + line;
}

// One OCR pass's reading of the title: its judgement where words are matched within OCR's
// tolerance, and which words it gives exactly (judge() asks that of every word).
struct PassJudgement {
    Judgement judgement;
    Alignment alignment;  // when the pass read the title's words (not faint, not unreadable)
    std::string read;     // what OCR read where the title stands
};

PassJudgement judge_pass(const std::vector<visible::Word>& title, const Reading& r, const std::vector<OcrWord>& words,
                         const std::vector<const OcrWord*>& below, const std::vector<visible::Word>& page) {
    PassJudgement out;
    Judgement& j = out.judgement;
    const std::string layer = "the text layer shows the title \"" + joined_text(title) + "\"";
    if (const std::string why = unreadable(title, r); !why.empty()) {
        j.explanation = layer + "; the pixels were not read: " + why;
        return out;
    }
    // Contrast, word by word: the pixels must show every word legibly.
    const auto [faint, contrast_ratio] = faintest(title, r.image);
    j.contrast = contrast_ratio;
    if (j.contrast < kMinContrast) {
        j.verdict = Verdict::Faint;
        j.explanation = layer + ", but the pixels show \"" + faint + "\" at a contrast of " + one_decimal(j.contrast) +
                        ":1 against its background, too faint to read (at least " + one_decimal(kMinContrast) + ":1)";
        return out;
    }
    // The OCR words where the title stands (inside its boxes' extent), and the others.
    double y0 = 1e300, y1 = -1e300;
    for (const auto& w : title) y0 = std::min(y0, w.y0), y1 = std::max(y1, w.y1);
    const double line = std::max(1.0, title.front().y1 - title.front().y0);
    std::vector<Token> here;
    std::vector<const OcrWord*> elsewhere;
    const std::vector<OcrWord> ordered = reading_order(words, line);  // `here` and `elsewhere` point into it
    for (const OcrWord& w : ordered) {
        if (!in_title(title, w)) {
            elsewhere.push_back(&w);
            continue;
        }
        out.read += (out.read.empty() ? "" : " ") + w.text;
        for (auto& token : tokens_of(w.text)) here.push_back({std::move(token), &w});
    }
    restore_initials(title, here);
    const Alignment& a = out.alignment = align_title(title, here, line);
    const std::string pixels = "the pixels (OCR) read \"" + out.read + "\" there";
    if (a.missing.empty() && a.extra.empty()) {
        std::vector<const OcrWord*> title_ink;
        for (const Token& t : here)
            if (t.ocr && (title_ink.empty() || title_ink.back() != t.ocr)) title_ink.push_back(t.ocr);
        if (const std::string larger = outranking(elsewhere, title_ink, y0, y1, below, page); !larger.empty()) {
            j.verdict = Verdict::Outranked;
            j.explanation = layer + " and " + pixels + ", but the pixels also show " + larger;
            return out;
        }
        j.verdict = Verdict::Agrees;
        j.explanation = layer + "; " + pixels + " too (contrast " + one_decimal(j.contrast) + ":1)";
        return out;
    }
    const std::string differences = (a.missing.empty() ? "" : "without " + quoted_list(a.missing)) +
                                    (a.missing.empty() || a.extra.empty() ? "" : " and ") +
                                    (a.extra.empty() ? "" : "with " + quoted_list(a.extra));
    if (here.empty()) j.explanation = layer + ", but " + kReadsNothing;
    else if (a.missing.size() <= 1 && a.extra.size() <= 1 && (a.matched >= 3 || a.title <= 2))  // a misread word, or a title too short to tell
        j.explanation = layer + ", but " + pixels + ", " + differences + " (one word: possibly OCR's misreading; not confirmed)";
    else j.verdict = Verdict::Differs, j.explanation = layer + ", but " + pixels + ", " + differences;
    return out;
}

// Best first: the title read (agreeing, or outranked by larger text), then not confirmed, then other words read.
int rank(Verdict v) {
    switch (v) {
        case Verdict::Agrees: return 0;
        case Verdict::Faint: return 1;  // the same for every pass: decided before reading
        case Verdict::Outranked: return 2;
        case Verdict::Unverified: return 3;
        case Verdict::Differs: return 4;
    }
    return 5;
}

// Where the best pass finds the title within OCR's tolerance, each of its words must still be
// read exactly by some pass (a closer one included): the tolerance finds where a word stands,
// never what it says. Unverified, naming what was read instead, when one is not.
// The title's tokens (as align_title() takes them from the left) that a word read alone gives:
// the OCR words of one pass kPassAlone + k whose centres lie in the title word's box give exactly
// its tokens, and nothing else. A right-to-left title is not read word by word.
std::vector<bool> read_alone(const std::vector<visible::Word>& title, const Reading& r) {
    std::vector<bool> out;
    for (const visible::Word& w : title) {
        const std::vector<std::u32string> tokens = tokens_of(w.text);
        if (std::any_of(tokens.begin(), tokens.end(), right_to_left)) return {};
        bool alone = false;
        for (int pass = kPassAlone; pass <= kLastPass && !alone; ++pass) {
            std::vector<std::u32string> read;
            for (const OcrWord& o : r.words) {
                if (o.pass != pass || !over(o, w, 0)) continue;
                for (auto& token : tokens_of(o.text)) read.push_back(std::move(token));
            }
            alone = !tokens.empty() && read == tokens;
        }
        out.insert(out.end(), tokens.size(), alone);
    }
    return out;
}

void require_exact_words(const std::vector<visible::Word>& title, const Reading& r,
                         const std::vector<PassJudgement>& passes, const PassJudgement& best, Judgement& j) {
    std::vector<bool> confirmed = best.alignment.exact;
    if (const std::vector<bool> alone = read_alone(title, r); alone.size() == confirmed.size())
        for (std::size_t i = 0; i < confirmed.size(); ++i) confirmed[i] = confirmed[i] || alone[i];
    std::size_t added = best.alignment.added;
    for (const PassJudgement& p : passes) {
        if (p.alignment.exact.size() != confirmed.size()) continue;
        for (std::size_t i = 0; i < confirmed.size(); ++i) confirmed[i] = confirmed[i] || p.alignment.exact[i];
        if (p.judgement.verdict == Verdict::Agrees) added = std::min(added, p.alignment.added);
    }
    std::string pairs;
    for (const auto& [title_word, read_word] : best.alignment.inexact)
        pairs += (pairs.empty() ? "\"" : ", \"") + utf8(read_word) + "\" for \"" + utf8(title_word) + "\"";
    if (std::all_of(confirmed.begin(), confirmed.end(), [](bool c) { return c; }) && added == 0) return;
    j.verdict = Verdict::Unverified;
    j.explanation = "the text layer shows the title \"" + joined_text(title) + "\", but the pixels (OCR) read \"" +
                    best.read + "\" there: " + pairs +
                    "; a word is confirmed only by a reading that gives exactly it, and no reading, closer ones "
                    "included, did (possibly OCR's misreading; not confirmed)";
}

}  // namespace

Judgement judge(const std::vector<visible::Word>& title, const Reading& r, const std::vector<visible::Word>& page) {
    std::vector<const OcrWord*> below;
    for (const OcrWord& w : r.words)
        if (w.pass == kPassBelow) below.push_back(&w);
    std::vector<PassJudgement> passes;
    std::optional<std::size_t> best;
    int best_rank = 0;
    for (int pass = 0; pass < kPassAlone; ++pass) {
        if (pass == kPassBelow) continue;
        std::vector<OcrWord> words;
        for (const OcrWord& w : r.words)
            if (w.pass == pass) words.push_back(w);
        if (words.empty() && pass > kPassBelow) continue;  // no closer reading was made
        // A closer reading reads the title's lines only: what the title block's passes read
        // around them still outranks the title.
        if (pass > kPassBelow)
            for (const OcrWord& w : r.words)
                if (w.pass < kPassBelow && !in_title(title, w)) words.push_back(w);
        passes.push_back(judge_pass(title, r, words, below, page));
        const Judgement& j = passes.back().judgement;
        // A pass that reads no word where the title stands is no evidence either way.
        const int k = j.explanation.find(kReadsNothing) != std::string::npos ? 9 : rank(j.verdict);
        if (!best || k < best_rank) best = passes.size() - 1, best_rank = k;
    }
    Judgement j = passes[*best].judgement;
    if (j.verdict == Verdict::Agrees) require_exact_words(title, r, passes, passes[*best], j);
    return j;
}

namespace {

// What each pass reads where `w` stands (OCR words whose centres lie in its box, in reading
// order): its signs and, for a formula's word, digits. Passes that read nothing there are left out.
std::vector<std::u32string> readings_of(const visible::Word& w, bool formula, const Reading& r) {
    std::map<int, std::u32string> by_pass;
    for (const OcrWord& o : reading_order(r.words, std::max(1.0, w.y1 - w.y0))) {
        if (o.pass == kPassBelow || !over(o, w, 0)) continue;
        by_pass[o.pass] += signs_and_digits(o.text, formula);
    }
    std::vector<std::u32string> out;
    for (auto& [pass, read] : by_pass)
        if (!read.empty()) out.push_back(std::move(read));
    return out;
}

// Each relation sign of the title, and each digit of its formulas, confirmed as words are: by a
// reading that gives exactly it (the word read alone included). Unverified where none does;
// another sign where the title's is one OCR reads and two readings or more give the same other
// one ("<" read as ">"), and nothing gives the title's.
void require_signs_and_digits(const TitleWords& title, const Reading& r, Judgement& j) {
    const auto only_read_signs = [](const std::u32string& x) { return std::all_of(x.begin(), x.end(), ocr_reads); };
    const auto check = [&](const visible::Word& w, bool formula) {
        const std::u32string wanted = signs_and_digits(w.text, formula);
        if (wanted.empty()) return true;
        const std::vector<std::u32string> read = readings_of(w, formula, r);
        if (std::find(read.begin(), read.end(), wanted) != read.end()) return true;
        const std::string what = std::string(formula ? "its formula's " : "its sign ") + "\"" + utf8(wanted) + "\"";
        // Another sign: a title's sign OCR gives ("<"), and two readings or more that all give
        // one other ("<" read as ">"). OCR reads ≤ as "<" or "=", ≠ as "4": for a sign OCR has
        // no character for, no reading of OCR's is another sign, only no confirmation.
        const auto like_first = [&](const std::u32string& x) { return x == read.front(); };
        if (only_read_signs(wanted) && read.size() >= 2 && std::all_of(read.begin(), read.end(), like_first) &&
            only_read_signs(read.front())) {
            j.verdict = Verdict::Differs;
            j.explanation = "the text layer shows the title with " + what +
                            ", but the pixels show another sign: they read " + quoted_list(read) + " there";
            return false;
        }
        const std::string readings = read.empty() ? "none reads a sign or digit there"
                                                  : "they read " + quoted_list(read);
        j.verdict = Verdict::Unverified;
        j.explanation = "the text layer shows the title with " + what +
                        ", but no reading of the pixels gives it exactly (" + readings +
                        "): a relation sign or a formula's digit is confirmed only by a reading that gives exactly it";
        return false;
    };
    for (const visible::Word& w : sign_words(title.read))
        if (!check(w, false)) return;
    for (const visible::Word& w : sign_words(title.unread))
        if (!check(w, true)) return;
}

}  // namespace

Judgement judge(const TitleWords& title, Reading r) {
    // An OCR word at least half of whose width lies over unread words of its line (a formula read
    // as one token, "O(,/n)", spans the gaps between its pieces).
    const auto under_unread = [&](const OcrWord& w) {
        const double cy = (w.y0 + w.y1) / 2;
        double covered = 0;
        for (const visible::Word& u : title.unread)
            if (cy >= u.y0 && cy <= u.y1) covered += std::max(0.0, std::min(w.x1, u.x1) - std::max(w.x0, u.x0));
        return covered >= 0.5 * (w.x1 - w.x0);
    };
    // What OCR reads of pith's badge: over a badge word, and spelling only pieces of it ("pith:",
    // the number's letters), so that no other words can hide behind a word that says "pith:".
    const auto on_badge = [&](const OcrWord& o) {
        return std::any_of(title.badge.begin(), title.badge.end(), [&](const visible::Word& b) {
            if (!over(o, b)) return false;
            std::u32string spelt;
            for (const auto& t : tokens_of(b.text)) spelt += t;
            const auto pieces = tokens_of(o.text);
            const auto in_badge = [&](const std::u32string& t) { return spelt.find(t) != std::u32string::npos; };
            return std::all_of(pieces.begin(), pieces.end(), in_badge);
        });
    };
    const std::vector<OcrWord> all = r.words;
    const auto left_out = [&](const OcrWord& w) { return under_unread(w) || on_badge(w); };
    r.words.erase(std::remove_if(r.words.begin(), r.words.end(), left_out), r.words.end());
    Judgement j = judge(title.read, r, title.page);
    if (j.verdict == Verdict::Agrees) {
        r.words = all;
        require_signs_and_digits(title, r, j);
    }
    return j;
}

Region whole_page(const visible::Page& page) { return {0, 0, page.width, page.height, kFrontMatterDpi}; }

namespace {

// The confident words of the pass that reads more of them (each segmentation misses some).
std::vector<OcrWord> confident_words(const Reading& r) {
    std::vector<OcrWord> best;
    for (int pass = 0; pass < kPassBelow; ++pass) {
        std::vector<OcrWord> words;
        for (const OcrWord& w : r.words) {
            if (w.pass != pass || w.confidence < kMinConfidence) continue;
            const auto tokens = tokens_of(w.text);
            if (std::any_of(tokens.begin(), tokens.end(), counts)) words.push_back(w);
        }
        if (words.size() > best.size()) best = std::move(words);
    }
    return best;
}

}  // namespace

std::string not_front_matter(const Reading& r, double title_size, const std::vector<std::string>& title_words) {
    if (!r.read) return "its pixels were not read (" + r.why + ")";
    const std::vector<OcrWord> words = reading_order(confident_words(r), title_size);
    const std::string count = std::to_string(words.size()) + " words";
    if (words.size() > title::kFrontMatterWords) return "its pixels show " + count + ", more than front matter holds";
    std::vector<const OcrWord*> all;
    for (const OcrWord& w : words) all.push_back(&w);
    if (const std::string pair = large_pair(all, kOutrankRatio * title_size, 1e300); !pair.empty())
        return "its pixels show " + pair + " in type more than " + one_decimal(kOutrankRatio) + " times the title's";
    if (!title_words.empty()) {  // the text layer shows the record's title there: so must the pixels
        std::vector<std::u32string> t;
        for (const auto& w : title_words)
            for (auto& token : tokens_of(w)) t.push_back(std::move(token));
        std::vector<Token> shown;
        for (const OcrWord& w : words)
            for (auto& token : tokens_of(w.text)) shown.push_back({std::move(token), &w});
        const Alignment a = align(t, shown);
        return a.missing.empty() ? "" : "its text layer shows the record's title, but its pixels show it without " + quoted_list(a.missing);
    }
    if (words.size() <= title::kCoverWords) return "";
    std::string first;
    for (std::size_t i = 0; i < std::min<std::size_t>(words.size(), 6); ++i) first += (i ? " " : "") + words[i].text;
    return "its pixels show " + count + " (\"" + first + " ...\") but not the record's title: a cover that names something else";
}

std::string not_front_matter(std::string_view pdf, int index, const std::string& password, const visible::Page& page,
                             double title_size, const std::vector<std::string>& title_words) {
    // Read in the scripts of the record's title where the page shows it, else in Latin's.
    std::vector<visible::Word> title(title_words.size());
    for (std::size_t i = 0; i < title_words.size(); ++i) title[i].text = title_words[i];
    Reading r = Reader(pdf, password, {index, whole_page(page), languages_for(title), std::nullopt}).collect();
    // pith's own badge (a stamp may put it on this page) is no word of the paper's.
    const auto on_badge = [&](const OcrWord& o) {
        return std::any_of(page.words.begin(), page.words.end(), [&](const visible::Word& w) {
            return w.visible && title::badge_word(w) && over(o, w);
        });
    };
    r.words.erase(std::remove_if(r.words.begin(), r.words.end(), on_badge), r.words.end());
    return not_front_matter(r, title_size, title_words);
}

}  // namespace pith::pixels
