// SPDX-License-Identifier: MIT
#include "core/cpus.hpp"

#include <sched.h>

#include <thread>

namespace pith {

#if PITH_HAVE_AFFINITY
struct OtherCpus::Set {
    cpu_set_t cpus;
};

OtherCpus::OtherCpus() {
    auto set = std::make_unique<Set>();
    const int here = sched_getcpu();
    if (here < 0 || sched_getaffinity(0, sizeof set->cpus, &set->cpus) != 0 || CPU_COUNT(&set->cpus) < 2 ||
        !CPU_ISSET(here, &set->cpus))
        return;
    CPU_CLR(here, &set->cpus);
    set_ = std::move(set);
}

void OtherCpus::give_to(pid_t child) const {
    if (set_ && child >= 0) ::sched_setaffinity(child, sizeof set_->cpus, &set_->cpus);
}

void OtherCpus::give_to(pthread_attr_t& thread) const {
    if (set_) pthread_attr_setaffinity_np(&thread, sizeof set_->cpus, &set_->cpus);
}

bool OtherCpus::can_pin() { return true; }

unsigned usable_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
    const unsigned n = std::thread::hardware_concurrency();
    return n ? n : 1;
}
#else
struct OtherCpus::Set {};
OtherCpus::OtherCpus() = default;
bool OtherCpus::can_pin() { return false; }
void OtherCpus::give_to(pid_t) const {}
void OtherCpus::give_to(pthread_attr_t&) const {}

unsigned usable_cpus() {
    const unsigned n = std::thread::hardware_concurrency();
    return n ? n : 1;
}
#endif

OtherCpus::~OtherCpus() = default;

}  // namespace pith
