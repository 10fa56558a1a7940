// SPDX-License-Identifier: MIT
// The verdict on the pixels' reading of a title (pixels.hpp: judge(), not_front_matter()): the
// title's words aligned with what OCR read, each confirmed exactly or not, and the page's lines
// ranked by type. pixels.cpp reads; this file compares.
#include "page/pixels.hpp"

#include "core/edit_distance.hpp"
#include "page/logo_letters.hpp"
#include "page/pixel_words.hpp"
#include "page/signs.hpp"
#include "page/title.hpp"

#include <unicode/uchar.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace pith::page::pixels {

namespace {

// ---------------------------------------------------------------- comparing

// A word as compared: its letters and digits, case folded, accents dropped (title::normalise),
// with the characters OCR confuses folded together (0/o, 1/i/l, ß/B, Latin and Cyrillic or Greek
// letters of one shape). A script written without spaces gives a token per character.
struct Token {
    std::u32string text;
    const OcrWord* ocr = nullptr;  // the OCR word it comes from, for OCR tokens
    bool restored = false;         // its first letter put back (restore_initials()): not read, so never exact
};

// OCR's character errors tolerated: one in five characters (none in a word of 1-3).
std::size_t allowed_errors(std::size_t length) { return (length + 1) / 5; }

// Whether OCR's letters `o` can be a misreading of the title's `t`: at most `allowed` edits,
// lengths within one of each other, and no letter added or dropped in front. A prefix makes
// another word ("possible" drawn as "impossible", "typical" as "atypical"), a misreading rarely.
bool misread(const std::u32string& t, const std::u32string& o, std::size_t allowed) {
    if (edit_distance(t, o) > allowed) return false;
    if (t.size() == o.size()) return true;
    return std::max(t.size(), o.size()) - std::min(t.size(), o.size()) == 1 && !t.empty() && !o.empty() &&
           t.front() == o.front();
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
    // Title tokens (by index) whose letters this reading gives exactly, but joined to a neighbour
    // or parted, as OCR does inside formulas ("O(n logn)"): placed, never confirmed, for a word
    // boundary the page does not show is another word ("in action" drawn "inaction", "therapist"
    // drawn "the rapist"), and a word read alone shows no boundary (require_exact_words()).
    std::vector<bool> regrouped;
    std::size_t added = 0;  // characters of a script without spaces read where the title has none, tolerated
    std::size_t differences() const { return missing.size() + extra.size(); }
};

// One move of the alignment: `a` title tokens from `i` against `b` OCR tokens from `j` (0: skipped).
struct Step {
    std::size_t i = 0, j = 0;
    int a = 0, b = 0;
};

double skip_cost(const std::u32string& s, double confidence) {
    return counts(s) && confidence >= kMinConfidence ? 1.0 : 0.01;
}
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
                    const std::size_t allowed =
                        a == 1 && b == 1 ? allowed_errors(std::max(tt.size(), oo.size()))
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
    out.regrouped.resize(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) out.exact[i] = !must_show(t[i]);  // a lone letter: nothing to confirm
    for (std::size_t k = 0; k < steps.size();) {
        const Step& s = steps[k];
        if (s.a > 0 && s.b > 0) {
            std::u32string title_letters, read_letters, title_words, read_words;
            bool restored = false;
            for (int x = 0; x < s.a; ++x) {
                out.matched += counts(t[s.i + x]), title_letters += t[s.i + x];
                title_words += (x ? U" " : U"") + t[s.i + x];
            }
            for (int x = 0; x < s.b; ++x) {
                read_letters += o[s.j + x].text, restored = restored || o[s.j + x].restored;
                read_words += (x ? U" " : U"") + o[s.j + x].text;
            }
            const bool same = title_letters == read_letters || logo_reading(title_letters, read_letters);
            const bool exact = same && !restored && s.a == s.b;
            for (int x = 0; x < s.a; ++x) {
                out.exact[s.i + x] = exact || !must_show(t[s.i + x]);
                out.regrouped[s.i + x] = s.a != s.b && same;
            }
            if (!exact) out.inexact.emplace_back(title_words, read_words);
            ++k;
            continue;
        }
        // A gap: the run of skipped tokens up to the next match.
        std::vector<std::u32string> missing, extra;
        for (; k < steps.size() && !(steps[k].a > 0 && steps[k].b > 0); ++k) {
            if (steps[k].a > 0 && must_show(t[steps[k].i])) missing.push_back(t[steps[k].i]);
            if (steps[k].b > 0 && skip_cost(o[steps[k].j].text, confidence_of(o[steps[k].j])) >= 1)
                extra.push_back(o[steps[k].j].text);
        }
        const bool one_character =
            missing.size() + extra.size() > 0 && missing.size() <= 1 && extra.size() <= 1 &&
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

// OCR's words in reading order: lines from the top (words whose middles lie within half a line
// of each other), each from the left. Sparse-text segmentation gives them block by block.
template <typename W>
std::vector<W> reading_order(std::vector<W> words, double line) {
    auto middle = [](const W& w) { return (w.y0 + w.y1) / 2; };
    std::stable_sort(words.begin(), words.end(), [&](const W& a, const W& b) { return middle(a) < middle(b); });
    for (std::size_t start = 0; start < words.size();) {
        std::size_t end = start + 1;
        while (end < words.size() && middle(words[end]) - middle(words[start]) < line / 2) ++end;
        std::stable_sort(words.begin() + static_cast<std::ptrdiff_t>(start),
                         words.begin() + static_cast<std::ptrdiff_t>(end),
                         [](const W& a, const W& b) { return a.x0 < b.x0; });
        start = end;
    }
    return words;
}

// Whether an OCR word's middle lies on a text-layer word (its box, `margin` points around it).
bool over(const OcrWord& o, const visible::Word& w, double margin = 2) {
    const double cx = (o.x0 + o.x1) / 2, cy = (o.y0 + o.y1) / 2;
    return cx >= w.x0 - margin && cx <= w.x1 + margin && cy >= w.y0 - margin && cy <= w.y1 + margin;
}

}  // namespace

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
        if (letters_of(w->text) >= 3 && w->confidence >= kMinConfidence && w->x1 - w->x0 >= h && w->y1 <= bottom &&
            h > height)
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
    else if (a.missing.size() <= 1 && a.extra.size() <= 1 &&
             (a.matched >= 3 || a.title <= 2))  // a misread word, or a title too short to tell
        j.explanation =
            layer + ", but " + pixels + ", " + differences + " (one word: possibly OCR's misreading; not confirmed)";
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

// A word read alone confirms its letters, not its boundaries: a word some pass joins to its
// neighbour or parts is confirmed only by a reading of its line that gives it as a word of its own.
void require_exact_words(const std::vector<visible::Word>& title, const Reading& r,
                         const std::vector<PassJudgement>& passes, const PassJudgement& best, Judgement& j) {
    std::vector<bool> confirmed = best.alignment.exact, regrouped(confirmed.size());
    std::size_t added = best.alignment.added;
    for (const PassJudgement& p : passes) {
        if (p.alignment.exact.size() != confirmed.size()) continue;
        for (std::size_t i = 0; i < confirmed.size(); ++i) {
            confirmed[i] = confirmed[i] || p.alignment.exact[i];
            regrouped[i] = regrouped[i] || p.alignment.regrouped[i];
        }
        if (p.judgement.verdict == Verdict::Agrees) added = std::min(added, p.alignment.added);
    }
    if (const std::vector<bool> alone = read_alone(title, r); alone.size() == confirmed.size())
        for (std::size_t i = 0; i < confirmed.size(); ++i) confirmed[i] = confirmed[i] || (alone[i] && !regrouped[i]);
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

namespace {

// Every pass's judgement of the title (the title block's, the closer lines'), and the best one.
struct Passes {
    std::vector<PassJudgement> passes;
    std::optional<std::size_t> best;
};

Passes judge_passes(const std::vector<visible::Word>& title, const Reading& r, const std::vector<visible::Word>& page) {
    std::vector<const OcrWord*> below;
    for (const OcrWord& w : r.words)
        if (w.pass == kPassBelow) below.push_back(&w);
    Passes out;
    std::vector<PassJudgement>& passes = out.passes;
    std::optional<std::size_t>& best = out.best;
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
    return out;
}

}  // namespace

Judgement judge(const std::vector<visible::Word>& title, const Reading& r, const std::vector<visible::Word>& page) {
    const Passes judged = judge_passes(title, r, page);
    Judgement j = judged.passes[*judged.best].judgement;
    if (j.verdict == Verdict::Agrees) require_exact_words(title, r, judged.passes, judged.passes[*judged.best], j);
    return j;
}

namespace {

// What each pass reads where `w` stands (OCR words whose centres lie in its box, in reading
// order): its signs and, for a formula's word, digits. Passes that read nothing there are left out.
std::vector<std::u32string> readings_of(const visible::Word& w, bool formula, const Reading& r) {
    // Each pass's words in their own reading order: what other passes read, or what OCR reads
    // elsewhere, must not move a pass's lines (reading_order() groups lines from the words it is
    // given), so that one pass's reading of a word is the same whatever else was read.
    std::map<int, std::vector<OcrWord>> there;
    for (const OcrWord& o : r.words)
        if (o.pass != kPassBelow && o.pass != kPassLetters && over(o, w, 0)) there[o.pass].push_back(o);
    std::map<int, std::u32string> by_pass;
    for (auto& [pass, words] : there)
        for (const OcrWord& o : reading_order(std::move(words), std::max(1.0, w.y1 - w.y0)))
            by_pass[pass] += signs_and_digits(o.text, formula);
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

// The title's text words glued to a formula or a logo (TitleWords::glued: "sparse" of "$k$-Sparse",
// "non" of "Non-\TeX{}"): the formula's letters are not read, but these words are, as any other
// word: one reading (one pass) of what stands over the word gives each of them exactly.
void require_glued_words(const TitleWords& title, const Reading& r, Judgement& j) {
    for (const visible::Word& w : title.glued) {
        const std::vector<std::u32string> wanted = tokens_of(w.text);
        std::map<int, std::vector<std::u32string>> by_pass;
        std::map<int, std::string> read;  // as OCR gives it, for the finding
        for (const OcrWord& o : reading_order(r.words, std::max(1.0, w.y1 - w.y0))) {
            if (o.pass == kPassBelow || o.pass == kPassLetters || !over(o, w, 0)) continue;
            for (auto& token : tokens_of(o.text)) by_pass[o.pass].push_back(std::move(token));
            read[o.pass] += (read[o.pass].empty() ? "" : " ") + o.text;
        }
        const auto gives = [&](const auto& pass) {
            return std::all_of(wanted.begin(), wanted.end(), [&](const std::u32string& t) {
                return std::find(pass.second.begin(), pass.second.end(), t) != pass.second.end();
            });
        };
        if (std::any_of(by_pass.begin(), by_pass.end(), gives)) continue;
        j.verdict = Verdict::Unverified;
        j.explanation = "the text layer shows the title with \"" + w.text +
                        "\" glued to a formula or a logo, but no reading of the pixels gives it exactly (OCR reads \"" +
                        (read.empty() ? "" : read.begin()->second) +
                        "\" there): a word beside a formula is confirmed as any other word";
        return;
    }
}

// Each TeX logo of the title (its read and unread words: a record may write it as TeX, \LaTeX{},
// or as letters) confirmed by its pixels as logo_letters.hpp says: read whole exactly, or its
// glyphs read one by one as its letters. A logo whose glyphs read other letters, or that nothing
// reads, is not confirmed: the alignment's allowance for a logo's moved letters places it, never
// confirms it.
void require_logo_letters(const TitleWords& title, const Reading& r, Judgement& j) {
    for (const LogoRun& run : logo_runs(title.all())) {
        std::string read;
        const Letters letters = logo_judgement(run, r, &read);
        if (letters == Letters::Confirmed) continue;
        j.verdict = Verdict::Unverified;
        const std::string glyphs = "its glyphs read one by one ";
        const std::string why = letters == Letters::Other ? glyphs + "give another letter (\"" + read + "\")"
                                : read.empty()            ? "no reading of the pixels gives its letters"
                                                          : glyphs + "do not give its letters (\"" + read + "\")";
        j.explanation = "the text layer shows the title with the logo \"" + run.text + "\", but " + why +
                        ": a logo is confirmed only where the pixels show exactly its letters";
        return;
    }
}

// The longest run (points) of [x0, x1] where none of `words` (those on the line y0..y1) stands:
// between words of the text layer, a space.
double uncovered(double x0, double x1, double y0, double y1, const std::vector<visible::Word>& words) {
    std::vector<std::pair<double, double>> covered;
    for (const visible::Word& w : words)
        if (w.y1 > y0 && w.y0 < y1 && w.x1 > x0 && w.x0 < x1)
            covered.emplace_back(std::max(x0, w.x0), std::min(x1, w.x1));
    std::sort(covered.begin(), covered.end());
    double longest = 0, at = x0;
    for (const auto& [a, b] : covered) longest = std::max(longest, a - at), at = std::max(at, b);
    return std::max(longest, x1 - at);
}

// What the title block's readings show between two words of the title on a line where the text
// layer has no word (kGapInk), whatever OCR made of it: the comparison drops what it reads as
// punctuation. Not where a formula's words stand between them: a formula draws glyphs without
// text (LuaTeX's radical sign). Quoted, or "" when nothing is there.
std::string ink_between_words(const TitleWords& title, const Reading& r) {
    std::vector<visible::Word> text = title.page;  // what explains ink: the page's words, the title's unread ones
    text.insert(text.end(), title.unread.begin(), title.unread.end());
    for (std::size_t i = 0; i + 1 < title.read.size(); ++i) {
        const visible::Word &a = title.read[i], &b = title.read[i + 1];
        const double y0 = std::max(a.y0, b.y0), y1 = std::min(a.y1, b.y1);
        if (y1 <= y0 || b.x0 <= a.x1) continue;  // not side by side on one line
        // A formula between them (the unread words) draws what has no text: a radical sign, a bar.
        const auto inside = [&](const visible::Word& u) {
            const double cx = (u.x0 + u.x1) / 2, cy = (u.y0 + u.y1) / 2;
            return cx > a.x1 && cx < b.x0 && cy > y0 && cy < y1;
        };
        if (std::any_of(title.unread.begin(), title.unread.end(), inside)) continue;
        for (const OcrWord& o : r.words) {
            const double cy = (o.y0 + o.y1) / 2;
            if (o.pass >= kPassBelow || cy < y0 || cy > y1 || o.x1 <= a.x1 || o.x0 >= b.x0) continue;
            if (uncovered(std::max(o.x0, a.x1), std::min(o.x1, b.x0), y0, y1, text) > kGapInk * a.size)
                return "\"" + o.text + "\" between \"" + a.text + "\" and \"" + b.text + "\"";
        }
    }
    return "";
}

}  // namespace

namespace {

// `r` without what OCR reads over the title's unread words and over pith's badge: judge() on
// the words to read weighs the rest.
Reading without_left_out(const TitleWords& title, Reading r) {
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
    const auto left_out = [&](const OcrWord& w) { return under_unread(w) || on_badge(w); };
    r.words.erase(std::remove_if(r.words.begin(), r.words.end(), left_out), r.words.end());
    return r;
}

// The words to read judged (judge() on them), then each rule on what the alignment does not
// weigh: signs and digits, words glued to a formula or a logo, logos, ink between words.
Judgement judge_words(const TitleWords& title, const Reading& r) {
    Judgement j = judge(title.read, without_left_out(title, r), title.page);
    if (j.verdict == Verdict::Agrees) require_signs_and_digits(title, r, j);
    if (j.verdict == Verdict::Agrees) require_glued_words(title, r, j);
    if (j.verdict == Verdict::Agrees) require_logo_letters(title, r, j);
    if (const std::string between = j.verdict == Verdict::Agrees ? ink_between_words(title, r) : "";
        !between.empty()) {
        j.verdict = Verdict::Unverified;
        j.explanation = "the text layer shows the title \"" + joined_text(title.read) + "\", but the pixels show " +
                        between + " where the text layer has no word (OCR may read letters as punctuation)";
    }
    return j;
}

// The text words of a word with a logo in it, the logo left out ("Beamer" of "LaTeX-Beamer"),
// those that must be shown (a lone letter, the s of "LaTeX's", changes no title: must_show()).
std::string glued_to_logo(const std::string& text) {
    std::u32string letters;
    each_char(text, [&](UChar32 c) { letters += static_cast<char32_t>(u_tolower(c)); });
    const std::vector<bool> logo = in_logo(letters);
    std::u32string rest;
    for (std::size_t i = 0; i < letters.size(); ++i) rest += logo[i] ? U' ' : letters[i];
    std::string out;
    for (const auto& token : tokens_of(utf8(rest)))
        if (must_show(token)) out += (out.empty() ? "" : " ") + utf8(token);
    return out;
}

// The title with the words of each logo its glyphs confirm letter by letter (logo_letters.hpp)
// set aside as a formula's are (TitleWords::unread): OCR's reading of the line ("X#fRX" for
// XeTeX, "ETRX" for LaTeX) is then no word to align, and the logo is confirmed. A text word glued
// to it ("Beamer" of "LaTeX-Beamer") is read as a formula's are (TitleWords::glued). The title
// as it is when no logo is so confirmed, or when nothing else would be left to read.
TitleWords set_aside_logos(const TitleWords& title, const Reading& r) {
    std::vector<LogoRun> confirmed;
    for (const LogoRun& run : logo_runs(title.all()))
        if (logo_judgement(run, r) == Letters::Confirmed) confirmed.push_back(run);
    TitleWords out = title;
    out.read.clear();
    for (const visible::Word& w : title.read) {
        const double cx = (w.x0 + w.x1) / 2, cy = (w.y0 + w.y1) / 2;
        const bool logo = std::any_of(confirmed.begin(), confirmed.end(), [&](const LogoRun& l) {
            return cx >= l.x0 && cx <= l.x1 && cy >= l.y0 && cy <= l.y1;
        });
        (logo ? out.unread : out.read).push_back(w);
        if (const std::string words = glued_to_logo(w.text); logo && !words.empty()) {
            out.glued.push_back(w);
            out.glued.back().text = words;
        }
    }
    return out.read.empty() ? title : out;
}

}  // namespace

// The title's words judged as they are, and, where that does not agree, with the logos their
// letters confirm set aside (set_aside_logos()): a logo OCR of the line cannot place ("X#fRX")
// is confirmed by its letters alone, every other word as before.
Judgement judge(const TitleWords& title, Reading r) {
    const Judgement j = judge_words(title, r);
    if (j.verdict == Verdict::Agrees) return j;
    const TitleWords aside = set_aside_logos(title, r);
    if (aside.read.size() == title.read.size()) return j;
    Judgement k = judge_words(aside, r);
    if (k.verdict != Verdict::Agrees) return j;
    std::string logos;
    for (const visible::Word& w : title.read) {
        const auto same = [&](const visible::Word& a) { return a.x0 == w.x0 && a.y0 == w.y0; };
        if (std::none_of(aside.read.begin(), aside.read.end(), same))
            logos += (logos.empty() ? "\"" : " \"") + w.text + "\"";
    }
    k.explanation += "; its logo " + logos + " read letter by letter";
    return k;
}

std::vector<bool> to_read_alone(const TitleWords& title, const Reading& r) {
    std::vector<bool> out(title.read.size(), false);
    const Passes judged = judge_passes(title.read, without_left_out(title, r), title.page);
    // Words read alone count only in require_exact_words() and require_signs_and_digits(), which
    // look at them only when the best pass agrees; no word read alone changes which pass is best.
    if (judged.passes[*judged.best].judgement.verdict != Verdict::Agrees) return out;
    std::vector<bool> confirmed(judged.passes[*judged.best].alignment.exact.size(), false);
    for (const PassJudgement& p : judged.passes)
        if (p.alignment.exact.size() == confirmed.size())
            for (std::size_t i = 0; i < confirmed.size(); ++i) confirmed[i] = confirmed[i] || p.alignment.exact[i];
    std::size_t at = 0;
    for (std::size_t i = 0; i < title.read.size(); ++i) {
        const std::vector<std::u32string> tokens = tokens_of(title.read[i].text);
        // A right-to-left title is aligned in reading order, not word by word: each word is read.
        const bool rtl = std::any_of(tokens.begin(), tokens.end(), right_to_left);
        const bool unconfirmed = rtl || at + tokens.size() > confirmed.size() ||
                                 !std::all_of(confirmed.begin() + static_cast<std::ptrdiff_t>(at),
                                              confirmed.begin() + static_cast<std::ptrdiff_t>(at + tokens.size()),
                                              [](bool c) { return c; });
        at += tokens.size();
        // A sign, or TeX's negation slash over one: require_signs_and_digits() reads every reading.
        const bool sign = !signs_and_digits(title.read[i].text, false).empty() || title.read[i].text == kNegation;
        out[i] = unconfirmed || sign;
    }
    if (at != confirmed.size()) std::fill(out.begin(), out.end(), true);
    return out;
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
        return a.missing.empty() ? ""
                                 : "its text layer shows the record's title, but its pixels show it without " +
                                       quoted_list(a.missing);
    }
    if (words.size() <= title::kCoverWords) return "";
    std::string first;
    for (std::size_t i = 0; i < std::min<std::size_t>(words.size(), 6); ++i) first += (i ? " " : "") + words[i].text;
    return "its pixels show " + count + " (\"" + first +
           " ...\") but not the record's title: a cover that names something else";
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

}  // namespace pith::page::pixels
