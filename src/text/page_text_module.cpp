// pith-text.so: poppler, loaded with dlopen() by pith only when `pith verify` needs it, so that
// no other pith run pays for loading poppler. Two entry points:
//  - pith_page_text: page text by poppler-cpp (pith::title::page_text());
//  - pith_page_words_v1: the page's words with what rendering says about each
//    (pith::visible::page_words(); src/text/page_words_abi.h, doc/visible.md).
#include "page_words_abi.h"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-page.h>

#include <poppler/Error.h>
#include <poppler/GlobalParams.h>
#include <poppler/PDFDoc.h>
#include <poppler/SplashOutputDev.h>
#include <poppler/Stream.h>
#include <poppler/TextOutputDev.h>
#include <poppler/splash/SplashBitmap.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {
void silence(const std::string&, void*) {}
void silence_core(ErrorCategory, Goffset, const char*) {}
}  // namespace

// The text of page `index` (0-based) goes to sink(context, utf8, size). Returns 1 when the
// page was laid out, 0 when poppler cannot open or unlock the file or the page does not exist.
extern "C" __attribute__((visibility("default"))) int pith_page_text(const char* pdf, std::size_t size, int index,
                                                                     const char* password,
                                                                     void (*sink)(void*, const char*, std::size_t),
                                                                     void* context) {
    poppler::set_debug_error_function(&silence, nullptr);
    if (index < 0 || size == 0 || size > static_cast<std::size_t>(INT_MAX)) return 0;
    try {
        std::unique_ptr<poppler::document> doc(
            poppler::document::load_from_raw_data(pdf, static_cast<int>(size), password, password));
        if (!doc || doc->is_locked() || index >= doc->pages()) return 0;
        std::unique_ptr<poppler::page> page(doc->create_page(index));
        if (!page) return 0;
        const poppler::byte_array utf8 =
            page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout).to_utf8();
        sink(context, utf8.data(), utf8.size());
        return 1;
    } catch (...) {
        return 0;
    }
}

// ================================================================ pith_page_words_v1

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kDpi = 100;                 // enough for 3 pt type to leave ~4 px of ink
constexpr double kMaxPixels = 6e6;           // per render; larger pages are rendered coarser
constexpr int kMinChannelChange = 40;        // of 255: fainter changes are not counted as ink

// Gfx polls this between operators: both renders and the layout stop at the deadline.
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

// The page as a viewer shows it (CropBox, /Rotate, annotations viewers draw), RGB, white paper.
// skip_text: every glyph left out (Type 3 ones too), everything else drawn the same.
std::unique_ptr<SplashBitmap> render(PDFDoc& doc, int page, double dpi, bool skip_text, Clock::time_point& deadline) {
    SplashColor white = {255, 255, 255};
    SplashOutputDev out(splashModeRGB8, 4, false, white);
    out.setFontAntialias(true);
    out.setVectorAntialias(true);
    out.setSkipText(skip_text, skip_text);
    out.startDoc(&doc);
    doc.displayPage(&out, page, dpi, dpi, 0, false, true, false, &past_deadline, &deadline);
    return std::unique_ptr<SplashBitmap>(out.takeBitmap());
}

struct Ink {
    double fraction = 0, pixels = 0;
};

// How many pixels of the box (points) differ by a visible amount between the two renders.
Ink ink_in(const SplashBitmap& with, const SplashBitmap& without, double scale, double x0, double y0, double x1,
           double y1) {
    const int w = with.getWidth(), h = with.getHeight();
    const int px0 = std::clamp(static_cast<int>(std::floor(x0 * scale)), 0, w);
    const int px1 = std::clamp(static_cast<int>(std::ceil(x1 * scale)), 0, w);
    const int py0 = std::clamp(static_cast<int>(std::floor(y0 * scale)), 0, h);
    const int py1 = std::clamp(static_cast<int>(std::ceil(y1 * scale)), 0, h);
    if (px1 <= px0 || py1 <= py0) return {};
    long changed = 0;
    for (int y = py0; y < py1; ++y) {
        const unsigned char* a = with.getDataPtr() + static_cast<std::ptrdiff_t>(y) * with.getRowSize();
        const unsigned char* b = without.getDataPtr() + static_cast<std::ptrdiff_t>(y) * without.getRowSize();
        for (int x = px0; x < px1; ++x) {
            int most = 0;
            for (int c = 0; c < 3; ++c) most = std::max(most, std::abs(a[3 * x + c] - b[3 * x + c]));
            if (most >= kMinChannelChange) ++changed;
        }
    }
    const double area = static_cast<double>(px1 - px0) * (py1 - py0);
    return {changed / area, static_cast<double>(changed)};
}

