// SPDX-License-Identifier: MIT
// The badge in a real PDF, checked with independent tools: qpdf --check,
// pdftotext, pdffonts, pdftoppm (pixels) and zbarimg (QR decoding).
// Needs poppler-utils, qpdf and zbar-tools; a missing tool fails the test.
#include <catch2/catch.hpp>
#include <cmath>

#include "badge/badge.hpp"
#include "badge_support.hpp"

using namespace badge_test;

namespace {

const std::string kLabel = "pith:YRUNQITD";
const std::string kUrl = "https://pith.example/2024/YRUNQITD2RKQXO2YH7SDTYYAQ3";
constexpr double kPageW = 595, kPageH = 842;  // A4

struct Placed {
    pith::badge::Badge badge;
    double x, y;
};

// A one-page PDF with the badge placed at (x, y) via "q 1 0 0 1 x y cm /PithBadge Do Q".
Placed write_pdf(const std::string& path, const std::string& label, const std::string& url,
                 const pith::badge::Options& opt, double x = 100, double y = 700) {
    PoDoFo::PdfMemDocument doc;
    PoDoFo::PdfPage* page = doc.CreatePage(PoDoFo::PdfRect(0, 0, kPageW, kPageH));
    DocumentSink sink(doc);
    Placed p{pith::badge::draw(sink, label, url, opt), x, y};
    PoDoFo::PdfDictionary xobjects;
    xobjects.AddKey(PoDoFo::PdfName("PithBadge"), p.badge.xobject);
    page->GetResources()->GetDictionary().AddKey(PoDoFo::PdfName("XObject"), xobjects);
    std::ostringstream cs;
    cs << "q 1 0 0 1 " << x << " " << y << " cm /PithBadge Do Q\n";
    std::string content = cs.str();
    page->GetContents()->GetStream()->Set(content.data(), static_cast<PoDoFo::pdf_long>(content.size()));
    doc.Write(path.c_str());
    return p;
}

void require_tools() {
    for (const char* t : {"qpdf", "pdftotext", "pdffonts", "pdftoppm", "zbarimg"}) {
        INFO("missing tool " << t << " (apt-get install qpdf poppler-utils zbar-tools)");
        REQUIRE(have_tool(t));
    }
}

struct Ink {
    long inside = 0, outside = 0;  // dark pixels inside / outside the badge rectangle (+1 px)
    int left = 1 << 30, right = -1, top = 1 << 30, bottom = -1;  // ink extent (px)
    int bx0, by0, bx1, by1;                                    // badge rectangle (px, y down)
};

Ink measure(const Gray& g, const Placed& p, int dpi) {
    const double k = dpi / 72.0;
    Ink ink;
    ink.bx0 = static_cast<int>(std::floor(p.x * k));
    ink.bx1 = static_cast<int>(std::ceil((p.x + p.badge.width_pt) * k));
    ink.by0 = static_cast<int>(std::floor((kPageH - p.y - p.badge.height_pt) * k));
    ink.by1 = static_cast<int>(std::ceil((kPageH - p.y) * k));
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x) {
            if (g.at(x, y) >= 160) continue;
            bool in = x >= ink.bx0 - 1 && x <= ink.bx1 + 1 && y >= ink.by0 - 1 && y <= ink.by1 + 1;
            if (!in) { ++ink.outside; continue; }
            ++ink.inside;
            ink.left = std::min(ink.left, x);
            ink.right = std::max(ink.right, x);
            ink.top = std::min(ink.top, y);
            ink.bottom = std::max(ink.bottom, y);
        }
    return ink;
}

void check_pdf_tools(const std::string& pdf, const std::string& label) {
    auto check = run("qpdf --check " + quote(pdf) + " 2>&1");
    INFO(check.out);
    CHECK(check.status == 0);
    CHECK(check.out.find("No syntax or stream encoding errors found") != std::string::npos);

    auto text = run("pdftotext -enc UTF-8 " + quote(pdf) + " - 2>&1");
    INFO("pdftotext: " << text.out);
    CHECK(text.status == 0);
    std::string t = text.out;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\f' || t.back() == ' ')) t.pop_back();
    CHECK(t == label);

    auto fonts = run("pdffonts " + quote(pdf) + " 2>&1");
    INFO("pdffonts: " << fonts.out);
    REQUIRE(fonts.status == 0);
    std::istringstream in(fonts.out);
    std::string line;
    std::vector<std::vector<std::string>> rows;
    bool body = false;
    while (std::getline(in, line)) {
        if (line.rfind("----", 0) == 0) { body = true; continue; }
        if (!body || line.empty()) continue;
        std::istringstream ls(line);
        std::vector<std::string> tok;
        for (std::string w; ls >> w;) tok.push_back(w);
        rows.push_back(tok);
    }
    REQUIRE(rows.size() == 1);  // exactly one font: the badge's
    const auto& r = rows[0];
    REQUIRE(r.size() >= 7);
    CHECK(r[1] == "Type");
    CHECK(r[2] == "3");
    CHECK(r[4] == "yes");  // emb
    CHECK(r[6] == "yes");  // uni (ToUnicode)
}

}  // namespace

