// SPDX-License-Identifier: MIT
#pragma once
// The visible Pith badge: one self-contained Form XObject.
//
// draw() describes the badge through an ObjectSink: a Form XObject
// (/Type/XObject/Subtype/Form, /BBox [0 0 width height]) whose /Resources hold
// everything it uses:
//   - a Type 3 font with only the glyphs of `label` (outlines from DejaVu Sans,
//     see badge_font_data.cpp), with /Widths, /Encoding /Differences and a
//     /ToUnicode CMap, so the label is real, extractable text and the font
//     counts as embedded (PDF/A);
//   - a CalRGB colour space (sRGB-like), which PDF/A accepts with or without
//     an output intent (device colour spaces would need one);
//   - optionally a QR code of `url` as filled vector rectangles with a white
//     4-module quiet zone (no images, no fonts).
// All streams are Flate-compressed. Same inputs give the same objects, in the
// same order, byte for byte.
//
// The caller places it with "q a b c d e f cm /Name Do Q" and adds the link
// annotation over [e, f, e+width_pt, f+height_pt] (rotated as needed).
#include <array>
#include <optional>
#include <string>

#include "pdf/object_sink.hpp"
#include "pdf/types.hpp"

namespace pith::badge {

// The styles, as `pith stamp --style` and `pith badge --style` take them.
inline constexpr const char* kStyles = "plain|boxed";

struct Options {
    bool qr = false;                 // add a QR code of `url` (left of the label)
    double qr_module_pt = 1.0;       // side of one QR module in pt (1 pt = 0.35 mm)
    double text_size_pt = 8;         // font size of the label
    std::string style = "plain";     // "plain" (text only) or "boxed" (thin rounded frame, white fill)
    std::array<double, 3> color{0.17, 0.24, 0.31};  // RGB 0..1 of text, frame and QR (dark blue-grey)
};

struct Badge {
    pdf::Ref xobject;      // the Form XObject
    double width_pt = 0;   // = BBox width (origin at 0,0)
    double height_pt = 0;  // = BBox height
};

// Throws pith::Error for a label outside printable ASCII (0x20-0x7E) or empty,
// an unknown style, out-of-range sizes/colours, or a URL that cannot be
// encoded as a QR code (too long, or empty while qr is set).
Badge draw(pith::pdf::ObjectSink& sink, const std::string& label, const std::string& url,
           const Options& options = {});

// The options as one line ("style=plain text=8 qr=0 module=1 color=0.17,0.24,0.31"), which
// pith stamp records (pith:badge) so that pith verify can draw the badge again and compare;
// and back (nullopt for anything else).
std::string describe(const Options& options);
std::optional<Options> options_from(const std::string& text);

}  // namespace pith::badge
