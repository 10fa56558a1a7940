#pragma once
// pith::pdf::shown_text - the text a page shows, read quickly from its content and fonts.
//
// Made for finding a known string (a title, a badge's number) without a full text extractor:
// strings are read in content order (Form XObjects included) through each font's ToUnicode
// map, else its encoding (WinAnsi, MacRoman, Standard, /Differences glyph names, an embedded
// Type 1 font's own encoding). A code none of these maps, and text drawn outside the page,
// becomes U+FFFD. Breaks are written only where the content shows them: a space character,
// a TJ gap of a quarter em or more, text on another baseline ("\n"). Words may therefore run
// together, but a break is never invented: a string found here at word boundaries is on the
// page; one not found may still be there (a full extractor, poppler, decides that).
#include "pdf/file.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace pith::pdf {

// Where the text of one string-showing operator (Tj, TJ, ', ") starts, on the page and in the text.
struct TextRun {
    std::size_t offset;  // in ShownText::text
    double x, y;         // its origin on the page (default user space)
    double dx, dy;       // the direction it is written in (a unit vector)
    double size;         // its font size on the page
    bool line_start;     // the first run of a line of the text
};

struct ShownText {
    std::string text;  // UTF-8, at most the `max_bytes` asked for (cut at a character boundary)
    std::vector<TextRun> runs;  // where the text's strings start, within it (at most one per byte)
    // The syntax error that ended the page's content early ("unclosed array"), or "".
    std::string broken_by;
    // That error is a string, array or dictionary left open: nothing after its start is drawn
    // by any reader, so the text is all the page shows (fonts permitting).
    bool cut_short = false;
};

// nullopt when the page's content is larger than kMaxTokenizedContent; content syntax that
// breaks off ends the text there. Form XObjects are read while their content, with the page's,
// stays within kMaxTokenizedContent (one left unread shows as U+FFFD). Damage met on the way
// (a font stream's wrong /Length) is worked around and not added to file.defects(): check_page
// decides what damage counts.
std::optional<ShownText> shown_text(File& file, const Page& page, std::size_t max_bytes);

// `shown` (the page's text by shown_text) with the text of the appearances of the page's
// annotations that viewers show (form fields, signature fields, stamps; not hidden ones, nor
// those under optional content), read as shown_text reads the content. A line of an appearance
// that shares a baseline with a line of the content is put into that line by its position (a
// form's label and its field's value read as one line, as viewers show them); the others follow
// on lines of their own. Most pages show what is looked for in their content: so a call of its own.
std::string with_annotations(File& file, const Page& page, const ShownText& shown, std::size_t max_bytes);

}  // namespace pith::pdf
