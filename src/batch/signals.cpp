// SPDX-License-Identifier: MIT
#include "batch/signals.hpp"

#include "core/error.hpp"
#include "core/platform.hpp"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace pith::batch {

namespace {

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

}  // namespace

SignalCatcher::SignalCatcher() {
    if (!platform::make_pipe(g_wake, true)) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno), err::internal_error);
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
SignalCatcher::~SignalCatcher() {
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

int SignalCatcher::wake_fd() const { return g_wake[0]; }

void SignalCatcher::drain() const {
    char drain[64];
    while (::read(g_wake[0], drain, sizeof drain) > 0) {
    }
}

int SignalCatcher::caught() const { return g_signal; }

std::string signal_name(int sig) { return platform::signal_name(sig); }

}  // namespace pith::batch
