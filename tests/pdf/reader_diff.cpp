// SPDX-License-Identifier: MIT
// reader_diff: for each PDF named on stdin ("PATH<TAB>PASSWORD" lines), one JSON line with the
// pages pith's reader (src/pdf) and poppler's core read: their count, order and objects.
// tests/pdf/reader_diff.py compares them; this program only reports.
#include "reader_diff.hpp"

#include "core/error.hpp"
#include "pdf/file.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

// Page `index`'s object, or -1 -1 when pith counts the page but cannot reach it (as poppler
// counts a page by /Count that it cannot load).
PageRef pith_page(pith::pdf::File& file, int index) {
    try {
        const auto ref = file.page(index).ref;
        return PageRef{static_cast<int>(ref.ObjectNumber()), static_cast<int>(ref.GenerationNumber())};
    } catch (const pith::Error&) {
        return PageRef{-1, -1};
    }
}

Pages pith_pages(const std::string& bytes, const std::string& password) {
    Pages out;
    try {
        pith::pdf::OpenOptions options;
        options.password = password;
        options.password_given = !password.empty();
        auto file = pith::pdf::File::from_bytes(bytes, "<file>", options);
        const int n = file.page_count();
        for (int i = 0; i < n; ++i) out.refs.push_back(pith_page(file, i));
    } catch (const std::exception& e) {
        out.error = e.what();
        out.refs.clear();
    }
    return out;
}

namespace {

nlohmann::json to_json(const Pages& pages) {
    if (!pages.error.empty()) return {{"error", pages.error}};
    nlohmann::json refs = nlohmann::json::array();
    for (const PageRef& r : pages.refs) refs.push_back({r.num, r.gen});
    return {{"pages", refs}};
}

}  // namespace

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        const std::size_t tab = line.find('\t');
        const std::string path = line.substr(0, tab);
        const std::string password = tab == std::string::npos ? "" : line.substr(tab + 1);
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            std::cerr << "reader_diff: cannot read " << path << "\n";
            return 2;
        }
        std::ostringstream bytes;
        bytes << in.rdbuf();
        const nlohmann::json answer = {{"file", path},
                                       {"pith", to_json(pith_pages(bytes.str(), password))},
                                       {"poppler", to_json(poppler_pages(bytes.str(), password))}};
        std::cout << answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n" << std::flush;
    }
    return 0;
}
