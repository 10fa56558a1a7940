// SPDX-License-Identifier: MIT
#include "page/title.hpp"

#include "core/unicode.hpp"

#include "core/error.hpp"
#include "page/tex_title.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <set>

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

namespace pith::page::title {

namespace {

// ---------------------------------------------------------------- UTF-8 helpers

// Longest prefix of `s` of at most `max` bytes that does not cut a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view s, std::size_t max) {
    if (s.size() <= max) return s;
    std::size_t n = max;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return s.substr(0, n);
}

icu::UnicodeString from_utf8(std::string_view s) {
    return icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
}

std::string to_utf8(const icu::UnicodeString& u) {
    std::string out;
    u.toUTF8String(out);
    return out;
}

std::vector<UChar32> code_points(const icu::UnicodeString& u) {
    std::vector<UChar32> cps;
    cps.reserve(static_cast<std::size_t>(u.length()));
    for (int32_t i = 0; i < u.length();) {
        UChar32 c = u.char32At(i);
        cps.push_back(c);
        i += U16_LENGTH(c);
    }
    return cps;
}

icu::UnicodeString from_code_points(const std::vector<UChar32>& cps) {
    icu::UnicodeString u;
    for (UChar32 c : cps) u.append(c);
    return u;
}

icu::UnicodeString apply(const icu::Normalizer2* n, const icu::UnicodeString& u) {
    if (!n) return u;
    UErrorCode status = U_ZERO_ERROR;
    icu::UnicodeString out = n->normalize(u, status);
    return U_SUCCESS(status) ? out : u;
}

const icu::Normalizer2* nfkd() {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFKDInstance(status);
    return U_SUCCESS(status) ? n : nullptr;
}
const icu::Normalizer2* nfc() {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFCInstance(status);
    return U_SUCCESS(status) ? n : nullptr;
}
const icu::Normalizer2* nfkc() {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFKCInstance(status);
    return U_SUCCESS(status) ? n : nullptr;
}

// ---------------------------------------------------------------- character classes

bool is_line_break(UChar32 c) {
    return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x85 || c == 0x2028 || c == 0x2029;
}
bool is_space(UChar32 c) {
    return is_line_break(c) || u_isUWhiteSpace(c) || u_charType(c) == U_CONTROL_CHAR;
}
bool is_horizontal_space(UChar32 c) { return is_space(c) && !is_line_break(c); }
constexpr UChar32 kSoftHyphen = 0x00AD;
// Hyphens that may end a line inside a word.
bool is_line_end_hyphen(UChar32 c) { return c == '-' || c == 0x2010 || c == kSoftHyphen; }
bool is_dash(UChar32 c) { return u_charType(c) == U_DASH_PUNCTUATION || c == 0x2212 || c == 0x2043; }
UChar32 unify_quote(UChar32 c) {
    switch (c) {
        case 0x2018: case 0x2019: case 0x201A: case 0x201B: case 0x2032: case 0x2035:
        case 0x2039: case 0x203A: case 0xFF07:
            return '\'';
        case 0x201C: case 0x201D: case 0x201E: case 0x201F: case 0x2033: case 0x2036:
        case 0x00AB: case 0x00BB: case 0x301D: case 0x301E: case 0x301F: case 0xFF02:
            return '"';
        default:
            return c;
    }
}

// Right-to-left script that a PDF stores in visual order (glyphs from left to right, as many
// producers write Arabic and Hebrew) reads reversed: each run of right-to-left letters, with
// the marks and spaces between them, turned round gives the logical order back.
bool is_rtl(UChar32 c) {
    const UCharDirection d = u_charDirection(c);
    return d == U_RIGHT_TO_LEFT || d == U_RIGHT_TO_LEFT_ARABIC;
}
std::string rtl_runs_reversed(const std::string& utf8) {
    std::vector<UChar32> cps = code_points(from_utf8(utf8));
    for (std::size_t i = 0; i < cps.size(); ++i) {
        if (!is_rtl(cps[i])) continue;
        std::size_t end = i + 1;  // one past the run's last letter or mark
        for (std::size_t j = i + 1; j < cps.size(); ++j) {
            if (is_rtl(cps[j]) || u_charDirection(cps[j]) == U_DIR_NON_SPACING_MARK) end = j + 1;
            else if (!is_horizontal_space(cps[j])) break;
        }
        std::reverse(cps.begin() + static_cast<std::ptrdiff_t>(i), cps.begin() + static_cast<std::ptrdiff_t>(end));
        i = end - 1;
    }
    return to_utf8(from_code_points(cps));
}

// Step 1 (on the text as extracted): join words hyphenated across line breaks, drop soft
// hyphens and format characters.
std::vector<UChar32> dehyphenate(const std::vector<UChar32>& in) {
    std::vector<UChar32> out;
    out.reserve(in.size());
    const std::size_t n = in.size();
    for (std::size_t i = 0; i < n; ++i) {
        const UChar32 c = in[i];
        if (is_line_end_hyphen(c) && !out.empty() && u_isalpha(out.back())) {
            std::size_t j = i + 1;
            while (j < n && is_horizontal_space(in[j])) ++j;
            if (j < n && is_line_break(in[j])) {
                while (j < n && is_space(in[j])) ++j;
                if (j < n && u_isalpha(in[j])) {
                    const bool upper = u_isupper(in[j]) || u_istitle(in[j]);
                    if (upper && c != kSoftHyphen) out.push_back('-');
                    i = j - 1;  // continue with the next word's first letter
                    continue;
                }
            }
        }
        if (c == kSoftHyphen || u_charType(c) == U_FORMAT_CHAR) continue;
        out.push_back(c);
    }
    return out;
}

// Step 3 (after case folding and NFKD): drop marks, unify dashes/quotes/white space.
std::string finish(const std::vector<UChar32>& in) {
    icu::UnicodeString u;
    bool pending_space = false;
    for (UChar32 c : in) {
        const int8_t type = u_charType(c);
        if (type == U_NON_SPACING_MARK || type == U_ENCLOSING_MARK || type == U_FORMAT_CHAR) continue;
        if (is_space(c)) {
            pending_space = !u.isEmpty();
            continue;
        }
        if (is_dash(c)) c = '-';
        if (c == '-' && !pending_space && u.length() > 0 && u.char32At(u.length() - 1) == '-') continue;  // TeX's -- and --- are one dash
        c = unify_quote(c);
        if (pending_space) u.append(static_cast<UChar>(' '));
        pending_space = false;
        u.append(c);
    }
    return to_utf8(u);
}

// ---------------------------------------------------------------- word-aligned matching

// Letters, digits and symbols with everything else (white space, punctuation incl. dashes
// and quotes) as word separators; the words concatenated, with where each word starts/ends.
struct Words {
    std::string joined;
    std::vector<bool> starts, ends;  // indexed by byte offset into joined (size + 1)
};

bool is_separator(UChar32 c) {
    if (c == ' ') return true;
    switch (u_charType(c)) {
        case U_DASH_PUNCTUATION: case U_START_PUNCTUATION: case U_END_PUNCTUATION:
        case U_CONNECTOR_PUNCTUATION: case U_OTHER_PUNCTUATION: case U_INITIAL_PUNCTUATION:
        case U_FINAL_PUNCTUATION:
            return true;
        default:
            return is_space(c);
    }
}

Words words(const std::string& normalised) {
    Words w;
    const icu::UnicodeString u = from_utf8(normalised);
    std::vector<std::pair<std::size_t, std::size_t>> spans;  // [start, end) in joined
    bool in_word = false;
    std::size_t start = 0;
    for (int32_t i = 0; i < u.length();) {
        const UChar32 c = u.char32At(i);
        i += U16_LENGTH(c);
        if (is_separator(c)) {
            if (in_word) spans.emplace_back(start, w.joined.size());
            in_word = false;
            continue;
        }
        if (!in_word) start = w.joined.size();
        in_word = true;
        icu::UnicodeString one;
        one.append(c);
        one.toUTF8String(w.joined);
    }
    if (in_word) spans.emplace_back(start, w.joined.size());
    w.starts.assign(w.joined.size() + 1, false);
    w.ends.assign(w.joined.size() + 1, false);
    for (const auto& [s, e] : spans) {
        w.starts[s] = true;
        w.ends[e] = true;
    }
    return w;
}

// `needle`'s words, concatenated, occur in `hay` beginning at a word start and ending at a
// word end (word boundaries inside may differ: "KOMA - Script" ~ "KOMA-Script").
bool word_aligned_in(const Words& needle, const Words& hay) {
    if (needle.joined.empty()) return false;
    for (std::size_t pos = hay.joined.find(needle.joined); pos != std::string::npos;
         pos = hay.joined.find(needle.joined, pos + 1)) {
        if (hay.starts[pos] && hay.ends[pos + needle.joined.size()]) return true;
    }
    return false;
}

// ---------------------------------------------------------------- hash-only candidates

std::string trim(std::string_view s) {
    const char* ws = " \t\r\n\f\v";
    const auto b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(ws);
    return std::string(s.substr(b, e - b + 1));
}

// Runs of Unicode white space to one ASCII space, trimmed.
std::string collapse_space(const std::string& s) {
    const icu::UnicodeString u = from_utf8(s);
    icu::UnicodeString out;
    bool pending = false;
    for (int32_t i = 0; i < u.length();) {
        const UChar32 c = u.char32At(i);
        i += U16_LENGTH(c);
        if (is_space(c)) {
            pending = !out.isEmpty();
            continue;
        }
        if (pending) out.append(static_cast<UChar>(' '));
        pending = false;
        out.append(c);
    }
    return to_utf8(out);
}

std::string straight_quotes(const std::string& s) {
    const icu::UnicodeString u = from_utf8(s);
    icu::UnicodeString out;
    for (int32_t i = 0; i < u.length();) {
        const UChar32 c = u.char32At(i);
        i += U16_LENGTH(c);
        out.append(unify_quote(c));
    }
    return to_utf8(out);
}

// Spellings of one candidate title the registry may have hashed (right-to-left runs in
// either order).
void add_spellings(std::set<std::string>& out, const std::string& raw, bool also_reversed = true) {
    if (trim(raw).empty()) return;
    if (also_reversed)
        if (const std::string reversed = rtl_runs_reversed(raw); reversed != raw) add_spellings(out, reversed, false);
    out.insert(raw);
    const std::string t = trim(raw);
    out.insert(t);
    const std::string c = collapse_space(t);
    out.insert(c);
    for (const std::string& base : {c, straight_quotes(c)}) {
        out.insert(base);
        out.insert(to_utf8(apply(nfc(), from_utf8(base))));
        out.insert(to_utf8(apply(nfkc(), from_utf8(base))));
    }
}

std::vector<std::string> page_lines(std::string_view page, std::size_t max_lines) {
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos <= page.size() && lines.size() < max_lines) {
        std::size_t nl = page.find_first_of("\n\r\f", pos);
        if (nl == std::string_view::npos) nl = page.size();
        std::string line = trim(page.substr(pos, nl - pos));
        if (!line.empty()) lines.push_back(std::move(line));
        pos = nl + 1;
    }
    return lines;
}

