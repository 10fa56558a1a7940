// SPDX-License-Identifier: MIT
#include "core/option_table.hpp"

#include <algorithm>
#include <sstream>

namespace pith::options {

const char* to_string(Type type) {
    switch (type) {
        case Type::Flag: return "flag";
        case Type::Integer: return "integer";
        case Type::Number: return "number";
        case Type::Text: return "text";
        case Type::Point: return "point";
        case Type::Texts: return "texts";
    }
    return "?";
}

std::vector<std::string> choices_of(const char* choices) {
    std::vector<std::string> values;
    std::stringstream list(choices);
    for (std::string value; std::getline(list, value, '|');) values.push_back(value);
    return values;
}

bool is_one_of(const char* choices, const std::string& text) {
    const std::vector<std::string> values = choices_of(choices);
    return std::find(values.begin(), values.end(), text) != values.end();
}

std::string long_flag(const Row& row) {
    const std::string flags = row.flags;
    const std::size_t comma = flags.rfind(',');
    return comma == std::string::npos ? flags : flags.substr(comma + 1);
}

const Row* find(const std::vector<Row>& rows, const std::string& long_name) {
    for (const Row& row : rows)
        if (long_flag(row) == long_name) return &row;
    return nullptr;
}

const std::vector<Row>& registry_rows() {
    static const std::vector<Row> rows = {
        {"--registry", nullptr, Type::Text, "Registry base URL (default: $PITH_REGISTRY, else https://pith.science)"},
        {"--offline", nullptr, Type::Flag, "Use only the local cache; never the network"},
        {"--refresh", nullptr, Type::Flag, "Ask the registry even when the cache holds the record"},
        {"--cacert", nullptr, Type::Text, "CA bundle (PEM) to trust besides the system's, for a private registry"},
        {"--cache-dir", nullptr, Type::Text, "Cache directory (default: $XDG_CACHE_HOME/pith or ~/.cache/pith)"},
        {"--timeout", nullptr, Type::Integer, "Seconds for a whole answer from the registry"},
        {"--connect-timeout", nullptr, Type::Integer, "Seconds to connect"},
        {"--retries", nullptr, Type::Integer, "Extra attempts after 429, 5xx or a dropped connection"},
    };
    return rows;
}

const std::vector<Row>& signing_rows() {
    static const std::vector<Row> rows = {
        {"--sign-cert", nullptr, Type::Text, "Sign the stamp (PAdES): the signer's PEM certificate (doc/signing.md)"},
        {"--sign-key", nullptr, Type::Text, "The signer's PEM private key (mode 600; refused if group or others may read it)"},
        {"--sign-chain", nullptr, Type::Text, "PEM intermediate certificates to embed with the signer's"},
        {"--sign-p12", nullptr, Type::Text, "A PKCS#12 file with key, certificate and chain instead of --sign-cert/--sign-key"},
        {"--sign-pass-file", nullptr, Type::Text, "Read the key's passphrase from the first line of this file"},
        {"--sign-pass-env", nullptr, Type::Text, "Read the key's passphrase from this environment variable"},
        {"--certify", nullptr, Type::Flag, "Make the signature a certification (DocMDP P=2); only for PDFs not yet signed"},
    };
    return rows;
}

Json to_json(const std::vector<Row>& rows) {
    Json out = Json::array();
    for (const Row& row : rows)
        out.push_back({{"flags", row.flags}, {"long", long_flag(row)}, {"key", row.key ? Json(row.key) : Json(nullptr)},
                       {"type", to_string(row.type)}, {"help", row.help},
                       {"choices", row.choices ? Json(row.choices) : Json(nullptr)}});
    return out;
}

}  // namespace pith::options
