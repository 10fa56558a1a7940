// SPDX-License-Identifier: MIT
#pragma once
// pith batch: stamp or verify many PDFs from a JSON Lines manifest, each file in its own
// child process with time and memory limits, results as one JSON line per file.
#include "core/json.hpp"
#include "core/keys.hpp"
#include "registry/registry.hpp"
#include "sign/inspect.hpp"
#include "stamp/stamp.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::batch {

enum class Mode { Stamp, Verify };

// One manifest line, parsed. Relative paths are taken as given (relative to the
// current directory of the batch process).
struct Entry {
    std::size_t line = 0;               // 1-based line in the manifest
    std::string id;                     // optional "id", echoed in the report
    std::string input;
    std::string output;                 // stamp mode: required
    std::optional<std::string> record_path;
    std::optional<Json> record_inline;  // an inline record object
    std::optional<std::string> record_query;  // "number" or "arxiv": the registry's record, prefetched into the cache
    stamp::Options options;             // the keys of stamp/options_table.hpp: page, corner, ... password
};

// Parses one manifest line (`text` without the newline). Throws pith::Error
// "SOURCE:LINE: problem". A line that is not a JSON object is taken as a bare
// input path in verify mode. `default_record` fills in a missing "record".
Entry parse_entry(std::string_view text, std::size_t line, const std::string& source, Mode mode,
                  const std::string& default_record = "");

// Sharding: a file belongs to shard I of N when fnv1a64(input path, as written in
// the manifest) % N == I. Stable across runs, machines and manifest order.
std::uint64_t fnv1a64(std::string_view text);
struct Shard {
    std::uint64_t index = 0, count = 1;
    bool contains(const std::string& input) const { return count <= 1 || fnv1a64(input) % count == index; }
};
Shard parse_shard(const std::string& text);  // "I/N", 0 <= I < N; throws pith::Error

// The manifest, validated in full before any work starts. Keeps the text and, per
// job of this shard, where its line is (entries are re-parsed when launched, so a
// manifest of millions of lines costs little more memory than its text).
struct Manifest {
    std::string source;  // file name or "-"
    std::string text;
    struct Job {
        std::size_t line;
        std::size_t offset, length;
    };
    std::vector<Job> jobs;       // in manifest order, this shard only
    std::size_t lines_total = 0; // entries in the whole manifest (all shards)
};
// Throws pith::Error naming the line: malformed JSON, unknown keys, wrong types,
// missing fields, two lines writing the same output.
Manifest load_manifest(const std::string& path, Mode mode, const Shard& shard, const std::string& default_record = "");
Manifest parse_manifest(std::string text, const std::string& source, Mode mode, const Shard& shard,
                        const std::string& default_record = "");

struct Options {
    Mode mode = Mode::Stamp;
    unsigned workers = 0;            // 0: all cores
    double timeout_s = 120;          // wall clock per attempt; also the CPU limit (RLIMIT_CPU)
    std::uint64_t memory_mb = 2048;  // RLIMIT_AS per worker; 0: no limit
    unsigned retries = 1;            // extra attempts for a worker that was killed by a signal
    bool check_outputs = true;       // verify each stamped output; one that does not verify fails
    bool redo = false;               // stamp even when the output exists and verifies
    bool accept_unverified = false;  // verify mode: count `unverified` as ok
    std::string report;              // JSON Lines results ("-" standard output); empty: none
    bool append = false;             // append to the report instead of replacing it
    std::string worker_log;          // launches and workers' standard error; empty: /dev/null
    std::string default_record;
    registry::Options registry;      // where workers find records named by "number"/"arxiv" (the cache: offline)
    std::vector<std::string> keyrings;
    std::string shard_text;          // for the report's start line
    enum class Progress { Auto, Bar, Lines, None } progress = Progress::Auto;
    double progress_interval_s = 10; // plain lines
    // Publisher signing (loaded once, before the workers fork) and signature checks.
    std::optional<sign::Signer> signer;
    bool certify = false;
    sign::Anchors anchors;              // --trust
    bool require_signed_stamp = false;  // verify mode
    std::string gallery;                // --gallery DIR: workers draw DIR/thumbs/LINE.png of each checked file
};

struct Summary {
    Mode mode = Mode::Stamp;
    std::size_t total = 0;     // jobs in this shard
    std::size_t done = 0;      // jobs with a result line
    std::size_t ok = 0, stamped = 0, skipped = 0, failed = 0;
    std::map<std::string, std::size_t> states;  // verify mode: state -> count
    std::size_t retried = 0;
    double seconds = 0;
    bool interrupted = false;
    std::string signal;        // "SIGINT" / "SIGTERM" when interrupted
    Json to_json() const;
};

// Runs every job of the manifest. Never throws for a bad PDF or record (those are
// results); throws pith::Error when the report or worker log cannot be opened.
Summary run(const Manifest& manifest, const Options& options);

// The registry queries ("number", "arxiv") of the manifest's jobs, for registry::prefetch before
// the workers start: each distinct record is then fetched once, however many lines name it.
std::vector<registry::Query> registry_queries(const Manifest& manifest, Mode mode, const std::string& default_record = "");

// --gallery DIR (gallery.cpp): makes DIR/thumbs before any work (throws pith::Error,
// output.unwritable, when it cannot be written); after the run, writes DIR/index.html from every
// file line of `report` (the last line of each manifest line) and returns how many it shows.
void prepare_gallery(const std::string& dir);
std::size_t write_gallery(const std::string& dir, const std::string& report);

// Removes temporary files the atomic writers leave when a worker is killed mid-write:
// `.NAME.pith-XXXXXX` and `NAME.pith-tmp-XXXXXX` next to `output`. Returns how many.
std::size_t remove_temporaries(const std::string& output);

}  // namespace pith::batch
