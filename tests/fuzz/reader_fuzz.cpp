// SPDX-License-Identifier: MIT
// libFuzzer target: pith's PDF reader on whole files, as `pith verify` reads them: open (cross-
// reference data, encryption), revisions, page 1, its damage check, its text and its annotations'.
// Built and run by tests/fuzz.cmake with clang, AddressSanitizer and UBSan, against Debian's
// libpodofo (whose own small leaks on some errors are not pith's: leak detection is off).
#include "core/error.hpp"
#include "pdf/file.hpp"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    PoDoFo::PdfError::EnableDebug(false);
    PoDoFo::PdfError::EnableLogging(false);
    try {
        pith::pdf::File file = pith::pdf::File::from_bytes(std::string(reinterpret_cast<const char*>(data), size), "fuzz.pdf");
        (void)file.revisions();
        if (file.page_count() > 0) {
            const pith::pdf::Page page = file.page(0);
            file.check_page(page);
        }
    } catch (const pith::Error&) {
        // what pith reports as an unreadable file
    } catch (const PoDoFo::PdfError&) {
        // likewise, from PoDoFo
    }
    return 0;
}
