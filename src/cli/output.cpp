// SPDX-License-Identifier: MIT
#include "cli/output.hpp"

#include "core/error.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace pith::cli {

bool use_colour(std::FILE* stream) {
    const char* no_colour = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    return isatty(fileno(stream)) && !(no_colour && *no_colour) && !(term && std::strcmp(term, "dumb") == 0);
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    char hex[8];
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        const auto third = i + 2 < text.size() ? static_cast<unsigned char>(text[i + 2]) : 0;
        if (c < 0x20 || c == 0x7F) {
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
        } else if (c == 0xC2 && next >= 0x80 && next <= 0x9F) {  // C1 controls: U+0080..U+009F
            std::snprintf(hex, sizeof hex, "\\u%04x", next);
            i += 1;
        } else if (c == 0xE2 && ((next == 0x80 && third >= 0xAA && third <= 0xAE) || (next == 0x81 && third >= 0xA6 && third <= 0xA9))) {
            std::snprintf(hex, sizeof hex, "\\u%04x", 0x2000 + ((next & 0x3F) << 6) + (third & 0x3F));  // bidi embeddings, isolates
            i += 2;
        } else {
            out += static_cast<char>(c);
            continue;
        }
        out += hex;
    }
    return out;
}

void print_findings(const Findings& findings, std::FILE* out) {
    bool colour = use_colour(out);
    auto section = [&](const std::vector<Finding>& items, const char* mark, const char* ansi) {
        for (const auto& f : items)
            std::fprintf(out, "  %s%s%s %s  [%s]\n", colour ? ansi : "", mark, colour ? "\033[0m" : "",
                         printable(f.explanation).c_str(), f.code.c_str());
    };
    section(findings.success, "ok  ", "\033[32m");
    section(findings.informational, "info", "\033[33m");
    section(findings.failure, "FAIL", "\033[31;1m");
}

void print_field(const std::string& label, const std::string& value, std::FILE* out) {
    std::fprintf(out, "%-12s %s\n", printable(label + ":").c_str(), printable(value).c_str());
}

std::string error_line(const std::string& message, const std::string& code) {
    return "pith: " + printable(message) + "  [" + code + "]\n";
}

void print_error(const std::string& message, const std::string& code) {
    std::fputs(error_line(message, code).c_str(), stderr);
}

}  // namespace pith::cli