bool ends_with_hyphen(const std::string& s) { return !s.empty() && s.back() == '-'; }

// The line of page 1, or the run of 2-4 consecutive non-empty lines, that hashes to `hash`, in the
// spelling that does.
std::optional<std::string> page_hash_match(std::string_view page, const std::string& hash) {
    constexpr std::size_t kMaxLines = 2000;
    const std::vector<std::string> lines = page_lines(page, kMaxLines);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::set<std::string> cands;
        std::string spaced = lines[i], glued_keep = lines[i], glued_drop = lines[i];
        bool hyphenated = false;
        for (std::size_t k = 0; k < 4 && i + k < lines.size(); ++k) {
            if (k > 0) {
                const std::string& prev = lines[i + k - 1];
                const std::string& next = lines[i + k];
                spaced += " " + next;
                if (ends_with_hyphen(prev)) {
                    hyphenated = true;
                    glued_keep += next;
                    glued_drop.pop_back();
                    glued_drop += next;
                } else {
                    glued_keep += " " + next;
                    glued_drop += " " + next;
                }
            }
            add_spellings(cands, spaced);
            if (hyphenated) {
                add_spellings(cands, glued_keep);
                add_spellings(cands, glued_drop);
            }
        }
        for (const std::string& c : cands)
            if (pith::title_hash(c) == hash) return c;
    }
    return std::nullopt;
}


