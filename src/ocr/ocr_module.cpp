// SPDX-License-Identifier: MIT
// pith-ocr.so: Tesseract, loaded with dlopen() only by the child process that reads the title
// block from pixels (src/page/pixels.hpp, doc/visible.md "The title from pixels").
#include "ocr_abi.h"

#include <leptonica/allheaders.h>
#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>

#include <algorithm>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Engine {
    std::unique_ptr<tesseract::TessBaseAPI> api;
    bool ready = false;
};
std::map<std::string, Engine> engines;  // by languages, as asked

// Whether every language of "a+b+c" is among those Tesseract loaded: Init() succeeds when the
// first loads, whatever became of the others.
bool all_loaded(tesseract::TessBaseAPI& api, const std::string& languages) {
    std::vector<std::string> loaded;
    api.GetLoadedLanguagesAsVector(&loaded);
    std::istringstream asked(languages);
    for (std::string l; std::getline(asked, l, '+');)
        if (std::find(loaded.begin(), loaded.end(), l) == loaded.end()) return false;
    return true;
}

// The engine started for `languages` by pith_ocr_init_v2, or null.
tesseract::TessBaseAPI* engine_for(const char* languages) {
    const auto engine = languages ? engines.find(languages) : engines.end();
    return engine == engines.end() || !engine->second.ready ? nullptr : engine->second.api.get();
}

// Recognises the image set (or its rectangle) and reports each word, in the whole image's pixels.
bool recognize(tesseract::TessBaseAPI* api, void (*word)(void*, const PithOcrWord*), void* context) {
    if (api->Recognize(nullptr) != 0) return false;
    std::unique_ptr<tesseract::ResultIterator> it(api->GetIterator());
    if (!it || it->Empty(tesseract::RIL_WORD)) return true;
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
    return true;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int pith_ocr_init_v2(const char* languages) {
    if (!languages || !*languages) return 0;
    if (const auto it = engines.find(languages); it != engines.end()) return it->second.ready;
    setMsgSeverity(L_SEVERITY_NONE);  // leptonica's "Error in boxClipToRectangle" is no message for pith's user
    Engine& e = engines[languages];
    try {
        e.api = std::make_unique<tesseract::TessBaseAPI>();
        // No word list may "correct" what the pixels show into a word of the text layer: none of
        // the legacy engine's, and the LSTM engine alone (the legacy one needs data Debian's fast
        // models do not carry). The LSTM engine keeps the language's own word lists (its Dict
        // does not read these parameters): they hold the language's words, not the text layer's,
        // and group Han and kana into words (without them chi_sim reads a character a word).
        // The language's ambiguity table serves the legacy engine only: "training" skips loading
        // it (a third of Init's time), and is switched off again before anything is read.
        std::vector<std::string> names = {"load_system_dawg", "load_freq_dawg",    "load_punc_dawg",          "load_number_dawg",
                                          "load_unambig_dawg", "load_bigram_dawg", "tessedit_ambigs_training"};
        std::vector<std::string> values(names.size(), "0");
        values.back() = "1";
        e.ready = e.api->Init(nullptr, languages, tesseract::OEM_LSTM_ONLY, nullptr, 0, &names, &values, false) == 0 &&
                  all_loaded(*e.api, languages) && e.api->SetVariable("tessedit_ambigs_training", "0");
        if (e.ready) e.api->SetVariable("debug_file", "/dev/null");
    } catch (...) {
        e.ready = false;
    }
    if (!e.ready) e.api.reset();
    return e.ready;
}

extern "C" __attribute__((visibility("default"))) int pith_ocr_v2(const char* languages, const unsigned char* rgb, int columns,
                                                                  int rows, int dpi, int layout,
                                                                  void (*word)(void*, const PithOcrWord*), void* context) {
    tesseract::TessBaseAPI* api = engine_for(languages);
    if (!api || !rgb || columns <= 0 || rows <= 0) return 0;
    try {
        api->SetPageSegMode(layout == PITH_OCR_AUTO   ? tesseract::PSM_AUTO
                            : layout == PITH_OCR_CHAR ? tesseract::PSM_SINGLE_CHAR
                                                      : tesseract::PSM_SPARSE_TEXT);
        // Two ways to tell ink from paper, one per pass (the better reading stands): Sauvola's
        // local threshold for sparse text reads a title across grounds of several shades (over a
        // picture or a tinted band), where one global threshold turns the darker grounds black
        // and the letters on them with them; Otsu's global one for the page's layout reads a
        // title that touches the line below, which Sauvola's breaks up.
        // A glyph cut alone is black on white: Otsu's threshold, as for the page's layout.
        api->SetVariable("thresholding_method", layout == PITH_OCR_SPARSE ? "2" : "0");
        api->SetImage(rgb, columns, rows, 3, columns * 3);
        api->SetSourceResolution(dpi);
        if (!recognize(api, word, context)) return 0;
        api->Clear();
        return 1;
    } catch (...) {
        return 0;
    }
}

extern "C" __attribute__((visibility("default"))) int pith_ocr_tall_lines_v1(const unsigned char* rgb, int columns, int rows,
                                                                             int dpi, int min_height,
                                                                             void (*line)(void*, const PithOcrLine*),
                                                                             void* context) {
    if (!rgb || columns <= 0 || rows <= 0) return 0;
    try {
        tesseract::TessBaseAPI api;
        api.InitForAnalysePage();  // layout only: the same lines as an engine's analysis, in milliseconds
        api.SetVariable("debug_file", "/dev/null");  // as an engine's: Tesseract's warnings are no message for pith's user
        api.SetPageSegMode(tesseract::PSM_AUTO);
        api.SetVariable("thresholding_method", "2");  // across a picture's shades, as the sparse pass
        api.SetImage(rgb, columns, rows, 3, columns * 3);
        api.SetSourceResolution(dpi);
        const std::unique_ptr<tesseract::PageIterator> it(api.AnalyseLayout());
        if (it && !it->Empty(tesseract::RIL_TEXTLINE)) do {
                PithOcrLine b{};
                if (it->BoundingBox(tesseract::RIL_TEXTLINE, &b.x0, &b.y0, &b.x1, &b.y1) && b.y1 - b.y0 >= min_height &&
                    b.x1 - b.x0 >= 2 * (b.y1 - b.y0))
                    line(context, &b);
            } while (it->Next(tesseract::RIL_TEXTLINE));
        return 1;
    } catch (...) {
        return 0;
    }
}

extern "C" __attribute__((visibility("default"))) int pith_ocr_lines_v1(const char* languages, const unsigned char* rgb,
                                                                        int columns, int rows, int dpi,
                                                                        const PithOcrLine* lines, int count,
                                                                        void (*word)(void*, const PithOcrWord*),
                                                                        void* context) {
    tesseract::TessBaseAPI* api = engine_for(languages);
    if (!api || !rgb || columns <= 0 || rows <= 0) return 0;
    try {
        api->SetPageSegMode(tesseract::PSM_SINGLE_LINE);
        api->SetVariable("thresholding_method", "2");  // as the lines were found
        api->SetImage(rgb, columns, rows, 3, columns * 3);
        api->SetSourceResolution(dpi);
        for (int k = 0; k < count; ++k) {
            const PithOcrLine& b = lines[k];
            api->SetRectangle(b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0);
            if (!recognize(api, word, context)) return 0;
        }
        api->Clear();
        return 1;
    } catch (...) {
        return 0;
    }
}
