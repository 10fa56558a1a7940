// SPDX-License-Identifier: MIT
// page/pixels: the title read from pixels must agree with the text layer (issue 29 point 1,
// doc/visible.md "The title from pixels"). judge() is tested on readings made up here; the
// last cases render real one-page PDFs and read them with Tesseract, end to end.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "page/pixels.hpp"
#include "page/visible.hpp"
#include "pdf_support.hpp"

using pith::page::pixels::Image;
using pith::page::pixels::OcrWord;
using pith::page::pixels::Reading;
using pith::page::pixels::Verdict;
using pith::page::visible::Word;

namespace {

// A white image of the region 0..600 x 0..100 pt at 144 dpi, with boxes of `grey` (0-255)
// painted where each title word stands (its middle third, as glyph strokes would be).
Image page_image(const std::vector<Word>& words, int grey) {
    Image im;
    im.dpi = 144;
    im.columns = 1200;
    im.rows = 200;
    im.rgb.assign(static_cast<std::size_t>(im.columns) * im.rows * 3, 255);
    for (const Word& w : words)
        for (int r = static_cast<int>(w.y0 * 2 + (w.y1 - w.y0) * 2 / 3); r < static_cast<int>(w.y1 * 2 - (w.y1 - w.y0) * 2 / 3); ++r)
            for (int c = static_cast<int>(w.x0 * 2); c < static_cast<int>(w.x1 * 2); ++c)
                for (int k = 0; k < 3; ++k) im.rgb[(static_cast<std::size_t>(r) * im.columns + c) * 3 + k] = static_cast<unsigned char>(grey);
    return im;
}

// Text-layer words laid out on one line at y 40..60, 10 pt per character.
std::vector<Word> line_of(const std::vector<std::string>& texts, double y0 = 40, double height = 20) {
    std::vector<Word> out;
    double x = 50;
    for (const auto& t : texts) {
        Word w;
        w.text = t;
        w.x0 = x;
        w.x1 = x + 10.0 * t.size();
        w.y0 = y0;
        w.y1 = y0 + height;
        w.size = height / 1.2;
        w.visible = true;
        out.push_back(w);
        x = w.x1 + 6;
    }
    return out;
}

OcrWord ocr(const std::string& text, const Word& at, double confidence = 95) {
    return {text, at.x0, at.y0, at.x1, at.y1, confidence};
}

Reading reading_of(const std::vector<Word>& title, const std::vector<OcrWord>& words, int grey = 0) {
    Reading r;
    r.read = true;
    r.image = page_image(title, grey);
    r.words = words;
    return r;
}

const std::vector<Word> kTitle = line_of({"Sparse", "Attention", "Kernels", "for", "Long", "Context", "Models"});

std::vector<OcrWord> read_as(const std::vector<std::string>& texts) {
    std::vector<OcrWord> out;
    for (std::size_t i = 0; i < texts.size(); ++i) out.push_back(ocr(texts[i], kTitle[std::min(i, kTitle.size() - 1)]));
    return out;
}

}  // namespace

TEST_CASE("pixels: edit distance", "[pixels]") {
    using pith::page::pixels::edit_distance;
    CHECK(edit_distance(U"", U"") == 0);
    CHECK(edit_distance(U"kernels", U"kernels") == 0);
    CHECK(edit_distance(U"kernels", U"kernals") == 1);
    CHECK(edit_distance(U"kernel", U"kernels") == 1);
    CHECK(edit_distance(U"abc", U"") == 3);
    CHECK(edit_distance(U"sparse", U"quantum") == 6);
}

TEST_CASE("pixels: WCAG contrast of the title's glyphs", "[pixels]") {
    const std::vector<Word> one = line_of({"Title"});
    const Word& w = one[0];
    CHECK(pith::page::pixels::contrast(page_image(one, 0), w.x0, w.y0, w.x1, w.y1) == Approx(21).margin(0.01));
    // #777777 on white: 4.48 (WCAG's own example of the AA limit); #f4f4f4 on white: 1.1.
    CHECK(pith::page::pixels::contrast(page_image(one, 0x77), w.x0, w.y0, w.x1, w.y1) == Approx(4.48).margin(0.02));
    CHECK(pith::page::pixels::contrast(page_image(one, 0xf4), w.x0, w.y0, w.x1, w.y1) == Approx(1.1).margin(0.02));
    // Nothing drawn: 1 (no glyph differs from the paper).
    CHECK(pith::page::pixels::contrast(page_image({}, 0), w.x0, w.y0, w.x1, w.y1) == 1);
    // White glyphs on a black box: the background is the box, not the page.
    Image dark = page_image({}, 0);
    for (auto& b : dark.rgb) b = 0;
    CHECK(pith::page::pixels::contrast(dark, w.x0, w.y0, w.x1, w.y1) == 1);
    CHECK(pith::page::pixels::contrast(page_image(one, 0), w.x0, w.y0, w.x1, w.y1) > pith::page::pixels::kMinContrast);
}

TEST_CASE("pixels: the part of the image the contrast is read from", "[pixels]") {
    const std::vector<Word> title = line_of({"Sparse", "Attention"});
    for (int grey : {0, 0x77, 0xf4}) {
        const Image whole = page_image(title, grey);
        const Image part = pith::page::pixels::around(whole, title);
        // Rows (40 - 20/3) .. (60 + 20/3) pt at 2 px/pt, and nothing else.
        CHECK(part.row0 == 66);
        CHECK(part.rows == 134 - 66);
        CHECK(part.rgb.size() == static_cast<std::size_t>(part.rows) * part.columns * 3);
        for (const Word& w : title)
            CHECK(pith::page::pixels::contrast(part, w.x0, w.y0, w.x1, w.y1) == pith::page::pixels::contrast(whole, w.x0, w.y0, w.x1, w.y1));
    }
    CHECK(pith::page::pixels::around(page_image(title, 0), {}).rows == 200);  // no words: all of it
}

TEST_CASE("pixels: the pixels agree with the text layer", "[pixels]") {
    const auto j = pith::page::pixels::judge(kTitle, reading_of(kTitle, read_as({"Sparse", "Attention", "Kernels", "for", "Long", "Context", "Models"})));
    CHECK(j.verdict == Verdict::Agrees);
    CHECK(j.explanation.find("the text layer shows the title") != std::string::npos);
    CHECK(j.explanation.find("the pixels (OCR) read") != std::string::npos);
    // The closed list of what a word is read as: its case (small caps, all caps), OCR's
    // confusions of 0/O and 1/i/l, and punctuation it drops or adds.
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, read_as({"SPARSE", "Attentlon", "Kernels,", "for", "L0ng", "Context", "Models."})))
              .verdict == Verdict::Agrees);
    // Any other letter read otherwise is no confirmation of the word: not within a tolerance.
    const auto misread = pith::page::pixels::judge(kTitle, reading_of(kTitle, read_as({"Sparse", "Attention", "Kernels", "for", "Long", "Contexl", "Models"})));
    CHECK(misread.verdict == Verdict::Unverified);
    CHECK(misread.explanation.find("\"contexl\" for \"context\"") != std::string::npos);
    // Spacing inside formulas: "O(n logn)" read for "O(n log n)" places the words; a word joined
    // to its neighbour is confirmed only by a reading of its line that parts them as the title does.
    const std::vector<Word> math = line_of({"Sorting", "in", "O(n", "log", "n)", "Time", "for", "Every", "Input"});
    std::vector<OcrWord> read;
    for (const auto& [text, i] : std::vector<std::pair<std::string, int>>{{"Sorting", 0}, {"in", 1}, {"O(n", 2}, {"logn)", 3}, {"Time", 5},
                                                                          {"for", 6}, {"Every", 7}, {"Input", 8}})
        read.push_back(ocr(text, math[i]));
    CHECK(pith::page::pixels::judge(math, reading_of(math, read)).verdict == Verdict::Unverified);
    for (std::size_t i = 0; i < math.size(); ++i) {
        read.push_back(ocr(math[i].text, math[i]));
        read.back().pass = pith::page::pixels::kPassCloser;
    }
    CHECK(pith::page::pixels::judge(math, reading_of(math, read)).verdict == Verdict::Agrees);
    // Accents the OCR drops; a ligature the text layer gives as one character.
    const std::vector<Word> accents = line_of({"Caf\xC3\xA9", "Ef\xEF\xAC\x81" "cient", "Na\xC3\xAFve", "Models"});
    std::vector<OcrWord> plain;
    for (const auto& [text, i] : std::vector<std::pair<std::string, int>>{{"Cafe", 0}, {"Efficient", 1}, {"Naive", 2}, {"Models", 3}})
        plain.push_back(ocr(text, accents[i]));
    CHECK(pith::page::pixels::judge(accents, reading_of(accents, plain)).verdict == Verdict::Agrees);
    // Tesseract's Latin model reads ß as B.
    const std::vector<Word> sharp = line_of({"Stra\xC3\x9F" "e", "Data", "for", "Every", "Reader"});
    std::vector<OcrWord> as_b;
    for (const auto& [text, i] : std::vector<std::pair<std::string, int>>{{"StraBe", 0}, {"Data", 1}, {"for", 2}, {"Every", 3}, {"Reader", 4}})
        as_b.push_back(ocr(text, sharp[i]));
    CHECK(pith::page::pixels::judge(sharp, reading_of(sharp, as_b)).verdict == Verdict::Agrees);
}