std::string lower_hex(std::string s) {
    for (char& ch : s)
        if (ch >= 'A' && ch <= 'F') ch = static_cast<char>(ch - 'A' + 'a');
    return trim(s);
}

std::string quoted(const std::string& s) {
    constexpr std::size_t kMax = 120;
    if (s.size() <= kMax) return "\"" + s + "\"";
    return "\"" + std::string(utf8_prefix(s, kMax)) + "...\"";
}

}  // namespace

// ================================================================ normalise

// LaTeX prints its logo \LaTeXe as "LATEX 2ε": a title typed "LaTeX2e" reads as it is printed.
// The text layer may part the ε from the 2 ("L A TEX 2 ε", the ε from a math font).
std::string tex_logos(std::string s) {
    auto replace_all = [&](const std::string& from, const std::string& to) {
        for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    };
    replace_all("tex 2 \xCE\xB5", "tex 2e");
    replace_all("2\xCE\xB5", "2e");  // 2ε
    replace_all("latex 2e", "latex2e");
    return s;
}

std::string normalise(std::string_view text) {
    icu::UnicodeString u = from_code_points(dehyphenate(code_points(from_utf8(text))));
    u.foldCase(U_FOLD_CASE_DEFAULT);
    u = apply(nfkd(), u);
    u.foldCase(U_FOLD_CASE_DEFAULT);  // again: math italic capitals (𝑂) have no case until NFKD makes them letters
    return tex_logos(finish(code_points(u)));
}

// ================================================================ compare

Result compare(const std::string& title, const std::string& title_hash, const std::optional<std::string>& page1) {
    const std::string hash = lower_hex(title_hash);
    std::string plain = trim(title);
    std::string note;
    if (!plain.empty() && !hash.empty() && pith::title_hash(plain) != hash && pith::title_hash(title) != hash) {
        note = "the record's embedded title " + quoted(plain) +
               " does not hash to its title_canon_sha256, so only the hash is used; ";
        plain.clear();
    }
    if (plain.empty() && hash.empty())
        return {Outcome::NothingToCompare, note + "no title to compare: no record is embedded, or it names no title", ""};

    const std::string_view page = page1 ? utf8_prefix(*page1, kMaxTextBytes) : std::string_view{};
    const std::string page_norm = normalise(page);
    const bool page_has_text = !page_norm.empty();
    const std::string what = plain.empty() ? "the title with title_canon_sha256 " + hash.substr(0, 16) + "..."
                                           : "the record's title " + quoted(plain);
    if (!plain.empty()) {
        const std::string t = normalise(plain), reversed = rtl_runs_reversed(t);
        const Words tw = words(t);
        std::optional<Words> page_words;
        auto on_page = [&](const std::string& title_norm, const Words& title_words) {
            if (page_norm.find(title_norm) != std::string::npos) return true;
            if (!page_words) page_words = words(page_norm);
            return word_aligned_in(title_words, *page_words);
        };
        if (page_has_text && !t.empty() && (on_page(t, tw) || (reversed != t && on_page(reversed, words(reversed)))))
            return {Outcome::Matches, note + "title matches the record: " + what + " is on page 1", "page 1"};
    } else if (const auto found = page_has_text ? page_hash_match(page, hash) : std::nullopt) {
        return {Outcome::Matches, note + "title matches the record: " + what + " is on page 1", "page 1", *found};
    }
    if (page_has_text)
        return {Outcome::Differs, note + "title differs: " + what + " is not on page 1 -- the badge may have been moved onto another paper", ""};
    return {Outcome::NothingToCompare, note + "no title to compare: page 1 has no extractable text", ""};
}

