// SPDX-License-Identifier: MIT
#include "core/platform.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if PITH_HAVE_PDEATHSIG
#include <sys/prctl.h>
#endif

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace pith::platform {

bool make_pipe(int fds[2], bool nonblocking) {
#if PITH_HAVE_PIPE2
    return ::pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0)) == 0;
#else
    if (::pipe(fds) != 0) return false;
    for (int i = 0; i < 2; ++i) {
        if (::fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0 ||
            (nonblocking && ::fcntl(fds[i], F_SETFL, ::fcntl(fds[i], F_GETFL) | O_NONBLOCK) != 0)) {
            const int saved = errno;
            ::close(fds[0]);
            ::close(fds[1]);
            errno = saved;
            return false;
        }
    }
    return true;
#endif
}

void die_with_parent(pid_t parent) {
#if PITH_HAVE_PDEATHSIG
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#else
    std::thread([parent] {
        while (::getppid() == parent) ::usleep(100000);
        ::kill(::getpid(), SIGKILL);
    }).detach();
#endif
    if (::getppid() != parent) ::_exit(111);
}

namespace {

std::string& program_path() {
    static std::string path;
    return path;
}

std::string directory_of(const std::string& path) {
    char resolved[PATH_MAX];
    if (!::realpath(path.c_str(), resolved)) return "";
    const std::string p = resolved;
    return p.substr(0, p.rfind('/'));
}

}  // namespace

void set_program_path(const char* argv0) { program_path() = argv0 ? argv0 : ""; }

std::string executable_dir() {
#if PITH_HAVE_PROC_SELF_EXE
    if (std::string dir = directory_of("/proc/self/exe"); !dir.empty()) return dir;
#endif
    std::string argv0 = program_path();
    if (Dl_info info; argv0.empty() && ::dladdr(reinterpret_cast<void*>(&executable_dir), &info) && info.dli_fname)
        argv0 = info.dli_fname;  // a program that did not call set_program_path: the loader's name for it
    if (argv0.empty()) return "";
    if (argv0.find('/') != std::string::npos) return directory_of(argv0);
    const char* path = std::getenv("PATH");
    for (std::string rest = path ? path : ""; !rest.empty();) {
        const std::size_t colon = rest.find(':');
        std::string dir = rest.substr(0, colon);
        rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + argv0;
        struct stat st;
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return directory_of(candidate);
    }
    return "";
}

std::string signal_name(int sig) {
#if PITH_HAVE_SIGABBREV_NP
    if (const char* abbrev = ::sigabbrev_np(sig)) return std::string("SIG") + abbrev;
#else
    static const struct {
        int number;
        const char* name;
    } known[] = {{SIGABRT, "SIGABRT"}, {SIGALRM, "SIGALRM"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGHUP, "SIGHUP"},
                 {SIGILL, "SIGILL"},   {SIGINT, "SIGINT"},   {SIGKILL, "SIGKILL"}, {SIGPIPE, "SIGPIPE"}, {SIGQUIT, "SIGQUIT"},
                 {SIGSEGV, "SIGSEGV"}, {SIGTERM, "SIGTERM"}, {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}, {SIGTRAP, "SIGTRAP"},
                 {SIGSYS, "SIGSYS"},   {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}};
    for (const auto& k : known)
        if (k.number == sig) return k.name;
#endif
    return "signal " + std::to_string(sig);
}

void sync_data(int fd) {
#if PITH_HAVE_FDATASYNC
    ::fdatasync(fd);
#else
    ::fsync(fd);
#endif
}

void populate_for_write(void* data, std::size_t length) {
#if PITH_HAVE_MADV_POPULATE_WRITE
    const std::uintptr_t page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(data), end = start + length;
    const std::uintptr_t first = (start + page - 1) / page * page, last = end / page * page;
    if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);
#else
    (void)data, (void)length;
#endif
}

}  // namespace pith::platform
