// SPDX-License-Identifier: MIT
// pith batch: the temporary files atomic writers leave when a worker is killed mid-write.
#include "batch/internal.hpp"

#include <dirent.h>
#include <unistd.h>

#include <map>
#include <set>

namespace pith::batch {

std::size_t remove_temporaries(const std::string& output) {
    std::string dir = ".", base = output;
    if (auto slash = output.find_last_of('/'); slash != std::string::npos) {
        dir = slash == 0 ? "/" : output.substr(0, slash);
        base = output.substr(slash + 1);
    }
    std::size_t removed = 0;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return 0;
    const std::string a = "." + base + ".pith-", b = base + ".pith-tmp-";
    std::vector<std::string> doomed;
    while (dirent* ent = ::readdir(d)) {
        std::string name = ent->d_name;
        if ((name.size() == a.size() + 6 && name.compare(0, a.size(), a) == 0) ||
            (name.size() == b.size() + 6 && name.compare(0, b.size(), b) == 0))
            doomed.push_back(name);
    }
    ::closedir(d);
    for (const auto& name : doomed)
        if (::unlink((dir + "/" + name).c_str()) == 0) ++removed;
    return removed;
}

// Scans each output directory once and removes what killed workers of an earlier run left.
std::size_t remove_stale_temporaries(const Manifest& m, Mode mode, const std::string& default_record) {
    std::map<std::string, std::set<std::string>> by_dir;
    for (const auto& job : m.jobs) {
        Entry e = parse_entry(std::string_view(m.text.data() + job.offset, job.length), job.line, m.source, mode, default_record);
        std::string dir = ".", base = e.output;
        if (auto slash = e.output.find_last_of('/'); slash != std::string::npos) {
            dir = slash == 0 ? "/" : e.output.substr(0, slash);
            base = e.output.substr(slash + 1);
        }
        by_dir[dir].insert(base);
    }
    std::size_t removed = 0;
    for (const auto& [dir, bases] : by_dir) {
        DIR* d = ::opendir(dir.c_str());
        if (!d) continue;
        std::vector<std::string> doomed;
        while (dirent* ent = ::readdir(d)) {
            std::string name = ent->d_name;
            if (name.size() < 8) continue;
            std::string stem = name.substr(0, name.size() - 6);  // without XXXXXX
            if (stem.size() > 7 && stem[0] == '.' && stem.compare(stem.size() - 6, 6, ".pith-") == 0 &&
                bases.count(stem.substr(1, stem.size() - 7)))
                doomed.push_back(name);
            else if (stem.size() > 10 && stem.compare(stem.size() - 10, 10, ".pith-tmp-") == 0 &&
                     bases.count(stem.substr(0, stem.size() - 10)))
                doomed.push_back(name);
        }
        ::closedir(d);
        for (const auto& name : doomed)
            if (::unlink((dir + "/" + name).c_str()) == 0) ++removed;
    }
    return removed;
}

}  // namespace pith::batch
