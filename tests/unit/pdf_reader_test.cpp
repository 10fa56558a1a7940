#include "core/error.hpp"
#include "pdf/file.hpp"
#include "pdf/filters.hpp"
#include "pdf_support.hpp"

#include <catch2/catch.hpp>

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
    CHECK_FALSE(g.warnings().empty());
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

TEST_CASE("pdf filters: flate and predictors", "[pdf]") {
    std::string text(5000, 'x');
    CHECK(flate_decode(flate_encode(text)) == text);
    CHECK_THROWS_AS(flate_decode("not flate data at all"), pith::Error);
    CHECK_THROWS_AS(flate_decode(flate_encode(std::string(1 << 20, 'a')), 1000), pith::Error);
    PdfObject name(PdfName("DCTDecode"));
    CHECK_THROWS_WITH(decode_filters("abc", &name, nullptr), Catch::Contains("DCTDecode"));
    PdfObject hex(PdfName("ASCIIHexDecode"));
    CHECK(decode_filters("41 42>", &hex, nullptr) == "AB");
}
