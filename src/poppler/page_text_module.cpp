// SPDX-License-Identifier: MIT
// pith-text.so: poppler, loaded with dlopen() by pith only when `pith verify` needs it, so that
// no other pith run pays for loading poppler (its core API: libpoppler-private-dev). Entry points:
//  - pith_page_words_v4: the page's words with what rendering says about each
//    (page::visible::page_words(); src/poppler/page_words_abi.h, doc/visible.md);
//  - pith_page_glance_v2: the page's words and its ink from one render that paints glyphs as
//    boxes (pith stamp's title check and placement; src/poppler/page_glance_abi.h);
//  - pith_page_regions_v2: the pixels of regions as a viewer shows them, for reading the title
//    from pixels (src/page/pixels.hpp; src/poppler/page_region_abi.h).
#include "page_glance_abi.h"
#include "page_region_abi.h"
#include "page_words_abi.h"

#include <poppler/Error.h>
#include <poppler/GlobalParams.h>
#include <poppler/PDFDoc.h>
#include <poppler/SplashOutputDev.h>
#include <poppler/Stream.h>
#include <poppler/TextOutputDev.h>
#include <poppler/splash/Splash.h>
#include <poppler/splash/SplashBitmap.h>
#include <poppler/splash/SplashPattern.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace {
void silence_core(ErrorCategory, Goffset, const char*) {}
}  // namespace

// ================================================================ pith_page_words_v4

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kDpi = 100;                 // enough for 3 pt type to leave ~4 px of ink
constexpr double kMaxPixels = 6e6;           // per render; larger pages are rendered coarser
constexpr int kMinChannelChange = 40;        // of 255: fainter changes are not counted as ink
constexpr int kMaxGroups = 4;                // renders beyond the full one: words overlapping 4 others are "crowded"
constexpr std::size_t kMaxGroupedWords = 5000;  // grouping is quadratic: more words share one render without text

Clock::time_point deadline_after(double seconds) {
    return Clock::now() + std::chrono::milliseconds(static_cast<long>(std::max(0.0, seconds) * 1000));
}

// Gfx polls this between operators: the layout and every render stop at the deadline.
bool past_deadline(void* deadline) {
    return Clock::now() > *static_cast<Clock::time_point*>(deadline);
}

