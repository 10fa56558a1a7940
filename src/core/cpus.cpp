#include "core/cpus.hpp"

namespace pith {

bool other_cpus(cpu_set_t& cpus) {
    const int here = sched_getcpu();
    if (here < 0 || sched_getaffinity(0, sizeof cpus, &cpus) != 0 || CPU_COUNT(&cpus) < 2 || !CPU_ISSET(here, &cpus)) return false;
    CPU_CLR(here, &cpus);
    return true;
}

}  // namespace pith
