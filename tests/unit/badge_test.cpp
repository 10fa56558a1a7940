// SPDX-License-Identifier: MIT
// Structure of the badge objects (no external tools): see badge_render_test.cpp
// for the checks with qpdf/poppler/zbar.
#include <qrencode.h>

#include <catch2/catch.hpp>
#include <regex>
#include <set>

#include "badge/badge.hpp"
#include "badge_support.hpp"
#include "core/error.hpp"

using namespace badge_test;
using PoDoFo::PdfName;
using PoDoFo::PdfObject;

namespace {

const std::string kLabel = "pith:YRUNQITD";
const std::string kUrl = "https://pith.example/2024/YRUNQITD2RKQXO2YH7SDTYYAQ3";

const PdfObject& key(const PdfObject& dict, const char* name) {
    const PdfObject* o = dict.GetDictionary().GetKey(PdfName(name));
    if (o == nullptr) FAIL("missing key /" << name);
    return *o;
}

const PdfObject& deref(const RecordingSink& sink, const PdfObject& o) {
    return o.IsReference() ? sink.get(o.GetReference()).object : o;
}

std::string stream_text(const RecordingSink& sink, const PoDoFo::PdfReference& r) {
    const auto& e = sink.get(r);
    REQUIRE(e.is_stream);
    REQUIRE(key(e.object, "Filter").GetName().GetName() == "FlateDecode");
    return inflate(e.data);
}

// Parse the "<XX> <XXXX>" pairs of a bfchar ToUnicode CMap.
std::map<int, int> parse_bfchar(const std::string& cmap) {
    std::map<int, int> m;
    std::regex pair(R"(<([0-9A-Fa-f]{2})>\s*<([0-9A-Fa-f]{4})>)");
    for (auto it = std::sregex_iterator(cmap.begin(), cmap.end(), pair); it != std::sregex_iterator(); ++it)
        m[std::stoi((*it)[1], nullptr, 16)] = std::stoi((*it)[2], nullptr, 16);
    return m;
}

}  // namespace

TEST_CASE("badge: one Form XObject with its own resources", "[badge]") {
    RecordingSink sink;
    auto b = pith::badge::draw(sink, kLabel, "", {});
    const auto& x = sink.get(b.xobject);
    REQUIRE(x.is_stream);
    CHECK(sink.order.back() == b.xobject.ObjectNumber());  // the XObject is written last
    CHECK(key(x.object, "Type").GetName().GetName() == "XObject");
    CHECK(key(x.object, "Subtype").GetName().GetName() == "Form");
    const auto& bbox = key(x.object, "BBox").GetArray();
    REQUIRE(bbox.size() == 4);
    CHECK(bbox[0].GetReal() == 0);
    CHECK(bbox[1].GetReal() == 0);
    CHECK(bbox[2].GetReal() == Approx(b.width_pt));
    CHECK(bbox[3].GetReal() == Approx(b.height_pt));
    CHECK(b.width_pt > 40);
    CHECK(b.width_pt < 80);  // 13 glyphs at 8 pt
    CHECK(b.height_pt > 8);
    CHECK(b.height_pt < 14);

    const auto& res = key(x.object, "Resources");
    CHECK_FALSE(res.GetDictionary().HasKey(PdfName("XObject")));  // no images
    const auto& f1 = key(key(res, "Font"), "F1");
    REQUIRE(f1.IsReference());
    const auto& cs0 = key(key(res, "ColorSpace"), "CS0").GetArray();
    CHECK(cs0[0].GetName().GetName() == "CalRGB");

    std::string content = stream_text(sink, b.xobject);
    CHECK(content.find("/F1 8 Tf") != std::string::npos);
    CHECK(content.find("(pith:YRUNQITD) Tj") != std::string::npos);
    CHECK(content.find(" re\n") == std::string::npos);  // no QR requested

    // Every stream is Flate-compressed.
    for (const auto& [n, e] : sink.objects) {
        if (e.is_stream) CHECK(key(e.object, "Filter").GetName().GetName() == "FlateDecode");
    }
}

