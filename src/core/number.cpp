// SPDX-License-Identifier: MIT
#include "core/number.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cctype>

namespace pith {

std::string PithNumber::full() const { return "pith:" + std::to_string(year) + ":" + body; }

std::string PithNumber::short_form(std::size_t length) const { return "pith:" + body.substr(0, length); }

PithNumber number_from_hash(const Sha256& canonical_hash, int year) {
    return PithNumber{year, base32(canonical_hash.data(), canonical_hash.size()).substr(0, kBodyLength)};
}

int year_of_timestamp(std::string_view timestamp) {
    if (timestamp.size() < 5 || timestamp[4] != '-' ||
        !std::all_of(timestamp.begin(), timestamp.begin() + 4, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        throw Error("submitted_at \"" + std::string(timestamp) + "\" does not start with a four-digit year (YYYY-...)", err::record_invalid);
    return std::stoi(std::string(timestamp.substr(0, 4)));
}

PithNumber parse_number(std::string_view input) {
    const std::string typed(input);
    auto fail = [&](const std::string& why) -> PithNumber {
        throw Error("not a Pith number: \"" + typed + "\": " + why +
                    " (expected pith:YEAR:BODY with a 26-character BODY of A-Z and 2-7, or pith:SHORT with 8, 12 or 16 of them)", err::number_invalid);
    };
    std::string text(input);
    text.erase(0, text.find_first_not_of(" \t\r\n"));
    text.erase(text.find_last_not_of(" \t\r\n") + 1);
    if (text.empty()) return fail("it is empty");
    if (text.rfind("http://", 0) == 0 || text.rfind("https://", 0) == 0) {
        auto slash = text.find_last_of('/');
        text = text.substr(slash + 1);
        if (auto dot = text.find('.'); dot != std::string::npos) text.erase(dot);  // BODY.json
    }
    PithNumber number;
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower.rfind("pith:", 0) == 0) {
        text = text.substr(5);
        auto colon = text.find(':');
        if (colon != std::string::npos) {
            std::string year = text.substr(0, colon);
            if (year.size() != 4 || !std::all_of(year.begin(), year.end(), [](unsigned char c) { return std::isdigit(c); }))
                return fail("the year \"" + year + "\" is not four digits");
            number.year = std::stoi(year);
            text = text.substr(colon + 1);
        }
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
        if (!is_base32_letter(c)) {
            std::string shown = std::isprint(static_cast<unsigned char>(text[i])) ? std::string(1, text[i]) : "\\x" + to_hex(reinterpret_cast<const unsigned char*>(&text[i]), 1);
            return fail("character " + std::to_string(i + 1) + " of the body, '" + shown + "', is not base32" +
                        (c == '0' || c == '1' || c == '8' || c == '9' ? " (base32 has no 0, 1, 8 or 9)" : ""));
        }
        text[i] = c;
    }
    bool is_short = std::find(std::begin(kShortLengths), std::end(kShortLengths), text.size()) != std::end(kShortLengths);
    if (text.size() != kBodyLength && !is_short)
        return fail("the body has " + std::to_string(text.size()) + " characters");
    if (number.year != 0 && text.size() != kBodyLength)
        return fail("a number with a year needs the full 26-character body, this one has " + std::to_string(text.size()));
    number.body = text;
    return number;
}

}  // namespace pith
