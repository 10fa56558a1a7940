// SPDX-License-Identifier: MIT
#pragma once
// The closed list: what a page may draw with for pith to say that every common viewer shows it
// alike. Attack rounds kept finding constructs that one renderer draws and another does not
// (transfer functions, halftones, overprint, compatibility sections, PostScript XObjects, a
// user unit); a list of refusals never ends, so this is a list of what is accepted, in the
// manner of PDF/A-2b's restrictions and pyHanko's whitelist rules. Anything a page draws that is
// not on it is named, and the file is not trusted (stamp refuses it the same way).
//
// The list covers the content that draws the page and everything it reaches: content operators,
// graphics-state entries, colour spaces, shadings, patterns, XObjects, fonts (and the glyph
// procedures of Type 3 fonts), the page's geometry (boxes, /Rotate, /UserUnit), and the annotations on
// the page (their types, actions and the appearances they draw), and what the document does
// when opened (unlisted_behaviour()). doc/trust.md lists it; the renderer
// differential (tests/differential/renderers.py) is the test that keeps it honest.
#include "page/title.hpp"
#include "pdf/file.hpp"

#include <set>
#include <string>
#include <vector>

namespace pith::drawing {

// A rectangle on a page, in the page's default user space, that a reader must see as pith judged
// it: the title, the badge.
struct Area {
    int page = 0;  // 0-based
    pdf::Rect rect;
    std::string what;  // "the badge", "the title"
};

// What `page` (0-based) draws with that the closed list does not hold, each named once
// ("content operator BX", "graphics state /TR", "XObject /Subtype /PS"); empty when everything
// is listed. Throws pdf::TooLarge past the file's budget.
// The box around words first..last of a page pith read (a span of page::visible::Page::words), in the
// page's default user space.
using Span = std::pair<std::size_t, std::size_t>;  // first and last word
pdf::Rect words_area(const std::vector<page::visible::Word>& words, Span span, const pdf::Page& geometry);
// Where the title block's page shows the record's title (stamp and verify keep it clear); the
// page's crop box when the text layer does not place it.
Area title_area(const page::title::TitleBlock& block, pdf::File& file);

// `keep_clear`: the areas an annotation may change the look of only by what every viewer shows
// at once (its normal appearance); a rollover or pressed appearance elsewhere is listed.
std::vector<std::string> unlisted_constructs(pdf::File& file, int page, const std::vector<Area>& keep_clear = {});

// What the document does when opened that the closed list does not hold: an open action other
// than going to a place, actions on events, document-level JavaScript, a portable collection,
// an XFA form. Empty when it only shows its pages.
std::vector<std::string> unlisted_behaviour(pdf::File& file);

// The same for the document and each of `pages` (0-based; those past the file's end are passed over), said as
// stamp's refusal and verify's finding both say it: "page 2 draws with what pith's closed list
// lacks: graphics state /TR". Empty when everything is listed.
std::string unlisted_on(pdf::File& file, const std::set<int>& pages, const std::vector<Area>& keep_clear = {});

}  // namespace pith::drawing