namespace {

// ---------------------------------------------------------------- the title's words on the page

// A footnote or affiliation mark set with the title: a few symbols, digits or single letters
// (a comma list: "1,2", "∗,†"), in smaller type, raised, right after a word of its line. The same
// characters at the line's size are text, and so is any longer word.
bool mark_text(const std::string& normalised) {
    const std::vector<UChar32> cps = code_points(from_utf8(normalised));
    if (cps.empty() || cps.size() > 5) return false;
    std::size_t digits = 0, letters = 0;
    for (UChar32 c : cps) {
        if (c == ',') {
            digits = letters = 0;
            continue;
        }
        if (u_isdigit(c)) ++digits;
        else if (u_isalpha(c)) ++letters;
        else if (!(u_charType(c) == U_MATH_SYMBOL || u_charType(c) == U_OTHER_SYMBOL || u_charType(c) == U_OTHER_PUNCTUATION))
            return false;
        if (digits > 2 || letters > 1 || (letters && digits)) return false;
    }
    return true;
}
bool symbols_only(const std::string& normalised) {
    const std::vector<UChar32> cps = code_points(from_utf8(normalised));
    return !cps.empty() && std::none_of(cps.begin(), cps.end(), [](UChar32 c) { return u_isalnum(c); });
}
bool is_mark(const std::vector<const visible::Word*>& words, std::size_t i) {
    if (i == 0 || words[i - 1]->line_end) return false;
    const visible::Word& w = *words[i];
    const visible::Word& before = *words[i - 1];
    const double raised = (before.y0 + before.y1) / 2 - (w.y0 + w.y1) / 2;
    const std::string text = normalise(w.text);
    if (w.x0 - before.x1 >= 0.6 * before.size || !mark_text(text)) return false;
    // A digit raised after a number is its power to a reader (10 raised 3 reads 1000), not a mark.
    const std::vector<UChar32> number = code_points(from_utf8(normalise(before.text)));
    const std::vector<UChar32> raised_chars = code_points(from_utf8(text));
    if (!number.empty() && u_isdigit(number.back()) && std::any_of(raised_chars.begin(), raised_chars.end(), u_isdigit))
        return false;
    // In smaller type and raised; or a symbol (acmart's \titlenote star) raised well above the line.
    return (w.size <= 0.8 * before.size && raised > 0.1 * before.size) || (symbols_only(text) && raised > 0.25 * before.size);
}

// Punctuation the text layer parts from the word it is set against ("LaTeX2ε" then "."): the
// matching passes over punctuation, so it ends no word of the title.
bool glued_punctuation(const std::vector<const visible::Word*>& words, std::size_t i) {
    const visible::Word& w = *words[i];
    const visible::Word& before = *words[i - 1];
    const std::vector<UChar32> cps = code_points(from_utf8(w.text));
    return !cps.empty() && std::all_of(cps.begin(), cps.end(), is_separator) && !before.line_end &&
           w.x0 - before.x1 < 0.12 * std::min(w.size, before.size);
}

// Whether the title's word `i` ends its line: nothing but marks (or punctuation set against it)
// follows it there.
bool ends_line(const std::vector<const visible::Word*>& words, std::size_t i) {
    for (; i < words.size(); ++i) {
        if (words[i]->line_end || i + 1 == words.size()) return true;
        if (!is_mark(words, i + 1) && !glued_punctuation(words, i + 1)) return false;
    }
    return true;
}

// Symbols that fonts spell in more than one way compare as one.
// The radical sign is dropped on both sides: its glyph is set apart from what it covers (poppler
// reads pdfTeX's on a line of its own above the title, LuaTeX's not at all).
constexpr UChar32 kDropped = 0x221A;
UChar32 unify_symbol(UChar32 c) {
    switch (c) {
        case '`': return 'l';  // LuaTeX's script l (ℓ, "l" after NFKD) reads as a backquote in poppler
        case 0x00B7: case 0x2219: case 0x22C5: return 0x22C5;  // dot operators
        case '*': case 0x2217: return 0x2217;
        case '~': case 0x223C: return 0x223C;
        case '|': case 0x2223: return 0x2223;
        default: return c;
    }
}

// The title's words as matching reads them: a text word must be one word of the page (or two
// joined where a line ends in a hyphen, or where no space parts them); a word that holds a
// formula matches the page's words that spell it whatever their spacing; TeX pith cannot
// typeset stands for at most kMaxUnknownWords of the page's words.
struct Unit {
    enum class Kind { Text, Formula, Unknown } kind = Kind::Text;
    std::string chars;  // normalised, without separators (a formula's: without spaces and punctuation)
};
constexpr std::size_t kMaxUnknownWords = 3;

void append_folded(std::string& out, UChar32 c) {
    if (c == kDropped) return;
    icu::UnicodeString one;
    one.append(unify_symbol(c));
    one.toUTF8String(out);
}

std::vector<Unit> units_of(const tex_title::Typeset& title) {
    std::vector<Unit> units;
    Unit current;
    auto flush = [&] {
        if (!current.chars.empty()) units.push_back(current);
        current = Unit{};
    };
    for (const tex_title::Piece& piece : title.pieces) {
        if (piece.kind == tex_title::Piece::Kind::Unknown) {
            flush();
            units.push_back({Unit::Kind::Unknown, piece.text});
            continue;
        }
        const bool formula = piece.kind == tex_title::Piece::Kind::Math;
        const icu::UnicodeString raw = from_utf8(piece.text);
        if (!formula && raw.length() > 0 && is_space(raw.char32At(0))) flush();
        for (UChar32 c : code_points(from_utf8(normalise(piece.text)))) {
            if (is_separator(c)) {
                if (!formula) flush();
                continue;
            }
            if (formula) current.kind = Unit::Kind::Formula;
            append_folded(current.chars, c);
        }
        if (!formula && raw.length() > 0 && is_space(raw.char32At(raw.length() - 1))) flush();
    }
    flush();
    return units;
}

// The page's words split at separators ("Self-Supervised" is two), marks left out.
struct Part {
    std::string chars;
    std::size_t word;         // index into the words
    bool word_start, word_end;
    bool joins_next = false;  // the page may spell one word across this part and the next
    bool mark = false;        // a footnote mark, or a formula's superscript: text passes over it
};
// A font without accented letters (TeX's OT1) draws an accent as a glyph of its own over the
// letter; where poppler does not combine the two, the spacing accent must not split the word.
bool spacing_accent(UChar32 c) {
    switch (c) {
        case 0x00A8: case 0x00B4: case 0x00AF: case 0x00B8: case 0x02C6: case 0x02C7: case 0x02D8:
        case 0x02D9: case 0x02DA: case 0x02DB: case 0x02DC: case 0x02DD:
            return true;
        default:
            return false;
    }
}
std::string without_spacing_accents(const std::string& text) {
    std::vector<UChar32> cps = code_points(from_utf8(text));
    cps.erase(std::remove_if(cps.begin(), cps.end(), spacing_accent), cps.end());
    return to_utf8(from_code_points(cps));
}

// A mark the font sets in the word's own type and run (acmart's \titlenote star: "Inference∗") is
// split off the word as a mark of its own: symbols are no letters of a word.
void split_trailing_mark(std::vector<Part>& parts) {
    const std::vector<UChar32> cps = code_points(from_utf8(parts.back().chars));
    std::size_t keep = cps.size();
    while (keep > 0 && (u_charType(cps[keep - 1]) == U_MATH_SYMBOL || u_charType(cps[keep - 1]) == U_OTHER_SYMBOL)) --keep;
    if (keep == 0 || keep == cps.size()) return;
    Part mark = parts.back();
    parts.back().chars = to_utf8(from_code_points({cps.begin(), cps.begin() + static_cast<std::ptrdiff_t>(keep)}));
    mark.chars = to_utf8(from_code_points({cps.begin() + static_cast<std::ptrdiff_t>(keep), cps.end()}));
    mark.word_start = false;
    mark.mark = true;
    parts.back().word_end = true;     // the title may end before its mark,
    parts.back().joins_next = true;   // or go on into it (an ion's charge: "Ca2+")
    parts.push_back(mark);
}

// Two words that meet in a script written without spaces: on a line, where either side is in one
// ("XDUTS 手册"); across a line break, where both are ("模板" at a line's end, "使用" starting the
// next). The gap parts no words there.
bool without_spaces_between(const std::string& word, const std::string& next, bool line_break) {
    const std::vector<UChar32> a = code_points(from_utf8(word)), b = code_points(from_utf8(next));
    if (a.empty() || b.empty()) return false;
    const bool before = written_without_spaces(static_cast<char32_t>(a.back()));
    const bool after = written_without_spaces(static_cast<char32_t>(b.front()));
    return line_break ? before && after : before || after;
}

std::vector<Part> parts_of(const std::vector<const visible::Word*>& words) {
    std::vector<Part> parts;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const bool mark = is_mark(words, i);
        const std::string n = normalise(without_spacing_accents(words[i]->text));
        const std::size_t first = parts.size();
        std::string chars;
        for (UChar32 c : code_points(from_utf8(n))) {
            if (!is_separator(c)) {
                append_folded(chars, c);
                continue;
            }
            if (!chars.empty()) parts.push_back({chars, i, parts.size() == first, false});
            chars.clear();
        }
        if (!chars.empty()) parts.push_back({chars, i, parts.size() == first, false});
        if (parts.size() == first) continue;
        split_trailing_mark(parts);
        parts.back().word_end = true;
        const visible::Word& w = *words[i];
        const bool hyphenated = w.line_end && !n.empty() && n.back() == '-';
        const visible::Word* next = i + 1 < words.size() ? words[i + 1] : nullptr;
        const bool glued = next && (w.line_end ? without_spaces_between(w.text, next->text, true)
                                               : next->x0 - w.x1 < 0.12 * std::min(w.size, next->size) ||
                                                     without_spaces_between(w.text, next->text, false));
        parts.back().joins_next = hyphenated || glued;
        for (std::size_t k = first; k < parts.size(); ++k) parts[k].mark = parts[k].mark || mark;
    }
    // \LaTeXe prints "LATEX 2ε", which normalise() reads "latex2e" (tex_logos()); the text layer
    // may part the 2 from the logo, and the ε from the 2.
    for (std::size_t k = 1; k < parts.size(); ++k) {
        Part& before = parts[k - 1];
        const std::string& b = before.chars;
        const bool logo_before = b.size() >= 3 && b.compare(b.size() - 3, 3, "tex") == 0;
        if (parts[k].chars[0] == '2' && logo_before) before.joins_next = true;
        if (parts[k].chars == "\xCE\xB5" && before.joins_next && b == "2") parts[k].chars = "e";
    }
    return parts;
}

