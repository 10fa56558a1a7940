// SPDX-License-Identifier: MIT
#pragma once
// Where helper work runs. Linux starts a new thread or child process on its creator's CPU and
// moves it only when it next balances load, milliseconds later: on a two-CPU machine pith's
// helpers (the file's hash, poppler's page text) then ran after the main work, not beside it.
// Elsewhere (PITH_HAVE_AFFINITY unset: macOS, the BSDs, PITH_PORTABLE) the scheduler places
// helpers itself and these do nothing.
#include <pthread.h>
#include <sys/types.h>

#include <memory>

namespace pith {

// The CPUs this process may use other than the one the caller runs on, taken when made; none
// when one CPU is allowed, the current one is unknown or the platform cannot pin work.
class OtherCpus {
public:
    OtherCpus();
    ~OtherCpus();
    OtherCpus(const OtherCpus&) = delete;
    OtherCpus& operator=(const OtherCpus&) = delete;
    bool any() const { return set_ != nullptr; }
    static bool can_pin();                       // false where the platform has no affinity calls
    void give_to(pid_t child) const;             // a child just forked (call in both: whichever runs first)
    void give_to(pthread_attr_t& thread) const;  // a thread about to be created

private:
    struct Set;
    std::unique_ptr<Set> set_;
};

// How many CPUs this process may run on (its affinity mask where the platform has one).
unsigned usable_cpus();

}  // namespace pith
