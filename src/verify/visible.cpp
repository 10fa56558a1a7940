#include "verify/visible.hpp"

#include "core/cpus.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/findings.hpp"
#include "core/sanitizer.hpp"
#include "text/page_words_abi.h"
#include "verify/text_module.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pith::visible {

namespace {

struct Collected {
    PithPageFacts facts{};
    Page page;
};

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
    w.line_end = facts->line_end != 0;
    w.hidden_why = why_hidden(c->facts, *facts);
    w.visible = w.hidden_why.empty();
    c->page.words.push_back(std::move(w));
}

// ---------------------------------------------------------------- encoding
// "pith-visible 1 <width> <height> <words>\n", then per word
// "<x0> <y0> <x1> <y1> <size> <line_end> <visible> <text bytes> <why bytes>\n<text><why>\n".
// Numbers as C99 hex floats (%a): exact.

void put_number(std::string& out, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a ", v);
    out += buf;
}

class Reader {
public:
    explicit Reader(std::string_view s) : s_(s) {}
    bool literal(std::string_view word) {
        if (s_.substr(0, word.size()) != word) return false;
        s_.remove_prefix(word.size());
        return true;
    }
    // A number followed by one space (or newline when `last`).
    std::optional<double> number(bool last = false) {
        const std::size_t end = s_.find(last ? '\n' : ' ');
        if (end == std::string_view::npos || end == 0 || end > 40) return std::nullopt;
        const std::string token(s_.substr(0, end));
        char* stop = nullptr;
        errno = 0;
        const double v = std::strtod(token.c_str(), &stop);
        if (stop != token.c_str() + token.size() || errno == ERANGE || std::isnan(v)) return std::nullopt;
        s_.remove_prefix(end + 1);
        return v;
    }
    std::optional<std::size_t> count(bool last = false) {
        const std::optional<double> v = number(last);
        if (!v || *v < 0 || *v > static_cast<double>(s_.size()) || *v != std::floor(*v)) return std::nullopt;
        return static_cast<std::size_t>(*v);
    }
    std::optional<bool> flag() {
        const std::optional<double> v = number();
        if (!v || (*v != 0 && *v != 1)) return std::nullopt;
        return *v == 1;
    }
    std::optional<std::string> bytes(std::size_t n) {
        if (n > s_.size()) return std::nullopt;
        std::string out(s_.substr(0, n));
        s_.remove_prefix(n);
        return out;
    }
    bool done() const { return s_.empty(); }

private:
    std::string_view s_;
};

std::optional<Word> decode_word(Reader& in) {
    Word w;
    for (double* v : {&w.x0, &w.y0, &w.x1, &w.y1, &w.size}) {
        const std::optional<double> n = in.number();
        if (!n) return std::nullopt;
        *v = *n;
    }
    const std::optional<bool> line_end = in.flag(), visible = in.flag();
    if (!line_end || !visible) return std::nullopt;
    w.line_end = *line_end;
    w.visible = *visible;
    const std::optional<std::size_t> text_size = in.count(), why_size = in.count(true);
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
    static const auto fn = reinterpret_cast<PithPageWordsFn>(text_module::symbol(PITH_PAGE_WORDS_SYMBOL));
    Collected c;
    if (!fn(pdf.data(), pdf.size(), index, password.c_str(), kRenderSeconds, &on_page, &on_word, &c))
        return std::nullopt;
    return std::move(c.page);
}

std::string encode(const Page& page) {
    std::string out = "pith-visible 1 ";
    put_number(out, page.width);
    put_number(out, page.height);
    out += std::to_string(page.words.size()) + "\n";
    for (const Word& w : page.words) {
        for (double v : {w.x0, w.y0, w.x1, w.y1, w.size}) put_number(out, v);
        out += w.line_end ? "1 " : "0 ";
        out += w.visible ? "1 " : "0 ";
        out += std::to_string(w.text.size()) + " " + std::to_string(w.hidden_why.size()) + "\n";
        out += w.text + w.hidden_why + "\n";
    }
    return out;
}

