// SPDX-License-Identifier: MIT
#pragma once
// Where the badge goes: where page `index` paints nothing, so the badge never covers
// the paper. The page is rendered at low resolution by poppler (page::visible::page_glance(), in a
// child process); the candidates are the four corners at the configured margins, then positions
// along the top and bottom margins (doc/placement.md).
#include "page/visible.hpp"
#include "stamp/stamp.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::stamp::placement {

inline constexpr double kClearance = 2;     // pt kept free around the badge
inline constexpr double kStep = 6;          // pt between positions along a margin

// What the page paints: read by poppler in a child process (page::visible::ChildReader, Look::Ink).
using InkMap = page::visible::InkMap;
using page::visible::kInkLevel;

// A position for a w x h badge: lower-left in pt from the visible lower-left.
struct Spot {
    double x = 0, y = 0;
    std::string where;  // "top-right corner", "top margin", ...
};

// The candidates in order of preference: `preferred` corner, the other corner on its edge,
// the corners of the opposite edge, then along the preferred corner's edge from that corner
// inwards, then along the other edge.
std::vector<Spot> candidates(double view_w, double view_h, double w, double h, double margin_x, double margin_y,
                             Corner preferred);

struct Choice {
    Spot spot;
    double inked = 0;   // of the badge's rectangle, with kClearance around it
    bool free = false;  // nothing painted there
    std::string why;
};

// The first free candidate, or the least inked one (free == false).
Choice choose(const InkMap& map, double w, double h, double margin_x, double margin_y, Corner preferred);

// The badge's rectangle as `Choice::inked` measures it.
double inked_around(const InkMap& map, const Spot& spot, double w, double h);

}  // namespace pith::stamp::placement
