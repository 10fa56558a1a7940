// SPDX-License-Identifier: MIT
#include "verify/picture.hpp"

#include "core/child.hpp"
#include "core/crypto.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "page/pixels.hpp"
#include "page/visible.hpp"
#include "pdf/file.hpp"
#include "verify/canvas.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

namespace pith::verify::picture {

Format format_of(const std::string& path) {
    const std::size_t dot = path.rfind('.'), slash = path.rfind('/');
    std::string ext = dot == std::string::npos || (slash != std::string::npos && dot < slash) ? "" : path.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".png") return Format::Png;
    if (ext == ".html" || ext == ".htm") return Format::Html;
    throw Error("--picture " + path + ": name a .png or .html file (the extension says which to write)", err::options_invalid);
}

namespace {

// One page as rendered: its place on the page as displayed, and its pixels.
struct Shot {
    int page = 1;  // 1-based
    pdf::Page geometry;
    double width = 0, height = 0;  // points, as displayed (CropBox, /Rotate)
    page::pixels::Image image;           // columns 0: not rendered (blank of the page's size)
    double dpi = kDpi;             // of the image, or of the blank
    int columns() const { return image.columns > 0 ? image.columns : static_cast<int>(std::lround(width * dpi / 72)); }
    int rows() const { return image.columns > 0 ? image.rows : static_cast<int>(std::lround(height * dpi / 72)); }
};

page::pixels::Image render_here(std::string_view pdf, int index, const std::string& password, double width, double height, double dpi) {
    return page::pixels::render_region(pdf, index, password, 0, 0, width, height, dpi);
}

// The render, in a child with the limits of every poppler reading (a PDF that crashes or hangs
// poppler costs the picture its page, not the verdict); here where no child can be started.
page::pixels::Image render(std::string_view pdf, int index, const std::string& password, double width, double height, double dpi) {
    child::Child c([&] {
        try {
            page::visible::limit_reading_child(page::pixels::kChildCpuSeconds);
            return page::pixels::encode({true, "", render_here(pdf, index, password, width, height, dpi), {}});
        } catch (const Error&) {
            return std::string();
        }
    });
    if (!c.started()) return render_here(pdf, index, password, width, height, dpi);
    const child::Ended got = c.wait(page::pixels::kChildWallSeconds);
    std::optional<page::pixels::Reading> r = got.bytes ? page::pixels::decode(*got.bytes) : std::nullopt;
    return r && r->image.columns > 0 ? std::move(r->image) : page::pixels::Image{};
}

Shot shoot(pdf::File& file, const std::string& password, int page, double dpi) {
    Shot s;
    s.page = page;
    s.geometry = file.page(page - 1);
    const pdf::Rect& c = s.geometry.crop_box;
    const bool turned = s.geometry.rotate == 90 || s.geometry.rotate == 270;
    s.width = turned ? c.height() : c.width(), s.height = turned ? c.width() : c.height();
    file.preflight_page(s.geometry);  // what poppler is asked to read fits the file's budget (doc/limits.md)
    s.image = render(file.bytes(), page - 1, password, s.width, s.height, dpi);
    s.dpi = s.image.columns > 0 ? s.image.dpi : dpi;
    return s;
}

// The pages the regions are on (page 1 when none): the title's, the badge's, a changed one.
std::vector<int> pages_of(const verify::Report& report, int page_count) {
    std::set<int> pages;
    for (const Region& r : report.findings.regions)
        if (r.page >= 1 && r.page <= page_count) pages.insert(r.page);
    if (pages.empty() && page_count > 0) pages.insert(1);
    return {pages.begin(), pages.end()};
}

struct Box {
    int x0, y0, x1, y1;  // pixels of the shot, top-left origin
};

// A region (default user space) as pixels of the shot (page as displayed, top-left origin).
Box box_of(const Region& r, const Shot& s) {
    const pdf::Shown b = pdf::shown({r.x0, r.y0, r.x1, r.y1}, s.geometry);
    const double k = s.dpi / 72;
    return {static_cast<int>(std::floor(b.x0 * k)), static_cast<int>(std::floor(b.y0 * k)),
            static_cast<int>(std::ceil(b.x1 * k)), static_cast<int>(std::ceil(b.y1 * k))};
}

Rgb colour_of(RegionOutcome outcome) {
    const unsigned char* c = outcome == RegionOutcome::Ok     ? kOkColour
                             : outcome == RegionOutcome::Fail ? kFailColour
                                                              : kInfoColour;
    return {c[0], c[1], c[2]};
}
int thickness_of(RegionOutcome outcome) { return outcome == RegionOutcome::Fail ? 4 : 2; }
Line line_of(RegionOutcome outcome) { return outcome == RegionOutcome::Info ? Line::Dashed : Line::Solid; }
const char* word_of(RegionOutcome outcome) {
    return outcome == RegionOutcome::Ok ? "OK" : outcome == RegionOutcome::Fail ? "FAIL" : "NOTE";
}
// The report's findings by outcome, failures first.
std::array<std::pair<const std::vector<Finding>*, RegionOutcome>, 3> sections_of(const verify::Report& report) {
    return {{{&report.findings.failure, RegionOutcome::Fail},
             {&report.findings.informational, RegionOutcome::Info},
             {&report.findings.success, RegionOutcome::Ok}}};
}

Rgb state_colour(verify::State state) {
    return colour_of(state == verify::State::Trusted   ? RegionOutcome::Ok
                     : state == verify::State::Invalid ? RegionOutcome::Fail
                                                       : RegionOutcome::Info);
}

const Rgb kInk{36, 41, 47}, kWhite{255, 255, 255}, kBackground{234, 238, 242}, kPageEdge{140, 149, 159};
constexpr int kMargin = 16, kCaption = 22, kPanelWidth = 580, kLine = 16;
constexpr std::size_t kPanelChars = (kPanelWidth - 2 * kMargin) / kGlyphWidth;

// Each region of a shot with its box and how far outside it its frame goes: frames of regions
// on the same box (a badge, its link, a comment laid over it) nest instead of hiding each other.
struct Placed {
    const Region* region;
    Box box;
    int offset;  // pixels between the box and its frame
};

std::vector<Placed> placed(const verify::Report& report, const Shot& s) {
    std::vector<Placed> out;
    for (const Region& r : report.findings.regions) {
        if (r.page != s.page) continue;
        Placed p{&r, box_of(r, s), 0};
        for (const Placed& q : out)
            if (std::abs(q.box.x0 - p.box.x0) <= 1 && std::abs(q.box.y0 - p.box.y0) <= 1 && std::abs(q.box.x1 - p.box.x1) <= 1 &&
                std::abs(q.box.y1 - p.box.y1) <= 1)
                p.offset = std::max(p.offset, q.offset + thickness_of(q.region->outcome) + 1);
        out.push_back(p);
    }
    return out;
}

bool overlap(const Box& a, const Box& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

// A region's label: above its frame (links' below: a badge and its link share a box), moved
// further out while it would cover another label.
void draw_label(Canvas& canvas, const Placed& p, const Shot& s, int left, int top, std::vector<Box>& labels) {
    const Region& r = *p.region;
    const std::string label = std::string(word_of(r.outcome)) + " " + r.label;
    const int width = static_cast<int>(ascii(label).size()) * kGlyphWidth + 6, height = kGlyphHeight + 2;
    const int out = p.offset + thickness_of(r.outcome);
    const int x = std::clamp(left + p.box.x0 - out, left, std::max(left, left + s.columns() - width));
    std::vector<int> places;  // on the page: above the frame first (links: below), then the other side
    for (int k = 0; k < 4; ++k) {
        const int above = top + p.box.y0 - out - (k + 1) * height, below = top + p.box.y1 + out + k * height;
        if (above >= top) places.insert(r.kind == RegionKind::Link ? places.end() : places.begin() + k, above);
        places.insert(r.kind == RegionKind::Link ? places.begin() + k : places.end(), below);
    }
    const auto free = std::find_if(places.begin(), places.end(), [&](int y) {
        return std::none_of(labels.begin(), labels.end(), [&](const Box& b) { return overlap(b, {x, y, x + width, y + height}); });
    });
    const int y = free == places.end() ? places.front() : *free;
    labels.push_back({x, y, x + width, y + height});
    canvas.fill(x, y, x + width, y + height, colour_of(r.outcome));
    canvas.text(x + 3, y + 1, label, kWhite);
}

// The regions of one shot, outlined, and labelled where `labels` (a label per kind and outcome
// of hidden text: a scan's text layer would bury the page in them).
void outline_regions(Canvas& canvas, const verify::Report& report, const Shot& s, int left, int top, bool labels) {
    std::set<std::string> hidden_labelled;
    std::vector<Box> drawn_labels;
    const std::vector<Placed> regions = placed(report, s);
    for (const Placed& p : regions)  // labels first: a crowded label may be crossed by a frame, a frame is never hidden
        if (labels && (p.region->kind != RegionKind::Hidden ||
                       hidden_labelled.insert(p.region->label + to_string(p.region->outcome)).second))
            draw_label(canvas, p, s, left, top, drawn_labels);
    for (const Placed& p : regions)
        canvas.frame(left + p.box.x0 - p.offset, top + p.box.y0 - p.offset, left + p.box.x1 + p.offset, top + p.box.y1 + p.offset,
                     thickness_of(p.region->outcome), line_of(p.region->outcome), colour_of(p.region->outcome));
}

// `text` cut into lines of at most `width` characters, at spaces where it can.
std::vector<std::string> wrapped(const std::string& text, std::size_t width) {
    std::vector<std::string> lines;
    std::string rest = ascii(text);
    while (rest.size() > width) {
        std::size_t cut = rest.rfind(' ', width);
        if (cut == std::string::npos || cut == 0) cut = width;
        lines.push_back(rest.substr(0, cut));
        rest = rest.substr(rest[cut] == ' ' ? cut + 1 : cut);
    }
    lines.push_back(rest);
    return lines;
}

// The panel's lines: the verdict, then each finding with its outcome in words, wrapped.
struct PanelLine {
    std::string text;
    Rgb colour;
    std::optional<RegionOutcome> outcome;  // a finding's first line: its outcome word is drawn in its colour
};

std::vector<PanelLine> panel_lines(const verify::Report& report) {
    std::vector<PanelLine> out = {
        {"file: " + report.file, kInk, std::nullopt},
        {"number: " + (report.number.empty() ? std::string("(none)") : report.number), kInk, std::nullopt},
        {"", kInk, std::nullopt}};
    for (const auto& [list, outcome] : sections_of(report))
        for (const Finding& f : *list) {
            const std::vector<std::string> lines = wrapped(std::string(word_of(outcome)) + " " + f.code.c_str() + ": " + f.explanation, kPanelChars);
            for (std::size_t i = 0; i < lines.size(); ++i)
                out.push_back(
                    {(i ? "  " : "") + lines[i], kInk, i ? std::nullopt : std::optional<RegionOutcome>(outcome)});
        }
    return out;
}

// The legend: each outline style with its outcome in words.
int draw_legend(Canvas& canvas, int x, int y) {
    const std::pair<RegionOutcome, const char*> items[] = {{RegionOutcome::Ok, "the check holds (solid)"},
                                                           {RegionOutcome::Info, "noted, not a failure (dashed)"},
                                                           {RegionOutcome::Fail, "the check fails (thick)"}};
    for (const auto& [outcome, meaning] : items) {
        canvas.frame(x + 4, y + 3, x + 28, y + 13, thickness_of(outcome), line_of(outcome), colour_of(outcome));
        canvas.text(x + 40, y, std::string(word_of(outcome)) + ": " + meaning, kInk);
        y += kLine + 4;
    }
    return y;
}

void draw_panel(Canvas& canvas, const verify::Report& report, const std::vector<PanelLine>& lines, int x) {
    canvas.fill(x, 0, canvas.width(), canvas.height(), kWhite);
    x += kMargin;
    int y = kMargin;
    canvas.text(x, y, "pith verify:", kInk);
    const char* state = verify::to_string(report.state);
    std::string shown = state;
    std::transform(shown.begin(), shown.end(), shown.begin(), [](unsigned char c) { return std::toupper(c); });
    canvas.text(x, y + kLine + 2, shown, state_colour(report.state), 3);
    y += kLine + 2 + 3 * kGlyphHeight + 10;
    y = draw_legend(canvas, x, y) + kLine / 2;
    for (const PanelLine& l : lines) {
        const int after = !l.outcome ? x : canvas.text(x, y, word_of(*l.outcome), colour_of(*l.outcome));
        canvas.text(after, y, !l.outcome ? l.text : l.text.substr(std::string(word_of(*l.outcome)).size()), l.colour);
        y += kLine;
    }
}

std::string png_of(const std::vector<Shot>& shots, const verify::Report& report) {
    const std::vector<PanelLine> lines = panel_lines(report);
    int pages_width = kMargin, pages_height = 0;
    for (const Shot& s : shots) {
        pages_width += s.columns() + kMargin;
        pages_height = std::max(pages_height, kCaption + s.rows() + 2 * kMargin + kGlyphHeight + 2);  // room for a label below a page marked whole
    }
    const int panel_height = 2 * kMargin + kLine + 3 * kGlyphHeight + 12 + 3 * (kLine + 4) + kLine / 2 + static_cast<int>(lines.size()) * kLine;
    Canvas canvas(pages_width + kPanelWidth, std::max(pages_height, panel_height), kBackground);
    int left = kMargin;
    for (const Shot& s : shots) {
        const int top = kMargin + kCaption;
        canvas.text(left, kMargin, "page " + std::to_string(s.page) + (s.image.columns > 0 ? "" : " (poppler could not render it)"), kInk);
        canvas.fill(left - 1, top - 1, left + s.columns() + 1, top + s.rows() + 1, kPageEdge);
        canvas.fill(left, top, left + s.columns(), top + s.rows(), kWhite);
        if (s.image.columns > 0) canvas.paste(s.image.rgb, s.image.columns, s.image.rows, left, top);
        outline_regions(canvas, report, s, left, top, true);
        canvas.frame(left, top, left + s.columns(), top + s.rows(), 1, Line::Solid, kPageEdge);  // over a whole page's frame: the page's edge stays
        left += s.columns() + kMargin;
    }
    draw_panel(canvas, report, lines, pages_width);
    return canvas.png(describe(report));
}

std::string base64_of(const std::string& bytes) {
    return base64(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

// One page as HTML: its render, and each region as a box with its label in words.
std::string html_page(const Shot& s, const verify::Report& report) {
    Canvas page(s.columns(), s.rows(), kWhite);
    if (s.image.columns > 0) page.paste(s.image.rgb, s.image.columns, s.image.rows, 0, 0);
    std::string out = "<figure class=\"page\"><figcaption>page " + std::to_string(s.page) + "</figcaption><div class=\"sheet\" style=\"width:" +
                      std::to_string(s.columns()) + "px;height:" + std::to_string(s.rows()) + "px\"><img src=\"data:image/png;base64," +
                      base64_of(page.png("page " + std::to_string(s.page))) + "\" width=\"" + std::to_string(s.columns()) + "\" height=\"" +
                      std::to_string(s.rows()) + "\" alt=\"page " + std::to_string(s.page) + " of " + html_escaped(report.file) +
                      " as a viewer shows it; the regions pith checked are listed over it\">\n";
    int stacked = 0;  // labels of regions on the same box, each one line further out
    const std::vector<Placed> regions = placed(report, s);
    for (const Placed& p : regions) {
        const Region& r = *p.region;
        const Box& b = p.box;
        stacked = p.offset ? stacked + 1 : 0;
        const char* side = b.x0 > s.columns() / 2 ? " east" : "";  // its label then ends at the box's right edge, on the page
        out += "<div class=\"region " + std::string(to_string(r.outcome)) + " " + to_string(r.kind) + side +
               "\" style=\"left:" + std::to_string(b.x0) + "px;top:" + std::to_string(b.y0) +
               "px;width:" + std::to_string(b.x1 - b.x0) + "px;height:" + std::to_string(b.y1 - b.y0) +
               "px;outline-offset:" + std::to_string(p.offset) +
               "px\" role=\"note\"><span style=\"margin:" + std::to_string(p.offset + 4 + 18 * stacked) + "px 0\">" +
               word_of(r.outcome) + " " + html_escaped(r.label) + "</span></div>\n";
    }
    return out + "</div></figure>\n";
}

constexpr const char* kStyle =
    "body{font:14px/1.4 system-ui,sans-serif;color:#24292f;background:#eaeef2;margin:0;padding:16px;display:flex;gap:16px;"
    "align-items:flex-start}\n.page{margin:0;padding:0 24px 24px 0}figcaption{height:64px}.sheet{position:relative;background:#fff;box-shadow:0 0 0 1px #8c959f}\n"
    ".sheet img{position:absolute;left:0;top:0}\n.region{position:absolute;box-sizing:border-box}\n"
    ".region span{position:absolute;left:-4px;bottom:100%;white-space:nowrap;color:#fff;font:12px/16px monospace;"
    "padding:0 3px}\n.region.link span{top:100%;bottom:auto}.region.east span{left:auto;right:-4px}\n"
    "b.ok,b.info,b.fail{color:#fff;padding:0 4px}\n"
    ".region.ok{outline:2px solid #1a7f37}.region.info{outline:2px dashed #0969da}.region.fail{outline:4px solid #cf222e}\n"
    ".ok span,b.ok{background:#1a7f37}.info span,b.info{background:#0969da}.fail span,b.fail{background:#cf222e}\n"
    "section{background:#fff;padding:8px 16px;max-width:40em}li b{color:#fff;padding:0 4px;font-weight:600}\n";

std::string html_of(const std::vector<Shot>& shots, const verify::Report& report) {
    std::string state = verify::to_string(report.state);
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>pith verify: " + state + " - " +
                      html_escaped(report.file) + "</title><style>" + kStyle + "</style></head><body>\n<main>";
    for (const Shot& s : shots) out += html_page(s, report);
    out += "</main>\n<section><h1>pith verify: " + state + "</h1><p>file: " + html_escaped(report.file) + "<br>number: " +
           html_escaped(report.number.empty() ? "(none)" : report.number) +
           "</p><p>Outlines: <b class=\"ok\">OK</b> solid, the check holds; <b class=\"info\">NOTE</b> dashed, noted; "
           "<b class=\"fail\">FAIL</b> thick, the check fails.</p><ul>\n";
    for (const auto& [list, outcome] : sections_of(report))
        for (const Finding& f : *list)
            out += "<li class=\"finding\"><b class=\"" + std::string(to_string(outcome)) + "\">" + word_of(outcome) +
                   "</b> <code>" + html_escaped(f.code.c_str()) + "</code> " + html_escaped(f.explanation) + "</li>\n";
    return out + "</ul></section>\n</body></html>\n";
}

}  // namespace

std::string html_escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}


std::string describe(const verify::Report& report) {
    std::string out = "pith verify: " + std::string(verify::to_string(report.state)) + " (" + report.file + ")";
    for (const Region& r : report.findings.regions)
        out += "; page " + std::to_string(r.page) + ": " + word_of(r.outcome) + " " + r.label;
    return out;
}

std::string draw(pdf::File& file, const std::string& password, const verify::Report& report, Format format) {
    std::vector<Shot> shots;
    for (int page : pages_of(report, file.page_count())) shots.push_back(shoot(file, password, page, kDpi));
    return format == Format::Png ? png_of(shots, report) : html_of(shots, report);
}

std::string thumbnail(pdf::File& file, const std::string& password, const verify::Report& report) {
    if (file.page_count() == 0) return "";
    const Shot s = shoot(file, password, 1, kThumbnailDpi);
    if (s.image.columns <= 0) return "";
    Canvas canvas(s.columns(), s.rows(), kWhite);
    canvas.paste(s.image.rgb, s.image.columns, s.image.rows, 0, 0);
    outline_regions(canvas, report, s, 0, 0, false);
    return canvas.png(describe(report));
}

}  // namespace pith::verify::picture
