// SPDX-License-Identifier: MIT
#pragma once
// The C interface between pith (src/page/pixels.cpp) and pith-text.so
// (src/poppler/page_text_module.cpp) for the pixels of regions of a page, rendered as a viewer
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

struct PithRegion {
    double x0, y0, x1, y1;  // points, page as displayed: CropBox and /Rotate, origin at the top left
    double dpi;
};

#define PITH_PAGE_REGIONS_SYMBOL "pith_page_regions_v2"
// Renders each of the `count` regions of page `index` (0-based) at its dpi, each within
// `seconds`, and calls pixels(context, k, ...) for region k once it is rendered; a region that is
// empty on the page is skipped. One opening of the file serves them all. Returns 1 when it
// opened the page, 0 when poppler cannot open or unlock the file or the page does not exist.
typedef int (*PithPageRegionsFn)(const char* pdf, std::size_t size, int index, const char* password,
                                 const PithRegion* regions, int count, double seconds,
                                 void (*pixels)(void*, int, const PithRegionPixels*), void* context);

struct PithGlyphMask {
    const char* text;          // UTF-8 of the glyph's character, not NUL-terminated
    std::size_t text_size;
    double x0, y0, x1, y1;     // points: the character's box (as displayed, origin top-left)
    int columns, rows;         // of `ink`: the region's slice of the page
    const unsigned char* ink;  // rows * columns, 0 paper to 255 the glyph's full ink, row 0 at the top
    double dpi;
    double px0, py0;           // points: the page position of the top-left pixel's corner
};

#define PITH_GLYPH_MASKS_SYMBOL "pith_glyph_masks_v1"
// Each glyph of the words whose boxes' centres lie in `region` of page `index`, drawn alone over
// the region at its dpi, opaque black on white (a mask: what the glyph's own outline covers,
// whatever the page draws over it), to glyph(context, ...) in the text layer's order. A word whose
// glyphs' bytes poppler cannot number one by one is left out. Returns 1 when it opened the page.
typedef int (*PithGlyphMasksFn)(const char* pdf, std::size_t size, int index, const char* password,
                                const PithRegion* region, double seconds,
                                void (*glyph)(void*, const PithGlyphMask*), void* context);
