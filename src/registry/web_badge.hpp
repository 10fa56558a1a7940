// SPDX-License-Identifier: MIT
#pragma once
// The Pith badge for web pages and READMEs: the same label, glyph outlines (DejaVu Sans, from
// src/badge/badge_font_data.cpp), colour, styles and optional QR code as the badge pith stamp
// draws in PDFs, as a self-contained SVG (paths only: no fonts, no scripts, no external
// references), wrapped in a link to the registry's page for the number.
#include "badge/badge.hpp"
#include "core/number.hpp"

#include <string>

namespace pith::registry {

struct WebBadge {
    std::string svg;      // a standalone SVG document
    double width = 0, height = 0;  // CSS px
    std::string link;     // the registry page the badge links to
    std::string label;    // pith:XXXXXXXX
};

// `number` must be full (the link names the whole BODY). `resolver` is the page prefix
// (https://pith.science/pith/). Throws pith::Error for options badge::draw would refuse.
WebBadge web_badge(const PithNumber& number, const std::string& resolver, const badge::Options& options);

// <a href=LINK><svg …></a>, for pasting into a page.
std::string badge_html(const WebBadge& badge);
// [![pith:XXXXXXXX](IMAGE)](LINK): IMAGE is where the SVG is published.
std::string badge_markdown(const WebBadge& badge, const std::string& image_url);

// PNG through MuPDF's `mutool draw` (mupdf-tools), which renders SVG: pith carries no raster
// code of its own. mutool reads SVG units as points (1/72 in). Throws pith::Error when mutool is missing or fails.
std::string svg_to_png(const std::string& svg, double scale);  // `scale` pixels per CSS px

}  // namespace pith::registry