TEST_CASE("badge render: plain label is valid, extractable, embedded and drawn in its box", "[badge][render]") {
    require_tools();
    TempDir dir("plain");
    std::string pdf = dir.file("plain.pdf");
    Placed p = write_pdf(pdf, kLabel, "", {});
    check_pdf_tools(pdf, kLabel);

    REQUIRE(run("pdftoppm -r 150 -gray " + quote(pdf) + " " + quote(dir.file("plain"))).status == 0);
    Gray g = read_pgm(dir.file("plain-1.pgm"));
    CHECK(g.width == 1240);
    Ink ink = measure(g, p, 150);
    INFO("box " << ink.bx0 << "," << ink.by0 << " - " << ink.bx1 << "," << ink.by1 << "; ink " << ink.left
                << "," << ink.top << " - " << ink.right << "," << ink.bottom);
    CHECK(ink.outside == 0);
    CHECK(ink.inside > 300);
    // The text fills the box up to its small padding (1.2 pt = 2.5 px) on every side:
    // catches wrong widths, a wrong baseline or a BBox that clips.
    CHECK(ink.left - ink.bx0 <= 5);
    CHECK(ink.bx1 - ink.right <= 5);
    CHECK(ink.top - ink.by0 <= 5);
    CHECK(ink.by1 - ink.bottom <= 5);
    // ... and the padding is there (ink touching an edge means the BBox clips it).
    CHECK(ink.left - ink.bx0 >= 2);
    CHECK(ink.bx1 - ink.right >= 2);
    CHECK(ink.top - ink.by0 >= 1);
    CHECK(ink.by1 - ink.bottom >= 1);
}

TEST_CASE("badge render: boxed badge with QR scans back to the URL", "[badge][render]") {
    require_tools();
    TempDir dir("qr");
    std::string pdf = dir.file("qr.pdf");
    pith::badge::Options opt;
    opt.qr = true;
    opt.style = "boxed";
    Placed p = write_pdf(pdf, kLabel, kUrl, opt, 400, 60);
    check_pdf_tools(pdf, kLabel);

    REQUIRE(run("pdftoppm -r 150 -gray " + quote(pdf) + " " + quote(dir.file("qr"))).status == 0);
    Gray g = read_pgm(dir.file("qr-1.pgm"));
    Ink ink = measure(g, p, 150);
    INFO("box " << ink.bx0 << "," << ink.by0 << " - " << ink.bx1 << "," << ink.by1 << "; ink " << ink.left
                << "," << ink.top << " - " << ink.right << "," << ink.bottom);
    CHECK(ink.outside == 0);
    CHECK(ink.inside > 2000);
    // The frame is drawn along the box edges.
    CHECK(std::abs(ink.left - ink.bx0) <= 2);
    CHECK(std::abs(ink.right - ink.bx1) <= 2);
    CHECK(std::abs(ink.top - ink.by0) <= 2);
    CHECK(std::abs(ink.bottom - ink.by1) <= 2);

    REQUIRE(run("pdftoppm -r 300 -png " + quote(pdf) + " " + quote(dir.file("qr300"))).status == 0);
    auto scan = run("zbarimg --raw -q " + quote(dir.file("qr300-1.png")) + " 2>/dev/null");
    INFO("zbarimg: " << scan.out);
    CHECK(scan.status == 0);
    CHECK(scan.out == kUrl + "\n");
}

TEST_CASE("badge render: larger text, plain style, 1.5 pt QR modules scan at 150 dpi", "[badge][render]") {
    require_tools();
    TempDir dir("big");
    std::string pdf = dir.file("big.pdf");
    pith::badge::Options opt;
    opt.qr = true;
    opt.text_size_pt = 12;
    opt.qr_module_pt = 1.5;  // 3.1 px per module at 150 dpi (1 pt modules, 2 px, are too small for zbar)
    Placed p = write_pdf(pdf, "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3", kUrl, opt, 50, 400);
    check_pdf_tools(pdf, "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3");
    REQUIRE(run("pdftoppm -r 150 -png " + quote(pdf) + " " + quote(dir.file("big"))).status == 0);
    auto scan = run("zbarimg --raw -q " + quote(dir.file("big-1.png")) + " 2>/dev/null");
    INFO("zbarimg: " << scan.out);
    CHECK(scan.out == kUrl + "\n");
    REQUIRE(run("pdftoppm -r 150 -gray " + quote(pdf) + " " + quote(dir.file("big"))).status == 0);
    Ink ink = measure(read_pgm(dir.file("big-1.pgm")), p, 150);
    CHECK(ink.outside == 0);
    CHECK(ink.inside > 2000);
}
