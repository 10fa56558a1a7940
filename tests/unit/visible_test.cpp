// SPDX-License-Identifier: MIT
// page/visible: which words of a page a reader sees (issue 14 point 3, doc/visible.md).
// Fixtures are one-page PDFs built here: a visible title line plus one copy of another title
// hidden by one technique each, or one visible control. pdftoppm and mutool (independent
// renderers) confirm that each hidden copy changes no pixel of the page.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "page/visible.hpp"
#include "pdf_support.hpp"
#include "required.hpp"

namespace fs = std::filesystem;
using pith::page::visible::Page;
using pith::page::visible::Word;

namespace {

const std::string kShown = "BT /F1 24 Tf 72 700 Td (Visible Control Title) Tj ET\n";
// The hidden copy, at 24 pt where it would be readable if drawn.
const std::string kForged = "(Forged Paper Title) Tj";

struct Spec {
    std::string extra_content;  // page content after kShown
    std::string page_keys;      // more page dictionary keys
    std::string annotation;     // keys of annotation 13 (on the page when not empty)
};

// Annotation 13 with appearance 14 (the forged title, 300 x 30) squeezed into 1 x 1 pt, or
// hidden by its flags, or appearance 15 (an opaque white box) over where kForged is drawn.
const std::string kTinyAnnotation = "/Subtype /Stamp /Rect [300 100 301 101] /F 4 /AP << /N 14 0 R >>";
const std::string kHiddenAnnotation = "/Subtype /Stamp /Rect [72 300 372 330] /F 6 /AP << /N 14 0 R >>";
const std::string kCoveringAnnotation = "/Subtype /Square /Rect [60 590 460 630] /F 4 /AP << /N 15 0 R >>";

// Resources shared by all fixtures: F1 Helvetica, F3 a Type 3 font (A, B), MC0 an OCG that
// is OFF, GS0 fill alpha 0, Fm0 a form with an empty BBox showing the forged title, Im0 a
// 2x2 RGB image.
std::string make_pdf(const Spec& spec) {
    const std::string type3_a = "600 0 0 0 500 700 d1 0 0 m 250 700 l 500 0 l f";
    const std::string type3_b = "600 0 0 0 500 700 d1 0 0 500 700 re 100 100 300 500 re f*";
    const std::string form = "BT /F1 24 Tf 72 600 Td " + kForged + " ET";
    const std::string image = "\x20\x60\xC0\xC0\x80\x20\x40\xA0\x40\xF0\xD0\x10";
    const std::string annot_ap = "BT /F1 24 Tf 0 5 Td " + kForged + " ET";
    const std::string content = kShown + spec.extra_content;
    auto stream = [](const std::string& dict, const std::string& data) {
        return "<< " + dict + " /Length " + std::to_string(data.size()) + " >>\nstream\n" + data + "\nendstream";
    };
    pdftest::Objects o;
    o[1] = "<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [5 0 R] /D << /OFF [5 0 R] >> >> >>";
    o[2] = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>";
    o[3] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " + spec.page_keys +
           " /Resources << /Font << /F1 4 0 R /F3 9 0 R >> /ExtGState << /GS0 6 0 R >>"
           " /XObject << /Fm0 7 0 R /Im0 8 0 R >> /Properties << /MC0 5 0 R >> /Pattern << /P0 16 0 R >> >>" +
           (spec.annotation.empty() ? "" : " /Annots [13 0 R]") + " /Contents 10 0 R >>";
    o[4] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
    o[5] = "<< /Type /OCG /Name (Hidden layer) >>";
    o[6] = "<< /Type /ExtGState /ca 0 >>";
    o[7] = stream("/Type /XObject /Subtype /Form /BBox [0 0 0 0] /Resources << /Font << /F1 4 0 R >> >>", form);
    o[8] = stream("/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8",
                  image);
    o[9] = "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 700] /FontMatrix [0.001 0 0 0.001 0 0]"
           " /CharProcs << /A 11 0 R /B 12 0 R >> /Encoding << /Type /Encoding /Differences [65 /A /B] >>"
           " /FirstChar 65 /LastChar 66 /Widths [600 600] /Resources << >> >>";
    o[10] = stream("", content);
    o[11] = stream("", type3_a);
    o[12] = stream("", type3_b);
    o[13] = "<< /Type /Annot " + spec.annotation + " >>";
    o[14] = stream("/Type /XObject /Subtype /Form /BBox [0 0 300 30] /Resources << /Font << /F1 4 0 R >> >>",
                   annot_ap);
    o[15] = stream("/Type /XObject /Subtype /Form /BBox [0 0 400 40]", "1 g 0 0 400 40 re f");
    // P0: an axial shading pattern, red to blue across the page.
    o[16] = "<< /PatternType 2 /Shading << /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 612 0]"
            " /Function << /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 0 1] /N 1 >> /Extend [true true] >> >>";
    return pdftest::classic(o);
}

const Word* find(const Page& page, const std::string& text) {
    for (const Word& w : page.words)
        if (w.text == text) return &w;
    return nullptr;
}

// The words of kShown: where kShown puts them on an upright page, else the first ones.
void require_shown_visible(const Page& page) {
    const std::vector<std::pair<const char*, double>> shown = {{"Visible", 72}, {"Control", 149.35}, {"Title", 233.38}};
    for (const auto& [text, x0] : shown) {
        const Word* w = nullptr;
        for (const Word& x : page.words)
            if (x.text == text && x.y1 < 110 && std::abs(x.x0 - x0) < 2) w = &x;
        if (!w) w = find(page, text);
        INFO(text);
        REQUIRE(w);
        CHECK(w->visible);
        CHECK(w->hidden_why.empty());
    }
}

// visible_text() with line breaks as spaces.
std::string one_line(const Page& page) {
    std::string s = pith::page::visible::visible_text(page);
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
}

// Pixels of page 1 rendered at 100 dpi by an independent renderer, as PPM bytes.
std::string independent_render(const std::string& tool, const std::string& pdf, const std::string& name) {
    const std::string in = pdftest::temp_path(name + ".pdf"), out = pdftest::temp_path(name + "-" + tool + ".ppm");
    pdftest::write_file(in, pdf);
    const std::string cmd = tool == "pdftoppm" ? "pdftoppm -cropbox -r 100 -f 1 -l 1 -singlefile " + in + " " +
                                                     out.substr(0, out.size() - 4)
                                               : "mutool draw -q -r 100 -o " + out + " " + in + " 1";
    int rc = -1;
    const std::string said = pdftest::run(cmd, &rc);
    INFO(cmd << ": " << said);
    REQUIRE(rc == 0);
    std::string pixels = pdftest::read_file(out);
    fs::remove(in);
    fs::remove(out);
    REQUIRE(!pixels.empty());
    return pixels;
}

// How many bytes differ between two renders of the same size.
long differing_bytes(const std::string& a, const std::string& b) {
    REQUIRE(a.size() == b.size());
    long n = 0;
    for (std::size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
    return n;
}

struct Hidden {
    std::string name;
    Spec with, without;        // the page with the forged title hidden, and without it at all
    std::string why;           // expected hidden_why prefix
    bool may_be_absent;        // poppler's layout may leave the words out entirely
    long speck = 0;            // bytes an independent render may differ by (sub-pixel glyphs)
};

std::vector<Hidden> hidden_fixtures() {
    const std::string at = "72 600 Td ";
    const std::string box = "1 1 1 rg 60 590 400 40 re f\n";
    return {
        {"render mode 3", {"BT /F1 24 Tf 3 Tr " + at + kForged + " ET\n"}, {}, "not painted", false},
        {"render mode 3 laid over the shown title", {"BT /F1 24 Tf 3 Tr 72 700 Td " + kForged + " ET\n"}, {},
         "not painted", false},
        {"render mode 7", {"q BT /F1 24 Tf 7 Tr " + at + kForged + " ET Q\n"}, {}, "not painted", false},
        {"white on white", {"1 1 1 rg BT /F1 24 Tf " + at + kForged + " ET\n"}, {}, "not painted", false},
        {"0.05 pt", {"BT /F1 0.05 Tf " + at + kForged + " ET\n"}, {}, "too small", true, 16},
        {"clipped away", {"q 0 0 10 10 re W n BT /F1 24 Tf " + at + kForged + " ET Q\n"}, {}, "not painted", false},
        {"under an opaque box painted later", {"BT /F1 24 Tf " + at + kForged + " ET\n" + box}, {box},
         "not painted", false},
        {"outside the CropBox", {"BT /F1 24 Tf 72 100 Td " + kForged + " ET\n", "/CropBox [0 300 612 792]"},
         {"", "/CropBox [0 300 612 792]"}, "outside the page", true},
        {"zero text matrix", {"BT /F1 24 Tf 0 0 0 0 72 600 Tm " + kForged + " ET\n"}, {}, "too small", true},
        {"fill alpha 0", {"q /GS0 gs BT /F1 24 Tf " + at + kForged + " ET Q\n"}, {}, "not painted", false},
        {"optional content OFF", {"/OC /MC0 BDC BT /F1 24 Tf " + at + kForged + " ET EMC\n"}, {}, "not painted",
         true},
        {"form XObject with an empty BBox", {"/Fm0 Do\n"}, {}, "not painted", false},
        {"1x1 pt annotation", {"", "", kTinyAnnotation}, {}, "too small", true, 16},
        {"annotation flagged Hidden and NoView", {"", "", kHiddenAnnotation}, {}, "", true},
        {"under an opaque annotation", {"BT /F1 24 Tf " + at + kForged + " ET\n", "", kCoveringAnnotation},
         {"", "", kCoveringAnnotation}, "not painted", false},
        {"only a first letter painted", {"BT /F1 24 Tf " + at + "(F) Tj 1 1 1 rg (orged Paper Title) Tj ET\n"},
         {"BT /F1 24 Tf " + at + "(F) Tj ET\n"}, "", false},
    };
}

}  // namespace

TEST_CASE("visible: each hidden copy of a title is not visible; the shown title is", "[visible]") {
    for (const Hidden& h : hidden_fixtures()) {
        INFO(h.name);
        const std::optional<Page> page = pith::page::visible::page_words(make_pdf(h.with), 0);
        REQUIRE(page);
        require_shown_visible(*page);
        bool present = false;
        for (const char* text : {"Forged", "Paper"}) {
            const Word* w = find(*page, text);
            if (!w) continue;
            present = true;
            INFO(text << " why: " << w->hidden_why << " size " << w->size);
            CHECK(!w->visible);
            CHECK(w->hidden_why.rfind(h.why, 0) == 0);
        }
        if (!h.may_be_absent) CHECK(present);  // text extraction does return it: the test bites
        CHECK(one_line(*page) == "Visible Control Title");
    }
}

TEST_CASE("visible: independent renderers draw no hidden copy", "[visible]") {
    for (const Hidden& h : hidden_fixtures()) {
        for (const std::string tool : {"pdftoppm", "mutool"}) {
            INFO(h.name << " by " << tool);
            const std::string with = independent_render(tool, make_pdf(h.with), "with");
            const std::string without = independent_render(tool, make_pdf(h.without), "without");
            CHECK(differing_bytes(with, without) <= h.speck);
        }
    }
    // The check can fail: the same title drawn plainly changes many pixels.
    const std::string plain = independent_render("pdftoppm", make_pdf({"BT /F1 24 Tf 72 600 Td " + kForged + " ET"}), "p");
    CHECK(differing_bytes(plain, independent_render("pdftoppm", make_pdf({}), "e")) > 1000);
}

TEST_CASE("visible: ordinary text is visible", "[visible]") {
    const std::string forged = "BT /F1 24 Tf 72 600 Td " + kForged + " ET\n";
    const std::vector<std::pair<std::string, Spec>> controls = {
        {"black", {forged}},
        {"red", {"1 0 0 rg " + forged}},
        {"blue, stroked (mode 1)", {"0 0 1 RG 1 Tr " + forged}},
        {"on a coloured box painted before", {"0.8 0.9 1 rg 60 590 400 40 re f 0 g " + forged}},
        {"white on a dark box painted before", {"0.1 0.1 0.4 rg 60 590 400 40 re f 1 g " + forged}},
        {"over an image", {"q 400 0 0 40 60 590 cm /Im0 Do Q 0 g " + forged}},
        {"page /Rotate 90", {forged, "/Rotate 90"}},
        {"page /Rotate 270, CropBox not at the origin", {forged, "/Rotate 270 /CropBox [40 300 600 780]"}},
        {"CropBox not at the origin", {forged, "/CropBox [50 500 562 760]"}},
        {"rotated text", {"BT /F1 24 Tf 0 1 -1 0 300 300 Tm " + kForged + " ET\n"}},
        {"6 pt footnote", {"BT /F1 6 Tf 72 600 Td " + kForged + " ET\n"}},
        {"filled with a shading pattern", {"/Pattern cs /P0 scn " + forged}},
        {"clip (mode 7), then a box painted through it",
         {"q BT /F1 24 Tf 7 Tr 72 600 Td " + kForged + " ET 0 0.5 0 rg 60 590 400 40 re f Q\n"}},
    };
    for (const auto& [name, spec] : controls) {
        INFO(name);
        const std::optional<Page> page = pith::page::visible::page_words(make_pdf(spec), 0);
        REQUIRE(page);
        require_shown_visible(*page);
        for (const char* text : {"Forged", "Paper", "Title"}) {
            const Word* w = nullptr;
            for (const Word& x : page->words)
                if (x.text == text && !(text == std::string("Title") && x.y0 < 120)) w = &x;
            INFO(text);
            REQUIRE(w);
            INFO("why: " << w->hidden_why << ", size " << w->size);
            CHECK(w->visible);
            CHECK(w->x0 >= 0);
            CHECK(w->x1 <= page->width);
        }
    }
}

TEST_CASE("visible: Type 3 glyphs count; in render mode 3 they do not", "[visible]") {
    const std::optional<Page> shown = pith::page::visible::page_words(make_pdf({"BT /F3 24 Tf 72 600 Td (ABBA) Tj ET\n"}), 0);
    REQUIRE(shown);
    const Word* w = find(*shown, "ABBA");
    REQUIRE(w);
    CHECK(w->visible);
    const std::optional<Page> hidden =
        pith::page::visible::page_words(make_pdf({"BT /F3 24 Tf 3 Tr 72 600 Td (ABBA) Tj ET\n"}), 0);
    REQUIRE(hidden);
    w = find(*hidden, "ABBA");
    REQUIRE(w);
    CHECK(!w->visible);
}

TEST_CASE("visible: page size as displayed, boxes from the top-left", "[visible]") {
    std::optional<Page> page = pith::page::visible::page_words(make_pdf({"", "/Rotate 90 /CropBox [0 0 600 700]"}), 0);
    REQUIRE(page);
    CHECK(page->width == Approx(700));
    CHECK(page->height == Approx(600));
    page = pith::page::visible::page_words(make_pdf({}), 0);
    REQUIRE(page);
    const Word* w = find(*page, "Visible");
    REQUIRE(w);
    // Baseline at y = 700 from the bottom of a 792 pt page: 92 pt from the top.
    CHECK(w->y1 == Approx(92).margin(8));
    CHECK(w->x0 == Approx(72).margin(1));
    CHECK(w->size == Approx(24));
    CHECK(w->line_end == false);
    CHECK(find(*page, "Title")->line_end);
}

TEST_CASE("visible: no page, no document", "[visible]") {
    CHECK(!pith::page::visible::page_words(make_pdf({}), 1));
    CHECK(!pith::page::visible::page_words(make_pdf({}), -1));
    CHECK(!pith::page::visible::page_words("not a pdf", 0));
    CHECK(!pith::page::visible::page_words("", 0));
}

TEST_CASE("visible: degenerate and huge pages neither crash nor take long", "[visible]") {
    for (const std::string box : {"[0 0 0 0]", "[0 0 -50 -50]", "[0 0 1e9 1e9]", "[0 0 14400 14400]", "[0 0 1 1]"}) {
        INFO(box);
        std::string pdf = make_pdf({});
        pdf.replace(pdf.find("[0 0 612 792]"), 13, box);  // the offsets that follow are not needed: poppler repairs
        const auto start = std::chrono::steady_clock::now();
        const std::optional<Page> page = pith::page::visible::page_words(pdf, 0);
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
        if (page)
            for (const Word& w : page->words)
                CHECK(w.visible == (w.x1 <= page->width + 8 && w.y1 <= page->height + 8));
    }
}

TEST_CASE("visible: encode and decode are inverse; junk is refused", "[visible]") {
    Page page;
    page.width = 612.25;
    page.height = 1.0 / 3;
    page.words.push_back({"Visible", 1.0 / 7, 2, 3, 4, 24, false, true, ""});
    page.words.push_back({"a\nb 3 \xE2\x82\xAC", -0.0, 1e-300, 1e300, 5, 0.05, true, false, "too small (0.1 pt)"});
    page.words.push_back({"", 0, 0, 0, 0, 0, true, false, "not painted"});
    const std::string bytes = pith::page::visible::encode(page);
    const std::optional<Page> back = pith::page::visible::decode(bytes);
    REQUIRE(back);
    CHECK(pith::page::visible::encode(*back) == bytes);
    CHECK(back->width == page.width);
    CHECK(back->height == page.height);
    REQUIRE(back->words.size() == 3);
    CHECK(back->words[1].text == page.words[1].text);
    CHECK(back->words[0].x0 == page.words[0].x0);
    CHECK(back->words[1].hidden_why == "too small (0.1 pt)");
    CHECK(pith::page::visible::visible_text(*back) == "Visible");
    CHECK(pith::page::visible::all_text(*back) == "Visible a\nb 3 \xE2\x82\xAC\n");
    // Every strict prefix, and any byte appended, is junk.
    for (std::size_t n = 0; n < bytes.size(); ++n) CHECK(!pith::page::visible::decode(bytes.substr(0, n)));
    CHECK(!pith::page::visible::decode(bytes + "x"));
    CHECK(!pith::page::visible::decode("pith-visible 2 1 1 1\n0 0 0 0 0 0 0 1 0 3\nwhy\n"));  // visible with a reason
    CHECK(!pith::page::visible::decode("pith-visible 2 nan 1 0\n"));
}

TEST_CASE("visible: text joins visible words by spaces and lines by newlines", "[visible]") {
    Page page;
    page.words = {{"A", 0, 0, 0, 0, 10, false, true, ""},
                  {"hidden", 0, 0, 0, 0, 10, true, false, "not painted"},
                  {"B", 0, 0, 0, 0, 10, false, true, ""},
                  {"C", 0, 0, 0, 0, 10, true, true, ""}};
    CHECK(pith::page::visible::visible_text(page) == "A\nB C");
    CHECK(pith::page::visible::all_text(page) == "A hidden\nB C");
}

TEST_CASE("visible: a word with letters painted white is not visible", "[visible]") {
    // One black letter: most of the word's glyph pixels show nothing.
    std::optional<Page> page = pith::page::visible::page_words(
        make_pdf({"BT /F1 24 Tf 72 600 Td (F) Tj 1 1 1 rg (orged Paper Title) Tj ET\n"}), 0);
    REQUIRE(page);
    const Word* w = find(*page, "Forged");
    REQUIRE(w);
    CHECK(w->hidden_why.rfind("glyphs mostly not shown (", 0) == 0);
    w = find(*page, "Paper");
    REQUIRE(w);
    CHECK(w->hidden_why == "not painted");
    // One white letter: the reader sees "Forge".
    page = pith::page::visible::page_words(make_pdf({"BT /F1 24 Tf 72 600 Td (Forge) Tj 1 1 1 rg (d) Tj ET\n"}), 0);
    REQUIRE(page);
    w = find(*page, "Forged");
    REQUIRE(w);
    CHECK(w->hidden_why == "partly painted");
}

// Page 1 of every corpus file poppler opens without repair of a broken file (valid, PDF/A,
// signed, large, encrypted with its password): never a crash, a bounded time, an encoding that
// survives the pipe. Hidden words are counted; with PITH_VISIBLE_REPORT=<file> every word is
// written there (file, visible, why, size, box, text) for review (doc/visible.md has the figures).
TEST_CASE("visible: page 1 of the real corpus", "[visible][corpus]") {
    const char* report_path = std::getenv("PITH_VISIBLE_REPORT");
    std::ofstream report;
    if (report_path && *report_path) report.open(report_path);
    int files = 0, pages = 0, words = 0, hidden = 0;
    std::vector<double> ms;
    for (const auto& cols : corpus::manifest()) {
        REQUIRE(cols.size() >= 8);
        if (cols[1] == "malformed") continue;
        ++files;
        const std::string bytes = corpus::file(cols[0]);
        INFO(cols[0]);
        const auto start = std::chrono::steady_clock::now();
        const std::optional<Page> page = pith::page::visible::page_words(bytes, 0, cols[7]);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        CHECK(ms.back() < (pith::page::visible::kRenderSeconds + 3) * 1000);
        if (cols[1] == "valid") CHECK(page);
        if (!page) continue;
        ++pages;
        const std::string encoded = pith::page::visible::encode(*page);
        const std::optional<Page> back = pith::page::visible::decode(encoded);
        REQUIRE(back);
        CHECK(pith::page::visible::encode(*back) == encoded);
        for (const Word& w : page->words) {
            ++words;
            hidden += !w.visible;
            CHECK(w.visible == w.hidden_why.empty());
            if (report.is_open())
                report << cols[0] << '\t' << w.visible << '\t' << w.hidden_why << '\t' << w.size << '\t' << w.x0
                       << '\t' << w.y0 << '\t' << w.x1 << '\t' << w.y1 << '\t' << w.text << '\n';
        }
    }
    std::sort(ms.begin(), ms.end());
    REQUIRE(!ms.empty());
    WARN(pages << " corpus pages, " << words << " words, " << hidden << " hidden; ms per page: median "
               << ms[ms.size() / 2] << ", max " << ms.back());
    CHECK(files == corpus::expected(114, 22));  // all but malformed/ (tests/corpus/counts.tsv)
    CHECK(pages == corpus::expected(113, 22));  // as measured: every file but one of the shared corpus opens
}

TEST_CASE("visible: a word cut by the page edge is outside the page", "[visible]") {
    const std::optional<Page> page =
        pith::page::visible::page_words(make_pdf({"BT /F1 24 Tf 560 600 Td " + kForged + " ET\n"}), 0);
    REQUIRE(page);
    // poppler drops the characters that start past the edge: "Forge" is left, cut through its "e".
    const Word* w = nullptr;
    for (const Word& x : page->words)
        if (x.text.rfind("Forg", 0) == 0) w = &x;
    REQUIRE(w);
    CHECK(w->x1 > page->width);
    CHECK(w->hidden_why == "outside the page");
    CHECK(pith::page::visible::visible_text(*page) == "Visible Control Title");
}

TEST_CASE("visible: a hidden title laid over other visible words is not visible", "[visible]") {
    // Each word's ink is measured with the words overlapping it drawn: the shown words' ink in
    // the same boxes does not count for the hidden ones.
    for (const std::string& hide : {std::string("3 Tr"), std::string("1 g"), std::string("7 Tr")}) {
        INFO(hide);
        const std::optional<Page> page =
            pith::page::visible::page_words(make_pdf({"BT /F1 24 Tf " + hide + " 72 700 Td " + kForged + " ET\n"}), 0);
        REQUIRE(page);
        require_shown_visible(*page);
        for (const char* text : {"Forged", "Paper"}) {
            const Word* w = find(*page, text);
            INFO(text);
            REQUIRE(w);
            CHECK(!w->visible);
        }
        CHECK(one_line(*page) == "Visible Control Title");
    }
}

TEST_CASE("visible: a word under words of every group is crowded out", "[visible]") {
    // Five different words stacked on one spot: the fifth overlaps words of all 4 groups.
    std::string stack;
    for (const char* word : {"(Aaaa)", "(Bbbb)", "(Cccc)", "(Dddd)", "(Eeee)"})
        stack += "BT /F1 24 Tf 72 600 Td " + std::string(word) + " Tj ET\n";
    const std::optional<Page> page = pith::page::visible::page_words(make_pdf({stack}), 0);
    REQUIRE(page);
    require_shown_visible(*page);
    int crowded = 0;
    for (const Word& w : page->words) crowded += w.hidden_why == "overlaps too many other words";
    CHECK(crowded >= 1);
}
