#include "batch/batch.hpp"

#include "core/cpus.hpp"
#include "core/crypto.hpp"
#include "core/error.hpp"
#include "core/sanitizer.hpp"
#include "core/files.hpp"
#include "core/platform.hpp"
#include "core/record.hpp"
#include "verify/visible.hpp"
#include "pdf/budget.hpp"
#include "verify/verify.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <filesystem>
#include <map>
#include <new>
#include <set>
#include <thread>
#include <unordered_map>

namespace pith::batch {

// ---------------------------------------------------------------------------------------------
// Manifest

std::uint64_t fnv1a64(std::string_view text) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

Shard parse_shard(const std::string& text) {
    auto slash = text.find('/');
    auto bad = [&] { return Error("--shard \"" + text + "\": expected I/N with 0 <= I < N (for example 0/4)"); };
    if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) throw bad();
    auto number = [&](const std::string& s) {
        if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) throw bad();
        return std::stoull(s);
    };
    Shard s{number(text.substr(0, slash)), number(text.substr(slash + 1))};
    if (s.count == 0 || s.index >= s.count) throw bad();
    return s;
}

namespace {

std::string where(const std::string& source, std::size_t line) {
    return (source == "-" ? std::string("standard input") : source) + ":" + std::to_string(line);
}

}  // namespace

Entry parse_entry(std::string_view text, std::size_t line, const std::string& source, Mode mode,
                  const std::string& default_record) {
    const std::string at = where(source, line);
    Entry e;
    e.line = line;
    std::size_t first = text.find_first_not_of(" \t");
    if (mode == Mode::Verify && first != std::string_view::npos && text[first] != '{') {
        e.input = std::string(text.substr(first));  // a bare path
        while (!e.input.empty() && (e.input.back() == ' ' || e.input.back() == '\t')) e.input.pop_back();
        return e;
    }
    Json j;
    try {
        j = parse_json(text, at);
    } catch (const Error& x) {
        std::string what = x.what();
        throw Error(what.rfind(at, 0) == 0 ? what : at + ": " + what);
    }
    if (!j.is_object()) throw Error(at + ": a manifest line must be a JSON object, like {\"input\":…,\"record\":…,\"output\":…}");
    auto fail = [&](const std::string& key, const std::string& what) { return Error(at + ": \"" + key + "\" " + what); };
    auto str = [&](const std::string& key) -> std::string {
        const Json& v = j[key];
        if (!v.is_string()) throw fail(key, "must be a string");
        return v.get<std::string>();
    };
    auto boolean = [&](const std::string& key) -> bool {
        const Json& v = j[key];
        if (!v.is_boolean()) throw fail(key, "must be true or false");
        return v.get<bool>();
    };
    auto number = [&](const std::string& key) -> double {
        const Json& v = j[key];
        if (!v.is_number() || v.is_binary()) throw fail(key, "must be a number");
        return v.get<double>();
    };
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        if (key == "input") e.input = str(key);
        else if (key == "output") e.output = str(key);
        else if (key == "id") {
            if (it->is_string()) e.id = it->get<std::string>();
            else if (it->is_number_integer()) e.id = it->dump();
            else throw fail(key, "must be a string or an integer");
        } else if (key == "record") {
            if (it->is_string()) e.record_path = it->get<std::string>();
            else if (it->is_object()) e.record_inline = *it;
            else throw fail(key, "must be a path (string) or a record (object)");
        } else if (key == "number" || key == "arxiv") {
            if (e.record_query) throw fail(key, "cannot be given with \"number\" or \"arxiv\" together");
            try {
                e.record_query = registry::parse_query((key == "arxiv" ? "arxiv:" : "") + str(key)).text;
            } catch (const Error& x) {
                throw Error(at + ": " + x.what());
            }
        } else if (key == "page") {
            double p = number(key);
            if (p != std::floor(p) || p == 0 || std::fabs(p) > 1e6) throw fail(key, "must be a non-zero integer (1 is the first page, -1 the last)");
            e.options.placement.page = static_cast<int>(p);
        } else if (key == "corner") {
            try {
                e.options.placement.corner = stamp::parse_corner(str(key));
                e.options.placement.automatic = false;  // as given, not a free spot (issue 21)
            } catch (const Error& x) {
                throw Error(at + ": " + x.what());
            }
        } else if (key == "margin_x") e.options.placement.margin_x = number(key);
        else if (key == "margin_y") e.options.placement.margin_y = number(key);
        else if (key == "text_size") e.options.badge.text_size_pt = number(key);
        else if (key == "qr_module") e.options.badge.qr_module_pt = number(key);
        else if (key == "style") {
            e.options.badge.style = str(key);
            if (e.options.badge.style != "plain" && e.options.badge.style != "boxed") throw fail(key, "must be \"plain\" or \"boxed\"");
        } else if (key == "qr") e.options.badge.qr = boolean(key);
        else if (key == "no_badge") e.no_badge = boolean(key);
        else if (key == "resolver") e.options.resolver = str(key);
        else if (key == "password") e.options.password = str(key);
        else if (key == "allow_unverified") e.options.allow_unverified = boolean(key);
        else if (key == "allow_damaged") e.options.allow_damaged = boolean(key);
        else if (key == "force") e.options.force = boolean(key);
        else if (key == "no_title_check") e.options.check_title = !boolean(key);
        else if (key == "replace") e.options.replace = boolean(key);
        else if (key == "badge_always") e.options.badge_always = boolean(key);
        else
            throw Error(at + ": unknown key \"" + key +
                        "\" (known: input, output, record, number, arxiv, id, page, corner, margin_x, margin_y, text_size, style, qr, "
                        "qr_module, no_badge, badge_always, resolver, password, allow_unverified, allow_damaged, force, no_title_check, replace)");
    }
    e.options.draw_badge = !e.no_badge;
    if (e.record_query && (e.record_path || e.record_inline)) throw Error(at + ": give one of \"record\", \"number\" and \"arxiv\"");
    if (e.input.empty()) throw Error(at + ": \"input\" is missing or empty");
    if (mode == Mode::Stamp) {
        if (e.output.empty()) throw Error(at + ": \"output\" is missing or empty");
        if (e.output == "-" || e.input == "-") throw Error(at + ": standard input/output cannot be used in a batch");
        if (!e.record_path && !e.record_inline && !e.record_query) {
            if (default_record.empty()) throw Error(at + ": \"record\" is missing (give one per line or --record for all)");
            e.record_path = default_record;
        }
    }
    return e;
}