int page_words(const char* pdf, std::size_t size, int index, const char* password, double seconds,
               void (*page_sink)(void*, const PithPageFacts*), void (*word_sink)(void*, const PithWordFacts*),
               void* context) {
    // poppler-cpp (pith_page_text) frees globalParams when its last document closes.
    if (!globalParams) globalParams = std::make_unique<GlobalParams>();
    setErrorCallback(&silence_core);
    if (index < 0 || size == 0 || size > static_cast<std::size_t>(INT_MAX)) return 0;
    const std::optional<GooString> pw = password ? std::optional<GooString>(GooString(password)) : std::nullopt;
    PDFDoc doc(new MemStream(pdf, 0, static_cast<Goffset>(size), Object(objNull)), pw, pw);
    if (!doc.isOk() || index >= doc.getNumPages()) return 0;
    const int page = index + 1;
    Clock::time_point deadline =
        Clock::now() + std::chrono::milliseconds(static_cast<long>(std::max(0.0, seconds) * 1000));

    // Words in reading order, as page->text(non_raw_non_physical_layout) lays them out.
    TextOutputDev text(nullptr, false, 0, false, false);
    if (!text.isOk()) return 0;
    doc.displayPage(&text, page, 72, 72, 0, false, true, false, &past_deadline, &deadline);
    struct Release {
        void operator()(TextPage* p) const { p->decRefCnt(); }  // TextPage is reference-counted
    };
    std::unique_ptr<TextPage, Release> layout(text.takeText());

    const bool sideways = doc.getPageRotate(page) % 180 != 0;
    PithPageFacts facts{};
    facts.width = sideways ? doc.getPageCropHeight(page) : doc.getPageCropWidth(page);
    facts.height = sideways ? doc.getPageCropWidth(page) : doc.getPageCropHeight(page);
    const double area = std::max(1.0, facts.width * facts.height);
    facts.dpi = std::min(kDpi, 72 * std::sqrt(kMaxPixels / area));
    std::unique_ptr<SplashBitmap> with = render(doc, page, facts.dpi, false, deadline);
    std::unique_ptr<SplashBitmap> without = render(doc, page, facts.dpi, true, deadline);
    facts.rendered = Clock::now() <= deadline && with && without && with->getWidth() == without->getWidth() &&
                     with->getHeight() == without->getHeight();
    page_sink(context, &facts);

    const double scale = facts.dpi / 72;
    std::string utf8;
    for (const TextFlow* flow = layout->getFlows(); flow; flow = flow->getNext())
        for (const TextBlock* block = flow->getBlocks(); block; block = block->getNext())
            for (const TextLine* line = block->getLines(); line; line = line->getNext())
                for (const TextWord* word = line->getWords(); word; word = word->getNext()) {
                    utf8.clear();
                    for (int i = 0; i < word->getLength(); ++i) append_utf8(utf8, *word->getChar(i));
                    PithWordFacts w{};
                    w.text = utf8.data();
                    w.text_size = utf8.size();
                    word->getBBox(&w.x0, &w.y0, &w.x1, &w.y1);
                    w.size = word->getFontSize();
                    w.line_end = word->getNext() == nullptr;
                    if (facts.rendered) {
                        const Ink ink = ink_in(*with, *without, scale, w.x0, w.y0, w.x1, w.y1);
                        w.ink = ink.fraction;
                        w.ink_pixels = ink.pixels;
                        w.least_char_ink = 1;
                        for (int i = 0; i < word->getLength(); ++i) {
                            double x0, y0, x1, y1;
                            word->getCharBBox(i, &x0, &y0, &x1, &y1);
                            w.least_char_ink = std::min(w.least_char_ink,
                                                        ink_in(*with, *without, scale, x0, y0, x1, y1).fraction);
                        }
                    }
                    word_sink(context, &w);
                }
    return 1;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int pith_page_words_v1(
    const char* pdf, std::size_t size, int index, const char* password, double seconds,
    void (*page)(void*, const PithPageFacts*), void (*word)(void*, const PithWordFacts*), void* context) {
    try {
        return page_words(pdf, size, index, password, seconds, page, word, context);
    } catch (...) {
        return 0;
    }
}
