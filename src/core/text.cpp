#include "core/text.hpp"

#include "core/crypto.hpp"

#include <unicode/locid.h>
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

}  // namespace pith