TEST_CASE("pixels: the record's formulas are not read from pixels, its logos letter by letter", "[pixels]") {
    // "A LaTeX Package ...": the logo's pieces are words the text layer matched to a logo, set
    // without a space; OCR reads "ETRX" over them.
    std::vector<Word> line = line_of({"A", "L", "A", "TEX", "Package", "for", "Verifiable", "Paper", "Numbers"});
    line[2].x0 = line[1].x1 - 2, line[2].x1 = line[2].x0 + 8, line[3].x0 = line[2].x1 - 1;
    std::vector<OcrWord> read = {ocr("A", line[0]), ocr("ETRX", {"", line[1].x0, line[1].y0, line[3].x1, line[3].y1, 20, false, true, "", 0})};
    for (std::size_t i = 4; i < line.size(); ++i) read.push_back(ocr(line[i].text, line[i]));
    pith::page::pixels::TitleWords words;
    for (std::size_t i = 0; i < line.size(); ++i) (i >= 1 && i <= 3 ? words.unread : words.read).push_back(line[i]);
    // The logo's letters not read one by one: not confirmed.
    CHECK(pith::page::pixels::judge(words, reading_of(line, read)).verdict == Verdict::Unverified);
    // Its glyphs read alone (pass kPassLetters), each its letter: confirmed.
    const auto letters = [&](const std::vector<std::string>& each) {
        std::vector<OcrWord> out = read;
        const double x0 = line[1].x0, step = (line[3].x1 - x0) / static_cast<double>(each.size());
        for (std::size_t i = 0; i < each.size(); ++i)
            out.push_back({each[i], x0 + step * i, 42, x0 + step * (i + 1), 58, 90, pith::page::pixels::kPassLetters});
        return reading_of(line, out);
    };
    CHECK(pith::page::pixels::judge(words, letters({"L", "A", "T", "E", "X"})).verdict == Verdict::Agrees);
    const pith::page::pixels::Judgement other = pith::page::pixels::judge(words, letters({"L", "A", "T", "a", "X"}));
    CHECK(other.verdict == Verdict::Unverified);
    CHECK(other.explanation.find("another letter (\"L A T a X\")") != std::string::npos);
    CHECK(pith::page::pixels::judge(words, letters({"W", "o", "r", "d"})).verdict == Verdict::Unverified);
    // A record that writes the logo as letters ("LaTeX"): the text layer's pieces are one word to
    // read, OCR's "ETRX" does not place it, its letters confirm it.
    pith::page::pixels::TitleWords plain;
    plain.read = {line[0], line[1], line[4], line[5], line[6], line[7], line[8]};
    plain.read[1].text = "LATEX", plain.read[1].x1 = line[3].x1;
    CHECK(pith::page::pixels::judge(plain, reading_of(line, read)).verdict == Verdict::Unverified);
    const pith::page::pixels::Judgement placed = pith::page::pixels::judge(plain, letters({"L", "A", "T", "E", "X"}));
    CHECK(placed.verdict == Verdict::Agrees);
    CHECK(placed.explanation.find("its logo \"LATEX\" read letter by letter") != std::string::npos);
    CHECK(pith::page::pixels::judge(plain, letters({"L", "A", "T", "a", "X"})).verdict == Verdict::Unverified);
    // Read as words of the title, the same reading is no confirmation.
    CHECK(pith::page::pixels::judge(line, reading_of(line, read)).verdict != Verdict::Agrees);
    // Another word where a text word stands is still another word.
    std::vector<OcrWord> forged = letters({"L", "A", "T", "E", "X"}).words;
    forged[6] = ocr("Letters", line.back());
    CHECK(pith::page::pixels::judge(words, reading_of(line, forged)).verdict != Verdict::Agrees);
}

TEST_CASE("pixels: a relation sign and a formula's digits are confirmed only by a reading that gives them", "[pixels]") {
    using pith::page::pixels::kPassAlone;
    // "Learning Parities in O(n^2) Time": the formula's pieces "O(n", "2" (raised) and ")" are
    // unread words; OCR reads the formula loosely in the title block ("O(n*)") and the raised
    // digit exactly only when it reads it alone.
    const std::vector<Word> line = line_of({"Learning", "Parities", "in", "O(n", "2", ")", "Time"});
    pith::page::pixels::TitleWords words;
    for (std::size_t i = 0; i < line.size(); ++i) (i >= 3 && i <= 5 ? words.unread : words.read).push_back(line[i]);
    const auto reading = [&](const std::string& alone) {
        std::vector<OcrWord> read;
        for (std::size_t i : {0, 1, 2, 6}) read.push_back(ocr(line[i].text, line[i]));
        read.push_back(ocr("O(n*)", {"", line[3].x0, line[3].y0, line[5].x1, line[5].y1, 64, false, true, "", 0}));
        if (!alone.empty()) {
            OcrWord digit = ocr(alone, line[4]);
            digit.pass = kPassAlone;
            read.push_back(digit);
        }
        return reading_of(line, read);
    };
    CHECK(pith::page::pixels::judge(words, reading("2")).verdict == Verdict::Agrees);
    CHECK(pith::page::pixels::judge(words, reading("[2")).verdict == Verdict::Agrees);  // only digits and signs compared
    const pith::page::pixels::Judgement three = pith::page::pixels::judge(words, reading("3"));
    CHECK(three.verdict == Verdict::Unverified);  // an exponent read otherwise: no proof of either
    CHECK(three.explanation.find("they read \"3\"") != std::string::npos);
    CHECK(pith::page::pixels::judge(words, reading("")).verdict == Verdict::Unverified);  // not read: not confirmed

    // "Step Size < 2/L": a sign in the text is compared too; every reading giving ">" is another sign.
    const std::vector<Word> sized = line_of({"Gradient", "Descent", "Converges", "When", "Step", "Size", "<", "2/L"});
    const auto signed_as = [&](const std::string& sign, int passes) {
        std::vector<OcrWord> read;
        for (int pass = 0; pass < passes; ++pass)
            for (const Word& w : sized) {
                if (w.text == "<" && sign.empty()) continue;
                OcrWord o = ocr(w.text == "<" ? sign : w.text, w);
                o.pass = pass;
                read.push_back(o);
            }
        return reading_of(sized, read);
    };
    pith::page::pixels::TitleWords text;
    text.read = sized;
    CHECK(pith::page::pixels::judge(text, signed_as("<", 1)).verdict == Verdict::Agrees);
    CHECK(pith::page::pixels::judge(text, signed_as(">", 2)).verdict == Verdict::Differs);
    CHECK(pith::page::pixels::judge(text, signed_as(">", 1)).verdict == Verdict::Unverified);  // one reading: not enough to call it another
    CHECK(pith::page::pixels::judge(text, signed_as("", 1)).verdict == Verdict::Unverified);
    // A sign OCR's Latin model has no character for (≤, ≥, ≠): confirmed by its strokes (signs.hpp,
    // pass kPassStrokes) alone; OCR's "=" for "≠" is no other sign.
    text.read[6].text = "\u2260";
    CHECK(pith::page::pixels::judge(text, signed_as("=", 2)).verdict == Verdict::Unverified);
    Reading strokes = signed_as("=", 2);
    strokes.words.push_back(ocr("\u2260", sized[6]));
    strokes.words.back().pass = pith::page::pixels::kPassStrokes;
    CHECK(pith::page::pixels::judge(text, strokes).verdict == Verdict::Agrees);
    strokes.words.back().text = "=";  // ≠ drawn as =
    CHECK(pith::page::pixels::judge(text, strokes).verdict == Verdict::Unverified);
    text.read[6].text = "\u2264";  // OCR reads ≤ as "<" or "=": no other sign, only no confirmation
    CHECK(pith::page::pixels::judge(text, signed_as("=", 2)).verdict == Verdict::Unverified);
}

