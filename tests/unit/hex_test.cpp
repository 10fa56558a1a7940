// SPDX-License-Identifier: MIT
#include "core/crypto.hpp"
#include "core/hex.hpp"

#include <catch2/catch.hpp>

#include <cctype>
#include <string>

using pith::decode_hex;
using pith::NonHex;

TEST_CASE("hex_digit: both cases, nothing else", "[hex]") {
    CHECK(pith::hex_digit('0') == 0);
    CHECK(pith::hex_digit('9') == 9);
    CHECK(pith::hex_digit('a') == 10);
    CHECK(pith::hex_digit('F') == 15);
    for (char c : std::string("gG/:@`  \n>#"))
        CHECK(pith::hex_digit(c) == -1);
}

TEST_CASE("decode_hex: digits to bytes, odd last digit followed by 0", "[hex]") {
    std::string out = "old";
    CHECK(decode_hex("00ff7F", out, NonHex::Reject));
    CHECK(out == std::string("\x00\xff\x7f", 3));
    CHECK(decode_hex("abc", out, NonHex::Reject));
    CHECK(out == "\xab\xc0");
    CHECK(decode_hex("", out, NonHex::Reject));
    CHECK(out.empty());
}

TEST_CASE("decode_hex: what it does with other characters", "[hex]") {
    std::string out;
    // Content streams: anything else is skipped.
    CHECK(decode_hex("4 1\n4z2", out, NonHex::Skip));
    CHECK(out == "AB");
    // ASCIIHexDecode: PDF white space is skipped, anything else rejected.
    CHECK(decode_hex("41 42\r\n\t\f", out, NonHex::SkipSpace));
    CHECK(out == "AB");
    CHECK(decode_hex(std::string("41\0" "42", 5), out, NonHex::SkipSpace));
    CHECK(out == "AB");
    CHECK_FALSE(decode_hex("41 4z", out, NonHex::SkipSpace));
    CHECK(out == "A");
    // A signature's /Contents: all rejected, white space too.
    CHECK_FALSE(decode_hex("41 42", out, NonHex::Reject));
    CHECK(out == "A");
}

TEST_CASE("sha256_from_hex: exactly 64 hex digits", "[hex]") {
    const std::string h = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    auto d = pith::sha256_from_hex(h);
    REQUIRE(d);
    CHECK(pith::to_hex(*d) == h);
    std::string upper = h;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK(pith::sha256_from_hex(upper) == d);
    CHECK_FALSE(pith::sha256_from_hex(h.substr(0, 63)));
    CHECK_FALSE(pith::sha256_from_hex(h + "0"));
    CHECK_FALSE(pith::sha256_from_hex(h.substr(0, 62) + "g0"));
    CHECK_FALSE(pith::sha256_from_hex(h.substr(0, 62) + " 0"));
}
