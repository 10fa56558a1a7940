// SPDX-License-Identifier: MIT
#pragma once
// The C interface between pith (src/page/pixels.cpp) and pith-text.so
// (src/poppler/page_text_module.cpp) for the pixels of one region of a page, rendered as a viewer
// shows it: plain Splash, annotations drawn by their flags, optional content in its default
// state, transfer functions, soft masks and blend modes applied (doc/visible.md, "The title from
// pixels"). Plain C types only, as for page_words_abi.h.
#include <cstddef>

struct PithRegionPixels {
    int columns, rows;         // of `rgb`
    const unsigned char* rgb;  // rows * columns * 3, row 0 at the top
    double dpi;                // resolution of the render
    double x0, y0;             // points: the page position of the top-left pixel's corner (as displayed, origin top-left)
    int rendered;              // 0 when rendering was cut short (time limit)
};

#define PITH_PAGE_REGION_SYMBOL "pith_page_region_v1"
// Renders the part x0..x1, y0..y1 (points, page as displayed: CropBox and /Rotate, origin at the
// top left) of page `index` (0-based) at `dpi` and calls pixels once. Returns 1 when it did, 0
// when poppler cannot open or unlock the file, the page does not exist or the region is empty.
typedef int (*PithPageRegionFn)(const char* pdf, std::size_t size, int index, const char* password, double x0, double y0,
                                double x1, double y1, double dpi, double seconds,
                                void (*pixels)(void*, const PithRegionPixels*), void* context);
