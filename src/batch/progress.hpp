// SPDX-License-Identifier: MIT
#pragma once
// pith batch: progress on standard error, a bar on a terminal, plain lines elsewhere (logs).
#include "batch/batch.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace pith::batch {

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

}  // namespace pith::batch
