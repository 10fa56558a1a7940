#pragma once
// The C interface between pith stamp (src/stamp/placement.cpp) and pith-text.so
// (src/text/page_text_module.cpp) for rendering a page at low resolution, so that the badge
// can go where the page paints nothing. Plain C types only, as for page_words_abi.h.
#include <cstddef>

struct PithPageInk {
    double width, height;       // points, page as displayed (CropBox, /Rotate)
    int columns, rows;          // of `ink`
    const unsigned char* ink;   // rows * columns, row 0 at the top: 255 - the darkest channel (0 = white paper)
    int rendered;               // 0 when rendering was cut short (time limit): `ink` is incomplete
};

#define PITH_PAGE_INK_SYMBOL "pith_page_ink_v1"
// Renders page `index` (0-based) as a viewer shows it (annotations included) at `dpi` and
// calls sink once. Returns 1 when it did, 0 when poppler cannot open or unlock the file or the
// page does not exist.
typedef int (*PithPageInkFn)(const char* pdf, std::size_t size, int index, const char* password, double dpi,
                             double seconds, void (*sink)(void*, const PithPageInk*), void* context);
