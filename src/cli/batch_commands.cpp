// SPDX-License-Identifier: MIT
// pith batch: argument parsing and the final summary; the work is in src/batch.
#include "cli/commands.hpp"
#include "cli/option_flags.hpp"
#include "cli/output.hpp"
#include "cli/registry_flags.hpp"
#include "batch/batch.hpp"
#include "core/error.hpp"
#include "stamp/options_table.hpp"

#include <cstdio>
#include <memory>

namespace pith::cli {
namespace {

constexpr int kExitInterrupted = 130;

struct BatchCommand {
    std::string manifest;
    std::string shard;
    std::string progress = "auto";
    bool no_check = false, verify = false, quiet = false, json = false, dry_run = false;
    batch::Options options;
    RegistryFlags registry;
    unsigned fetch_parallel = 8;
    sign::KeySource key;
    std::vector<std::string> trust;
};

// `text` broken after the last space that keeps each line within `width`.
std::string wrapped(std::string text, std::size_t width) {
    for (std::size_t start = 0; text.size() - start > width;) {
        const std::size_t space = text.rfind(' ', start + width);
        if (space == std::string::npos || space <= start) break;
        text[space] = '\n';
        start = space + 1;
    }
    return text + "\n";
}

// Lines with "number" or "arxiv": each distinct record is fetched once, a few at a time, into the
// cache, before any worker starts; the workers read it from there. A record that cannot be had
// fails its lines (registry.unreachable, input.not_found), not the batch.
void prefetch_records(const batch::Manifest& m, BatchCommand& c) {
    std::vector<registry::Query> queries = batch::registry_queries(m, c.options.mode, c.options.default_record);
    if (queries.empty()) return;
    c.options.registry = registry_options(c.registry);
    for (const auto& e : registry::prefetch(queries, c.options.registry, c.fetch_parallel))
        std::fprintf(stderr, "pith batch: %s\n", printable(e).c_str());
}

// --dry-run: this shard's entries, LINE<TAB>INPUT per line, or with --json one object
// {"entries": N, "in_shard": M, "jobs": [{"line", "id", "input", "output"}]}.
int print_dry_run(const batch::Manifest& m, const batch::Options& o, bool json) {
    Json jobs = Json::array();
    for (const auto& job : m.jobs) {
        batch::Entry e = batch::parse_entry(std::string_view(m.text.data() + job.offset, job.length), job.line, m.source, o.mode,
                                            o.default_record);
        if (!json) std::printf("%zu\t%s\n", e.line, printable(e.input).c_str());
        jobs.push_back({{"line", e.line}, {"id", e.id.empty() ? Json(nullptr) : Json(e.id)}, {"input", e.input},
                        {"output", e.output.empty() ? Json(nullptr) : Json(e.output)}});
    }
    if (json) std::printf("%s\n", Json{{"entries", m.lines_total}, {"in_shard", m.jobs.size()}, {"jobs", jobs}}.dump(2).c_str());
    std::fprintf(stderr, "pith batch: manifest valid: %zu entries, %zu in this shard\n", m.lines_total, m.jobs.size());
    return kExitOk;
}

int run_batch(BatchCommand& c) {
    batch::Options& o = c.options;
    o.check_outputs = !c.no_check;
    o.mode = c.verify ? batch::Mode::Verify : batch::Mode::Stamp;
    batch::Shard shard;
    if (!c.shard.empty()) shard = batch::parse_shard(c.shard);
    o.shard_text = c.shard;
    if (c.progress == "auto") o.progress = batch::Options::Progress::Auto;
    else if (c.progress == "bar") o.progress = batch::Options::Progress::Bar;
    else if (c.progress == "lines") o.progress = batch::Options::Progress::Lines;
    else o.progress = batch::Options::Progress::None;  // one_of() took nothing else
    if (c.quiet) o.progress = batch::Options::Progress::None;
    if (o.timeout_s < 0) throw Error("--timeout must be 0 (no limit) or more", err::options_invalid);

    if (c.key.any()) o.signer = sign::Signer::load(c.key);  // once: every worker signs with it
    o.anchors = sign::Anchors::load(c.trust);
    batch::Manifest m = batch::load_manifest(c.manifest, o.mode, shard, o.default_record);
    if (c.dry_run) return print_dry_run(m, o, c.json);

    if (!o.gallery.empty()) {
        if (o.report.empty() || o.report == "-") throw Error("--gallery needs --report FILE: the gallery shows the report's lines", err::options_invalid);
        batch::prepare_gallery(o.gallery);
    }
    prefetch_records(m, c);
    batch::Summary s = batch::run(m, o);
    if (!o.gallery.empty()) batch::write_gallery(o.gallery, o.report);
    std::FILE* out = o.report == "-" ? stderr : stdout;
    if (c.json) {
        batch::Summary copy = s;
        Json j = copy.to_json();
        j["report"] = o.report.empty() ? Json(nullptr) : Json(o.report);
        std::fprintf(out, "%s\n", j.dump(2).c_str());
    } else {
        std::string detail;
        if (o.mode == batch::Mode::Stamp) {
            detail = std::to_string(s.stamped) + " stamped, " + std::to_string(s.skipped) + " skipped (already done), " +
                     std::to_string(s.failed) + " failed";
        } else {
            for (const auto& [state, count] : s.states) detail += (detail.empty() ? "" : ", ") + std::to_string(count) + " " + state;
            if (detail.empty()) detail = "nothing checked";
        }
        std::fprintf(out, "pith batch: %zu/%zu files: %s in %.1f s (%.1f files/s)%s%s\n", s.done, s.total, detail.c_str(), s.seconds,
                     s.seconds > 0 ? s.done / s.seconds : 0.0, o.report.empty() || o.report == "-" ? "" : "; report: ",
                     o.report.empty() || o.report == "-" ? "" : o.report.c_str());
        if (s.interrupted)
            std::fprintf(out, "pith batch: interrupted by %s; %zu not done. Run the same command again to resume.\n", s.signal.c_str(),
                         s.total - s.done);
    }
    if (s.interrupted) return kExitInterrupted;
    return s.failed ? kExitInvalid : kExitOk;
}

}  // namespace

void register_batch_commands(CLI::App& app, int& status) {
    auto c = std::make_shared<BatchCommand>();
    auto* cmd = app.add_subcommand("batch", "Stamp or verify many PDFs from a JSON Lines manifest, in parallel and resumably");
    cmd->footer(
        "The manifest has one JSON object per line (blank lines and lines starting with # are ignored):\n"
        "  {\"input\": \"in/a.pdf\", \"record\": \"records/a.json\", \"output\": \"out/a.pdf\"}\n"
        "  {\"input\": \"in/b.pdf\", \"record\": {...inline record...}, \"output\": \"out/b.pdf\", \"corner\": \"bottom-right\"}\n"
        + wrapped("Keys: " + stamp::manifest_keys() + ".", 110) +
        "Each is the `pith stamp` option of that name (\"margin_x\" is --margin-x; \"at\": [X, Y]), checked the same way;\n"
        "\"input\" is the PDF and \"id\" is echoed in the report.\n"
        "With --verify, each line's \"output\" (or else \"input\") is checked, \"record\" is the expected record,\n"
        "and a line may be a bare path (so `find . -name '*.pdf' | pith batch --verify -` works).\n\n"
        "Each file runs in its own worker process with a wall-clock/CPU limit (--timeout) and an address-space\n"
        "limit (--memory): a PDF that crashes or hangs the PDF library is reported as failed (worker.crashed,\n"
        "worker.timeout, worker.memory); a crashed worker is retried --retries times. A file whose output exists\n"
        "and verifies with the expected number is skipped, so rerunning a batch resumes it. Ctrl-C stops\n"
        "launching, kills the workers, removes their temporary files and ends the report with an\n"
        "{\"event\":\"interrupted\"} line.\n\n"
        "--report FILE gets one JSON line per file: {event:\"file\", line, input, output, status, ok, number,\n"
        "sha256, bytes, seconds, attempts, error_code, error}, between a start and an end (or interrupted) line.\n"
        "Stamped and skipped lines carry the check's verdict (state, failures: pith verify's rules) and every\n"
        "warning pith stamp prints (warnings).\n\n"
        "--shard I/N (0 <= I < N) takes the entries whose input path hashes (FNV-1a 64) to I modulo N: the N\n"
        "shards are disjoint and together complete, whatever the order of the manifest. The start line names\n"
        "the shard and manifest_sha256; examples/batch/merge-reports.sh checks that no shard or entry is missing.\n\n"
        "Exit status: 0 every file ok, 1 some failed, 2 usage or manifest error, 130 interrupted.\n\n"
        "Examples:\n"
        "  pith batch manifest.jsonl --report report.jsonl\n"
        "  pith batch manifest.jsonl -j 8 --shard 3/16 --report report-3.jsonl --timeout 60 --memory 1024\n"
        "  pith batch --verify manifest.jsonl --keyring registry-keys.json --report checks.jsonl\n"
        "  find received -name '*.pdf' | pith batch --verify - --report checks.jsonl --json");
    cmd->add_option("manifest", c->manifest, "JSON Lines manifest, or - for standard input")->required();
    cmd->add_flag("--verify", c->verify, "Verify the listed PDFs instead of stamping them");
    cmd->add_option("-j,--jobs", c->options.workers, "Parallel workers (default: all cores available)");
    cmd->add_option("--report", c->options.report, "Write one JSON line per file to FILE (- for standard output)");
    cmd->add_flag("--append", c->options.append, "Append to the report instead of replacing it");
    cmd->add_option("-r,--record", c->options.default_record, "Record for manifest lines that name none");
    cmd->add_option("--keyring", c->options.keyrings, "Keyring file with trusted registry keys (repeatable)")->allow_extra_args(false);
    cmd->add_option("--shard", c->shard, "Take share I of N of the manifest (I from 0), e.g. 2/8");
    cmd->add_option("--timeout", c->options.timeout_s, "Seconds per file, wall clock and CPU; 0: no limit")->capture_default_str();
    cmd->add_option("--memory", c->options.memory_mb, "Address-space limit per worker in MiB; 0: no limit")->capture_default_str();
    cmd->add_option("--retries", c->options.retries, "Extra attempts for a file whose worker was killed by a signal")->capture_default_str();
    cmd->add_flag("--no-check", c->no_check, "Do not verify each stamped output (faster; a rerun then skips only outputs that verify)");
    cmd->add_flag("--redo", c->options.redo, "Stamp again even when the output exists and verifies");
    cmd->add_option("--gallery", c->options.gallery, "Also write DIR/index.html, a contact sheet of the report (doc/batch.md)")->type_name("DIR");
    cmd->add_flag("--accept-unverified", c->options.accept_unverified, "With --verify, count unverified files as ok");
    cmd->add_option("--worker-log", c->options.worker_log, "Append worker starts/ends (with PIDs) and workers' standard error to FILE");
    one_of(cmd->add_option("--progress", c->progress, "auto: a bar on a terminal, else plain lines"), "auto|bar|lines|none")
        ->capture_default_str();
    cmd->add_option("--progress-interval", c->options.progress_interval_s, "Seconds between plain progress lines")->capture_default_str();
    cmd->add_flag("-q,--quiet", c->quiet, "No progress output");
    cmd->add_flag("--dry-run", c->dry_run, "Check the manifest and list this shard's entries (LINE<TAB>INPUT, or JSON with --json), do nothing");
    cmd->add_flag("--json", c->json, "Print the final summary (or --dry-run's list) as JSON");
    add_registry_flags(cmd, c->registry, "registry-");
    cmd->add_option("--fetch-parallel", c->fetch_parallel, "Registry requests at a time for lines with \"number\"/\"arxiv\"")->capture_default_str();
    add_signing_options(*cmd, c->key, c->options.certify);
    cmd->add_option("--trust", c->trust, "PEM CA certificates trusted for publishers' signatures (repeatable)")->allow_extra_args(false);
    cmd->add_flag("--require-signed-stamp", c->options.require_signed_stamp, "With --verify: a stamp must be signed by a trusted publisher");
    cmd->callback([c, &status] { status = run_batch(*c); });
}

}  // namespace pith::cli

