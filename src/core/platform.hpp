// SPDX-License-Identifier: MIT
#pragma once
// The few system calls where Linux or glibc has a faster or simpler form than POSIX. Each has
// a plain POSIX fallback (it builds on macOS and the BSDs), chosen by cmake/platform.cmake's
// feature checks and forced everywhere by -DPITH_PORTABLE=ON. CPU placement: core/cpus.hpp;
// the in-kernel file copy: AtomicFile::copy_from (core/files.hpp).
#include <sys/types.h>

#include <cstddef>
#include <string>

namespace pith::platform {

// pipe() with both ends close-on-exec, and non-blocking with `nonblocking`; false on failure
// (errno set). Fallback: pipe() then fcntl(), not atomic against a concurrent fork.
bool make_pipe(int fds[2], bool nonblocking);

// In a child just forked from `parent`: be killed with SIGKILL when the parent dies, so a batch
// killed hard leaves no workers behind. Exits at once if the parent is already gone. Fallback:
// a thread that checks every 100 ms whether the process was handed over to another parent.
void die_with_parent(pid_t parent);

// Records argv[0], for executable_dir() where the system cannot say where the program lies.
void set_program_path(const char* argv0);
// The directory of the running executable ("" when unknown): /proc/self/exe on Linux;
// elsewhere argv[0] (or, where set_program_path was not called, the name dladdr gives the
// program) resolved as the shell did (a path as given, else the first $PATH match).
std::string executable_dir();

// "SIGKILL", or "signal 42" for a number without a name.
std::string signal_name(int sig);

// The data of `fd` on stable storage (fdatasync, or fsync where there is none).
void sync_data(int fd);

// Asks the kernel to map [data, data + length) for writing in one call instead of a page fault
// per page (Linux 5.14's MADV_POPULATE_WRITE); elsewhere nothing. Whole pages inside only.
void populate_for_write(void* data, std::size_t length);

}  // namespace pith::platform
