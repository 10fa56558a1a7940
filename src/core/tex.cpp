#include "core/tex.hpp"

namespace pith {
namespace {

std::string wrapped_hex(const std::string& bytes, const std::string& indent) {
    std::string hex = to_hex(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    std::string out;
    for (std::size_t i = 0; i < hex.size(); i += 64) out += (i ? "\n" + indent : "") + hex.substr(i, 64);
    return out;
}

}  // namespace

std::string tex_snippet(const Record& r) {
    const std::string indent = "    ";
    std::string out = "% Pith number " + r.number.full() + " (made by `pith tex`; paste after \\usepackage{pith})\n";
    out += "\\pithnumber[\n";
    auto key = [&](const char* name, const std::string& value) { out += "  " + std::string(name) + "={" + value + "},\n"; };
    key("year", std::to_string(r.number.year));
    key("hash", to_hex(r.canonical_hash));
    if (r.receipt) {
        key("keyid", r.receipt->key_id);
        key("algorithm", r.receipt->algorithm);
        key("signature", r.receipt->signature_b64);
        if (!r.receipt->fingerprint.empty()) key("fingerprint", r.receipt->fingerprint);
        if (!r.receipt->signed_at.empty()) key("signedat", r.receipt->signed_at);
    }
    if (r.title && r.title_matches()) key("title", "\n" + indent + wrapped_hex(*r.title, indent));
    key("record", "\n" + indent + wrapped_hex(r.canonical_bytes, indent));
    out.erase(out.size() - 2);  // the last ",\n"
    out += "\n]{" + r.number.body + "}\n";
    return out;
}

}  // namespace pith