TEST_CASE("pixels: what OCR reads of pith's badge is no line of the paper's", "[pixels]") {
    const std::vector<OcrWord> same = read_as({"Sparse", "Attention", "Kernels", "for", "Long", "Context", "Models"});
    pith::page::pixels::TitleWords words;
    words.read = kTitle;
    Word badge = line_of({"pith:XOGOFZAQ"}, 5, 20)[0];
    badge.x0 = 450, badge.x1 = 580;
    words.badge = {badge};
    // The badge's words, read over it in larger type than it is set (OCR's boxes around small
    // type): left out.
    std::vector<OcrWord> read = same;
    read.push_back({"pith:", 450, 2, 500, 27, 90});
    read.push_back({"XOGOFZAQ", 505, 2, 580, 27, 90});
    CHECK(pith::page::pixels::judge(words, reading_of(kTitle, read)).verdict == Verdict::Agrees);
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, read)).verdict == Verdict::Outranked);  // without the badge
    // Other words over a badge word still count: nothing hides behind a word that says "pith:".
    read.back().text = "RETRACTED";
    CHECK(pith::page::pixels::judge(words, reading_of(kTitle, read)).verdict == Verdict::Outranked);
}

TEST_CASE("pixels: TeX's logos, their moved letters read as consonants or not at all", "[pixels]") {
    const auto judged = [](const std::vector<Word>& t, const std::vector<OcrWord>& words) {
        const auto j = pith::page::pixels::judge(t, reading_of(t, words));
        INFO(j.explanation);
        return j.verdict;
    };
    const std::vector<Word> title = line_of({"The", "LuaTEX", "and", "LaTeX", "Reference", "Manual"});
    const auto read = [&](const char* luatex, const char* latex) {
        return judged(title, {ocr("The", title[0]), ocr(luatex, title[1]), ocr("and", title[2]), ocr(latex, title[3]),
                              ocr("Reference", title[4]), ocr("Manual", title[5])});
    };
    CHECK(read("LuaTEX", "LaTeX") == Verdict::Agrees);
    CHECK(read("LuaTX", "IATRX") == Verdict::Agrees);  // E not read; A read, E as R
    CHECK(read("LuaTrEX", "LTeX") == Verdict::Agrees);  // E read as rE; A not read
    // A vowel for a moved letter makes a word of the logo; the other letters are read exactly.
    CHECK(read("LuaTEX", "LaTaX") != Verdict::Agrees);
    CHECK(read("LuaTEX", "LoTeX") != Verdict::Agrees);
    CHECK(read("LuaTEX", "LaTeK") != Verdict::Agrees);
    const std::vector<Word> tex = line_of({"Typesetting", "with", "TeX", "Today"});
    CHECK(judged(tex, {ocr("Typesetting", tex[0]), ocr("with", tex[1]), ocr("Tax", tex[2]), ocr("Today", tex[3])}) !=
          Verdict::Agrees);
}

TEST_CASE("pixels: words the title does not have, or title words the pixels do not show", "[pixels]") {
    // Another paper's title drawn where the text layer spells the record's (a lying ToUnicode).
    const auto other = pith::page::pixels::judge(kTitle, reading_of(kTitle, read_as({"Quantum", "Annealing", "Schedules", "for", "Sparse", "Graph", "Colouring"})));
    CHECK(other.verdict == Verdict::Differs);
    CHECK(other.explanation.find("\"quantum\"") != std::string::npos);
    // Two words changed.
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, read_as({"Dense", "Attention", "Kernels", "for", "Short", "Context", "Models"})))
              .verdict == Verdict::Differs);
    // Two title words the pixels do not show.
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, read_as({"Sparse", "Attention", "Kernels", "for", "Long"}))).verdict == Verdict::Differs);
    // Two words more than the title has, in the title's place.
    std::vector<OcrWord> more = read_as({"Sparse", "Attention", "Kernels", "for", "Long", "Context", "Models"});
    more.push_back(ocr("Retracted", kTitle[6]));
    more.push_back(ocr("Version", kTitle[6]));
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, more)).verdict == Verdict::Differs);
    // One word differs: never trusted, but OCR may have misread it: unverified.
    const auto one = pith::page::pixels::judge(kTitle, reading_of(kTitle, read_as({"Sparse", "Attention", "Kernels", "for", "Short", "Context", "Models"})));
    CHECK(one.verdict == Verdict::Unverified);
    CHECK(one.explanation.find("\"short\"") != std::string::npos);
    // A letter dropped or changed may be OCR's, or another word ("increases", "decreases"): never
    // confirmed; nor a prefix ("possible" drawn as "impossible", "typical" as "atypical").
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, read_as({"Sparse", "Attention", "Kernel", "for", "Long", "Context", "Models"})))
              .verdict == Verdict::Unverified);
    const std::vector<Word> claim = line_of({"Sparsity", "Increases", "Accuracy"});
    const auto read_claim = [&](const char* verb) {
        return pith::page::pixels::judge(claim, reading_of(claim, {ocr("Sparsity", claim[0]), ocr(verb, claim[1]), ocr("Accuracy", claim[2])})).verdict;
    };
    CHECK(read_claim("Decreases") != Verdict::Agrees);
    CHECK(read_claim("lncreases") == Verdict::Agrees);
    const std::vector<Word> possible = line_of({"Sparse", "Attention", "is", "possible", "for", "Typical", "Models"});
    const auto read_possible = [&](const std::vector<std::string>& texts) {
        std::vector<OcrWord> out;
        for (std::size_t i = 0; i < texts.size(); ++i) out.push_back(ocr(texts[i], possible[i]));
        return pith::page::pixels::judge(possible, reading_of(possible, out)).verdict;
    };
    CHECK(read_possible({"Sparse", "Attention", "is", "possible", "for", "Typical", "Models"}) == Verdict::Agrees);
    CHECK(read_possible({"Sparse", "Attention", "is", "impossible", "for", "Typical", "Models"}) != Verdict::Agrees);
    CHECK(read_possible({"Sparse", "Attention", "is", "possible", "for", "Atypical", "Models"}) != Verdict::Agrees);
    // A first letter OCR did not read (it touches a box's edge): OCR's word starts a letter to the
    // right, so the word is the title's, misread, never confirmed without a reading that gives it
    // (the letter may be blank: "symmetric" drawn where the text layer says "asymmetric").
    // Starting where the word starts, the word drawn is another.
    std::vector<OcrWord> initial = read_as({"parse", "Attention", "Kernels", "for", "Long", "Context", "Models"});
    initial[0].x0 += 10;
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, initial)).verdict == Verdict::Unverified);
    std::vector<OcrWord> closer = read_as({"Sparse", "Attention", "Kernels", "for", "Long", "Context", "Models"});
    for (auto& w : closer) w.pass = pith::page::pixels::kPassCloser;
    initial.insert(initial.end(), closer.begin(), closer.end());
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, initial)).verdict == Verdict::Agrees);
    initial.resize(7);
    initial[0].x0 -= 10;
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, initial)).verdict != Verdict::Agrees);
    // Nothing read where the title stands.
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, {})).verdict == Verdict::Unverified);
    // A speck read as a letter, or a word OCR is unsure of, is no extra word.
    std::vector<OcrWord> speck = read_as({"Sparse", "Attention", "Kernels", "for", "Long", "Context", "Models"});
    speck.push_back(ocr("i", kTitle[6]));
    speck.push_back(ocr("Wwm", kTitle[6], 20));
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, speck)).verdict == Verdict::Agrees);
}

