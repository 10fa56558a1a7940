// SPDX-License-Identifier: MIT
#pragma once
// What changed after a PDF got its pith data, judged by comparing documents, not by reading
// markers (pyHanko's difference analysis for DocMDP, applied to a stamp):
//  - pith's own update (the bytes after pith:priorLength, up to the next %%EOF) may change
//    exactly what `pith stamp` changes: the catalog's /Metadata, Info's /PithNumber, the badge
//    page's /Contents, /Resources and /Annots, and new objects;
//  - every revision appended after the baseline (pith's update, or the file's first revision
//    when pith.sty wrote the data) may change only what a reader's viewer legitimately changes:
//    form fields, signatures, Info other than /PithNumber, XMP other than pith's properties,
//    comments that cover neither the title nor the badge.
// Anything else is a failure naming what changed.
#include "core/findings.hpp"
#include "drawing/closed_list.hpp"
#include "pdf/file.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pith::verify {

using drawing::Area;

// The document a stamp left: pith's update and all before it (or, without one, the first revision).
struct Baseline {
    bool found = false;            // false: the findings say why (and the file is not trusted)
    std::uint64_t end = 0;         // its bytes are the file's first `end`
    bool whole_file = false;       // nothing was appended after it
    bool badge_drawn = false;      // pith's update drew a badge and its link
    int badge_page = -1;           // 0-based, where it did
    pdf::Rect badge_rect;          // the link's rectangle there
    pdf::Ref badge_xobject;  // the badge's Form XObject (when badge_drawn)
    pdf::Ref badge_link;     // the badge's link annotation (when badge_drawn)
    std::vector<pdf::Ref> annots_before;  // the badge page's annotations before pith's update
};

// Finds the baseline and checks pith's own update. `prior_length`: pith:priorLength (its
// SHA-256 is checked by the caller); without it (pith.sty, other tools) the baseline is the
// file's first revision and there is no update of pith's to check. `password` opens the
// earlier documents of an encrypted file.
Baseline check_pith_update(pdf::File& file, const std::optional<std::uint64_t>& prior_length, const std::string& password,
                           Findings& f);

// Checks every revision after the baseline. `keep_clear`: the badge's and the title's areas,
// which no annotation added later may cover.
void check_later_changes(pdf::File& file, const Baseline& baseline, const std::vector<Area>& keep_clear, const std::string& password,
                         Findings& f);

}  // namespace pith::verify