Manifest parse_manifest(std::string text, const std::string& source, Mode mode, const Shard& shard,
                        const std::string& default_record) {
    Manifest m;
    m.source = source;
    m.text = std::move(text);
    std::unordered_map<std::uint64_t, std::pair<std::size_t, std::string>> outputs;  // hash -> (line, output)
    std::size_t pos = 0, line = 0;
    const std::string& t = m.text;
    while (pos < t.size()) {
        std::size_t end = t.find('\n', pos);
        if (end == std::string::npos) end = t.size();
        ++line;
        std::size_t len = end - pos;
        if (len && t[pos + len - 1] == '\r') --len;
        std::string_view view(t.data() + pos, len);
        std::size_t first = view.find_first_not_of(" \t");
        if (first != std::string_view::npos && view[first] != '#') {
            Entry e = parse_entry(view, line, source, mode, default_record);
            ++m.lines_total;
            if (mode == Mode::Stamp) {
                auto [it, fresh] = outputs.try_emplace(fnv1a64(e.output), line, e.output);
                if (!fresh && it->second.second == e.output)
                    throw Error(where(source, line) + ": output \"" + e.output + "\" is also the output of line " +
                                std::to_string(it->second.first));
            }
            if (shard.contains(e.input)) m.jobs.push_back({line, pos, len});
        }
        pos = end + 1;
    }
    return m;
}

Manifest load_manifest(const std::string& path, Mode mode, const Shard& shard, const std::string& default_record) {
    return parse_manifest(read_file_or_stdin(path, std::size_t(16) << 30), path, mode, shard, default_record);
}

// ---------------------------------------------------------------------------------------------
// Temporary files

std::vector<registry::Query> registry_queries(const Manifest& m, Mode mode, const std::string& default_record) {
    std::vector<registry::Query> queries;
    for (const auto& job : m.jobs) {
        Entry e = parse_entry(std::string_view(m.text.data() + job.offset, job.length), job.line, m.source, mode, default_record);
        if (e.record_query) queries.push_back(registry::parse_query(*e.record_query));
    }
    return queries;
}

std::size_t remove_temporaries(const std::string& output) {
    std::string dir = ".", base = output;
    if (auto slash = output.find_last_of('/'); slash != std::string::npos) {
        dir = slash == 0 ? "/" : output.substr(0, slash);
        base = output.substr(slash + 1);
    }
    std::size_t removed = 0;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return 0;
    const std::string a = "." + base + ".pith-", b = base + ".pith-tmp-";
    std::vector<std::string> doomed;
    while (dirent* ent = ::readdir(d)) {
        std::string name = ent->d_name;
        if ((name.size() == a.size() + 6 && name.compare(0, a.size(), a) == 0) ||
            (name.size() == b.size() + 6 && name.compare(0, b.size(), b) == 0))
            doomed.push_back(name);
    }
    ::closedir(d);
    for (const auto& name : doomed)
        if (::unlink((dir + "/" + name).c_str()) == 0) ++removed;
    return removed;
}