class Matcher {
public:
    // `joined`, when given: set for each part a text unit of the match goes on from into the next.
    Matcher(const std::vector<Unit>& units, const std::vector<Part>& parts, std::vector<bool>* joined = nullptr)
        : units_(units), parts_(parts), joined_(joined) {}
    // One past the last part of a match of every unit beginning at part `p`, if any.
    std::optional<std::size_t> from(std::size_t u, std::size_t p) const {
        if (u == units_.size()) return p;
        if (u == 0 || p >= parts_.size() || !parts_[p].mark) return here(u, p);
        // Raised text between two of the title's words is a mark, not one of them, unless the
        // record raises it too (the 14 of "\textsuperscript{14}C").
        if (auto end = here(u, p)) return end;
        while (p < parts_.size() && parts_[p].mark) ++p;
        return here(u, p);
    }

private:
    // One past the last part of a match of every unit from `u` on, unit `u` beginning at part `p`.
    std::optional<std::size_t> here(std::size_t u, std::size_t p) const {
        const Unit& unit = units_[u];
        if (unit.kind == Unit::Kind::Unknown) {
            for (std::size_t n = 0; n <= kMaxUnknownWords && p + n <= parts_.size(); ++n)
                if (n == 0 || parts_[p + n - 1].word_end)
                    if (auto end = from(u + 1, p + n)) return end;
            return std::nullopt;
        }
        if (unit.kind == Unit::Kind::Formula) return formula(u, p, "");
        std::string spelled;
        for (std::size_t q = p; q < parts_.size(); ++q) {
            if (q > p && !parts_[q - 1].joins_next) return std::nullopt;
            spelled += parts_[q].chars;
            if (spelled.size() > unit.chars.size() || unit.chars.compare(0, spelled.size(), spelled) != 0) return std::nullopt;
            if (spelled.size() == unit.chars.size())
                if (auto end = from(u + 1, q + 1)) {
                    for (std::size_t k = p; joined_ && k < q; ++k) (*joined_)[k] = true;
                    return end;
                }
        }
        return std::nullopt;
    }

    // A formula spelled from part `q` on, whatever the spacing; a raised part inside it may be its
    // superscript (σ², the A of the LaTeX logo) or a mark after it.
    std::optional<std::size_t> formula(std::size_t u, std::size_t q, const std::string& spelled) const {
        const Unit& unit = units_[u];
        if (spelled.size() == unit.chars.size()) return from(u + 1, q);
        if (q >= parts_.size()) return std::nullopt;
        if (parts_[q].mark && !spelled.empty())
            if (auto end = formula(u, q + 1, spelled)) return end;
        const std::string more = spelled + parts_[q].chars;
        if (more.size() > unit.chars.size() || unit.chars.compare(0, more.size(), more) != 0) return std::nullopt;
        return formula(u, q + 1, more);
    }

    const std::vector<Unit>& units_;
    const std::vector<Part>& parts_;
    std::vector<bool>* joined_;
};

std::vector<std::pair<std::size_t, std::size_t>> title_spans(const std::vector<const visible::Word*>& words, const tex_title::Typeset& title) {
    const std::vector<Unit> units = units_of(title);
    const std::vector<Part> parts = parts_of(words);
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    if (std::none_of(units.begin(), units.end(), [](const Unit& u) { return u.kind != Unit::Kind::Unknown; })) return spans;
    const Matcher matcher(units, parts);
    for (std::size_t p = 0; p < parts.size(); ++p) {
        if (!parts[p].word_start || parts[p].mark) continue;
        const auto end = matcher.from(0, p);
        if (end && *end > p && parts[*end - 1].word_end) spans.emplace_back(parts[p].word, parts[*end - 1].word);
    }
    return spans;
}

tex_title::Typeset plain_text(const std::string& text) { return {{{tex_title::Piece::Kind::Text, text}}}; }

// The words of the span (indices into page.words: `index` maps `words` there) whose word of the
// record goes on into the next word on its line: the text layer parts a word where the page shows
// no space (the LaTeX logo's lowered E, a change of font), and the pixels are asked for it whole.
std::vector<std::size_t> joined_words(const std::vector<const visible::Word*>& words,
                                      const std::vector<std::size_t>& index, std::pair<std::size_t, std::size_t> span,
                                      const tex_title::Typeset& title) {
    const std::vector<Unit> units = units_of(title);
    const std::vector<Part> parts = parts_of(words);
    std::vector<bool> joined(parts.size());
    const Matcher matcher(units, parts, &joined);
    std::vector<std::size_t> out;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        if (index[parts[p].word] != span.first || !parts[p].word_start || !matcher.from(0, p)) continue;
        for (std::size_t k = p; k + 1 < parts.size() && index[parts[k].word] <= span.second; ++k)
            if (joined[k] && parts[k + 1].word != parts[k].word && !words[parts[k].word]->line_end)
                out.push_back(index[parts[k].word]);
        break;
    }
    return out;
}

