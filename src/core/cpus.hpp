#pragma once
// Where helper work runs. Linux starts a new thread or child process on its creator's CPU and
// moves it only when it next balances load, milliseconds later: on a two-CPU machine pith's
// helpers (the file's hash, poppler's page text) then ran after the main work, not beside it.
#include <sched.h>

namespace pith {

// The CPUs this process may use other than the one the caller runs on; false when there are
// none (one CPU allowed, or the current one unknown). Give them to a helper as it starts.
bool other_cpus(cpu_set_t& cpus);

}  // namespace pith
