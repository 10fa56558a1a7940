// SPDX-License-Identifier: MIT
#pragma once
// Which words of a page a reader actually sees (doc/visible.md).
//
// Text extraction also returns text nobody sees (render mode 3 or 7, white on white, clipped,
// covered, transparent, off the page, microscopic). page_words() lays the page out with
// poppler's TextOutputDev and renders it twice with poppler's Splash (as a viewer shows it, and
// with every glyph left out): a word is visible when its box holds enough pixels that differ
// between the two renders, at a legible size, within the page.
#include "core/child.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::page::visible {

struct Word {
    std::string text;                       // UTF-8, as poppler's layout gives it
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // box in points on the page as displayed (CropBox, /Rotate applied), origin top-left
    double size = 0;                        // font size in points after all matrices
    bool line_end = false;                  // last word of its line in reading order
    bool visible = false;                   // its glyphs change what the page looks like, at a legible size
    std::string hidden_why;                 // when !visible: "not painted", "too small (0.1 pt)", "outside the page", ...
    int rotation = 0;                       // quarter turns of its baseline as displayed: 0 reads left to right
};

struct Page {
    double width = 0, height = 0;  // as displayed
    std::vector<Word> words;       // reading order
};

// Below this font size (points, after all matrices) a word is not legible.
inline constexpr double kMinSize = 3.0;
// A word is painted when at least this fraction of its box's pixels, and kMinInkPixels of
// them, change by a visible amount when its glyphs are drawn, and every character's box holds
// some such pixel (tuned on the corpus: doc/visible.md).
inline constexpr double kMinInk = 0.03;
inline constexpr double kMinInkPixels = 3;
// ... and at least this share of the pixels its glyphs cover when drawn alone changed: white
// glyphs that only scratch other text, or glyphs mostly covered, do not show the word.
inline constexpr double kMinShown = 0.5;
// How far a word's box may stick out of the page: font boxes reach below the baseline by the
// font's descent, so a line set on the bottom edge is still read.
inline constexpr double kEdgeSlack = 1.0;         // points
inline constexpr double kEdgeSlackOfSize = 0.3;   // of the font size
// Wall-clock limit for laying out and rendering one page; words of a page not rendered in
// time come out hidden ("page not rendered in time").
inline constexpr double kRenderSeconds = 12.0;

// Words of page `index` (0-based), judged by rendering. nullopt when poppler cannot open or
// unlock the file or the page does not exist. Throws pith::Error when pith-text.so cannot be
// loaded. Runs in the calling process (verify calls it in its child process).
std::optional<Page> page_words(std::string_view pdf, int index, const std::string& password = "");

// What the page paints, as displayed (CropBox, /Rotate), one cell per pixel, row 0 at the top.
struct InkMap {
    double width = 0, height = 0;  // pt
    int columns = 0, rows = 0;
    std::vector<unsigned char> ink;  // 255 - darkest channel
    // Share of the cells touching the box (pt, origin at the lower-left as displayed) that are inked.
    double inked(double x0, double y0, double x1, double y1) const;
};
inline constexpr int kInkLevel = 24;  // of 255 below white: fainter is paper

// What a page paints, for pith stamp's placement: the ink of one render at kGlanceDpi with the
// glyphs painted as their boxes (no font is rasterised). Never a reading of words: pith stamp's
// title check reads the page as verify does (page_words()).
struct Glance {
    Page page;  // empty: a glance lays out nothing
    InkMap ink;
};
inline constexpr double kGlanceDpi = 36;       // 2 pt a pixel: 8 pt type still leaves solid ink
inline constexpr double kGlanceSeconds = 2;    // wall-clock limit for the render

// The glance at page `index`, in the calling process; nullopt as for page_words(). Throws
// pith::Error when pith-text.so cannot be loaded.
std::optional<Glance> page_glance(std::string_view pdf, int index, const std::string& password = "");

// Loads pith-text.so and sets up poppler once (throws pith::Error when it cannot be loaded):
// `pith batch` calls it before starting its workers, so that neither they nor their children pay for it.
void preload();

// What poppler makes of one page, read in a child process with CPU, memory and time limits:
// poppler parses the whole file its own way, and a PDF that crashes or hangs it costs a finding,
// not the run. The child starts in the constructor and works while the caller does other
// checks; collect() waits for it. Where no child can be started, collect() reads in this process.
enum class Look {
    Rendered,  // page_words(): what stamp's and verify's title judgement and verify's checks read
    Ink,       // page_glance(): what pith stamp's placement avoids
};
struct Reading {
    std::optional<Page> page;   // nullopt: poppler cannot open the page
    std::optional<InkMap> ink;  // Look::Ink: what the page paints
    bool failed = false;        // poppler crashed, ran out of time or memory, or could not be loaded
    std::string why;            // when failed
};

class ChildReader {
public:
    ChildReader(std::string_view pdf, int index, const std::string& password, Look look = Look::Rendered);
    ChildReader(const ChildReader&) = delete;
    ChildReader& operator=(const ChildReader&) = delete;
    Reading collect();

private:
    Reading read_here() const;
    std::string in_child() const;  // the child's message
    std::string_view pdf_;
    int index_;
    std::string password_;
    Look look_;
    child::Child child_;  // not started where no child could be
};

// For the child's pipe: a lossless text encoding of Page and its inverse (nullopt on junk).
std::string encode(const Page& page);
std::optional<Page> decode(std::string_view bytes);

// The page's text from its visible words only (words joined by spaces, lines by '\n'), and
// from all words: what title matching reads.
std::string visible_text(const Page& page);
std::string all_text(const Page& page);
// The first few reasons why words of the page are hidden, joined for a message.
std::string hidden_reasons(const Page& page);

}  // namespace pith::page::visible

namespace pith::page::visible {

// For readings made in a child of their own (core/child's Child: pixels::Reader, verify's
// picture), with the same limits as a ChildReader's: in the child, loads pith-text.so and limits
// CPU time to `cpu_seconds` and the address space as for a reading.
void limit_reading_child(unsigned long cpu_seconds);

}  // namespace pith::page::visible