namespace {

// Scans each output directory once and removes what killed workers of an earlier run left.
std::size_t remove_stale_temporaries(const Manifest& m, Mode mode, const std::string& default_record) {
    std::map<std::string, std::set<std::string>> by_dir;
    for (const auto& job : m.jobs) {
        Entry e = parse_entry(std::string_view(m.text.data() + job.offset, job.length), job.line, m.source, mode, default_record);
        std::string dir = ".", base = e.output;
        if (auto slash = e.output.find_last_of('/'); slash != std::string::npos) {
            dir = slash == 0 ? "/" : e.output.substr(0, slash);
            base = e.output.substr(slash + 1);
        }
        by_dir[dir].insert(base);
    }
    std::size_t removed = 0;
    for (const auto& [dir, bases] : by_dir) {
        DIR* d = ::opendir(dir.c_str());
        if (!d) continue;
        std::vector<std::string> doomed;
        while (dirent* ent = ::readdir(d)) {
            std::string name = ent->d_name;
            if (name.size() < 8) continue;
            std::string stem = name.substr(0, name.size() - 6);  // without XXXXXX
            if (stem.size() > 7 && stem[0] == '.' && stem.compare(stem.size() - 6, 6, ".pith-") == 0 &&
                bases.count(stem.substr(1, stem.size() - 7)))
                doomed.push_back(name);
            else if (stem.size() > 10 && stem.compare(stem.size() - 10, 10, ".pith-tmp-") == 0 &&
                     bases.count(stem.substr(0, stem.size() - 10)))
                doomed.push_back(name);
        }
        ::closedir(d);
        for (const auto& name : doomed)
            if (::unlink((dir + "/" + name).c_str()) == 0) ++removed;
    }
    return removed;
}

// ---------------------------------------------------------------------------------------------
// The work of one file (runs in the worker process)

std::string classify_stamp_error(const std::string& message, const Entry& e) {
    auto has = [&](const char* s) { return message.find(s) != std::string::npos; };
    if (message.rfind(e.input + ": cannot open", 0) == 0) return "input.unreadable";
    if (message.rfind(e.output + ":", 0) == 0 && e.output != e.input) return "output.unwritable";
    if (has("pdf.too_large: ")) return "pdf.too_large";
    if (has("certified PDF")) return "pdf.certified";
    if (has(": damaged PDF: ")) return "pdf.damaged";
    if (has("password")) return "pdf.password";
    if (has("security handler") || has("unsupported encryption") || has("cannot decrypt")) return "pdf.encryption";
    if (has("there is no page") || has("too small for the badge") || has("unknown corner") || has("badge")) return "options.invalid";
    if (has("XMP metadata cannot be merged")) return "pdf.xmp";
    if (has("XMP cannot carry") || has("does not recompute")) return "record.invalid";
    return "pdf.unreadable";
}

std::string hash_file(const std::string& path, std::uint64_t* bytes) {
    std::string data = read_file_or_stdin(path, std::size_t(64) << 30);
    if (bytes) *bytes = data.size();
    return to_hex(sha256(data));
}

Json failure(const std::string& code, const std::string& message) {
    return {{"status", "failed"}, {"error_code", code}, {"error", message}};
}

// A line's record from the registry: prefetched, so workers read the cache only (checked again).
Record registry_record(const Entry& e, const Options& opt) {
    registry::Options o = opt.registry;
    o.offline = true;
    o.use_cache = true;
    return registry::fetch(registry::parse_query(*e.record_query), o).record;
}

std::string record_error_code(const std::string& what) {
    return what.find("cannot open") != std::string::npos || what.find("not in the cache") != std::string::npos
               ? "record.unreadable" : "record.invalid";
}

Json stamp_one(const Entry& e, const Keyring& keyring, const Options& opt) {
    std::optional<Record> record;
    try {
        record = e.record_query ? registry_record(e, opt)
                 : e.record_inline ? read_record(canonical_json(*e.record_inline), "record of line " + std::to_string(e.line))
                                   : load_record(*e.record_path);
    } catch (const Error& x) {
        return failure(record_error_code(x.what()), x.what());
    }
    const std::string number = record->number.full();
    std::string note;
    if (!opt.redo && file_exists(e.output)) {
        try {
            verify::Options vo;
            vo.password = e.options.password;
            vo.allow_damaged = e.options.allow_damaged;
            vo.render = false;  // its own output: the stamp is checked, the paper's title is not
            verify::Report rep = pdf::within_budget(e.output, [&] { return verify::verify(e.output, keyring, vo); });
            bool good = rep.state == verify::State::Trusted || rep.state == verify::State::Unverified;
            auto listed = [&](const std::vector<Finding>& section, const char* code) {
                return std::any_of(section.begin(), section.end(), [&](const Finding& x) { return x.code == code; });
            };
            // With a signing key, an unsigned output is stamped (and signed) again.
            if (opt.signer && !listed(rep.findings.success, "stamp.signed") && !listed(rep.findings.informational, "stamp.signer_unknown"))
                good = false;
            if (good && rep.number == number) {
                std::uint64_t bytes = 0;
                std::string digest = hash_file(e.output, &bytes);
                return {{"status", "skipped"}, {"number", number}, {"sha256", digest}, {"bytes", bytes},
                        {"state", verify::to_string(rep.state)}};
            }
            note = "the existing output was " + std::string(verify::to_string(rep.state)) +
                   (rep.number.empty() ? "" : " with " + rep.number) + "; stamped again";
        } catch (const Error& x) {
            note = std::string("the existing output could not be read (") + x.what() + "); stamped again";
        }
    }
    if (!record->consistent() && !e.options.allow_unverified)
        return failure("record.inconsistent", record->source + ": the record's stated hash or number does not recompute; "
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
        return failure(x.code().empty() ? classify_stamp_error(x.what(), e) : x.code(), x.what());
    }
    if (opt.check_outputs) {
        // Every `stamped` output verifies (and so is skipped by a rerun); one that does not is removed.
        std::string problem;
        try {
            verify::Options vo;
            vo.password = e.options.password;
            vo.allow_damaged = e.options.allow_damaged;
            vo.render = false;  // its own output: the stamp is checked, the paper's title is not
            verify::Report rep = pdf::within_budget(e.output, [&] { return verify::verify(e.output, keyring, vo); });
            if (rep.state != verify::State::Trusted && rep.state != verify::State::Unverified)
                problem = std::string("state ") + verify::to_string(rep.state) +
                          (rep.findings.failure.empty() ? "" : ": " + rep.findings.failure.front().explanation);
            else if (rep.number != number)
                problem = "it carries " + rep.number + ", not " + number;
        } catch (const Error& x) {
            problem = x.what();
        }
        if (!problem.empty()) {
            if (e.output != e.input) ::unlink(e.output.c_str());
            return failure("output.unverifiable", "stamped, but the output does not verify (" + problem + ")" +
                                                      (e.output != e.input ? "; output removed" : ""));
        }
    }
    std::uint64_t bytes = 0;
    std::string digest;
    try {
        digest = hash_file(e.output, &bytes);
    } catch (const Error& x) {
        return failure("output.unreadable", x.what());
    }
    Json r = {{"status", "stamped"}, {"number", number}, {"sha256", digest}, {"bytes", bytes}};
    if (s.page) {
        r["badge_page"] = s.page;
        r["badge_spot"] = s.where.spot;  // where the badge went on that page and whether it had to be boxed
        r["badge_boxed"] = s.where.boxed;
    }
    if (s.replaced_previous) r["replaced_previous_stamp"] = true;
    if (!s.warnings.empty() || !note.empty()) {
        std::vector<std::string> w = s.warnings;
        if (!note.empty()) w.push_back(note);
        r["warnings"] = w;
    }
    return r;
}

Json verify_one(const Entry& e, const Keyring& keyring, const Options& opt) {
    const std::string& file = e.output.empty() ? e.input : e.output;
    verify::Options vo;
    vo.password = e.options.password;
    vo.allow_damaged = e.options.allow_damaged;
    vo.anchors = opt.anchors;
    vo.require_signed_stamp = opt.require_signed_stamp;
    try {
        if (e.record_query) vo.expected = registry_record(e, opt);
        else if (e.record_inline) vo.expected = read_record(canonical_json(*e.record_inline), "record of line " + std::to_string(e.line));
        else if (e.record_path) vo.expected = load_record(*e.record_path);
    } catch (const Error& x) {
        Json r = failure(record_error_code(x.what()), x.what());
        r["status"] = "unreadable";
        r["file"] = file;
        return r;
    }
    Json r;
    try {
        verify::Report rep = pdf::within_budget(file, [&] { return verify::verify(file, keyring, vo); });
        r = {{"status", verify::to_string(rep.state)}, {"number", rep.number.empty() ? Json(nullptr) : Json(rep.number)}};
        std::vector<std::string> failures;
        for (const auto& f : rep.findings.failure) failures.push_back(f.code);
        r["failures"] = failures;
        bool ok = rep.state == verify::State::Trusted || (opt.accept_unverified && rep.state == verify::State::Unverified);
        if (!ok) {
            r["error_code"] = std::string("verify.") + verify::to_string(rep.state);
            std::string msg = "state " + std::string(verify::to_string(rep.state));
            if (!rep.findings.failure.empty()) msg += ": " + rep.findings.failure.front().explanation;
            else if (!rep.findings.informational.empty()) msg += ": " + rep.findings.informational.front().explanation;
            r["error"] = msg;
        }
    } catch (const Error& x) {
        std::string what = x.what();
        const char* code = what.rfind(file + ": cannot open", 0) == 0         ? "input.unreadable"
                           : what.find(": pdf.too_large: ") != std::string::npos ? "pdf.too_large"
                                                                                : "pdf.unreadable";
        r = {{"status", "unreadable"}, {"error_code", code},
             {"error", what}};
    }
    r["file"] = file;
    try {
        std::uint64_t bytes = 0;
        r["sha256"] = hash_file(file, &bytes);
        r["bytes"] = bytes;
    } catch (const Error&) {
    }
    return r;
}

#if PITH_TEST_HOOKS
// Test hooks (doc/test-hooks.md): make a worker misbehave on inputs whose path
// contains the given text, so the isolation can be tested without a crashing PDF.
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

// ---------------------------------------------------------------------------------------------
// Signals

volatile std::sig_atomic_t g_signal = 0;
int g_wake[2] = {-1, -1};

extern "C" void on_signal(int sig) {
    int saved = errno;
    if (!g_signal) g_signal = sig;
    if (g_wake[1] >= 0) {
        char c = 1;
        [[maybe_unused]] ssize_t n = ::write(g_wake[1], &c, 1);
    }
    errno = saved;
}

const char* signal_name(int sig) {
    static thread_local std::string name;
    name = platform::signal_name(sig);
    return name.c_str();
}

unsigned default_workers() { return usable_cpus(); }

std::string now_iso() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

double round3(double x) { return std::round(x * 1000) / 1000; }

// ---------------------------------------------------------------------------------------------
// Progress on standard error

class Progress {
public:
    Progress(const Options& o, std::size_t total) : total_(total) {
        bool tty = ::isatty(STDERR_FILENO);
        mode_ = o.progress == Options::Progress::Auto ? (tty ? Options::Progress::Bar : Options::Progress::Lines) : o.progress;
        colour_ = tty && !std::getenv("NO_COLOR") && mode_ == Options::Progress::Bar;
        interval_ = mode_ == Options::Progress::Bar ? 0.2 : std::max(0.5, o.progress_interval_s);
    }
    double interval() const { return mode_ == Options::Progress::None ? 1e9 : interval_; }

