// SPDX-License-Identifier: MIT
#include "core/error.hpp"
#include "pdf/crypt.hpp"
#include "pdf/file.hpp"
#include "pdf/filters.hpp"
#include "pdf/syntax.hpp"
#include "pdf_support.hpp"
#include "required.hpp"

#include <catch2/catch.hpp>
#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include <openssl/evp.h>

using namespace pith::pdf;
using namespace PoDoFo;
using pdftest::Objects;

namespace {

// Catalog 1, Pages root 2 (MediaBox, Resources, Rotate 90 inherited), intermediate Pages 3
// (Rotate -90, CropBox), pages 4, 5 (under 3) and 6 (own Resources + MediaBox), Info 7.
Objects tree_objects() {
    return {
        {1, "<< /Type /Catalog /Pages 2 0 R >>"},
        {2, "<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 3 /MediaBox [0 0 600 800] /Resources << /Font << >> >> /Rotate 90 >>"},
        {3, "<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 5 0 R] /Count 2 /Rotate -90 /CropBox [-10 10 700 700] >>"},
        {4, "<< /Type /Page /Parent 3 0 R >>"},
        {5, "<< /Type /Page /Parent 3 0 R /Rotate 450 /MediaBox [100 100 0 0] >>"},
        {6, "<< /Type /Page /Parent 2 0 R /Resources << /XObject << >> >> /MediaBox [0 0 300 400] /CropBox [500 500 600 600] >>"},
        {7, "<< /Title (Hello) /Producer (hand) >>"},
    };
}

}  // namespace

TEST_CASE("pdf reader: classic xref, catalog, info, missing objects", "[pdf]") {
    auto f = File::from_bytes(pdftest::classic(tree_objects(), "/Root 1 0 R /Info 7 0 R"), "tree.pdf");
    CHECK(f.version() == "1.4");
    CHECK(f.header_offset() == 0);
    CHECK(f.xref_kind() == XrefKind::Table);
    CHECK_FALSE(f.reconstructed());
    CHECK(f.max_object_number() == 7);
    CHECK(f.root_ref() == PdfReference(1, 0));
    CHECK(f.catalog().GetDictionary().GetKey("Type")->GetName() == PdfName("Catalog"));
    REQUIRE(f.info() != nullptr);
    CHECK(f.info()->GetDictionary().GetKey("Title")->GetString().GetStringUtf8() == "Hello");
    CHECK(f.info_ref() == PdfReference(7, 0));
    CHECK(f.get(PdfReference(99, 0)).IsNull());
    CHECK(f.get(PdfReference(4, 1)).IsNull());  // wrong generation
    CHECK_FALSE(f.encrypted());
}

TEST_CASE("pdf reader: page geometry and inheritance", "[pdf]") {
    auto f = File::from_bytes(pdftest::classic(tree_objects()), "tree.pdf");
    REQUIRE(f.page_count() == 3);
    Page p0 = f.page(0);
    CHECK(p0.ref == PdfReference(4, 0));
    CHECK(p0.media_box.urx == 600);
    CHECK(p0.media_box.ury == 800);
    // CropBox inherited from node 3, clipped to the MediaBox
    CHECK(p0.crop_box.llx == 0);
    CHECK(p0.crop_box.lly == 10);
    CHECK(p0.crop_box.urx == 600);
    CHECK(p0.crop_box.ury == 700);
    CHECK(p0.rotate == 270);  // -90 normalised, nearest ancestor wins over the root's 90
    CHECK(p0.resources_from == ResourcesFrom::Inherited);
    CHECK(p0.resources_owner == PdfReference(2, 0));
    CHECK(p0.resources.IsDictionary());

    Page p1 = f.page(1);
    CHECK(p1.ref == PdfReference(5, 0));
    CHECK(p1.rotate == 90);            // 450 -> 90
    CHECK(p1.media_box.llx == 0);      // [100 100 0 0] normalised
    CHECK(p1.media_box.urx == 100);
    CHECK(p1.crop_box.urx == 100);     // CropBox [-10 10 700 700] clipped to the page's own MediaBox
    CHECK(p1.crop_box.lly == 10);

    Page p2 = f.page(2);
    CHECK(p2.ref == PdfReference(6, 0));
    CHECK(p2.rotate == 90);
    CHECK(p2.resources_from == ResourcesFrom::Own);
    CHECK(p2.resources.GetDictionary().GetKey("XObject") != nullptr);
    CHECK(p2.media_box.urx == 300);
    CHECK(p2.crop_box.urx == 300);  // disjoint CropBox falls back to the MediaBox
    CHECK_THROWS_AS(f.page(3), pith::Error);
    CHECK_THROWS_AS(f.page(-1), pith::Error);
}

