#include "core/files.hpp"

#include "core/error.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

namespace pith {

std::string read_file_or_stdin(const std::string& path, std::size_t max_size) {
    const std::string name = path == "-" ? "standard input" : path;
    std::ifstream file;
    if (path != "-") {
        file.open(path, std::ios::binary);
        if (!file) throw Error(path + ": cannot open: " + std::strerror(errno));
    }
    std::istream& in = path == "-" ? std::cin : file;
    std::string data;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        data.append(buf, static_cast<std::size_t>(in.gcount()));
        if (data.size() > max_size) throw Error(name + ": larger than " + std::to_string(max_size >> 20) + " MiB");
    }
    if (in.bad()) throw Error(name + ": read error");
    return data;
}

void write_file_atomically(const std::string& path, const std::string& data, mode_t mode, bool no_overwrite) {
    if (path == "-") {
        if (std::fwrite(data.data(), 1, data.size(), stdout) != data.size() || std::fflush(stdout) != 0)
            throw Error("standard output: write error");
        return;
    }
    std::string tmp = path + ".pith-tmp-XXXXXX";
    int fd = ::mkstemp(tmp.data());
    if (fd < 0) throw Error(path + ": cannot create: " + std::strerror(errno));
    bool ok = ::fchmod(fd, mode) == 0 &&
              ::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size()) && ::fsync(fd) == 0;
    ok = ::close(fd) == 0 && ok;
    if (ok) ok = no_overwrite ? ::link(tmp.c_str(), path.c_str()) == 0 : ::rename(tmp.c_str(), path.c_str()) == 0;
    int saved = errno;
    ::unlink(tmp.c_str());  // after rename it no longer exists; after link it is the spare name
    if (!ok)
        throw Error(path + (no_overwrite && saved == EEXIST ? ": already exists; pith will not overwrite it"
                                                            : ": cannot write: " + std::string(std::strerror(saved))));
}

bool file_exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

}  // namespace pith
