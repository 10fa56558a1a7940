// SPDX-License-Identifier: MIT
#pragma once
// Hex digits to bytes: the one decoder for PDF hex strings, ASCIIHexDecode streams, the
// signature's /Contents and SHA-256 values in records.

#include <string>
#include <string_view>

namespace pith {

// The value of a hex digit (either case), or -1.
int hex_digit(char c);

// What decode_hex() does with a character that is not a hex digit.
enum class NonHex {
    Skip,       // skip it (content streams: the lexer already found the string's end)
    SkipSpace,  // skip PDF white space, reject anything else (ASCIIHexDecode)
    Reject,     // reject it (a signature's /Contents, a SHA-256)
};

// Hex digits to bytes, into `out` (its old contents replaced); an odd last digit counts as
// followed by 0, as PDF reads hex strings. False when a character is rejected (`out` then
// holds what came before it).
bool decode_hex(std::string_view hex, std::string& out, NonHex others);

}  // namespace pith
