// SPDX-License-Identifier: MIT
#include "core/unicode.hpp"

#include "core/crypto.hpp"

#include <unicode/locid.h>
#include <unicode/uscript.h>
#include <unicode/unistr.h>

namespace pith {

std::string unicode_lower(std::string_view utf8) {
    icu::UnicodeString text = icu::UnicodeString::fromUTF8(icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
    text.toLower(icu::Locale::getRoot());
    std::string out;
    text.toUTF8String(out);
    return out;
}

std::string title_hash(std::string_view title) { return to_hex(sha256(unicode_lower(title))); }

std::string shortened(std::string_view utf8, std::size_t max) {
    if (utf8.size() <= max) return std::string(utf8);
    std::size_t cut = max > 3 ? max - 3 : 0;
    while (cut > 0 && (static_cast<unsigned char>(utf8[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    return std::string(utf8.substr(0, cut)) + "...";
}

bool written_without_spaces(UScriptCode s) {
    return s == USCRIPT_HAN || s == USCRIPT_HIRAGANA || s == USCRIPT_KATAKANA || s == USCRIPT_THAI ||
           s == USCRIPT_LAO || s == USCRIPT_KHMER || s == USCRIPT_MYANMAR;
}

bool written_without_spaces(char32_t c) {
    UErrorCode status = U_ZERO_ERROR;
    const UScriptCode s = uscript_getScript(static_cast<UChar32>(c), &status);
    return U_SUCCESS(status) && written_without_spaces(s);
}

}  // namespace pith
