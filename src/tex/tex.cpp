// SPDX-License-Identifier: MIT
#include "tex/tex.hpp"

namespace pith::tex {
namespace {

// Hex of the UTF-8 bytes, 64 digits a line, indented: pith.sty ignores the white space.
std::string hex_block(const std::string& bytes) {
    std::string hex = to_hex(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    std::string out;
    for (std::size_t i = 0; i < hex.size() || i == 0; i += 64) out += (i ? "\n    " : "    ") + hex.substr(i, 64);
    return out;
}

}  // namespace

std::string snippet(const Record& r) {
    const std::string number = r.number.full();
    std::string out = "% Pith number " + number + " -- printed by `pith tex`.\n"
                      "% Paste after \\usepackage{pith}; do not edit the hex.\n"
                      "\\pithnumber[\n";
    auto key = [&](const char* name, const std::string& value) { out += "  " + std::string(name) + "={" + value + "},\n"; };
    key("year", std::to_string(r.number.year));
    key("hash", to_hex(r.canonical_hash));
    if (r.receipt) {
        key("algorithm", r.receipt->algorithm);
        key("keyid", r.receipt->key_id);
        key("signature", r.receipt->signature_b64);
        key("fingerprint", r.receipt->fingerprint);
        key("signedat", r.receipt->signed_at);
    }
    if (r.title && r.title_matches()) key("title", "\n" + hex_block(*r.title));
    key("record", "\n" + hex_block(r.canonical_bytes));
    out += "]{" + number + "}\n";
    return out;
}

}  // namespace pith::tex