    void update(std::size_t done, std::size_t failed, double elapsed, bool force = false) {
        if (mode_ == Options::Progress::None) return;
        if (!force && elapsed - last_ < interval_) return;
        if (mode_ == Options::Progress::Lines && done == last_done_ && last_done_ != SIZE_MAX) return;
        last_ = elapsed;
        last_done_ = done;
        double rate = elapsed > 0 ? done / elapsed : 0;
        std::string eta = "--";
        if (rate > 0 && done < total_) eta = duration((total_ - done) / rate);
        else if (done >= total_) eta = "0s";
        char line[256];
        if (mode_ == Options::Progress::Bar) {
            const int width = 24;
            int filled = total_ ? static_cast<int>(width * done / total_) : width;
            std::string bar(static_cast<std::size_t>(filled), '#');
            bar.append(static_cast<std::size_t>(width - filled), '-');
            std::snprintf(line, sizeof line, "\r[%s] %zu/%zu  %.1f files/s  ETA %s  %s%zu failed%s\033[K", bar.c_str(), done, total_,
                          rate, eta.c_str(), colour_ && failed ? "\033[31;1m" : "", failed, colour_ && failed ? "\033[0m" : "");
            shown_ = true;
        } else {
            std::snprintf(line, sizeof line, "pith batch: %zu/%zu done, %.1f files/s, ETA %s, %zu failed\n", done, total_, rate,
                          eta.c_str(), failed);
        }
        std::fputs(line, stderr);
        std::fflush(stderr);
    }
    // A message of its own line, not mixed into the bar.
    void message(const std::string& text) {
        if (mode_ == Options::Progress::None) return;
        if (shown_) std::fputs("\r\033[K", stderr);
        std::fprintf(stderr, "pith batch: %s\n", text.c_str());
        if (mode_ == Options::Progress::Bar) last_ = -1e9;  // redraw the bar at the next update
    }
    void finish() {
        if (shown_) std::fputs("\n", stderr);
        shown_ = false;
    }

private:
    static std::string duration(double s) {
        long t = static_cast<long>(s + 0.5);
        char buf[32];
        if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t / 60) % 60);
        else if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
        else std::snprintf(buf, sizeof buf, "%lds", t);
        return buf;
    }
    std::size_t total_;
    Options::Progress mode_;
    bool colour_ = false, shown_ = false;
    double interval_ = 10, last_ = -1e9;
    std::size_t last_done_ = SIZE_MAX;
};