TEST_CASE("badge: Type 3 font has only the label's glyphs, consistent widths and ToUnicode", "[badge]") {
    RecordingSink sink;
    auto b = pith::badge::draw(sink, kLabel, "", {});
    const auto& res = key(sink.get(b.xobject).object, "Resources");
    const auto& font = deref(sink, key(key(res, "Font"), "F1"));
    CHECK(key(font, "Type").GetName().GetName() == "Font");
    CHECK(key(font, "Subtype").GetName().GetName() == "Type3");
    const auto& fm = key(font, "FontMatrix").GetArray();
    REQUIRE(fm.size() == 6);
    CHECK(fm[0].GetReal() == Approx(0.001));
    CHECK(fm[3].GetReal() == Approx(0.001));

    const auto& procs = key(font, "CharProcs").GetDictionary();
    std::set<char> unique(kLabel.begin(), kLabel.end());
    CHECK(procs.GetKeys().size() == unique.size());  // only the glyphs used

    // /Differences: code -> glyph name; every glyph has a proc whose d1 width equals /Widths.
    long first = key(font, "FirstChar").GetNumber();
    long last = key(font, "LastChar").GetNumber();
    CHECK(first == ':');
    CHECK(last == 't');
    const auto& widths = key(font, "Widths").GetArray();
    REQUIRE(static_cast<long>(widths.size()) == last - first + 1);
    const auto& diffs = key(key(font, "Encoding"), "Differences").GetArray();
    std::map<int, std::string> names;
    long code = 0;
    for (const auto& d : diffs) {
        if (d.IsNumber()) code = d.GetNumber();
        else names[static_cast<int>(code++)] = d.GetName().GetName();
    }
    REQUIRE(names.size() == unique.size());
    CHECK(names['p'] == "p");
    CHECK(names[':'] == "colon");
    for (const auto& [c, name] : names) {
        const PdfObject* proc = procs.GetKey(PdfName(name));
        REQUIRE(proc != nullptr);
        std::string text = stream_text(sink, proc->GetReference());
        std::istringstream in(text);
        long wx = -1;
        in >> wx;
        INFO("glyph " << name << ": " << text.substr(0, 40));
        CHECK(text.find(" d1\n") != std::string::npos);
        CHECK(wx == widths[c - first].GetNumber());
        CHECK(wx > 0);
        CHECK(text.find(" f\n") != std::string::npos);  // an outline, filled
    }

    // Extraction model: ToUnicode maps each code of the shown string back to the label.
    auto cmap = parse_bfchar(stream_text(sink, key(font, "ToUnicode").GetReference()));
    CHECK(cmap.size() == unique.size());
    std::string decoded;
    for (unsigned char c : kLabel) {
        REQUIRE(cmap.count(c) == 1);
        decoded += static_cast<char>(cmap[c]);
    }
    CHECK(decoded == kLabel);
}

