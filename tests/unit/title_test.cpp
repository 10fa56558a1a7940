// SPDX-License-Identifier: MIT
// page/title: normalisation and the title comparison, on text typed in and on the text poppler
// shows on generated and corpus PDFs (pith::page::visible::page_words, the reading verify uses).
#include <catch2/catch.hpp>

#include <podofo/podofo.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include "core/unicode.hpp"
#include "page/pixels.hpp"
#include "page/title.hpp"
#include "page/visible.hpp"
#include "required.hpp"

namespace fs = std::filesystem;
using pith::page::title::compare;
using pith::page::title::normalise;
using pith::page::title::Outcome;

namespace {

// A PDF whose pages show `pages[i]` (one string per line, Helvetica 14 pt, from the top).
std::string make_pdf(const std::vector<std::vector<std::string>>& pages, const std::string& info_title = "") {
    PoDoFo::PdfMemDocument doc;
    PoDoFo::PdfFont* font = doc.CreateFont("Helvetica", false, PoDoFo::PdfEncodingFactory::GlobalWinAnsiEncodingInstance(),
                                           PoDoFo::PdfFontCache::eFontCreationFlags_AutoSelectBase14, false);
    REQUIRE(font);
    font->SetFontSize(14);
    for (const auto& lines : pages) {
        PoDoFo::PdfPage* page = doc.CreatePage(PoDoFo::PdfRect(0, 0, 595, 842));
        PoDoFo::PdfPainter painter;
        painter.SetPage(page);
        painter.SetFont(font);
        double y = 780;
        for (const std::string& line : lines) {
            painter.DrawText(72, y, PoDoFo::PdfString(reinterpret_cast<const PoDoFo::pdf_utf8*>(line.c_str())));
            y -= 18;
        }
        painter.FinishPage();
    }
    if (!info_title.empty())
        doc.GetInfo()->SetTitle(PoDoFo::PdfString(reinterpret_cast<const PoDoFo::pdf_utf8*>(info_title.c_str())));
    PoDoFo::PdfRefCountedBuffer buffer;
    PoDoFo::PdfOutputDevice device(&buffer);
    doc.Write(&device);
    return std::string(buffer.GetBuffer(), device.GetLength());
}

// Text of page `index` (0-based) as the title check reads it: the visible words poppler lays out
// and renders (pith::page::visible::page_words, as verify's child reads a page), joined; nullopt when poppler
// cannot open or unlock the file, the page does not exist, or it shows no text.
std::optional<std::string> page_text(std::string_view pdf, int index, const std::string& password = "") {
    const std::optional<pith::page::visible::Page> page = pith::page::visible::page_words(pdf, index, password);
    if (!page) return std::nullopt;
    std::string text = pith::page::visible::visible_text(*page);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return std::nullopt;
    return text;
}

}  // namespace

// ---------------------------------------------------------------- normalise

TEST_CASE("normalise: case, accents, ligatures", "[title]") {
    CHECK(normalise("Café") == "cafe");
    CHECK(normalise("Cafe\xCC\x81") == "cafe");  // decomposed é
    CHECK(normalise("CAFÉ") == "cafe");
    CHECK(normalise("Einführung in die Geometrie") == "einfuhrung in die geometrie");
    CHECK(normalise("\xEF\xAC\x81rst e\xEF\xAC\x80\x65\x63t \xEF\xAC\x84ow") == "first effect fflow");  // ﬁ ﬀ ﬄ
    CHECK(normalise("Straße") == "strasse");
    CHECK(normalise("ΣΊΣΥΦΟΣ") == normalise("σίσυφος"));
    CHECK(normalise("Ｆｕｌｌ") == "full");  // full-width
}

TEST_CASE("normalise: TeX's dashes read as the dash LaTeX prints", "[title]") {
    CHECK(normalise("Pre-training -- a Survey") == normalise("Pre-training \xE2\x80\x93 a Survey"));     // -- and an en dash
    CHECK(normalise("Models---and Data") == normalise("Models\xE2\x80\x94" "and Data"));               // --- and an em dash
    CHECK(normalise("1--10") == "1-10");
    CHECK(normalise("a - - b") == "a - - b");  // dashes apart stay apart
}

TEST_CASE("normalise: TeX's logo read as LaTeX prints it", "[title]") {
    // \LaTeXe prints "LATEX 2ε" (the A raised, ε in math): pdftotext reads "LATEX 2ε".
    CHECK(normalise("A LaTeX2e class for journals") == normalise("A LATEX 2\xCE\xB5 class for journals"));
    CHECK(normalise("LaTeX 2e") == "latex2e");
    CHECK(compare("Typesetting with LaTeX2e", "", std::string("Typesetting with LATEX 2\xCE\xB5\nA. Author")).outcome == Outcome::Matches);
    CHECK(normalise("2\xCE\xB1") == "2\xCE\xB1");  // other Greek letters stay
    // The text layer of latex/base/source2e.pdf: the logo in pieces, the ε apart from the 2.
    const std::string pieces = "The L A TEX 2 \xCE\xB5 Sources\nJohannes Braams";
    CHECK(compare("The LaTeX2\xCE\xB5 Sources", "", pieces).outcome == Outcome::Matches);
    CHECK(compare("The LaTeX2e Sources", "", pieces).outcome == Outcome::Matches);
    CHECK(compare("The LaTeX Sources", "", pieces).outcome == Outcome::Differs);
}

TEST_CASE("normalise: white space", "[title]") {
    CHECK(normalise("  A\tTitle \n\n on\r\ntwo   lines  ") == "a title on two lines");
    CHECK(normalise("no\xC2\xA0" "break\xE2\x80\x83" "em") == "no break em");  // NBSP, em space
    CHECK(normalise("zero\xE2\x80\x8Bwidth") == "zerowidth");                  // ZWSP is a format char
    CHECK(normalise("") == "");
    CHECK(normalise(" \n\t ") == "");
}

TEST_CASE("normalise: hyphenation and soft hyphens", "[title]") {
    CHECK(normalise("Distri-\nbuted Systems") == "distributed systems");
    CHECK(normalise("Distri-  \r\n  buted") == "distributed");
    CHECK(normalise("Distri\xE2\x80\x90\nbuted") == "distributed");  // U+2010 HYPHEN
    CHECK(normalise("Self-\nSupervised Learning") == "self-supervised learning");
    CHECK(normalise("Distri\xC2\xAD" "buted") == "distributed");    // soft hyphen inside a line
    CHECK(normalise("Distri\xC2\xAD\nbuted") == "distributed");     // soft hyphen at the line end
    CHECK(normalise("Self\xC2\xAD\nSupervised") == "selfsupervised");
    CHECK(normalise("state-of-the-art") == "state-of-the-art");  // ordinary hyphens stay
    CHECK(normalise("1990 -\n2000") == "1990 - 2000");            // not a word break
    CHECK(normalise("x2-\n3") == "x2- 3");                        // digits are not joined
}

