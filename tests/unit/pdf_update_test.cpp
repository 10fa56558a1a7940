// SPDX-License-Identifier: MIT
#include "core/error.hpp"
#include "pdf/file.hpp"
#include "pdf/update.hpp"
#include "pdf_support.hpp"
#include "required.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <dirent.h>
#include <sstream>

using namespace pith::pdf;
using namespace PoDoFo;
using pdftest::Objects;

namespace {

Objects simple_objects() {
    return {{1, "<< /Type /Catalog /Pages 2 0 R >>"},
            {2, "<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>"},
            {3, "<< /Type /Page /Parent 2 0 R /Resources << >> >>"},
            {4, "<< /Title (Original) >>"}};
}

// Adds one object and replaces Info; returns the output bytes.
std::string stamp(File& f, const std::string& comment = "%PithUpdate test") {
    Update u(f);
    if (!comment.empty()) u.set_comment(comment);
    PdfDictionary extra;
    extra.AddKey("Type", PdfName("PithTest"));
    extra.AddKey("Text", PdfString("new (object)"));
    PdfReference added = u.add(PdfObject(extra));
    PdfDictionary info;
    if (const PdfObject* i = f.info()) info = i->GetDictionary();
    info.AddKey("PithNumber", PdfString("pith:123"));
    info.AddKey("Extra", added);
    if (f.info_ref().ObjectNumber()) u.replace(f.info_ref(), PdfObject(info));
    else u.set_info(u.add(PdfObject(info)));
    std::ostringstream os;
    u.write(os);
    return os.str();
}

void check_with_qpdf(const std::string& bytes, const std::string& name, const std::string& password = "") {
    require_qpdf();
    std::string path = pdftest::temp_path(name);
    pdftest::write_file(path, bytes);
    int rc = -1;
    std::string out = pdftest::run("timeout 60 qpdf --check " +
                                   (password.empty() ? std::string() : "--password=" + password + " ") + path, &rc);
    INFO(out);
    CHECK(rc == 0);
    CHECK(out.find("WARNING") == std::string::npos);
    std::remove(path.c_str());
}

}  // namespace

TEST_CASE("pdf update: classic file round trip", "[pdf]") {
    std::string in = pdftest::classic(simple_objects(), "/Root 1 0 R /Info 4 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]");
    auto f = File::from_bytes(in, "in.pdf");
    std::string out = stamp(f);
    REQUIRE(out.size() > in.size());
    CHECK(out.compare(0, in.size(), in) == 0);  // byte-exact prefix
    CHECK(out.substr(in.size(), 17) == "%PithUpdate test\n");
    CHECK(out.size() - in.size() < 1024);

    auto g = File::from_bytes(out, "out.pdf");
    CHECK_FALSE(g.reconstructed());
    CHECK(g.xref_kind() == XrefKind::Table);
    CHECK(g.startxref() > in.size());
    CHECK(g.max_object_number() == 5);
    CHECK(g.trailer().GetKey("Size")->GetNumber() == 6);
    CHECK(g.trailer().GetKey("Prev") == nullptr);  // reader strips it; check the raw bytes instead
    CHECK(out.find("/Prev " + std::to_string(f.startxref())) != std::string::npos);
    REQUIRE(g.info() != nullptr);
    CHECK(g.info()->GetDictionary().GetKey("PithNumber")->GetString().GetStringUtf8() == "pith:123");
    CHECK(g.info()->GetDictionary().GetKey("Title")->GetString().GetStringUtf8() == "Original");
    CHECK(g.get(PdfReference(5, 0)).GetDictionary().GetKey("Text")->GetString().GetStringUtf8() == "new (object)");
    const PdfArray& id = g.trailer().GetKey("ID")->GetArray();
    CHECK(std::string(id[0].GetString().GetString(), 16) == std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16));
    CHECK(std::string(id[1].GetString().GetString(), 16) != std::string(id[0].GetString().GetString(), 16));
    auto revs = g.revisions();
    REQUIRE(revs.size() == 2);
    CHECK(revs[0].end == in.size());
    CHECK(revs[1].objects == std::vector<std::uint32_t>{4, 5});
    check_with_qpdf(out, "classic.pdf");
    // Deterministic output.
    auto f2 = File::from_bytes(in, "in.pdf");
    CHECK(stamp(f2) == out);
}

