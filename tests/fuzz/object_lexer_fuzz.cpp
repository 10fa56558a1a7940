// libFuzzer target: pith::pdf::Lexer (object syntax, with its fast path for arrays of numbers)
// against PoDoFo's own tokenizer: the same value, or both refuse. Built and run by
// tests/fuzz.cmake with clang, AddressSanitizer and UBSan, against Debian's libpodofo.
#include "pdf/syntax.hpp"
#include "../unit/pdf_support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace PoDoFo;

namespace {

// PoDoFo's tokenizer over its own istream device, telling where its reading stopped.
class ReferenceTokenizer : public PdfTokenizer {
public:
    using PdfTokenizer::PdfTokenizer;
    std::streamoff tell() { return m_device.Device()->Tell(); }
};

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
        (!pith_refused && (!pdftest::same_value(pith_value, podofo_value) || (podofo_end >= 0 && pith_end != static_cast<std::uint64_t>(podofo_end))))) {
        std::fprintf(stderr, "pith and PoDoFo disagree (refused: %d, %d; end: %llu, %lld)\n", pith_refused, podofo_refused,
                     static_cast<unsigned long long>(pith_end), static_cast<long long>(podofo_end));
        std::abort();
    }
    return 0;
}