// ---------------------------------------------------------------------------------------------
// The scheduler

using Clock = std::chrono::steady_clock;

struct Running {
    pid_t pid = -1;
    int fd = -1;
    std::size_t job = 0;
    unsigned attempt = 1;
    double spent_before = 0;  // seconds of earlier attempts
    Clock::time_point start;
    std::string buf;
    bool timed_out = false;
    Entry entry;
};

struct Pending {
    std::size_t job;
    unsigned attempt;
    double spent_before;
};

class Runner {
public:
    Runner(const Manifest& m, const Options& o) : m_(m), o_(o), progress_(o, m.jobs.size()) {}

    Summary run() {
        t0_ = Clock::now();
        sum_.total = m_.jobs.size();
        sum_.mode = o_.mode;
        workers_ = o_.workers ? o_.workers : default_workers();
        keyring_ = Keyring::load(o_.keyrings);
        open_outputs();
        if (o_.mode == Mode::Stamp) {
            std::size_t removed = remove_stale_temporaries(m_, o_.mode, o_.default_record);
            if (removed) progress_.message("removed " + std::to_string(removed) + " temporary file(s) left by an interrupted run");
            // Poppler, which finds where each badge goes, is loaded once here, not by every worker.
            try {
                visible::preload();
            } catch (const Error&) {  // each stamp then says why its page was not measured
            }
        }
        report({{"event", "start"}, {"time", now_iso()}, {"pith", PITH_VERSION}, {"mode", o_.mode == Mode::Stamp ? "stamp" : "verify"},
                {"manifest", m_.source}, {"shard", o_.shard_text.empty() ? Json(nullptr) : Json(o_.shard_text)},
                {"manifest_entries", m_.lines_total}, {"total", sum_.total}, {"workers", workers_}, {"timeout_s", o_.timeout_s},
                {"memory_mb", o_.memory_mb}, {"pid", ::getpid()}});
        install_signals();
        try {
            loop();
        } catch (...) {
            restore_signals();
            throw;
        }
        restore_signals();
        sum_.seconds = seconds_since(t0_);
        progress_.update(sum_.done, sum_.failed, sum_.seconds, true);
        progress_.finish();
        if (sum_.interrupted) {
            Json in_flight = Json::array();
            for (const auto& [line, input] : killed_) in_flight.push_back({{"line", line}, {"input", input}});
            std::size_t first_unfinished = 0;
            for (std::size_t i = 0; i < m_.jobs.size(); ++i)
                if (!finished_[i]) {
                    first_unfinished = m_.jobs[i].line;
                    break;
                }
            report({{"event", "interrupted"}, {"time", now_iso()}, {"signal", sum_.signal}, {"done", sum_.done},
                    {"total", sum_.total}, {"remaining", sum_.total - sum_.done}, {"killed", in_flight},
                    {"first_unfinished_line", first_unfinished ? Json(first_unfinished) : Json(nullptr)},
                    {"seconds", round3(sum_.seconds)},
                    {"resume", "run the same command again: finished outputs are verified and skipped"}});
        } else {
            Json end = sum_.to_json();
            end["event"] = "end";
            end["time"] = now_iso();
            report(end);
        }
        close_outputs();
        return sum_;
    }

private:
    static double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

