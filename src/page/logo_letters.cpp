// SPDX-License-Identifier: MIT
#include "page/logo_letters.hpp"

#include "page/pixel_words.hpp"

#include <unicode/uchar.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>

namespace pith::page::pixels {

namespace {

// Two words of the title that TeX set as pieces of one logo: on one line (the smaller's height
// mostly within the other's: the raised A stands inside the L's line) and no space apart (a
// space is a quarter of the type or more; TeX's kerns bring pieces together or overlap them).
// The type measured the smaller way, font size or box height: a Type 3 font's may be either.
bool glued(const visible::Word& a, const visible::Word& b) {
    const double overlap = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
    if (overlap < 0.5 * std::min(a.y1 - a.y0, b.y1 - b.y0)) return false;
    const double gap = std::max(a.x0, b.x0) - std::min(a.x1, b.x1);
    return gap < 0.06 * std::min(std::max(a.size, b.size), std::max(a.y1 - a.y0, b.y1 - b.y0));
}

// The words grouped by glued(), each group left to right.
std::vector<std::vector<const visible::Word*>> glued_groups(const std::vector<visible::Word>& words) {
    std::vector<std::size_t> group(words.size());
    std::iota(group.begin(), group.end(), 0);
    const auto root = [&](std::size_t i) {
        while (group[i] != i) i = group[i];
        return i;
    };
    for (std::size_t i = 0; i < words.size(); ++i)
        for (std::size_t k = i + 1; k < words.size(); ++k)
            if (glued(words[i], words[k])) group[root(k)] = root(i);
    std::vector<std::vector<const visible::Word*>> out(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) out[root(i)].push_back(&words[i]);
    out.erase(std::remove_if(out.begin(), out.end(), [](const auto& g) { return g.empty(); }), out.end());
    for (auto& g : out)
        std::sort(g.begin(), g.end(), [](const visible::Word* a, const visible::Word* b) { return a->x0 < b->x0; });
    return out;
}

// XeTeX's and XeLaTeX's E is drawn mirrored: the text layer spells it E (a mirrored box) or Ǝ.
void mark_mirrored(LogoRun& run) {
    for (std::size_t i = 0; i < run.letters.size(); ++i) {
        if (run.letters[i] == U'\u01DD') run.letters[i] = U'e', run.mirrored[i] = true;
        const std::u32string_view after = std::u32string_view(run.letters).substr(i);
        if (i > 0 && run.letters[i - 1] == U'x' && run.letters[i] == U'e' &&
            (after.substr(1, 3) == U"tex" || after.substr(1, 5) == U"latex"))
            run.mirrored[i] = true;
    }
}

LogoRun run_of(const std::vector<const visible::Word*>& group) {
    LogoRun run{1e300, 1e300, -1e300, -1e300, 0, U"", {}, ""};
    for (const visible::Word* w : group) {
        run.x0 = std::min(run.x0, w->x0), run.y0 = std::min(run.y0, w->y0);
        run.x1 = std::max(run.x1, w->x1), run.y1 = std::max(run.y1, w->y1);
        run.size = std::max(run.size, w->size);
        run.text += w->text;
        each_char(w->text, [&](UChar32 c) {
            if (c != ' ') run.letters += static_cast<char32_t>(u_tolower(c));
        });
    }
    run.mirrored.assign(run.letters.size(), false);
    mark_mirrored(run);
    return run;
}

// One glyph's reading against its letter: tokens_of() of both (case and OCR's folds), a
// punctuation mark's glyph read as no letter or digit. Tesseract's single-character mode may
// give one glyph as its letter twice ("Xx" for an X): a letter repeated is that letter, never
// another. nullopt: read as nothing at all.
std::optional<bool> reads_as(char32_t letter, const std::string& read) {
    const std::vector<std::u32string> want = tokens_of(utf8(std::u32string(1, letter)));
    std::u32string got;
    for (const auto& t : tokens_of(read)) got += t;
    if (want.empty()) return got.empty();  // a mark: read as no letter, or as nothing (OCR drops a colon)
    if (read.find_first_not_of(" \t\n") == std::string::npos) return std::nullopt;
    return !got.empty() && got.find_first_not_of(want.front()) == std::u32string::npos;
}

}  // namespace

std::vector<LogoRun> logo_runs(const std::vector<visible::Word>& words) {
    std::vector<LogoRun> out;
    for (const auto& group : glued_groups(words)) {
        LogoRun run = run_of(group);
        if (run.letters.find(U"tex") != std::u32string::npos) out.push_back(std::move(run));
    }
    return out;
}

std::vector<bool> in_logo(const std::u32string& letters) {
    std::vector<bool> out(letters.size(), false);
    for (std::size_t start = 0; start < letters.size();) {
        std::size_t end = start;
        // A character of a script written without spaces is a word of its own, never the logo's.
        const auto part = [&](char32_t c) {
            return u_isalnum(static_cast<UChar32>(c)) && !spaceless(std::u32string(1, c));
        };
        while (end < letters.size() && part(letters[end])) ++end;
        if (letters.substr(start, end - start).find(U"tex") != std::u32string::npos)
            for (std::size_t i = start; i < end; ++i) out[i] = true;
        start = std::max(end, start + 1);
    }
    return out;
}

Letters logo_letters(const std::u32string& letters, const std::vector<std::string>& read) {
    if (read.size() != letters.size()) return Letters::Unread;
    const std::vector<bool> logo = in_logo(letters);
    bool unread = false;
    for (std::size_t i = 0; i < letters.size(); ++i) {
        if (!logo[i]) continue;  // a text word glued to the logo: read as every word (TitleWords::glued)
        const std::optional<bool> same = reads_as(letters[i], read[i]);
        if (same && !*same) return Letters::Other;  // a glyph that reads another letter: not the logo
        unread = unread || !same;
    }
    return unread ? Letters::Unread : Letters::Confirmed;
}

namespace {

bool inside(const OcrWord& o, const LogoRun& run) {
    const double cx = (o.x0 + o.x1) / 2, cy = (o.y0 + o.y1) / 2;
    return cx >= run.x0 && cx <= run.x1 && cy >= run.y0 && cy <= run.y1;
}

// Whether one pass of OCR reads the logo whole: its words there, left to right, give exactly the
// logo's tokens. Not the glyphs read alone (they part it), nor the page below the title.
bool read_whole(const LogoRun& run, const Reading& r) {
    std::map<int, std::vector<const OcrWord*>> by_pass;
    for (const OcrWord& o : r.words)
        if (o.pass != kPassBelow && o.pass != kPassLetters && o.pass != kPassStrokes && inside(o, run))
            by_pass[o.pass].push_back(&o);
    const std::vector<std::u32string> want = tokens_of(utf8(run.letters));
    for (auto& [pass, words] : by_pass) {
        std::sort(words.begin(), words.end(), [](const OcrWord* a, const OcrWord* b) { return a->x0 < b->x0; });
        std::vector<std::u32string> got;
        for (const OcrWord* o : words)
            for (auto& t : tokens_of(o->text)) got.push_back(std::move(t));
        if (got == want) return true;
    }
    return false;
}

}  // namespace

Letters logo_judgement(const LogoRun& run, const Reading& r, std::string* read) {
    if (read_whole(run, r)) return Letters::Confirmed;
    std::vector<const OcrWord*> glyphs;
    for (const OcrWord& o : r.words)
        if (o.pass == kPassLetters && inside(o, run)) glyphs.push_back(&o);
    const auto left_of = [](const OcrWord* a, const OcrWord* b) { return a->x0 + a->x1 < b->x0 + b->x1; };
    std::sort(glyphs.begin(), glyphs.end(), left_of);
    std::vector<std::string> each;
    for (const OcrWord* o : glyphs) {
        each.push_back(o->text);
        if (read) *read += (read->empty() ? "" : " ") + (o->text.empty() ? std::string("?") : o->text);
    }
    return logo_letters(run.letters, each);
}

namespace {

double level(const Image& im, int c, int r) {
    const unsigned char* p = im.rgb.data() + (static_cast<std::size_t>(r) * im.columns + c) * 3;
    return (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255;
}

// Each pixel's ink on the page: 0 the paper (its commonest level), 1 its darkest ink (or lightest,
// on a dark ground); all 0 where the slice holds no contrast.
std::vector<double> page_ink(const Image& page) {
    std::vector<int> histogram(256);
    for (int r = 0; r < page.rows; ++r)
        for (int c = 0; c < page.columns; ++c) ++histogram[static_cast<int>(level(page, c, r) * 255)];
    const double paper = (std::max_element(histogram.begin(), histogram.end()) - histogram.begin()) / 255.0;
    double far = 0;
    for (int r = 0; r < page.rows; ++r)
        for (int c = 0; c < page.columns; ++c) far = std::max(far, std::abs(level(page, c, r) - paper));
    std::vector<double> out(static_cast<std::size_t>(page.columns) * page.rows, 0);
    if (far < 0.1) return out;
    for (int r = 0; r < page.rows; ++r)
        for (int c = 0; c < page.columns; ++c)
            out[static_cast<std::size_t>(r) * page.columns + c] = std::abs(level(page, c, r) - paper) / far;
    return out;
}

// A mask's ink at a pixel of the slice (0-1).
double mask_at(const GlyphMask& g, int c, int r) { return 1 - level(g.ink, c, r); }

// Whether any of `all` draws near (c, r): within one pixel, for antialiased edges.
bool drawn_near(const std::vector<GlyphMask>& all, int c, int r) {
    for (const GlyphMask& g : all)
        for (int dr = -1; dr <= 1; ++dr)
            for (int dc = -1; dc <= 1; ++dc) {
                const int nc = c + dc, nr = r + dr;
                const bool in = nc >= 0 && nr >= 0 && nc < g.ink.columns && nr < g.ink.rows;
                if (in && mask_at(g, nc, nr) > 0.1) return true;
            }
    return false;
}

}  // namespace

bool shown_as_drawn(const GlyphMask& g, const Image& page, const std::vector<GlyphMask>& all) {
    if (page.columns != g.ink.columns || page.rows != g.ink.rows || page.columns <= 0) return false;
    const std::vector<double> ink = page_ink(page);
    long core = 0, shown = 0, extra = 0;
    for (int r = 0; r < page.rows; ++r)
        for (int c = 0; c < page.columns; ++c) {
            const double on_page = ink[static_cast<std::size_t>(r) * page.columns + c];
            if (mask_at(g, c, r) >= 0.75) ++core, shown += on_page >= 0.5;
        }
    const double scale = page.dpi / 72;
    const int c0 = std::max(0, static_cast<int>((g.x0 - page.x0) * scale));
    const int c1 = std::min(page.columns, static_cast<int>((g.x1 - page.x0) * scale) + 1);
    const int r0 = std::max(0, static_cast<int>((g.y0 - page.y0) * scale));
    const int r1 = std::min(page.rows, static_cast<int>((g.y1 - page.y0) * scale) + 1);
    for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c)
            if (ink[static_cast<std::size_t>(r) * page.columns + c] >= 0.5 && !drawn_near(all, c, r)) ++extra;
    // Covered: a tenth of the glyph's core not inked; drawn over: other ink a twentieth of it.
    return core > 0 && shown >= 0.9 * core && extra <= 0.05 * core;
}

Image glyph_image(const GlyphMask& g, double margin_share) {
    int c0 = g.ink.columns, r0 = g.ink.rows, c1 = -1, r1 = -1;
    for (int r = 0; r < g.ink.rows; ++r)
        for (int c = 0; c < g.ink.columns; ++c)
            if (mask_at(g, c, r) > 0.1)
                c0 = std::min(c0, c), r0 = std::min(r0, r), c1 = std::max(c1, c), r1 = std::max(r1, r);
    Image out;
    out.dpi = g.ink.dpi;
    if (c1 < c0) return out;
    const int margin = std::max(4, static_cast<int>(margin_share * std::max(c1 - c0, r1 - r0)));
    out.columns = c1 - c0 + 1 + 2 * margin, out.rows = r1 - r0 + 1 + 2 * margin;
    out.rgb.assign(static_cast<std::size_t>(out.columns) * out.rows * 3, 255);
    for (int r = r0; r <= r1; ++r)
        for (int c = c0; c <= c1; ++c)
            std::copy_n(g.ink.rgb.begin() + (static_cast<std::ptrdiff_t>(r) * g.ink.columns + c) * 3, 3,
                        out.rgb.begin() +
                            (static_cast<std::ptrdiff_t>(r - r0 + margin) * out.columns + c - c0 + margin) * 3);
    return out;
}

Image mirrored(const Image& glyph) {
    Image out = glyph;
    for (int r = 0; r < glyph.rows; ++r)
        for (int c = 0; c < glyph.columns; ++c)
            std::copy_n(glyph.rgb.begin() + (static_cast<std::ptrdiff_t>(r) * glyph.columns + c) * 3, 3,
                        out.rgb.begin() + (static_cast<std::ptrdiff_t>(r) * glyph.columns + glyph.columns - 1 - c) * 3);
    return out;
}

}  // namespace pith::page::pixels
