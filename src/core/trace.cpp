// SPDX-License-Identifier: MIT
#include "core/trace.hpp"

#include "core/json.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>

namespace pith::trace {
namespace {

std::string& current_subject() {
    static std::string name;
    return name;
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One write() per line to a file opened for appending: the lines of processes writing at once
// do not interleave.
void append(const std::string& line) {
    static const int fd = ::open(std::getenv("PITH_TRACE"), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) (void)!::write(fd, line.data(), line.size());
}

}  // namespace

bool enabled() {
    static const bool on = std::getenv("PITH_TRACE") && *std::getenv("PITH_TRACE");
    return on;
}

void subject(const std::string& name) {
    if (enabled()) current_subject() = name;
}

Span::Span(const char* step) : step_(step) {
    if (enabled()) start_ms_ = now_ms();
}

Span::Span(const char* step, const std::string& name) : Span(step) { subject(name); }

Span::~Span() {
    if (!enabled()) return;
    const double end = now_ms();
    const auto ms = [](double x) { return std::round(x * 1000) / 1000; };
    const Json line = {{"pid", ::getpid()}, {"step", step_}, {"subject", current_subject()}, {"start", ms(start_ms_)},
                       {"ms", ms(end - start_ms_)}};
    append(line.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
}

}  // namespace pith::trace
