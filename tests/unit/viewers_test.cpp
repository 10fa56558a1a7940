// SPDX-License-Identifier: MIT
// What viewers read differently (src/drawing/viewers.cpp, pdf::File::ambiguous_definitions):
// hand-written one-page PDFs, each construct alone.
#include "core/findings.hpp"
#include "pdf/file.hpp"
#include "pdf_support.hpp"
#include "drawing/viewers.hpp"

#include <catch2/catch.hpp>

#include <string>

using pdftest::Objects;
using pith::pdf::File;

namespace {

// Catalog 1 (with `catalog_extra`), Pages 2, page 3 drawing through /Properties /oc (object 5)
// and with /Annots [ 6 0 R ] when `annot` is given, content 4.
std::string page_pdf(const std::string& catalog_extra, const std::string& group, const std::string& annot = "",
                     const std::string& more_objects_at_7 = "") {
    Objects objs = {
        {1, "<< /Type /Catalog /Pages 2 0 R " + catalog_extra + " >>"},
        {2, "<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>"},
        {3, "<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 612 792 ] /Resources << /Properties << /oc 5 0 R >> >> "
            "/Contents 4 0 R" + std::string(annot.empty() ? "" : " /Annots [ 6 0 R ]") + " >>"},
        {4, "<< /Length 15 >>\nstream\n/OC /oc BDC EMC\nendstream"},
        {5, group},
    };
    if (!annot.empty()) objs[6] = annot;
    if (!more_objects_at_7.empty()) objs[7] = more_objects_at_7;
    return pdftest::classic(objs);
}

std::vector<std::string> oc(const std::string& catalog_extra, const std::string& group) {
    File f = File::from_bytes(page_pdf(catalog_extra, group));
    return pith::drawing::optional_content_ambiguities(f, 0);
}

const std::string kGroup = "<< /Type /OCG /Name (Layer) >>";
const std::string kListed = "/OCProperties << /OCGs [ 5 0 R ] /D << /Order [ 5 0 R ] >> >>";

std::vector<std::string> annotation(const std::string& annot, const std::string& appearance = "") {
    File f = File::from_bytes(page_pdf(kListed, kGroup, annot, appearance));
    return pith::drawing::malformed_annotations(f, 0);
}

// A stream object body with `content`.
std::string form(const std::string& content, const std::string& extra = "/BBox [ 0 0 10 10 ]") {
    return "<< /Type /XObject /Subtype /Form " + extra + " /Length " + std::to_string(content.size()) + " >>\nstream\n" + content +
           "\nendstream";
}

// `pdf` with `text` inserted just before its last xref table (startxref fixed; object offsets
// do not move): a definition in the same revision that no xref entry names.
std::string insert_before_xref(const std::string& pdf, const std::string& text) {
    const std::size_t at = pdf.rfind("\nxref\n") + 1;
    std::string out = pdf.substr(0, at) + text + pdf.substr(at);
    const std::size_t sx = out.rfind("startxref\n");
    const std::size_t old = std::stoul(out.substr(sx + 10));
    return out.substr(0, sx) + "startxref\n" + std::to_string(old + text.size()) + "\n%%EOF\n";
}

}  // namespace

TEST_CASE("viewers: optional content that every viewer shows alike passes", "[viewers]") {
    CHECK(oc(kListed, kGroup).empty());
    CHECK(oc("/OCProperties << /OCGs [ 5 0 R ] /D << /OFF [ 5 0 R ] >> >>", kGroup).empty());  // OFF everywhere
    // usage states that agree with /D, under a View auto-state
    CHECK(oc("/OCProperties << /OCGs [ 5 0 R ] /D << /AS [ << /Event /View /Category [ /View ] /OCGs [ 5 0 R ] >> ] >> >>",
             "<< /Type /OCG /Name (L) /Usage << /View << /ViewState /ON >> /Print << /PrintState /ON >> >> >>")
              .empty());
    CHECK(oc(kListed, "<< /Type /OCG /Name (L) /Intent /View >>").empty());
    CHECK(oc(kListed, "<< /Type /OCG /Name (L) /Intent [ /View /Design ] >>").empty());  // View among them
    CHECK(oc("/OCProperties << /OCGs [ 5 0 R ] /D << /Intent /All >> >>", "<< /Type /OCG /Name (L) /Intent /Design >>").empty());
    CHECK(oc(kListed, "<< /Type /OCMD /OCGs [ 7 0 R ] /P /AnyOn >>").empty());  // over no group: shown everywhere
}

