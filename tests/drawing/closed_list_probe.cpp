// SPDX-License-Identifier: MIT
// closed_list_probe: what the document and page 1 of each PDF do or draw with that pith's closed
// list lacks, as stamp and verify say it (drawing::unlisted_on), one line a file:
// "FILE<TAB>what" ("-" when everything is listed, "error: ..." when the file cannot be read).
// Used by tests/drawing.cmake.
//   closed_list_probe FILE...
#include "core/error.hpp"
#include "drawing/closed_list.hpp"
#include "pdf/file.hpp"

#include <iostream>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: closed_list_probe FILE...\n";
        return 64;
    }
    for (int i = 1; i < argc; ++i) {
        std::cout << argv[i] << '\t';
        try {
            pith::pdf::File file = pith::pdf::File::open(argv[i]);
            const std::string what = pith::drawing::unlisted_on(file, {0});
            std::cout << (what.empty() ? "-" : what) << '\n';
        } catch (const pith::Error& e) {
            std::cout << "error: " << e.what() << '\n';
        }
    }
    return 0;
}
