// SPDX-License-Identifier: MIT
#pragma once
// Unicode text rules shared by records and verification.
#include <unicode/uscript.h>

#include <string>
#include <string_view>

namespace pith {

// Python's str.lower(): full Unicode case mapping (ICU root locale), UTF-8 in and out.
std::string unicode_lower(std::string_view utf8);
// At most `max` bytes of `utf8`, cut at a character boundary, "..." added where cut: for messages.
std::string shortened(std::string_view utf8, std::size_t max);

// Scripts written without spaces between words: Han, kana, Thai, Lao, Khmer, Myanmar (Hangul is
// spaced). A gap a PDF's text layer shows between two such characters parts no words.
bool written_without_spaces(UScriptCode script);
bool written_without_spaces(char32_t c);  // c's script

// SHA-256 hex of the lower-cased title: the registry's title_canon_sha256.
std::string title_hash(std::string_view title);

}  // namespace pith
