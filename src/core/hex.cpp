// SPDX-License-Identifier: MIT
#include "core/hex.hpp"

namespace pith {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

namespace {

bool is_pdf_space(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0';
}

}  // namespace

bool decode_hex(std::string_view hex, std::string& out, NonHex others) {
    out.clear();
    out.reserve(hex.size() / 2);
    int half = -1;
    for (char c : hex) {
        const int v = hex_digit(c);
        if (v < 0) {
            if (others == NonHex::Skip || (others == NonHex::SkipSpace && is_pdf_space(c))) continue;
            return false;
        }
        if (half < 0) {
            half = v;
        } else {
            out += static_cast<char>(half * 16 + v);
            half = -1;
        }
    }
    if (half >= 0) out += static_cast<char>(half * 16);
    return true;
}

}  // namespace pith