TEST_CASE("pdf reader: absent resources and default MediaBox", "[pdf]") {
    Objects o = {{1, "<< /Type /Catalog /Pages 2 0 R >>"},
                 {2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"},
                 {3, "<< /Type /Page /Parent 2 0 R >>"}};
    auto f = File::from_bytes(pdftest::classic(o), "bare.pdf");
    Page p = f.page(0);
    CHECK(p.resources_from == ResourcesFrom::Absent);
    CHECK(p.resources.IsNull());
    CHECK(p.media_box.urx == 612);
    CHECK(p.media_box.ury == 792);
}

TEST_CASE("pdf reader: header at a non-zero offset", "[pdf]") {
    std::string junk(77, 'J');
    junk += "\n";
    auto rel = File::from_bytes(pdftest::classic(tree_objects(), "/Root 1 0 R", junk), "rel.pdf");
    CHECK(rel.header_offset() == 78);
    CHECK(rel.page_count() == 3);
    CHECK_FALSE(rel.reconstructed());
    auto abs = File::from_bytes(pdftest::classic(tree_objects(), "/Root 1 0 R", junk, true), "abs.pdf");
    CHECK(abs.page_count() == 3);
    CHECK(abs.page(2).ref == PdfReference(6, 0));
    CHECK_FALSE(abs.reconstructed());
}

TEST_CASE("pdf reader: xref stream with predictor and object stream", "[pdf]") {
    Objects direct = {{4, "<< /Length 5 0 R /Filter /FlateDecode >>\nstream\n" + pdftest::deflate("q 1 0 0 1 0 0 cm Q") + "\nendstream"},
                      {5, std::to_string(pdftest::deflate("q 1 0 0 1 0 0 cm Q").size())}};
    Objects packed = {{1, "<< /Type /Catalog /Pages 2 0 R >>"},
                      {2, "<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 200 100] >>"},
                      {3, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Rotate 180 >>"}};
    auto f = File::from_bytes(pdftest::xref_stream_file(direct, packed, 6, 7), "xs.pdf");
    CHECK(f.version() == "1.5");
    CHECK(f.xref_kind() == XrefKind::Stream);
    CHECK(f.max_object_number() == 7);
    REQUIRE(f.page_count() == 1);
    Page p = f.page(0);
    CHECK(p.ref == PdfReference(3, 0));
    CHECK(p.rotate == 180);
    CHECK(p.media_box.urx == 200);
    CHECK(f.is_stream(PdfReference(4, 0)));
    CHECK(f.stream_decoded(PdfReference(4, 0)) == "q 1 0 0 1 0 0 cm Q");  // indirect /Length
    CHECK(f.stream_encoded(PdfReference(4, 0)) == pdftest::deflate("q 1 0 0 1 0 0 cm Q"));
    CHECK_FALSE(f.is_stream(PdfReference(3, 0)));
    CHECK_THROWS_AS(f.stream_decoded(PdfReference(3, 0)), pith::Error);
    auto revs = f.revisions();
    REQUIRE(revs.size() == 1);
    CHECK(revs[0].kind == XrefKind::Stream);
    CHECK(revs[0].end == f.bytes().size());
}

TEST_CASE("pdf reader: /Prev chain, revisions and loops", "[pdf]") {
    std::string v1 = pdftest::classic(tree_objects());
    std::size_t sx1 = pdftest::startxref_of(v1);
    std::string v2 = pdftest::classic_update(v1, {{4, "<< /Type /Page /Parent 3 0 R /MediaBox [0 0 50 60] >>"},
                                                  {8, "<< /New true >>"}},
                                             sx1, 9);
    auto f = File::from_bytes(v2, "v2.pdf");
    CHECK(f.page(0).media_box.urx == 50);  // the newer object wins
    CHECK(f.get(PdfReference(8, 0)).IsDictionary());
    CHECK(f.max_object_number() == 8);
    auto revs = f.revisions();
    REQUIRE(revs.size() == 2);
    CHECK(revs[0].end == v1.size());
    CHECK(revs[1].end == v2.size());
    CHECK(revs[0].startxref == sx1);
    CHECK(revs[1].objects == std::vector<std::uint32_t>{4, 8});
    CHECK(revs[0].objects.size() == 7);

    // /Prev pointing at itself: a loop, not a hang.
    std::string loop = pdftest::classic_update(v1, {{8, "<< /New true >>"}}, 99999, 9);
    std::string self = std::to_string(pdftest::startxref_of(loop));
    loop.replace(loop.rfind("/Prev 99999"), 11, "/Prev " + std::string(5 - self.size(), '0') + self);
    auto g = File::from_bytes(loop, "loop.pdf");
    CHECK(g.page_count() == 3);
    CHECK_FALSE(g.defects().empty());
}

TEST_CASE("pdf reader: broken xref is reconstructed", "[pdf]") {
    std::string s = pdftest::classic(tree_objects(), "/Root 1 0 R /Info 7 0 R");
    std::size_t k = s.rfind("startxref\n");
    s = s.substr(0, k) + "startxref\n12\n%%EOF\n";  // points into the header
    auto f = File::from_bytes(s, "broken.pdf");
    CHECK(f.reconstructed());
    CHECK(f.page_count() == 3);
    CHECK(f.info() != nullptr);

    // Shifted objects (wrong offsets) are found by scanning.
    std::string t = pdftest::classic(tree_objects());
    t.insert(t.find("1 0 obj"), "% shifted by a comment\n");
    auto g = File::from_bytes(t, "shifted.pdf");
    CHECK(g.page_count() == 3);
}

TEST_CASE("pdf reader: malformed input gives pith::Error", "[pdf]") {
    CHECK_THROWS_AS(File::from_bytes("", "empty.pdf"), pith::Error);
    CHECK_THROWS_AS(File::from_bytes("hello world", "text.pdf"), pith::Error);
    CHECK_THROWS_AS(File::from_bytes("%PDF-1.4\n", "header-only.pdf"), pith::Error);
    CHECK_THROWS_AS(File::open("/nonexistent/file.pdf"), pith::Error);
    // Deep nesting in the catalog.
    std::string deep(100000, '[');
    Objects o = {{1, "<< /Type /Catalog /Pages 2 0 R /X " + deep + " >>"}, {2, "<< /Type /Pages /Kids [] /Count 0 >>"}};
    try {
        auto f = File::from_bytes(pdftest::classic(o), "deep.pdf");
        f.catalog();
        FAIL("deep nesting was accepted");
    } catch (const pith::Error& e) {
        CHECK(std::string(e.what()).find("deep.pdf") != std::string::npos);
    }
    // Page tree loops terminate.
    Objects loop = {{1, "<< /Type /Catalog /Pages 2 0 R >>"},
                    {2, "<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 5 >>"},
                    {3, "<< /Type /Pages /Kids [2 0 R] /Count 3 >>"}};
    auto f = File::from_bytes(pdftest::classic(loop), "loop.pdf");
    CHECK(f.page_count() == 0);
    CHECK_THROWS_AS(f.page(0), pith::Error);
    // A huge /Size or /Index does not allocate.
    std::string big = pdftest::classic(tree_objects(), "/Root 1 0 R /Size 99999999999");
    CHECK(File::from_bytes(big, "big.pdf").page_count() == 3);
}

namespace {

// The defects() of `pdf` after reading what stamp and verify read (page 1 and what it draws with).
std::vector<std::string> defects_of(const std::string& pdf) {
    auto f = File::from_bytes(pdf, "damage.pdf");
    if (f.page_count() > 0) f.check_page(f.page(0));
    return f.defects();
}

bool mentions(const std::vector<std::string>& defects, const std::string& text) {
    for (const auto& d : defects)
        if (d.find(text) != std::string::npos) return true;
    return false;
}

Objects page_objects(const std::string& content, const std::string& page_extra = "", const std::string& image = "") {
    Objects o = {{1, "<< /Type /Catalog /Pages 2 0 R >>"},
                 {2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"},
                 {3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R"
                     " /Resources << /XObject << /Im1 5 0 R >> >> " + page_extra + " >>"},
                 {4, "<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "\nendstream"},
                 {5, image.empty() ? "<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /BitsPerComponent 8"
                                     " /ColorSpace /DeviceGray /Length 1 >>\nstream\nA\nendstream" : image}};
    return o;
}

}  // namespace

TEST_CASE("pdf reader: damage is recorded, a sound file has none", "[pdf]") {
    const std::string content = "q 1 0 0 1 0 0 cm BT /F1 12 Tf (Hi) Tj ET Q";
    const std::string sound = pdftest::classic(page_objects(content));
    CHECK(defects_of(sound).empty());
    CHECK(defects_of(pdftest::classic(tree_objects())).empty());
    CHECK(damage_message(File::from_bytes(sound, "sound.pdf")).empty());

    SECTION("cross-reference data that must be rebuilt") {
        std::string s = sound.substr(0, sound.rfind("startxref\n")) + "startxref\n12\n%%EOF\n";
        auto d = defects_of(s);
        CHECK(mentions(d, "does not point to a cross-reference section"));
        CHECK(mentions(d, "rebuilt by scanning"));
        CHECK(damage_message(File::from_bytes(s, "x.pdf")).rfind("damaged PDF: ", 0) == 0);
    }
    SECTION("an object that is not at its offset") {
        std::string s = sound;
        char entry[32], wrong[32];
        std::snprintf(entry, sizeof entry, "%010zu 00000 n", s.find("3 0 obj"));
        std::snprintf(wrong, sizeof wrong, "%010zu 00000 n", s.find("2 0 obj"));
        s.replace(s.find(entry), std::strlen(entry), wrong);
        CHECK(mentions(defects_of(s), "object 3 found by scanning"));
    }
    SECTION("an offset one end-of-line early is not damage (qpdf and poppler accept it)") {
        std::string s = sound;
        char entry[32], early[32];
        std::snprintf(entry, sizeof entry, "%010zu 00000 n", s.find("3 0 obj"));
        std::snprintf(early, sizeof early, "%010zu 00000 n", s.find("3 0 obj") - 1);  // the "\n" after endobj
        s.replace(s.find(entry), std::strlen(entry), early);
        CHECK(defects_of(s).empty());
    }
    SECTION("the file does not end with startxref and %%EOF") {
        CHECK(mentions(defects_of(sound + std::string(2000, 'w')), "does not end with startxref"));
        CHECK(defects_of(sound + std::string(500, '\0')).empty());
    }
    SECTION("a header without a version") {
        std::string s = sound;
        s.replace(0, 8, "%PDF-   ");
        CHECK(mentions(defects_of(s), "the header names no PDF version"));
    }
    SECTION("cross-reference entries that are not 20 bytes") {
        std::string s = sound;
        const std::size_t entry = s.find(" 00000 n \n");
        s.replace(entry, 10, "  00000 n\n");
        CHECK(mentions(defects_of(s), "is not the 20 bytes"));
    }
    SECTION("a trailer /Size that does not cover every object") {
        std::string s = sound;
        s.replace(s.find("/Size 6"), 7, "/Size 4");
        CHECK(mentions(defects_of(s), "trailer /Size 4 does not cover object 5"));
    }
    SECTION("a reference beyond /Size") {
        CHECK(mentions(defects_of(pdftest::classic(page_objects(content, "/Bleh 100 0 R"))),
                       "object 3 refers to object 100, beyond the trailer's /Size"));
        CHECK(defects_of(pdftest::classic(page_objects(content, "/Free 6 0 R"))).size() == 1);  // 6 = /Size: beyond too
    }
    SECTION("a stream with a wrong or missing /Length") {
        CHECK(mentions(defects_of(pdftest::classic(page_objects(content, "", "<< /Type /XObject /Subtype /Image /Length 9 >>\nstream\nA\nendstream"))),
                       "is wrong"));
        CHECK(mentions(defects_of(pdftest::classic(page_objects(content, "", "<< /Type /XObject /Subtype /Image >>\nstream\nA\nendstream"))),
                       "has no valid /Length"));
    }
    SECTION("content syntax errors on the page") {
        CHECK(mentions(defects_of(pdftest::classic(page_objects("q << /A 1 Q"))), "page 1: content syntax error"));
    }
    SECTION("page-tree loops and shared nodes on the way to the page") {
        Objects o = page_objects(content);
        o[2] = "<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 1 >>";
        CHECK(mentions(defects_of(pdftest::classic(o)), "reaches object 2 twice"));
        o[2] = "<< /Type /Pages /Kids [3 0 R 3 0 R] /Count 2 >>";
        CHECK(mentions(defects_of(pdftest::classic(o)), "reaches object 3 twice"));
        // away from page 1, on the way down the last kids (corpus malformed/circular-page-tree.pdf)
        o[2] = "<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 3 >>";
        o[6] = "<< /Type /Pages /Kids [6 0 R] /Count 2 >>";
        CHECK(mentions(defects_of(pdftest::classic(o)), "reaches object 6 twice"));
    }
    SECTION("a linearization dictionary that names another first page") {
        Objects o = {{1, "<< /Linearized 1 /L 1 /O 9 /E 1 /N 1 /T 1 /H [1 1] >>"},
                     {2, "<< /Type /Catalog /Pages 3 0 R >>"},
                     {3, "<< /Type /Pages /Kids [4 0 R] /Count 1 >>"},
                     {4, "<< /Type /Page /Parent 3 0 R /MediaBox [0 0 200 200] >>"}};
        CHECK(mentions(defects_of(pdftest::classic(o, "/Root 2 0 R")),
                       "the linearization dictionary names object 9 as page 1, which is object 4"));
        o[1] = "<< /Linearized 1 /L 1 /O 4 /E 1 /N 1 /T 1 /H [1 1] >>";
        CHECK(defects_of(pdftest::classic(o, "/Root 2 0 R")).empty());
    }
}

TEST_CASE("pdf filters: flate and predictors", "[pdf]") {
    std::string text(5000, 'x');
    CHECK(flate_decode(flate_encode(text)) == text);
    CHECK_THROWS_AS(flate_decode("not flate data at all"), pith::Error);
    CHECK_THROWS_AS(flate_decode(flate_encode(std::string(1 << 20, 'a')), 1000), pith::Error);
    // Large outputs (their room populated ahead, beyond the first 256 KiB): one that compresses
    // beyond the 32x room reserved at first, one within it.
    std::string large;
    for (int i = 0; large.size() < (3u << 20); ++i) large += "0 0 0 RG [] 0 d " + std::to_string(i % 977) + " w\n";
    CHECK(flate_decode(flate_encode(large)) == large);
    std::string mixed;
    for (std::uint32_t i = 0, x = 1; mixed.size() < (1u << 20); ++i) mixed += std::to_string(x = x * 1103515245u + 12345u) + " l\n";
    CHECK(flate_decode(flate_encode(mixed)) == mixed);
    // The forms PDF writers produce: a wrong Adler-32, raw deflate, gzip, a stream cut short.
    std::string zlib = flate_encode(text + "end");
    zlib[zlib.size() - 1] ^= 0x5A;
    CHECK(flate_decode(zlib) == text + "end");
    CHECK(flate_decode(zlib.substr(2, zlib.size() - 6)) == text + "end");
    z_stream zs{};
    REQUIRE(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string gzip(deflateBound(&zs, static_cast<uLong>(text.size())) + 32, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(text.data());
    zs.avail_in = static_cast<uInt>(text.size());
    zs.next_out = reinterpret_cast<Bytef*>(gzip.data());
    zs.avail_out = static_cast<uInt>(gzip.size());
    REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
    gzip.resize(zs.total_out);
    deflateEnd(&zs);
    CHECK(flate_decode(gzip) == text);
    std::string varied;
    for (int i = 0; i < 20000; ++i) varied += std::to_string(i * 7919 % 10007) + " ";
    const std::string cut = flate_encode(varied).substr(0, 2000);
    const std::string prefix = flate_decode(cut);
    CHECK((!prefix.empty() && prefix.size() < varied.size() && varied.compare(0, prefix.size(), prefix) == 0));
    PdfObject name(PdfName("DCTDecode"));
    CHECK_THROWS_WITH(decode_filters("abc", &name, nullptr), Catch::Contains("DCTDecode"));
    PdfObject hex(PdfName("ASCIIHexDecode"));
    CHECK(decode_filters("41 42>", &hex, nullptr) == "AB");
}


TEST_CASE("pdf reader: arrays of numbers and hex strings read from memory give what PoDoFo's tokenizer gives", "[pdf]") {
    // The first ones take pith's fast path, the others fall back to PoDoFo's tokenizer part way.
    using namespace std::string_literals;
    const std::string arrays[] = {
        "[1 2.5 -3 +4 .5 5. -.25 007 [6 [7 8] ] 9]"s,
        "[ 1 [ 500 600 700 ] 10 20 300 ]"s,
        "[]"s, "[ [] [[]] ]"s, "[0.1 0.2 0.30000000000000004 123456789.123456789 -0.0]"s,
        "[99999999999999999999 -99999999999999999999 2]"s,
        "[1\n2\r3\t4\f5\0006]"s,
        "[1 0 R 2]"s, "[1 2 0 R]"s, "[1-2 3]"s, "[1.5.5 2]"s, "[/Name 1]"s, "[1 %comment\n 2]"s, "[(s) 1]"s,
        "[1 true null]"s, "[1e5]"s, "[- 1]"s, "[+ .]"s, "[<41> 2]"s, "[1 <</A 2>>]"s, "[1 [2 /X] 3]"s,
        "[[1 2] [3 /X] [4 5]]"s, std::string(300, '[') + "1" + std::string(300, ']'),
        std::string(2000, '[') + "(unclosed", std::string(50, '[') + "1-2" + std::string(50, ']'), "[1 [2 [3] 4.5.] +.5]"s,
        "<< / 1 /A [2 3] >>"s, "[<< / [4] >> 5]"s,  // the empty name is a legal key (GetKey() cannot find it)
        // Hex strings, read from memory: white space and other bytes skipped, odd counts, the end.
        "<41 42\n4>"s, "<>"s, "<zz4g1>"s, "<414"s, "[1 2 <41> 3 0 R <4>]"s, "<< /A <00ff> /B <> /C (x) >>"s,
    };
    for (const std::string& bytes : arrays) {
        INFO(bytes);
        PdfVariant fast, slow;
        Lexer lexer(bytes.data(), bytes.size());
        bool fast_threw = false, slow_threw = false;
        try {
            lexer.read(fast);
        } catch (const PdfError&) {
            fast_threw = true;
        }
        PdfTokenizer tokenizer(bytes.data(), static_cast<long>(bytes.size()));
        try {
            tokenizer.GetNextVariant(slow, nullptr);
        } catch (const PdfError&) {
            slow_threw = true;
        }
        CHECK(fast_threw == slow_threw);
        if (!fast_threw && !slow_threw) CHECK(pdftest::same_value(fast, slow));
    }
    // After a fast array the tokenizer goes on where the array ended.
    const std::string two = "[1 2] [3 0 R]";
    Lexer lexer(two.data(), two.size());
    PdfVariant first, second;
    lexer.read(first);
    lexer.read(second);
    CHECK(first.GetArray().size() == 2);
    REQUIRE(second.GetArray().size() == 1);
    CHECK(second.GetArray()[0].IsReference());
    // Unclosed: an error, as from the tokenizer.
    const std::string open = "[1 2 [3";
    Lexer unclosed(open.data(), open.size());
    PdfVariant v;
    CHECK_THROWS(unclosed.read(v));
}

TEST_CASE("pdf crypt: md5_file_key opens what PoDoFo's Authenticate opens, with the same key", "[pdf]") {
    require_qpdf();
    REQUIRE(ensure_rc4());  // for PoDoFo's Authenticate
    const std::string plain_path = pdftest::temp_path("md5-plain.pdf");
    pdftest::write_file(plain_path, pdftest::classic({{1, "<< /Type /Catalog /Pages 2 0 R >>"}, {2, "<< /Type /Pages /Kids [] /Count 0 >>"},
                                                      {3, "<< /Title (T) >>"}},
                                                     "/Root 1 0 R /Info 3 0 R"));
    const std::string long_user(35, 'u');  // longer than the 32 bytes a password is cut to
    struct Case {
        std::string user, options;
    };
    for (const Case& c : {Case{"user", "40"}, Case{"user", "128 --use-aes=n"}, Case{"user", "128 --use-aes=y"},
                          Case{"user", "128 --use-aes=y --cleartext-metadata"}, Case{"", "128 --use-aes=y"}, Case{"", "40"},
                          Case{long_user, "128 --use-aes=n"}}) {
        DYNAMIC_SECTION("user password '" << c.user << "', " << c.options) {
            const std::string path = pdftest::temp_path("md5-enc.pdf");
            int rc = -1;
            const std::string msg = pdftest::run("qpdf --allow-weak-crypto --encrypt '" + c.user + "' owner " + c.options + " -- " +
                                                     plain_path + " " + path, &rc);
            INFO(msg);
            REQUIRE(rc == 0);
            OpenOptions owner;
            owner.password = "owner";
            owner.password_given = true;
            const File file = File::open(path, owner);
            REQUIRE(file.encryption() != nullptr);
            const PdfString id = file.trailer().GetKey("ID")->GetArray()[0].GetString();
            const std::string id0(id.GetString(), id.GetLength());
            for (const std::string& password : {c.user, std::string("owner"), std::string(), std::string("wrong"), c.user.substr(0, 32),
                                                c.user + "x", std::string("owner2")}) {
                INFO("password '" << password << "'");
                const std::optional<std::string> pith_key = md5_file_key(*file.encryption(), id0, password);
                std::unique_ptr<PdfEncrypt> podofo(PdfEncrypt::CreatePdfEncrypt(*file.encryption()));
                const bool podofo_opens = podofo->Authenticate(password, id);
                CHECK(pith_key.has_value() == podofo_opens);
                if (pith_key && podofo_opens)
                    CHECK(*pith_key == std::string(reinterpret_cast<const char*>(podofo->GetEncryptionKey()), pith_key->size()));
            }
            std::remove(path.c_str());
        }
    }
    std::remove(plain_path.c_str());
}

TEST_CASE("pdf crypt: RC4 through OpenSSL, from pith's built-in provider, as PoDoFo calls it", "[pdf]") {
    REQUIRE(ensure_rc4());
    // RFC 6229: the first 32 bytes of keystream for a 40-bit and a 128-bit key.
    const std::vector<std::pair<std::string, std::string>> vectors = {
        {"0102030405", "b2396305f03dc027ccc3524a0a1118a86982944f18fc82d589c403a47a0d0919"},
        {"0102030405060708090a0b0c0d0e0f10", "9ac7cc9a609d1ef7b2932899cde41b975248c4959014126a6e8a84f11d1a9e1c"},
    };
    auto hex = [](const unsigned char* b, std::size_t n) {
        std::string s;
        char two[3];
        for (std::size_t i = 0; i < n; ++i) std::snprintf(two, sizeof two, "%02x", b[i]), s += two;
        return s;
    };
    for (const auto& [key_hex, keystream] : vectors) {
        std::vector<unsigned char> key;
        for (std::size_t i = 0; i < key_hex.size(); i += 2) key.push_back(static_cast<unsigned char>(std::stoi(key_hex.substr(i, 2), nullptr, 16)));
        EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
        REQUIRE(EVP_EncryptInit_ex(ctx, EVP_rc4(), nullptr, nullptr, nullptr) == 1);
        REQUIRE(EVP_CIPHER_CTX_set_key_length(ctx, static_cast<int>(key.size())) == 1);
        REQUIRE(EVP_EncryptInit_ex(ctx, nullptr, nullptr, key.data(), nullptr) == 1);
        unsigned char zeros[32] = {}, out[32];
        int n = 0, tail = 0;
        REQUIRE(EVP_EncryptUpdate(ctx, out, &n, zeros, 16) == 1);  // in two parts: the state carries over
        REQUIRE(EVP_EncryptUpdate(ctx, out + 16, &n, zeros + 16, 16) == 1);
        REQUIRE(EVP_EncryptFinal_ex(ctx, out + 32, &tail) == 1);
        CHECK(tail == 0);
        CHECK(hex(out, 32) == keystream);
        EVP_CIPHER_CTX_free(ctx);
    }
}

TEST_CASE("pdf reader: a font read without its widths, then whole", "[pdf]") {
    const std::string font = "<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [ << /Type /Font "
                             "/Subtype /CIDFontType2 /W [ 1 [ 600 ] 2 [ 500 650.5 ] 10 20 300 ] /W2 [ 1 2 -900 ] /DW 1000 >> ] "
                             "/ToUnicode 9 0 R >>";
    for (bool in_object_stream : {false, true}) {
        Objects objs = tree_objects();
        objs[8] = font;
        objs[9] = "<< /Length 0 >>\nstream\n\nendstream";
        Objects direct = objs;
        direct.erase(8);
        const std::string bytes = in_object_stream ? pdftest::xref_stream_file(direct, {{8, font}}, 20, 21) : pdftest::classic(objs);
        auto f = File::from_bytes(bytes, "widths.pdf");
        const PdfObject& partial = f.get_without_widths(PdfReference(8, 0));
        const PdfDictionary& cid = partial.GetDictionary().GetKey("DescendantFonts")->GetArray()[0].GetDictionary();
        CHECK(!cid.HasKey("W"));
        CHECK(!cid.HasKey("W2"));
        CHECK(cid.GetKey("DW")->GetNumber() == 1000);
        CHECK(partial.GetDictionary().GetKey("ToUnicode")->GetReference() == PdfReference(9, 0));
        CHECK(&f.get_without_widths(PdfReference(8, 0)) == &partial);  // cached
        // get() reads it whole; what get_without_widths() gave stays valid.
        const PdfObject& whole = f.get(PdfReference(8, 0));
        const PdfArray& w = whole.GetDictionary().GetKey("DescendantFonts")->GetArray()[0].GetDictionary().GetKey("W")->GetArray();
        CHECK(pith::pdf::to_pdf_string(whole).find("/W [ 1 [ 600 ] 2 [ 500 650.500000 ] 10 20 300 ]\n/W2 [ 1 2 -900 ]") !=
              std::string::npos);
        CHECK(w.size() == 7);
        CHECK(cid.GetKey("DW")->GetNumber() == 1000);
        CHECK(&f.get(PdfReference(8, 0)) == &whole);
        CHECK(&f.get_without_widths(PdfReference(8, 0)) == &whole);  // whole serves both
        CHECK(f.defects().empty());
    }
    // A /W that is not an array of numbers is read as it is.
    Objects objs = tree_objects();
    objs[8] = "<< /W [ 1 /Name ] /Widths [ 1 2 ] >>";
    auto f = File::from_bytes(pdftest::classic(objs), "odd-widths.pdf");
    const PdfDictionary& d = f.get_without_widths(PdfReference(8, 0)).GetDictionary();
    CHECK(d.GetKey("W")->GetArray().size() == 2);
    CHECK(d.GetKey("Widths")->GetArray().size() == 2);
}

TEST_CASE("pdf crypt: AES-CBC, small inputs without EVP, large ones with it, alike", "[pdf]") {
    auto bytes = [](const std::string& hex) {
        std::string out;
        for (std::size_t i = 0; i < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
        return out;
    };
    const std::string iv = bytes("000102030405060708090a0b0c0d0e0f");
    const auto* ivp = reinterpret_cast<const unsigned char*>(iv.data());
    const std::string plain = bytes("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                                    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710");
    // NIST SP 800-38A, F.2.1 (CBC-AES128) and F.2.5 (CBC-AES256): then one block of padding.
    const std::pair<std::string, std::string> vectors[] = {
        {"2b7e151628aed2a6abf7158809cf4f3c", "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
                                             "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"},
        {"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
         "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
         "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b"},
    };
    for (const auto& [key_hex, cipher_hex] : vectors) {
        const std::string key = bytes(key_hex), expected = bytes(cipher_hex);
        const std::string cipher = pith::pdf::aes_cbc(true, key, ivp, plain);
        REQUIRE(cipher.size() == 80);
        CHECK(cipher.substr(0, 64) == expected);
        CHECK(pith::pdf::aes_cbc(false, key, ivp, cipher) == plain);
        CHECK(pith::pdf::aes_cbc(false, key, ivp, expected) == plain.substr(0, 48));  // no valid padding: last block left out
        CHECK(pith::pdf::aes_cbc(false, key, ivp, "").empty());
        // 200 kB goes through EVP: the same cipher text as the low-level code gives for its start.
        std::string large;
        for (int i = 0; large.size() < 200000; ++i) large += plain[static_cast<std::size_t>(i) % plain.size()] ^ static_cast<char>(i);
        large.resize(200000);
        const std::string big = pith::pdf::aes_cbc(true, key, ivp, large);
        CHECK(big.size() == 200016);
        CHECK(big.compare(0, 32000, pith::pdf::aes_cbc(true, key, ivp, large.substr(0, 32000)), 0, 32000) == 0);
        CHECK(pith::pdf::aes_cbc(false, key, ivp, big) == large);
        const std::string start = pith::pdf::aes_cbc(false, key, ivp, big.substr(0, 32000));
        CHECK((start.size() >= 32000 - 16 && large.compare(0, start.size(), start) == 0));
    }
}

TEST_CASE("pdf reader: a dictionary keyed by the empty name", "[pdf]") {
    // "/" alone is a legal name; PoDoFo's GetKey() answers null for it, which once crashed pith.
    Objects objs = tree_objects();
    objs[1] = "<< /Type /Catalog /Pages 2 0 R / 5 >>";
    auto f = File::from_bytes(pdftest::classic(objs), "empty-key.pdf");
    const auto& keys = f.catalog().GetDictionary().GetKeys();
    const auto empty = keys.find(PdfName(""));
    REQUIRE(empty != keys.end());
    CHECK(empty->second->GetNumber() == 5);
    CHECK(f.page_count() == 3);
}

TEST_CASE("pdf reader: an encryption dictionary with short or missing strings is refused, not read past", "[pdf]") {
    // PoDoFo copies 32 or 48 bytes from /O and /U (and /OE, /UE, /Perms for AES-256) unchecked.
    const std::string o32(64, 'a'), o48(96, 'b'), e32(64, 'c'), p16(32, 'd');
    auto open_with = [&](const std::string& encrypt) {
        Objects objs = tree_objects();
        objs[8] = encrypt;
        return File::from_bytes(pdftest::classic(objs, "/Root 1 0 R /Encrypt 8 0 R /ID [<00> <00>]"), "encrypted.pdf");
    };
    auto refusal = [&](const std::string& encrypt) {
        try {
            open_with(encrypt);
        } catch (const pith::Error& e) {
            return std::string(e.what());
        }
        return std::string("opened");
    };
    CHECK_THAT(refusal("<< /Filter /Standard /V 2 /R 3 /Length 128 /P -4 /O <0102> /U <" + o32 + "> >>"),
               Catch::Contains("/O is missing or shorter than 32 bytes"));
    CHECK_THAT(refusal("<< /Filter /Standard /V 5 /R 6 /P -4 /O <" + o48 + "> /U <" + o48 + "> /UE <" + e32 + "> /Perms <" + p16 + "> >>"),
               Catch::Contains("/OE is missing or shorter than 32 bytes"));
    CHECK_THAT(refusal("<< /Filter /Standard /V 5 /R 6 /P -4 /O <" + o48 + "> /U <" + o48 + "> /OE <" + e32 + "> /UE <" + e32 + "> /Perms <01> >>"),
               Catch::Contains("/Perms is missing or shorter than 16 bytes"));
    // Complete ones get as far as the password check.
    CHECK_THAT(refusal("<< /Filter /Standard /V 2 /R 3 /Length 128 /P -4 /O <" + o32 + "> /U <" + o32 + "> >>"),
               Catch::Contains("password"));
}
