// SPDX-License-Identifier: MIT
#pragma once
// pith extract and pith verify: what a PDF carries, and whether to believe it.
#include "core/error.hpp"
#include "core/findings.hpp"
#include "core/keys.hpp"
#include "core/number.hpp"
#include "core/record.hpp"
#include "sign/inspect.hpp"
#include "xmp/xmp.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pith::pdf {
class File;
}

namespace pith::verify {

struct Options {
    std::string password;
    std::optional<Record> expected;  // --record: the embedded record must equal this one
    bool allow_damaged = false;      // read a damaged PDF (pdf::File::defects()) instead of refusing it
    std::string resolver = kDefaultResolver;  // every pith link must go here
    // Render the pages for the title and badge checks. Off for a stamper checking its own fresh
    // output (pith batch): those checks are then not made, so the file is at most unverified.
    bool render = true;
    // PDF signatures: the reader's trust anchors for publishers' certificates (--trust), and
    // whether a stamp must be signed by one of them to be trusted (--require-signed-stamp).
    sign::Anchors anchors;
    bool require_signed_stamp = false;
};

enum class State { Trusted, Unverified, Invalid, Absent };
const char* to_string(State state);

struct Report {
    std::string file;
    State state = State::Absent;
    std::string number;
    Findings findings;
    Json to_json() const;  // {file, state, number, success[], informational[], failure[], regions[]}
};
// The report of a file that could not be read: the same keys, state "unreadable", no findings,
// and the error and its code (`pith verify --json`; a `pith batch --verify` line takes part of it).
Json unreadable_to_json(const std::string& file, const Error& error);

// `then`, when given, runs with the file still open once the report is made (pith verify
// --picture draws it then, of the same report).
Report verify(const std::string& path, const Keyring& keyring, const Options& options,
              const std::function<void(pdf::File&, Report&)>& then = nullptr);

// pith verify --online: adds what the registry said of the file's number (finding::registry_known,
// _unknown, _refused or _unreachable) to its report. A number the registry denies makes the file
// invalid; an answer that could not be had or was refused leaves the check unmade, so the file is
// at most unverified.
void add_registry_answer(Report& report, Code code, const std::string& why);

}  // namespace pith::verify
