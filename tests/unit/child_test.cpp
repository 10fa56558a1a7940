// SPDX-License-Identifier: MIT
// core/child: work in a forked child with limits, its result read from a pipe.
#include "core/child.hpp"
#include "core/sanitizer.hpp"

#include <catch2/catch.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

using pith::child::Child;
using pith::child::Ended;

TEST_CASE("child: what the child returns reaches the parent", "[child]") {
    Child c([] { return std::string(200000, 'x') + "end"; });  // more than a pipe holds at once
    REQUIRE(c.started());
    const Ended e = c.wait(60);
    REQUIRE(e.bytes);
    CHECK(e.bytes->size() == 200003);
    CHECK(e.bytes->substr(200000) == "end");
    CHECK(e.exited_cleanly());
    CHECK(e.signal() == 0);
    CHECK_FALSE(c.started());  // reaped
}

TEST_CASE("child: a crash is reported with its signal", "[child]") {
    Child c([]() -> std::string {
        ::signal(SIGABRT, SIG_DFL);  // not Catch's handler, inherited from the test process
        std::abort();
    });
    const Ended e = c.wait(60);
    REQUIRE(e.bytes);  // it closed the pipe (by dying), within the limit
    CHECK(e.bytes->empty());
    CHECK_FALSE(e.exited_cleanly());
    CHECK(e.signal() == SIGABRT);
    CHECK(e.exit_code() == -1);
}

TEST_CASE("child: an exception in the child stays in the child", "[child]") {
    Child c([]() -> std::string { throw std::runtime_error("no"); });
    const Ended e = c.wait(60);
    REQUIRE(e.bytes);
    CHECK(e.exit_code() == 1);
    CHECK(e.signal() == 0);
}

TEST_CASE("child: a child past its memory limit cannot allocate", "[child]") {
#ifdef PITH_ADDRESS_SANITIZER
    SKIP("no address-space limit under AddressSanitizer");
#endif
    // 64 MiB beyond what it inherited; it asks for 512 MiB, touching every page.
    Child c([] {
        pith::child::limit({0, 1, 64ull << 20, true});
        std::vector<std::unique_ptr<char[]>> hog;
        try {
            for (int i = 0; i < 32; ++i) {
                hog.emplace_back(new char[16u << 20]);
                std::memset(hog.back().get(), 1, 16u << 20);
            }
        } catch (const std::bad_alloc&) {
            return "refused after " + std::to_string(hog.size()) + " blocks";
        }
        return std::string("allocated all");
    });
    const Ended e = c.wait(60);
    REQUIRE(e.bytes);
    CHECK(e.exited_cleanly());
    CHECK(e.bytes->rfind("refused after ", 0) == 0);
    // and the same child without the limit allocates it all: the limit, not the machine, refused
    Child unlimited([] {
        std::vector<std::unique_ptr<char[]>> hog;
        for (int i = 0; i < 32; ++i) hog.emplace_back(new char[16u << 20]);
        return std::string("allocated all");
    });
    CHECK(unlimited.wait(60).bytes == std::optional<std::string>("allocated all"));
}

TEST_CASE("child: a child over its CPU time gets SIGXCPU", "[child]") {
    Child c([]() -> std::string {
        pith::child::limit({1, 5, 0, false});
        for (volatile unsigned long i = 0;; i = i + 1) {
        }
    });
    const Ended e = c.wait(120);
    REQUIRE(e.bytes);
    CHECK(e.signal() == SIGXCPU);
}

TEST_CASE("child: a child that hangs past the wall-clock limit is killed", "[child]") {
    Child c([]() -> std::string {
        for (;;) ::pause();
    });
    const Ended e = c.wait(0.2);
    CHECK_FALSE(e.bytes);  // nothing: not finished
    CHECK(e.signal() == SIGKILL);
    CHECK_FALSE(c.started());
}

TEST_CASE("child: polled by the caller, killed and reaped", "[child]") {
    Child c([]() -> std::string {
        for (;;) ::pause();
    });
    REQUIRE(c.started());
    struct pollfd p = {c.fd(), POLLIN, 0};
    CHECK(::poll(&p, 1, 100) == 0);  // it has written nothing yet, and not ended
    std::string got;
    c.kill();
    REQUIRE(::poll(&p, 1, 60000) == 1);
    CHECK_FALSE(c.read_some(got));  // the pipe closed with the child
    CHECK(got.empty());
    const int status = c.reap();
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
    CHECK(c.pid() > 0);  // still names it, for the log
}

TEST_CASE("child: a child not waited for is killed and reaped with its Child", "[child]") {
    pid_t pid = -1;
    {
        Child c([]() -> std::string {
            for (;;) ::pause();
        });
        pid = c.pid();
        REQUIRE(pid > 0);
        Child moved(std::move(c));
        CHECK_FALSE(c.started());
        CHECK(moved.pid() == pid);
    }
    CHECK(::kill(pid, 0) == -1);  // gone, and reaped (not a zombie)
}

TEST_CASE("child: a child told its work after it starts", "[child]") {
    int ready[2];
    REQUIRE(::pipe(ready) == 0);
    // More than a pipe holds at once, and a newline in it: the request is framed by its length.
    const std::string request = "line\n" + std::string(200000, 'r');
    Child c([&] { (void)!::write(ready[1], "p", 1); }, [](const std::string& asked) { return "did " + std::to_string(asked.size()) + asked.substr(0, 5); });
    REQUIRE(c.started());
    char got = 0;
    REQUIRE(::read(ready[0], &got, 1) == 1);  // it prepared before anything was sent
    CHECK(got == 'p');
    CHECK(c.send(request));
    CHECK_FALSE(c.send(request));  // once
    const Ended e = c.wait(60);
    REQUIRE(e.bytes);
    CHECK(*e.bytes == "did 200005line\n");
    CHECK(e.exited_cleanly());
    ::close(ready[0]);
    ::close(ready[1]);
}

TEST_CASE("child: a child never told its work ends with its Child; one that is gone refuses the request", "[child]") {
    pid_t pid = -1;
    {
        Child c([] {}, [](const std::string&) { return std::string("worked"); });
        pid = c.pid();
        REQUIRE(pid > 0);
    }
    CHECK(::kill(pid, 0) == -1);  // killed and reaped, though it waited for a request

    Child gone([] { ::_exit(3); }, [](const std::string&) { return std::string("worked"); });
    REQUIRE(gone.started());
    struct pollfd p = {gone.fd(), POLLIN, 0};
    REQUIRE(::poll(&p, 1, 60000) == 1);  // it ended before its request
    CHECK_FALSE(gone.send(std::string(200000, 'x')));  // EPIPE, and no SIGPIPE ends this process
    const Ended e = gone.wait(60);
    REQUIRE(e.bytes);
    CHECK(e.exit_code() == 3);
}
