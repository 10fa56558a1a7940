// SPDX-License-Identifier: MIT
#include "page/visible.hpp"

#include "core/child.hpp"
#include "core/cpus.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/reply.hpp"
#include "core/findings.hpp"
#include "core/sanitizer.hpp"
#include "core/trace.hpp"
#include "page/poppler_module.hpp"
#include "poppler/page_glance_abi.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pith::page::visible {

namespace {

struct Collected {
    PithPageFacts facts{};
    Page page;
    InkMap ink;
    bool ink_rendered = false;
};

void on_ink(void* context, const PithPageInk* facts) {
    auto* c = static_cast<Collected*>(context);
    c->ink.width = facts->width;
    c->ink.height = facts->height;
    c->ink.columns = facts->columns;
    c->ink.rows = facts->rows;
    c->ink.ink.assign(facts->ink, facts->ink + static_cast<std::size_t>(facts->columns) * facts->rows);
    c->ink_rendered = facts->rendered != 0;
}

void on_page(void* context, const PithPageFacts* facts) {
    auto* c = static_cast<Collected*>(context);
    c->facts = *facts;
    c->page.width = facts->width;
    c->page.height = facts->height;
}

std::string one_decimal(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// Why a reader does not see this word, or "" when they do. Order: the cheapest to explain first.
std::string why_hidden(const PithPageFacts& page, const PithWordFacts& w) {
    if (!page.rendered) return "page not rendered in time";
    const double slack = std::max(kEdgeSlack, kEdgeSlackOfSize * w.size);
    if (!(w.x0 >= -slack && w.y0 >= -slack && w.x1 <= page.width + slack && w.y1 <= page.height + slack))
        return "outside the page";
    if (!(w.size >= kMinSize)) return "too small (" + one_decimal(w.size) + " pt)";
    if (w.crowded) return "overlaps too many other words";
    if (!(w.ink >= kMinInk && w.ink_pixels >= kMinInkPixels)) return "not painted";
    if (!(w.shown >= kMinShown)) return "glyphs mostly not shown (" + std::to_string(std::lround(100 * w.shown)) + " %)";
    if (!(w.least_char_ink > 0)) return "partly painted";
    return "";
}

void on_word(void* context, const PithWordFacts* facts) {
    auto* c = static_cast<Collected*>(context);
    Word w;
    w.text.assign(facts->text, facts->text_size);
    w.x0 = facts->x0;
    w.y0 = facts->y0;
    w.x1 = facts->x1;
    w.y1 = facts->y1;
    w.size = facts->size;
    w.rotation = facts->rotation;
    w.line_end = facts->line_end != 0;
    w.hidden_why = why_hidden(c->facts, *facts);
    w.visible = w.hidden_why.empty();
    c->page.words.push_back(std::move(w));
}

// ---------------------------------------------------------------- encoding
// "pith-visible 2 <width> <height> <words>\n", then per word
// "<x0> <y0> <x1> <y1> <size> <rotation> <line_end> <visible> <text bytes> <why bytes>\n<text><why>\n".
// Numbers as C99 hex floats (%a): exact.

using reply::put_number;
using reply::Reply;

std::optional<Word> decode_word(Reply& in) {
    Word w;
    for (double* v : {&w.x0, &w.y0, &w.x1, &w.y1, &w.size}) {
        const std::optional<double> n = in.number();
        if (!n) return std::nullopt;
        *v = *n;
    }
    const std::optional<std::size_t> rotation = in.count();
    const std::optional<bool> line_end = in.flag(), visible = in.flag();
    if (!rotation || *rotation > 3 || !line_end || !visible) return std::nullopt;
    w.rotation = static_cast<int>(*rotation);
    w.line_end = *line_end;
    w.visible = *visible;
    const std::optional<std::size_t> text_size = in.count(), why_size = in.count('\n');
    if (!text_size || !why_size) return std::nullopt;
    std::optional<std::string> text = in.bytes(*text_size), why = in.bytes(*why_size);
    if (!text || !why || !in.literal("\n")) return std::nullopt;
    if (w.visible != why->empty()) return std::nullopt;
    w.text = std::move(*text);
    w.hidden_why = std::move(*why);
    return w;
}

std::string join(const Page& page, bool visible_only) {
    std::string out;
    bool line_break = false;  // a line ended since the last word written
    for (const Word& w : page.words) {
        if (w.visible || !visible_only) {
            if (!out.empty()) out += line_break ? '\n' : ' ';
            out += w.text;
            line_break = false;
        }
        line_break = line_break || w.line_end;
    }
    return out;
}

}  // namespace

std::optional<Page> page_words(std::string_view pdf, int index, const std::string& password) {
    static const auto fn = reinterpret_cast<PithPageWordsFn>(poppler_module::symbol(PITH_PAGE_WORDS_SYMBOL));
    Collected c;
    if (!fn(pdf.data(), pdf.size(), index, password.c_str(), kRenderSeconds, &on_page, &on_word, &c))
        return std::nullopt;
    return std::move(c.page);
}

std::optional<Glance> page_glance(std::string_view pdf, int index, const std::string& password) {
    static const auto fn = reinterpret_cast<PithPageGlanceFn>(poppler_module::symbol(PITH_PAGE_GLANCE_SYMBOL));
    Collected c;
    if (!fn(pdf.data(), pdf.size(), index, password.c_str(), kGlanceDpi, kGlanceSeconds, &on_ink, nullptr, nullptr, &c))
        return std::nullopt;
    if (!c.ink_rendered) c.ink = InkMap{};  // cut short: it says nothing of what the page paints
    return Glance{std::move(c.page), std::move(c.ink)};
}

void preload() {
    static const bool done = [] {
        const auto fn = reinterpret_cast<PithPageGlanceFn>(poppler_module::symbol(PITH_PAGE_GLANCE_SYMBOL));
        (void)poppler_module::symbol(PITH_PAGE_WORDS_SYMBOL);
        fn(nullptr, 0, 0, "", kGlanceDpi, 0, nullptr, nullptr, nullptr, nullptr);  // sets up poppler's global state, returns 0
        return true;
    }();
    (void)done;
}

double InkMap::inked(double x0, double y0, double x1, double y1) const {
    if (columns <= 0 || rows <= 0 || !(width > 0) || !(height > 0)) return 0;
    const double sx = columns / width, sy = rows / height;
    // Cells touching the box; y turns from "up from the bottom" to "rows from the top".
    const int c0 = std::clamp(static_cast<int>(std::floor(x0 * sx)), 0, columns);
    const int c1 = std::clamp(static_cast<int>(std::ceil(x1 * sx)), 0, columns);
    const int r0 = std::clamp(static_cast<int>(std::floor((height - y1) * sy)), 0, rows);
    const int r1 = std::clamp(static_cast<int>(std::ceil((height - y0) * sy)), 0, rows);
    if (c1 <= c0 || r1 <= r0) return 0;
    long dark = 0;
    for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c) dark += ink[static_cast<std::size_t>(r) * columns + c] >= kInkLevel;
    return static_cast<double>(dark) / (static_cast<double>(c1 - c0) * (r1 - r0));
}