TEST_CASE("viewers: optional content whose state is the viewer's choice is named", "[viewers]") {
    auto has = [](const std::vector<std::string>& why, const std::string& what) {
        return why.size() == 1 && why[0].find(what) != std::string::npos;
    };
    CHECK(has(oc(kListed, "<< /Type /OCG /Name (L) /Usage << /View << /ViewState /OFF >> >> >>"), "/ViewState is OFF"));
    CHECK(has(oc("/OCProperties << /OCGs [ 5 0 R ] /D << /OFF [ 5 0 R ] >> >>",
                 "<< /Type /OCG /Name (L) /Usage << /Print << /PrintState /ON >> >> >>"),
              "/PrintState is ON"));
    CHECK(has(oc(kListed, "<< /Type /OCG /Name (L) /Intent /Design >>"), "/Intent"));
    CHECK(has(oc(kListed, "<< /Type /OCG /Name (L) /Intent [ /Design /Other ] >>"), "/Intent"));
    CHECK(has(oc("/OCProperties << /OCGs [ 5 0 R ] /D << /Intent /Design >> >>", kGroup), "/Intent"));
    CHECK(has(oc("/OCProperties << /OCGs [ 5 0 R ] /D << >> /Configs [ << /OFF [ 5 0 R ] >> ] >>", kGroup), "/Configs"));
    CHECK(has(oc("/OCProperties << /OCGs [ 5 0 R ] /D << /AS [ << /Event /View /Category [ /Zoom ] >> ] >> >>",
                 "<< /Type /OCG /Name (L) /Usage << /Zoom << /min 4 >> >> >>"),
              "/AS"));
    CHECK(has(oc("/OCProperties << /OCGs [ ] /D << >> >>", kGroup), "not listed"));
    CHECK(has(oc("", kGroup), "no /OCProperties"));
    // a membership dictionary: its /VE, and its groups' states
    File ve = File::from_bytes(page_pdf("/OCProperties << /OCGs [ 7 0 R ] /D << >> >>", "<< /Type /OCMD /OCGs [ 7 0 R ] /VE [ /Not 7 0 R ] >>", "", kGroup));
    CHECK(has(pith::drawing::optional_content_ambiguities(ve, 0), "/VE"));
}

TEST_CASE("viewers: annotation fields viewers read differently", "[viewers]") {
    const std::string ok = "<< /Type /Annot /Subtype /Square /Rect [ 1 2 30 40 ] /F 4 /Border [ 0 0 1 [ 3 2 ] ] "
                           "/BS << /W 1 /S /D /D [ 3 2 ] >> /AP << /N 7 0 R >> >>";
    CHECK(annotation(ok, form("0 0 1 rg 0 0 5 5 re f")).empty());
    auto bad = [&](const std::string& from, const std::string& to, const std::string& appearance = "") {
        std::string a = ok;
        a.replace(a.find(from), from.size(), to);
        auto why = annotation(a, appearance.empty() ? form("0 0 1 rg 0 0 5 5 re f") : appearance);
        return why.size() == 1;
    };
    CHECK(bad("/Rect [ 1 2 30 40 ]", "/Rect [ 1 2 30 40 0 ]"));
    CHECK(bad("/Rect [ 1 2 30 40 ]", "/Rect [ 1 2 30 ]"));
    CHECK(bad("/Rect [ 1 2 30 40 ]", "/Rect [ (1) 2 30 40 ]"));
    CHECK(bad("/Rect [ 1 2 30 40 ]", ""));
    CHECK(bad("/F 4", "/F 4.0"));
    CHECK(bad("/F 4", "/F (4)"));
    CHECK(bad("/Border [ 0 0 1 [ 3 2 ] ]", "/Border [ 0 0 1 0 ]"));
    CHECK(bad("/Border [ 0 0 1 [ 3 2 ] ]", "/Border [ 0 0 (1) ]"));
    CHECK(bad("/BS << /W 1", "/BS << /W (1)"));
    CHECK(bad("/BS << /W 1 /S /D /D [ 3 2 ] >>", "/BS 1"));
    CHECK(bad("/Subtype /Square", ""));
    CHECK(bad("/AP << /N 7 0 R >>", "/AP << /N 5 >>"));
    CHECK(bad("/AP << /N 7 0 R >>", "/AP << /N << /On 7 0 R /Off 7 0 R >> >>"));  // states, no /AS
    CHECK(bad("/F 4", "/F 4", form("0 0 1 rg (unclosed")));                         // does not parse
    CHECK(bad("/F 4", "/F 4", form("0 0 1 rg", "")));                               // no /BBox
    CHECK(!bad("/AP << /N 7 0 R >>", "/AS /On /AP << /N << /On 7 0 R /Off 7 0 R >> >>"));
    CHECK(!bad("/AP << /N 7 0 R >>", "/AS /Off /AP << /N << /Yes 7 0 R >> >>"));  // a check box that is off: nothing drawn
    CHECK(!bad("/F 4", "/F 4 /Border [ 0 0 1 ]"));
}