void append_utf8(std::string& out, Unicode u) {
    if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) u = 0xFFFD;
    if (u < 0x80) {
        out += static_cast<char>(u);
    } else if (u < 0x800) {
        out += static_cast<char>(0xC0 | (u >> 6));
        out += static_cast<char>(0x80 | (u & 0x3F));
    } else if (u < 0x10000) {
        out += static_cast<char>(0xE0 | (u >> 12));
        out += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (u & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (u >> 18));
        out += static_cast<char>(0x80 | ((u >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (u & 0x3F));
    }
}

// Glyphs are numbered as TextOutputDev numbers them (TextWord::getCharPos(): bytes of the
// strings shown, in drawing order, including strings in OFF optional content), so that a word's
// glyphs can be left out of a render by number.
constexpr int kNoWord = -1;  // glyph of no word (spaces, duplicates poppler's layout dropped)

// Which glyphs a render draws.
struct Selection {
    enum Kind { All, AllBut, Only, None } kind = All;
    int group = 0;  // for AllBut and Only
};

// Splash drawing the glyphs `select` names, given `owner` (the group of each glyph's word, or
// kNoWord). All notes each glyph's device origin in `origins`. Only is a mask: it draws
// nothing but those glyphs, opaque black, so that their shape can be compared with what the
// page shows. Type 3 glyphs count as one byte each, and the content of a Type 3 glyph belongs
// to that glyph.
class SelectiveSplash : public SplashOutputDev {
public:
    SelectiveSplash(SplashColorPtr paper, const std::vector<int>* owner, Selection select,
                    std::vector<std::pair<double, double>>* origins)
        : SplashOutputDev(splashModeRGB8, 4, false, paper), owner_(owner), select_(select), origins_(origins) {}

    bool needCharCount() override { return true; }
    void incCharCount(int n) override {
        if (depth_ == 0) next_ += n;
    }
    void drawChar(GfxState* state, double x, double y, double dx, double dy, double ox, double oy, CharCode code,
                  int nBytes, const Unicode* u, int uLen) override {
        if (depth_ == 0) {
            const long pos = next_;
            next_ += nBytes;
            note(state, x, y, pos);
            const bool clips = (state->getRender() & 4) || state->getFillColorSpace()->getMode() == csPattern;
            if (!drawn(pos)) {
                if (clips) clip_far_away(state, x, y, dx, dy, ox, oy, code, nBytes, u, uLen);
                return;
            }
            if (clips) clip_pending_ = true;
        }
        SplashOutputDev::drawChar(state, x, y, dx, dy, ox, oy, code, nBytes, u, uLen);
    }
    bool beginType3Char(GfxState* state, double x, double y, double dx, double dy, CharCode code, const Unicode* u,
                        int uLen) override {
        if (depth_ == 0) {
            const long pos = next_++;
            note(nullptr, 0, 0, pos);      // Gfx has moved the CTM to the glyph already: no origin
            if (!drawn(pos)) return true;  // true: "drawn", Gfx skips the glyph's content
        }
        const bool done = SplashOutputDev::beginType3Char(state, x, y, dx, dy, code, u, uLen);
        if (!done) ++depth_;
        return done;
    }
    void endType3Char(GfxState* state) override {
        if (depth_ > 0) --depth_;
        SplashOutputDev::endType3Char(state);
    }

    // Text in clip modes (4-7, and text filled with a pattern, which Gfx draws as a clip and then
    // fills) clips what follows until the graphics state it was set in is restored.
    void endTextObject(GfxState* state) override {
        SplashOutputDev::endTextObject(state);
        if (clip_pending_ && clip_level_ < 0) clip_level_ = level_;
        clip_pending_ = false;
    }
    void saveState(GfxState* state) override {
        ++level_;
        SplashOutputDev::saveState(state);
    }
    void restoreState(GfxState* state) override {
        if (--level_ < clip_level_) clip_level_ = -1;
        SplashOutputDev::restoreState(state);
    }

    // A soft mask's group is drawn as in any render, so that the glyphs it lets through are the
    // mask's as they are the page's (a white luminosity group lets everything through).
    void beginTransparencyGroup(GfxState* state, const double* bbox, GfxColorSpace* space, bool isolated, bool knockout,
                                bool for_soft_mask) override {
        soft_mask_groups_.push_back(for_soft_mask);
        SplashOutputDev::beginTransparencyGroup(state, bbox, space, isolated, knockout, for_soft_mask);
    }
    void endTransparencyGroup(GfxState* state) override {
        if (!soft_mask_groups_.empty()) soft_mask_groups_.pop_back();
        SplashOutputDev::endTransparencyGroup(state);
    }

    // A mask paints glyphs only, opaque, black where it can: what Type 3 glyphs paint, and what
    // is painted through the clip of its glyphs, count as glyphs.
    bool mask() const {
        return select_.kind == Selection::Only &&
               std::find(soft_mask_groups_.begin(), soft_mask_groups_.end(), true) == soft_mask_groups_.end();
    }
    bool paints() const { return !mask() || depth_ > 0 || clip_level_ >= 0; }
    void updateFillColor(GfxState* state) override {
        SplashOutputDev::updateFillColor(state);
        if (mask()) getSplash()->setFillPattern(new SplashSolidColor(kBlack));
    }
    void updateStrokeColor(GfxState* state) override {
        SplashOutputDev::updateStrokeColor(state);
        if (mask()) getSplash()->setStrokePattern(new SplashSolidColor(kBlack));
    }
    void updateFillOpacity(GfxState* state) override {
        SplashOutputDev::updateFillOpacity(state);
        if (mask()) getSplash()->setFillAlpha(1);
    }
    void updateStrokeOpacity(GfxState* state) override {
        SplashOutputDev::updateStrokeOpacity(state);
        if (mask()) getSplash()->setStrokeAlpha(1);
    }
    // A mask is the glyphs' own shape: a transfer function (/TR) that turns black white must not
    // whiten it, or glyphs every viewer shows (in a grey the function keeps) would count as not shown.
    void updateTransfer(GfxState* state) override {
        if (!mask()) SplashOutputDev::updateTransfer(state);
    }
    bool useTilingPatternFill() override { return !mask(); }
    bool useShadedFills(int type) override { return !mask() && SplashOutputDev::useShadedFills(type); }
    void stroke(GfxState* state) override {
        if (paints()) SplashOutputDev::stroke(state);
    }
    void fill(GfxState* state) override {
        if (paints()) SplashOutputDev::fill(state);
    }
    void eoFill(GfxState* state) override {
        if (paints()) SplashOutputDev::eoFill(state);
    }
    // OutputDev's versions draw nothing and skip inline image data.
    void drawImageMask(GfxState* state, Object* ref, Stream* str, int width, int height, bool invert,
                       bool interpolate, bool inlineImg) override {
        if (paints())
            SplashOutputDev::drawImageMask(state, ref, str, width, height, invert, interpolate, inlineImg);
        else
            OutputDev::drawImageMask(state, ref, str, width, height, invert, interpolate, inlineImg);
    }
    void drawImage(GfxState* state, Object* ref, Stream* str, int width, int height, GfxImageColorMap* colorMap,
                   bool interpolate, const int* maskColors, bool inlineImg) override {
        if (paints())
            SplashOutputDev::drawImage(state, ref, str, width, height, colorMap, interpolate, maskColors, inlineImg);
        else
            OutputDev::drawImage(state, ref, str, width, height, colorMap, interpolate, maskColors, inlineImg);
    }
    void drawMaskedImage(GfxState* state, Object* ref, Stream* str, int width, int height, GfxImageColorMap* colorMap,
                         bool interpolate, Stream* maskStr, int maskWidth, int maskHeight, bool maskInvert,
                         bool maskInterpolate) override {
        if (paints())
            SplashOutputDev::drawMaskedImage(state, ref, str, width, height, colorMap, interpolate, maskStr, maskWidth,
                                             maskHeight, maskInvert, maskInterpolate);
    }
    void drawSoftMaskedImage(GfxState* state, Object* ref, Stream* str, int width, int height,
                             GfxImageColorMap* colorMap, bool interpolate, Stream* maskStr, int maskWidth,
                             int maskHeight, GfxImageColorMap* maskColorMap, bool maskInterpolate) override {
        if (paints())
            SplashOutputDev::drawSoftMaskedImage(state, ref, str, width, height, colorMap, interpolate, maskStr,
                                                 maskWidth, maskHeight, maskColorMap, maskInterpolate);
    }

private:
    static constexpr unsigned char kBlack[3] = {0, 0, 0};

    // A glyph left out that would clip what follows (render modes 4-7, pattern fill): what
    // follows must still be clipped to the page's other glyphs, not drawn unclipped, so the
    // glyph joins the clip far off the page instead.
    void clip_far_away(GfxState* state, double x, double y, double dx, double dy, double ox, double oy, CharCode code,
                       int nBytes, const Unicode* u, int uLen) {
        const int render = state->getRender();
        state->setRender(7);
        SplashOutputDev::drawChar(state, x + 1e6, y + 1e6, dx, dy, ox, oy, code, nBytes, u, uLen);
        state->setRender(render);
    }

    bool drawn(long pos) const {
        const int group = owner_ && pos < static_cast<long>(owner_->size()) ? (*owner_)[pos] : kNoWord;
        switch (select_.kind) {
        case Selection::All: return true;
        case Selection::None: return false;
        case Selection::AllBut: return group != kNoWord && group != select_.group;
        case Selection::Only: return group == select_.group;
        }
        return true;
    }
    void note(GfxState* state, double x, double y, long pos) {
        if (!origins_ || pos < 0 || pos > 10'000'000) return;
        if (origins_->size() <= static_cast<std::size_t>(pos)) origins_->resize(pos + 1, {NAN, NAN});
        if (state) state->transform(x, y, &(*origins_)[pos].first, &(*origins_)[pos].second);
    }

    const std::vector<int>* owner_;
    Selection select_;
    std::vector<std::pair<double, double>>* origins_;
    long next_ = 0;
    int depth_ = 0;           // open Type 3 glyph procedures
    int level_ = 0;           // graphics state nesting
    int clip_level_ = -1;     // level at which a selected glyph clip was set, or -1
    bool clip_pending_ = false;
    std::vector<bool> soft_mask_groups_;  // the transparency groups open, each whether it draws a soft mask
};

// The page as a viewer shows it (CropBox, /Rotate, annotations viewers draw), RGB, white paper,
// with the glyphs SelectiveSplash is told to draw.
std::unique_ptr<SplashBitmap> render(PDFDoc& doc, int page, double dpi, const std::vector<int>* owner,
                                     Selection select, std::vector<std::pair<double, double>>* origins,
                                     Clock::time_point& deadline) {
    SplashColor white = {255, 255, 255};
    SelectiveSplash out(white, owner, select, origins);
    out.setFontAntialias(true);
    out.setVectorAntialias(true);
    out.startDoc(&doc);
    doc.displayPage(&out, page, dpi, dpi, 0, false, true, false, &past_deadline, &deadline);
    return std::unique_ptr<SplashBitmap>(out.takeBitmap());
}

struct Ink {
    double fraction = 0, pixels = 0;  // changed pixels, as a share of the box and counted
    double shown = 0;                 // share of the glyphs' own pixels (mask) that changed
};

// How the pixels of the box (points) differ by a visible amount between the renders with and
// without the glyphs; `mask` (may be null) has those glyphs alone, black on white.
Ink ink_in(const SplashBitmap& with, const SplashBitmap& without, const SplashBitmap* mask, double scale, double x0,
           double y0, double x1, double y1) {
    const int w = with.getWidth(), h = with.getHeight();
    const int px0 = std::clamp(static_cast<int>(std::floor(x0 * scale)), 0, w);
    const int px1 = std::clamp(static_cast<int>(std::ceil(x1 * scale)), 0, w);
    const int py0 = std::clamp(static_cast<int>(std::floor(y0 * scale)), 0, h);
    const int py1 = std::clamp(static_cast<int>(std::ceil(y1 * scale)), 0, h);
    if (px1 <= px0 || py1 <= py0) return {};
    long changed = 0, glyph = 0, glyph_changed = 0;
    for (int y = py0; y < py1; ++y) {
        const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(y) * with.getRowSize();
        const unsigned char* a = with.getDataPtr() + row;
        const unsigned char* b = without.getDataPtr() + row;
        const unsigned char* m = mask ? mask->getDataPtr() + row : nullptr;
        for (int x = px0; x < px1; ++x) {
            int most = 0;
            for (int c = 0; c < 3; ++c) most = std::max(most, std::abs(a[3 * x + c] - b[3 * x + c]));
            const bool differs = most >= kMinChannelChange;
            changed += differs;
            if (m && 255 - std::min({m[3 * x], m[3 * x + 1], m[3 * x + 2]}) >= kMinChannelChange) {
                ++glyph;
                glyph_changed += differs;
            }
        }
    }
    const double area = static_cast<double>(px1 - px0) * (py1 - py0);
    return {changed / area, static_cast<double>(changed), glyph ? static_cast<double>(glyph_changed) / glyph : 0};
}

struct Box {
    double x0, y0, x1, y1;
};

bool overlap(const Box& a, const Box& b) {
    return std::min(a.x1, b.x1) > std::max(a.x0, b.x0) && std::min(a.y1, b.y1) > std::max(a.y0, b.y0);
}

// Groups of words whose boxes do not overlap (greedy colouring in reading order): a word's ink
// is measured with the other groups drawn, so ink from a word it overlaps is not its own.
// kNoWord for words needing more than kMaxGroups groups.
std::vector<int> group_words(const std::vector<Box>& boxes, int* groups) {
    std::vector<int> group(boxes.size(), kNoWord);
    std::vector<std::vector<std::size_t>> members;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        for (int g = 0; g < kMaxGroups && group[i] == kNoWord; ++g) {
            if (g == static_cast<int>(members.size())) members.emplace_back();
            const bool free = std::none_of(members[g].begin(), members[g].end(),
                                           [&](std::size_t j) { return overlap(boxes[i], boxes[j]); });
            if (free) {
                group[i] = g;
                members[g].push_back(i);
            }
        }
    }
    *groups = static_cast<int>(members.size());
    return group;
}

