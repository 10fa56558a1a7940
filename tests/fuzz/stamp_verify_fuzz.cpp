// SPDX-License-Identifier: MIT
// libFuzzer target: the whole stamp-then-verify path on a (mutated) PDF, as `pith stamp` and
// `pith verify` run it: stamp the input with examples/record.json (damaged files allowed), then
// verify the output. Either may refuse the file, but only with a pith::Error (what the command
// line prints in one line); anything else escaping, a crash or a sanitizer report is a finding.
// Files go to $PITH_FUZZ_TMP (run_fuzz.py sets it), else /tmp.
#include "core/error.hpp"
#include "core/keys.hpp"
#include "core/record.hpp"
#include "stamp/stamp.hpp"
#include "verify/verify.hpp"

#include <podofo/podofo.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <optional>
#include <string>

namespace {

std::optional<pith::Record> record;
std::string input_path, output_path;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    PoDoFo::PdfError::EnableDebug(false);
    PoDoFo::PdfError::EnableLogging(false);
    record = pith::load_record(PITH_SOURCE_DIR "/examples/record.json");
    const char* tmp = std::getenv("PITH_FUZZ_TMP");
    const std::string dir = tmp ? tmp : "/tmp";
    input_path = dir + "/stamp-verify-in-" + std::to_string(getpid()) + ".pdf";
    output_path = dir + "/stamp-verify-out-" + std::to_string(getpid()) + ".pdf";
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::ofstream(input_path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    std::remove(output_path.c_str());
    const char* step = "stamp";
    try {
        pith::stamp::Options options;
        options.allow_damaged = true;
        options.check_title = false;  // poppler's reading of page 1 is fuzzed in verify's step, once per input
        pith::stamp::stamp_file(input_path, output_path, *record, options);
        step = "verify";
        pith::verify::Options verify_options;
        verify_options.allow_damaged = true;
        (void)pith::verify::verify(output_path, pith::Keyring{}, verify_options);
    } catch (const pith::Error&) {
        // a clear refusal: fine
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: not a pith::Error (the command line says \"internal error\"): %s\n", step, e.what());
        std::abort();
    } catch (const PoDoFo::PdfError& e) {
        std::fprintf(stderr, "%s: PoDoFo's error escaped: %s\n", step, PoDoFo::PdfError::ErrorName(e.GetError()));
        std::abort();
    }
    std::remove(input_path.c_str());
    std::remove(output_path.c_str());
    return 0;
}
