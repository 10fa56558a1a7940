// SPDX-License-Identifier: MIT
#pragma once
// What viewers read differently: pith judges what poppler shows, and a reader may
// open the file in MuPDF, Acrobat, PDFium or pdf.js. Where the specification leaves the reading
// to the viewer, or a malformed value is read one way by one and another way by the next, the
// page pith read is not the page every reader sees:
//  - optional content on the pages checked whose state depends on the viewer (/Usage states and
//    /AS auto-states, an /Intent other than View, alternate /Configs, an OCMD's /VE, a group
//    /OCProperties does not list): pith.optional_content.ambiguous (unverified: nothing is
//    proved forged, but what a reader sees is not known);
//  - malformed annotation fields on those pages (/Rect not four numbers, /F not an integer,
//    /Border or /BS malformed, an appearance that is not a stream or does not parse):
//    pith.annotation.malformed (invalid);
//  - a page drawn with constructs the closed list lacks (closed_list.hpp):
//    pith.construct.unlisted (unverified);
//  - object definitions readers resolve differently (pdf::File::ambiguous_definitions()):
//    pith.objects.ambiguous (invalid).
// Stamp refuses a file with any of them and verify reports each (one list, so that what stamp
// accepts verify can call trusted).
#include "core/findings.hpp"
#include "drawing/closed_list.hpp"
#include "pdf/file.hpp"

#include <set>
#include <string>
#include <vector>

namespace pith::drawing {

// Why optional content on `page` (0-based) may show differently in different viewers; empty
// when every group it uses has one state in every viewer.
std::vector<std::string> optional_content_ambiguities(pdf::File& file, int page);

// What is malformed in the annotations of `page` (0-based); empty when nothing is.
std::vector<std::string> malformed_annotations(pdf::File& file, int page);

// One thing viewers may show differently, as verify reports it.
struct ViewerDifference {
    Code code;                // the finding
    bool fails;               // invalid (read two ways: one reading is false), or only not trusted
    std::string explanation;  // the finding's text, naming what and where
    std::string missing;      // why trusted is withheld (pith.evidence.missing), when it does not fail
};

// What viewers may show differently on `pages` (0-based: page 1, the title's and the badge's;
// those past the file's end are passed over) and in the file's object definitions; empty when
// nothing is. `keep_clear`: the title's and the badge's areas (unlisted_on()).
std::vector<ViewerDifference> viewer_differences(pdf::File& file, const std::set<int>& pages,
                                                 const std::vector<Area>& keep_clear);

}  // namespace pith::drawing
