// SPDX-License-Identifier: MIT
#include "stamp/placement.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pith::stamp::placement {

std::vector<Spot> candidates(double view_w, double view_h, double w, double h, double margin_x, double margin_y,
                             Corner preferred) {
    const bool left = preferred == Corner::TopLeft || preferred == Corner::BottomLeft;
    const bool top = preferred == Corner::TopLeft || preferred == Corner::TopRight;
    const double x_left = margin_x, x_right = view_w - margin_x - w;
    const double y_top = view_h - margin_y - h, y_bottom = margin_y;
    auto corner = [&](bool l, bool t) {
        const Corner c = l ? (t ? Corner::TopLeft : Corner::BottomLeft) : (t ? Corner::TopRight : Corner::BottomRight);
        return Spot{l ? x_left : x_right, t ? y_top : y_bottom, corner_name(c) + " corner"};
    };
    std::vector<Spot> out = {corner(left, top), corner(!left, top), corner(left, !top), corner(!left, !top)};
    for (bool t : {top, !top}) {
        // From the preferred side inwards; the corners themselves are already listed.
        const int steps = static_cast<int>(std::floor((x_right - x_left) / kStep));
        for (int i = 1; i < steps; ++i) {
            const double x = left ? x_left + i * kStep : x_right - i * kStep;
            out.push_back({x, t ? y_top : y_bottom, t ? "top margin" : "bottom margin"});
        }
    }
    return out;
}

double inked_around(const InkMap& map, const Spot& spot, double w, double h) {
    return map.inked(spot.x - kClearance, spot.y - kClearance, spot.x + w + kClearance, spot.y + h + kClearance);
}

Choice choose(const InkMap& map, double w, double h, double margin_x, double margin_y, Corner preferred) {
    const std::vector<Spot> spots = candidates(map.width, map.height, w, h, margin_x, margin_y, preferred);
    Choice best;
    best.inked = 2;
    for (std::size_t i = 0; i < spots.size(); ++i) {
        const double inked = inked_around(map, spots[i], w, h);
        if (inked == 0) {
            best = {spots[i], 0, true, ""};
            best.why = i == 0 ? "the page paints nothing there"
                              : "the page paints nothing there; " + std::to_string(i) + " closer position" +
                                    (i == 1 ? " was" : "s were") + " taken by the page's content";
            return best;
        }
        if (inked < best.inked) best = {spots[i], inked, false, ""};
    }
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "no free spot at any of %zu positions (corners, top and bottom margins): drawn boxed on an opaque "
                  "background where the page paints least (%.0f%% of it)",
                  spots.size(), 100 * best.inked);
    best.why = buf;
    return best;
}

}  // namespace pith::stamp::placement
