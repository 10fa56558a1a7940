# SPDX-License-Identifier: MIT
# Linux and glibc speed-ups, each found by a feature check; src/core/platform.hpp and the files
# that use them fall back to plain POSIX (code that also builds on macOS and the BSDs) where a
# check fails. -DPITH_PORTABLE=ON skips the checks: every fallback, as CI's second build runs it.
# The definitions go to pithcore only (PRIVATE): no public header depends on them.
option(PITH_PORTABLE "Use the portable POSIX fallback for every Linux- or glibc-only call" OFF)
include(CheckCXXSourceCompiles)

function(pith_feature name code)
  if(PITH_PORTABLE)
    return()
  endif()
  set(CMAKE_REQUIRED_DEFINITIONS -D_GNU_SOURCE)
  check_cxx_source_compiles("${code}" ${name})
  if(${name})
    target_compile_definitions(pithcore PRIVATE ${name}=1)
  endif()
endfunction()

pith_feature(PITH_HAVE_AFFINITY "#include <sched.h>
#include <pthread.h>
int main() { cpu_set_t s; CPU_ZERO(&s); pthread_attr_t a; pthread_attr_setaffinity_np(&a, sizeof s, &s);
  return sched_getcpu() + sched_setaffinity(0, sizeof s, &s) + sched_getaffinity(0, sizeof s, &s) + CPU_COUNT(&s); }")
pith_feature(PITH_HAVE_COPY_FILE_RANGE "#include <sys/types.h>
#include <unistd.h>
int main() { loff_t from = 0; return static_cast<int>(copy_file_range(0, &from, 1, nullptr, 1, 0)); }")
pith_feature(PITH_HAVE_PDEATHSIG "#include <sys/prctl.h>
#include <signal.h>
int main() { return prctl(PR_SET_PDEATHSIG, SIGKILL); }")
pith_feature(PITH_HAVE_PIPE2 "#include <fcntl.h>
#include <unistd.h>
int main() { int f[2]; return pipe2(f, O_CLOEXEC | O_NONBLOCK); }")
pith_feature(PITH_HAVE_PROC_SELF_EXE "#if !defined(__linux__)
#error /proc/self/exe is Linux's
#endif
int main() { return 0; }")
pith_feature(PITH_HAVE_MADV_POPULATE_WRITE "#include <sys/mman.h>
int main() { return madvise(nullptr, 0, MADV_POPULATE_WRITE); }")
pith_feature(PITH_HAVE_SIGABBREV_NP "#include <string.h>
int main() { return sigabbrev_np(9) != nullptr; }")
pith_feature(PITH_HAVE_FDATASYNC "#include <unistd.h>
int main() { return fdatasync(1); }")
# OpenSSL's deprecated one-call MD5 and low-level AES (no provider fetch: see src/pdf/crypt.cpp),
# and pith's own RC4 provider built into the binary instead of OpenSSL's legacy module.
set(CMAKE_REQUIRED_LIBRARIES crypto)
pith_feature(PITH_HAVE_OPENSSL_LOW_LEVEL "#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/aes.h>
#include <openssl/md5.h>
int main() { AES_KEY k; unsigned char d[16] = {0}; MD5(d, 0, d); return AES_set_encrypt_key(d, 128, &k); }")
unset(CMAKE_REQUIRED_LIBRARIES)
if(NOT PITH_PORTABLE)
  target_compile_definitions(pithcore PRIVATE PITH_HAVE_RC4_PROVIDER=1)
endif()
message(STATUS "pith: PITH_PORTABLE=${PITH_PORTABLE}")
