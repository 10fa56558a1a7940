// SPDX-License-Identifier: MIT
#pragma once
// pith batch: Ctrl-C and SIGTERM while workers run. The handler only records the signal and wakes
// the scheduler's poll() through a pipe; the scheduler stops the workers itself.
#include <signal.h>

#include <string>

namespace pith::batch {

class SignalCatcher {
public:
    SignalCatcher();   // installs the handlers (and ignores SIGPIPE); throws pith::Error
    ~SignalCatcher();  // see signals.cpp for what is restored
    SignalCatcher(const SignalCatcher&) = delete;
    SignalCatcher& operator=(const SignalCatcher&) = delete;

    int wake_fd() const;  // readable after a signal: poll it with the workers' pipes
    void drain() const;   // empty the wake pipe
    int caught() const;   // the first signal caught, 0 if none

private:
    struct sigaction old_int_ {}, old_term_ {}, old_pipe_ {};
};

// "SIGINT", "SIGSEGV", ...
std::string signal_name(int sig);

}  // namespace pith::batch