TEST_CASE("normalise: quotes and dashes", "[title]") {
    CHECK(normalise("The Dvipdfmx User\xE2\x80\x99s Manual") == "the dvipdfmx user's manual");
    CHECK(normalise("\xE2\x80\x9CQuoted\xE2\x80\x9D and \xE2\x80\x98single\xE2\x80\x99") == "\"quoted\" and 'single'");
    CHECK(normalise("\xC2\xABGuillemets\xC2\xBB") == "\"guillemets\"");
    CHECK(normalise("A \xE2\x80\x93 B \xE2\x80\x94 C \xE2\x88\x92 D \xE2\x80\x90 E") == "a - b - c - d - e");
    CHECK(normalise("Pre\xE2\x80\x93training") == normalise("pre-training"));
}

// ---------------------------------------------------------------- compare

TEST_CASE("compare: plain title on page 1", "[title]") {
    const std::string page = "Journal of Things 12 (2024)\nDistri-\nbuted Ledgers for\nScience\xEF\xAC\x81\x63 Records\nA. Author\n";
    auto r = compare("Distributed Ledgers for Sciencefic Records", "", page);
    CHECK(r.outcome == Outcome::Matches);
    CHECK(r.matched_on == "page 1");
    CHECK_THAT(r.explanation, Catch::Contains("title matches the record"));

    // Case, accents, curly quotes.
    r = compare("Die Welt's Café", "", std::string("DIE WELT\xE2\x80\x99S CAF\xC3\x89\n"));
    CHECK(r.outcome == Outcome::Matches);

    // White space/punctuation differences at word boundaries: "KOMA - Script" vs "KOMA-Script".
    r = compare("KOMA-Script", "", std::string("KOMA - Script\na versatile LaTeX bundle\n"));
    CHECK(r.outcome == Outcome::Matches);
    CHECK(r.matched_on == "page 1");
    // A compound hyphenated at a line end before a lower-case letter.
    r = compare("Self-supervised Learning", "", std::string("Self-\nsupervised Learning\n"));
    CHECK(r.outcome == Outcome::Matches);
}

TEST_CASE("compare: right-to-left titles stored in visual order", "[title]") {
    // "حَبيبي" (logical order) and the same letters as a PDF in visual order holds them.
    const std::string logical = "\u062D\u064E\u0628\u064A\u0628\u064A", visual = "\u064A\u0628\u064A\u0628\u064E\u062D";
    CHECK(compare(logical, "", "x " + visual + " habibi").outcome == Outcome::Matches);
    CHECK(compare(visual, "", "x " + logical + " habibi").outcome == Outcome::Matches);
    // Two words: the whole run turns round, the space between them included; Latin text stays.
    const std::string two_logical = "\u05E9\u05DC\u05D5\u05DD \u05E2\u05D5\u05DC\u05DD";  // "שלום עולם"
    const std::string two_visual = "\u05DD\u05DC\u05D5\u05E2 \u05DD\u05D5\u05DC\u05E9";
    CHECK(compare("Paper: " + two_logical, "", "paper: " + two_visual + "\n").outcome == Outcome::Matches);
    CHECK(compare("", pith::title_hash(logical), visual + "\n").outcome == Outcome::Matches);
    // Not any order: the letters shuffled differ.
    CHECK(compare(logical, "", "\u0628\u064A\u062D\u064E\u0628\u064A\n").outcome == Outcome::Differs);
    // Latin text is never turned round.
    CHECK(compare("Potato", "", std::string("otatoP\n")).outcome == Outcome::Differs);
}

TEST_CASE("compare: a declared title never binds", "[title]") {
    // Info /Title and XMP dc:title are whatever the sender wants: only page 1 counts.
    auto r = compare("Geometrie und Topologie", "", std::nullopt);
    CHECK(r.outcome == Outcome::NothingToCompare);
    r = compare("Geometrie und Topologie", "", std::string("Chapter 3\nSome text."));
    CHECK(r.outcome == Outcome::Differs);
    r = compare("Attention Is All You Need", "", std::string("Attention Is All\nYou Need\nAshish Vaswani et al.\n"));
    CHECK(r.outcome == Outcome::Matches);
    CHECK(r.matched_on == "page 1");
}

TEST_CASE("compare: title differs", "[title]") {
    auto r = compare("Attention Is All You Need", "",
                     std::string("Deep Residual Learning for Image Recognition\nKaiming He\n"));
    CHECK(r.outcome == Outcome::Differs);
    CHECK(r.matched_on.empty());
    CHECK_THAT(r.explanation, Catch::Contains("title differs"));
    CHECK_THAT(r.explanation, Catch::Contains("Attention Is All You Need"));
    // A title that only occurs inside longer words elsewhere, and not at word boundaries,
    // is still a plain substring match (the spec's rule) -- but different words are not.
    r = compare("Graph Networks", "", std::string("Graph Net works\n"));
    CHECK(r.outcome == Outcome::Matches);  // word boundaries inside may differ
    r = compare("Graph Networks", "", std::string("Paragraph Networks\n"));
    CHECK(r.outcome == Outcome::Matches);  // plain substring "graph networks"
    r = compare("Graph Networks", "", std::string("Graph Neural Networks\n"));
    CHECK(r.outcome == Outcome::Differs);
}

TEST_CASE("compare: nothing to compare", "[title]") {
    auto r = compare("A Title", "", std::nullopt);
    CHECK(r.outcome == Outcome::NothingToCompare);
    CHECK_THAT(r.explanation, Catch::Contains("no title to compare"));
    r = compare("A Title", "", std::string(" \n\t\n"));  // white space only
    CHECK(r.outcome == Outcome::NothingToCompare);
    r = compare("", "", std::string("Declared"));  // the record names no title
    CHECK(r.outcome == Outcome::NothingToCompare);
}

