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

struct Link {
    int page = 0;  // 1-based
    double rect[4] = {0, 0, 0, 0};
    std::string uri;
    std::string action;       // the action's /S: "URI" for every honest pith link
    bool chained = false;     // the action has /Next: more actions run after it
    bool pith_badge = false;  // the link `pith stamp` drew (/NM pith-badge)
};

struct RevisionInfo {
    std::uint64_t end = 0;   // byte offset just past its %%EOF
    std::size_t objects = 0; // objects it defines or replaces
    bool pith = false;       // the update pith stamp wrote
};

// Everything pith-related that a PDF carries, without judging it.
struct Embedded {
    std::string file;
    bool has_xmp = false;
    std::string xmp_error;          // the packet exists but is not well-formed
    xmp::Packet xmp;
    std::map<std::string, std::string> info;  // Info entries pith reads: PithNumber, Title
    std::vector<Link> links;        // links to a Pith resolver (/pith/BODY), on page 1 and the pages pith's update touched
    std::vector<RevisionInfo> revisions;
    std::optional<std::size_t> pith_revision;  // index into revisions
    int badge_page = 1;             // the badge's page: pith stamp's, else the first with a resolver link (1 when none)
    std::vector<std::string> defects;  // damage the reader worked around (pdf::File::defects())

    bool any_pith_data() const { return !xmp.pith.empty() || info.count("PithNumber"); }
    Json to_json() const;
};

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

// Both throw pith::Error when the file cannot be read as a PDF at all, or is damaged
// (pdf::File::defects()) and damage is not allowed.
Embedded extract(const std::string& path, const std::string& password = "", bool allow_damaged = false);
// The same, of a file already open (damage not judged).
Embedded extract(pdf::File& file);
// The number's body a resolver link names: https://host/pith/BODY[.json|/...], upper-cased;
// "" if the link names none.
std::string body_of_link(const std::string& uri);
// `then`, when given, runs with the file still open once the report is made (pith verify
// --picture draws it then, of the same report).
Report verify(const std::string& path, const Keyring& keyring, const Options& options,
              const std::function<void(pdf::File&, Report&)>& then = nullptr);

}  // namespace pith::verify