TEST_CASE("pixels: word boundaries the pixels show are the title's", "[pixels]") {
    using pith::page::pixels::kPassAlone;
    using pith::page::pixels::kPassCloser;
    const auto judged = [](const std::vector<Word>& t, std::vector<OcrWord> words, int pass = 0) {
        for (auto& w : words) w.pass = w.pass ? w.pass : pass;
        const auto j = pith::page::pixels::judge(t, reading_of(t, words));
        INFO(j.explanation);
        return j.verdict;
    };
    const auto spanning = [](const Word& a, const Word& b) {
        return Word{"", a.x0, a.y0, b.x1, b.y1, a.size, false, true, "", 0};
    };
    // The text layer parts "in" and "action" (a space character), the glyphs join them: OCR reads
    // "inaction", and no reading of the line gives the title's two words.
    const std::vector<Word> action = line_of({"Reinforcement", "Learning", "in", "Action"});
    const std::vector<OcrWord> joined = {ocr("Reinforcement", action[0]), ocr("Learning", action[1]),
                                         ocr("inaction", spanning(action[2], action[3]))};
    CHECK(judged(action, joined) == Verdict::Unverified);
    // Each word read alone in its box says nothing of the boundary.
    std::vector<OcrWord> alone = joined;
    for (std::size_t i = 0; i < action.size(); ++i) {
        alone.push_back(ocr(action[i].text, action[i]));
        alone.back().pass = kPassAlone;
    }
    CHECK(judged(action, alone) == Verdict::Unverified);
    // A closer reading of the line that parts them confirms them.
    std::vector<OcrWord> parted = joined;
    for (std::size_t i = 0; i < action.size(); ++i) {
        parted.push_back(ocr(action[i].text, action[i]));
        parted.back().pass = kPassCloser;
    }
    CHECK(judged(action, parted) == Verdict::Agrees);
    // "a moral" drawn as "amoral": a lone letter joined to the next word is a prefix.
    const std::vector<Word> moral = line_of({"Reward", "Models", "as", "a", "Moral", "Compass"});
    CHECK(judged(moral, {ocr("Reward", moral[0]), ocr("Models", moral[1]), ocr("as", moral[2]),
                         ocr("amoral", spanning(moral[3], moral[4])), ocr("Compass", moral[5])}) ==
          Verdict::Unverified);
    // One word of the text layer the glyphs part: "Therapist" drawn "The rapist", even read alone.
    const std::vector<Word> therapist = line_of({"Therapist", "Training", "Outcomes"});
    const Word& t = therapist[0];
    std::vector<OcrWord> split = {ocr("The", {"", t.x0, t.y0, t.x0 + 30, t.y1, t.size, false, true, "", 0}),
                                  ocr("rapist", {"", t.x0 + 36, t.y0, t.x1, t.y1, t.size, false, true, "", 0}),
                                  ocr("Training", therapist[1]), ocr("Outcomes", therapist[2])};
    CHECK(judged(therapist, split) == Verdict::Unverified);
    split.push_back(ocr("Therapist", t));
    split.back().pass = kPassAlone;
    CHECK(judged(therapist, split) == Verdict::Unverified);
}

TEST_CASE("pixels: what the pixels show between the title's words", "[pixels]") {
    // "Exact Recovery Is Possible": the text layer leaves 24 pt between "Is" and "Possible", where
    // hollow letters stand that OCR reads as "|[" (dropped as punctuation by the comparison).
    std::vector<Word> line = line_of({"Exact", "Recovery", "Is", "Possible"});
    for (std::size_t i = 3; i < line.size(); ++i) line[i].x0 += 24, line[i].x1 += 24;
    pith::page::pixels::TitleWords words;
    words.read = words.page = line;
    std::vector<OcrWord> read;
    for (const Word& w : line) read.push_back(ocr(w.text, w));
    CHECK(pith::page::pixels::judge(words, reading_of(line, read)).verdict == Verdict::Agrees);
    read.push_back(ocr("|[", {"", line[2].x1 + 4, line[2].y0, line[3].x0 - 4, line[2].y1, 10, false, true, "", 0}, 30));
    const auto hollow = pith::page::pixels::judge(words, reading_of(line, read));
    CHECK(hollow.verdict == Verdict::Unverified);
    CHECK(hollow.explanation.find("\"|[\" between \"Is\" and \"Possible\"") != std::string::npos);
    // Read as a quote mark glued to the next word: its ink still runs through the gap.
    read.pop_back();
    read.back() = ocr("\u201cPossible", {"", line[2].x1 + 4, line[3].y0, line[3].x1, line[3].y1, 10, false, true, "", 0});
    CHECK(pith::page::pixels::judge(words, reading_of(line, read)).verdict == Verdict::Unverified);
    // A word of the text layer there (a footnote mark, a formula's piece) explains its ink.
    words.page.push_back({"1", line[2].x1 + 2, line[2].y0, line[3].x0 - 2, line[2].y1, 10, false, true, "", 0});
    CHECK(pith::page::pixels::judge(words, reading_of(line, read)).verdict == Verdict::Agrees);
    // A formula between two words draws glyphs without text (LuaTeX's radical sign): not weighed.
    words.page = line;
    words.unread = {{"n)", line[3].x0 - 8, line[2].y0, line[3].x0 - 2, line[2].y1, 10, false, true, "", 0}};
    CHECK(pith::page::pixels::judge(words, reading_of(line, read)).verdict == Verdict::Agrees);
}

TEST_CASE("pixels: a text word glued to a formula or a logo is read", "[pixels]") {
    // "Learning $k$-Sparse Polynomials": the word "k-Sparse" holds the formula's k and is not read
    // as a word of the title, but its text word "sparse" is (TitleWords::glued).
    const std::vector<Word> line = line_of({"Learning", "k-Sparse", "Polynomials", "in", "Linear", "Time"});
    pith::page::pixels::TitleWords words;
    for (std::size_t i = 0; i < line.size(); ++i) (i == 1 ? words.unread : words.read).push_back(line[i]);
    words.glued = {line[1]};
    words.glued[0].text = "sparse";
    const auto reading = [&](const std::string& glued, int pass = 0) {
        std::vector<OcrWord> read;
        for (std::size_t i = 0; i < line.size(); ++i) read.push_back(ocr(i == 1 ? glued : line[i].text, line[i]));
        for (auto& w : read) w.pass = pass;
        return reading_of(line, read);
    };
    CHECK(pith::page::pixels::judge(words, reading("k-Sparse")).verdict == Verdict::Agrees);
    // The formula's letter read otherwise is the formula's business.
    CHECK(pith::page::pixels::judge(words, reading("/c-Sparse")).verdict == Verdict::Agrees);
    const auto dense = pith::page::pixels::judge(words, reading("k-Dense"));
    CHECK(dense.verdict == Verdict::Unverified);
    CHECK(dense.explanation.find("\"sparse\" glued to a formula") != std::string::npos);
    Reading closer = reading("k-Dense");
    for (const OcrWord& w : reading("k-Sparse", pith::page::pixels::kPassAlone).words) closer.words.push_back(w);
    CHECK(pith::page::pixels::judge(words, closer).verdict == Verdict::Agrees);  // a closer reading gives it
}