TEST_CASE("pdf update: file without /Info or /ID gets both", "[pdf]") {
    Objects o = simple_objects();
    o.erase(4);
    std::string in = pdftest::classic(o);
    auto f = File::from_bytes(in, "noinfo.pdf");
    CHECK(f.info() == nullptr);
    std::string out = stamp(f, "");
    CHECK(out.compare(0, in.size(), in) == 0);
    auto g = File::from_bytes(out, "out.pdf");
    REQUIRE(g.info() != nullptr);
    CHECK(g.info_ref() == PdfReference(5, 0));
    REQUIRE(g.trailer().GetKey("ID") != nullptr);
    CHECK(g.trailer().GetKey("ID")->GetArray().size() == 2);
    check_with_qpdf(out, "noinfo.pdf");
}

TEST_CASE("pdf update: xref-stream file gets an xref stream", "[pdf]") {
    Objects direct = {{4, "<< /Producer (objstm test) >>"}};
    Objects packed = {{1, "<< /Type /Catalog /Pages 2 0 R >>"},
                      {2, "<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 200 100] >>"},
                      {3, "<< /Type /Page /Parent 2 0 R >>"}};
    std::string in = pdftest::xref_stream_file(direct, packed, 5, 6);
    // add /Info to the xref stream dictionary
    in.replace(in.find("/Root 1 0 R"), 11, "/Root 1 0 R");
    auto f = File::from_bytes(in, "xs.pdf");
    Update u(f);
    PdfReference n = u.add(PdfObject(PdfDictionary()));
    PdfDictionary page = f.get(PdfReference(3, 0)).GetDictionary();  // replace an object from an object stream
    page.AddKey("Rotate", PdfObject(static_cast<pdf_int64>(90)));
    u.replace(PdfReference(3, 0), PdfObject(page));
    u.replace_stream(PdfReference(4, 0), PdfDictionary(), "raw data");  // object becomes a stream
    std::ostringstream os;
    u.write(os);
    std::string out = os.str();
    CHECK(out.compare(0, in.size(), in) == 0);
    CHECK(out.find("\nxref\n", in.size()) == std::string::npos);  // no classic table
    auto g = File::from_bytes(out, "out.pdf");
    CHECK(g.xref_kind() == XrefKind::Stream);
    CHECK_FALSE(g.reconstructed());
    CHECK(n == PdfReference(7, 0));
    CHECK(g.max_object_number() == 8);  // 7 new + 8 the xref stream itself
    CHECK(g.page(0).rotate == 90);
    CHECK(g.stream_decoded(PdfReference(4, 0)) == "raw data");
    CHECK(g.get(PdfReference(1, 0)).IsDictionary());  // untouched objects still come from the object stream
    check_with_qpdf(out, "xs.pdf");
}

TEST_CASE("pdf update: reserve, errors and atomic file output", "[pdf]") {
    std::string in = pdftest::classic(simple_objects(), "/Root 1 0 R /Info 4 0 R");
    auto f = File::from_bytes(in, "in.pdf");
    {
        Update u(f);
        PdfReference r = u.reserve();
        CHECK(r == PdfReference(5, 0));
        std::ostringstream os;
        CHECK_THROWS_AS(u.write(os), pith::Error);  // reserved but undefined
        CHECK_THROWS_AS(u.replace(PdfReference(99, 0), PdfObject(PdfDictionary())), pith::Error);
        CHECK_THROWS_AS(u.set_comment("no percent"), pith::Error);
    }
    std::string dir = pdftest::temp_path("dir");
    ::mkdir(dir.c_str(), 0755);
    Update u(f);
    u.add(PdfObject(PdfDictionary()));
    CHECK_THROWS_AS(u.write_file(dir + "/missing/out.pdf"), pith::Error);
    std::string path = dir + "/out.pdf";
    u.write_file(path);
    std::string got = pdftest::read_file(path);
    CHECK(got.compare(0, in.size(), in) == 0);
    CHECK(File::open(path).max_object_number() == 5);
    // Writing over an existing file keeps nothing else behind.
    u.write_file(path);
    int entries = 0;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (dirent* e = ::readdir(d))
            if (e->d_name[0] != '.' || (std::string(e->d_name) != "." && std::string(e->d_name) != "..")) ++entries;
        ::closedir(d);
    }
    CHECK(entries == 1);
    std::remove(path.c_str());
    ::rmdir(dir.c_str());
}

