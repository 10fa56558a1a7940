#pragma once
// Whole-file input and output: never a partial output file.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace pith {

// Reads a file, or standard input for "-"; refuses more than `max_size` bytes.
std::string read_file_or_stdin(const std::string& path, std::size_t max_size = 256u << 20);

// Writes `pieces`, one after another, to a hidden temporary file in the directory of
// `path`, then renames it over `path` (or links it, with `no_overwrite`, which fails when
// `path` exists): other programs never see a partial file, and on any error nothing is
// left behind. `path` keeps its permissions when it exists; a new file gets `mode`
// (default 0666 less the umask). No fsync: like cp, qpdf and exiftool, durability across
// a power loss is the file system's. "-" is standard output.
void write_file_atomically(const std::string& path, std::initializer_list<std::string_view> pieces,
                           std::optional<mode_t> mode = std::nullopt, bool no_overwrite = false);

bool file_exists(const std::string& path);

// Writes all of `data` to a file descriptor, retrying short writes and EINTR.
bool write_all(int fd, std::string_view data);

}  // namespace pith