TEST_CASE("pixels: two OCR passes, the best reading stands", "[pixels]") {
    // The sparse pass misses the line; the automatic layout reads it.
    std::vector<OcrWord> words = read_as({"Sparse", "Attention", "Kernels", "for", "Long", "Context", "Models"});
    for (auto& w : words) w.pass = 1;
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, words)).verdict == Verdict::Agrees);
    // One pass reads another title, the other nothing: the other title stands.
    std::vector<OcrWord> forged = read_as({"Quantum", "Annealing", "Schedules", "for", "Sparse", "Graph", "Colouring"});
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, forged)).verdict == Verdict::Differs);
    // Both read: the one that agrees stands (a pass misread a line that touches the next).
    std::vector<OcrWord> both = read_as({"Sparse", "Attention", "Kernels", "for", "Lang", "Cantext", "Madels"});
    for (auto w : words) both.push_back(w);
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, both)).verdict == Verdict::Agrees);
}

TEST_CASE("pixels: faint titles, titles outranked, pixels that cannot be read", "[pixels]") {
    const std::vector<OcrWord> same = read_as({"Sparse", "Attention", "Kernels", "for", "Long", "Context", "Models"});
    const auto faint = pith::page::pixels::judge(kTitle, reading_of(kTitle, same, 0xf4));
    CHECK(faint.verdict == Verdict::Faint);
    CHECK(faint.explanation.find("1.1:1") != std::string::npos);
    CHECK(pith::page::pixels::judge(kTitle, reading_of(kTitle, same, 0x77)).verdict == Verdict::Agrees);
    // The title's type is read from its ink: these words stand 20 pt tall, most with ascenders
    // alone (0.70 of their type), so the title is set in about 28.6 pt (pith::page::pixels::ink_type).
    const auto verdict = [&](std::vector<OcrWord> extra) {
        std::vector<OcrWord> words = same;
        words.insert(words.end(), extra.begin(), extra.end());
        return pith::page::pixels::judge(kTitle, reading_of(kTitle, words));
    };
    using pith::page::pixels::kPassBelow;
    // Right over the title, a line in 0.85 of its type or more outranks it, one word too
    // ("Retracted:" over the title, a heading drawn as an image)...
    const auto above = verdict({{"Retracted:", 50, 15, 200, 35, 90}});
    CHECK(above.verdict == Verdict::Outranked);
    CHECK(above.explanation.find("\"Retracted:\" above it in type 1.0 times the title's type") != std::string::npos);
    // ... further up, only a line of two words or more in 1.1 times its type or more (a thesis
    // cover's institution in its type, far above the title, does not)...
    CHECK(verdict({{"Retracted:", 50, -40, 200, -20, 90}}).verdict == Verdict::Agrees);
    CHECK(verdict({{"Retracted", 50, -60, 250, -30, 90}, {"Paper", 260, -60, 400, -30, 90}}).verdict == Verdict::Outranked);
    CHECK(verdict({{"Highlights", 50, -60, 250, -30, 90}}).verdict == Verdict::Agrees);  // one word: a logo, a label
    // ... and not a running head in smaller type, nor something tall and narrow (a margin stamp),
    // nor a mark, nor a word read with little confidence.
    CHECK(verdict({{"Preprint", 50, 25, 120, 35, 90}, {"arXiv", 2, 0, 12, 38, 90}, {"*+", 50, 0, 80, 38, 90},
                   {"Quantum", 50, 10, 200, 38, 30}}).verdict == Verdict::Agrees);
    // Beside the title, two words in 0.85 of its type (a second title printed beside it, two
    // pages 2-up); one word alone may be a logo or a form's field.
    CHECK(verdict({{"Quantum", 700, 38, 800, 62, 90}, {"Annealing", 810, 38, 900, 62, 90}}).verdict == Verdict::Outranked);
    CHECK(verdict({{"Quantum", 700, 38, 800, 62, 90}}).verdict == Verdict::Agrees);
    // Below it, on the rest of the page: two words in 1.1 times its type or more (another title
    // set larger under it)...
    const auto larger = verdict({{"Tensor", 50, 300, 120, 324, 90, kPassBelow}, {"Network", 130, 300, 220, 324, 90, kPassBelow}});
    CHECK(larger.verdict == Verdict::Outranked);
    CHECK(larger.explanation.find("\"Tensor Network\" below it in type 1.2 times the title's type") != std::string::npos);
    // ... not a line in its type (authors, a date, a translation), nor one larger word (a label).
    CHECK(verdict({{"Tensor", 50, 300, 120, 320, 90, kPassBelow}, {"Network", 130, 300, 220, 320, 90, kPassBelow},
                   {"Results", 50, 400, 120, 430, 90, kPassBelow}}).verdict == Verdict::Agrees);
    // Beside or below it, one word in three times the title's type (FAKE across the page).
    const auto huge = verdict({{"FAKE", 50, 300, 400, 400, 90, kPassBelow}});
    CHECK(huge.verdict == Verdict::Outranked);
    CHECK(verdict({{"GeoBase", 50, -120, 400, -20, 90}}).verdict == Verdict::Agrees);  // a logo above the title
    CHECK(huge.explanation.find("\"FAKE\" in type 5.0 times the title's type") != std::string::npos);
    // No OCR: unverified, saying why.
    Reading none;
    none.why = "no OCR here";
    const auto unread = pith::page::pixels::judge(kTitle, none);
    CHECK(unread.verdict == Verdict::Unverified);
    CHECK(unread.explanation.find("no OCR here") != std::string::npos);
    // A script pith knows no OCR language for; a title that is all formula.
    const std::vector<Word> ethiopic = line_of({"\xE1\x88\xB0\xE1\x88\x8B\xE1\x88\x9D", "Models"});  // ሰላም
    const auto geez = pith::page::pixels::judge(ethiopic, reading_of(ethiopic, {}));
    CHECK(geez.verdict == Verdict::Unverified);
    CHECK(geez.explanation.find("written in Ethiopic, for which pith knows no OCR language") != std::string::npos);
    const std::vector<Word> formula = line_of({"\xE2\x88\x82", "x", "=", "\xCE\xB1"});
    CHECK(pith::page::pixels::judge(formula, reading_of(formula, {})).verdict == Verdict::Unverified);
}