TEST_CASE("badge: QR modules are vector rectangles that reproduce libqrencode's matrix", "[badge]") {
    RecordingSink sink;
    pith::badge::Options opt;
    opt.qr = true;
    auto b = pith::badge::draw(sink, kLabel, kUrl, opt);
    std::string content = stream_text(sink, b.xobject);

    QRcode* q = QRcode_encodeString(kUrl.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    REQUIRE(q != nullptr);
    const int n = q->width;
    std::vector<int> expect(n * n), got(n * n, 0);
    for (int i = 0; i < n * n; ++i) expect[i] = q->data[i] & 1;
    QRcode_free(q);

    // The modules are drawn in module units after "m 0 0 -m x y cm", as "x y w h re", then "f Q".
    auto start = content.find(" cm\n");
    auto end = content.find("f Q\n");
    REQUIRE(start != std::string::npos);
    REQUIRE(end != std::string::npos);
    std::istringstream in(content.substr(start + 4, end - start - 4));
    std::string line;
    int rects = 0, dark = 0;
    while (std::getline(in, line)) {
        int x, y, w, h;
        char op[3] = {};
        REQUIRE(std::sscanf(line.c_str(), "%d %d %d %d %2s", &x, &y, &w, &h, op) == 5);
        REQUIRE(std::string(op) == "re");
        ++rects;
        for (int yy = y; yy < y + h; ++yy)
            for (int xx = x; xx < x + w; ++xx) {
                REQUIRE(xx < n);
                REQUIRE(yy < n);
                CHECK(got[yy * n + xx] == 0);  // no overlaps
                got[yy * n + xx] = 1;
            }
    }
    for (int v : expect) dark += v;
    CHECK(got == expect);
    CHECK(rects < dark / 2);  // merging pays off

    // Quiet zone: the badge is at least (n + 8) modules tall, and white is painted behind the QR.
    CHECK(b.height_pt >= (n + 8) * opt.qr_module_pt);
    CHECK(content.find("1 1 1 sc") != std::string::npos);
}

TEST_CASE("badge: compact", "[badge]") {
    RecordingSink plain;
    pith::badge::draw(plain, kLabel, "", {});
    size_t plain_size = plain.serialise().size();
    INFO("plain badge: " << plain_size << " bytes");
    CHECK(plain_size < 6 * 1024);

    RecordingSink boxed_qr;
    pith::badge::Options opt;
    opt.qr = true;
    opt.style = "boxed";
    pith::badge::draw(boxed_qr, kLabel, kUrl, opt);
    size_t qr_size = boxed_qr.serialise().size();
    INFO("boxed badge with QR: " << qr_size << " bytes");
    CHECK(qr_size < 8 * 1024);
}

TEST_CASE("badge: deterministic", "[badge]") {
    pith::badge::Options opt;
    opt.qr = true;
    opt.style = "boxed";
    RecordingSink a, b, c;
    pith::badge::draw(a, kLabel, kUrl, opt);
    pith::badge::draw(b, kLabel, kUrl, opt);
    pith::badge::draw(c, "pith:YRUNQITE", kUrl, opt);
    CHECK(a.serialise() == b.serialise());
    CHECK(a.serialise() != c.serialise());
}

TEST_CASE("badge: label escaping and printable ASCII", "[badge]") {
    RecordingSink sink;
    auto b = pith::badge::draw(sink, "a(b)\\c ~", "", {});
    std::string content = stream_text(sink, b.xobject);
    CHECK(content.find("(a\\(b\\)\\\\c ~) Tj") != std::string::npos);
}

TEST_CASE("badge: bad input is a pith::Error", "[badge]") {
    RecordingSink sink;
    pith::badge::Options opt;
    CHECK_THROWS_AS(pith::badge::draw(sink, "", "", opt), pith::Error);
    CHECK_THROWS_AS(pith::badge::draw(sink, "pith:\xC3\xA9", "", opt), pith::Error);
    CHECK_THROWS_AS(pith::badge::draw(sink, "pith:\nX", "", opt), pith::Error);
    opt.style = "fancy";
    CHECK_THROWS_AS(pith::badge::draw(sink, kLabel, "", opt), pith::Error);
    opt.style = "plain";
    opt.text_size_pt = 0;
    CHECK_THROWS_AS(pith::badge::draw(sink, kLabel, "", opt), pith::Error);
    opt.text_size_pt = 8;
    opt.color = {0, 0, 2};
    CHECK_THROWS_AS(pith::badge::draw(sink, kLabel, "", opt), pith::Error);
    opt.color = {0, 0, 0};
    opt.qr = true;
    CHECK_THROWS_AS(pith::badge::draw(sink, kLabel, "", opt), pith::Error);
    CHECK_THROWS_AS(pith::badge::draw(sink, kLabel, std::string(5000, 'x'), opt), pith::Error);
    CHECK(sink.objects.empty());  // nothing half-written on failure
    CHECK_NOTHROW(pith::badge::draw(sink, kLabel, kUrl, opt));
}
