// SPDX-License-Identifier: MIT
#include "pdf/budget.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>

namespace pith::pdf {

namespace {

thread_local Budget* active_budget = nullptr;

std::optional<Limits>& current_limits() {
    static std::optional<Limits> limits;
    return limits;
}

// "123", "64K", "256M", "2G": a count or a size.
std::size_t parse_amount(const std::string& key, const std::string& text) {
    std::size_t used = 0;
    unsigned long long n = 0;
    try {
        if (!text.empty() && text[0] >= '0' && text[0] <= '9') n = std::stoull(text, &used);  // stoull takes "-1"
    } catch (const std::exception&) {
        used = 0;
    }
    int shift = 0;
    if (used + 1 == text.size()) shift = text[used] == 'K' ? 10 : text[used] == 'M' ? 20 : text[used] == 'G' ? 30 : -1;
    if (used == 0 || shift < 0 || used + (shift ? 1 : 0) != text.size() || n == 0 || n > (std::numeric_limits<std::size_t>::max() >> shift))
        throw Error("limits: " + key + "=" + text + " is not a positive number (with K, M or G for sizes)", err::options_invalid);
    return static_cast<std::size_t>(n) << shift;
}

}  // namespace

Limits Limits::parse(const std::string& spec) {
    Limits l;
    std::size_t at = 0;
    while (at < spec.size()) {
        std::size_t comma = spec.find(',', at);
        if (comma == std::string::npos) comma = spec.size();
        const std::string item = spec.substr(at, comma - at);
        at = comma + 1;
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos) throw Error("limits: \"" + item + "\" is not KEY=VALUE (doc/limits.md)", err::options_invalid);
        const std::string key = item.substr(0, eq);
        const std::size_t v = parse_amount(key, item.substr(eq + 1));
        if (key == "decoded") l.decoded = v;
        else if (key == "stream") l.stream = v;
        else if (key == "values") l.values = v;
        else if (key == "revisions") l.revisions = v;
        else if (key == "forms") l.forms = v;
        else if (key == "depth") {
            // Parsing recurses once per level: deeper than this would risk the stack.
            if (v > 4096) throw Error("limits: depth=" + item.substr(eq + 1) + " is more than 4096", err::options_invalid);
            l.depth = static_cast<int>(v);
        } else {
            throw Error("limits: unknown key \"" + key + "\" (decoded, stream, values, depth, revisions, forms)", err::options_invalid);
        }
    }
    return l;
}

const Limits& Limits::current() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (current_limits()) return;
        const char* env = std::getenv("PITH_LIMITS");
        current_limits() = env && *env ? parse(env) : Limits{};
    });
    return *current_limits();
}

void Limits::set_current(const Limits& limits) {
    current_limits() = limits;
    current();  // reading PITH_LIMITS is done: it must not replace these
}

std::string Limits::describe() const {
    return "decoded=" + std::to_string(decoded >> 20) + "M,stream=" + std::to_string(stream >> 20) + "M,values=" +
           std::to_string(values) + ",depth=" + std::to_string(depth) + ",revisions=" + std::to_string(revisions) +
           ",forms=" + std::to_string(forms);
}

Budget::Scope::Scope(Budget& budget) : outer_(active_budget) { active_budget = &budget; }
Budget::Scope::~Scope() { active_budget = outer_; }
Budget* Budget::active() { return active_budget; }

void Budget::overrun(const std::string& what, const char* key) {
    if (!spent_) {
        spent_ = true;
        why_ = what + " (limits: doc/limits.md; raise with --limits " + key + "=... or PITH_LIMITS)";
    }
    throw TooLarge(why_);
}

std::string podofo_words(const PoDoFo::PdfError& e) {
    const char* name = PoDoFo::PdfError::ErrorName(e.GetError());
    std::string words;
    for (const char* c = name ? std::strchr(name, '_') : nullptr; c && *++c;) {
        if (std::isupper(static_cast<unsigned char>(*c)) && !words.empty()) words += ' ';
        words += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
    }
    return words.empty() ? "error " + std::to_string(e.GetError()) : words;
}

}  // namespace pith::pdf
