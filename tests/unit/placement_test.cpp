// SPDX-License-Identifier: MIT
// The choice of the badge's spot (src/stamp/placement.hpp) on hand-made ink maps: which
// candidate wins, in which order, and what an inked cell under the badge does.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>

#include "stamp/placement.hpp"

using namespace pith::stamp;
using namespace pith::stamp::placement;

namespace {

// A W x H pt page, one cell per 2 pt, with the given rectangles (pt, origin lower-left) inked.
InkMap page(double w, double h, std::initializer_list<std::array<double, 4>> inked) {
    InkMap m;
    m.width = w, m.height = h, m.columns = static_cast<int>(w / 2), m.rows = static_cast<int>(h / 2);
    m.ink.assign(static_cast<std::size_t>(m.columns) * m.rows, 0);
    for (const auto& r : inked)
        for (int row = 0; row < m.rows; ++row)
            for (int col = 0; col < m.columns; ++col) {
                const double x = col * 2 + 1, y = h - (row * 2 + 1);  // cell centre
                if (x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3]) m.ink[static_cast<std::size_t>(row) * m.columns + col] = 255;
            }
    return m;
}

}  // namespace

TEST_CASE("placement: a blank page keeps the preferred corner", "[placement]") {
    const InkMap m = page(600, 800, {});
    const Choice c = choose(m, 60, 12, 18, 18, Corner::TopRight);
    CHECK(c.free);
    CHECK(c.spot.where == "top-right corner");
    CHECK(c.spot.x == Approx(600 - 18 - 60));
    CHECK(c.spot.y == Approx(800 - 18 - 12));
    CHECK(choose(m, 60, 12, 18, 18, Corner::BottomLeft).spot.where == "bottom-left corner");
}

TEST_CASE("placement: corners in order, then the margins", "[placement]") {
    // Top-right inked: the other top corner; both top corners: the bottom ones, right first.
    CHECK(choose(page(600, 800, {{500, 740, 600, 800}}), 60, 12, 18, 18, Corner::TopRight).spot.where == "top-left corner");
    CHECK(choose(page(600, 800, {{0, 740, 600, 800}}), 60, 12, 18, 18, Corner::TopRight).spot.where == "bottom-right corner");
    // Every corner inked, the middle of the top margin free: the top margin, nearest the right.
    const InkMap m = page(600, 800, {{0, 740, 150, 800}, {450, 740, 600, 800}, {0, 0, 150, 60}, {450, 0, 600, 60}});
    const Choice c = choose(m, 60, 12, 18, 18, Corner::TopRight);
    CHECK(c.free);
    CHECK(c.spot.where == "top margin");
    CHECK(c.spot.x - kClearance >= 150);
    CHECK(c.spot.x + 60 + kClearance <= 450);
    CHECK(c.spot.x + 60 + kClearance > 450 - kStep);  // the first free one from the right
    CHECK(m.inked(c.spot.x - kClearance, c.spot.y - kClearance, c.spot.x + 60 + kClearance, c.spot.y + 12 + kClearance) == 0);
}

TEST_CASE("placement: no free spot gives the least inked candidate", "[placement]") {
    // All inked but a patch of the bottom margin that is too small for the badge.
    const InkMap m = page(600, 800, {{0, 0, 600, 800}});
    const Choice c = choose(m, 60, 12, 18, 18, Corner::TopRight);
    CHECK_FALSE(c.free);
    CHECK(c.inked == Approx(1));
    CHECK(c.why.find("no free spot") != std::string::npos);
    const InkMap partly = page(600, 800, {{0, 0, 600, 800}});
    InkMap holed = partly;
    for (int row = 0; row < holed.rows; ++row)  // clear a 40 pt strip at the bottom
        for (int col = 0; col < holed.columns; ++col)
            if (row >= holed.rows - 20) holed.ink[static_cast<std::size_t>(row) * holed.columns + col] = 0;
    const Choice d = choose(holed, 60, 12, 18, 18, Corner::TopRight);
    CHECK(d.free);  // 18..30 pt plus clearance lies in the cleared 40 pt
    CHECK(d.spot.where == "bottom-right corner");
}

TEST_CASE("placement: faint ink is paper", "[placement]") {
    InkMap m = page(600, 800, {});
    std::fill(m.ink.begin(), m.ink.end(), static_cast<unsigned char>(kInkLevel - 1));
    CHECK(choose(m, 60, 12, 18, 18, Corner::TopRight).free);
    std::fill(m.ink.begin(), m.ink.end(), static_cast<unsigned char>(kInkLevel));
    CHECK_FALSE(choose(m, 60, 12, 18, 18, Corner::TopRight).free);
}
