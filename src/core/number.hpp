// SPDX-License-Identifier: MIT
#pragma once
// Pith numbers: pith:<YEAR>:<BODY>, BODY = first 26 base32 characters of the canonical hash.
#include "core/crypto.hpp"

#include <string>
#include <string_view>

namespace pith {

constexpr std::size_t kBodyLength = 26;
constexpr std::size_t kShortLengths[] = {8, 12, 16};
inline const std::string kDefaultResolver = "https://pith.science/pith/";

struct PithNumber {
    int year = 0;      // 0 when the form typed carried no year
    std::string body;  // 26 characters, or 8/12/16 for a short alias

    bool is_full() const { return body.size() == kBodyLength && year != 0; }
    std::string full() const;                             // pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3
    std::string short_form(std::size_t length = 8) const;  // pith:YRUNQITD
    bool operator==(const PithNumber& o) const { return year == o.year && body == o.body; }
};

// A letter of a number's body: A-Z and 2-7 (a-z too where case is ignored).
inline bool is_base32_letter(char c, bool lower_too = false) {
    return (c >= 'A' && c <= 'Z') || (c >= '2' && c <= '7') || (lower_too && c >= 'a' && c <= 'z');
}

PithNumber number_from_hash(const Sha256& canonical_hash, int year);

// Accepts what people type: pith:2024:BODY, BODY (26 characters), pith:SHORT
// (8, 12 or 16 characters), a resolver URL ending in /BODY, any letter case.
// Throws pith::Error saying precisely what is wrong.
PithNumber parse_number(std::string_view text);

// The year of an RFC 3339 timestamp such as "2024-07-19T19:49:05Z".
int year_of_timestamp(std::string_view timestamp);

}  // namespace pith
