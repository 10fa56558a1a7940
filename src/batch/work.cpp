// SPDX-License-Identifier: MIT
// pith batch: the work of one file, run in a worker process; every outcome is a result line.
#include "batch/internal.hpp"

#include "core/crypto.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/record.hpp"
#include "pdf/budget.hpp"
#include "verify/picture.hpp"
#include "verify/verify.hpp"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>

namespace pith::batch {

namespace {

std::string hash_file(const std::string& path, std::uint64_t* bytes) {
    std::string data = read_file_or_stdin(path, std::size_t(64) << 30);
    if (bytes) *bytes = data.size();
    return to_hex(sha256(data));
}

// A line's record from the registry: prefetched, so workers read the cache only (checked again).
Record registry_record(const Entry& e, const Options& opt) {
    registry::Options o = opt.registry;
    o.offline = true;
    o.use_cache = true;
    return registry::fetch(registry::parse_query(*e.record_query), o).record;
}

// The record a line names (registry, inline or a file), or none; throws pith::Error.
std::optional<Record> record_of(const Entry& e, const Options& opt) {
    if (e.record_query) return registry_record(e, opt);
    if (e.record_inline) return read_record(canonical_json(*e.record_inline), "record of line " + std::to_string(e.line));
    if (e.record_path) return load_record(*e.record_path);
    return std::nullopt;
}

// The batch's check of an output: pith verify's verdict on it. Its title check renders the page
// and reads the title from pixels, as costly as the stamp itself: it is made where the stamp did
// not make it (no_title_check); elsewhere the stamp has just made it on the same page 1, and the
// check reads the file only (render off: at most `unverified`).
struct Check {
    verify::Report rep;
    std::string thumbnail;  // --gallery: DIR/thumbs/LINE.png, relative to DIR ("" when none was drawn)
};

// --gallery: the thumbnail of page 1 with the report's regions, drawn here in the worker while the
// file is open; `name` gets its path relative to the gallery. A page poppler cannot draw has none.
std::function<void(pdf::File&, verify::Report&)> thumbnail_to(const Options& opt, const Entry& e, std::string& name) {
    if (opt.gallery.empty()) return nullptr;
    return [&opt, &e, &name](pdf::File& file, verify::Report& report) {
        try {  // a picture never changes a line's verdict: without it, the card says there is none
            const std::string png = verify::picture::thumbnail(file, e.options.password, report);
            if (png.empty()) return;
            write_file_atomically(opt.gallery + "/thumbs/" + std::to_string(e.line) + ".png", {png});
            name = "thumbs/" + std::to_string(e.line) + ".png";
        } catch (const Error&) {
        }
    };
}

Check check_output(const Entry& e, const Keyring& keyring, const Options& opt) {
    verify::Options vo;
    vo.password = e.options.password;
    vo.allow_damaged = e.options.allow_damaged;
    vo.render = !e.options.check_title;
    Check c;
    c.rep = pdf::within_budget(e.output, [&] { return verify::verify(e.output, keyring, vo, thumbnail_to(opt, e, c.thumbnail)); });
    return c;
}

bool title_failure(const Finding& f) { return family::pith_title.holds(f.code); }

// Why `c` is not the output this line asked for; empty when it is. A stamp made with
// no_title_check may fail the title check, and only that: the line asked for it.
std::string check_problem(const Entry& e, const Check& c, const std::string& number) {
    const verify::Report& rep = c.rep;
    const bool title_only = !e.options.check_title && std::all_of(rep.findings.failure.begin(), rep.findings.failure.end(), title_failure);
    if (rep.state != verify::State::Trusted && rep.state != verify::State::Unverified && !(rep.state == verify::State::Invalid && title_only))
        return std::string("state ") + verify::to_string(rep.state) +
               (rep.findings.failure.empty() ? "" : ": " + rep.findings.failure.front().explanation);
    if (rep.number != number) return "it carries " + (rep.number.empty() ? std::string("no number") : rep.number) + ", not " + number;
    return {};
}

// The verdict a stamped or skipped line carries: the check's state, its failure codes, and, for a
// stamp whose title the stamp did not check, a warning saying what pith verify makes of it.
void add_verdict(Json& r, const Entry& e, const Check& c) {
    r["state"] = verify::to_string(c.rep.state);
    if (!c.thumbnail.empty()) r["thumbnail"] = c.thumbnail;
    std::vector<std::string> failures;
    for (const auto& f : c.rep.findings.failure) failures.push_back(f.code.c_str());
    r["failures"] = failures;
    if (e.options.check_title) return;
    std::string w = std::string("title not checked before stamping (no_title_check): pith verify says ") + verify::to_string(c.rep.state);
    if (!c.rep.findings.failure.empty()) w += std::string(" (") + c.rep.findings.failure.front().code.c_str() + ": " + c.rep.findings.failure.front().explanation + ")";
    if (!r.contains("warnings")) r["warnings"] = Json::array();
    r["warnings"].push_back(w);
}

// --no-check: no verdict, and a line that skipped the title check too says so.
void unchecked_verdict(Json& r, const Entry& e) {
    r["state"] = nullptr;
    if (e.options.check_title) return;
    if (!r.contains("warnings")) r["warnings"] = Json::array();
    r["warnings"].push_back("title not checked before stamping (no_title_check) nor the output after (--no-check): "
                            "pith verify says invalid if page 1 does not show the record's title");
}

// A rerun: an output that exists, passes the check and carries the number is skipped ("skipped"
// result, with the same verdict a stamp gets); otherwise `note` says why it is stamped again.
std::optional<Json> already_done(const Entry& e, const Keyring& keyring, const Options& opt, const std::string& number, std::string& note) {
    if (opt.redo || !file_exists(e.output)) return std::nullopt;
    try {
        const Check c = check_output(e, keyring, opt);
        auto listed = [&](const std::vector<Finding>& section, Code code) {
            return std::any_of(section.begin(), section.end(), [&](const Finding& x) { return x.code == code; });
        };
        // With a signing key, an unsigned output is stamped (and signed) again.
        bool signed_as_asked = !opt.signer || listed(c.rep.findings.success, finding::stamp_signed) ||
                               listed(c.rep.findings.informational, finding::stamp_signer_unknown);
        if (check_problem(e, c, number).empty() && signed_as_asked) {
            std::uint64_t bytes = 0;
            std::string digest = hash_file(e.output, &bytes);
            Json r = {{"status", "skipped"}, {"number", number}, {"sha256", digest}, {"bytes", bytes}};
            add_verdict(r, e, c);
            return r;
        }
        note = "the existing output was " + std::string(verify::to_string(c.rep.state)) +
               (c.rep.number.empty() ? "" : " with " + c.rep.number) + "; stamped again";
    } catch (const Error& x) {
        note = std::string("the existing output could not be read (") + x.what() + "); stamped again";
    }
    return std::nullopt;
}

// A stamped line's part of `pith stamp --json` (stamp::Summary::to_json, doc/batch.md): number,
// warnings (with `note`), and latex_badge_kept and replaced_previous_stamp when true; the badge's
// page, spot and boxed as badge_page, badge_spot and badge_boxed when one was drawn.
Json stamped(const Entry& e, const stamp::Summary& s, const std::string& digest, std::uint64_t bytes, const std::string& note) {
    const Json full = s.to_json(e.input, e.output);
    Json r = {{"status", "stamped"}, {"number", full["number"]}, {"sha256", digest}, {"bytes", bytes}};
    if (const Json& badge = full["badge"]; !badge.is_null()) {
        r["badge_page"] = badge["page"];
        r["badge_spot"] = badge["spot"];
        r["badge_boxed"] = badge["boxed"];
    }
    for (const char* key : {"latex_badge_kept", "replaced_previous_stamp"})
        if (full[key] == true) r[key] = true;
    Json warnings = full["warnings"];
    if (!note.empty()) warnings.push_back(note);
    if (!warnings.empty()) r["warnings"] = warnings;
    return r;
}

// A stamped output that does not pass the check is removed (unless it is the input itself).
Json unverifiable(const Entry& e, const std::string& problem) {
    if (e.output != e.input) ::unlink(e.output.c_str());
    return failure(err::output_unverifiable,
                   "stamped, but the output does not verify (" + problem + ")" + (e.output != e.input ? "; output removed" : ""));
}

// Every `stamped` output passes the check (and so is skipped by a rerun); one that does not is removed.
Json checked_result(const Entry& e, const Keyring& keyring, const Options& opt, const stamp::Summary& s, const std::string& number,
                    const std::string& note) {
    std::optional<Check> checked;
    try {
        if (opt.check_outputs) checked = check_output(e, keyring, opt);
    } catch (const Error& x) {
        return unverifiable(e, x.what());
    }
    if (std::string problem = checked ? check_problem(e, *checked, number) : ""; !problem.empty()) return unverifiable(e, problem);
    try {
        std::uint64_t bytes = 0;
        std::string digest = hash_file(e.output, &bytes);
        Json r = stamped(e, s, digest, bytes, note);
        if (checked) add_verdict(r, e, *checked);
        else unchecked_verdict(r, e);
        return r;
    } catch (const Error& x) {
        return failure(err::output_unverifiable, x.what());
    }
}

const char* verify_error_code(verify::State state) {
    switch (state) {
        case verify::State::Invalid: return err::verify_invalid;
        case verify::State::Unverified: return err::verify_unverified;
        case verify::State::Absent: return err::verify_absent;
        case verify::State::Trusted: break;
    }
    return err::internal_error;  // a trusted file is ok: no code
}

}  // namespace

Json failure(const std::string& code, const std::string& message) {
    return {{"status", "failed"}, {"error_code", code}, {"error", message}};
}

Json stamp_one(const Entry& e, const Keyring& keyring, const Options& opt) {
    std::optional<Record> record;
    try {
        record = record_of(e, opt);
    } catch (const Error& x) {
        return failure(x.code(), x.what());
    }
    const std::string number = record->number.full();
    std::string note;
    if (auto skipped = already_done(e, keyring, opt, number, note)) return *skipped;
    if (!record->consistent() && !e.options.allow_unverified)
        return failure(err::record_inconsistent, record->source + ": the record's stated hash or number does not recompute; "
                                                 "refusing to stamp (\"allow_unverified\": true stamps anyway)");
    if (auto slash = e.output.find_last_of('/'); slash != std::string::npos && slash > 0) {
        std::error_code ec;
        std::filesystem::create_directories(e.output.substr(0, slash), ec);  // failures show when writing
    }
    stamp::Summary s;
    try {
        stamp::Options so = e.options;
        so.signer = opt.signer;
        so.certify = opt.certify;
        s = pdf::within_budget(e.input, [&] { return stamp::stamp_file(e.input, e.output, *record, so); }, false);
    } catch (const Error& x) {
        return failure(x.code(), x.what());
    }
#if PITH_TEST_HOOKS
    // Test hook (doc/test-hooks.md): the output of an input whose path contains the text is cut
    // short after stamping, so the check of every output is seen to catch it (output.unverifiable).
    if (const char* v = std::getenv("PITH_BATCH_TEST_SPOIL"); v && *v && e.input.find(v) != std::string::npos)
        if (::truncate(e.output.c_str(), 64) != 0)
            return failure(err::internal_error, "PITH_BATCH_TEST_SPOIL: cannot truncate");
#endif
    return checked_result(e, keyring, opt, s, number, note);
}

namespace {

// A --verify line's part of `pith verify --json` (verify::Report::to_json, doc/batch.md): file,
// state (as status), and number and the failures' codes, or the error of a file not read.
Json verify_line(const Json& report) {
    Json r = {{"status", report["state"]}, {"file", report["file"]}};
    if (report.contains("error")) {
        r["error_code"] = report["error_code"];
        r["error"] = report["error"];
        return r;
    }
    r["number"] = report["number"];
    r["failures"] = Json::array();
    for (const Json& f : report["failure"]) r["failures"].push_back(f["code"]);
    return r;
}

// What a line that is not ok says: the state, and the first failure or note.
void not_ok(Json& r, const verify::Report& rep) {
    r["error_code"] = verify_error_code(rep.state);
    std::string msg = "state " + std::string(verify::to_string(rep.state));
    if (!rep.findings.failure.empty()) msg += ": " + rep.findings.failure.front().explanation;
    else if (!rep.findings.informational.empty()) msg += ": " + rep.findings.informational.front().explanation;
    r["error"] = msg;
}

}  // namespace

Json verify_one(const Entry& e, const Keyring& keyring, const Options& opt) {
    const std::string& file = e.output.empty() ? e.input : e.output;
    verify::Options vo;
    vo.password = e.options.password;
    vo.allow_damaged = e.options.allow_damaged;
    vo.anchors = opt.anchors;
    vo.require_signed_stamp = opt.require_signed_stamp;
    try {
        vo.expected = record_of(e, opt);
    } catch (const Error& x) {
        return verify_line(verify::unreadable_to_json(file, x));
    }
    Json r;
    std::string thumbnail;
    try {
        verify::Report rep = pdf::within_budget(file, [&] { return verify::verify(file, keyring, vo, thumbnail_to(opt, e, thumbnail)); });
        r = verify_line(rep.to_json());
        if (!thumbnail.empty()) r["thumbnail"] = thumbnail;
        if (!(rep.state == verify::State::Trusted || (opt.accept_unverified && rep.state == verify::State::Unverified))) not_ok(r, rep);
    } catch (const Error& x) {
        r = verify_line(verify::unreadable_to_json(file, x));
    }
    try {
        std::uint64_t bytes = 0;
        r["sha256"] = hash_file(file, &bytes);
        r["bytes"] = bytes;
    } catch (const Error&) {
    }
    return r;
}

#if PITH_TEST_HOOKS
// Test hooks (doc/test-hooks.md): make a worker misbehave on inputs whose path contains the
// given text, so the isolation can be tested without a crashing PDF.
bool hook_matches(const char* var, const std::string& input) {
    const char* v = std::getenv(var);
    return v && *v && input.find(v) != std::string::npos;
}

void run_test_hooks(const Entry& e) {
    if (hook_matches("PITH_BATCH_TEST_CRASH", e.input)) std::abort();
    if (hook_matches("PITH_BATCH_TEST_SEGV", e.input)) std::raise(SIGSEGV);
    if (hook_matches("PITH_BATCH_TEST_HANG", e.input))
        for (;;) ::pause();
    if (hook_matches("PITH_BATCH_TEST_SPIN", e.input))
        for (volatile unsigned long i = 0;; i = i + 1) {
        }
    if (hook_matches("PITH_BATCH_TEST_MEMORY", e.input)) {
        std::vector<std::unique_ptr<char[]>> hog;
        for (;;) {
            hog.emplace_back(new char[64u << 20]);
            std::memset(hog.back().get(), 1, 64u << 20);
        }
    }
    if (const char* v = std::getenv("PITH_BATCH_TEST_SLEEP")) {  // "SUBSTRING=SECONDS"
        std::string s = v;
        auto eq = s.rfind('=');
        if (eq != std::string::npos && e.input.find(s.substr(0, eq)) != std::string::npos)
            ::usleep(static_cast<useconds_t>(std::atof(s.c_str() + eq + 1) * 1e6));
    }
}
#else
void run_test_hooks(const Entry&) {}  // a release build: no hooks
#endif

}  // namespace pith::batch
