// SPDX-License-Identifier: MIT
#include "stamp/options_table.hpp"

#include "core/error.hpp"

#include <cmath>
#include <cstdio>

namespace pith::stamp {

namespace {

using options::Type;
using options::Value;

std::string number_text(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", x);
    return text;
}

void page(Options& o, const Value& v) {
    if (v.number != std::floor(v.number) || v.number == 0 || std::fabs(v.number) > 1e6)
        throw Error("must be a non-zero integer (1 is the first page, -1 the last)", err::options_invalid);
    o.placement.page = static_cast<int>(v.number);
}

// A corner or a position given: the badge goes there, not to a free spot.
void corner(Options& o, const Value& v) {
    o.placement.corner = parse_corner(v.text);
    o.placement.automatic = false;
}

void at(Options& o, const Value& v) {
    o.placement.at = std::make_pair(v.point[0], v.point[1]);
    o.placement.automatic = false;
}

void style(Options& o, const Value& v) {
    if (!options::is_one_of(badge::kStyles, v.text))
        throw Error(std::string("must be one of ") + badge::kStyles, err::options_invalid);
    o.badge.style = v.text;
}

}  // namespace

// The order is `pith stamp --help`'s.
const std::vector<Option>& option_table() {
    static const std::vector<Option> table = {
        {{"-r,--record", "record", Type::Text, "Pith record (any shape `pith record` reads)"}, nullptr, nullptr},
        {{"--number", "number", Type::Text, "Fetch the record of this Pith number from the registry (see pith fetch)"}, nullptr, nullptr},
        {{"--arxiv", "arxiv", Type::Text, "Fetch the record of this arXiv id (2407.14645 or 2407.14645v1) from the registry"}, nullptr, nullptr},
        {{"-o,--output", "output", Type::Text, "Output PDF, or - for standard output"}, nullptr, nullptr},
        {{"--in-place", nullptr, Type::Flag, "Replace the input file (atomically)"}, nullptr, nullptr},
        {{"--page", "page", Type::Integer, "Page for the badge, 1-based; -1 is the last page"}, page,
         [](const Options& o) { return std::to_string(o.placement.page); }},
        {{"--corner", "corner", Type::Text, "The corner as the reader sees the page. Without it (and --at) the badge goes where the "
                                            "page paints nothing, starting from top-right", kCornerNames},
         corner, [](const Options& o) { return corner_name(o.placement.corner); }},
        {{"--margin-x", "margin_x", Type::Number, "Distance in pt from the side edge"},
         [](Options& o, const Value& v) { o.placement.margin_x = v.number; }, [](const Options& o) { return number_text(o.placement.margin_x); }},
        {{"--margin-y", "margin_y", Type::Number, "Distance in pt from the top or bottom edge"},
         [](Options& o, const Value& v) { o.placement.margin_y = v.number; }, [](const Options& o) { return number_text(o.placement.margin_y); }},
        {{"--text-size", "text_size", Type::Number, "Badge text size in pt"},
         [](Options& o, const Value& v) { o.badge.text_size_pt = v.number; }, [](const Options& o) { return number_text(o.badge.text_size_pt); }},
        {{"--style", "style", Type::Text, "The badge without or with its opaque box", badge::kStyles}, style,
         [](const Options& o) { return o.badge.style; }},
        {{"--qr", "qr", Type::Flag, "Add a QR code of the resolver URL to the badge"}, [](Options& o, const Value& v) { o.badge.qr = v.flag; }, nullptr},
        {{"--qr-module", "qr_module", Type::Number, "Side of one QR module in pt"},
         [](Options& o, const Value& v) { o.badge.qr_module_pt = v.number; }, [](const Options& o) { return number_text(o.badge.qr_module_pt); }},
        {{"--no-badge", "no_badge", Type::Flag, "Embed the metadata only"}, [](Options& o, const Value& v) { o.draw_badge = !v.flag; }, nullptr},
        {{"--badge-always", "badge_always", Type::Flag, "Draw the badge even where page 1 already shows pith.sty's badge for this number"},
         [](Options& o, const Value& v) { o.badge_always = v.flag; }, nullptr},
        {{"--no-title-check", "no_title_check", Type::Flag,
          "Stamp although page 1 does not show the record's title as its title (verify will not say trusted)"},
         [](Options& o, const Value& v) { o.check_title = !v.flag; }, nullptr},
        {{"--replace", "replace", Type::Flag, "Replace an earlier pith stamp of another Pith number"},
         [](Options& o, const Value& v) { o.replace = v.flag; }, nullptr},
        {{"--drop-signatures", "drop_signatures", Type::Flag, "Replace an earlier pith stamp although signatures were made over it: they are lost"},
         [](Options& o, const Value& v) { o.drop_signatures = v.flag; }, nullptr},
        {{"--resolver", "resolver", Type::Text, "Base URL the badge links to (BODY is appended)"},
         [](Options& o, const Value& v) { o.resolver = v.text; }, [](const Options& o) { return o.resolver; }},
        {{"--allow-unverified", "allow_unverified", Type::Flag, "Stamp a record whose stated hash or number does not recompute"},
         [](Options& o, const Value& v) { o.allow_unverified = v.flag; }, nullptr},
        {{"--allow-damaged", "allow_damaged", Type::Flag, "Stamp a damaged PDF that pith can read around, instead of refusing it"},
         [](Options& o, const Value& v) { o.allow_damaged = v.flag; }, nullptr},
        {{"--allow-unlisted", "allow_unlisted", Type::Flag,
          "Stamp pages that draw with what pith's closed list lacks or viewers read differently "
          "(pith verify then says unverified or invalid)"},
         [](Options& o, const Value& v) { o.allow_unlisted = v.flag; }, nullptr},
        {{"--force", "force", Type::Flag, "Stamp a certified PDF although its DocMDP permissions forbid changes"},
         [](Options& o, const Value& v) { o.force = v.flag; }, nullptr},
        {{"--rewrite", "rewrite", Type::Flag, "Write a whole new file (PoDoFo) instead of an incremental update; breaks signatures"},
         [](Options& o, const Value& v) { o.rewrite = v.flag; }, nullptr},
        {{"--at", "at", Type::Point, "Badge position X,Y in pt from the lower-left of the page as the reader sees it"}, at, nullptr},
        {{"--password", "password", Type::Text, "User password of an encrypted PDF"},
         [](Options& o, const Value& v) { o.password = v.text; }, nullptr},
        {{"--json", nullptr, Type::Flag, "Print the summary as JSON"}, nullptr, nullptr},
    };
    return table;
}

const Option* option_of_key(const std::string& key) {
    for (const Option& o : option_table())
        if (o.row.key && key == o.row.key) return &o;
    return nullptr;
}

const Option& option_of_flag(const std::string& long_flag) { return options::of_flag(option_table(), long_flag); }

std::vector<options::Row> all_rows() { return options::rows_of(option_table(), {&options::signing_rows(), &options::registry_rows()}); }

std::string manifest_keys() {
    std::string keys = "input, id";
    for (const Option& o : option_table())
        if (o.row.key) keys += std::string(", ") + o.row.key;
    return keys;
}

}  // namespace pith::stamp