struct ReleaseText {
    void operator()(TextPage* p) const { p->decRefCnt(); }  // TextPage is reference-counted
};

// Words in reading order, as page->text(non_raw_non_physical_layout) lays them out.
struct Layout {
    std::unique_ptr<TextPage, ReleaseText> page;  // owns the words
    std::vector<const TextWord*> words;
};

Layout lay_out(PDFDoc& doc, int page, Clock::time_point& deadline) {
    Layout out;
    TextOutputDev text(nullptr, false, 0, false, false);
    if (!text.isOk()) return out;
    doc.displayPage(&text, page, 72, 72, 0, false, true, false, &past_deadline, &deadline);
    out.page.reset(text.takeText());
    for (const TextFlow* flow = out.page->getFlows(); flow; flow = flow->getNext())
        for (const TextBlock* block = flow->getBlocks(); block; block = block->getNext())
            for (const TextLine* line = block->getLines(); line; line = line->getNext())
                for (const TextWord* word = line->getWords(); word; word = word->getNext()) out.words.push_back(word);
    return out;
}

// The page's size in points as displayed (CropBox, /Rotate).
void displayed_size(PDFDoc& doc, int page, double* width, double* height) {
    const bool sideways = doc.getPageRotate(page) % 180 != 0;
    *width = sideways ? doc.getPageCropHeight(page) : doc.getPageCropWidth(page);
    *height = sideways ? doc.getPageCropWidth(page) : doc.getPageCropHeight(page);
}

