// SPDX-License-Identifier: MIT
#pragma once
// A scratch folder for one test case, removed with everything in it when the case ends.
#include <stdlib.h>

#include <filesystem>
#include <string>

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string t = (std::filesystem::temp_directory_path() / "pith-test-XXXXXX").string();
        path = ::mkdtemp(t.data());
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string operator/(const char* name) const { return (path / name).string(); }
};