std::optional<Page> decode(std::string_view bytes) {
    Reader in(bytes);
    Page page;
    if (!in.literal("pith-visible 1 ")) return std::nullopt;
    const std::optional<double> width = in.number(), height = in.number();
    const std::optional<std::size_t> n = in.count(true);
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

constexpr rlim_t kChildSeconds = 20;              // CPU seconds poppler may spend on one page
constexpr rlim_t kChildMemory = rlim_t{2} << 30;  // bytes of address space, beyond what the child inherits

// In the child: loads pith-text.so, then limits the child's CPU time to `cpu_seconds` and its
// address space to what it inherited plus `memory` bytes (a backstop for poppler's own parsing,
// which pith's budget does not cover).
void limit_child(rlim_t cpu_seconds, rlim_t memory) {
    try {
        (void)text_module::symbol(PITH_PAGE_WORDS_SYMBOL);  // loaded now, while nothing limits it
    } catch (const Error&) {
        // page_words() reports it
    }
    struct rlimit cpu = {cpu_seconds, cpu_seconds + 1};
    ::setrlimit(RLIMIT_CPU, &cpu);
#ifndef PITH_ADDRESS_SANITIZER
    // The address space the child inherited (the parent's mappings: the file, pith's heap) plus
    // `memory` for poppler: a fixed total failed on a large parent for a reason unrelated to poppler.
    unsigned long long pages = 0;
    if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%llu", &pages) != 1) pages = 0;
        std::fclose(statm);
    }
    const rlim_t total = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + memory;
    struct rlimit as = {total, total};
    ::setrlimit(RLIMIT_AS, &as);
#endif
}

Reading read_here(std::string_view pdf, int index, const std::string& password) {
    try {
        return {page_words(pdf, index, password), false, {}};
    } catch (const Error& e) {
        return {std::nullopt, true, e.what()};
    }
}

}  // namespace

ChildReader::ChildReader(std::string_view pdf, int index, const std::string& password)
    : pdf_(pdf), index_(index), password_(password) {
    int fds[2];
    if (::pipe(fds) != 0) return;
    std::fflush(nullptr);
    const OtherCpus elsewhere;
    child_ = ::fork();
    elsewhere.give_to(child_);  // in both: whichever runs first
    if (child_ < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return;
    }
    if (child_ == 0) {
        ::close(fds[0]);
#if PITH_TEST_HOOKS
        if (std::getenv("PITH_TEST_PAGE_TEXT_CRASH")) std::abort();  // test hook: a PDF that crashes poppler
#endif
        limit_child(kChildSeconds, kChildMemory);
        Reading r = read_here(pdf_, index_, password_);  // 'W' words, 'N' no page, 'E' why not
        const std::string message = r.failed ? "E" + r.why : r.page ? "W" + encode(*r.page) : "N";
        ::_exit(write_all(fds[1], message) ? 0 : 1);
    }
    ::close(fds[1]);
    pipe_ = fds[0];
}

ChildReader::~ChildReader() {
    if (child_ > 0) {
        ::kill(child_, SIGKILL);
        while (::waitpid(child_, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    if (pipe_ >= 0) ::close(pipe_);
}

Reading ChildReader::collect() {
    if (child_ < 0) return read_here(pdf_, index_, password_);  // no child: in this process then
    std::string message;
    char buffer[65536];
    for (ssize_t n; (n = ::read(pipe_, buffer, sizeof buffer)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) break;
        message.append(buffer, static_cast<std::size_t>(n));
    }
    int status = 0;
    while (::waitpid(child_, &status, 0) < 0 && errno == EINTR) {
    }
    child_ = -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || message.empty())
        return {std::nullopt, true, "poppler crashed or ran out of time or memory"};
    if (message[0] == 'E') return {std::nullopt, true, message.substr(1)};
    if (message[0] == 'W') {
        auto page = decode(std::string_view(message).substr(1));
        if (!page) return {std::nullopt, true, "poppler's child sent words that do not decode"};
        return {std::move(page), false, {}};
    }
    return {};
}

}  // namespace pith::visible
