// SPDX-License-Identifier: MIT
#pragma once
// reader_diff: what pith's reader and poppler say a PDF's pages are.
#include <string>
#include <vector>

struct PageRef {
    int num = 0, gen = 0;  // the page dictionary's object number and generation; -1 when unknown
};

struct Pages {
    std::string error;          // non-empty when the reader refused the file
    std::vector<PageRef> refs;  // in page order
};

Pages poppler_pages(const std::string& bytes, const std::string& password);
Pages pith_pages(const std::string& bytes, const std::string& password);
