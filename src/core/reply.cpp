// SPDX-License-Identifier: MIT
#include "core/reply.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pith::reply {

void put_number(std::string& out, double v, char end) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a%c", v, end);
    out += buf;
}

bool Reply::literal(std::string_view word) {
    if (s_.substr(0, word.size()) != word) return false;
    s_.remove_prefix(word.size());
    return true;
}

std::optional<double> Reply::number(char end) {
    const std::size_t at = s_.find(end);
    if (at == std::string_view::npos || at == 0 || at > 40) return std::nullopt;
    const std::string token(s_.substr(0, at));
    char* stop = nullptr;
    errno = 0;
    const double v = std::strtod(token.c_str(), &stop);
    if (stop != token.c_str() + token.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
    s_.remove_prefix(at + 1);
    return v;
}

std::optional<std::size_t> Reply::count(char end) {
    const std::optional<double> v = number(end);
    if (!v || *v < 0 || *v > static_cast<double>(s_.size()) || *v != std::floor(*v)) return std::nullopt;
    return static_cast<std::size_t>(*v);
}

std::optional<bool> Reply::flag(char end) {
    const std::optional<double> v = number(end);
    if (!v || (*v != 0 && *v != 1)) return std::nullopt;
    return *v == 1;
}

std::optional<std::string> Reply::bytes(std::size_t n) {
    if (n > s_.size()) return std::nullopt;
    std::string out(s_.substr(0, n));
    s_.remove_prefix(n);
    return out;
}

}  // namespace pith::reply
