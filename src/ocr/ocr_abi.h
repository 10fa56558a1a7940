// SPDX-License-Identifier: MIT
#pragma once
// The C interface between pith (src/page/pixels.cpp) and the module pith-ocr.so
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

// v2: one engine per set of languages, side by side in a process (v1 had one per process), so
// that the English engine `pith batch` starts in its parent stays while a child starts the
// language of a title in another script.
#define PITH_OCR_INIT_SYMBOL "pith_ocr_init_v2"
// Starts a Tesseract engine for `languages` ("eng", "chi_sim+chi_tra") from its default data
// directory (or TESSDATA_PREFIX): LSTM only, no dictionaries. Returns 1 when every one of the
// languages loaded, 0 when any cannot. Later calls with the same languages return the first
// call's answer without starting another engine.
typedef int (*PithOcrInitFn)(const char* languages);

#define PITH_OCR_SYMBOL "pith_ocr_v2"
// Reads the RGB image (rows * columns * 3, row 0 at the top) at `dpi` with the engine of
// `languages` and calls word for each word. `layout`: PITH_OCR_SPARSE finds text wherever it
// stands, PITH_OCR_AUTO analyses the page's layout first (Tesseract's page segmentation modes 11
// and 3), PITH_OCR_CHAR reads the image as one character (mode 10: a logo's glyph cut alone).
// Returns 1 when it read, 0 when that engine is not ready (pith_ocr_init_v2 failed or was not
// called for these languages) or the image is empty.
#define PITH_OCR_SPARSE 0
#define PITH_OCR_AUTO 1
#define PITH_OCR_CHAR 2
typedef int (*PithOcrFn)(const char* languages, const unsigned char* rgb, int columns, int rows, int dpi, int layout,
                         void (*word)(void*, const PithOcrWord*), void* context);

struct PithOcrLine {
    int x0, y0, x1, y1;  // pixels of the image, row 0 at the top
};

#define PITH_OCR_TALL_LINES_SYMBOL "pith_ocr_tall_lines_v1"
// The text lines Tesseract's layout analysis finds in the RGB image at `dpi` that stand at
// least `min_height` pixels tall and twice as wide (a line of words, not a rule or a picture's
// edge), to `line` in Tesseract's order. No recognition and no language data: it needs no
// engine, and runs on a thread of its own beside one. Returns 1 when it analysed the image, 0
// when the image is empty or Tesseract failed. For the rest of a page below the title, read at
// a low resolution for type larger than the title's.
typedef int (*PithOcrTallLinesFn)(const unsigned char* rgb, int columns, int rows, int dpi, int min_height,
                                  void (*line)(void*, const PithOcrLine*), void* context);

#define PITH_OCR_LINES_SYMBOL "pith_ocr_lines_v1"
// Recognises each of the `count` lines of the RGB image alone (Tesseract's page segmentation
// mode 7) with the engine of `languages`. Words and return value as pith_ocr_v2.
typedef int (*PithOcrLinesFn)(const char* languages, const unsigned char* rgb, int columns, int rows, int dpi,
                              const PithOcrLine* lines, int count, void (*word)(void*, const PithOcrWord*), void* context);
