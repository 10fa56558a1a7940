#pragma once
// Where the badge goes (issue 21): where page `index` paints nothing, so the badge never covers
// the paper. The page is rendered at low resolution by poppler (pith-text.so, in a child
// process); the candidates are the four corners at the configured margins, then positions
// along the top and bottom margins (doc/placement.md).
#include "stamp/stamp.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::stamp::placement {

inline constexpr double kDpi = 36;          // 2 pt a pixel: 8 pt type still leaves solid ink
inline constexpr int kInkLevel = 24;        // of 255 below white: fainter is paper
inline constexpr double kClearance = 2;     // pt kept free around the badge
inline constexpr double kStep = 6;          // pt between positions along a margin
inline constexpr double kRenderSeconds = 2; // wall-clock limit for the render (then: not measured)
inline constexpr double kWallSeconds = 5;   // for the whole child: then it is killed and the page not measured

// What the page paints, as displayed (CropBox, /Rotate), one cell per pixel, row 0 at the top.
struct InkMap {
    double width = 0, height = 0;  // pt
    int columns = 0, rows = 0;
    std::vector<unsigned char> ink;  // 255 - darkest channel
    // Share of the cells touching the box (pt, origin at the lower-left as displayed) that are inked.
    double inked(double x0, double y0, double x1, double y1) const;
};

// Loads pith-text.so and sets up poppler once (throws pith::Error when it cannot be loaded):
// `pith batch` calls it before starting its workers, so that no worker pays for it.
void* preload();

// Renders the page in a child process with CPU, memory and time limits. nullopt (and `why`)
// when pith-text.so cannot be loaded, poppler cannot open the page, crashes or runs out of time.
std::optional<InkMap> measure(std::string_view pdf, int index, const std::string& password, std::string& why);

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

std::string corner_name(Corner c);

}  // namespace pith::stamp::placement
