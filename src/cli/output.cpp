// SPDX-License-Identifier: MIT
#include "cli/output.hpp"

#include "core/error.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace pith::cli {

bool use_colour(std::FILE* stream) {
    const char* no_colour = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    return isatty(fileno(stream)) && !(no_colour && *no_colour) && !(term && std::strcmp(term, "dumb") == 0);
}

void print_findings(const Findings& findings, std::FILE* out) {
    bool colour = use_colour(out);
    auto section = [&](const std::vector<Finding>& items, const char* mark, const char* ansi) {
        for (const auto& f : items)
            std::fprintf(out, "  %s%s%s %s  [%s]\n", colour ? ansi : "", mark, colour ? "\033[0m" : "",
                         f.explanation.c_str(), f.code.c_str());
    };
    section(findings.success, "ok  ", "\033[32m");
    section(findings.informational, "info", "\033[33m");
    section(findings.failure, "FAIL", "\033[31;1m");
}

void print_field(const std::string& label, const std::string& value, std::FILE* out) {
    std::fprintf(out, "%-12s %s\n", (label + ":").c_str(), value.c_str());
}

void print_error(const std::string& message, const std::string& code) {
    std::fprintf(stderr, "pith: %s  [%s]\n", message.c_str(), code.c_str());
}

}  // namespace pith::cli
