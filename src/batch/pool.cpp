// SPDX-License-Identifier: MIT
// pith batch: the worker pool. Each file runs in a child process (fork) with time and memory
// limits; the scheduler polls their result pipes, kills what overruns, retries what crashed, and
// writes one report line per file.
#include "batch/internal.hpp"
#include "batch/progress.hpp"
#include "batch/report.hpp"
#include "batch/signals.hpp"

#include "core/child.hpp"
#include "core/cpus.hpp"
#include "core/crypto.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/platform.hpp"
#include "core/trace.hpp"
#include "page/pixels.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <new>

namespace pith::batch {

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
    child::Child child;
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
    Runner(const Manifest& m, const Options& o) : m_(m), o_(o), progress_(o, m.jobs.size()), files_(o) {}

    Summary run() {
        t0_ = Clock::now();
        sum_.total = m_.jobs.size();
        sum_.mode = o_.mode;
        workers_ = o_.workers ? o_.workers : usable_cpus();
        keyring_ = Keyring::load(o_.keyrings);
        if (o_.mode == Mode::Stamp) {
            std::size_t removed = remove_stale_temporaries(m_, o_.mode, o_.default_record);
            if (removed) progress_.message("removed " + std::to_string(removed) + " temporary file(s) left by an interrupted run");
        }
        // Loaded once here, not by every worker: Tesseract's data, the most of reading a title from
        // pixels, and for stamps poppler too, which finds where each badge goes.
        if (o_.mode == Mode::Stamp) page::pixels::preload_readers();
        else (void)page::pixels::preload();
        files_.report(start_line());
        {
            SignalCatcher signals;
            signals_ = &signals;
            loop();
            signals_ = nullptr;
        }
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
            files_.report({{"event", "interrupted"}, {"time", now_iso()}, {"signal", sum_.signal}, {"done", sum_.done},
                    {"total", sum_.total}, {"remaining", sum_.total - sum_.done}, {"killed", in_flight},
                    {"first_unfinished_line", first_unfinished ? Json(first_unfinished) : Json(nullptr)},
                    {"seconds", round3(sum_.seconds)},
                    {"resume", "run the same command again: finished outputs are verified and skipped"}});
        } else {
            Json end = sum_.to_json();
            end["event"] = "end";
            end["time"] = now_iso();
            files_.report(end);
        }
        return sum_;
    }