// The words of a span that spell part of the title's formulas (or of TeX pith cannot typeset):
// a part of the word that is no text word of the title and stands inside such a unit. Only the
// record's formulas can exempt a word: a word the sender hyphenates or spells otherwise cannot.
// `glued`: for each, the parts that are text words of the title and of no formula ("sparse" of
// "k-Sparse"): the formula exempts its own letters, never the words glued to it.
std::vector<std::size_t> formula_words(const visible::Page& page, std::pair<std::size_t, std::size_t> span,
                                       const tex_title::Typeset& title, std::vector<std::string>& glued) {
    std::set<std::string> text;
    std::vector<std::string> loose;
    for (const Unit& u : units_of(title)) {
        if (u.kind == Unit::Kind::Text) text.insert(u.chars);
        else loose.push_back(u.chars);
    }
    auto in_formula = [&](const std::string& part) {
        return !text.count(part) && std::any_of(loose.begin(), loose.end(), [&](const std::string& f) { return f.find(part) != std::string::npos; });
    };
    auto in_no_formula = [&](const std::string& part) {
        const auto holds = [&](const std::string& f) { return f.find(part) != std::string::npos; };
        return std::none_of(loose.begin(), loose.end(), holds);
    };
    std::vector<std::size_t> out;
    glued.clear();
    for (std::size_t i = span.first; i <= span.second && i < page.words.size(); ++i) {
        bool formula = false, letters = false;  // a word without letters (a radical sign, a bracket) has none to read
        std::string chars, text_words;
        for (UChar32 c : code_points(from_utf8(normalise(without_spacing_accents(page.words[i].text)) + " "))) {
            if (!is_separator(c)) {
                append_folded(chars, c);
                continue;
            }
            formula = formula || (!chars.empty() && in_formula(chars));
            letters = letters || !chars.empty();
            if (!chars.empty() && text.count(chars) && in_no_formula(chars))
                text_words += (text_words.empty() ? "" : " ") + chars;
            chars.clear();
        }
        if (formula || (!letters && !loose.empty())) out.push_back(i), glued.push_back(formula ? text_words : "");
    }
    return out;
}

double median_size(const std::vector<const visible::Word*>& words) {
    std::vector<double> sizes;
    for (const auto* w : words) sizes.push_back(w->size);
    std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
    return sizes[sizes.size() / 2];
}

// A title is set as a title: on lines of its own (it starts a line and ends one), in type no
// smaller than most of the page's text, and not as a column of one-word lines at the size of
// the text around it. A citation in running text, a footnote, a reference list or a column of
// labels is not. (Heuristics, measured on the corpus: doc/trust.md.)
bool set_as_title(const std::vector<const visible::Word*>& words, std::pair<std::size_t, std::size_t> span, double median) {
    if (span.first > 0 && !words[span.first - 1]->line_end) return false;
    if (!ends_line(words, span.second)) return false;
    std::size_t lines = 0, count = span.second - span.first + 1;
    // The title's type is its words' of three letters or more: a sub- or superscript, a mark or
    // the raised A of the LaTeX logo is smaller.
    double smallest = 1e300, any = 1e300;
    for (std::size_t i = span.first; i <= span.second; ++i) {
        any = std::min(any, words[i]->size);
        if (code_points(from_utf8(words[i]->text)).size() >= 3) smallest = std::min(smallest, words[i]->size);
        lines += words[i]->line_end || i == span.second;
    }
    if (smallest > 1e299) smallest = any;
    if (smallest < 0.85 * median) return false;
    return lines < 3 || count >= 2 * lines || smallest > 1.1 * median;
}


// The type a line is set in: its longest word's (a footnote mark or a section number does not count).
double line_size(const std::vector<const visible::Word*>& words, std::size_t first, std::size_t last) {
    const auto* longest = words[first];
    for (std::size_t i = first; i <= last; ++i)
        if (words[i]->text.size() > longest->text.size()) longest = words[i];
    return longest->size;
}

// A line of the page in reading order: its first and last word, its type, and whether it could
// be part of a title or heading (it reads left to right and is not a badge: a turned line may be
// arXiv's identifier stamp in the margin).
struct Line {
    std::size_t first, last;
    double size;
    bool upright;
};
std::vector<Line> lines_of(const std::vector<const visible::Word*>& words) {
    std::vector<Line> lines;
    for (std::size_t first = 0, i = 0; i < words.size(); ++i) {
        if (!words[i]->line_end && i + 1 < words.size()) continue;
        bool upright = true;
        for (std::size_t k = first; k <= i; ++k) upright = upright && words[k]->rotation == 0 && !badge_word(*words[k]);
        lines.push_back({first, i, line_size(words, first, i), upright});
        first = i + 1;
    }
    return lines;
}

std::string line_text(const std::vector<const visible::Word*>& words, const Line& line) {
    std::string out;
    for (std::size_t i = line.first; i <= line.last; ++i) out += (i > line.first ? " " : "") + words[i]->text;
    return out;
}

// A heading: upright lines in one type holding two words or more together. A title stacked one
// word a line counts; a single large word alone (a logo, a drop cap, a watermark) does not.
bool heading(const std::vector<Line>& lines, std::size_t k, std::pair<std::size_t, std::size_t> span) {
    auto joins = [&](std::size_t j) {
        const Line& l = lines[j];
        return l.upright && (l.last < span.first || l.first > span.second) && std::abs(l.size - lines[k].size) <= 0.05 * lines[k].size;
    };
    if (!joins(k)) return false;
    std::size_t words = lines[k].last - lines[k].first + 1;
    for (std::size_t j = k; j > 0 && joins(j - 1) && words < 2; --j) words += lines[j - 1].last - lines[j - 1].first + 1;
    for (std::size_t j = k; j + 1 < lines.size() && joins(j + 1) && words < 2; ++j) words += lines[j + 1].last - lines[j + 1].first + 1;
    return words >= 2;
}

