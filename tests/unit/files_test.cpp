// SPDX-License-Identifier: MIT
#include "core/cpus.hpp"
#include "core/crypto.hpp"
#include "core/error.hpp"
#include "core/files.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string make_dir() {
    char name[] = "/tmp/pith-files-XXXXXX";
    REQUIRE(::mkdtemp(name) != nullptr);
    return name;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

long entries(const std::string& dir) {
    return std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator());
}

}  // namespace

TEST_CASE("AtomicFile: all or nothing, and the kernel copy of a prefix", "[files]") {
    const std::string dir = make_dir();
    const std::string input = dir + "/in.bin";
    std::string bytes;
    for (int i = 0; i < 300000; ++i) bytes += static_cast<char>(i * 7);
    pith::write_file_atomically(input, {bytes});
    CHECK(slurp(input) == bytes);

    SECTION("copy_from appends a prefix of another file, then write() appends more") {
        {
            pith::AtomicFile out(dir + "/out.bin");
            REQUIRE(out.copy_from(pith::InputFile(input), 123457));
            out.write("tail");
            out.commit();
        }
        CHECK(slurp(dir + "/out.bin") == bytes.substr(0, 123457) + "tail");
        CHECK(entries(dir) == 2);  // no temporary file left
    }
    SECTION("without commit() nothing appears") {
        {
            pith::AtomicFile out(dir + "/never.bin");
            out.write("data");
        }
        CHECK(entries(dir) == 1);
    }
    SECTION("an InputFile is a regular file that exists, and stays the file it was") {
        CHECK_THROWS_AS(pith::InputFile(dir + "/missing.bin"), pith::Error);
        CHECK_THROWS_AS(pith::InputFile(dir), pith::Error);  // a directory: not a regular file
        const pith::InputFile in(input);
        pith::write_file_atomically(input, {"replaced"});  // renamed over the path
        pith::AtomicFile out(dir + "/out2.bin");
        REQUIRE(out.copy_from(in, 1000));
        out.commit();
        CHECK(slurp(dir + "/out2.bin") == bytes.substr(0, 1000));
    }
    SECTION("copy_from past the end of the input fails, and so does commit()") {
        pith::AtomicFile out(dir + "/out3.bin");
        CHECK_FALSE(out.copy_from(pith::InputFile(input), bytes.size() + 10));
        CHECK_THROWS_AS(out.commit(), pith::Error);
        CHECK_FALSE(std::filesystem::exists(dir + "/out3.bin"));
    }
    SECTION("no_overwrite refuses an existing file") {
        pith::AtomicFile out(input, std::nullopt, true);
        out.write("other");
        CHECK_THROWS_AS(out.commit(), pith::Error);
        CHECK(slurp(input) == bytes);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("OtherCpus: the CPUs a helper may start on, this one left out", "[files]") {
    cpu_set_t allowed;
    REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
    // Pinned to one CPU, the process has none to spare; pinned to two, the other one, which a
    // child then gets (none where pith cannot pin work: PITH_PORTABLE).
    std::vector<int> ids;
    for (int i = 0; i < CPU_SETSIZE && ids.size() < 2; ++i)
        if (CPU_ISSET(i, &allowed)) ids.push_back(i);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(ids[0], &one);
    REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
    CHECK_FALSE(pith::OtherCpus().any());
    if (ids.size() == 2) {
        cpu_set_t two = one;
        CPU_SET(ids[1], &two);
        REQUIRE(sched_setaffinity(0, sizeof two, &two) == 0);
        const pith::OtherCpus others;
        CHECK(others.any() == pith::OtherCpus::can_pin());
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            ::pause();
            ::_exit(0);
        }
        others.give_to(child);
        cpu_set_t got;
        REQUIRE(sched_getaffinity(child, sizeof got, &got) == 0);
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        if (others.any()) {
            CHECK(CPU_COUNT(&got) == 1);
            CHECK((CPU_ISSET(ids[0], &got) || CPU_ISSET(ids[1], &got)));
        } else {
            CHECK(CPU_EQUAL(&got, &two));  // left where its parent runs
        }
    } else {
        WARN("one CPU only: the two-CPU case is not checked");
    }
    REQUIRE(sched_setaffinity(0, sizeof allowed, &allowed) == 0);
}

TEST_CASE("PrefixSha256: the digest of any prefix, hashed ahead on a thread", "[files]") {
    const std::string dir = make_dir();
    auto digests_match = [&](std::size_t size, std::initializer_list<std::size_t> lengths) {
        std::string bytes;
        for (std::size_t i = 0; i < size; ++i) bytes += static_cast<char>((i * 131) >> 3);
        const std::string path = dir + "/in-" + std::to_string(size) + ".bin";
        pith::write_file_atomically(path, {bytes});
        const int fd = ::open(path.c_str(), O_RDONLY);
        REQUIRE(fd >= 0);
        pith::PrefixSha256 hash(fd);
        ::close(fd);  // the hasher keeps its own mapping
        for (std::size_t length : lengths) {
            INFO("file " << size << " bytes, prefix " << length);
            CHECK(hash.digest(length) == pith::sha256(std::string_view(bytes).substr(0, length)));
        }
        CHECK_THROWS_AS(hash.digest(size + 1), pith::Error);
    };
    const std::size_t chunk = 256 << 10;
    digests_match(1000, {0, 1, 999, 1000});                                           // hashed in digest()
    digests_match(9 * chunk + 17, {0, chunk - 1, chunk, chunk + 1, 9 * chunk, 9 * chunk + 17, 3 * chunk + 5});  // on the thread
    {
        std::string bytes(16 << 20, 'x');  // destroyed before the thread is done: it stops, nothing leaks
        pith::write_file_atomically(dir + "/big.bin", {bytes});
        const int fd = ::open((dir + "/big.bin").c_str(), O_RDONLY);
        REQUIRE(fd >= 0);
        { pith::PrefixSha256 early(fd); }
        ::close(fd);
    }
    std::filesystem::remove_all(dir);
}