private:
    // The run's first report line. Shard and manifest hash let merge-reports.sh check that the
    // shards it merges are all of one manifest, split one way, and that none is missing.
    Json start_line() const {
        const Shard shard = o_.shard_text.empty() ? Shard{} : parse_shard(o_.shard_text);
        return {{"event", "start"}, {"time", now_iso()}, {"pith", PITH_VERSION}, {"mode", o_.mode == Mode::Stamp ? "stamp" : "verify"},
                {"manifest", m_.source}, {"manifest_sha256", to_hex(sha256(m_.text))},
                {"shard", std::to_string(shard.index) + "/" + std::to_string(shard.count)}, {"manifest_entries", m_.lines_total},
                {"total", sum_.total}, {"workers", workers_}, {"timeout_s", o_.timeout_s}, {"memory_mb", o_.memory_mb}, {"pid", ::getpid()}};
    }

    static double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

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
        const pid_t parent = ::getpid();
        r.child = child::Child([&] { return work(r.entry, parent); });
        if (!r.child.started()) throw Error("cannot start a worker: " + r.child.error(), err::internal_error);
        r.start = Clock::now();
        files_.log("start pid=" + std::to_string(r.child.pid()) + " line=" + std::to_string(r.entry.line) + " attempt=" + std::to_string(r.attempt) +
            " input=" + r.entry.input);
        running_.push_back(std::move(r));
    }

    // In the worker: its result, one JSON line.
    std::string work(const Entry& e, pid_t parent) {
        // Die with the batch; leave Ctrl-C and SIGTERM to the batch, which kills us with SIGKILL.
        platform::die_with_parent(parent);
        struct sigaction dfl {};
        dfl.sa_handler = SIG_IGN;
        sigemptyset(&dfl.sa_mask);
        ::sigaction(SIGINT, &dfl, nullptr);
        ::sigaction(SIGTERM, &dfl, nullptr);
        dfl.sa_handler = SIG_DFL;
        ::sigaction(SIGPIPE, &dfl, nullptr);
        for (const auto& r : running_) ::close(r.child.fd());
        int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
        ::dup2(files_.log_fd(), STDOUT_FILENO);
        ::dup2(files_.log_fd(), STDERR_FILENO);
        // CPU time a little over the wall-clock limit; memory as asked.
        const unsigned long cpu = o_.timeout_s > 0 ? static_cast<unsigned long>(std::ceil(o_.timeout_s)) : 0;
        child::limit({cpu, 2, static_cast<unsigned long long>(o_.memory_mb) << 20, false});
        Json r;
        const trace::Span span("batch/file", e.input);
        try {
            run_test_hooks(e);
            r = o_.mode == Mode::Stamp ? stamp_one(e, keyring_, o_) : verify_one(e, keyring_, o_);
        } catch (const std::bad_alloc&) {
            r = failure(err::worker_memory, "out of memory: the worker reached its limit of " + std::to_string(o_.memory_mb) + " MiB");
        } catch (const std::exception& x) {
            r = failure(err::internal_error, std::string("internal error: ") + x.what());
        } catch (...) {  // the library work is wrapped by pdf::within_budget; this is the last resort
            r = failure(err::internal_error, "internal error: an exception pith does not know");
        }
        return r.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
    }

    void loop() {
        std::size_t next = 0;
        finished_.assign(m_.jobs.size(), false);
        double last_tick = 0;
        while (true) {
            if (signals_->caught() && !stopping_) stop();
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
            fds.push_back({signals_->wake_fd(), POLLIN, 0});
            for (const auto& r : running_) fds.push_back({r.child.fd(), POLLIN, 0});
            double wait = progress_.interval();
            auto now = Clock::now();
            for (const auto& r : running_)
                if (o_.timeout_s > 0 && !r.timed_out)
                    wait = std::min(wait, o_.timeout_s - std::chrono::duration<double>(now - r.start).count());
            int ms = static_cast<int>(std::clamp(wait * 1000, 0.0, 1000.0)) + 1;
            int n = ::poll(fds.data(), fds.size(), ms);
            if (n < 0 && errno != EINTR) throw Error(std::string("poll failed: ") + std::strerror(errno), err::internal_error);
            if (fds[0].revents) signals_->drain();
            // Read what arrived; a closed pipe means the worker is done (or dead).
            std::vector<std::size_t> ended;
            for (std::size_t i = 0; i < running_.size(); ++i) {
                if (n <= 0 || !fds[i + 1].revents) continue;
                if (!running_[i].child.read_some(running_[i].buf)) ended.push_back(i);
            }
            // Wall-clock limit.
            now = Clock::now();
            for (auto& r : running_)
                if (o_.timeout_s > 0 && !r.timed_out && std::chrono::duration<double>(now - r.start).count() >= o_.timeout_s) {
                    r.timed_out = true;
                    r.child.kill();
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
        sum_.signal = signal_name(signals_->caught());
        progress_.message("interrupted (" + sum_.signal + "): stopping " + std::to_string(running_.size()) + " worker(s)");
        for (auto& r : running_) r.child.kill();
        for (auto& r : running_) {
            const int status = r.child.reap();
            // A worker that had already sent its whole result finished its file: keep it.
            Json result;
            if (parse_result(r.buf, result)) {
                record(r, result, status);
            } else {
                killed_.emplace_back(r.entry.line, r.entry.input);
                if (o_.mode == Mode::Stamp) remove_temporaries(r.entry.output);
                files_.log("killed pid=" + std::to_string(r.child.pid()) + " line=" + std::to_string(r.entry.line) + " (interrupted)");
            }
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
        const int status = r.child.reap();
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
                result = failure(err::worker_timeout, "no result after " + std::string(limit) + " s (wall-clock limit); the worker was killed");
            } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) {
                result = failure(err::worker_timeout, "the worker used " + std::string(limit) + " s of CPU time (CPU limit) and was stopped");
            } else if (WIFSIGNALED(status)) {
                int sig = WTERMSIG(status);
                std::string why = "the worker was killed by " + std::string(signal_name(sig)) + " (" + ::strsignal(sig) + ")";
                if (sig == SIGKILL) why += ", from outside the batch or by the out-of-memory killer";
                else if (sig == SIGSEGV || sig == SIGABRT || sig == SIGBUS)
                    why += " while reading this PDF (a crash in the PDF library, or its memory limit of " +
                           std::to_string(o_.memory_mb) + " MiB)";
                files_.log("crash pid=" + std::to_string(r.child.pid()) + " line=" + std::to_string(r.entry.line) + " " + signal_name(sig));
                if (r.attempt <= o_.retries) {
                    ++sum_.retried;
                    progress_.message(r.entry.input + ": " + why + "; retrying");
                    retry_.push_back({r.job, r.attempt + 1, spent});
                    return;
                }
                result = failure(err::worker_crashed, why + (r.attempt > 1 ? "; " + std::to_string(r.attempt) + " attempts" : ""));
                result["signal"] = signal_name(sig);
            } else {
                result = failure(err::worker_crashed, "the worker exited with status " + std::to_string(WEXITSTATUS(status)) + " without a result");
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
        files_.report(line);
        if (!ok) progress_.message(e.input + ": " + status + (line["error"].is_string() ? ": " + line["error"].get<std::string>() : ""));
        files_.log("end pid=" + std::to_string(r.child.pid()) + " line=" + std::to_string(e.line) + " status=" + status);
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
    ReportFiles files_;
    SignalCatcher* signals_ = nullptr;  // while loop() runs
};

}  // namespace

Summary run(const Manifest& manifest, const Options& options) {
    Runner runner(manifest, options);
    return runner.run();
}

}  // namespace pith::batch