std::string encode(const Page& page) {
    std::string out = "pith-visible 2 ";
    put_number(out, page.width);
    put_number(out, page.height);
    out += std::to_string(page.words.size()) + "\n";
    for (const Word& w : page.words) {
        for (double v : {w.x0, w.y0, w.x1, w.y1, w.size}) put_number(out, v);
        out += std::to_string(w.rotation) + " ";
        out += w.line_end ? "1 " : "0 ";
        out += w.visible ? "1 " : "0 ";
        out += std::to_string(w.text.size()) + " " + std::to_string(w.hidden_why.size()) + "\n";
        out += w.text + w.hidden_why + "\n";
    }
    return out;
}

std::optional<Page> decode(std::string_view bytes) {
    Reply in(bytes);
    Page page;
    if (!in.literal("pith-visible 2 ")) return std::nullopt;
    const std::optional<double> width = in.number(), height = in.number();
    const std::optional<std::size_t> n = in.count('\n');
    if (!width || !height || !n) return std::nullopt;
    page.width = *width;
    page.height = *height;
    for (std::size_t i = 0; i < *n; ++i) {
        std::optional<Word> w = decode_word(in);
        if (!w) return std::nullopt;
        page.words.push_back(std::move(*w));
    }
    if (!in.done()) return std::nullopt;
    return page;
}

// The first few reasons why words of a page are hidden.
std::string hidden_reasons(const visible::Page& page) {
    std::vector<std::string> why;
    for (const auto& w : page.words)
        if (!w.visible && why.size() < 3 && std::find(why.begin(), why.end(), w.hidden_why) == why.end()) why.push_back(w.hidden_why);
    return joined(why);
}

std::string visible_text(const Page& page) { return join(page, true); }
std::string all_text(const Page& page) { return join(page, false); }

namespace {

// CPU seconds poppler may spend on one page, and the wall-clock time after which the child is
// killed (a child stuck outside poppler's own time limit, e.g. in fontconfig building its cache).
constexpr unsigned long kChildSeconds[] = {20, 6};    // by Look
constexpr double kChildWallSeconds[] = {40, 5};
constexpr unsigned long long kChildMemory = 2ull << 30;  // bytes of address space, beyond what the child inherits

// In the child: loads pith-text.so, then limits the child's CPU time to `cpu_seconds` and its
// address space to what it inherited plus `memory` bytes (a backstop for poppler's own parsing,
// which pith's budget does not cover).
void limit_child(unsigned long cpu_seconds, unsigned long long memory) {
    try {
        preload();  // loaded now, while nothing limits it
    } catch (const Error&) {
        // the reading reports it
    }
    child::limit({cpu_seconds, 1, memory, true});
}

// The ink map on the pipe: "<width> <height> <columns> <rows>\n" (hex floats), then the cells.
std::string encode_ink(const InkMap& m) {
    std::string out;
    put_number(out, m.width);
    put_number(out, m.height);
    return out + std::to_string(m.columns) + " " + std::to_string(m.rows) + "\n" + std::string(m.ink.begin(), m.ink.end());
}

std::optional<InkMap> decode_ink(std::string_view bytes) {
    Reply in(bytes);
    InkMap m;
    const std::optional<double> width = in.number(), height = in.number();
    const std::optional<std::size_t> columns = in.count(), rows = in.count('\n');
    if (!width || !height || !columns || !rows || !(*width > 0) || !(*height > 0) || *columns == 0 || *rows == 0)
        return std::nullopt;
    m.width = *width, m.height = *height;
    m.columns = static_cast<int>(*columns), m.rows = static_cast<int>(*rows);
    std::optional<std::string> cells = in.bytes(*columns * *rows);
    if (!cells || !in.done()) return std::nullopt;
    m.ink.assign(cells->begin(), cells->end());
    return m;
}

std::string not_rendered() {
    return "the page was not rendered within " + std::to_string(static_cast<int>(kGlanceSeconds)) + " s";
}

}  // namespace