TEST_CASE("pdf update: header offset and reconstructed input", "[pdf]") {
    std::string in = pdftest::classic(simple_objects(), "/Root 1 0 R /Info 4 0 R", "garbage before header\n");
    auto f = File::from_bytes(in, "offset.pdf");
    std::string out = stamp(f);
    auto g = File::from_bytes(out, "out.pdf");
    CHECK_FALSE(g.reconstructed());
    CHECK(g.info()->GetDictionary().GetKey("PithNumber") != nullptr);
    check_with_qpdf(out, "offset.pdf");

    std::string broken = pdftest::classic(simple_objects(), "/Root 1 0 R /Info 4 0 R");
    broken = broken.substr(0, broken.rfind("startxref")) + "startxref\n3\n%%EOF\n";
    auto b = File::from_bytes(broken, "broken.pdf");
    REQUIRE(b.reconstructed());
    std::string minimal = stamp(b);  // default: only the new objects; readers recover as before
    auto m = File::from_bytes(minimal, "minimal.pdf");
    CHECK(m.reconstructed());
    CHECK(m.info()->GetDictionary().GetKey("PithNumber") != nullptr);
    {
        Update u(b);
        u.set_repair(true);
        PdfDictionary info = b.info()->GetDictionary();
        info.AddKey("PithNumber", PdfString("pith:123"));
        u.replace(b.info_ref(), PdfObject(info));
        std::ostringstream os;
        u.write(os);
        std::string fixed = os.str();
        auto c = File::from_bytes(fixed, "fixed.pdf");
        CHECK_FALSE(c.reconstructed());  // the update carries a complete table
        CHECK(c.page_count() == 1);
        CHECK(c.info()->GetDictionary().GetKey("PithNumber") != nullptr);
        check_with_qpdf(fixed, "fixed.pdf");
    }
}

TEST_CASE("pdf update: encrypted files (made by qpdf)", "[pdf]") {
    require_qpdf();
    std::string plain = pdftest::classic(simple_objects(), "/Root 1 0 R /Info 4 0 R");
    std::string src = pdftest::temp_path("plain.pdf");
    pdftest::write_file(src, plain);
    struct Case { const char* bits; const char* extra; };
    for (Case c : {Case{"256", ""}, Case{"128", "--use-aes=y"}, Case{"128", "--use-aes=n"}, Case{"40", ""}}) {
        DYNAMIC_SECTION("key " << c.bits << " " << c.extra) {
            std::string enc = pdftest::temp_path(std::string("enc") + c.bits + c.extra + ".pdf");
            int rc = -1;
            std::string msg = pdftest::run(std::string("qpdf --allow-weak-crypto --encrypt secret owner ") + c.bits + " " + c.extra +
                                               " -- " + src + " " + enc, &rc);
            INFO(msg);
            REQUIRE(rc == 0);
            CHECK_THROWS_WITH(File::open(enc), Catch::Contains("--password"));
            OpenOptions bad;
            bad.password = "wrong";
            bad.password_given = true;
            CHECK_THROWS_WITH(File::open(enc, bad), Catch::Contains("--password"));
            OpenOptions ok;
            ok.password = "secret";
            ok.password_given = true;
            auto f = File::open(enc, ok);
            CHECK(f.encrypted());
            CHECK(f.info()->GetDictionary().GetKey("Title")->GetString().GetStringUtf8() == "Original");
            std::string out = stamp(f);
            auto g = File::from_bytes(out, "out.pdf", ok);
            REQUIRE(g.info() != nullptr);
            const PdfObject* pn = g.info()->GetDictionary().GetKey("PithNumber");
            REQUIRE(pn != nullptr);
            CHECK(pn->GetString().GetStringUtf8() == "pith:123");
            const PdfObject* extra = g.info()->GetDictionary().GetKey("Extra");
            REQUIRE(extra != nullptr);
            REQUIRE(extra->IsReference());
            CHECK(g.get(extra->GetReference()).GetDictionary().GetKey("Text")->GetString().GetStringUtf8() == "new (object)");
            CHECK(out.find("pith:123") == std::string::npos);  // the string is encrypted on disk
            check_with_qpdf(out, std::string("enc-out") + c.bits + ".pdf", "secret");
            std::string outp = pdftest::temp_path("enc-out.pdf");
            pdftest::write_file(outp, out);
            std::string shown = pdftest::run("qpdf --password=secret --show-object=" +
                                             std::to_string(g.info_ref().ObjectNumber()) + " " + outp);
            CHECK(shown.find("pith:123") != std::string::npos);
            std::remove(outp.c_str());
            std::remove(enc.c_str());
        }
    }
    std::remove(src.c_str());
}
