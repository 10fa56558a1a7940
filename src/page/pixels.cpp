// SPDX-License-Identifier: MIT
#include "page/pixels.hpp"

#include "core/edit_distance.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/reply.hpp"
#include "core/trace.hpp"
#include "ocr/ocr_abi.h"
#include "page/logo_letters.hpp"
#include "page/pixel_words.hpp"
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

namespace pith::page::pixels {

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

// ---------------------------------------------------------------- measuring ink

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

TitleWords title_words(const visible::Page& page, std::pair<std::size_t, std::size_t> span,
                       const std::vector<std::size_t>& unread, const std::vector<std::string>& unread_text,
                       const std::vector<std::size_t>& joined) {
    TitleWords out;
    const auto has = [](const std::vector<std::size_t>& v, std::size_t i) {
        return std::find(v.begin(), v.end(), i) != v.end();
    };
    for (std::size_t i = span.first; i <= span.second && i < page.words.size(); ++i) {
        const auto at = std::find(unread.begin(), unread.end(), i);
        const visible::Word& w = page.words[i];
        if (at == unread.end() && i > span.first && has(joined, i - 1) && !has(unread, i - 1) && !out.read.empty()) {
            visible::Word& word = out.read.back();  // the record's word goes on: one word, as the page shows it
            word.text += w.text;
            word.x0 = std::min(word.x0, w.x0), word.y0 = std::min(word.y0, w.y0);
            word.x1 = std::max(word.x1, w.x1), word.y1 = std::max(word.y1, w.y1);
            word.line_end = w.line_end;
            continue;
        }
        (at == unread.end() ? out.read : out.unread).push_back(w);
        const auto k = static_cast<std::size_t>(at - unread.begin());
        if (at != unread.end() && k < unread_text.size() && !unread_text[k].empty()) {
            out.glued.push_back(page.words[i]);
            out.glued.back().text = unread_text[k];
        }
    }
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
    const trace::Span span("ocr/start");
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
    const trace::Span span("pixels/render");
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
    const trace::Span span("ocr/tall_lines");
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
    const trace::Span span("ocr/page_below");
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
    const trace::Span span("ocr/strokes");
    for (const visible::Word& w : sign_words(title)) {
        const std::u32string sign = signs_and_digits(w.text, false);
        if (sign.size() != 1 || ocr_reads(sign[0]) || !tokens_of(w.text).empty()) continue;
        const double pad = 0.1 * (w.y1 - w.y0);
        if (const char32_t drawn = sign_drawn(image, w.x0 - pad, w.y0 - pad, w.x1 + pad, w.y1 + pad))
            r.words.push_back({utf8(std::u32string(1, drawn)), w.x0, w.y0, w.x1, w.y1, 100, kPassStrokes});
    }
}

// Which of the closer reading's words (`words`: title.read, then the formula's words that have a
// digit or a sign) are read alone: those judge() may weigh a reading alone of (to_read_alone();
// each formula word), and each word whose box read alone or cut tight (`boxes`) reaches one of
// them, for what OCR reads there lies where that word stands too (judge()'s over()). What a
// word read alone gives is the same whatever else is read: the same pixels in the same box.
std::vector<bool> read_alone_mask(const TitleWords& title, const Reading& r, const std::vector<visible::Word>& words,
                                  const std::vector<std::array<Box, 2>>& boxes) {
    std::vector<bool> mask = to_read_alone(title, r);
    mask.resize(words.size(), true);
    std::vector<Box> wanted;
    for (std::size_t i = 0; i < words.size(); ++i)
        if (mask[i]) wanted.push_back({words[i].x0, words[i].y0, words[i].x1, words[i].y1});
    for (const visible::Word& w : sign_words(words))  // a negation slash and its sign, judged as one
        if (!signs_and_digits(w.text, true).empty() || w.text == kNegation) wanted.push_back({w.x0, w.y0, w.x1, w.y1});
    const auto reaches = [&](const Box& b) {
        constexpr double kPixel = 1;  // a box's pixels are rounded outwards by less than a point
        return std::any_of(wanted.begin(), wanted.end(), [&](const Box& w) {
            return b[0] - kPixel <= w[2] && b[2] + kPixel >= w[0] && b[1] - kPixel <= w[3] && b[3] + kPixel >= w[1];
        });
    };
    for (std::size_t i = 0; i < words.size(); ++i)
        mask[i] = mask[i] || reaches(boxes[i][0]) || reaches(boxes[i][1]);
    return mask;
}

// The closer reading's boxes, points: the title's lines, padded, and each word's box read alone
// and cut tight at its neighbours (alone()).
struct CloserBoxes {
    std::vector<Box> lines;
    std::vector<std::array<Box, 2>> words;
};
CloserBoxes closer_boxes(const std::vector<visible::Word>& title) {
    CloserBoxes out;
    std::vector<Box>& lines = out.lines;
    for (const visible::Word& w : title) {
        const bool joins = !lines.empty() && (w.y0 + w.y1) / 2 > lines.back()[1] && (w.y0 + w.y1) / 2 < lines.back()[3];
        if (!joins) lines.push_back({w.x0, w.y0, w.x1, w.y1});
        Box& l = lines.back();
        l = {std::min(l[0], w.x0), std::min(l[1], w.y0), std::max(l[2], w.x1), std::max(l[3], w.y1)};
        out.words.push_back({alone(w, title, false), alone(w, title, true)});
    }
    for (Box& l : lines) {
        const double pad = 0.35 * (l[3] - l[1]);
        l = {l[0] - 2 * pad, l[1] - pad, l[2] + 2 * pad, l[3] + pad};
    }
    return out;
}

// The title's lines and words, read closer: rendered again at kCloserScale times `dpi` (only
// their band of the page), each line read alone (kPassCloser + k) and each word read alone
// (kPassAlone + k) by reader k: the title's engines, then the language data its letters call for
// (letter_languages()), so that a word OCR misread in the title block is read at a size, in a
// mode and with data where a misreading is rarer. Language data not installed is not read: its
// words stay unconfirmed. A relation sign OCR has no character for is read from its strokes.
// Lines first, then only the words a reading alone can still decide (read_alone_mask()); and
// none once judge() agrees: more readings only add confirmations (a word read exactly stays
// confirmed, a sign read exactly by one pass stays read so), and the best pass stays the first
// that agrees, so the judgement is the one a full reading would give.
void read_closer(std::string_view pdf, int index, const std::string& password, const Region& region, double dpi,
                 const TitleWords& words, const std::vector<visible::Word>& title,
                 const std::vector<std::string>& engines, Reading& r) {
    const trace::Span span("ocr/closer");
    static const auto read_lines =
        reinterpret_cast<PithOcrLinesFn>(poppler_module::symbol(PITH_OCR_LINES_SYMBOL, "pith-ocr.so"));
    const CloserBoxes boxes = closer_boxes(title);
    if (boxes.lines.empty()) return;
    double top = 1e300, bottom = -1e300;
    for (const Box& l : boxes.lines) top = std::min(top, l[1]), bottom = std::max(bottom, l[3]);
    const double closer = std::min(kMaxCloserDpi, kCloserScale * dpi);
    const Image image =
        render_region(pdf, index, password, region.x0, std::max(region.y0, top), region.x1, bottom, closer);
    if (image.columns <= 0) return;
    const auto read = [&](const std::string& reader, const std::vector<Box>& boxes, int pass) {
        const double px = image.dpi / 72;
        std::vector<PithOcrLine> pixels;
        for (const Box& b : boxes)
            pixels.push_back({std::clamp(static_cast<int>((b[0] - image.x0) * px), 0, image.columns),
                              std::clamp(static_cast<int>((b[1] - image.y0) * px), 0, image.rows),
                              std::clamp(static_cast<int>((b[2] - image.x0) * px), 0, image.columns),
                              std::clamp(static_cast<int>((b[3] - image.y0) * px), 0, image.rows)});
        OcrContext c{&image, &r.words, pass};
        read_lines(reader.c_str(), image.rgb.data(), image.columns, image.rows, static_cast<int>(std::lround(image.dpi)),
                   pixels.data(), static_cast<int>(pixels.size()), &on_word, &c);
    };
    const auto agrees = [&] { return judge(words, r).verdict == Verdict::Agrees; };
    const std::size_t started = std::min<std::size_t>(2, engines.size());  // the title block's: loaded
    std::vector<std::string> wanted(engines.begin(), engines.begin() + static_cast<std::ptrdiff_t>(started));
    for (const std::string& code : letter_languages(title))
        if (std::find(wanted.begin(), wanted.end(), code) == wanted.end()) wanted.push_back(code);
    std::vector<std::string> readers;
    for (std::size_t k = 0; k < wanted.size() && readers.size() < static_cast<std::size_t>(kCloserReaders); ++k) {
        if (k >= started && !preload(wanted[k]).empty()) continue;  // started only when its turn comes
        readers.push_back(wanted[k]);
        read(readers.back(), boxes.lines, kPassCloser + static_cast<int>(readers.size() - 1));
        if (agrees()) return;
    }
    const std::vector<bool> mask = read_alone_mask(words, r, title, boxes.words);
    std::vector<Box> alone_words, tight;  // tight: the words with a neighbour in their margin
    for (std::size_t i = 0; i < title.size(); ++i) {
        if (!mask[i]) continue;
        alone_words.push_back(boxes.words[i][0]);
        if (boxes.words[i][1] != boxes.words[i][0]) tight.push_back(boxes.words[i][1]);
    }
    for (std::size_t k = 0; k < readers.size() && !alone_words.empty(); ++k) {
        read(readers[k], alone_words, kPassAlone + static_cast<int>(k));
        if (agrees()) return;
    }
    if (!tight.empty()) read(readers.front(), tight, kPassTight);
    read_strokes(image, title, r);
}

// One glyph read alone by `engine` (Tesseract's single-character mode), where the page shows it
// as drawn (`shown`), mirrored back where the logo mirrors it: a word of kPassLetters in the
// character's box, its text what was read ("" for nothing), its confidence the least read. That
// mode reads a few clean glyphs as two characters with one margin (a bold E as "FE") and as one
// with a wider: where the first reading gives more than one, the glyph is read once more so.
void read_glyph(const std::string& engine, const GlyphMask& g, bool shown, bool flip, Reading& r) {
    static const auto ocr = reinterpret_cast<PithOcrFn>(poppler_module::symbol(PITH_OCR_SYMBOL, "pith-ocr.so"));
    OcrWord word{"", g.x0, g.y0, g.x1, g.y1, 100, kPassLetters};
    const auto read_with = [&](double margin) {
        const Image alone = flip ? mirrored(glyph_image(g, margin)) : glyph_image(g, margin);
        std::vector<OcrWord> read;
        OcrContext c{&alone, &read, kPassLetters};
        word.text.clear(), word.confidence = 100;
        if (alone.columns > 0 && ocr(engine.c_str(), alone.rgb.data(), alone.columns, alone.rows,
                                     static_cast<int>(std::lround(alone.dpi)), PITH_OCR_CHAR, &on_word, &c) == 1)
            for (const OcrWord& o : read)
                word.text += o.text, word.confidence = std::min(word.confidence, o.confidence);
        int characters = 0;
        each_char(word.text, [&](UChar32) { ++characters; });
        return characters;
    };
    if (shown && read_with(kGlyphMargin) > 1) read_with(kWideGlyphMargin);
    r.words.push_back(std::move(word));
}

void on_glyph(void* context, const PithGlyphMask* m) {
    GlyphMask g{std::string(m->text, m->text_size), m->x0, m->y0, m->x1, m->y1, {}};
    g.ink.columns = m->columns, g.ink.rows = m->rows, g.ink.dpi = m->dpi, g.ink.x0 = m->px0, g.ink.y0 = m->py0;
    g.ink.rgb.resize(static_cast<std::size_t>(m->columns) * m->rows * 3);
    for (std::size_t i = 0; i < static_cast<std::size_t>(m->columns) * m->rows; ++i)
        std::fill_n(g.ink.rgb.begin() + static_cast<std::ptrdiff_t>(3 * i), 3,
                    static_cast<unsigned char>(255 - m->ink[i]));
    static_cast<std::vector<GlyphMask>*>(context)->push_back(std::move(g));
}

// The glyphs of each logo of the title that no reading of the title block gives whole
// (logo_letters.hpp), each drawn alone by poppler over the logo's box at kLetterPixels to its
// type size and read alone where the page shows it as drawn (shown_as_drawn()); a glyph the logo
// mirrors (XeTeX's E) is read mirrored back. A logo's letters are Latin: read by the Latin engine
// (started once a logo needs it), where a title in another script's engine reads a T as 工;
// `engine`, the title's, where the Latin one does not start.
void read_logo_letters(std::string_view pdf, int index, const std::string& password, std::string engine,
                       const TitleWords& title, Reading& r) {
    const trace::Span span("ocr/logo_letters");
    static const auto masks = reinterpret_cast<PithGlyphMasksFn>(poppler_module::symbol(PITH_GLYPH_MASKS_SYMBOL));
    for (const LogoRun& run : logo_runs(title.all())) {
        if (logo_judgement(run, r) == Letters::Confirmed) continue;
        if (engine != kLatin && preload(kLatin).empty()) engine = kLatin;
        const double dpi = std::clamp(kLetterPixels / std::max(1.0, run.size) * 72, kMinDpi, kMaxCloserDpi);
        const double pad = 0.15 * (run.y1 - run.y0);
        const PithRegion region{run.x0 - pad, run.y0 - pad, run.x1 + pad, run.y1 + pad, dpi};
        const Image page = render_region(pdf, index, password, region.x0, region.y0, region.x1, region.y1, dpi);
        std::vector<GlyphMask> glyphs;
        masks(pdf.data(), pdf.size(), index, password.c_str(), &region, kRenderSeconds, &on_glyph, &glyphs);
        for (std::size_t i = 0; i < glyphs.size(); ++i) {
            const bool flip = glyphs.size() == run.letters.size() && run.mirrored[i];
            read_glyph(engine, glyphs[i], shown_as_drawn(glyphs[i], page, glyphs), flip, r);
        }
    }
}

// One OCR pass over the title block (r.image) by `engine`, its words numbered `pass` (judge()).
bool read_title_block(const std::string& engine, int pass, int layout, Reading& r) {
    static const auto ocr = reinterpret_cast<PithOcrFn>(poppler_module::symbol(PITH_OCR_SYMBOL, "pith-ocr.so"));
    const trace::Span span("ocr/title_block");
    OcrContext c{&r.image, &r.words, pass};
    r.read = ocr(engine.c_str(), r.image.rgb.data(), r.image.columns, r.image.rows,
                 static_cast<int>(std::lround(r.image.dpi)), layout, &on_word, &c) == 1;
    if (!r.read) r.why = "Tesseract could not read the title block";
    return r.read;
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
        return read_title_block(engines[k], static_cast<int>(2 * k) + layout, layout, r);
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
    if (title && r.read) read_logo_letters(pdf, index, password, engines[0], *title, r);
    if (!r.read || (title && judge(*title, r).verdict == Verdict::Agrees)) return r;
    if (!pass(0, PITH_OCR_AUTO)) return r;
    for (std::size_t k = 1; k < engines.size(); ++k)
        if (!ready(k) || !pass(k, PITH_OCR_SPARSE) || !pass(k, PITH_OCR_AUTO)) return r;
    if (title && judge(*title, r).verdict == Verdict::Unverified) {  // the readings disagree: read closer
        // The title's words, its formulas' words with a digit or a sign, TeX's negation slash
        // (require_signs_and_digits()), and its text words glued to a formula (require_glued_words()).
        std::vector<visible::Word> closer = title->read;
        for (const visible::Word& w : title->unread) {
            const auto same_box = [&](const visible::Word& g) { return g.x0 == w.x0 && g.y0 == w.y0; };
            const bool glued = std::any_of(title->glued.begin(), title->glued.end(), same_box);
            if (!signs_and_digits(w.text, true).empty() || w.text == kNegation || glued) closer.push_back(w);
        }
        read_closer(pdf, index, password, region, slices.front().dpi, *title, closer, engines, r);
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
        if (!pass || *pass < 0 || *pass > kPassLetters || *pass != std::floor(*pass)) return std::nullopt;
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
        put_words(out, q.title->glued);
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
                                                  page = badge ? take_words(in) : std::nullopt,
                                                  glued = page ? take_words(in) : std::nullopt;
        if (!glued) return std::nullopt;
        q.title = TitleWords{std::move(*read), std::move(*unread), std::move(*badge), std::move(*page),
                             std::move(*glued)};
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
    const child::Ended ended = child_.wait(kChildWallSeconds, "pixels/wait");
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
}  // namespace pith::page::pixels
