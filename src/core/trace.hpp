// SPDX-License-Identifier: MIT
#pragma once
// Where the time of a run goes. With PITH_TRACE=FILE in the environment, each Span appends one
// JSON line to FILE as it ends: {"pid", "step", "subject", "start", "ms"}, `start` in ms on the
// monotonic clock, which the processes of one machine share (children write to the same file).
// Without PITH_TRACE a Span costs a branch. bench/trace_steps.py sums the lines per step.
#include <string>

namespace pith::trace {

// Whether PITH_TRACE names a file (read once).
bool enabled();
// What the spans that follow are about (a PDF's path), in this process and the children it forks.
void subject(const std::string& name);

class Span {
public:
    explicit Span(const char* step);
    // The whole of `subject`'s work: subject(), then the span.
    Span(const char* step, const std::string& subject);
    ~Span();
    Span(const Span&) = delete;
    Span& operator=(const Span&) = delete;

private:
    const char* step_;
    double start_ms_ = 0;
};

}  // namespace pith::trace