TEST_CASE("viewers: objects resolved to different definitions", "[viewers]") {
    const Objects objs = {{1, "<< /Type /Catalog /Pages 2 0 R >>"}, {2, "<< /Type /Pages /Kids [ ] /Count 0 >>"},
                          {3, "<< /Length 22 >>\nstream\nBT (see 3 0 obj) Tj ET\nendstream"}};
    const std::string honest = pdftest::classic(objs);
    CHECK(File::from_bytes(honest).ambiguous_definitions().empty());  // "3 0 obj" inside a stream's text is no definition
    const std::string updated = pdftest::classic_update(honest, {{2, "<< /Type /Pages /Kids [ ] /Count 0 /X 1 >>"}},
                                                        pdftest::startxref_of(honest), 4);
    CHECK(File::from_bytes(updated).ambiguous_definitions().empty());  // a later revision redefines it: fine
    const std::string twice = insert_before_xref(honest, "2 0 obj\n<< /Type /Pages /Kids [ 9 0 R ] /Count 1 >>\nendobj\n");
    auto why = File::from_bytes(twice).ambiguous_definitions();
    REQUIRE(why.size() == 1);
    CHECK(why[0].find("object 2 is defined twice in one revision") != std::string::npos);
    // bytes before %PDF-: a definition in a later revision that no xref lists
    const std::string junk = pdftest::classic(objs, "/Root 1 0 R", "From: someone\r\n\r\n");
    CHECK(File::from_bytes(junk).ambiguous_definitions().empty());
    const std::string later = junk + "2 0 obj\n<< /Type /Pages /Kids [ 9 0 R ] /Count 1 >>\nendobj\n%%EOF\n";
    why = File::from_bytes(later).ambiguous_definitions();
    REQUIRE(why.size() == 1);
    CHECK(why[0].find("no cross-reference section lists") != std::string::npos);
    CHECK(File::from_bytes(honest + "2 0 obj\n<< >>\nendobj\n%%EOF\n").ambiguous_definitions().empty());  // no header bytes
}

TEST_CASE("viewers: an object stream read plainly is no ambiguity", "[viewers]") {
    // (an object stream defining an object twice: the attack suite's viewers-objstm-duplicate.pdf)
    const std::string pdf = pdftest::xref_stream_file({{1, "<< /Type /Catalog /Pages 2 0 R >>"}},
                                                      {{2, "<< /Type /Pages /Kids [ ] /Count 0 >>"}}, 5, 6);
    File plain = File::from_bytes(pdf);
    plain.get(plain.reference(2));
    CHECK(plain.ambiguous_definitions().empty());
}

TEST_CASE("viewers: a key written twice with different values is known", "[viewers]") {
    auto read = [](const std::string& pages) {
        File f = File::from_bytes(pdftest::classic({{1, "<< /Type /Catalog /Pages 2 0 R >>"}, {2, pages}}));
        CHECK(f.keys_twice(2).empty());  // not read yet
        f.get(f.reference(2));
        return f.keys_twice(2);
    };
    CHECK(read("<< /Type /Pages /Kids [ ] /Count 0 >>").empty());
    CHECK(read("<< /Type /Pages /Kids [ ] /Kids [ ] /Count 0 >>").empty());  // the same value twice: every reader agrees
    CHECK(read("<< /Type /Pages /Kids [ 9 0 R ] /Kids [ ] /Count 0 >>") == std::vector<std::string>{"Kids"});
    CHECK(read("<< /Type /Pages /Count 0 /Kids [ ] /X << /A 1 /A 2 >> >>") == std::vector<std::string>{"A"});  // nested
    File f = File::from_bytes(pdftest::classic({{1, "<< /Type /Catalog /Pages 2 0 R >>"},
                                                {2, "<< /Type /Pages /Kids [ 9 0 R ] /Kids [ ] /Count 0 >>"}}));
    const pith::pdf::Object& pages = f.get(f.reference(2));
    CHECK(pages.GetDictionary().GetKey("Kids")->GetArray().empty());  // the last value, as poppler, MuPDF and qpdf read
    CHECK(f.ambiguous_definitions().empty());  // what matters is what draws a page: the closed list names it
}
