// SPDX-License-Identifier: MIT
// libFuzzer target: pith::pdf::Lexer (object syntax, with its fast path for arrays of numbers)
// against PoDoFo's own tokenizer: the same value, or both refuse. Built and run by
// tests/fuzz.cmake with clang, AddressSanitizer and UBSan, against Debian's libpodofo.
#include "pdf/syntax.hpp"
#include "../unit/pdf_support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace PoDoFo;

namespace {

// PoDoFo's tokenizer over its own istream device, telling where its reading stopped.
class ReferenceTokenizer : public PdfTokenizer {
public:
    using PdfTokenizer::PdfTokenizer;
    std::streamoff tell() { return m_device.Device()->Tell(); }
};

// PoDoFo 0.9.8 reads some literal strings otherwise than PDF 32000-1 7.3.4.2, and pith reads them
// as the standard (and qpdf) do (Lexer::read_literal_string): an unknown escape "\q" (PoDoFo
// drops the "q" too), a backslash before CR or CRLF (PoDoFo keeps the LF), an end of line CR or
// CRLF (PoDoFo keeps it as written; it is one LF). Where the input holds any of these, string
// values are compared only for their type (tests/pdf/info_roundtrip.py checks pith's values
// against qpdf's), everything else (structure, numbers, names, ends) still against PoDoFo.
bool podofo_strings_differ(const std::vector<char>& bytes) {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (bytes[i] == '\r') return true;
        if (bytes[i] == '\\' && i + 1 < bytes.size()) {
            const char c = bytes[++i];
            if (!std::strchr("nrtbf()\\01234567\n", c) || c == '\0') return true;
        }
    }
    return false;
}

bool same(const PdfVariant& a, const PdfVariant& b, bool strings) {
    if (a.GetDataType() != b.GetDataType()) return false;
    if (!strings && a.IsString()) return true;
    if (a.IsArray()) {
        const PdfArray &x = a.GetArray(), &y = b.GetArray();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!same(x[i], y[i], strings)) return false;
        return true;
    }
    if (a.IsDictionary()) {
        const auto &x = a.GetDictionary().GetKeys(), &y = b.GetDictionary().GetKeys();
        if (x.size() != y.size()) return false;
        for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
            if (i->first.GetName() != j->first.GetName() || !same(*i->second, *j->second, strings)) return false;
        return true;
    }
    return pdftest::same_value(a, b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // PoDoFo's recursion guard leaks a level each time its limit (256) is hit, so that its later
    // answers would depend on earlier inputs: stay below it.
    if (std::count(data, data + size, '[') + std::count(data, data + size, '<') > 200) return 0;
    PdfError::EnableDebug(false);
    PdfError::EnableLogging(false);
    // A copy of exactly `size` bytes, so that reading one byte past the end is an error ASan sees.
    const std::vector<char> bytes(data, data + size);
    PdfVariant pith_value, podofo_value;
    bool pith_refused = false, podofo_refused = false;
    std::uint64_t pith_end = 0;
    std::streamoff podofo_end = 0;
    try {
        pith::pdf::Lexer lexer(bytes.data(), bytes.size());
        lexer.read(pith_value);
        pith_end = lexer.tell();
    } catch (const PdfError&) {
        pith_refused = true;
    }
    try {
        ReferenceTokenizer tokenizer(bytes.data(), static_cast<long>(bytes.size()));
        tokenizer.GetNextVariant(podofo_value, nullptr);
        podofo_end = tokenizer.tell();  // -1 once a read met the end (pith's fast paths say where they stopped)
    } catch (const PdfError&) {
        podofo_refused = true;
    }
    if (pith_refused != podofo_refused ||
        (!pith_refused && (!same(pith_value, podofo_value, !podofo_strings_differ(bytes)) || (podofo_end >= 0 && pith_end != static_cast<std::uint64_t>(podofo_end))))) {
        std::fprintf(stderr, "pith and PoDoFo disagree (refused: %d, %d; end: %llu, %lld)\n", pith_refused, podofo_refused,
                     static_cast<unsigned long long>(pith_end), static_cast<long long>(podofo_end));
        std::abort();
    }
    return 0;
}