// The paper's own heading that outranks a title span, "" when none does: a line anywhere on the
// page in type larger than the title's (beyond kTitleType), one above it in its type, or one right
// over it in nearly its type (the pixels' rule, for a line OCR may not read: pale, or thin).
// Another paper's title set as lines of their own among this paper's text, a fake heading, is
// outranked by the paper's own title, or by its authors' names above it.
constexpr double kTitleType = 0.85;  // a title's largest type is at least this share of any heading's
constexpr double kSameType = 0.95;   // a line above the title in at least this share of its type outranks it
constexpr double kRightOverType = 0.85, kRightOverGap = 1.0;  // pixels.hpp's kAboveType and kPrefixGap
std::string outranked_by(const std::vector<const visible::Word*>& words, const std::vector<Line>& lines,
                         std::pair<std::size_t, std::size_t> span) {
    double size = 0, top = 1e300;
    for (std::size_t i = span.first; i <= span.second; ++i) size = std::max(size, words[i]->size), top = std::min(top, words[i]->y0);
    for (std::size_t k = 0; k < lines.size(); ++k) {
        if (!heading(lines, k, span)) continue;
        const Line& l = lines[k];
        const auto first = words.begin() + l.first, last = words.begin() + l.last + 1;
        const bool above = std::all_of(first, last, [&](const auto* w) { return w->y1 <= top + 1; });
        const auto near = [&](const auto* w) { return w->y1 >= top - kRightOverGap * size; };
        const bool right_over = above && std::any_of(first, last, near);
        const bool same_type_above = above && l.size >= kSameType * size;
        if (kTitleType * l.size > size || same_type_above || (right_over && l.size >= kRightOverType * size))
            return line_text(words, l);
    }
    return "";
}

}  // namespace

namespace {

// The words of a page, the visible ones or all of them, and where each is in page.words.
std::vector<const visible::Word*> words_of(const visible::Page& page, bool visible_only, std::vector<std::size_t>* index = nullptr) {
    std::vector<const visible::Word*> words;
    for (std::size_t i = 0; i < page.words.size(); ++i) {
        if (visible_only && !page.words[i].visible) continue;
        words.push_back(&page.words[i]);
        if (index) index->push_back(i);
    }
    return words;
}

// The title's words shown in this order on the page, whatever lies around them: whether the
// title is in the page's text at all (when its words cannot be told apart in reading order).
bool text_shows(const std::string& title, const std::string& page) {
    auto spaced = [](const std::string& text) {  // the words, one space apart
        std::string out = " ";
        for (UChar32 c : code_points(from_utf8(normalise(text)))) {
            if (!is_separator(c)) append_folded(out, c);
            else if (out.back() != ' ') out += ' ';
        }
        return out.back() == ' ' ? out : out + ' ';
    };
    const std::string t = spaced(title);
    return t.size() > 2 && spaced(page).find(t) != std::string::npos;
}

// A title pith can compare: it has words it could typeset, more of them than parts it could not.
std::string untypeset(const tex_title::Typeset& title) {
    const std::vector<Unit> units = units_of(title);
    const auto unknown = static_cast<std::size_t>(std::count_if(units.begin(), units.end(), [](const Unit& u) { return u.kind == Unit::Kind::Unknown; }));
    const auto text = static_cast<std::size_t>(std::count_if(units.begin(), units.end(), [](const Unit& u) { return u.kind == Unit::Kind::Text; }));
    if (text == 0 || (unknown > 0 && (units.size() - unknown < 2 || unknown > units.size() - unknown))) {
        std::string parts;
        for (const std::string& u : title.unknown()) parts += (parts.empty() ? "" : ", ") + u;
        return "the record's title " + quoted(title.text()) + " is mostly " +
               (parts.empty() ? std::string("formula") : "TeX pith cannot typeset (" + parts + ")") + ": it cannot be compared with the page";
    }
    return "";
}

OnPage judged(const std::vector<const visible::Word*>& words, const std::vector<std::size_t>& index,
              std::vector<std::pair<std::size_t, std::size_t>> spans, const std::string& found) {
    const double median = median_size(words);
    const std::vector<Line> lines = lines_of(words);
    std::string outranking;  // the paper's own heading that outranks a span set as a title
    const auto as_title = std::find_if(spans.begin(), spans.end(), [&](const auto& span) {
        if (!set_as_title(words, span, median)) return false;
        outranking = outranked_by(words, lines, span);
        return outranking.empty();
    });
    const auto first = std::make_pair(index[spans.front().first], index[spans.front().second]);
    if (as_title == spans.end() && !outranking.empty())
        return {Shown::NotAsTitle, "the record's title is on page 1 only where the page's own heading " + quoted(outranking) +
                                       " outranks it (in larger type, or in its type above it): not set as the paper's title",
                std::nullopt, {}, first};
    if (as_title == spans.end())
        return {Shown::NotAsTitle, "the record's title is on page 1 only inside other text or in small type (a citation, a "
                                   "footnote, a reference), not set as the paper's title", std::nullopt, {}, first};
    return {Shown::AsTitle, found, std::make_pair(index[as_title->first], index[as_title->second])};
}

}  // namespace

bool badge_word(const visible::Word& w) { return w.text.rfind("pith:", 0) == 0; }

