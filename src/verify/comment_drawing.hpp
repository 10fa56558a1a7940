// SPDX-License-Identifier: MIT
#pragma once
// What a comment added after the stamp draws, against what a viewer draws from the comment's
// own data. A comment is allowed after the stamp only when its appearance
// is that drawing: poppler redraws a highlight from its quad points where MuPDF and
// Ghostscript draw its appearance, so an appearance that is anything else shows one thing in
// one viewer and another in the next. The rules are a closed list (doc/trust.md, "After the
// stamp"):
//  - the appearance uses only path, colour and graphics-state operators (no text, image,
//    shading, pattern, form or clip), read here into the paths it paints, in page space; its
//    graphics states set only line style, alpha, blend mode and overprint (no soft mask);
//  - Highlight: one filled convex box per quad (rounded ends allowed), covering its quad;
//    Underline, StrikeOut, Squiggly: thin lines along a quad, across most of its length;
//  - Ink: strokes only, each point on the ink list (within the stroke width and a tolerance);
//    and each stroke of the ink list is a mark (a straight line or a closed loop) standing apart
//    from every other stroke on the page: letters are strokes that bend open or join;
//  - Text (a sticky note): an icon, at most kIconSize points each way;
//  - Popup: paints nothing (viewers draw the pop-up window themselves).
// Each rule returns "" when the comment is on the list, else why not (for the finding).
#include "pdf/file.hpp"

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pith::verify::comments {

struct Point {
    double x = 0, y = 0;
};
using Polyline = std::vector<Point>;
using Matrix = std::array<double, 6>;  // a b c d e f, as PDF writes it
inline constexpr Matrix kIdentity = {1, 0, 0, 1, 0, 0};

// The largest sticky-note icon, each way, in points (MuPDF writes 18, Acrobat about 20 to 24).
inline constexpr double kIconSize = 32;

// One subpath an appearance paints, in page space.
struct Painted {
    Polyline points;  // its points in order, curve control points included (they bound the curve)
    bool stroked = false, filled = false;
    double width = 0;  // the stroke's width in page space
    int segments = 0;  // lines and curves
};

// What an appearance draws; `refused` names the first thing off the list ("" when none).
struct Drawing {
    std::vector<Painted> paths;
    std::string refused;
};

// Where an appearance's form space lands on the page (ISO 32000-1, 12.5.5): its /Matrix, then
// the transformed /BBox fitted onto the annotation's /Rect. False when the box is empty.
bool appearance_to_page(const pdf::Rect& bbox, const Matrix& form, const pdf::Rect& rect, Matrix& out);
// The box `bbox` covers once transformed by `m`.
pdf::Rect transformed_box(const pdf::Rect& bbox, const Matrix& m);

// Reads an appearance stream's content into the paths it paints (`to_page`: appearance_to_page()).
Drawing read_drawing(std::string_view content, const Matrix& to_page);

// Highlight, Underline, StrikeOut or Squiggly (`subtype`) against its /QuadPoints (8 numbers a quad).
std::string markup_rule(const std::string& subtype, const Drawing& drawing, const std::vector<double>& quads);
// Ink: the appearance strokes the ink list at `width` (its /BS /W).
std::string ink_appearance_rule(const Drawing& drawing, const std::vector<Polyline>& ink, double width);
// Ink: each stroke of the ink list is a mark, apart from the others and from `earlier` (the
// strokes of the Ink comments already judged on the same page, each with its width).
struct Stroke {
    Polyline points;
    double width = 1;
};
std::string ink_marks_rule(const std::vector<Polyline>& ink, double width, const std::vector<Stroke>& earlier);
// Text (sticky note): its /Rect and its appearance's box (`form_box`: /BBox through /Matrix).
std::string note_rule(const pdf::Rect& rect, const pdf::Rect* form_box);
// Any comment: the entries of a graphics state its appearance names (/ExtGState), each as (key,
// the name it holds or "" for another value): what is off the list ("a graphics state that sets
// /SMask"), or "".
std::string ext_gstate_rule(const std::vector<std::pair<std::string, std::string>>& entries);
// Popup: its appearance paints nothing.
std::string popup_rule(const Drawing& drawing);

}  // namespace pith::verify::comments