TEST_CASE("pixels: a page before the title page is front matter in its pixels too", "[pixels]") {
    using pith::page::pixels::not_front_matter;
    const auto page = [](const std::vector<std::vector<std::string>>& lines, double height = 12) {
        Reading r;
        r.read = true;
        double y = 100;
        for (const auto& line : lines) {
            for (const Word& w : line_of(line, y, height)) r.words.push_back(ocr(w.text, w));
            y += 2 * height;
        }
        return r;
    };
    const std::vector<std::string> title = {"Sparse", "Attention", "Kernels", "for", "Long", "Context", "Models"};
    // Highlights that repeat the title: front matter. A logo alone: front matter.
    CHECK(not_front_matter(page({{"Highlights"}, title, {"Kernels", "that", "skip", "empty", "blocks"}}), 18, title).empty());
    CHECK(not_front_matter(page({{"Institute", "Press"}}), 18, {}).empty());
    // A cover that names another paper, smaller than the title: not front matter.
    const std::string cover = not_front_matter(page({{"Quantum", "Annealing", "Schedules"}, {"Ada", "Lovelace"}}), 18, {});
    CHECK(cover.find("5 words") != std::string::npos);
    CHECK(cover.find("not the record's title") != std::string::npos);
    // Larger type than the title's; more words than front matter holds.
    CHECK(not_front_matter(page({{"Quantum", "Annealing"}}, 30), 18, {}).find("times the title's") != std::string::npos);
    CHECK(not_front_matter(page({{"Quantum", "Annealing"}}, 20), 18, {}).empty());  // two words: a short cover
    CHECK(not_front_matter(page(std::vector<std::vector<std::string>>(40, {"many", "words", "here", "again"})), 18, {})
              .find("160 words") != std::string::npos);
    // The text layer shows the record's title there, the pixels another one.
    CHECK(not_front_matter(page({{"Robust", "Diffusion", "Solvers", "for", "Tiny", "Network", "Graphs"}}), 18, title)
              .find("its pixels show it without") != std::string::npos);
    // Pixels that could not be read are no front matter.
    Reading unread;
    unread.why = "no OCR here";
    CHECK(not_front_matter(unread, 18, title).find("no OCR here") != std::string::npos);
}

TEST_CASE("pixels: encode and decode", "[pixels]") {
    Reading r = reading_of(kTitle, read_as({"Sparse", "Attention"}));
    r.image.x0 = 0.1;
    r.image.y0 = 1.0 / 3;
    r.image = pith::page::pixels::around(std::move(r.image), kTitle);
    const std::string bytes = pith::page::pixels::encode(r);
    const auto back = pith::page::pixels::decode(bytes);
    REQUIRE(back);
    CHECK(back->read);
    CHECK(back->image.rgb == r.image.rgb);
    CHECK(back->image.y0 == r.image.y0);
    CHECK(back->image.row0 == r.image.row0);
    CHECK(back->image.row0 > 0);
    REQUIRE(back->words.size() == 2);
    CHECK(back->words[1].text == "Attention");
    CHECK(back->words[1].x1 == r.words[1].x1);
    for (std::size_t cut : {std::size_t{0}, std::size_t{10}, bytes.size() / 2, bytes.size() - 1}) CHECK_FALSE(pith::page::pixels::decode(bytes.substr(0, cut)));
    CHECK_FALSE(pith::page::pixels::decode(bytes + "x"));
    // Every pass number, the last word's too (a number larger than the bytes after it).
    r.words.back().text = "a";
    r.words.back().pass = pith::page::pixels::kPassLetters;
    const auto last = pith::page::pixels::decode(pith::page::pixels::encode(r));
    REQUIRE(last);
    CHECK(last->words.back().pass == pith::page::pixels::kPassLetters);
    r.words.back().pass = pith::page::pixels::kPassLetters + 1;
    CHECK_FALSE(pith::page::pixels::decode(pith::page::pixels::encode(r)));
}

TEST_CASE("pixels: a Reader's request, encoded and decoded", "[pixels]") {
    pith::page::pixels::Request q{2, pith::page::pixels::region_for({612, 792, kTitle}, kTitle), pith::page::pixels::languages_for(kTitle), std::nullopt};
    q.region.x0 = 1.0 / 3;
    q.languages.why = "line one\nline two";
    q.title = pith::page::pixels::TitleWords{{kTitle.begin(), kTitle.end() - 1}, {kTitle.back()}};
    q.title->glued = {kTitle.back()};
    q.title->glued[0].text = "models";
    const std::string bytes = pith::page::pixels::encode(q);
    const auto back = pith::page::pixels::decode_request(bytes);
    REQUIRE(back);
    CHECK(back->index == 2);
    CHECK(back->region.x0 == q.region.x0);
    CHECK(back->region.rest_line == q.region.rest_line);
    CHECK(back->languages.tesseract == "eng");
    CHECK(back->languages.why == q.languages.why);
    REQUIRE(back->title);
    REQUIRE(back->title->read.size() == kTitle.size() - 1);
    CHECK(back->title->read[1].text == "Attention");
    CHECK(back->title->read[1].x1 == kTitle[1].x1);
    REQUIRE(back->title->unread.size() == 1);
    CHECK(back->title->unread[0].text == "Models");
    REQUIRE(back->title->glued.size() == 1);
    CHECK(back->title->glued[0].text == "models");
    for (std::size_t cut : {std::size_t{0}, std::size_t{10}, bytes.size() / 2, bytes.size() - 1}) CHECK_FALSE(pith::page::pixels::decode_request(bytes.substr(0, cut)));
    CHECK_FALSE(pith::page::pixels::decode_request(bytes + "x"));
    q.title.reset();
    const auto untitled = pith::page::pixels::decode_request(pith::page::pixels::encode(q));
    REQUIRE(untitled);
    CHECK_FALSE(untitled->title);
}

namespace {

// A one-page PDF: `title` in Helvetica-Bold 20 pt at the top in grey `grey` (0-1), a body line below.
std::string title_pdf(const std::string& title, double grey, const std::string& above = "") {
    auto stream = [](const std::string& data) {
        return "<< /Length " + std::to_string(data.size()) + " >>\nstream\n" + data + "\nendstream";
    };
    pdftest::Objects o;
    o[1] = "<< /Type /Catalog /Pages 2 0 R >>";
    o[2] = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>";
    o[3] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >>"
           " /Contents 6 0 R >>";
    o[4] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>";
    o[5] = "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>";
    char g[32];
    std::snprintf(g, sizeof g, "%.3f g ", grey);
    o[6] = stream(above + "BT " + g + "/F1 20 Tf 72 690 Td (" + title + ") Tj ET\n0 g BT /F2 10 Tf 72 650 Td "
                  "(We describe a method and measure it on several benchmarks.) Tj ET");
    return pdftest::classic(o);
}

pith::page::pixels::Judgement read_title(const std::string& pdf) {
    const auto page = pith::page::visible::page_words(pdf, 0);
    REQUIRE(page);
    std::vector<Word> title;
    for (const Word& w : page->words)
        if (w.size > 15 && w.size < 30) title.push_back(w);
    REQUIRE(!title.empty());
    pith::page::pixels::Reader reader(pdf, "");  // started before the title is known, as pith verify starts it
    reader.ask({0, pith::page::pixels::region_for(*page, title), pith::page::pixels::languages_for(title), std::nullopt});
    return pith::page::pixels::judge(title, reader.collect());
}

}  // namespace

TEST_CASE("pixels: real renders read by Tesseract", "[pixels]") {
    const std::string why = pith::page::pixels::preload();
    if (!why.empty()) {
        FAIL("Tesseract cannot start: " << why << " (.ci/deps installs tesseract-ocr and its languages)");
    }
    const auto black = read_title(title_pdf("Sparse Attention Kernels for Long Context Models", 0));
    INFO(black.explanation);
    CHECK(black.verdict == Verdict::Agrees);
    const auto faint = read_title(title_pdf("Sparse Attention Kernels for Long Context Models", 0.957));
    INFO(faint.explanation);
    CHECK(faint.verdict == Verdict::Faint);
    // Another title drawn in 40 pt above the record's.
    const auto above = read_title(title_pdf("Sparse Attention Kernels for Long Context Models", 0,
                                            "BT /F1 40 Tf 72 730 Td (Quantum Annealing) Tj ET\n"));
    INFO(above.explanation);
    CHECK(above.verdict == Verdict::Outranked);
}

// ---------------------------------------------------------------- titles in other scripts

