// SPDX-License-Identifier: MIT
// The drawing under `pith verify --picture` (src/verify/canvas.cpp, picture.cpp): the format a
// name asks for, the frames and the PNG, decoded here with zlib alone.
#include "core/error.hpp"
#include "verify/canvas.hpp"
#include "verify/picture.hpp"

#include <catch2/catch.hpp>
#include <zlib.h>

#include <cstdint>
#include <string>

using namespace pith;
using pith::verify::picture::Canvas;
using pith::verify::picture::Rgb;

namespace {

std::uint32_t be32(const std::string& s, std::size_t at) {
    return (std::uint32_t(std::uint8_t(s[at])) << 24) | (std::uint32_t(std::uint8_t(s[at + 1])) << 16) |
           (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint32_t(std::uint8_t(s[at + 3]));
}

// The filtered rows of a PNG's IDAT (each chunk's CRC checked on the way).
std::string idat_rows(const std::string& png, std::size_t expected) {
    REQUIRE(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    std::string idat;
    for (std::size_t at = 8; at < png.size();) {
        const std::uint32_t size = be32(png, at);
        const std::string type = png.substr(at + 4, 4);
        const auto crc = ::crc32(0, reinterpret_cast<const Bytef*>(png.data() + at + 4), size + 4);
        CHECK(crc == be32(png, at + 8 + size));
        if (type == "IDAT") idat += png.substr(at + 8, size);
        at += 12 + size;
    }
    std::string raw(expected, '\0');
    uLongf length = expected;
    REQUIRE(::uncompress(reinterpret_cast<Bytef*>(raw.data()), &length, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) == Z_OK);
    CHECK(length == expected);
    return raw;
}

}  // namespace

TEST_CASE("picture: the extension names the format, anything else is refused before any work") {
    CHECK(pith::verify::picture::format_of("out/checked.png") == pith::verify::picture::Format::Png);
    CHECK(pith::verify::picture::format_of("CHECKED.PNG") == pith::verify::picture::Format::Png);
    CHECK(pith::verify::picture::format_of("a.b/checked.html") == pith::verify::picture::Format::Html);
    CHECK(pith::verify::picture::format_of("checked.htm") == pith::verify::picture::Format::Html);
    for (const char* bad : {"checked.gif", "checked", "dir.png/checked", "checked.svg"}) {
        INFO(bad);
        CHECK_THROWS_AS(pith::verify::picture::format_of(bad), Error);
    }
}

TEST_CASE("picture: a frame lies just outside its box, dashed frames leave gaps, and the PNG holds the pixels") {
    Canvas c(40, 30, Rgb{255, 255, 255});
    c.frame(10, 10, 30, 20, 2, pith::verify::picture::Line::Solid, Rgb{1, 2, 3});
    c.frame(10, 10, 30, 20, 2, pith::verify::picture::Line::Dashed, Rgb{9, 9, 9});  // over the same box: its dashes cover the solid one in part
    const std::string raw = idat_rows(c.png("a test"), 30 * (1 + 40 * 3));
    // Unfilter (none, Sub or Up: what the encoder uses) into RGB rows.
    std::string rows(30 * 40 * 3, '\0');
    for (int y = 0; y < 30; ++y) {
        const int filter = raw[y * 121];
        REQUIRE(filter <= 2);
        for (int i = 0; i < 120; ++i) {
            const auto v = std::uint8_t(raw[y * 121 + 1 + i]);
            const std::uint8_t left = i >= 3 ? std::uint8_t(rows[y * 120 + i - 3]) : 0, up = y ? std::uint8_t(rows[(y - 1) * 120 + i]) : 0;
            rows[y * 120 + i] = char(std::uint8_t(v + (filter == 1 ? left : filter == 2 ? up : 0)));
        }
    }
    auto at = [&](int x, int y) { return Rgb{std::uint8_t(rows[(y * 40 + x) * 3]), std::uint8_t(rows[(y * 40 + x) * 3 + 1]), std::uint8_t(rows[(y * 40 + x) * 3 + 2])}; };
    auto white = [&](int x, int y) { return at(x, y).r == 255 && at(x, y).g == 255; };
    CHECK(white(15, 15));  // inside the box: nothing drawn
    CHECK(white(10, 10));  // the box's own corner pixel is inside it
    CHECK(!white(9, 15));  // the frame, just left of the box
    CHECK(!white(8, 15));
    CHECK(white(7, 15));   // 2 px wide
    int dashes = 0, gaps = 0;
    for (int x = 10; x < 30; ++x) {
        if (at(x, 9).r == 9) ++dashes;
        else if (at(x, 9).r == 1) ++gaps;  // the gaps of the dashes show the solid frame under them
    }
    CHECK(dashes >= 10);
    CHECK(gaps >= 4);
    CHECK(dashes + gaps == 20);
}

TEST_CASE("picture: text is drawn as ASCII, one '?' for each character beyond it") {
    CHECK(pith::verify::picture::ascii("pith:YRUNQITD") == "pith:YRUNQITD");
    CHECK(pith::verify::picture::ascii("Caf\xc3\xa9 \xe2\x80\x94 ok") == "Caf? ? ok");
    CHECK(pith::verify::picture::ascii("tab\there") == "tab?here");
    Canvas c(100, 20, Rgb{255, 255, 255});
    CHECK(c.text(2, 2, "ab\xc3\xa9", Rgb{0, 0, 0}) == 2 + 3 * pith::verify::picture::kGlyphWidth);
}