Reading ChildReader::read_here() const {
    try {
        if (look_ == Look::Rendered) return {page_words(pdf_, index_, password_), std::nullopt, false, {}};
        std::optional<Glance> g = page_glance(pdf_, index_, password_);
        if (!g) return {};
        Reading r{std::move(g->page), std::nullopt, false, {}};
        if (g->ink.columns > 0) r.ink = std::move(g->ink);
        else r.why = not_rendered();
        return r;
    } catch (const Error& e) {
        return {std::nullopt, std::nullopt, true, e.what()};
    }
}

ChildReader::ChildReader(std::string_view pdf, int index, const std::string& password, Look look)
    : pdf_(pdf), index_(index), password_(password), look_(look) {
    // verify's renders go to the other CPUs while verify goes on; stamp's quick looks are left
    // to the scheduler (pinned, they waited on the other batch worker's CPU: doc/performance.md).
    std::optional<OtherCpus> elsewhere;
    if (look == Look::Rendered) elsewhere.emplace();
    child_ = child::Child([this] { return in_child(); }, [&elsewhere](pid_t pid) {
        if (elsewhere) elsewhere->give_to(pid);  // in both: whichever runs first
    });
}

// The child's message: 'E' and why not; 'N' no page; 'W' and the page's words; 'G', the length
// of the page's encoding (no words), '\n', the page, then the ink map (or nothing when not rendered).
std::string ChildReader::in_child() const {
#if PITH_TEST_HOOKS
    if (std::getenv(look_ == Look::Rendered ? "PITH_TEST_PAGE_TEXT_CRASH" : "PITH_TEST_GLANCE_CRASH")) std::abort();
    if (look_ != Look::Rendered && std::getenv("PITH_TEST_GLANCE_HANG")) ::pause();  // test hooks: poppler crashes, or hangs
#endif
    limit_child(kChildSeconds[static_cast<int>(look_)], kChildMemory);
    const trace::Span span(look_ == Look::Rendered ? "page_text/words" : "page_text/glance");
    const Reading r = read_here();
    if (r.failed) return "E" + r.why;
    if (!r.page) return "N";
    if (look_ == Look::Rendered) return "W" + encode(*r.page);
    const std::string words = encode(*r.page);
    return "G" + std::to_string(words.size()) + "\n" + words + (r.ink ? encode_ink(*r.ink) : "");
}

Reading ChildReader::collect() {
    if (!child_.started()) return read_here();  // no child: in this process then
    const double wall = kChildWallSeconds[static_cast<int>(look_)];
    const child::Ended ended = child_.wait(wall, "page_text/wait");
    if (!ended.bytes) return {std::nullopt, std::nullopt, true, "poppler did not finish within " + std::to_string(static_cast<int>(wall)) + " s"};
    const std::string_view message = *ended.bytes;
    if (!ended.exited_cleanly() || message.empty())
        return {std::nullopt, std::nullopt, true, "poppler crashed or ran out of time or memory"};
    if (message[0] == 'E') return {std::nullopt, std::nullopt, true, std::string(message.substr(1))};
    if (message[0] == 'N') return {};
    Reading r;
    std::string_view words = message.substr(1), ink;
    if (message[0] == 'G') {
        const std::size_t eol = words.find('\n');
        const std::size_t size = eol == std::string_view::npos ? 0 : std::strtoull(std::string(words.substr(0, eol)).c_str(), nullptr, 10);
        if (eol == std::string_view::npos || size > words.size() - eol - 1) return {std::nullopt, std::nullopt, true, "poppler's child sent a page that does not decode"};
        ink = words.substr(eol + 1 + size);
        words = words.substr(eol + 1, size);
        if (!ink.empty() && !(r.ink = decode_ink(ink))) return {std::nullopt, std::nullopt, true, "poppler's child sent a page that does not decode"};
        if (ink.empty()) r.why = not_rendered();
    }
    if (!(r.page = decode(words))) return {std::nullopt, std::nullopt, true, "poppler's child sent words that do not decode"};
    return r;
}

}  // namespace pith::page::visible

namespace pith::page::visible {

void limit_reading_child(unsigned long cpu_seconds) { limit_child(cpu_seconds, kChildMemory); }

}  // namespace pith::page::visible
