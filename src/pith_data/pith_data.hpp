// SPDX-License-Identifier: MIT
#pragma once
// The pith data: what pith stamp and pith.sty leave in a PDF and how it is found again, without
// judging it.
// stamp writes it, verify and extract read it; neither needs the other for that.
//   - pith's update: a revision that opens with kUpdateMarker naming the bytes kept before it;
//   - the badge: its content streams, XObject and link annotation, by their names;
//   - PithData: everything pith-related a PDF carries (XMP, Info, resolver links, revisions).
#include "core/json.hpp"
#include "pdf/types.hpp"
#include "xmp/xmp.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pith::pdf {
class File;
}

namespace pith::pith_data {

// The marker comment that opens pith's update: "%PithUpdate prior=N", N the input's length.
inline const std::string kUpdateMarker = "%PithUpdate";
// The name of the badge XObject in the page's resources.
inline const std::string kBadgeResourceName = "PithBadge";
// The badge's two content streams, written unfiltered first and last in the page's /Contents:
// kBadgeOpen, and kBadgeCloseHead + "a b c d e f" (the placement matrix) + kBadgeCloseTail.
inline const std::string kBadgeStreamMarker = "%PithBadge";
inline const std::string kBadgeOpen = kBadgeStreamMarker + "\nq\n";
// Marked as an artifact: in a tagged PDF (PDF/UA, PDF/A-2a) the badge is not part of the
// document's logical content, and assistive technology reads the link's /Contents instead.
inline const std::string kBadgeCloseHead = kBadgeStreamMarker + "\nQ\n/Artifact BMC\nq ";
inline const std::string kBadgeCloseTail = " cm /" + kBadgeResourceName + " Do Q\nEMC\n";
// The /NM of the badge's link annotation.
inline const std::string kBadgeAnnotationName = "pith-badge";

// `item` (a reference) is one of the badge's content streams.
bool is_badge_stream(pdf::File& file, const pdf::Object& item);
// `item` (an annotation or a reference to one) is the badge's link, by its /NM.
bool is_badge_annotation(pdf::File& file, const pdf::Object& item);

struct PithUpdate {
    std::uint64_t prior_length;  // bytes before pith's update
    std::size_t revision;        // index into File::revisions() of the revision holding it
    bool newest;                 // nothing was appended after it
};
// Finds pith's own update: the newest revision that opens with a marker standing right after
// the N bytes it names.
std::optional<PithUpdate> find_pith_update(pdf::File& file);

struct Link {
    int page = 0;  // 1-based
    double rect[4] = {0, 0, 0, 0};
    std::string uri;
    std::string action;       // the action's /S: "URI" for every honest pith link
    bool chained = false;     // the action has /Next: more actions run after it
    bool pith_badge = false;  // the link `pith stamp` drew (/NM pith-badge)
};

struct RevisionInfo {
    std::uint64_t end = 0;   // byte offset just past its %%EOF
    std::size_t objects = 0; // objects it defines or replaces
    bool pith = false;       // the update pith stamp wrote
};

// Everything pith-related that a PDF carries, without judging it.
struct PithData {
    std::string file;
    bool has_xmp = false;
    std::string xmp_error;          // the packet exists but is not well-formed
    xmp::Packet xmp;
    std::map<std::string, std::string> info;  // Info entries pith reads: PithNumber, Title
    std::vector<Link> links;        // links to a Pith resolver (/pith/BODY), on page 1 and the pages pith's update touched
    std::vector<RevisionInfo> revisions;
    std::optional<std::size_t> pith_revision;  // index into revisions
    int badge_page = 1;             // the badge's page: pith stamp's, else the first with a resolver link (1 when none)
    std::vector<std::string> defects;  // damage the reader worked around (pdf::File::defects())

    bool any_pith_data() const { return !xmp.pith.empty() || info.count("PithNumber"); }
    Json to_json() const;
};

// Both throw pith::Error when the file cannot be read as a PDF at all, or is damaged
// (pdf::File::defects()) and damage is not allowed.
PithData extract(const std::string& path, const std::string& password = "", bool allow_damaged = false);
// The same, of a file already open (damage not judged).
PithData extract(pdf::File& file);
// The number's body a resolver link names: https://host/pith/BODY[.json|/...], upper-cased;
// "" if the link names none.
std::string body_of_link(const std::string& uri);
// The number a PDF carries, as a registry query: its metadata's; without metadata (a converter
// dropped it), the one its badge's link names, whole or its prefix (pith:BODY8); "" when none.
std::string carried_number(const PithData& e);
// Damage the reader worked around (pdf::File::defects()): pith::Error (pdf.damaged) unless
// `allow_damaged`; `doing` names what is refused ("stamp", "read"), as --allow-damaged does it.
// pith stamp, verify and extract refuse damage by this one rule.
void refuse_damaged(const pdf::File& file, bool allow_damaged, const std::string& doing = "read");

}  // namespace pith::pith_data