TEST_CASE("compare: hash only", "[title]") {
    const std::string title = "The Dvipdfmx User’s Manual";
    const std::string hash = pith::title_hash(title);

    SECTION("single line of page 1") {
        auto r = compare("", hash, std::string("The Dvipdfmx User’s Manual\nThe Dvipdfmx Project Team\n"));
        CHECK(r.outcome == Outcome::Matches);
        CHECK(r.matched_on == "page 1");
    }
    SECTION("title wrapped over lines, odd spacing, blank lines between") {
        auto r = compare("", hash, std::string("Header\n  The Dvipdfmx\n\nUser’s   Manual \nJune 7, 2020\n"));
        CHECK(r.outcome == Outcome::Matches);
        CHECK(r.matched_on == "page 1");
    }
    SECTION("hash in upper case, title wrapped over 4 lines") {
        std::string upper = hash;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        auto r = compare("", upper, std::string("x\nThe\nDvipdfmx\nUser’s\nManual\ny\n"));
        CHECK(r.outcome == Outcome::Matches);
    }
    SECTION("curly quote on the page, straight quote in the registry") {
        auto r = compare("", pith::title_hash("The Dvipdfmx User's Manual"),
                         std::string("THE DVIPDFMX USER’S MANUAL\n"));
        CHECK(r.outcome == Outcome::Matches);
    }
    SECTION("hyphenated over a line break") {
        auto r = compare("", pith::title_hash("Distributed Ledgers"), std::string("Distri-\nbuted Ledgers\n"));
        CHECK(r.outcome == Outcome::Matches);
    }
    SECTION("differs") {
        auto r = compare("", hash, std::string("Another Paper\nSomeone\n"));
        CHECK(r.outcome == Outcome::Differs);
        CHECK_THAT(r.explanation, Catch::Contains("title differs"));
    }
    SECTION("nothing to compare") {
        auto r = compare("", hash, std::nullopt);
        CHECK(r.outcome == Outcome::NothingToCompare);
    }
    SECTION("a plain title that does not hash to title_canon_sha256 is ignored") {
        auto r = compare("Some Other Title", hash, std::string("Some Other Title\n"));
        CHECK(r.outcome == Outcome::Differs);
        CHECK_THAT(r.explanation, Catch::Contains("does not hash to its title_canon_sha256"));
        r = compare(title, hash, std::string("THE DVIPDFMX\nUSER’S MANUAL\n"));
        CHECK(r.outcome == Outcome::Matches);
        CHECK_THAT(r.explanation, !Catch::Contains("does not hash"));
    }
}

TEST_CASE("compare: huge page text is bounded", "[title]") {
    std::string page = "A Title Near The Top\n";
    std::string filler;
    for (int i = 0; i < 200000; ++i) filler += "word" + std::to_string(i % 97) + (i % 12 ? " " : "\n");
    page += filler;  // ~1.4 MB
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(compare("A Title Near the Top", "", page).outcome == Outcome::Matches);
    CHECK(compare("", pith::title_hash("A Title Near The Top"), page).outcome == Outcome::Matches);
    CHECK(compare("Not There", "", page).outcome == Outcome::Differs);
    CHECK(compare("", pith::title_hash("Not There"), page).outcome == Outcome::Differs);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(s < 20.0);
    // Beyond the first kMaxTextBytes of page 1 nothing is considered.
    CHECK(compare("Far Down", "", filler + "\nFar Down\n").outcome == Outcome::Differs);
}

// ---------------------------------------------------------------- page_text on PDFs

TEST_CASE("page_text: generated PDFs", "[title]") {
    const std::string pdf = make_pdf({{"Distributed Ledgers for", "Scientific Caf\xC3\xA9 Records", "A. N. Author"},
                                      {"Second page text"}},
                                     "Microsoft Word - paper.docx");
    auto p1 = page_text(pdf, 0);
    REQUIRE(p1);
    INFO(*p1);
    CHECK_THAT(*p1, Catch::Contains("Distributed Ledgers for"));
    CHECK_THAT(*p1, Catch::Contains("Scientific Caf\xC3\xA9 Records"));
    CHECK_THAT(*p1, !Catch::Contains("Second page"));
    auto p2 = page_text(pdf, 1);
    REQUIRE(p2);
    CHECK_THAT(*p2, Catch::Contains("Second page text"));
    CHECK_FALSE(page_text(pdf, 2));
    CHECK_FALSE(page_text(pdf, -1));

    auto r = compare("Distributed Ledgers for Scientific Café Records", "", p1);
    CHECK(r.outcome == Outcome::Matches);
    CHECK(r.matched_on == "page 1");
    r = compare("", pith::title_hash("Distributed Ledgers for Scientific Café Records"), p1);
    CHECK(r.outcome == Outcome::Matches);
    r = compare("Another Paper Entirely", "", p1);
    CHECK(r.outcome == Outcome::Differs);

    SECTION("hyphenated title") {
        auto h = page_text(make_pdf({{"Distri-", "buted Ledgers"}}), 0);
        REQUIRE(h);
        INFO(*h);
        CHECK(compare("Distributed Ledgers", "", h).outcome == Outcome::Matches);
    }
    SECTION("compound hyphenated at a line end (poppler drops the hyphen)") {
        auto h = page_text(make_pdf({{"Self-", "Supervised Learning"}}), 0);
        REQUIRE(h);
        INFO(*h);
        CHECK(compare("Self-Supervised Learning", "", h).outcome == Outcome::Matches);
    }
    SECTION("no text on the page") {
        const std::string blank = make_pdf({{}});
        CHECK_FALSE(page_text(blank, 0));
        CHECK(compare("Distributed Ledgers", "", page_text(blank, 0)).outcome ==
              Outcome::NothingToCompare);
    }
}

TEST_CASE("page_text: bad input never throws", "[title]") {
    CHECK_FALSE(page_text("", 0));
    CHECK_FALSE(page_text("not a pdf at all", 0));
    CHECK_FALSE(page_text("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF", 0));
    std::string pdf = make_pdf({{"Truncated Title"}});
    CHECK_NOTHROW(page_text(std::string_view(pdf).substr(0, pdf.size() / 2), 0));
    for (std::size_t cut = 0; cut < pdf.size(); cut += 97) CHECK_NOTHROW(page_text(pdf.substr(0, cut), 0));
}

// ---------------------------------------------------------------- page_text on the corpus

