// SPDX-License-Identifier: MIT
#pragma once
// pith batch: the JSON Lines report (--report) and the worker log (--worker-log).
#include "batch/batch.hpp"

#include <string>

namespace pith::batch {

class ReportFiles {
public:
    explicit ReportFiles(const Options& o);  // opens both; throws pith::Error (output.unwritable)
    ~ReportFiles();
    ReportFiles(const ReportFiles&) = delete;
    ReportFiles& operator=(const ReportFiles&) = delete;

    // One line per call; flushed to the kernel at once and synced, so a killed run keeps it.
    void report(const Json& line);
    void log(const std::string& text);  // with the time; nothing without --worker-log
    int log_fd() const { return log_fd_; }  // workers' standard output and error

private:
    const Options& o_;
    int report_fd_ = -1, log_fd_ = -1;
    bool own_report_ = false;
};

}  // namespace pith::batch