TEST_CASE("pixels: the OCR languages follow the title's scripts", "[pixels]") {
    auto languages = [](const std::vector<std::string>& words) { return pith::page::pixels::languages_for(line_of(words)).tesseract; };
    CHECK(languages({"Sparse", "Attention", "Kernels"}) == "eng");
    CHECK(languages({"The", "\xCE\xB1-Stable", "Laws"}) == "eng");  // a lone Greek letter is a formula's
    CHECK(languages({"\xE2\x88\x82", "x"}) == "eng");                  // no letters: Latin's, and then "mostly formula"
    CHECK(languages({"商品编码"}) == "chi_sim chi_tra");  // two engines: the models together mix their forms
    CHECK(languages({"深層学習による画像認識"}) == "jpn");  // kana: Japanese, whose model reads the kanji too
    CHECK(languages({"基于", "GPU", "的并行排序算法"}) == "chi_sim+eng chi_tra+eng");
    CHECK(languages({"한국어", "자연어", "처리"}) == "kor");
    CHECK(languages({"Теория", "графов"}) == "rus");
    CHECK(languages({"Метод", "Monte", "Carlo"}) == "rus+eng");
    CHECK(languages({"Θεωρία", "αριθμών"}) == "ell");
    CHECK(languages({"التعلم", "العميق"}) == "ara");
    CHECK(languages({"למידה", "עמוקה"}) == "heb");
    CHECK(languages({"गणित", "शिक्षा"}) == "hin");
    CHECK(languages({"ภาษาไทย"}) == "tha");
    const auto ethiopic = pith::page::pixels::languages_for(line_of({"ሰላም", "ዓለም"}));
    CHECK(ethiopic.tesseract.empty());
    CHECK(ethiopic.why.find("Ethiopic") != std::string::npos);
}

namespace {

// One OCR word per text, each in the box of `at` (as Tesseract splits or joins a line).
std::vector<OcrWord> read_in(const Word& at, const std::vector<std::string>& texts) {
    std::vector<OcrWord> out;
    for (const auto& t : texts) out.push_back(ocr(t, at));
    return out;
}

Verdict judged(const std::vector<Word>& title, const std::vector<OcrWord>& words) {
    const auto j = pith::page::pixels::judge(title, reading_of(title, words));
    INFO(j.explanation);
    return j.verdict;
}

// `s` with its code points in reverse order (a right-to-left word stored in visual order).
std::string reversed(const std::string& s) {
    std::vector<std::string> chars;
    for (std::size_t i = 0; i < s.size();) {
        std::size_t n = 1;
        while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
        chars.push_back(s.substr(i, n));
        i += n;
    }
    std::string out;
    for (auto it = chars.rbegin(); it != chars.rend(); ++it) out += *it;
    return out;
}

}  // namespace

TEST_CASE("pixels: titles written without spaces compare character by character", "[pixels]") {
    const std::vector<Word> title = line_of({"深度学习在图像识别中的应用研究"});  // 15 characters
    CHECK(judged(title, read_in(title[0], {"深度学习在图像识别中的应用研究"})) == Verdict::Agrees);
    // Tesseract's spacing (the script models put spaces between words), punctuation it adds.
    CHECK(judged(title, read_in(title[0], {"深度", "学习", "在", "图像", "识别", "中", "的", "应用", "研究。"})) == Verdict::Agrees);
    // A character misread, dropped or added, one in five at most and never two side by side, may
    // be OCR's: unverified, never confirmed (one character can be a word: 不, "not").
    CHECK(judged(title, read_in(title[0], {"深度学刁在图像识别中的应用研究"})) == Verdict::Unverified);
    CHECK(judged(title, read_in(title[0], {"深度学习在图像识别中应用研究"})) == Verdict::Unverified);
    CHECK(judged(title, read_in(title[0], {"深度学习不在图像识别中的应用研究"})) == Verdict::Unverified);
    CHECK(judged(title, read_in(title[0], {"深度学刁在图象识别中的应用研究究"})) == Verdict::Unverified);
    CHECK(judged(title, read_in(title[0], {"深皮学刁在图象识别中酌应用研究"})) != Verdict::Agrees);
    // Two characters side by side are a word the title does not have: 图像 (image) read as 语音 (speech).
    CHECK(judged(title, read_in(title[0], {"深度学习在语音识别中的应用研究"})) == Verdict::Differs);
    // A run of characters the title does not have, or a part of it the pixels do not show.
    CHECK(judged(title, read_in(title[0], {"深度学习并非在图像识别中的应用研究"})) == Verdict::Differs);
    CHECK(judged(title, read_in(title[0], {"深度学习在图像识别中"})) == Verdict::Differs);
    CHECK(judged(title, read_in(title[0], {"量子计算纠错编码方案"})) == Verdict::Differs);
    // Read apart by chi_sim (passes 0-1) and chi_tra (2-3): the best reading stands, and one
    // engine's traditional forms (計算 for 计算) are other characters.
    const std::vector<Word> computing = line_of({"量子计算纠错编码方案"});
    std::vector<OcrWord> two = read_in(computing[0], {"量子計算糾錯編碼方案"});
    CHECK(judged(computing, two) == Verdict::Differs);
    two.push_back(ocr("量子计算纠错编码方案", computing[0]));
    two.back().pass = 3;
    CHECK(judged(computing, two) == Verdict::Agrees);
    // A short title: 商品编码 (product code) is not 商品名称 (product name); one misread character in four passes.
    const std::vector<Word> code = line_of({"商品编码"});
    CHECK(judged(code, read_in(code[0], {"商品名称"})) == Verdict::Differs);
    CHECK(judged(code, read_in(code[0], {"商品编玛"})) == Verdict::Unverified);
    // Japanese (kana and kanji), and Korean, which is written with spaces: word by word as Latin.
    const std::vector<Word> japanese = line_of({"深層学習による画像認識"});
    CHECK(judged(japanese, read_in(japanese[0], {"深層学習", "による", "画像認識"})) == Verdict::Agrees);
    CHECK(judged(japanese, read_in(japanese[0], {"深層学習", "による", "音声認識"})) == Verdict::Differs);
    const std::vector<Word> korean = line_of({"한국어", "자연어", "처리"});
    CHECK(judged(korean, {ocr("한국어", korean[0]), ocr("자연어", korean[1]), ocr("처리", korean[2])}) == Verdict::Agrees);
    CHECK(judged(korean, {ocr("영어", korean[0]), ocr("음성", korean[1]), ocr("처리", korean[2])}) == Verdict::Differs);
}

TEST_CASE("pixels: right-to-left titles in either order of the text layer", "[pixels]") {
    // التعلم العميق (deep learning): the first word stands on the right. Tesseract gives each
    // word's letters in logical order; pith takes OCR's words from the left.
    const std::string first = "التعلم", second = "العميق";
    std::vector<Word> logical = line_of({second, first});
    std::reverse(logical.begin(), logical.end());  // the text layer in logical order: the right-hand word first
    const std::vector<OcrWord> read = {ocr(second, logical[1]), ocr(first, logical[0])};
    CHECK(judged(logical, read) == Verdict::Agrees);
    // The text layer in visual order (each word's letters from the left, as some producers store them).
    const std::vector<Word> visual = line_of({reversed(second), reversed(first)});
    CHECK(judged(visual, {ocr(second, visual[0]), ocr(first, visual[1])}) == Verdict::Agrees);
    // Other words: الشبكات العصبية (neural networks).
    CHECK(judged(logical, {ocr("العصبية", logical[1]), ocr("الشبكات", logical[0])}) == Verdict::Differs);
    CHECK(judged(visual, {ocr("العصبية", visual[0]), ocr("الشبكات", visual[1])}) == Verdict::Differs);
    // Hebrew, with a Latin word: למידה עמוקה for GPU.
    std::vector<Word> hebrew = line_of({"GPU", "עמוקה", "למידה"});
    CHECK(judged(hebrew, {ocr("GPU", hebrew[0]), ocr("עמוקה", hebrew[1]), ocr("למידה", hebrew[2])}) == Verdict::Agrees);
    CHECK(judged(hebrew, {ocr("GPU", hebrew[0]), ocr("רשתות", hebrew[1]), ocr("עצביות", hebrew[2])}) == Verdict::Differs);
}