// Files of both corpora, and with the shared one its files the committed subset lacks; a file
// named here that the corpus lacks fails (corpus::file).
TEST_CASE("page_text: corpus PDFs", "[title][corpus]") {
    SECTION("pdfTeX minimal document") {
        auto t = page_text(corpus::file("valid/minimal-document.pdf"), 0);
        REQUIRE(t);
        CHECK_THAT(*t, Catch::StartsWith("Lorem ipsum dolor sit amet"));
    }
    SECTION("encrypted with a user password (both corpora)") {
        const std::string pdf = corpus::file("encrypted/pyhanko-minimal-aes256.pdf");  // AES-256, user usersecret
        CHECK_FALSE(page_text(pdf, 0));
        CHECK_FALSE(page_text(pdf, 0, "wrong"));
        CHECK(page_text(pdf, 0, "usersecret"));
        const std::string rc4 = corpus::file("encrypted/libreoffice-writer-password.pdf");  // RC4-128, user openpassword
        CHECK_FALSE(page_text(rc4, 0));
        CHECK(page_text(rc4, 0, "openpassword"));
    }
    SECTION("malformed files do not throw") {
        std::vector<std::string> files = {"malformed/circular-page-tree.pdf", "malformed/pages-loop.pdf",
                                          "malformed/qpdf-bad1-5-bytes.pdf",
                                          "malformed/DERIVED-minimal-document-truncated-tail.pdf"};
        if (!corpus::committed())
            for (const char* f : {"malformed/bad16.pdf", "malformed/deep-pages.pdf", "malformed/content-stream-errors.pdf"})
                files.push_back(f);
        for (const std::string& f : files) {
            const std::string pdf = corpus::file(f);
            INFO(f);
            CHECK_NOTHROW(page_text(pdf, 0));
        }
    }
    SECTION("every large file: page 1 only, quickly") {
        int large = 0;
        for (const auto& row : corpus::manifest()) {
            if (row.size() < 2 || row[1] != "large") continue;
            ++large;
            const std::string bytes = corpus::file(row[0]);
            const auto s0 = std::chrono::steady_clock::now();
            auto text = page_text(bytes, 0);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s0).count();
            INFO(row[0] << " (" << bytes.size() << " bytes): " << ms << " ms, " << (text ? text->size() : 0)
                        << " bytes of text");
            CHECK(ms < 5000);
        }
        CHECK(large == corpus::expected(9, 1));  // tests/corpus/counts.tsv
    }
    if (corpus::committed()) return;  // the files below are in the shared corpus only
    SECTION("XeTeX manual: curly apostrophe on the page, straight in /Title") {
        auto t = page_text(corpus::file("valid/dvipdfmx.pdf"), 0);
        REQUIRE(t);
        CHECK_THAT(*t, Catch::Contains("The Dvipdfmx User\xE2\x80\x99s Manual"));
        CHECK(compare("The Dvipdfmx User's Manual", "", t).matched_on == "page 1");
        CHECK(compare("", pith::title_hash("The Dvipdfmx User's Manual"), t).outcome == Outcome::Matches);
    }
    SECTION("Distiller: ligature glyphs, junk /Title") {
        auto t = page_text(corpus::file("valid/makeindex.pdf"), 0);
        REQUIRE(t);
        CHECK_THAT(normalise(*t), Catch::Contains("the first step in producing the index"));
        auto r = compare("MakeIndex: An Index Processor For LaTeX", "", t);
        CHECK(r.outcome == Outcome::Matches);
        CHECK(r.matched_on == "page 1");
        CHECK(compare("An Index Processor for ConTeXt", "", t).outcome == Outcome::Differs);
    }
    SECTION("pdfTeX manual, 566 pages: KOMA - Script") {
        auto t = page_text(corpus::file("large/scrguide-en.pdf"), 0);
        REQUIRE(t);
        CHECK(compare("KOMA-Script", "", t).matched_on == "page 1");
    }
    SECTION("umlaut title over two lines") {
        auto t = page_text(corpus::file("large/GeoTopo-komprimiert.pdf"), 0);
        REQUIRE(t);
        CHECK(compare("Einführung in die Geometrie und Topologie", "", t).matched_on == "page 1");
        CHECK(compare("", pith::title_hash("Einführung in die Geometrie und Topologie"), t).outcome ==
              Outcome::Matches);
    }
    SECTION("encrypted with a user password") {
        const std::string pdf = corpus::file("encrypted/r6-both-passwords.pdf");  // user foo, owner bar
        CHECK_FALSE(page_text(pdf, 0));
        CHECK_FALSE(page_text(pdf, 0, "wrong"));
        auto t = page_text(pdf, 0, "foo");
        REQUIRE(t);
        CHECK_THAT(*t, Catch::Contains("pdf encryption test"));
        CHECK(page_text(pdf, 0, "bar"));  // the owner password opens it too
        const std::string rc4 = corpus::file("encrypted/r4-aes-user-password.pdf");
        CHECK_FALSE(page_text(rc4, 0));
        CHECK(page_text(rc4, 0, "asdfzxcv"));
    }
}

namespace {

// A page laid out from lines {text, top (pt from the top), size (pt), rotation}, every word visible.
// A word written "^mark" is set as a footnote mark: right after the word before it, raised, in
// 0.6 of the line's type.
struct Line {
    std::string text;
    double top, size;
    int rotation = 0;
};
pith::page::visible::Page laid_out(const std::vector<Line>& lines) {
    pith::page::visible::Page page;
    page.width = 612, page.height = 792;
    for (const Line& line : lines) {
        std::istringstream in(line.text);
        double x = 72;
        for (std::string word; in >> word;) {
            if (word.size() > 1 && word[0] == '^' && !page.words.empty()) {
                const double size = 0.6 * line.size, left = page.words.back().x1 + 0.02 * line.size;
                const double w = 0.5 * size * static_cast<double>(word.size() - 1);
                page.words.push_back({word.substr(1), left, line.top - 0.3 * line.size, left + w, line.top - 0.3 * line.size + size, size,
                                      false, true, "", line.rotation});
                x = left + w + 0.3 * line.size;
                continue;
            }
            const double w = 0.5 * line.size * static_cast<double>(word.size());
            page.words.push_back({word, x, line.top, x + w, line.top + line.size, line.size, false, true, "", line.rotation});
            x += w + 0.3 * line.size;
        }
        page.words.back().line_end = true;
    }
    return page;
}

pith::page::title::Shown shown(const std::string& title, const std::vector<Line>& lines) {
    return pith::page::title::on_page(title, pith::title_hash(title), laid_out(lines)).shown;
}

const std::string kTitleA = "Sparse Attention Kernels for Long Context Models";
const std::string kTitleB = "Quantum Annealing Schedules for Sparse Graph Colouring";
const std::vector<Line> kBody = {{"We describe a method and measure it on several benchmarks today", 300, 10},
                                 {"The results hold for all inputs we tried and we discuss limits", 312, 10},
                                 {"Large models need long inputs and this paper is about serving them", 324, 10}};

std::vector<Line> with(std::vector<Line> lines, const std::vector<Line>& more) {
    lines.insert(lines.end(), more.begin(), more.end());
    return lines;
}

}  // namespace

