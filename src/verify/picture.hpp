// SPDX-License-Identifier: MIT
#pragma once
// `pith verify --picture` and `pith batch --gallery`: what the checks looked at,
// drawn over the pages they read. Only the report's regions are drawn (Findings::regions, made
// by the checks themselves): nothing here reads the page again to guess them. The one new
// reading is a render of each page shown, at screen resolution, in a child process with the
// limits of every other poppler reading (doc/limits.md).
#include "verify/verify.hpp"

#include <string>

namespace pith::pdf {
class File;
}

namespace pith::verify::picture {

enum class Format { Png, Html };
// The format `path` names by its extension (.png; .html or .htm), case-insensitive. Throws
// pith::Error (options.invalid) for any other, before any work is done.
Format format_of(const std::string& path);

inline constexpr double kDpi = 96;           // --picture: screen resolution
inline constexpr double kThumbnailDpi = 24;  // the gallery's thumbnails: about 200 px wide for A4

// Outline styles, so that colour is never the only cue: ok solid 2 px, info dashed 2 px,
// fail solid 4 px; every label starts with the outcome in words (OK, NOTE, FAIL). The
// colours (RGB) are the tests' too (tests/verify/picture_test.py).
inline constexpr unsigned char kOkColour[3] = {26, 127, 55};
inline constexpr unsigned char kInfoColour[3] = {9, 105, 218};
inline constexpr unsigned char kFailColour[3] = {207, 34, 46};

// The picture of `report` (made of `file`): the pages its regions are on (page 1 when none)
// rendered as a viewer shows them, every region outlined and labelled, the verdict and the
// findings beside. PNG bytes, or an HTML page (the render embedded as PNG, the regions and
// findings as text). A page poppler cannot render is shown as a blank of its size, and the
// picture says so. Throws pith::Error when pith-text.so cannot be loaded.
std::string draw(pdf::File& file, const std::string& password, const verify::Report& report, Format format);

// The gallery's thumbnail: page 1 at kThumbnailDpi with its regions outlined (no labels), as
// PNG bytes; "" when page 1 cannot be rendered.
std::string thumbnail(pdf::File& file, const std::string& password, const verify::Report& report);

// What the picture shows, in words: its alternative text (HTML alt, the PNG's iTXt Description).
std::string describe(const verify::Report& report);

// `s` as HTML text or an attribute value: & < > " escaped.
std::string html_escaped(const std::string& s);

}  // namespace pith::verify::picture
