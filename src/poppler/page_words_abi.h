// SPDX-License-Identifier: MIT
#pragma once
// The C interface between pith (src/page/visible.cpp) and the module pith-text.so
// (src/poppler/page_text_module.cpp) for page_words(). Plain C types only: the module is
// loaded with dlopen(), and its C++ runtime and poppler stay on its side.
#include <cstddef>

// What the module measured about one word; pith::visible decides from these facts.
struct PithWordFacts {
    const char* text;       // UTF-8, not NUL-terminated
    std::size_t text_size;
    double x0, y0, x1, y1;  // points, page as displayed (CropBox, /Rotate), origin top-left
    double size;            // font size in points after all matrices
    int rotation;           // quarter turns of its baseline as displayed: 0 reads left to right
    int line_end;           // last word of its line in reading order
    double ink;             // fraction of the box's pixels that differ between the renders with and without text
    double ink_pixels;      // how many pixels that is
    double least_char_ink;  // the smallest such fraction over the boxes of the word's characters
    double shown;           // share of the word's own glyph pixels (drawn alone, black) among those that changed
    int crowded;            // its box overlaps words of every group: no ink measured
};

struct PithPageFacts {
    double width, height;  // points, as displayed
    double dpi;            // resolution of the two renders
    int rendered;          // 0 when rendering was cut short (time limit): `ink` means nothing then
    int attributed;        // 1: a word's ink is its own glyphs' (renders leave out groups of words
                           // whose boxes do not overlap); 0: ink of all text in its box
};

// Symbol name carries the version of these structs.
#define PITH_PAGE_WORDS_SYMBOL "pith_page_words_v4"
// Returns 1 when the page was laid out and rendered (page(), then word() for each word in
// reading order, have been called), 0 when poppler cannot open or unlock the file or the page
// does not exist.
typedef int (*PithPageWordsFn)(const char* pdf, std::size_t size, int index, const char* password,
                               double seconds, void (*page)(void*, const PithPageFacts*),
                               void (*word)(void*, const PithWordFacts*), void* context);
