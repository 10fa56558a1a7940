// SPDX-License-Identifier: MIT
// What the Catch2 cases need from outside the build, required: a tool .ci/deps installs, and the
// real-PDF corpus: $PITH_TEST_CORPUS, else the one tests/CMakeLists.txt picked (the shared corpus
// beside the checkout, else the committed subset tests/corpus/files). Nothing is skipped: a tool,
// a corpus or a corpus file a case names that is not there fails the case.
#pragma once

#include <catch2/catch.hpp>

#include "pdf_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace corpus {

inline std::filesystem::path dir() {
    const char* env = std::getenv("PITH_TEST_CORPUS");
    return env && *env ? env : PITH_TEST_CORPUS;
}

// The committed subset carries its licences (tests/corpus/manifest.py decides the same way).
inline bool committed() { return std::filesystem::exists(dir() / "LICENSES.tsv"); }

// The count a loop expects in this corpus, stated beside the loop.
inline int expected(int shared, int in_committed) { return committed() ? in_committed : shared; }

// Bytes of a corpus file; a file that is not there fails the test.
inline std::string file(const std::string& rel) {
    const std::filesystem::path p = dir() / rel;
    std::ifstream in(p, std::ios::binary);
    if (!in)
        FAIL("corpus file missing: " << p.string() << " (the corpus is ../shared/corpus, $PITH_TEST_CORPUS or "
                                     << "tests/corpus/files)");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The rows of MANIFEST.tsv (tab-separated columns, the header left out); no MANIFEST fails the test.
inline std::vector<std::vector<std::string>> manifest() {
    std::ifstream in(dir() / "MANIFEST.tsv");
    if (!in) FAIL("no corpus at " << dir().string() << " (MANIFEST.tsv)");
    std::vector<std::vector<std::string>> rows;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::vector<std::string> cols;
        std::stringstream row(line);
        for (std::string c; std::getline(row, c, '\t');) cols.push_back(c);
        if (!cols.empty()) rows.push_back(cols);
    }
    return rows;
}

}  // namespace corpus

// qpdf checks and encrypts the unit tests' files.
inline void require_qpdf() {
    if (!pdftest::have_qpdf()) FAIL("qpdf not installed (Debian: qpdf; .ci/deps installs it)");
}
