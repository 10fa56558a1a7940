// SPDX-License-Identifier: MIT
#include "core/files.hpp"

#include "core/error.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <vector>

namespace pith {

namespace {

// Standard input copied into a temporary file that has no name (unlinked at once): readers of an
// InputFile map it and read it at offsets, which a pipe cannot do.
int copy_of_standard_input() {
    const char* tmpdir = std::getenv("TMPDIR");
    std::string name = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/pith-stdin-XXXXXX";
    const int fd = ::mkstemp(name.data());
    if (fd < 0) throw Error("standard input: cannot create a temporary file (" + std::string(std::strerror(errno)) + ")", err::output_unwritable);
    ::unlink(name.c_str());
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    constexpr std::uint64_t kMax = std::uint64_t{4} << 30;
    std::uint64_t total = 0;
    std::vector<char> buffer(1 << 16);
    for (ssize_t n; (n = ::read(STDIN_FILENO, buffer.data(), buffer.size())) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        const int saved = errno;
        if (n < 0 || (total += static_cast<std::uint64_t>(n)) > kMax ||
            !write_all(fd, std::string_view(buffer.data(), static_cast<std::size_t>(n)))) {
            ::close(fd);
            throw Error(n < 0 ? "standard input: read error (" + std::string(std::strerror(saved)) + ")"
                        : total > kMax ? std::string("standard input: larger than 4 GiB")
                                       : "standard input: cannot write a temporary copy (" + std::string(std::strerror(errno)) + ")", err::input_unreadable);
        }
    }
    return fd;
}

// One wording for a file that cannot be opened; a missing one has a code of its own (the path is wrong).
Error cannot_open(const std::string& path, int error) {
    return Error(path + ": cannot open (" + std::strerror(error) + ")", error == ENOENT ? err::input_not_found : err::input_unreadable);
}

}  // namespace

InputFile::InputFile(const std::string& path) {
    if (path == "-") {
        fd_ = copy_of_standard_input();
        return;
    }
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) throw cannot_open(path, errno);
    struct stat st;
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd_);
        throw Error(path + ": not a regular file", err::input_unreadable);
    }
}

InputFile::~InputFile() { ::close(fd_); }

std::string read_file_or_stdin(const std::string& path, std::size_t max_size) {
    const std::string name = path == "-" ? "standard input" : path;
    std::ifstream file;
    if (path != "-") {
        struct stat st;
        if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw Error(path + ": is a directory", err::input_unreadable);
        file.open(path, std::ios::binary);
        if (!file) throw cannot_open(path, errno);
    }
    std::istream& in = path == "-" ? std::cin : file;
    std::string data;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        data.append(buf, static_cast<std::size_t>(in.gcount()));
        if (data.size() > max_size) throw Error(name + ": larger than " + std::to_string(max_size >> 20) + " MiB", err::input_unreadable);
    }
    if (in.bad()) throw Error(name + ": read error", err::input_unreadable);
    return data;
}

AtomicFile::AtomicFile(const std::string& path, std::optional<mode_t> mode, bool no_overwrite)
    : path_(path), no_overwrite_(no_overwrite) {
    std::string dir = ".", base = path;
    if (auto slash = path.find_last_of('/'); slash != std::string::npos) {
        dir = slash == 0 ? "/" : path.substr(0, slash);
        base = path.substr(slash + 1);
    }
    if (base.empty()) throw Error(path + ": not a file name", err::options_invalid);
    tmp_ = (dir == "/" ? "" : dir) + "/." + base + ".pith-XXXXXX";
    fd_ = ::mkstemp(tmp_.data());
    if (fd_ < 0) throw Error(path + ": cannot create a temporary file in " + dir + ": " + std::strerror(errno), err::output_unwritable);
    struct stat st;
    mode_t final_mode;
    if (::stat(path.c_str(), &st) == 0) {
        final_mode = st.st_mode & 07777;
    } else if (mode) {
        final_mode = *mode;
    } else {
        mode_t mask = ::umask(0);
        ::umask(mask);
        final_mode = 0666 & ~mask;
    }
    if (::fchmod(fd_, final_mode) != 0) error_ = errno;
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) ::close(fd_);
    ::unlink(tmp_.c_str());  // gone after a rename; the spare name after a link; the debris after a failure
}

void AtomicFile::write(std::string_view data) {
    if (!error_ && !write_all(fd_, data)) error_ = errno ? errno : EIO;
}

namespace {
#if PITH_TEST_HOOKS
// Test hook (doc/test-hooks.md): PITH_TEST_STOP_AT_COPY=before|after stops pith (SIGSTOP) just
// before or after it copies the input to the output, so a test can change the input there and
// let it go on (SIGCONT): the race of tests/stamp/input_changing.py, taken on purpose.
void stop_at_copy(const char* when) {
    const char* v = std::getenv("PITH_TEST_STOP_AT_COPY");
    if (v && std::strcmp(v, when) == 0) std::raise(SIGSTOP);
}
#else
void stop_at_copy(const char*) {}
#endif
}  // namespace

bool AtomicFile::copy_from(const InputFile& in, std::uint64_t length) {
    if (error_) return false;
    stop_at_copy("before");
    std::uint64_t copied = 0;
#if PITH_HAVE_COPY_FILE_RANGE
    loff_t from = 0;
    while (copied < length) {
        ssize_t n = ::copy_file_range(in.fd(), &from, fd_, nullptr, length - copied, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        copied += static_cast<std::uint64_t>(n);
    }
#else
    // POSIX: through a buffer, read at an offset so the input's own position is left alone.
    std::vector<char> buffer(1 << 16);
    while (copied < length) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), length - copied));
        ssize_t n = ::pread(in.fd(), buffer.data(), want, static_cast<off_t>(copied));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || !write_all(fd_, std::string_view(buffer.data(), static_cast<std::size_t>(n)))) break;
        copied += static_cast<std::uint64_t>(n);
    }
#endif
    stop_at_copy("after");
    if (copied == length) return true;
    if (copied > 0) error_ = errno ? errno : EIO;  // a partial copy cannot be taken back: commit() fails
    return false;
}

void AtomicFile::commit() {
    int saved = error_;
    if (::close(fd_) != 0 && !saved) saved = errno;
    fd_ = -1;
    if (!saved && (no_overwrite_ ? ::link(tmp_.c_str(), path_.c_str()) : ::rename(tmp_.c_str(), path_.c_str())) != 0)
        saved = errno;
    if (saved)
        throw Error(path_ + (no_overwrite_ && saved == EEXIST ? ": already exists; pith will not overwrite it"
                                                             : ": cannot write: " + std::string(std::strerror(saved))),
                    no_overwrite_ && saved == EEXIST ? err::output_exists : err::output_unwritable);
}

void write_file_atomically(const std::string& path, std::initializer_list<std::string_view> pieces,
                           std::optional<mode_t> mode, bool no_overwrite) {
    if (path == "-") {
        for (std::string_view piece : pieces)
            if (std::fwrite(piece.data(), 1, piece.size(), stdout) != piece.size()) throw Error("standard output: write error", err::output_unwritable);
        if (std::fflush(stdout) != 0) throw Error("standard output: write error", err::output_unwritable);
        return;
    }
    AtomicFile file(path, mode, no_overwrite);
    for (std::string_view piece : pieces) file.write(piece);
    file.commit();
}

bool write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool file_exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

}  // namespace pith
