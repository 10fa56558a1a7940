// SPDX-License-Identifier: MIT
// pith::pdf::Lexer's literal strings (PDF 32000-1 7.3.4.2), which PoDoFo 0.9.8 read otherwise,
// and the end of a value met at the end of the input (issue 15).
#include "pdf/syntax.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace {

// The bytes of the string value at the start of `text`, and where the lexer stopped.
std::pair<std::string, std::uint64_t> read_string(const std::string& text) {
    PoDoFo::PdfVariant v;
    pith::pdf::Lexer lexer(text.data(), text.size());
    lexer.read(v);
    const PoDoFo::PdfString& s = v.GetString();
    return {std::string(s.GetString(), static_cast<std::size_t>(s.GetLength())), lexer.tell()};
}

std::string bytes_of(const std::string& text) { return read_string(text).first; }

}  // namespace

TEST_CASE("literal strings: escapes as PDF 32000-1 7.3.4.2 says", "[pdf][lexer]") {
    CHECK(bytes_of("(v\\quantum)") == "vquantum");  // unknown escape: only the backslash goes
    CHECK(bytes_of("(\\8\\9\\ \\%)") == "89 %");
    CHECK(bytes_of("(\\n\\r\\t\\b\\f\\(\\)\\\\)") == "\n\r\t\b\f()\\");
    CHECK(bytes_of("(\\101\\7x\\53\\0601\\777)") == std::string("A\x07x+01\xff"));  // 1-3 digits, overflow ignored
    CHECK(bytes_of(std::string("(\\0)", 4)) == std::string(1, '\0'));
    CHECK(bytes_of("(a\\\nb\\\rc\\\r\nd)") == "abcd");  // line continuations
    CHECK(bytes_of("(a\nb\rc\r\nd\n\re)") == "a\nb\nc\nd\n\ne");  // an end of line is one LF
    CHECK(bytes_of("(a(b(c)\\))d)") == "a(b(c)))d");  // balanced parentheses need no escape
}

TEST_CASE("literal strings: UTF-16BE and bytes >= 0x80 are written back as read", "[pdf][lexer]") {
    // PoDoFo keeps a string with a BOM as UTF-16 (GetString() leaves the BOM out): what counts is
    // what an update writes.
    const std::string text("(\xfe\xff\x00" "A\x00\\)\x80\xff)", 11);
    PoDoFo::PdfVariant v;
    pith::pdf::Lexer lexer(text.data(), text.size());
    lexer.read(v);
    std::string written;
    v.ToString(written);
    CHECK(written == text);
}

TEST_CASE("literal strings: where reading stops", "[pdf][lexer]") {
    CHECK(read_string("(ab) 1").second == 4);
    CHECK(read_string("(a(b)c) /N").second == 7);
    CHECK(read_string("(abc").first == "abc");  // unterminated: to the end, as PoDoFo read it
    CHECK(read_string("(abc\\").first == "abc");
    CHECK(read_string("(").first.empty());
}

TEST_CASE("a hex string opening at the very end reads nothing before it", "[pdf][lexer]") {
    // fuzz_object_lexer's finding: tell() answered 0 after a look past the end, so the hex
    // string was read from the input's first byte ("118" -> 0x11 0x80).
    const std::string text = "%[1  1 \xb0(s\\))) < 8[ \r\r\r\r\r<";
    PoDoFo::PdfVariant v;
    pith::pdf::Lexer lexer(text.data(), text.size());
    lexer.read(v);
    REQUIRE(v.IsHexString());
    CHECK(v.GetString().GetLength() == 0);
    CHECK(lexer.tell() == text.size());
}
