#pragma once
// Whole-file input and output: never a partial output file.
#include <string>
#include <sys/types.h>

namespace pith {

// Reads a file, or standard input for "-"; refuses more than `max_size` bytes.
std::string read_file_or_stdin(const std::string& path, std::size_t max_size = 256u << 20);

// Writes through a temporary file in the same directory, fsync, then rename
// (or link, with `no_overwrite`, which fails when `path` exists). "-" is standard output.
void write_file_atomically(const std::string& path, const std::string& data, mode_t mode = 0644, bool no_overwrite = false);

bool file_exists(const std::string& path);

}  // namespace pith