// The PDF in memory, opened with `password` as user and owner password; nullptr when poppler
// cannot open it or the page does not exist.
std::unique_ptr<PDFDoc> open_page(const char* pdf, std::size_t size, int index, const char* password) {
    if (!globalParams) globalParams = std::make_unique<GlobalParams>();
    setErrorCallback(&silence_core);
    if (index < 0 || size == 0 || size > static_cast<std::size_t>(INT_MAX)) return nullptr;
    const std::optional<GooString> pw = password ? std::optional<GooString>(GooString(password)) : std::nullopt;
    auto doc = std::make_unique<PDFDoc>(new MemStream(pdf, 0, static_cast<Goffset>(size), Object(objNull)), pw, pw);
    if (!doc->isOk() || index >= doc->getNumPages()) return nullptr;
    return doc;
}

// The glyph numbering of the full render matches the layout's when every word's first glyph
// was drawn inside that word's box (in points, with half the font size to spare).
bool numbering_matches(const std::vector<const TextWord*>& words,
                       const std::vector<std::pair<double, double>>& origins, double scale) {
    for (const TextWord* word : words) {
        const long pos = word->getCharPos();
        if (pos < 0 || pos >= static_cast<long>(origins.size())) return false;
        const auto [x, y] = origins[pos];
        if (std::isnan(x)) continue;  // a Type 3 glyph: no origin noted
        double x0, y0, x1, y1;
        word->getBBox(&x0, &y0, &x1, &y1);
        const double spare = 0.5 * word->getFontSize() + 1;
        if (!(x / scale >= x0 - spare && x / scale <= x1 + spare && y / scale >= y0 - spare && y / scale <= y1 + spare))
            return false;
    }
    return true;
}

