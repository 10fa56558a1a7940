// SPDX-License-Identifier: MIT
#include "verify/options_table.hpp"

namespace pith::verify {

using options::Type;
using options::Value;

// The order is `pith verify --help`'s.
const std::vector<Option>& option_table() {
    static const std::vector<Option> table = {
        {{"--keyring", nullptr, Type::Texts, "Keyring file with trusted registry keys (repeatable)"}, nullptr, nullptr},
        {{"--record", "record", Type::Text, "A record fetched from the registry: the embedded one must equal it"}, nullptr, nullptr},
        {{"--password", "password", Type::Text, "User password of encrypted PDFs"},
         [](Options& o, const Value& v) { o.password = v.text; }, nullptr},
        {{"--resolver", nullptr, Type::Text, "The resolver every pith link must go to (as given to pith stamp --resolver)"},
         [](Options& o, const Value& v) { o.resolver = v.text; }, [](const Options& o) { return o.resolver; }},
        {{"--allow-damaged", "allow_damaged", Type::Flag, "Read a damaged PDF instead of refusing it (exit 2)"},
         [](Options& o, const Value& v) { o.allow_damaged = v.flag; }, nullptr},
        {{"--trust", nullptr, Type::Texts, "PEM file of CA certificates trusted to certify publishers' signing keys (repeatable; "
                                           "default $PITH_TRUST, ~/.config/pith/trust.pem, /etc/pith/trust.pem)"}, nullptr, nullptr},
        {{"--require-signed-stamp", nullptr, Type::Flag, "Trust a stamp only when a publisher trusted here signed it (pith stamp --sign-cert)"},
         [](Options& o, const Value& v) { o.require_signed_stamp = v.flag; }, nullptr},
        {{"--online", nullptr, Type::Flag, "Also fetch the registry's record for the embedded number: it must know it and agree"}, nullptr, nullptr},
        {{"--json", nullptr, Type::Flag, "Print one line of JSON per file (JSON Lines): {file, state, number, success[], informational[], "
                                         "failure[], regions[]}"}, nullptr, nullptr},
        {{"-j,--jobs", nullptr, Type::Integer,
          "Files verified at a time, each in a process of its own (default 0: every CPU available)"},
         nullptr, nullptr},
        {{"--picture", nullptr, Type::Text, "Also draw what was checked (the title, the badge, links, later changes, unseen text, "
                                            "each outlined by outcome) over the page(s), with the verdict: FILE.png or FILE.html (one PDF only)"},
         nullptr, nullptr},
    };
    return table;
}

const Option& option_of_flag(const std::string& long_flag) { return options::of_flag(option_table(), long_flag); }

std::vector<options::Row> all_rows() { return options::rows_of(option_table(), {&options::registry_rows()}); }

}  // namespace pith::verify
