// SPDX-License-Identifier: MIT
#pragma once
// Work done in a child process with limits, its result read from a pipe: the one home of fork,
// the pipe, resource limits, the wall-clock limit and reaping, for pith batch's workers and for
// the children that read a page with poppler or Tesseract. What the limits are and what a crash
// means is each caller's policy.
#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace pith::child {

// Limits a child sets on itself (limit()). Zero: no limit.
struct Limits {
    unsigned long cpu_seconds = 0;  // CPU time: SIGXCPU after this many seconds ...
    unsigned long cpu_grace = 1;    // ... and SIGKILL this many seconds later
    unsigned long long memory = 0;  // bytes of address space (none under AddressSanitizer, which reserves terabytes)
    bool beyond_inherited = false;  // `memory` on top of the address space the child inherited
};

// In the child: sets `limits` on this process. The inherited address space is read from
// /proc/self/statm; where there is none it counts as nothing.
void limit(const Limits& limits);

// How a child ended.
struct Ended {
    std::optional<std::string> bytes;  // all it wrote; nullopt: killed at the wall-clock limit
    int status = 0;                    // as waitpid() gives it
    bool exited_cleanly() const;       // exited with status 0
    int signal() const;                // the signal that ended it, 0 when it exited
    int exit_code() const;             // its exit status, -1 when a signal ended it
};

// A forked child. The child runs `work` and writes what it returns to the pipe, then exits 0
// (1 when the write fails, or `work` throws: nothing that throws crosses back into the parent's
// code). `forked`, when given, runs in both processes right after fork with the child's pid.
class Child {
public:
    using Work = std::function<std::string()>;
    Child() = default;
    explicit Child(const Work& work, const std::function<void(pid_t)>& forked = {});
    // A child told its work after it starts: it runs `prepare` (what it can do before it knows,
    // such as loading a library) while the parent works out the request, then `task` on what
    // send() gives it. One never told is killed with its Child, and exits, writing nothing,
    // when the parent dies.
    using Task = std::function<std::string(const std::string& request)>;
    Child(const std::function<void()>& prepare, const Task& task);
    Child(Child&& other) noexcept;
    Child& operator=(Child&& other) noexcept;
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    ~Child();  // kills and reaps a child still running

    bool started() const { return pid_ > 0 && !reaped_; }  // started, and not reaped yet
    const std::string& error() const { return error_; }  // when not started: which call failed, and why
    pid_t pid() const { return pid_; }
    int fd() const { return fd_; }  // the pipe's read end, for a caller that polls many children

    // Everything the child writes until it closes the pipe, within `seconds` of wall-clock
    // time (else it is killed), then reaps it. The wait is the trace's step `step` (core/trace).
    Ended wait(double seconds, const char* step = "child/wait");

    // For a caller polling fd(): appends what can be read now to `into`; false once the pipe is
    // closed (the child is done, or dead).
    bool read_some(std::string& into);
    // The request of a child started with a Task, once; false when the child is gone.
    bool send(std::string_view request);
    void kill();  // SIGKILL, while it is not reaped
    int reap();   // waits for it to end, closes the pipe; waitpid()'s status

private:
    pid_t pid_ = -1;
    int fd_ = -1;
    int request_fd_ = -1;  // the write end of a Task child's request pipe, until send()
    bool reaped_ = false;
    std::string error_;
};

// Runs work(0) .. work(count - 1), each in a child of its own, at most `jobs` at a time, and
// hands each child's end to `done` in index order, each as soon as it and those before it are in.
// A child that could not start, or ran longer than `seconds` (and was killed), has no bytes; one
// that crashed did not exit cleanly.
void in_order(std::size_t count, unsigned jobs, double seconds, const std::function<std::string(std::size_t)>& work,
              const std::function<void(std::size_t, Ended)>& done);

}  // namespace pith::child