TEST_CASE("pixels: Cyrillic and Greek titles, letters of one shape", "[pixels]") {
    const std::vector<Word> russian = line_of({"Метод", "Монте-Карло", "для", "задач", "переноса"});
    std::vector<OcrWord> same;
    for (const Word& w : russian) same.push_back(ocr(w.text, w));
    CHECK(judged(russian, same) == Verdict::Agrees);
    // Read with eng+rus, Cyrillic о, е, р, с as the Latin letters of their shape.
    same[1].text = "Mонтe-Kapлo";
    CHECK(judged(russian, same) == Verdict::Agrees);
    std::vector<OcrWord> other = same;
    other[3].text = "систем";
    other[4].text = "уравнений";
    CHECK(judged(russian, other) == Verdict::Differs);
    const std::vector<Word> greek = line_of({"Θεωρία", "αριθμών"});
    CHECK(judged(greek, {ocr("ΘΕΩΡΙΑ", greek[0]), ocr("ΑΡΙΘΜΩΝ", greek[1])}) == Verdict::Agrees);  // all caps, accents dropped
    CHECK(judged(greek, {ocr("Θεωρία", greek[0]), ocr("γραφημάτων", greek[1])}) != Verdict::Agrees);
}

TEST_CASE("pixels: a script whose OCR data is not installed", "[pixels]") {
    if (const std::string why = pith::page::pixels::preload(); !why.empty()) {
        FAIL("Tesseract cannot start: " << why << " (.ci/deps installs tesseract-ocr and its languages)");
    }
    // Tesseract's data directory made empty for this one start (heb+hin: no other case starts them).
    std::string empty = (std::filesystem::temp_directory_path() / "pith-pixels-no-data-XXXXXX").string();
    REQUIRE(::mkdtemp(empty.data()));
    const char* before = std::getenv("TESSDATA_PREFIX");
    const std::string saved = before ? before : "";
    ::setenv("TESSDATA_PREFIX", empty.c_str(), 1);
    const std::string why = pith::page::pixels::preload("heb+hin");
    before ? ::setenv("TESSDATA_PREFIX", saved.c_str(), 1) : ::unsetenv("TESSDATA_PREFIX");
    CHECK(why == "Tesseract has no data for Hebrew (heb), Devanagari (hin): install the Debian packages tesseract-ocr-heb tesseract-ocr-hin");
    Reading none;
    none.why = why;
    const std::vector<Word> hebrew = line_of({"למידה", "עמוקה"});
    const auto j = pith::page::pixels::judge(hebrew, none);
    CHECK(j.verdict == Verdict::Unverified);
    CHECK(j.explanation.find("install the Debian packages tesseract-ocr-heb") != std::string::npos);
    std::filesystem::remove(empty);
}

namespace {

// A one-page PDF whose 20 pt title is set in Adobe's STSong-Light, not embedded (poppler draws
// it with the system's Han font, fonts-wqy-microhei), its codes UCS-2 (UniGB-UCS2-H): the glyphs
// draw `drawn`; a ToUnicode map makes the text layer spell `spelled`, character for character.
std::string han_pdf(const std::u16string& drawn, const std::u16string& spelled) {
    auto stream = [](const std::string& data) {
        return "<< /Length " + std::to_string(data.size()) + " >>\nstream\n" + data + "\nendstream";
    };
    auto hex = [](char16_t c) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "%04X", static_cast<unsigned>(c));
        return std::string(buf);
    };
    std::string codes, pairs;
    for (std::size_t i = 0; i < drawn.size(); ++i) {
        codes += hex(drawn[i]);
        pairs += "<" + hex(drawn[i]) + "> <" + hex(spelled[i]) + ">\n";
    }
    pdftest::Objects o;
    o[1] = "<< /Type /Catalog /Pages 2 0 R >>";
    o[2] = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>";
    o[3] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >>"
           " /Contents 6 0 R >>";
    o[4] = "<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light-UniGB-UCS2-H /Encoding /UniGB-UCS2-H"
           " /DescendantFonts [7 0 R] /ToUnicode 9 0 R >>";
    o[5] = "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>";
    o[6] = stream("BT /F1 20 Tf 72 690 Td <" + codes + "> Tj ET\nBT /F2 10 Tf 72 650 Td "
                  "(We describe a method and measure it on several benchmarks.) Tj ET");
    o[7] = "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1)"
           " /Supplement 2 >> /FontDescriptor 8 0 R /DW 1000 >>";
    o[8] = "<< /Type /FontDescriptor /FontName /STSong-Light /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880"
           " /Descent -120 /CapHeight 880 /StemV 80 >>";
    o[9] = stream("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS)"
                  " /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def\n1 begincodespacerange <0000> <FFFF>"
                  " endcodespacerange\n" + std::to_string(drawn.size()) + " beginbfchar\n" + pairs +
                  "endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end");
    return pdftest::classic(o);
}

}  // namespace

TEST_CASE("pixels: a Chinese title rendered and read by Tesseract", "[pixels]") {
    if (const std::string why = pith::page::pixels::preload("chi_sim") + pith::page::pixels::preload("chi_tra"); !why.empty()) {
        FAIL("Tesseract cannot start: " << why << " (.ci/deps installs tesseract-ocr and its languages)");
    }
    const std::u16string title = u"深度学习图像识别方法", forged = u"量子计算纠错编码方案";
    const auto honest = read_title(han_pdf(title, title));
    INFO(honest.explanation);
    CHECK(honest.verdict == Verdict::Agrees);
    // The glyphs draw another title while the ToUnicode map spells the record's.
    const auto lying = read_title(han_pdf(forged, title));
    INFO(lying.explanation);
    CHECK(lying.verdict == Verdict::Differs);
    CHECK(lying.explanation.find("量子") != std::string::npos);
}

TEST_CASE("pixels: a lone Greek letter in a Latin title is a formula's, not a word", "[pixels]") {
    // OCR (eng) reads α as "a" or drops it: the letter does not count, as before other scripts were read.
    const std::vector<Word> title = line_of({"Robust", "\xCE\xB1-Divergence", "Estimation", "with", "\xCF\x83\xC2\xB2", "Noise"});
    CHECK(pith::page::pixels::languages_for(title).tesseract == "eng");
    CHECK(judged(title, {ocr("Robust", title[0]), ocr("a-Divergence", title[1]), ocr("Estimation", title[2]), ocr("with", title[3]),
                         ocr("2", title[4]), ocr("Noise", title[5])}) == Verdict::Agrees);
    CHECK(judged(title, {ocr("Robust", title[0]), ocr("-Divergence", title[1]), ocr("Estimation", title[2]), ocr("with", title[3]),
                         ocr("2", title[4]), ocr("Noise", title[5])}) == Verdict::Agrees);
    // A digit is shown or the title is not confirmed: one digit makes another exponent or number.
    CHECK(judged(title, {ocr("Robust", title[0]), ocr("-Divergence", title[1]), ocr("Estimation", title[2]), ocr("with", title[3]),
                         ocr("3", title[4]), ocr("Noise", title[5])}) != Verdict::Agrees);
    CHECK(judged(title, {ocr("Robust", title[0]), ocr("-Divergence", title[1]), ocr("Estimation", title[2]), ocr("with", title[3]),
                         ocr("Noise", title[5])}) == Verdict::Unverified);
}
