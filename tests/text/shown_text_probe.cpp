// pith::pdf::shown_text of one page, for tests/text/shown_text_suite.py.
//   shown_text_probe FILE.pdf PAGE           prints the text (PAGE 1-based)
//   shown_text_probe FILE.pdf PAGE TITLE...  for each TITLE, one line: what title::compare makes
//                                            of it with that text, then with poppler's text of the
//                                            page ("matches", "differs" or "none")
// Exit 0; 3 when shown_text gives no text; 2 when the PDF cannot be read.
#include "core/error.hpp"
#include "pdf/text.hpp"
#include "verify/title.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: shown_text_probe FILE.pdf PAGE [TITLE]\n");
        return 2;
    }
    try {
        pith::pdf::File file = pith::pdf::File::open(argv[1]);
        const pith::pdf::Page page = file.page(std::atoi(argv[2]) - 1);
        const auto shown = pith::pdf::shown_text(file, page, pith::title::kMaxTextBytes);
        if (!shown) return 3;
        // as verify reads page 1 when its content alone does not show the title
        const std::optional<std::string> text = pith::pdf::with_annotations(file, page, *shown, pith::title::kMaxTextBytes);
        if (argc < 4) {
            std::cout << *text;
            return 0;
        }
        const auto poppler = pith::title::page_text(file.bytes(), std::atoi(argv[2]) - 1);
        using pith::title::Outcome;
        auto word = [](Outcome o) { return o == Outcome::Matches ? "matches" : o == Outcome::Differs ? "differs" : "none"; };
        for (int i = 3; i < argc; ++i)
            std::cout << word(pith::title::compare(argv[i], "", *text).outcome) << " "
                      << word(pith::title::compare(argv[i], "", poppler).outcome) << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
}