    void open_outputs() {
        if (!o_.report.empty()) {
            if (o_.report == "-") {
                report_fd_ = STDOUT_FILENO;
            } else {
                report_fd_ = ::open(o_.report.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (o_.append ? O_APPEND : O_TRUNC), 0644);
                if (report_fd_ < 0) throw Error(o_.report + ": cannot open the report (" + std::strerror(errno) + ")");
                own_report_ = true;
            }
        }
        log_fd_ = ::open(o_.worker_log.empty() ? "/dev/null" : o_.worker_log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (log_fd_ < 0) throw Error(o_.worker_log + ": cannot open the worker log (" + std::strerror(errno) + ")");
    }
    void close_outputs() {
        if (own_report_) ::close(report_fd_);
        if (log_fd_ >= 0) ::close(log_fd_);
        report_fd_ = log_fd_ = -1;
    }

    // One line per call; flushed to the kernel at once and synced, so a killed run keeps it.
    void report(const Json& j) {
        if (report_fd_ < 0) return;
        std::string line = j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
        if (!write_all(report_fd_, line)) throw Error(o_.report + ": cannot write the report (" + std::strerror(errno) + ")");
        if (own_report_) platform::sync_data(report_fd_);
    }

    void log(const std::string& text) {
        if (o_.worker_log.empty()) return;
        write_all(log_fd_, now_iso() + " " + text + "\n");
    }

    void install_signals() {
        if (!platform::make_pipe(g_wake, true)) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
        g_signal = 0;
        struct sigaction sa {};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;
        ::sigaction(SIGINT, &sa, &old_int_);
        ::sigaction(SIGTERM, &sa, &old_term_);
        struct sigaction ign {};
        ign.sa_handler = SIG_IGN;
        sigemptyset(&ign.sa_mask);
        ::sigaction(SIGPIPE, &ign, &old_pipe_);
    }
    // After an interrupt, further SIGINT/SIGTERM are ignored rather than restored: pith still has
    // to write the report's "interrupted" line and its summary, then exits 130. A second signal is
    // the rule under a scheduler: Slurm's scancel signals every process of the task, and the
    // batch script passes its own signal on to pith as well (examples/batch/slurm-array.sbatch).
    void restore_signals() {
        struct sigaction ign {};
        ign.sa_handler = SIG_IGN;
        sigemptyset(&ign.sa_mask);
        ::sigaction(SIGINT, g_signal ? &ign : &old_int_, nullptr);
        ::sigaction(SIGTERM, g_signal ? &ign : &old_term_, nullptr);
        ::sigaction(SIGPIPE, &old_pipe_, nullptr);
        ::close(g_wake[0]);
        ::close(g_wake[1]);
        g_wake[0] = g_wake[1] = -1;
    }

    Entry entry_of(std::size_t job) const {
        const auto& j = m_.jobs[job];
        return parse_entry(std::string_view(m_.text.data() + j.offset, j.length), j.line, m_.source, o_.mode, o_.default_record);
    }

    void launch(const Pending& p) {
        Running r;
        r.job = p.job;
        r.attempt = p.attempt;
        r.spent_before = p.spent_before;
        r.entry = entry_of(p.job);
        int fds[2];
        if (!platform::make_pipe(fds, false)) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
        std::fflush(stdout);
        std::fflush(stderr);
        const pid_t parent = ::getpid();
        pid_t pid = ::fork();
        if (pid < 0) {
            ::close(fds[0]);
            ::close(fds[1]);
            throw Error(std::string("cannot start a worker: ") + std::strerror(errno));
        }
        if (pid == 0) child(r.entry, fds[1], parent);  // never returns
        ::close(fds[1]);
        r.pid = pid;
        r.fd = fds[0];
        r.start = Clock::now();
        log("start pid=" + std::to_string(pid) + " line=" + std::to_string(r.entry.line) + " attempt=" + std::to_string(r.attempt) +
            " input=" + r.entry.input);
        running_.push_back(std::move(r));
    }

    [[noreturn]] void child(const Entry& e, int out, pid_t parent) {
        // Die with the batch; leave Ctrl-C and SIGTERM to the batch, which kills us with SIGKILL.
        platform::die_with_parent(parent);
        struct sigaction dfl {};
        dfl.sa_handler = SIG_IGN;
        sigemptyset(&dfl.sa_mask);
        ::sigaction(SIGINT, &dfl, nullptr);
        ::sigaction(SIGTERM, &dfl, nullptr);
        dfl.sa_handler = SIG_DFL;
        ::sigaction(SIGPIPE, &dfl, nullptr);
        for (const auto& r : running_) ::close(r.fd);
        int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
        ::dup2(log_fd_, STDOUT_FILENO);
        ::dup2(log_fd_, STDERR_FILENO);
        if (o_.timeout_s > 0) {
            rlim_t cpu = static_cast<rlim_t>(std::ceil(o_.timeout_s));
            struct rlimit rl {cpu, cpu + 2};
            ::setrlimit(RLIMIT_CPU, &rl);
        }
#ifndef PITH_ADDRESS_SANITIZER
        if (o_.memory_mb > 0) {
            rlim_t bytes = static_cast<rlim_t>(o_.memory_mb) << 20;
            struct rlimit rl {bytes, bytes};
            ::setrlimit(RLIMIT_AS, &rl);
        }
#endif
        Json r;
        try {
            run_test_hooks(e);
            r = o_.mode == Mode::Stamp ? stamp_one(e, keyring_, o_) : verify_one(e, keyring_, o_);
        } catch (const std::bad_alloc&) {
            r = failure("worker.memory", "out of memory: the worker reached its limit of " + std::to_string(o_.memory_mb) + " MiB");
        } catch (const std::exception& x) {
            r = failure("internal.error", std::string("internal error: ") + x.what());
        }
        std::string line = r.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
        write_all(out, line);
        ::_exit(0);
    }

    void loop() {
        std::size_t next = 0;
        finished_.assign(m_.jobs.size(), false);
        double last_tick = 0;
        while (true) {
            if (g_signal && !stopping_) stop();
            while (!stopping_ && running_.size() < workers_ && (!retry_.empty() || next < m_.jobs.size())) {
                if (!retry_.empty()) {
                    Pending p = retry_.front();
                    retry_.pop_front();
                    launch(p);
                } else {
                    launch({next++, 1, 0});
                }
            }
            if (running_.empty()) break;

            std::vector<pollfd> fds;
            fds.push_back({g_wake[0], POLLIN, 0});
            for (const auto& r : running_) fds.push_back({r.fd, POLLIN, 0});
            double wait = progress_.interval();
            auto now = Clock::now();
            for (const auto& r : running_)
                if (o_.timeout_s > 0 && !r.timed_out)
                    wait = std::min(wait, o_.timeout_s - std::chrono::duration<double>(now - r.start).count());
            int ms = static_cast<int>(std::clamp(wait * 1000, 0.0, 1000.0)) + 1;
            int n = ::poll(fds.data(), fds.size(), ms);
            if (n < 0 && errno != EINTR) throw Error(std::string("poll failed: ") + std::strerror(errno));
            if (fds[0].revents) {
                char drain[64];
                while (::read(g_wake[0], drain, sizeof drain) > 0) {
                }
            }
            // Read what arrived; a closed pipe means the worker is done (or dead).
            std::vector<std::size_t> ended;
            for (std::size_t i = 0; i < running_.size(); ++i) {
                if (n <= 0 || !fds[i + 1].revents) continue;
                char buf[65536];
                ssize_t got = ::read(running_[i].fd, buf, sizeof buf);
                if (got > 0) running_[i].buf.append(buf, static_cast<std::size_t>(got));
                else if (got == 0 || (errno != EINTR && errno != EAGAIN)) ended.push_back(i);
            }
            // Wall-clock limit.
            now = Clock::now();
            for (auto& r : running_)
                if (o_.timeout_s > 0 && !r.timed_out && std::chrono::duration<double>(now - r.start).count() >= o_.timeout_s) {
                    r.timed_out = true;
                    ::kill(r.pid, SIGKILL);
                }
            for (auto it = ended.rbegin(); it != ended.rend(); ++it) {
                Running r = std::move(running_[*it]);
                running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(*it));
                finish(r);
            }
            double elapsed = seconds_since(t0_);
            if (elapsed - last_tick >= progress_.interval() || !ended.empty()) {
                progress_.update(sum_.done, sum_.failed, elapsed);
                if (elapsed - last_tick >= progress_.interval()) last_tick = elapsed;
            }
        }
    }

