// SPDX-License-Identifier: MIT
#pragma once
// TeX's logos in a title, confirmed letter by letter (doc/visible.md "The title from pixels").
//
// A logo moves its letters off the baseline (LaTeX's raised small A, TeX's lowered E, XeTeX's
// mirrored E), and OCR of the line reads it as other letters ("ETRX", "LaTgX"). Any allowance for
// such a reading lets another word through ("TeX" drawn "Tax"), and leaving the logo to the text
// layer lets any glyphs through ("\LaTeX{}" drawn "Word"). So a logo is confirmed by its pixels
// only when they show exactly its letters: a reading of the whole word that gives it exactly, or
// each of its glyphs, drawn alone by poppler at a closer resolution, read alone (Tesseract's single-character
// mode) as its letter, up to case (TeX sets the A of LaTeX as a small capital), the mirrored E of
// XeTeX read mirrored back. pixels.cpp reads the glyphs (words of kPassLetters); judge() weighs
// them with logo_letters() (pixel_judgement.cpp's require_logo_letters()).
#include "page/pixels.hpp"
#include "page/visible.hpp"

#include <string>
#include <vector>

namespace pith::page::pixels {

// A logo as the text layer places it: words of the title glued on one line (TeX sets a logo's
// letters as pieces, "L" "A" "TEX", with no space between), whose letters hold "tex": TeX and
// every name built from it (LaTeX, LaTeX2e's LATEX, XeTeX, LuaTeX, BibTeX, pdfTeX, ConTeXt, and the
// words glued to them: "Non-TeX").
struct LogoRun {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // points: its words' boxes together
    double size = 0;                        // the largest of its words' font sizes
    std::u32string letters;                 // its characters but spaces, small (XeTeX's mirrored Ǝ as e)
    std::vector<bool> mirrored;             // per letter: drawn mirrored (read mirrored back)
    std::string text;                       // as the text layer gives it, for findings
};
std::vector<LogoRun> logo_runs(const std::vector<visible::Word>& words);

// Which of a logo's letters are the logo's own: those of its pieces between punctuation marks
// (and characters of scripts written without spaces: "LaTeX模板") that hold "tex" ("LaTeX" of
// "LaTeX-Beamer", "TeX" of "Non-TeX"); the text words glued to it are
// read as every word is (pixel_judgement.cpp: TitleWords::glued).
std::vector<bool> in_logo(const std::u32string& letters);
// What the glyphs of a logo read one by one (`read`: each glyph's reading, left to right) say of
// its `letters` (those in_logo()): each glyph its letter (tokens_of()'s folds: case, 0/o, 1/i/l; a punctuation
// mark's glyph no letter or digit), or not.
enum class Letters {
    Confirmed,  // as many glyphs as letters, each read as its letter
    Unread,     // no glyph read, or a count the letters do not have (touching glyphs, a dropped one)
    Other,      // as many glyphs as letters, and one reads another letter or digit
};
Letters logo_letters(const std::u32string& letters, const std::vector<std::string>& read);

// What the pixels `r` say of a logo: Confirmed where some reading of the title block (a pass
// that reads lines or words) gives its tokens exactly there, or where its glyphs read alone
// (kPassLetters) give its letters; else what the glyphs say (Unread where they were not read).
// `read`: the glyphs' readings, for the finding.
Letters logo_judgement(const LogoRun& run, const Reading& r, std::string* read = nullptr);

// A glyph of a logo drawn alone by poppler over a slice of the page (pith-text.so's glyph masks:
// the glyph's own outline, however the page draws over it or kerns its neighbours into it,
// which leaves no gap between a logo's letters to cut them apart by).
struct GlyphMask {
    std::string text;                       // its character, as the text layer gives it
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // points: the character's box
    Image ink;                              // the slice: black where the glyph covers, white elsewhere
};
// The glyph alone, black on white, cut to its ink with a margin of `margin` times its larger side.
inline constexpr double kGlyphMargin = 1.0 / 3, kWideGlyphMargin = 1.0;
Image glyph_image(const GlyphMask& g, double margin = kGlyphMargin);
Image mirrored(const Image& glyph);
// Whether `page` (the same slice as the page shows it) shows the glyph as its mask draws it: ink
// under nearly all of the glyph's (nothing covers it), and in the character's box hardly any ink
// that none of the logo's glyphs (`all`) draws (no stroke or picture makes it another letter).
// A glyph not shown as drawn is not read: it stays unread.
bool shown_as_drawn(const GlyphMask& g, const Image& page, const std::vector<GlyphMask>& all);

}  // namespace pith::page::pixels
