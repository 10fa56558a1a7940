// SPDX-License-Identifier: MIT
#pragma once
// The C interface between pith (src/page/visible.cpp) and pith-text.so
// (src/poppler/page_text_module.cpp) for a quick look at a page: its words as laid out and what it
// paints at low resolution, from one render that paints each glyph as its box and so loads no
// font. pith stamp uses it for its title check and to place the badge where the page is free.
// Plain C types only, as for page_words_abi.h.
#include <cstddef>

#include "page_words_abi.h"

struct PithPageInk {
    double width, height;       // points, page as displayed (CropBox, /Rotate)
    int columns, rows;          // of `ink`
    const unsigned char* ink;   // rows * columns, row 0 at the top: 255 - the darkest channel (0 = white paper)
    int rendered;               // 0 when rendering was cut short (time limit): `ink` is incomplete
};

#define PITH_PAGE_GLANCE_SYMBOL "pith_page_glance_v2"
// Lays out page `index` (0-based) and renders it as a viewer shows it (annotations included) at
// `dpi`, glyphs as boxes; calls ink once, page once, then word for each word in reading order
// (its ink: the share of its box that painting the glyph boxes changed, against a render
// without them; shown 1, crowded 0). With page and word null: the ink alone (no layout, one
// render). Returns 1 when it did,
// 0 when poppler cannot open or unlock the file or the page does not exist.
typedef int (*PithPageGlanceFn)(const char* pdf, std::size_t size, int index, const char* password, double dpi,
                                double seconds, void (*ink)(void*, const PithPageInk*),
                                void (*page)(void*, const PithPageFacts*), void (*word)(void*, const PithWordFacts*),
                                void* context);
