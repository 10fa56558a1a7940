// SPDX-License-Identifier: MIT
#include "core/reply.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

using pith::reply::put_number;
using pith::reply::Reply;

TEST_CASE("reply: numbers go through the pipe exactly", "[reply]") {
    std::string out = "pith-test 1 ";
    const double values[] = {0.0, -0.0, 0.1, 1.0 / 3.0, -612.25, 1e-300, 1.7976931348623157e308};
    for (double v : values) put_number(out, v);
    put_number(out, 3, '\n');
    out += "abc";
    Reply in(out);
    REQUIRE(in.literal("pith-test 1 "));
    for (double v : values) {
        const auto got = in.number();
        REQUIRE(got);
        CHECK(*got == v);
        CHECK(std::signbit(*got) == std::signbit(v));
    }
    CHECK(in.count('\n') == std::optional<std::size_t>(3));
    CHECK(in.bytes(3) == std::optional<std::string>("abc"));
    CHECK(in.done());
}

TEST_CASE("reply: what a child could be made to write is refused", "[reply]") {
    std::string inf, nan;
    put_number(inf, std::numeric_limits<double>::infinity());
    put_number(nan, std::nan(""));
    CHECK_FALSE(Reply(inf).number());
    CHECK_FALSE(Reply(nan).number());
    CHECK_FALSE(Reply("1e999 ").number());             // out of range
    CHECK_FALSE(Reply("12x ").number());               // not all of the token is a number
    CHECK_FALSE(Reply(" 1 ").number());                // an empty token
    CHECK_FALSE(Reply("1").number());                  // no end: the reply was cut short
    CHECK_FALSE(Reply(std::string(41, '1') + " ").number());  // longer than any number pith writes
    CHECK_FALSE(Reply("-1 ").count());
    CHECK_FALSE(Reply("1.5 ").count());
    CHECK_FALSE(Reply("4 abc").count());               // more than the bytes left after it
    CHECK(Reply("3 abc").count() == std::optional<std::size_t>(3));
    CHECK_FALSE(Reply("2 ").flag());
    CHECK(Reply("1 ").flag() == std::optional<bool>(true));
    Reply short_reply("ab");
    CHECK_FALSE(short_reply.bytes(3));
    CHECK(short_reply.bytes(2) == std::optional<std::string>("ab"));
    Reply other("pith-other 1 ");
    CHECK_FALSE(other.literal("pith-test 1 "));
    CHECK_FALSE(other.done());  // a refused literal consumes nothing
}