int page_words(const char* pdf, std::size_t size, int index, const char* password, double seconds,
               void (*page_sink)(void*, const PithPageFacts*), void (*word_sink)(void*, const PithWordFacts*),
               void* context) {
    const std::unique_ptr<PDFDoc> opened = open_page(pdf, size, index, password);
    if (!opened) return 0;
    PDFDoc& doc = *opened;
    const int page = index + 1;
    Clock::time_point deadline = deadline_after(seconds);

    const Layout layout = lay_out(doc, page, deadline);
    if (!layout.page) return 0;
    const std::vector<const TextWord*>& words = layout.words;
    PithPageFacts facts{};
    displayed_size(doc, page, &facts.width, &facts.height);
    facts.dpi = std::min(kDpi, 72 * std::sqrt(kMaxPixels / std::max(1.0, facts.width * facts.height)));
    const double scale = facts.dpi / 72;

    // The full render, then per group of words one render with that group left out and one
    // mask of that group alone. When the glyph numbering cannot be trusted, or the page has too
    // many words to group, one render without any glyph and one mask of all glyphs serve all.
    std::vector<std::pair<double, double>> origins;
    std::unique_ptr<SplashBitmap> full = render(doc, page, facts.dpi, nullptr, {}, &origins, deadline);
    std::vector<Box> boxes;
    for (const TextWord* w : words) {
        Box b;
        w->getBBox(&b.x0, &b.y0, &b.x1, &b.y1);
        boxes.push_back(b);
    }
    int groups = 1;
    std::vector<int> group(words.size(), 0);
    std::vector<int> owner;
    facts.attributed = words.size() <= kMaxGroupedWords && numbering_matches(words, origins, scale);
    if (facts.attributed) {
        group = group_words(boxes, &groups);
        for (std::size_t i = 0; i < words.size(); ++i) {
            const long from = words[i]->getCharPos(), to = from + words[i]->getCharLen();
            if (from < 0 || to > 10'000'000) continue;
            if (owner.size() < static_cast<std::size_t>(to)) owner.resize(to, kNoWord);
            for (long p = from; p < to; ++p) owner[p] = group[i];
        }
    }
    std::vector<std::unique_ptr<SplashBitmap>> without, mask;
    for (int g = 0; g < groups; ++g) {
        const Selection all_but = facts.attributed ? Selection{Selection::AllBut, g} : Selection{Selection::None, 0};
        const Selection only = facts.attributed ? Selection{Selection::Only, g} : Selection{Selection::Only, kNoWord};
        without.push_back(render(doc, page, facts.dpi, facts.attributed ? &owner : nullptr, all_but, nullptr, deadline));
        mask.push_back(render(doc, page, facts.dpi, facts.attributed ? &owner : nullptr, only, nullptr, deadline));
    }
    facts.rendered = Clock::now() <= deadline && full;
    for (const auto* set : {&without, &mask})
        for (const auto& b : *set)
            facts.rendered = facts.rendered && b && b->getWidth() == full->getWidth() && b->getHeight() == full->getHeight();
    page_sink(context, &facts);

    std::string utf8;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const TextWord* word = words[i];
        utf8.clear();
        for (int c = 0; c < word->getLength(); ++c) append_utf8(utf8, *word->getChar(c));
        PithWordFacts w{};
        w.text = utf8.data();
        w.text_size = utf8.size();
        w.x0 = boxes[i].x0, w.y0 = boxes[i].y0, w.x1 = boxes[i].x1, w.y1 = boxes[i].y1;
        w.size = word->getFontSize();
        w.rotation = word->getRotation();
        w.line_end = word->getNext() == nullptr;
        w.crowded = group[i] == kNoWord;
        if (facts.rendered && !w.crowded) {
            const SplashBitmap& other = *without[group[i]];
            const Ink ink = ink_in(*full, other, mask[group[i]].get(), scale, w.x0, w.y0, w.x1, w.y1);
            w.ink = ink.fraction;
            w.ink_pixels = ink.pixels;
            w.shown = ink.shown;
            w.least_char_ink = 1;
            for (int c = 0; c < word->getLength(); ++c) {
                double x0, y0, x1, y1;
                word->getCharBBox(c, &x0, &y0, &x1, &y1);
                w.least_char_ink = std::min(w.least_char_ink, ink_in(*full, other, nullptr, scale, x0, y0, x1, y1).fraction);
            }
        }
        word_sink(context, &w);
    }
    return 1;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int pith_page_words_v4(
    const char* pdf, std::size_t size, int index, const char* password, double seconds,
    void (*page)(void*, const PithPageFacts*), void (*word)(void*, const PithWordFacts*), void* context) {
    try {
        return page_words(pdf, size, index, password, seconds, page, word, context);
    } catch (...) {
        return 0;
    }
}

// ================================================================ pith_page_glance_v2
// (src/poppler/page_glance_abi.h) The page's words and what it paints, at low resolution, from one
// render that loads no font: pith stamp's title check and badge placement.

