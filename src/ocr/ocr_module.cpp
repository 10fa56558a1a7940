// SPDX-License-Identifier: MIT
// pith-ocr.so: Tesseract, loaded with dlopen() only by the child process that reads the title
// block from pixels (src/verify/pixels.hpp, doc/visible.md "The title from pixels").
#include "ocr_abi.h"

#include <leptonica/allheaders.h>
#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>

#include <memory>
#include <string>
#include <vector>

namespace {

std::unique_ptr<tesseract::TessBaseAPI> api;
int ready = -1;  // -1: not started; 0: cannot start; 1: ready

}  // namespace

extern "C" __attribute__((visibility("default"))) int pith_ocr_init_v1(const char* languages) {
    if (ready >= 0) return ready;
    setMsgSeverity(L_SEVERITY_NONE);  // leptonica's "Error in boxClipToRectangle" is no message for pith's user
    try {
        api = std::make_unique<tesseract::TessBaseAPI>();
        // No dictionary may "correct" what the pixels show into a word of the text layer; the LSTM
        // engine alone (the legacy one needs data Debian's fast models do not carry).
        std::vector<std::string> names = {"load_system_dawg", "load_freq_dawg",   "load_punc_dawg",
                                          "load_number_dawg", "load_unambig_dawg", "load_bigram_dawg"};
        std::vector<std::string> values(names.size(), "0");
        ready = api->Init(nullptr, languages, tesseract::OEM_LSTM_ONLY, nullptr, 0, &names, &values, false) == 0;
        if (ready) api->SetVariable("debug_file", "/dev/null");
    } catch (...) {
        ready = 0;
    }
    return ready;
}

extern "C" __attribute__((visibility("default"))) int pith_ocr_v1(const unsigned char* rgb, int columns, int rows, int dpi,
                                                                  int layout, void (*word)(void*, const PithOcrWord*),
                                                                  void* context) {
    if (ready != 1 || !rgb || columns <= 0 || rows <= 0) return 0;
    try {
        api->SetPageSegMode(layout == PITH_OCR_AUTO ? tesseract::PSM_AUTO : tesseract::PSM_SPARSE_TEXT);
        api->SetImage(rgb, columns, rows, 3, columns * 3);
        api->SetSourceResolution(dpi);
        if (api->Recognize(nullptr) != 0) return 0;
        std::unique_ptr<tesseract::ResultIterator> it(api->GetIterator());
        if (it && !it->Empty(tesseract::RIL_WORD)) {
            do {
                const std::unique_ptr<char[]> text(it->GetUTF8Text(tesseract::RIL_WORD));
                if (!text) continue;
                PithOcrWord w{};
                const std::string t(text.get());
                w.text = t.data();
                w.text_size = t.size();
                it->BoundingBox(tesseract::RIL_WORD, &w.x0, &w.y0, &w.x1, &w.y1);
                it->BoundingBox(tesseract::RIL_TEXTLINE, &w.lx0, &w.ly0, &w.lx1, &w.ly1);
                w.confidence = it->Confidence(tesseract::RIL_WORD);
                word(context, &w);
            } while (it->Next(tesseract::RIL_WORD));
        }
        api->Clear();
        return 1;
    } catch (...) {
        return 0;
    }
}
