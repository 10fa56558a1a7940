// SPDX-License-Identifier: MIT
#include "verify/rewritten.hpp"

#include "pith_data/pith_data.hpp"
#include "pdf/objects.hpp"

#include <algorithm>
#include <cstring>

namespace pith::verify {

using pdf::Object;
using pdf::Ref;

namespace {

// The badge pith stamp drew, found where a rewrite leaves it (badge_drawn false when not).
Baseline badge_after_rewrite(pdf::File& file) {
    Baseline b;
    for (int i = 0, n = file.page_count(); i < n; ++i) {
        const pdf::Page page = file.page(i);
        const auto* annots = pdf::annotations(file, file.get(page.ref));
        if (!annots) continue;
        std::vector<Ref> before;  // under the badge's link: viewers give a click to the last
        for (const auto& item : *annots) {
            if (!pith_data::is_badge_annotation(file, item)) {
                if (pdf::is_reference(item)) before.push_back(pdf::reference_of(item));
                continue;
            }
            pdf::Rect rect;
            const auto* xobjects = pdf::dictionary_entry(file, page.resources, "XObject");
            const Object* badge = xobjects ? pdf::find(*xobjects, pdf::Name(pith_data::kBadgeResourceName)) : nullptr;
            if (!pdf::is_reference(item) || !pdf::annotation_rect(file, file.resolve(item), rect) || !badge ||
                !pdf::is_reference(*badge) || !file.is_stream(pdf::reference_of(*badge)))
                return b;  // not as pith stamp draws it: the badge's text and links are still checked
            b.badge_drawn = true;
            b.badge_page = i;
            b.badge_rect = rect;
            b.badge_xobject = pdf::reference_of(*badge);
            b.badge_link = pdf::reference_of(item);
            b.annots_before = before;
            return b;
        }
    }
    return b;
}

}  // namespace

std::optional<Baseline> rewritten_since_stamp(pdf::File& file, std::uint64_t prior_length, bool badge_recorded) {
    const std::string_view bytes = file.bytes();
    const std::string tag = pith_data::kUpdateMarker + " prior=";
    if (::memmem(bytes.data(), bytes.size(), tag.data(), tag.size())) return std::nullopt;
    // A revision still ending where the stamped input ended (its %%EOF, then an end of line):
    // the incremental structure is there, only altered.
    const auto revisions = file.revisions();
    if (std::any_of(revisions.begin(), revisions.end(),
                    [&](const pdf::Revision& r) { return r.end <= prior_length && prior_length - r.end <= 2; }))
        return std::nullopt;
    Baseline b = badge_after_rewrite(file);
    if (badge_recorded && !b.badge_drawn) return std::nullopt;
    return b;
}

}  // namespace pith::verify