TEST_CASE("on_page: a title is set in the page's title type", "[title]") {
    using pith::page::title::Shown;
    const std::vector<Line> authors = {{"Ada Lovelace and Alan Turing", 250, 12}};
    // The paper's own title, largest and first.
    CHECK(shown(kTitleA, with({{kTitleA, 100, 18}}, with(authors, kBody))) == Shown::AsTitle);
    // A fake heading: A's title as a line of its own under B's larger title, or at body size
    // under B's authors.
    CHECK(shown(kTitleA, with({{kTitleB, 100, 18}}, with(authors, with(kBody, {{kTitleA, 400, 12}})))) == Shown::NotAsTitle);
    CHECK(shown(kTitleA, with({{kTitleB, 100, 10}}, with(authors, with(kBody, {{kTitleA, 400, 12}})))) == Shown::NotAsTitle);
    // The same type as the title, above it, outranks it; below it (authors, a heading) does not.
    CHECK(shown(kTitleA, with({{"Journal of Examples Volume Three", 60, 18}, {kTitleA, 100, 18}}, kBody)) == Shown::NotAsTitle);
    CHECK(shown(kTitleA, with({{"Journal of Examples Volume Three", 60, 9}, {kTitleA, 100, 18}}, kBody)) == Shown::AsTitle);
    CHECK(shown(kTitleA, with({{kTitleA, 100, 18}, {"1 Introduction and Background", 200, 17}}, kBody)) == Shown::AsTitle);
    // Right over the title (at most its type apart), nearly its type outranks it, as on the
    // pixels (a reframing line OCR does not read); further up, or a size smaller, it does not.
    CHECK(shown(kTitleA, with({{"A Critique of", 80, 17}, {kTitleA, 100, 18}}, kBody)) == Shown::NotAsTitle);
    CHECK(shown(kTitleA, with({{"A Critique of", 80, 15.5}, {kTitleA, 100, 18}}, kBody)) == Shown::NotAsTitle);
    CHECK(shown(kTitleA, with({{"A Critique of", 80, 15}, {kTitleA, 100, 18}}, kBody)) == Shown::AsTitle);
    CHECK(shown(kTitleA, with({{"Journal of Examples", 40, 17}, {kTitleA, 100, 18}}, kBody)) == Shown::AsTitle);
    // Larger type that is no heading: a turned margin stamp, a single word (a watermark, a logo).
    CHECK(shown(kTitleA, with({{"arXiv:2405.01234v2 [cs.LG] 28 May 2026", 400, 24, 3}, {kTitleA, 100, 18}}, kBody)) == Shown::AsTitle);
    CHECK(shown(kTitleA, with({{"DRAFT", 400, 96}, {kTitleA, 100, 18}}, kBody)) == Shown::AsTitle);
    CHECK(shown(kTitleA, with({{"arXiv:2405.01234v2 [cs.LG] 28 May 2026", 400, 24, 0}, {kTitleA, 100, 18}}, kBody)) == Shown::NotAsTitle);
    // A paper's title stacked one word a line is a heading; a single large word alone is not.
    CHECK(shown(kTitleA, with({{"Quantum", 60, 18}, {"Annealing", 80, 18}, {"Schedules", 100, 18}}, with(kBody, {{kTitleA, 400, 14}}))) ==
          Shown::NotAsTitle);
    CHECK(shown(kTitleA, with({{"Quantum", 60, 18}, {kTitleA, 100, 18}}, kBody)) == Shown::AsTitle);
    // A title in one large word among smaller ones is measured by its largest type.
    CHECK(shown("Practical use of SPECIAL plain macros", with({{"Practical use of", 100, 36}, {"SPECIAL", 150, 64},
                                                                 {"plain macros", 220, 36}, {"A talk given at a meeting", 300, 40}}, kBody)) == Shown::AsTitle);
}

TEST_CASE("title_block: the title page after a graphical abstract and highlights that repeat the title", "[title]") {
    // elsarticle: page 1 sets the title in small type under "Graphical Abstract", page 2 under
    // "Highlights" (one word: no heading), page 3 is the title block.
    const std::vector<std::vector<Line>> pages = {
        {{"Graphical Abstract", 100, 14}, {kTitleA, 130, 10}, {"A diagram of the model would be here", 160, 10}},
        {{"Highlights", 100, 14}, {kTitleA, 130, 10}, {"A general model for distributed training", 160, 10}},
        with({{kTitleA, 100, 14}, {"Ada Lovelace", 130, 10}}, kBody)};
    const auto read = [&](int i) { return pith::page::visible::Reading{laid_out(pages[static_cast<std::size_t>(i)]), std::nullopt, false, ""}; };
    // The pixels are asked about each page before the title page, with the title's type and the
    // record's title as that page's text layer shows it.
    std::vector<std::string> asked;
    const auto pixels_agree = [&](int i, const pith::page::visible::Page&, double size, const std::vector<std::string>& title) {
        std::string words;
        for (const auto& w : title) words += (words.empty() ? "" : " ") + w;
        asked.push_back(std::to_string(i) + " " + std::to_string(static_cast<int>(size)) + " " + words);
        return std::string();
    };
    CHECK(pith::page::title::title_block(kTitleA, pith::title_hash(kTitleA), 3, read, pixels_agree).index == 2);
    CHECK(asked == std::vector<std::string>{"0 14 " + std::string(kTitleA), "1 14 " + std::string(kTitleA)});
    // The pixels have the last word: a page they do not see as front matter lends nothing.
    const auto pixels_object = [](int i, const pith::page::visible::Page&, double, const std::vector<std::string>&) {
        return i == 1 ? std::string("its pixels show \"Quantum Annealing\" in type larger than the title's") : std::string();
    };
    const pith::page::title::TitleBlock vetoed = pith::page::title::title_block(kTitleA, pith::title_hash(kTitleA), 3, read, pixels_object);
    CHECK(vetoed.index == 0);
    CHECK_THAT(vetoed.shown.explanation, Catch::Matchers::Contains("page 3 shows it as the title, but page 2 is not front matter: its pixels show"));
    // A page 1 that shows the paper's own text cannot lend its title block to a later page.
    std::vector<std::vector<Line>> borrowed = pages;
    borrowed[0] = with({{kTitleB, 100, 18}}, kBody);
    const auto read_borrowed = [&](int i) { return pith::page::visible::Reading{laid_out(borrowed[static_cast<std::size_t>(i)]), std::nullopt, false, ""}; };
    const pith::page::title::TitleBlock block = pith::page::title::title_block(kTitleA, pith::title_hash(kTitleA), 3, read_borrowed, pixels_agree);
    CHECK(block.index == 0);
    CHECK(block.shown.shown == pith::page::title::Shown::Differs);
    // Nor can a short cover that names another paper in type smaller than the title's; a cover of
    // a few words (a logo) can.
    borrowed[0] = {{kTitleB, 100, 12}, {"Ada Lovelace and Alan Turing", 130, 10}};
    CHECK(pith::page::title::title_block(kTitleA, pith::title_hash(kTitleA), 3, read_borrowed, pixels_agree).index == 0);
    CHECK_THAT(pith::page::title::title_block(kTitleA, pith::title_hash(kTitleA), 3, read_borrowed, pixels_agree).shown.explanation,
               Catch::Matchers::Contains("page 1 is not front matter: it shows 12 words but not the record's title"));
    borrowed[0] = {{"Institute Press", 100, 12}};
    CHECK(pith::page::title::title_block(kTitleA, pith::title_hash(kTitleA), 3, read_borrowed, pixels_agree).index == 2);
}