    // Ctrl-C or SIGTERM: launch nothing more, kill the workers, clean up after them.
    void stop() {
        stopping_ = true;
        sum_.interrupted = true;
        sum_.signal = signal_name(g_signal);
        progress_.message("interrupted (" + sum_.signal + "): stopping " + std::to_string(running_.size()) + " worker(s)");
        for (auto& r : running_) ::kill(r.pid, SIGKILL);
        for (auto& r : running_) {
            int status = 0;
            while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
            }
            // A worker that had already sent its whole result finished its file: keep it.
            Json result;
            if (parse_result(r.buf, result)) {
                record(r, result, status);
            } else {
                killed_.emplace_back(r.entry.line, r.entry.input);
                if (o_.mode == Mode::Stamp) remove_temporaries(r.entry.output);
                log("killed pid=" + std::to_string(r.pid) + " line=" + std::to_string(r.entry.line) + " (interrupted)");
            }
            ::close(r.fd);
        }
        running_.clear();
        retry_.clear();
    }

    static bool parse_result(const std::string& buf, Json& out) {
        if (buf.empty() || buf.back() != '\n') return false;
        out = Json::parse(buf, nullptr, false);
        return out.is_object() && out.contains("status");
    }

    void finish(Running& r) {
        int status = 0;
        while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
        }
        ::close(r.fd);
        double spent = r.spent_before + seconds_since(r.start);
        Json result;
        bool have = parse_result(r.buf, result);
        if (!have || WIFSIGNALED(status) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            if (o_.mode == Mode::Stamp) remove_temporaries(r.entry.output);
            char limit[64];
            std::snprintf(limit, sizeof limit, "%g", o_.timeout_s);
            if (have && WIFEXITED(status)) {
                // a result, then an odd exit: keep the result
            } else if (r.timed_out) {
                result = failure("worker.timeout", "no result after " + std::string(limit) + " s (wall-clock limit); the worker was killed");
            } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) {
                result = failure("worker.timeout", "the worker used " + std::string(limit) + " s of CPU time (CPU limit) and was stopped");
            } else if (WIFSIGNALED(status)) {
                int sig = WTERMSIG(status);
                std::string why = "the worker was killed by " + std::string(signal_name(sig)) + " (" + ::strsignal(sig) + ")";
                if (sig == SIGKILL) why += ", from outside the batch or by the out-of-memory killer";
                else if (sig == SIGSEGV || sig == SIGABRT || sig == SIGBUS)
                    why += " while reading this PDF (a crash in the PDF library, or its memory limit of " +
                           std::to_string(o_.memory_mb) + " MiB)";
                log("crash pid=" + std::to_string(r.pid) + " line=" + std::to_string(r.entry.line) + " " + signal_name(sig));
                if (r.attempt <= o_.retries) {
                    ++sum_.retried;
                    progress_.message(r.entry.input + ": " + why + "; retrying");
                    retry_.push_back({r.job, r.attempt + 1, spent});
                    return;
                }
                result = failure("worker.crashed", why + (r.attempt > 1 ? "; " + std::to_string(r.attempt) + " attempts" : ""));
                result["signal"] = signal_name(sig);
            } else {
                result = failure("worker.crashed", "the worker exited with status " + std::to_string(WEXITSTATUS(status)) + " without a result");
            }
        }
        result["seconds"] = round3(spent);
        record(r, result, status);
    }

    void record(const Running& r, Json result, int) {
        const Entry& e = r.entry;
        Json line = {{"event", "file"}, {"line", e.line}, {"input", e.input}};
        if (!e.id.empty()) line["id"] = e.id;
        if (o_.mode == Mode::Stamp) line["output"] = e.output;
        if (!result.contains("seconds")) result["seconds"] = round3(r.spent_before + seconds_since(r.start));
        result["attempts"] = r.attempt;
        std::string status = result.value("status", "failed");
        bool ok;
        if (o_.mode == Mode::Stamp) {
            ok = status == "stamped" || status == "skipped";
            if (status == "stamped") ++sum_.stamped;
            else if (status == "skipped") ++sum_.skipped;
        } else {
            ok = status == "trusted" || (o_.accept_unverified && status == "unverified");
            ++sum_.states[status];
        }
        if (ok) ++sum_.ok;
        else ++sum_.failed;
        ++sum_.done;
        finished_[r.job] = true;
        line["ok"] = ok;
        for (auto it = result.begin(); it != result.end(); ++it) line[it.key()] = it.value();
        if (!line.contains("error_code")) {
            line["error_code"] = nullptr;
            line["error"] = nullptr;
        }
        if (!line.contains("sha256")) line["sha256"] = nullptr;
        report(line);
        if (!ok) progress_.message(e.input + ": " + status + (line["error"].is_string() ? ": " + line["error"].get<std::string>() : ""));
        log("end pid=" + std::to_string(r.pid) + " line=" + std::to_string(e.line) + " status=" + status);
    }

    const Manifest& m_;
    const Options& o_;
    Progress progress_;
    Keyring keyring_;
    Summary sum_;
    unsigned workers_ = 1;
    Clock::time_point t0_;
    std::vector<Running> running_;
    std::deque<Pending> retry_;
    std::vector<bool> finished_;
    std::vector<std::pair<std::size_t, std::string>> killed_;
    bool stopping_ = false;
    int report_fd_ = -1, log_fd_ = -1;
    bool own_report_ = false;
    struct sigaction old_int_ {}, old_term_ {}, old_pipe_ {};
};

}  // namespace

Json Summary::to_json() const {
    Json j = {{"total", total}, {"done", done}, {"ok", ok}, {"failed", failed}, {"retried", retried},
              {"seconds", round3(seconds)}, {"files_per_second", seconds > 0 ? round3(done / seconds) : 0.0},
              {"interrupted", interrupted}};
    if (mode == Mode::Verify) j["states"] = states;
    else {
        j["stamped"] = stamped;
        j["skipped"] = skipped;
    }
    if (interrupted) j["signal"] = signal;
    return j;
}

Summary run(const Manifest& manifest, const Options& options) {
    Runner runner(manifest, options);
    return runner.run();
}

}  // namespace pith::batch
