// SPDX-License-Identifier: MIT
#pragma once
// pith stamp: embed a record's number, hash and receipt in a PDF's XMP and Info,
// and draw a linked badge, as one incremental update that keeps every input byte.
#include "badge/badge.hpp"
#include "core/record.hpp"
#include "pdf/file.hpp"
#include "sign/signer.hpp"

#include <optional>
#include <string>

namespace pith::stamp {

// The corners' names in options, manifests and messages, in Corner's order: --corner's choices.
inline constexpr const char* kCornerNames = "top-right|top-left|bottom-right|bottom-left";
enum class Corner { TopRight, TopLeft, BottomRight, BottomLeft };
Corner parse_corner(const std::string& text);  // one of kCornerNames
std::string corner_name(Corner c);

struct Placement {
    int page = 1;                  // 1-based; negative counts from the end (-1 = last page)
    Corner corner = Corner::TopRight;
    double margin_x = 18;          // pt from the corner's vertical edge, as the reader sees the page
    double margin_y = 18;          // pt from the corner's horizontal edge
    std::optional<std::pair<double, double>> at;  // explicit lower-left of the badge, pt from the visible lower-left
    // Choose a spot where the page paints nothing, starting from `corner` (src/stamp/placement.hpp).
    // false (--corner or --at given): the badge goes where asked, with a warning if it covers content.
    bool automatic = true;
};

struct Options {
    Placement placement;
    badge::Options badge;
    bool draw_badge = true;
    bool badge_always = false;      // draw the badge even where pith.sty already drew one for this number
    bool check_title = true;        // refuse a record whose title page 1 does not show as its title
    bool replace = false;           // replace an earlier pith stamp of another number
    std::string resolver = kDefaultResolver;  // the badge links to resolver + BODY
    bool allow_unverified = false;  // stamp a record whose stated hash or number does not recompute
    bool allow_damaged = false;     // stamp a damaged PDF (pdf::File::defects()) instead of refusing it
    bool allow_unlisted = false;    // stamp pages that draw with what the closed list lacks (drawing/closed_list.hpp)
    bool force = false;             // stamp a certified PDF whose DocMDP permissions forbid changes
    bool rewrite = false;           // write a whole new file (PoDoFo) instead of an incremental update
    std::string password;           // for encrypted PDFs that need a user password
    std::optional<sign::Signer> signer;  // sign pith's update (PAdES B-B) with this key
    bool certify = false;                // with signer: a certification signature (DocMDP P=2)
    bool drop_signatures = false;        // replace an earlier stamp although signatures were made over it
};

// Where the badge went and why (human output, --json, batch report).
struct Where {
    std::string spot;        // "top-right corner", "top margin", "at 100,700", ...
    std::string why;         // one line
    bool measured = false;   // the page was rendered and `inked` measured
    double inked = 0;        // share of the badge's rectangle (and 2 pt around) the page already painted
    bool boxed = false;      // drawn on its opaque box (no free spot, or --style boxed)
};

struct Summary {
    std::string number;
    int page = 0;                       // 1-based page the badge is on (0 without badge)
    double rect[4] = {0, 0, 0, 0};      // the link rectangle in default user space
    std::uint64_t prior_length = 0;     // bytes kept from the input
    std::uint64_t added = 0;            // bytes pith appended
    bool replaced_previous = false;     // an earlier pith stamp was replaced
    bool latex_badge = false;           // page 1 already shows pith.sty's badge for this number: none drawn
    std::string title;                  // what the title check found: "shown", or why it could not be made
    Where where;
    std::string signed_by;              // the signer's subject when the update was signed
    std::vector<std::string> warnings;
    // `pith stamp --json` (summary.cpp); a `pith batch` line carries a part of it (doc/batch.md).
    Json to_json(const std::string& input, const std::string& output) const;
};

// Stamps the PDF in `input` ("-" reads standard input) and writes the result to
// `output` ("-" is standard output) atomically; `output` may equal `input`.
Summary stamp_file(const std::string& input, const std::string& output, const Record& record, const Options& options);

}  // namespace pith::stamp