TEST_CASE("on_page: only the signed hash binds, and a title found by it is held to the same rules", "[title]") {
    using pith::page::title::Shown;
    using pith::page::title::on_page;
    const auto honest = laid_out(with({{kTitleA, 100, 18}}, kBody));
    const auto fake = laid_out(with({{kTitleB, 100, 18}}, with(kBody, {{kTitleA, 400, 12}})));
    CHECK(on_page(kTitleA, "", honest).shown == Shown::Unknown);  // pith:title alone is nobody's word
    CHECK(on_page("", pith::title_hash(kTitleA), honest).shown == Shown::AsTitle);
    CHECK(on_page("", pith::title_hash(kTitleA), honest).span.has_value());
    CHECK(on_page("", pith::title_hash(kTitleA), fake).shown == Shown::NotAsTitle);
    CHECK(on_page(kTitleB, pith::title_hash(kTitleA), fake).shown == Shown::NotAsTitle);  // a plain title that does not hash is ignored
}

TEST_CASE("on_page: a record's title written in TeX, as the page shows it", "[title]") {
    using pith::page::title::Shown;
    const std::vector<Line> authors = {{"Ada Lovelace and Alan Turing", 250, 12}};
    auto page = [&](const std::vector<Line>& title) { return with(title, with(authors, kBody)); };
    const std::string sparse = "Learning $k$-Sparse Polynomials in $O(n\\log n)$ Time";
    // The formula's spacing is the typesetter's: "O(n log n)", "O(nlogn)", "O(n logn)".
    CHECK(shown(sparse, page({{"Learning k-Sparse Polynomials in O(n log n) Time", 100, 18}})) == Shown::AsTitle);
    CHECK(shown(sparse, page({{"Learning k-Sparse Polynomials in O(nlogn) Time", 100, 18}})) == Shown::AsTitle);
    CHECK(shown(sparse, page({{"Learning k-Sparse Polynomials", 100, 18}, {"in O(n logn) Time", 120, 18}})) == Shown::AsTitle);
    // Math italic letters (capitals have no case until NFKD makes them letters).
    CHECK(shown(sparse, page({{"Learning 𝑘-Sparse Polynomials in 𝑂(𝑛 log 𝑛) Time", 100, 18}})) == Shown::AsTitle);
    // Superscripts are raised like marks: inside a formula they are part of it.
    CHECK(shown("Estimation with $\\sigma^2$ Noise", page({{"Estimation with σ ^2 Noise", 100, 18}})) == Shown::AsTitle);
    CHECK(shown("An $\\mathcal{O}(\\sqrt{n})$ Regret Bound", page({{"An O(√n) Regret Bound", 100, 18}})) == Shown::AsTitle);
    CHECK(shown("An $\\mathcal{O}(\\sqrt{n})$ Regret Bound", page({{"An O( n) Regret Bound", 100, 18}})) == Shown::AsTitle);
    // Another formula is another title.
    CHECK(shown(sparse, page({{"Learning k-Sparse Polynomials in O(n^2) Time", 100, 18}})) == Shown::Differs);
    CHECK(shown(sparse, page({{"Learning q-Sparse Polynomials in O(n log n) Time", 100, 18}})) == Shown::Differs);
    // Accents as TeX, the page's letters as Unicode (or accents dropped by the font's encoding).
    const std::string bridges = "Schr\\\"odinger Bridges on Erd\\H{o}s--R\\'enyi Graphs";
    CHECK(shown(bridges, page({{"Schrödinger Bridges on Erdős–Rényi Graphs", 100, 18}})) == Shown::AsTitle);
    CHECK(shown(bridges, page({{"Schrodinger Bridges on Erdos-Renyi Graphs", 100, 18}})) == Shown::AsTitle);
    CHECK(shown("Trust \\& Provenance in ``Open'' {GPU}s", page({{"Trust & Provenance in “Open” GPUs", 100, 18}})) == Shown::AsTitle);
    CHECK(shown("A \\emph{Two}~Line\\\\ Title for Tests", page({{"A Two Line", 100, 18}, {"Title for Tests", 120, 18}})) == Shown::AsTitle);
    CHECK(shown("$\\alpha$-Stable Processes and $\\Gamma$ Functions", page({{"α-Stable Processes and Γ Functions", 100, 18}})) == Shown::AsTitle);
    CHECK(shown("Typesetting with \\LaTeX", page({{"Typesetting with LATEX", 100, 18}})) == Shown::AsTitle);
    // Hyphenated at a line end.
    CHECK(shown("Distributed Training of Models", page({{"Distri-", 100, 18}, {"buted Training of Models", 120, 18}})) == Shown::AsTitle);
}

TEST_CASE("on_page: word boundaries are kept outside formulas", "[title]") {
    using pith::page::title::Shown;
    CHECK(shown("Therapist Training Outcomes", with({{"The Rapist Training Outcomes", 100, 18}}, kBody)) == Shown::Differs);
    CHECK(shown("The Rapist Training Outcomes", with({{"Therapist Training Outcomes", 100, 18}}, kBody)) == Shown::Differs);
    // The title's first and last words are whole words of the page.
    CHECK(shown("Sparse Attention Kernels", with({{"XSparse Attention Kernels", 100, 18}}, kBody)) == Shown::Differs);
    // Inside a longer word the title's words are in the text, but not as its title: never trusted.
    CHECK(shown("Sparse Attention Kernels", with({{"Non-Sparse Attention Kernels", 100, 18}}, kBody)) == Shown::Unknown);
}

