// SPDX-License-Identifier: MIT
#pragma once
// Whole-file input and output: never a partial output file.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace pith {

// A regular file open for reading, closed when this goes. Readers that share it (the PDF
// parser, the hash of its bytes, the kernel copy of them) all read the same file, even if the
// path is renamed over meanwhile. A FIFO, a directory or a device is refused, never waited on.
// "-" is standard input, read to its end into an unnamed temporary file (at most 4 GiB).
class InputFile {
public:
    explicit InputFile(const std::string& path);  // throws pith::Error naming `path`
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    ~InputFile();
    int fd() const { return fd_; }

private:
    int fd_ = -1;
};

// Reads a file, or standard input for "-"; refuses more than `max_size` bytes.
std::string read_file_or_stdin(const std::string& path, std::size_t max_size = 256u << 20);

// A file that appears at `path` complete or not at all. Writes go to a hidden temporary file
// in the directory of `path`; commit() renames it over `path` (or links it, with
// `no_overwrite`, which fails when `path` exists); without a commit it is removed. `path`
// keeps its permissions when it exists; a new file gets `mode` (default 0666 less the umask).
// No fsync: like cp, qpdf and exiftool, durability across a power loss is the file system's.
// write() never throws (it may run on another thread): its first error is raised by commit().
class AtomicFile {
public:
    explicit AtomicFile(const std::string& path, std::optional<mode_t> mode = std::nullopt, bool no_overwrite = false);
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();
    void write(std::string_view data);
    // Appends the first `length` bytes of `in`, copied inside the kernel (copy_file_range, as
    // cp does: the data never passes through pith's memory; elsewhere pread and write). False,
    // with nothing written, where the kernel cannot do that.
    bool copy_from(const InputFile& in, std::uint64_t length);
    void commit();
    // The temporary file, open for reading and writing; false after a failed write.
    int fd() const { return fd_; }
    bool good() const { return error_ == 0; }

private:
    std::string path_, tmp_;
    int fd_ = -1;
    int error_ = 0;
    bool no_overwrite_ = false;
};

// `pieces`, one after another, through an AtomicFile; "-" is standard output.
void write_file_atomically(const std::string& path, std::initializer_list<std::string_view> pieces,
                           std::optional<mode_t> mode = std::nullopt, bool no_overwrite = false);

bool file_exists(const std::string& path);

// Writes all of `data` to a file descriptor, retrying short writes and EINTR.
bool write_all(int fd, std::string_view data);

}  // namespace pith
