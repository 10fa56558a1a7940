// pith::pdf::shown_text: fonts, encodings, breaks, Form XObjects, text off the page.
#include "pdf/content.hpp"
#include "pdf/text.hpp"
#include "pdf_support.hpp"

#include <catch2/catch.hpp>

using pdftest::Objects;

namespace {

// One page (MediaBox 0 0 600 800) drawing `content`, with `fonts` (a /Font dictionary body),
// `xobjects` (an /XObject dictionary body), `extra` objects from number 10 on and `page_keys`.
std::string shown(const std::string& content, const std::string& fonts, const Objects& extra = {},
                  const std::string& xobjects = "", const std::string& page_keys = "", std::size_t max_bytes = 1 << 20) {
    Objects objs = {
        {1, "<< /Type /Catalog /Pages 2 0 R >>"},
        {2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"},
        {3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R /Resources << /Font << " + fonts +
                " >> /XObject << " + xobjects + " >> >> " + page_keys + " >>"},
        {4, "<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "\nendstream"},
    };
    objs.insert(extra.begin(), extra.end());
    pith::pdf::File file = pith::pdf::File::from_bytes(pdftest::classic(objs));
    auto shown = pith::pdf::shown_text(file, file.page(0), max_bytes);
    REQUIRE(shown);
    return pith::pdf::with_annotations(file, file.page(0), *shown, max_bytes);
}

std::string stream(const std::string& dict, const std::string& data) {
    return "<< " + dict + " /Length " + std::to_string(data.size()) + " >>\nstream\n" + data + "\nendstream";
}

const std::string kHelvetica = "/F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
const std::string kWinAnsi = "/F1 << /Type /Font /Subtype /TrueType /BaseFont /Arial /Encoding /WinAnsiEncoding >>";

}  // namespace

TEST_CASE("shown_text: standard encodings and /Differences glyph names", "[shown_text]") {
    // A standard font, not embedded: StandardEncoding (0x27 is quoteright there).
    CHECK(shown("BT /F1 12 Tf 72 700 Td (It\\047s) Tj ET", kHelvetica) == "It\u2019s");
    // WinAnsi: 0x93/0x94 are curly double quotes.
    CHECK(shown("BT /F1 12 Tf 72 700 Td (\\223Q\\224) Tj ET", kWinAnsi) == "\u201CQ\u201D");
    // /Differences: AGL names, uniXXXX, a ligature name, a suffix after '.'; unknown names are U+FFFD.
    const std::string font = "/F1 << /Type /Font /Subtype /Type1 /BaseFont /X /Encoding << /Differences "
                             "[65 /eacute /uni0042 /f_i /a.sc /g17] >> >>";
    CHECK(shown("BT /F1 12 Tf 72 700 Td (ABCDE) Tj ET", font) == "\u00E9Bfia\uFFFD");
    // Symbol and ZapfDingbats, not embedded: their own encodings.
    CHECK(shown("BT /F1 12 Tf 72 700 Td (ab) Tj ET", "/F1 << /Type /Font /Subtype /Type1 /BaseFont /Symbol >>") == "\u03B1\u03B2");
    CHECK(shown("BT /F1 12 Tf 72 700 Td (4) Tj ET", "/F1 << /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>") == "\u2714");
}

TEST_CASE("shown_text: ToUnicode maps come first; Identity-H reads two-byte codes", "[shown_text]") {
    const std::string cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
                             "1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
                             "2 beginbfchar <0001> <0050> <0002> <D835DC00> endbfchar\n"
                             "2 beginbfrange <0010> <0012> <0061> <0020> <0021> [<0058> <00660066>] endbfrange\n"
                             "endcmap CMapName currentdict /CMap defineresource pop end end";
    const Objects extra = {{10, stream("", cmap)}};
    const std::string font = "/F1 << /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 10 0 R >>";
    CHECK(shown("BT /F1 12 Tf 72 700 Td <0001001000110012000200200021> Tj ET", font, extra) == "Pabc\U0001D400Xff");
    // A code the map lacks, and a composite font whose CMap pith does not read: U+FFFD.
    CHECK(shown("BT /F1 12 Tf 72 700 Td <00010099> Tj ET", font, extra) == "P\uFFFD");
    const std::string other = "/F1 << /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /UniJIS-UTF16-H /ToUnicode 10 0 R >>";
    CHECK(shown("BT /F1 12 Tf 72 700 Td <0001> Tj ET", other, extra) == "\uFFFD");
    // Adobe's predefined UCS-2 CMaps: a code is its character (a ToUnicode map still comes first).
    const std::string ucs2 = "/F1 << /Type /Font /Subtype /Type0 /BaseFont /STSong /Encoding /UniGB-UCS2-H >>";
    CHECK(shown("BT /F1 12 Tf 72 700 Td <4E2D658700200041D800> Tj ET", ucs2) == "\u4E2D\u6587 A\uFFFD");
    CHECK(shown("BT /F1 12 Tf 72 700 Td <4E2D> Tj ET", "/F1 << /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /UniJIS-UCS2-HW-V /ToUnicode 10 0 R >>",
                extra) == "\u4E2D");
    // A simple font's ToUnicode wins over its encoding.
    const Objects simple_map = {{10, stream("", "1 beginbfchar <41> <005A> endbfchar")}};
    CHECK(shown("BT /F1 12 Tf 72 700 Td (AB) Tj ET", kHelvetica.substr(0, kHelvetica.size() - 3) + " /ToUnicode 10 0 R >>", simple_map) == "ZB");
    // A block of thousands of entries (the spec says 100 at most; fonts do not care), and one
    // that breaks off: the entries before the break stand.
    std::string long_block = "5000 beginbfchar";
    for (int code = 0x1000; code < 0x1000 + 5000; ++code) {
        char entry[32];
        std::snprintf(entry, sizeof entry, " <%04X> <%04X>", code, code - 0x1000 + 0x4E00);
        long_block += entry;
    }
    const Objects long_map = {{10, stream("", long_block + " endbfchar 1 beginbfchar <0001> <0041> <0002> <0042")}};
    const std::string mapped = "/F1 << /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 10 0 R >>";
    CHECK(shown("BT /F1 12 Tf 72 700 Td <1000238700010002> Tj ET", mapped, long_map) == "\u4E00\u6187A\uFFFD");
}

TEST_CASE("shown_text: an embedded Type 1 font's own encoding", "[shown_text]") {
    const std::string program = "%!PS-AdobeFont-1.0: CMR10\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n"
                                "dup 11 /ff put\ndup 65 /A put\nreadonly def\ncurrentfile eexec\n";
    const Objects extra = {{10, "<< /Type /FontDescriptor /FontName /CMR10 /FontFile 11 0 R >>"},
                           {11, stream("/Length1 " + std::to_string(program.size()) + " /Length2 0 /Length3 0", program)}};
    const std::string font = "/F1 << /Type /Font /Subtype /Type1 /BaseFont /CMR10 /FontDescriptor 10 0 R >>";
    CHECK(shown("BT /F1 12 Tf 72 700 Td (A\\013B) Tj ET", font, extra) == "A\uFB00\uFFFD");  // the AGL maps "ff" to the ligature
}

TEST_CASE("shown_text: breaks only where the content shows them", "[shown_text]") {
    // A TJ gap of a quarter em or more is a space; kerning is not.
    CHECK(shown("BT /F1 12 Tf 72 700 Td [(Per) -20 (for) 30 (mance) -300 (Model)] TJ ET", kHelvetica) == "Performance Model");
    // A run on the same baseline continues the word; another baseline starts a line.
    CHECK(shown("BT /F1 12 Tf 72 700 Td (Dis) Tj 20 0 Td (tributed) Tj 0 -14 Td (Training) Tj ET", kHelvetica) ==
          "Distributed\nTraining");
    // T*, ' and the leading; a new BT at another height; rotated text starts a line too.
    CHECK(shown("BT /F1 12 Tf 14 TL 72 700 Td (A) Tj T* (B) Tj (C) ' ET BT /F1 12 Tf 0 1 -1 0 30 300 Tm (D) Tj ET", kHelvetica) ==
          "A\nB\nC\nD");
    // A superscript (a small rise) stays on its line.
    CHECK(shown("BT /F1 12 Tf 72 700 Td (x) Tj 0 4 Td (2) Tj ET", kHelvetica) == "x2");
    // cm moves baselines: the same text matrix under two CTMs is two lines.
    CHECK(shown("q 1 0 0 1 0 0 cm BT /F1 12 Tf 72 700 Td (A) Tj ET Q q 1 0 0 1 0 -50 cm BT /F1 12 Tf 72 700 Td (B) Tj ET Q",
                kHelvetica) == "A\nB");
}

TEST_CASE("shown_text: fonts follow q/Q; text off the page and without a font is U+FFFD", "[shown_text]") {
    const std::string fonts = kHelvetica + " /F2 << /Type /Font /Subtype /Type1 /BaseFont /X /Encoding << /Differences [65 /B] >> >>";
    CHECK(shown("BT /F1 12 Tf 72 700 Td q /F2 12 Tf (A) Tj Q (A) Tj ET", fonts) == "BA");
    CHECK(shown("BT /F1 12 Tf 900 700 Td (Hidden) Tj ET", kHelvetica) == "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD");
    CHECK(shown("BT 72 700 Td (A) Tj ET", kHelvetica) == "\uFFFD");
}

TEST_CASE("shown_text: Form XObjects are read in place; figures without text are skipped", "[shown_text]") {
    const std::string form_fonts = "/Resources << /Font << " + kHelvetica + " >> >>";
    const Objects extra = {
        {10, stream("/Type /XObject /Subtype /Form /BBox [0 0 100 20] " + form_fonts, "BT /F1 8 Tf 0 2 Td (pith:ABCDEFGH) Tj ET")},
        {11, stream("/Type /XObject /Subtype /Form /BBox [0 0 100 20]", "0 0 m 10 10 l S")},
    };
    CHECK(shown("BT /F1 12 Tf 72 700 Td (Title) Tj ET /Fig Do q 1 0 0 1 400 20 cm /Badge Do Q", kHelvetica, extra,
                "/Badge 10 0 R /Fig 11 0 R") == "Title\npith:ABCDEFGH");
    // A form drawing itself ends at the depth limit instead of recursing for ever.
    const Objects loop = {{10, stream("/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << /Font << " + kHelvetica +
                                          " >> /XObject << /Me 10 0 R >> >>", "BT /F1 8 Tf 10 10 Td (x) Tj ET /Me Do")}};
    CHECK(shown("/Me Do", kHelvetica, loop, "/Me 10 0 R") == "xxxxxxxx");  // 8 levels of forms
    // At most 256 forms are read per page; each one more is U+FFFD.
    std::string many;
    for (int i = 0; i < 258; ++i) many += "/Badge Do ";
    CHECK(shown(many, kHelvetica, extra, "/Badge 10 0 R") == [] {
        std::string s;
        for (int i = 0; i < 256; ++i) s += "pith:ABCDEFGH";
        return s + "\uFFFD\uFFFD";
    }());
}

TEST_CASE("shown_text: content syntax (strings, names, comments, marked content, inline images)", "[shown_text]") {
    // Escapes, octal codes, balanced parentheses, a line continuation; a hex string with white
    // space and an odd digit count.
    CHECK(shown("BT /F1 12 Tf 72 700 Td (a\\(b\\)c\\\\d\\101(e)\\\nf) Tj <67 6 > Tj ET", kHelvetica) == "a(b)c\\dA(e)fg`");
    // A font name with #xx escapes; comments; true/false/null operands before an operator.
    const std::string spaced = "/F#201 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
    CHECK(shown("% (not text) Tj\nBT /F#201 12 Tf 72 700 Td true false null pop (x) Tj ET", spaced) == "x");
    // Marked-content properties (a string with >> inside) and an inline image whose data holds
    // "Tj" and "EI" bytes are passed over.
    CHECK(shown("/Span << /ActualText (a >> b) /Nested << /K [1 2] >> >> BDC BT /F1 12 Tf 72 700 Td (y) Tj ET EMC "
                "BI /W 4 /H 1 /BPC 8 /CS /G ID (Tj)EIx EI BT /F1 12 Tf 72 700 Td (z) Tj ET",
                kHelvetica) == "yz");
}

TEST_CASE("shown_text: content that breaks off gives the text shown before it, not an exception", "[shown_text]") {
    const std::string start = "BT /F1 12 Tf 72 700 Td (Shown) Tj ";
    for (const char* rest : {"[(unterminated) Tj ET", "(unclosed Tj ET", "<4142 Tj ET", "<< /A (x) Tj", "[) (b) Tj ET"})
        CHECK(shown(start + rest, kHelvetica) == "Shown");
    // What ended it, and whether it swallows all that follows (a string, array or dictionary
    // left open) or is an error a reader may recover from.
    auto ending = [](const std::string& content) {
        const Objects objs = {
            {1, "<< /Type /Catalog /Pages 2 0 R >>"},
            {2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"},
            {3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents [4 0 R 5 0 R] /Resources << /Font << " +
                    kHelvetica + " >> >> >>"},
            {4, stream("", content)},
            {5, stream("", "BT /F1 12 Tf 72 600 Td (After) Tj ET")},
        };
        pith::pdf::File file = pith::pdf::File::from_bytes(pdftest::classic(objs));
        const auto text = pith::pdf::shown_text(file, file.page(0), 1 << 20);
        REQUIRE(text);
        return *text;
    };
    auto t = ending(start + "ET [ /oops");
    CHECK((t.text == "Shown" && t.broken_by == "unclosed array" && t.cut_short));
    t = ending(start + "ET (open");
    CHECK((t.text == "Shown" && t.broken_by == "unclosed string" && t.cut_short));
    t = ending(start + "ET << 1 2 >> BDC");
    CHECK((t.text == "Shown" && t.broken_by == "a dictionary key that is not a name" && !t.cut_short));
    t = ending(start + "ET");
    CHECK((t.text == "Shown\nAfter" && t.broken_by.empty() && !t.cut_short));
}

TEST_CASE("with_annotations: a field's value read into the line of its label", "[shown_text]") {
    auto field = [](int id, const std::string& rect, const std::string& value) {
        const std::string data = "BT /F1 10 Tf 2 5 Td (" + value + ") Tj ET";
        return Objects{{id, "<< /Type /Annot /Subtype /Widget /Rect [" + rect + "] /AP << /N " + std::to_string(id + 1) + " 0 R >> >>"},
                       {id + 1, stream("/Subtype /Form /BBox [0 0 100 20] /Resources << /Font << " + kHelvetica + " >> >>", data)}};
    };
    Objects extra;
    for (const Objects& f : {field(10, "100 695 200 715", "Alice"), field(12, "300 697 400 717", "Today"), field(14, "0 694 40 714", "1."),
                             field(16, "100 595 200 615", "Ahead"), field(18, "300 300 400 320", "Below")})
        extra.insert(f.begin(), f.end());
    const std::string labels = "BT /F1 10 Tf 50 700 Td (Name:) Tj 200 0 Td (Date:) Tj 0 -100 Td (Second line) Tj ET";
    // Values go between the labels by position, on baselines a few points apart (the fields' own
    // /Rect and text offsets); a value on no line of the content gets one of its own.
    CHECK(shown(labels, kHelvetica, extra, "", "/Annots [10 0 R 12 0 R 14 0 R 16 0 R 18 0 R]") ==
          "1. Name: Alice Date: Today\nAhead Second line\nBelow");
    // Text cut short: the content's ("Name: Date", "Name": runs start beyond the cut), the
    // fields' (those read before the cut), and what they make together.
    CHECK(shown(labels, kHelvetica, extra, "", "/Annots [10 0 R 12 0 R 14 0 R 16 0 R 18 0 R]", 10) == "Name: Alic");
    CHECK(shown(labels, kHelvetica, extra, "", "/Annots [10 0 R 12 0 R 14 0 R 16 0 R 18 0 R]", 4) == "Name");
    // Turned text is not on the same line, whatever its position.
    CHECK(shown("BT /F1 10 Tf 0 1 -1 0 120 700 Tm (Up) Tj ET", kHelvetica, extra, "", "/Annots [10 0 R]") == "Up\nAlice");
}

TEST_CASE("shown_text: runs stay fewer than the text's bytes, however many empty strings the content shows", "[shown_text]") {
    std::string content = "BT /F1 12 Tf ";
    for (int i = 0; i < 20000; ++i) content += "1 0 0 1 10 " + std::to_string(700 - i % 50) + " Tm () Tj ";
    content += "(x) Tj ET";
    const std::string page = pdftest::classic({{1, "<< /Type /Catalog /Pages 2 0 R >>"},
                                               {2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"},
                                               {3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R /Resources << /Font << " +
                                                       kHelvetica + " >> >> >>"},
                                               {4, stream("", content)}});
    pith::pdf::File file = pith::pdf::File::from_bytes(page);
    const auto shown = pith::pdf::shown_text(file, file.page(0), 1 << 20);
    REQUIRE(shown);
    CHECK(shown->text == "x");
    CHECK(shown->runs.size() == 1);
}

TEST_CASE("with_annotations: the appearances viewers show, each on a line of its own", "[shown_text]") {
    auto form = [](const std::string& keys, const std::string& text) {
        return stream("/Type /XObject /Subtype /Form /BBox [0 0 100 20] " + keys + " /Resources << /Font << " + kHelvetica + " >> >>",
                      "BT /F1 10 Tf 2 5 Td (" + text + ") Tj ET");
    };
    const Objects extra = {
        {10, "<< /Type /Annot /Subtype /Widget /Rect [100 100 200 120] /AP << /N 11 0 R >> >>"},
        {11, form("", "Signed by Alice")},
        {12, "<< /Type /Annot /Subtype /Widget /F 2 /Rect [100 200 200 220] /AP << /N 13 0 R >> >>"},  // hidden
        {13, form("", "Hidden")},
        {14, "<< /Type /Annot /Subtype /Widget /F 36 /Rect [100 200 200 220] /AP << /N 13 0 R >> >>"},  // NoView (and Print)
        {21, "<< /Type /Annot /Subtype /Widget /OC 22 0 R /Rect [100 200 200 220] /AP << /N 13 0 R >> >>"},  // optional content
        {22, "<< /Type /OCG /Name (Layer) >>"},
        {15, "<< /Type /Annot /Subtype /Widget /Rect [100 300 200 320] /AS /On /AP << /N << /On 16 0 R /Off 17 0 R >> >> >>"},
        {16, form("", "Yes")},
        {17, form("", "No")},
        {18, "<< /Type /Annot /Subtype /Link /Rect [100 400 200 420] >>"},  // no appearance
        // /BBox through /Matrix is fitted to /Rect: this one lands beyond the page's right edge.
        {19, "<< /Type /Annot /Subtype /FreeText /Rect [650 100 750 120] /AP << /N 20 0 R >> >>"},
        {20, form("/Matrix [1 0 0 1 -500 0]", "Off")},
    };
    const std::string unknown3 = "\uFFFD\uFFFD\uFFFD";
    CHECK(shown("BT /F1 12 Tf 72 700 Td (Title) Tj ET", kHelvetica, extra, "",
                "/Annots [10 0 R 12 0 R 14 0 R 21 0 R 15 0 R 18 0 R 19 0 R]") == "Title\nSigned by Alice\nYes\n" + unknown3);
    // A page whose only text is a form field's.
    CHECK(shown("", kHelvetica, extra, "", "/Annots [15 0 R]") == "Yes");
}

TEST_CASE("ContentLexer: numbers as PDF writes them, the long ones too", "[shown_text]") {
    auto first_operand = [](const std::string& content) {
        pith::pdf::ContentLexer lexer(content);
        std::string_view op;
        std::vector<pith::pdf::Operand> operands;
        REQUIRE(lexer.next_operator(op));
        lexer.operands(operands);
        REQUIRE(operands.size() == 1);
        REQUIRE(operands[0].kind == pith::pdf::Operand::Number);
        return operands[0].number();
    };
    // Exact where a double can be: the same value as the C library's reading.
    for (const char* n : {"0", "7", "-7", "+7", "12.5", "-.5", ".25", "5.", "0.000001", "123456789012345", "-98765.4321",
                          "3.14159265358979", "612", "841.89", "1e5"})
        CHECK(first_operand(std::string(n) + " x") == (std::string(n) == "1e5" ? 1 : std::strtod(n, nullptr)));
    // More than 15 digits: rounded as they come, still within a part in 10^15.
    for (const char* n : {"12345678901234567890", "0.1234567890123456789", "-1000000000000000000000.5"})
        CHECK(first_operand(std::string(n) + " x") == Approx(std::strtod(n, nullptr)).epsilon(1e-15));
    // What readers make of malformed numbers: the number read so far; signs repeated.
    CHECK(first_operand("1.2.3 x") == 1.2);
    CHECK(first_operand("--5 x") == 5);
    CHECK(first_operand("-+-5 x") == 5);
    CHECK(first_operand(". x") == 0);
    CHECK(first_operand("4a x") == 4);
}

TEST_CASE("shown_text: its reading of the whole content spares check_syntax_later() a pass", "[shown_text]") {
    auto file_showing = [](const std::string& content) {
        const Objects objs = {
            {1, "<< /Type /Catalog /Pages 2 0 R >>"},
            {2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"},
            {3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R /Resources << /Font << " + kHelvetica +
                    " >> >> >>"},
            {4, stream("", content)},
        };
        return pith::pdf::File::from_bytes(pdftest::classic(objs));
    };
    const std::string broken = "BT /F1 12 Tf 72 700 Td (Shown) Tj ET [ /oops";
    // Checked at once, or later: the same defect, once.
    auto now = file_showing(broken);
    now.check_page(now.page(0));
    CHECK(now.defects() == std::vector<std::string>{"page 1: content syntax error (unclosed array)"});
    auto later = file_showing(broken);
    later.check_page(later.page(0), true);
    CHECK(later.defects().empty());
    REQUIRE(pith::pdf::shown_text(later, later.page(0), 1 << 20)->text == "Shown");
    CHECK(later.defects().empty());  // the text reading records no damage itself
    later.check_syntax_later();
    later.check_syntax_later();  // nothing left to check
    CHECK(later.defects() == std::vector<std::string>{"page 1: content syntax error (unclosed array)"});
    // What the text reading noted is what check_syntax_later() reports: it does not lex again.
    auto noted = file_showing("BT /F1 12 Tf 72 700 Td (Fine) Tj ET");
    noted.check_page(noted.page(0), true);
    (void)noted.page_content(noted.page(0));  // as the text reading decodes it before it notes
    noted.note_content_syntax(noted.page(0), "noted");
    noted.check_syntax_later();
    CHECK(noted.defects() == std::vector<std::string>{"page 1: content syntax error (noted)"});
    auto clean = file_showing("BT /F1 12 Tf 72 700 Td (Fine) Tj ET");
    clean.check_page(clean.page(0), true);
    clean.check_syntax_later();
    CHECK(clean.defects().empty());
}
