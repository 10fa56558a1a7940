// SPDX-License-Identifier: MIT
#pragma once
// The C interface between pith (src/verify/pixels.cpp) and the module pith-ocr.so
// (src/ocr/ocr_module.cpp), which holds Tesseract. Loaded with dlopen() only by the child that
// reads a title from pixels, so that no other run pays for Tesseract. Plain C types only.
#include <cstddef>

struct PithOcrWord {
    const char* text;        // UTF-8, not NUL-terminated
    std::size_t text_size;
    int x0, y0, x1, y1;      // pixels of the image, row 0 at the top
    int lx0, ly0, lx1, ly1;  // the box of its text line
    float confidence;        // 0-100, Tesseract's
};

#define PITH_OCR_INIT_SYMBOL "pith_ocr_init_v1"
// Starts Tesseract once per process with `languages` ("eng", "eng+deu") from its default data
// directory (or TESSDATA_PREFIX): LSTM only, no dictionaries. Returns 1 when ready, 0 when the
// data cannot be loaded. Later calls return the first call's answer.
typedef int (*PithOcrInitFn)(const char* languages);

#define PITH_OCR_SYMBOL "pith_ocr_v1"
// Reads the RGB image (rows * columns * 3, row 0 at the top) at `dpi` and calls word for each
// word. `layout`: PITH_OCR_SPARSE finds text wherever it stands, PITH_OCR_AUTO analyses the
// page's layout first (Tesseract's page segmentation modes 11 and 3). Returns 1 when it read,
// 0 when Tesseract is not ready (pith_ocr_init_v1 failed or was not called) or the image is empty.
#define PITH_OCR_SPARSE 0
#define PITH_OCR_AUTO 1
typedef int (*PithOcrFn)(const unsigned char* rgb, int columns, int rows, int dpi, int layout,
                         void (*word)(void*, const PithOcrWord*), void* context);

#define PITH_OCR_LARGE_SYMBOL "pith_ocr_large_v1"
// Reads only the text lines of the RGB image at least `min_height` pixels tall: the page's
// layout is analysed first (no recognition, cheap), then each such line is recognised alone.
// For the rest of a page below the title, read at a low resolution for type larger than the
// title's. Words as pith_ocr_v1 gives them, in the image's pixels; returns as pith_ocr_v1.
typedef int (*PithOcrLargeFn)(const unsigned char* rgb, int columns, int rows, int dpi, int min_height,
                              void (*word)(void*, const PithOcrWord*), void* context);