TEST_CASE("on_page: footnote and affiliation marks on the title", "[title]") {
    using pith::page::title::Shown;
    // \thanks, \tnoteref, $^\star$, a digit, letters and lists: raised, smaller, right after a word.
    for (const char* mark : {"^∗", "^⋆", "^1", "^†", "^a", "^1,2", "^∗,†", "^☆"})
        CHECK(shown(kTitleA, with({{kTitleA + " " + mark, 100, 18}}, kBody)) == Shown::AsTitle);
    CHECK(shown(kTitleA, with({{"Sparse Attention ^1 Kernels for Long Context Models ^2", 100, 18}}, kBody)) == Shown::AsTitle);
    // A star in the title's own type and run (acmart's \titlenote).
    CHECK(shown(kTitleA, with({{kTitleA + "∗", 100, 18}}, kBody)) == Shown::AsTitle);
    CHECK(shown(kTitleA, with({{kTitleA + "s", 100, 18}}, kBody)) != Shown::AsTitle);
    // The same characters at the title's size are text on its line; a raised word is no mark.
    CHECK(shown(kTitleA, with({{kTitleA + " 1", 100, 18}}, kBody)) == Shown::NotAsTitle);
    CHECK(shown(kTitleA, with({{kTitleA + " ^not", 100, 18}}, kBody)) == Shown::NotAsTitle);
    CHECK(shown(kTitleA, with({{kTitleA + " ^123", 100, 18}}, kBody)) == Shown::NotAsTitle);
    // A footnote-size copy of the title is not its title.
    CHECK(shown(kTitleA, with({{kTitleB, 100, 18}}, with(kBody, {{kTitleA, 700, 8}}))) == Shown::NotAsTitle);
    // A digit raised after a number is its power to a reader (10 raised 3 is 1000), not a mark;
    // after a word it is a mark, and so is a symbol after a number.
    const std::string gpus = "Training Language Models on 10 GPUs";
    CHECK(shown(gpus, with({{"Training Language Models on 10 ^3 GPUs", 100, 18}}, kBody)) != Shown::AsTitle);
    CHECK(shown(gpus, with({{"Training Language Models on 10 GPUs ^3", 100, 18}}, kBody)) == Shown::AsTitle);
    CHECK(shown(gpus, with({{"Training Language Models on 10 ^∗ GPUs", 100, 18}}, kBody)) == Shown::AsTitle);
    // Punctuation the text layer parts from the title's last word but the page sets against it
    // (latex/base/tulm.pdf: "LaTeX2ε" then "." in another font) ends no word of the title.
    for (const auto& [gap, as_title] : {std::pair{0.0, true}, std::pair{0.33, false}}) {
        auto page = laid_out(with({{kTitleA + " .", 100, 18}}, kBody));
        const double w = page.words[7].x1 - page.words[7].x0;
        page.words[7].x0 = page.words[6].x1 + gap * 18, page.words[7].x1 = page.words[7].x0 + w;
        CHECK((pith::page::title::on_page(kTitleA, pith::title_hash(kTitleA), page).shown == Shown::AsTitle) == as_title);
    }
    // A mark an interword space after the title (`program \thanks{...}`, latex/base/docstrip.pdf) is
    // still a mark; further off it is text on the title's line.
    for (const auto& [gap, as_title] : {std::pair{0.33, true}, std::pair{0.7, false}}) {
        auto page = laid_out(with({{kTitleA + " ^\xE2\x88\x97", 100, 18}}, kBody));  // ∗
        const std::size_t star = 7;
        const double w = page.words[star].x1 - page.words[star].x0;
        page.words[star].x0 = page.words[star - 1].x1 + gap * 18, page.words[star].x1 = page.words[star].x0 + w;
        CHECK((pith::page::title::on_page(kTitleA, pith::title_hash(kTitleA), page).shown == Shown::AsTitle) == as_title);
    }
}

TEST_CASE("on_page: what the pixels are asked to read of formulas, logos and words the text layer parts", "[title]") {
    using pith::page::title::Shown;
    // A text word glued to a formula ("$k$-Sparse") or a logo ("Non-\TeX{}"): the word is left
    // to the text layer, its text words are not.
    const std::string sparse = "Learning $k$-Sparse Polynomials in Linear Time";
    const auto sparse_page = laid_out(with({{"Learning k-Sparse Polynomials in Linear Time", 100, 18}}, kBody));
    auto t = pith::page::title::on_page(sparse, pith::title_hash(sparse), sparse_page);
    REQUIRE(t.shown == Shown::AsTitle);
    REQUIRE(t.formula_words == std::vector<std::size_t>{1});
    CHECK(t.formula_text == std::vector<std::string>{"sparse"});
    const std::string tex = "Non-\\TeX{} Users Prefer Markdown";
    t = pith::page::title::on_page(tex, pith::title_hash(tex),
                                   laid_out(with({{"Non-TeX Users Prefer Markdown", 100, 18}}, kBody)));
    REQUIRE(t.shown == Shown::AsTitle);
    CHECK(t.formula_text == std::vector<std::string>{"non"});
    // TeX's logo with its E lowered: the text layer parts "LaT", "e", "X" where the page shows no
    // space; the record's word goes on, and the pixels read it whole.
    const std::string latex = "Writing Papers in LaTeX Made Simple";
    pith::page::visible::Page page = laid_out(with({{"Writing Papers in LaT e X Made Simple", 100, 18}}, kBody));
    page.words[4].x0 = page.words[3].x1, page.words[4].x1 = page.words[4].x0 + 8;
    page.words[4].y0 += 3, page.words[4].y1 += 3;
    page.words[5].x0 = page.words[4].x1, page.words[5].x1 = page.words[5].x0 + 10;
    t = pith::page::title::on_page(latex, pith::title_hash(latex), page);
    REQUIRE(t.shown == Shown::AsTitle);
    CHECK(t.joined_words == std::vector<std::size_t>{3, 4});
    const auto words = pith::page::pixels::title_words(page, *t.span, t.formula_words, t.formula_text, t.joined_words);
    REQUIRE(words.read.size() == 6);
    CHECK(words.read[3].text == "LaTeX");
    CHECK(words.read[3].x1 == page.words[5].x1);
    // \LaTeXe as latex/base/source2e.pdf's text layer gives it: L, A and TEX glued, a space, then
    // 2 and ε glued (the ε from a math font). The record writes it LaTeX2e or LaTeX2ε.
    page = laid_out(with({{"The L A TEX 2 \xCE\xB5 Sources", 100, 18}}, kBody));
    const auto glue = [&](std::size_t k) {
        const double w = page.words[k].x1 - page.words[k].x0;
        page.words[k].x0 = page.words[k - 1].x1 - 1, page.words[k].x1 = page.words[k].x0 + w;
    };
    glue(2), glue(3);
    page.words[4].x0 = page.words[3].x1 + 2.4, page.words[4].x1 = page.words[4].x0 + 8;
    glue(5);
    for (const std::string logo : {"The LaTeX2e Sources", "The LaTeX2\xCE\xB5 Sources"})
        CHECK(pith::page::title::on_page(logo, pith::title_hash(logo), page).shown == Shown::AsTitle);
    for (const std::string other : {"The LaTeX Sources", "The LaTeX2 Sources", "The LaTeX2\xCE\xB1 Sources"})
        CHECK(pith::page::title::on_page(other, pith::title_hash(other), page).shown != Shown::AsTitle);
    // Words the text layer parts with a space stay parted.
    t = pith::page::title::on_page(kTitleA, pith::title_hash(kTitleA), laid_out(with({{kTitleA, 100, 18}}, kBody)));
    CHECK(t.joined_words.empty());
}

