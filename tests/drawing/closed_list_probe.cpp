// SPDX-License-Identifier: MIT
// closed_list_probe: what page 1 of each PDF draws with that pith's closed list lacks
// (drawing::unlisted_constructs), one line a file: "FILE<TAB>construct; construct" ("-" when
// everything is listed, "error: ..." when the file cannot be read). Used by tests/drawing.cmake.
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
            std::string line;
            if (file.page_count() > 0)
                for (const std::string& what : pith::drawing::unlisted_constructs(file, 0)) line += (line.empty() ? "" : "; ") + what;
            std::cout << (line.empty() ? "-" : line) << '\n';
        } catch (const pith::Error& e) {
            std::cout << "error: " << e.what() << '\n';
        }
    }
    return 0;
}
