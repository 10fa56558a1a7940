// SPDX-License-Identifier: MIT
#include "batch/report.hpp"

#include "batch/internal.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/platform.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>

namespace pith::batch {

ReportFiles::ReportFiles(const Options& o) : o_(o) {
    if (o_.report == "-") {
        report_fd_ = STDOUT_FILENO;
    } else if (!o_.report.empty()) {
        report_fd_ = ::open(o_.report.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (o_.append ? O_APPEND : O_TRUNC), 0644);
        if (report_fd_ < 0) throw Error(o_.report + ": cannot open the report (" + std::strerror(errno) + ")", err::output_unwritable);
        own_report_ = true;
    }
    log_fd_ = ::open(o_.worker_log.empty() ? "/dev/null" : o_.worker_log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log_fd_ < 0) {
        if (own_report_) ::close(report_fd_);
        throw Error(o_.worker_log + ": cannot open the worker log (" + std::strerror(errno) + ")", err::output_unwritable);
    }
}

ReportFiles::~ReportFiles() {
    if (own_report_) ::close(report_fd_);
    if (log_fd_ >= 0) ::close(log_fd_);
}

void ReportFiles::report(const Json& j) {
    if (report_fd_ < 0) return;
    std::string line = j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
    if (!write_all(report_fd_, line)) throw Error(o_.report + ": cannot write the report (" + std::strerror(errno) + ")", err::output_unwritable);
    if (own_report_) platform::sync_data(report_fd_);
}

void ReportFiles::log(const std::string& text) {
    if (o_.worker_log.empty()) return;
    write_all(log_fd_, now_iso() + " " + text + "\n");
}

std::string now_iso() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

double round3(double x) { return std::round(x * 1000) / 1000; }

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

}  // namespace pith::batch
