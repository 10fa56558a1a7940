// SPDX-License-Identifier: MIT
#include "core/child.hpp"

#include "core/files.hpp"
#include "core/platform.hpp"
#include "core/sanitizer.hpp"
#include "core/trace.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <utility>

namespace pith::child {

namespace {

// Bytes of address space this process has mapped (0 where /proc/self/statm cannot say).
rlim_t inherited_address_space() {
    unsigned long long pages = 0;
    if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%llu", &pages) != 1) pages = 0;
        std::fclose(statm);
    }
    return static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
}

// In a Task child: the request, framed as "<length>\n<bytes>" (so that no copy of the pipe's
// write end in another child can keep it waiting); nullopt when the pipe closes first.
std::optional<std::string> receive(int fd) {
    std::string in;
    char buffer[65536];
    for (;;) {
        if (const std::size_t eol = in.find('\n'); eol != std::string::npos) {
            const std::size_t length = std::strtoull(in.c_str(), nullptr, 10);
            if (in.size() - eol - 1 >= length) return in.substr(eol + 1, length);
        }
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return std::nullopt;
        in.append(buffer, static_cast<std::size_t>(n));
    }
}

void wait_for(pid_t pid, int& status) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

}  // namespace

void limit(const Limits& limits) {
    if (limits.cpu_seconds > 0) {
        const rlim_t cpu = limits.cpu_seconds;
        struct rlimit rl = {cpu, cpu + limits.cpu_grace};
        ::setrlimit(RLIMIT_CPU, &rl);
    }
#ifndef PITH_ADDRESS_SANITIZER
    if (limits.memory > 0) {
        // With `beyond_inherited`, the parent's mappings (the file, pith's heap) plus `memory`:
        // a fixed total failed on a large parent for a reason unrelated to the child's work.
        const rlim_t total = static_cast<rlim_t>(limits.memory) + (limits.beyond_inherited ? inherited_address_space() : 0);
        struct rlimit rl = {total, total};
        ::setrlimit(RLIMIT_AS, &rl);
    }
#endif
}

bool Ended::exited_cleanly() const { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }
int Ended::signal() const { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }
int Ended::exit_code() const { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

Child::Child(const Work& work, const std::function<void(pid_t)>& forked) {
    int fds[2];
    if (!platform::make_pipe(fds, false)) {
        error_ = std::string("cannot create a pipe: ") + std::strerror(errno);
        return;
    }
    std::fflush(nullptr);  // or the child's exit would write the parent's buffered output again
    const pid_t pid = ::fork();
    if (forked) forked(pid);
    if (pid < 0) {
        error_ = std::string("cannot fork: ") + std::strerror(errno);
        ::close(fds[0]);
        ::close(fds[1]);
        return;
    }
    if (pid == 0) {
        ::close(fds[0]);
        bool sent = false;
        try {
            sent = write_all(fds[1], work());
        } catch (...) {
        }
        ::_exit(sent ? 0 : 1);
    }
    ::close(fds[1]);
    pid_ = pid;
    fd_ = fds[0];
}

Child::Child(const std::function<void()>& prepare, const Task& task) {
    int request[2];
    if (!platform::make_pipe(request, false)) {
        error_ = std::string("cannot create a pipe: ") + std::strerror(errno);
        return;
    }
    *this = Child([&] {
        ::close(request[1]);
        prepare();
        const std::optional<std::string> asked = receive(request[0]);
        return asked ? task(*asked) : std::string();
    });
    ::close(request[0]);
    if (started()) request_fd_ = request[1];
    else ::close(request[1]);
}

bool Child::send(std::string_view request) {
    if (request_fd_ < 0) return false;
    struct sigaction ignore {}, old {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, &old);  // a child that is gone: EPIPE, not the end of pith
    const bool sent = write_all(request_fd_, std::to_string(request.size()) + "\n") && write_all(request_fd_, request);
    ::sigaction(SIGPIPE, &old, nullptr);
    ::close(std::exchange(request_fd_, -1));
    return sent;
}

Child::Child(Child&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      fd_(std::exchange(other.fd_, -1)),
      request_fd_(std::exchange(other.request_fd_, -1)),
      reaped_(other.reaped_),
      error_(std::move(other.error_)) {}

Child& Child::operator=(Child&& other) noexcept {
    if (this != &other) {
        Child gone(std::move(*this));
        pid_ = std::exchange(other.pid_, -1);
        fd_ = std::exchange(other.fd_, -1);
        request_fd_ = std::exchange(other.request_fd_, -1);
        reaped_ = other.reaped_;
        error_ = std::move(other.error_);
    }
    return *this;
}

Child::~Child() {
    if (pid_ > 0 && !reaped_) {
        kill();
        (void)reap();
    }
    if (fd_ >= 0) ::close(fd_);
    if (request_fd_ >= 0) ::close(request_fd_);
}

bool Child::read_some(std::string& into) {
    char buffer[65536];
    const ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n > 0) into.append(buffer, static_cast<std::size_t>(n));
    return n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN));
}

void Child::kill() {
    if (pid_ > 0 && !reaped_) ::kill(pid_, SIGKILL);
}

int Child::reap() {
    int status = 0;
    if (pid_ > 0 && !reaped_) wait_for(pid_, status);
    reaped_ = true;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    return status;
}

Ended Child::wait(double seconds, const char* step) {
    const trace::Span span(step);
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<long>(seconds * 1000));
    Ended ended;
    std::string message;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) break;
        struct pollfd p = {fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) break;
        if (ready < 0 || !read_some(message)) {  // closed: all it wrote
            ended.bytes = std::move(message);
            break;
        }
    }
    if (!ended.bytes) kill();
    ended.status = reap();
    return ended;
}

void in_order(std::size_t count, unsigned jobs, double seconds, const std::function<std::string(std::size_t)>& work,
              const std::function<void(std::size_t, Ended)>& done) {
    std::deque<Child> running;  // children of indexes first .. first + size() - 1
    std::size_t first = 0, next = 0;
    while (first < count) {
        for (; next < count && running.size() < std::max(jobs, 1u); ++next)
            running.emplace_back([&work, next] { return work(next); });
        Ended ended = running.front().started() ? running.front().wait(seconds) : Ended{};
        running.pop_front();
        done(first++, std::move(ended));
    }
}

}  // namespace pith::child