namespace {

// Splash that paints each glyph as its box (advance x ascent-descent) instead of its outline:
// font programs are never loaded, which is most of the cost of rendering a page of text, and a
// glyph's box holds its ink, so a spot free of boxes is free of glyphs. Invisible text (render
// mode 3, OCR layers) paints nothing, as in a viewer.
class GlyphBoxSplash : public SplashOutputDev {
public:
    GlyphBoxSplash(SplashColorPtr paper, bool text) : SplashOutputDev(splashModeRGB8, 4, false, paper), text_(text) {}
    bool interpretType3Chars() override { return false; }
    void updateFont(GfxState*) override {}
    bool beginType3Char(GfxState*, double, double, double, double, CharCode, const Unicode*, int) override { return true; }
    void drawChar(GfxState* state, double x, double y, double dx, double dy, double, double, CharCode, int,
                  const Unicode*, int) override {
        if (!text_ || (state->getRender() & 3) == 3) return;
        double ascent = 0.9, descent = -0.25;
        if (const GfxFont* font = state->getFont().get()) {
            ascent = std::clamp(font->getAscent(), 0.5, 1.2);
            descent = std::clamp(font->getDescent(), -0.5, 0.0);
        }
        double ux, uy, lx, ly;  // the box's top and bottom edges from the baseline, user space
        state->textTransformDelta(0, state->getFontSize() * ascent, &ux, &uy);
        state->textTransformDelta(0, state->getFontSize() * descent, &lx, &ly);
        if (std::hypot(dx, dy) < 1e-6) dx = 0.5 * (ux - lx), dy = 0.5 * (uy - ly);  // zero advance: a square-ish box
        state->moveTo(x + lx, y + ly);
        state->lineTo(x + dx + lx, y + dy + ly);
        state->lineTo(x + dx + ux, y + dy + uy);
        state->lineTo(x + ux, y + uy);
        state->closePath();
        SplashOutputDev::fill(state);
        state->clearPath();
        state->shift(x - state->getCurX(), y - state->getCurY());  // the path moved the text position: put it back
    }

private:
    bool text_;  // false: glyphs are not painted at all
};

// Share of the pixels touching the box (points) that differ by a visible amount between the
// renders with and without glyph boxes, and how many.
std::pair<double, double> box_ink(const SplashBitmap& with, const SplashBitmap& without, double scale, double x0, double y0,
                                  double x1, double y1) {
    const int w = with.getWidth(), h = with.getHeight();
    const int c0 = std::clamp(static_cast<int>(std::floor(x0 * scale)), 0, w);
    const int c1 = std::clamp(static_cast<int>(std::ceil(x1 * scale)), 0, w);
    const int r0 = std::clamp(static_cast<int>(std::floor(y0 * scale)), 0, h);
    const int r1 = std::clamp(static_cast<int>(std::ceil(y1 * scale)), 0, h);
    if (c1 <= c0 || r1 <= r0) return {0, 0};
    long changed = 0;
    for (int r = r0; r < r1; ++r) {
        const unsigned char* a = with.getDataPtr() + static_cast<std::ptrdiff_t>(r) * with.getRowSize();
        const unsigned char* b = without.getDataPtr() + static_cast<std::ptrdiff_t>(r) * without.getRowSize();
        for (int c = c0; c < c1; ++c) {
            int most = 0;
            for (int k = 0; k < 3; ++k) most = std::max(most, std::abs(a[3 * c + k] - b[3 * c + k]));
            changed += most >= kMinChannelChange;
        }
    }
    return {static_cast<double>(changed) / (static_cast<double>(c1 - c0) * (r1 - r0)), static_cast<double>(changed)};
}

// The page rendered at `dpi` with glyphs painted as boxes, or not painted at all.
std::unique_ptr<SplashBitmap> box_render(PDFDoc& doc, int page, double dpi, bool text, Clock::time_point& deadline) {
    SplashColor white = {255, 255, 255};
    GlyphBoxSplash out(white, text);
    out.setVectorAntialias(true);
    out.startDoc(&doc);
    doc.displayPage(&out, page, dpi, dpi, 0, false, true, false, &past_deadline, &deadline);
    return std::unique_ptr<SplashBitmap>(out.takeBitmap());
}

int page_glance(const char* pdf, std::size_t size, int index, const char* password, double dpi, double seconds,
                void (*ink_sink)(void*, const PithPageInk*), void (*page_sink)(void*, const PithPageFacts*),
                void (*word_sink)(void*, const PithWordFacts*), void* context) {
    if (!(dpi > 0 && dpi <= 300)) return 0;
    const std::unique_ptr<PDFDoc> opened = open_page(pdf, size, index, password);
    if (!opened) return 0;
    PDFDoc& doc = *opened;
    const int page = index + 1;
    Clock::time_point deadline = deadline_after(seconds);
    const bool words = word_sink != nullptr;  // without: the ink alone, no layout
    const Layout layout = words ? lay_out(doc, page, deadline) : Layout{};
    if (words && !layout.page) return 0;

    PithPageFacts facts{};
    displayed_size(doc, page, &facts.width, &facts.height);
    facts.dpi = std::min(dpi, 72 * std::sqrt(kMaxPixels / std::max(1.0, facts.width * facts.height)));
    std::unique_ptr<SplashBitmap> bitmap = box_render(doc, page, facts.dpi, true, deadline);
    std::unique_ptr<SplashBitmap> bare = words ? box_render(doc, page, facts.dpi, false, deadline) : nullptr;
    if (!bitmap || (words && (!bare || bare->getWidth() != bitmap->getWidth() || bare->getHeight() != bitmap->getHeight())))
        return 0;
    facts.rendered = Clock::now() <= deadline;
    PithPageInk map{facts.width, facts.height, bitmap->getWidth(), bitmap->getHeight(), nullptr, facts.rendered};
    std::vector<unsigned char> ink(static_cast<std::size_t>(map.columns) * map.rows);
    for (int y = 0; y < map.rows; ++y) {
        const unsigned char* p = bitmap->getDataPtr() + static_cast<std::ptrdiff_t>(y) * bitmap->getRowSize();
        for (int x = 0; x < map.columns; ++x)
            ink[static_cast<std::size_t>(y) * map.columns + x] = 255 - std::min({p[3 * x], p[3 * x + 1], p[3 * x + 2]});
    }
    map.ink = ink.data();
    ink_sink(context, &map);
    if (!words) return 1;
    page_sink(context, &facts);

    // A word is judged by what painting its glyphs' boxes changes in its box: glyphs a viewer
    // does not paint (render mode 3, clipped away, covered, transparent, the paper's colour)
    // change nothing.
    const double scale = facts.dpi / 72;
    std::string utf8;
    for (const TextWord* word : layout.words) {
        utf8.clear();
        for (int c = 0; c < word->getLength(); ++c) append_utf8(utf8, *word->getChar(c));
        PithWordFacts w{};
        w.text = utf8.data();
        w.text_size = utf8.size();
        word->getBBox(&w.x0, &w.y0, &w.x1, &w.y1);
        w.size = word->getFontSize();
        w.rotation = word->getRotation();
        w.line_end = word->getNext() == nullptr;
        std::tie(w.ink, w.ink_pixels) = box_ink(*bitmap, *bare, scale, w.x0, w.y0, w.x1, w.y1);
        w.shown = 1;  // not measured: a glance draws no glyph alone
        w.least_char_ink = 1;
        for (int c = 0; c < word->getLength(); ++c) {
            double x0, y0, x1, y1;
            word->getCharBBox(c, &x0, &y0, &x1, &y1);
            w.least_char_ink = std::min(w.least_char_ink, box_ink(*bitmap, *bare, scale, x0, y0, x1, y1).first);
        }
        word_sink(context, &w);
    }
    return 1;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int pith_page_glance_v2(
    const char* pdf, std::size_t size, int index, const char* password, double dpi, double seconds,
    void (*ink)(void*, const PithPageInk*), void (*page)(void*, const PithPageFacts*),
    void (*word)(void*, const PithWordFacts*), void* context) {
    try {
        return page_glance(pdf, size, index, password, dpi, seconds, ink, page, word, context);
    } catch (...) {
        return 0;
    }
}

// ================================================================ pith_page_regions_v2
// (src/poppler/page_region_abi.h) Regions of the page as a viewer shows it: the title block and
// the page below it, for the pixel reading of the title (src/page/pixels.hpp).

namespace {

// Region k of the page, to `sink` (nothing when it is empty on the page).
// The region's slice of the page in device pixels at `scale` pixels a point, clipped to the page
// as it is displayed (columns c0..c1, rows r0..r1).
struct PixelSlice {
    int c0, r0, c1, r1;
};
PixelSlice device_slice(PDFDoc& doc, int page, const PithRegion& region, double scale) {
    double width, height;
    displayed_size(doc, page, &width, &height);
    const int right = static_cast<int>(std::ceil(width * scale)), bottom = static_cast<int>(std::ceil(height * scale));
    const int c0 = std::clamp(static_cast<int>(std::floor(region.x0 * scale)), 0, right);
    const int r0 = std::clamp(static_cast<int>(std::floor(region.y0 * scale)), 0, bottom);
    return {c0, r0, std::clamp(static_cast<int>(std::ceil(region.x1 * scale)), c0, right),
            std::clamp(static_cast<int>(std::ceil(region.y1 * scale)), r0, bottom)};
}

void render_slice(PDFDoc& doc, int page, const PithRegion& region, double seconds, void (*sink)(void*, int, const PithRegionPixels*),
                  void* context, int k) {
    double dpi = region.dpi;
    const double x0 = region.x0, y0 = region.y0, x1 = region.x1, y1 = region.y1;
    if (!(dpi > 0 && dpi <= 600) || !(x1 > x0) || !(y1 > y0)) return;
    Clock::time_point deadline = deadline_after(seconds);
    // No more than kMaxPixels.
    dpi = std::min(dpi, 72 * std::sqrt(kMaxPixels / std::max(1.0, (x1 - x0) * (y1 - y0))));
    const double scale = dpi / 72;
    const auto [c0, r0, c1, r1] = device_slice(doc, page, region, scale);
    if (c1 <= c0 || r1 <= r0) return;
    SplashColor white = {255, 255, 255};
    SplashOutputDev out(splashModeRGB8, 4, false, white);  // what pdftoppm draws: nothing left out
    out.setFontAntialias(true);
    out.setVectorAntialias(true);
    out.startDoc(&doc);
    doc.displayPageSlice(&out, page, dpi, dpi, 0, false, true, false, c0, r0, c1 - c0, r1 - r0, &past_deadline, &deadline);
    const std::unique_ptr<SplashBitmap> bitmap(out.takeBitmap());
    if (!bitmap || bitmap->getWidth() <= 0 || bitmap->getHeight() <= 0) return;
    const int columns = bitmap->getWidth(), rows = bitmap->getHeight();
    std::vector<unsigned char> rgb(static_cast<std::size_t>(columns) * rows * 3);
    for (int r = 0; r < rows; ++r)
        std::copy_n(bitmap->getDataPtr() + static_cast<std::ptrdiff_t>(r) * bitmap->getRowSize(), 3 * columns,
                    rgb.data() + static_cast<std::size_t>(r) * columns * 3);
    const PithRegionPixels pixels{columns, rows, rgb.data(), dpi, c0 / scale, r0 / scale, Clock::now() <= deadline};
    sink(context, k, &pixels);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int pith_page_regions_v2(
    const char* pdf, std::size_t size, int index, const char* password, const PithRegion* regions, int count,
    double seconds, void (*pixels)(void*, int, const PithRegionPixels*), void* context) {
    try {
        const std::unique_ptr<PDFDoc> opened = open_page(pdf, size, index, password);
        if (!opened) return 0;
        for (int k = 0; k < count; ++k) render_slice(*opened, index + 1, regions[k], seconds, pixels, context, k);
        return 1;
    } catch (...) {
        return 0;
    }
}

// ================================================================ pith_glyph_masks_v1
// (src/poppler/page_region_abi.h) Each glyph of a region's words drawn alone: a TeX logo's
// letters, read one by one (src/page/logo_letters.hpp).

namespace {

struct LogoGlyph {
    std::string text;
    double x0, y0, x1, y1;
};

// The glyphs of the words whose boxes' centres lie in the region, each a group of `owner` of its own.
std::vector<LogoGlyph> region_glyphs(const Layout& layout, const PithRegion& region, std::vector<int>& owner) {
    std::vector<LogoGlyph> out;
    for (const TextWord* word : layout.words) {
        double x0, y0, x1, y1;
        word->getBBox(&x0, &y0, &x1, &y1);
        const double cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
        const int n = word->getLength(), bytes = word->getCharLen();
        if (cx < region.x0 || cx > region.x1 || cy < region.y0 || cy > region.y1 || n <= 0 || bytes % n != 0) continue;
        if (word->getCharPos() < 0 || word->getCharPos() + bytes > 10'000'000) continue;
        for (int c = 0; c < n; ++c) {
            const long from = word->getCharPos() + static_cast<long>(c) * (bytes / n), to = from + bytes / n;
            if (owner.size() < static_cast<std::size_t>(to)) owner.resize(to, kNoWord);
            for (long p = from; p < to; ++p) owner[p] = static_cast<int>(out.size());
            LogoGlyph g;
            append_utf8(g.text, *word->getChar(c));
            word->getCharBBox(c, &g.x0, &g.y0, &g.x1, &g.y1);
            out.push_back(std::move(g));
        }
    }
    return out;
}

int glyph_masks(const char* pdf, std::size_t size, int index, const char* password, const PithRegion& region,
                double seconds, void (*sink)(void*, const PithGlyphMask*), void* context) {
    const std::unique_ptr<PDFDoc> opened = open_page(pdf, size, index, password);
    if (!opened) return 0;
    Clock::time_point deadline = deadline_after(seconds);
    const Layout layout = lay_out(*opened, index + 1, deadline);
    if (!layout.page) return 0;
    std::vector<int> owner;
    const std::vector<LogoGlyph> glyphs = region_glyphs(layout, region, owner);
    const double dpi = std::clamp(region.dpi, 1.0, 600.0), scale = dpi / 72;
    // The slice render_slice() cuts of the page's own rendering, so that the two line up.
    const auto [c0, r0, c1, r1] = device_slice(*opened, index + 1, region, scale);
    if (c1 <= c0 || r1 <= r0 || (c1 - c0) * static_cast<double>(r1 - r0) > kMaxPixels) return 1;
    for (std::size_t g = 0; g < glyphs.size() && Clock::now() <= deadline; ++g) {
        SplashColor white = {255, 255, 255};
        SelectiveSplash out(white, &owner, Selection{Selection::Only, static_cast<int>(g)}, nullptr);
        out.setFontAntialias(true);
        out.setVectorAntialias(true);
        out.startDoc(opened.get());
        opened->displayPageSlice(&out, index + 1, dpi, dpi, 0, false, true, false, c0, r0, c1 - c0, r1 - r0,
                                 &past_deadline, &deadline);
        const std::unique_ptr<SplashBitmap> bitmap(out.takeBitmap());
        if (!bitmap || bitmap->getWidth() != c1 - c0 || bitmap->getHeight() != r1 - r0) continue;
        std::vector<unsigned char> ink(static_cast<std::size_t>(c1 - c0) * (r1 - r0));
        for (int y = 0; y < r1 - r0; ++y) {
            const unsigned char* p = bitmap->getDataPtr() + static_cast<std::ptrdiff_t>(y) * bitmap->getRowSize();
            unsigned char* row = ink.data() + static_cast<std::size_t>(y) * (c1 - c0);
            for (int x = 0; x < c1 - c0; ++x) row[x] = 255 - std::min({p[3 * x], p[3 * x + 1], p[3 * x + 2]});
        }
        const LogoGlyph& l = glyphs[g];
        const PithGlyphMask m{l.text.data(), l.text.size(), l.x0, l.y0, l.x1, l.y1, c1 - c0, r1 - r0, ink.data(),
                              dpi, c0 / scale, r0 / scale};
        sink(context, &m);
    }
    return 1;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int pith_glyph_masks_v1(
    const char* pdf, std::size_t size, int index, const char* password, const PithRegion* region, double seconds,
    void (*glyph)(void*, const PithGlyphMask*), void* context) {
    try {
        return region ? glyph_masks(pdf, size, index, password, *region, seconds, glyph, context) : 0;
    } catch (...) {
        return 0;
    }
}
