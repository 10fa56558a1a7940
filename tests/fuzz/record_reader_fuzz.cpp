// SPDX-License-Identifier: MIT
// libFuzzer target: pith's JSON reader and record reader (src/core) on any bytes. What
// parse_json accepts has one canonical form: reading that form back gives it again. Whether it
// is CPython's form is checked outside (run_fuzz.py --oracle runs tests/oracle's
// json_canon_filter over the regression corpus and compares with CPython's json module).
// A record reader may refuse anything, but only with a pith::Error.
#include "core/error.hpp"
#include "core/json.hpp"
#include "core/record.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string canonical;
    try {
        canonical = pith::canonical_json(pith::parse_json(text, "fuzz"));
    } catch (const pith::Error&) {
        // refused: fine
    }
    if (!canonical.empty()) {
        std::string again;
        try {
            again = pith::canonical_json(pith::parse_json(canonical, "canonical"));
        } catch (const pith::Error& e) {
            std::fprintf(stderr, "pith refuses its own canonical form %s: %s\n", canonical.c_str(), e.what());
            std::abort();
        }
        if (again != canonical) {
            std::fprintf(stderr, "canonical form not stable:\n%s\n%s\n", canonical.c_str(), again.c_str());
            std::abort();
        }
    }
    try {
        const pith::Record record = pith::read_record(text, "fuzz");
        (void)record.consistent();
    } catch (const pith::Error&) {
        // refused: fine
    }
    return 0;
}