TEST_CASE("on_page: TeX pith cannot typeset is never a wildcard for the title", "[title]") {
    using pith::page::title::Shown;
    const std::string title = "The \\ours{} Method for Sparse Attention";
    const auto t = pith::page::title::on_page(title, pith::title_hash(title), laid_out(with({{"The OurNet Method for Sparse Attention", 100, 18}}, kBody)));
    CHECK(t.shown == Shown::AsTitle);
    CHECK(t.explanation.find("\\ours") != std::string::npos);
    CHECK(shown(title, with({{"The OurNet Method for Dense Attention", 100, 18}}, kBody)) == Shown::Differs);
    CHECK(shown(title, with({{"The A B C D E Method for Sparse Attention", 100, 18}}, kBody)) == Shown::Differs);
    // A title that is mostly what pith cannot typeset cannot be compared.
    CHECK(shown("\\foo{} \\bar{} Networks", with({{"Foo Bar Networks", 100, 18}}, kBody)) == Shown::Unknown);
}

TEST_CASE("on_page: a page that shows no text, or only pith's badge", "[title]") {
    using pith::page::title::Shown;
    CHECK(shown(kTitleA, {}) == Shown::Unknown);
    CHECK(shown(kTitleA, {{"pith:YRUNQITD", 40, 8}}) == Shown::Unknown);
}


TEST_CASE("on_page: raised text the record raises too is the title's, not a mark", "[title]") {
    using pith::page::title::Shown;
    // article.cls, pdfLaTeX: "Ca\textsuperscript{2+} Transients, 2\textsuperscript{nd}-Order
    // Effects and \textsuperscript{14}C Dating" as poppler gives its words.
    pith::page::visible::Page page = laid_out(kBody);
    struct W {
        const char* text;
        double x0, x1;
        bool raised;
    };
    const W line[] = {{"Ca", 130.2, 149.6, false},   {"2+", 149.6, 164.6, true},      {"Transients,", 170.3, 245.6, false},
                      {"2", 250.8, 258.7, false},    {"nd", 258.7, 271.7, true},      {"-Order", 272.2, 317.8, false},
                      {"Effects", 323.0, 369.1, false}, {"and", 374.3, 399.8, false}, {"14", 405.0, 416.7, true},
                      {"C", 417.2, 428.7, false},    {"Dating", 433.9, 481.0, false}};
    std::vector<pith::page::visible::Word> words;
    for (const W& w : line)
        words.push_back({w.text, w.x0, w.raised ? 152.1 : 154.7, w.x1, w.raised ? 162.7 : 170.0, w.raised ? 10.0 : 14.3, false,
                         true, "", 0});
    words.back().line_end = true;
    page.words.insert(page.words.begin(), words.begin(), words.end());
    const auto shown_as = [&](const std::string& title) { return pith::page::title::on_page(title, pith::title_hash(title), page).shown; };
    CHECK(shown_as("Ca\\textsuperscript{2+} Transients, 2\\textsuperscript{nd}-Order Effects and \\textsuperscript{14}C Dating") ==
          Shown::AsTitle);
    CHECK(shown_as("Ca2+ Transients, 2nd-Order Effects and 14C Dating") == Shown::AsTitle);
    CHECK(shown_as("Ca\\textsuperscript{3+} Transients, 2\\textsuperscript{nd}-Order Effects and \\textsuperscript{14}C Dating") !=
          Shown::AsTitle);
    CHECK(shown_as("Ca\\textsuperscript{2+} Transients, 2\\textsuperscript{nd}-Order Effects and \\textsuperscript{13}C Dating") !=
          Shown::AsTitle);
}

TEST_CASE("on_page: a gap where a script written without spaces meets another parts no words", "[title]") {
    using pith::page::title::Shown;
    // xduts.pdf: "XDUTS" and "手册" a space apart; thuthesis-example.pdf: the title's Han words
    // broken over two lines.
    CHECK(shown("XDUTS\xE6\x89\x8B\xE5\x86\x8C", with({{"XDUTS \xE6\x89\x8B\xE5\x86\x8C", 100, 18}}, kBody)) == Shown::AsTitle);
    CHECK(shown("XDUTS\xE6\x89\x8B", with({{"XDUTS \xE6\x89\x8B\xE5\x86\x8C", 100, 18}}, kBody)) != Shown::AsTitle);
    const std::string han = "\xE5\xAD\xA6\xE4\xBD\x8D\xE8\xAE\xBA\xE6\x96\x87\xE6\xA8\xA1\xE6\x9D\xBF";  // 学位论文模板
    CHECK(shown(han + "\xE4\xBD\xBF\xE7\x94\xA8", with({{han, 100, 18}, {"\xE4\xBD\xBF\xE7\x94\xA8", 122, 18}}, kBody)) ==
          Shown::AsTitle);  // 使用 on the next line
    // Latin words are parted by a line break unless hyphenated.
    CHECK(shown("Performance Modeling", with({{"Perfor", 100, 18}, {"mance Modeling", 122, 18}}, kBody)) != Shown::AsTitle);
}