OnPage on_page(const std::string& plain_hint, const std::string& hash, const std::optional<visible::Page>& page) {
    // Only the signed hash binds: a plain title without it is nobody's word. A plain title that
    // hashes to it is typeset from its TeX; without one, the page's lines that hash are the title.
    const std::string plain = hash.empty() ? "" : trim(plain_hint), signed_hash = lower_hex(hash);
    const std::optional<std::string> shown = page ? std::optional<std::string>(visible::visible_text(*page)) : std::nullopt;
    std::optional<tex_title::Typeset> wanted;
    std::string what, note;
    if (!plain.empty() && (pith::title_hash(plain) == signed_hash || pith::title_hash(plain_hint) == signed_hash)) {
        wanted = tex_title::typeset(plain);
        what = "the record's title " + quoted(plain);
        if (const std::string why = untypeset(*wanted); !why.empty()) return {Shown::Unknown, why, std::nullopt};
        const std::vector<std::string> unknown = wanted->unknown();
        for (std::size_t i = 0; i < unknown.size(); ++i)
            note += (i ? ", " : " (except ") + unknown[i] + (i + 1 == unknown.size() ? ", which pith cannot typeset)" : "");
    } else {
        const Result t = compare(plain, hash, shown);
        if (t.outcome != Outcome::Matches && t.outcome != Outcome::Differs) return {Shown::Unknown, t.explanation, std::nullopt};
        if (t.outcome == Outcome::Matches) wanted = plain_text(t.found);
        what = t.explanation;
    }
    const bool shows_text = page && std::any_of(page->words.begin(), page->words.end(), [](const visible::Word& w) {
                                return w.visible && !badge_word(w);
                            });
    if (wanted && page) {
        std::vector<std::size_t> index;
        const std::vector<const visible::Word*> words = words_of(*page, true, &index);
        auto spans = title_spans(words, *wanted);
        if (spans.empty()) spans = title_spans(words, plain_text(rtl_runs_reversed(wanted->text())));
        if (!spans.empty()) {
            OnPage t = judged(words, index, std::move(spans), "title matches the record: " + what + " is on page 1" + note);
            if (t.span) t.formula_words = formula_words(*page, *t.span, *wanted, t.formula_text);
            if (t.span) t.joined_words = joined_words(words, index, *t.span, *wanted);
            return t;
        }
        const std::vector<const visible::Word*> all = words_of(*page, false);
        if (!title_spans(all, *wanted).empty() || !title_spans(all, plain_text(rtl_runs_reversed(wanted->text()))).empty()) {
            if (shows_text)
                return {Shown::Hidden, "the record's title is on page 1 only as text a reader cannot see (" + visible::hidden_reasons(*page) + ")", std::nullopt};
            return {Shown::Scanned, "page 1 shows no text drawn as glyphs (a scanned page?): the record's title is only in its "
                                    "invisible text layer, which cannot bind it", std::nullopt};
        }
        if (text_shows(wanted->text(), *shown))  // where it stands cannot be judged: never a title by default
            return {Shown::Unknown, "the record's title is in page 1's text, but its words do not line up in reading order, "
                                    "so whether it is set as the title cannot be judged", std::nullopt};
    }
    if (!shows_text)
        return {Shown::Unknown, "no title to compare: page 1 shows no text (a scan or a picture?)", std::nullopt};
    if (!wanted) return {Shown::Differs, what, std::nullopt};
    return {Shown::Differs, "title differs: " + what + " is not on page 1 -- the badge may have been moved onto another paper", std::nullopt};
}

namespace {

// A page before the title block's, as on_page() judged it.
struct Before {
    std::optional<visible::Page> page;
    OnPage shown;
};

// The record's title as the page's text layer shows it (on_page()'s span), or nothing.
std::vector<std::string> shown_title(const Before& b) {
    std::vector<std::string> out;
    const auto& where = b.shown.span ? b.shown.span : b.shown.elsewhere;
    if (b.page && where)
        for (std::size_t w = where->first; w <= where->second; ++w) out.push_back(b.page->words[w].text);
    return out;
}

// Why page `index` is not front matter before a title in type `size` ("" when it is): a cover,
// highlights or a graphical abstract is a short page with no type larger than the title's that
// shows the record's title or next to nothing; in the text layer, then in the pixels.
std::string not_front_matter(int index, const Before& b, double size, const FrontMatterPixels& pixels_why) {
    if (!b.page) return "poppler cannot read it";
    const std::vector<std::string> title = shown_title(b);
    std::size_t words = 0;
    for (const visible::Word& w : b.page->words) {
        if (!w.visible || badge_word(w)) continue;
        if (++words > kFrontMatterWords) return "it shows more than " + std::to_string(kFrontMatterWords) + " words";
        if (w.size > size + 0.5) return "it shows \"" + w.text + "\" in type larger than the title's";
    }
    if (title.empty() && words > kCoverWords)
        return "it shows " + std::to_string(words) + " words but not the record's title: a cover that names something else";
    return pixels_why(index, *b.page, size, title);
}

// The title's type on its page: its largest word of three letters or more (a mark or a
// subscript is smaller); with the hash alone no words are known, and only the word count limits
// the pages before.
double title_type(const OnPage& t, const visible::Page& page) {
    if (!t.span) return 1e9;
    double size = 0, any = 0;
    for (std::size_t w = t.span->first; w <= t.span->second; ++w) {
        any = std::max(any, page.words[w].size);
        if (code_points(from_utf8(page.words[w].text)).size() >= 3) size = std::max(size, page.words[w].size);
    }
    return size > 0 ? size : any;
}

}  // namespace

TitleBlock title_block(const std::string& plain, const std::string& hash, int page_count,
                       const std::function<visible::Reading(int)>& read, const FrontMatterPixels& pixels_why) {
    TitleBlock first;
    first.reading = read(0);
    first.shown = on_page(plain, hash, first.reading.page);
    // A scan's later pages are scans too: only page 1's text layer is worth a look.
    if (first.reading.failed || first.shown.shown == Shown::AsTitle || first.shown.shown == Shown::Scanned ||
        (plain.empty() && hash.empty()))
        return first;
    std::vector<Before> before = {{first.reading.page, first.shown}};
    for (int i = 1; i < std::min(page_count, kTitlePages); ++i) {
        visible::Reading r = read(i);
        if (r.failed) break;
        OnPage t = on_page(plain, hash, r.page);
        if (t.shown == Shown::AsTitle) {
            // Front matter is judged against this page's title: a highlights page that repeats the
            // title in small type under a larger heading does not bind, the title page after it may.
            const double size = title_type(t, *r.page);
            std::string why;
            for (std::size_t j = 0; j < before.size() && why.empty(); ++j)
                if (std::string no = not_front_matter(static_cast<int>(j), before[j], size, pixels_why); !no.empty())
                    why = "page " + std::to_string(j + 1) + " is not front matter: " + no;
            if (why.empty()) {
                t.explanation = "the record's title is set as the title on page " + std::to_string(i + 1) + ", after " +
                                (i == 1 ? "a page" : std::to_string(i) + " pages") + " of front matter (a cover, highlights or a graphical abstract)";
                return {i, std::move(t), std::move(r)};
            }
            first.shown.explanation += "; page " + std::to_string(i + 1) + " shows it as the title, but " + why;
        }
        before.push_back({std::move(r.page), std::move(t)});
    }
    return first;
}

}  // namespace pith::page::title
