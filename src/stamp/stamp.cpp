// SPDX-License-Identifier: MIT
#include "stamp/stamp.hpp"

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/keys.hpp"
#include "core/option_table.hpp"
#include "core/trace.hpp"
#include "core/unicode.hpp"
#include "drawing/closed_list.hpp"
#include "drawing/viewers.hpp"
#include "pith_data/pith_data.hpp"
#include "page/pixels.hpp"
#include "page/title.hpp"
#include "page/title_judgement.hpp"
#include "page/visible.hpp"
#include "pdf/budget.hpp"
#include "pdf/file.hpp"
#include "pdf/objects.hpp"
#include "pdf/update.hpp"
#include "sign/pdf_signature.hpp"
#include "stamp/placement.hpp"
#include "xmp/xmp.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

namespace pith::stamp {
namespace {

using pdf::Array;
using pdf::Dictionary;
using pdf::Name;
using pdf::Object;
using pdf::Ref;


std::string fmt(double v) { return pdf::format_number(v); }


// A certified document allows no badge or metadata added (sign::docmdp_permissions(), the reading
// pith verify judges later changes by).
void refuse_certified(pdf::File& file, bool force) {
    const int p = sign::docmdp_permissions(file);
    if (force || p == 0) return;
    const char* allowed = p == 1 ? "no changes at all" : p == 2 ? "only form filling and signing" : "only form filling, signing and comments";
    throw Error(file.name() + ": certified PDF (DocMDP permissions P=" + std::to_string(p) + ": " + allowed +
                "); a badge and new metadata would break the certification. Use --force to stamp anyway.", err::pdf_certified);
}

bool has_forbidden_xml_chars(const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) {
        auto u = static_cast<unsigned char>(c);
        return u < 0x20 && c != '\t' && c != '\n' && c != '\r';
    });
}

// `prior_sha256`: of the bytes before pith's update; empty for --rewrite, which keeps none.
xmp::Properties properties_for(const Record& record, const Options& options, std::uint64_t prior_length,
                               const std::string& prior_sha256, Summary& summary) {
    xmp::Properties p;
    xmp::set(p, xmp::property::number, record.number.full());
    xmp::set(p, xmp::property::shortNumber, record.number.short_form());
    xmp::set(p, xmp::property::canonicalSha256, to_hex(record.canonical_hash));
    xmp::set(p, xmp::property::canonicalRecord, record.canonical_bytes);
    if (record.title) {
        if (!record.title_matches())
            summary.warnings.push_back("the record's paper.title does not hash to title_canon_sha256; not embedded");
        else if (has_forbidden_xml_chars(*record.title))
            summary.warnings.push_back("the record's paper.title holds control characters XMP cannot carry; not embedded");
        else
            xmp::set(p, xmp::property::title, *record.title);
    }
    if (record.receipt) xmp::put_receipt(*record.receipt, p);
    for (const auto& [key, value] : p)
        if (has_forbidden_xml_chars(value)) throw Error("record field for pith:" + key + " holds control characters XMP cannot carry", err::record_invalid);
    xmp::set(p, xmp::property::resolverUrl, options.resolver + record.number.body);
    if (summary.page) {  // the badge's look, for pith verify to draw it again and compare
        badge::Options look = options.badge;
        if (summary.where.boxed) look.style = "boxed";
        xmp::set(p, xmp::property::badge, badge::describe(look));
    }
    if (!record.consistent()) xmp::set(p, xmp::property::unverified, "True");
    xmp::set(p, xmp::property::stampTool, "pith stamp");
    xmp::set(p, xmp::property::stampToolVersion, PITH_VERSION);
    xmp::set(p, xmp::property::stampedAt, now_rfc3339());
    if (!options.rewrite) {  // a rewritten file has no bytes before pith's update to compare
        xmp::set(p, xmp::property::priorLength, std::to_string(prior_length));
        xmp::set(p, xmp::property::priorSha256, prior_sha256);
    }
    return p;
}

void write_metadata(pdf::File& file, pdf::Update& update, const xmp::Properties& properties) {
    const Object& catalog = file.catalog();
    const std::optional<Ref> current = pdf::metadata_stream(file);
    Dictionary dict;
    std::string existing;
    if (current) {
        existing = file.stream_decoded(*current);
        dict = pdf::dictionary_of(file.get(*current));
        for (const char* key : {"Filter", "DecodeParms", "Length", "DL"}) pdf::remove_key(dict, key);
    }
    std::string packet;
    try {
        packet = xmp::merge(existing, properties);
    } catch (const Error& e) {
        throw Error(file.name() + ": the document's XMP metadata cannot be merged: " + e.what(), err::pdf_xmp);
    }
    pdf::put(dict, "Type", Name("Metadata"));
    pdf::put(dict, "Subtype", Name("XML"));
    if (!existing.empty()) {
        update.replace_stream(*current, dict, packet);
        return;
    }
    Ref ref = update.add_stream(dict, packet);
    Object new_catalog = catalog;
    pdf::put(pdf::dictionary_of(new_catalog), "Metadata", ref);
    update.replace(file.root_ref(), new_catalog);
}

Dictionary write_info(pdf::File& file, pdf::Update& update, const std::string& number) {
    Dictionary info;
    if (const Object* existing = file.info()) info = pdf::dictionary_of(*existing);
    pdf::put(info, "PithNumber", pdf::text_value(number));
    if (pdf::object_number(file.info_ref()) != 0)
        update.replace(file.info_ref(), Object(info));
    else
        update.set_info(update.add(Object(info)));
    return info;
}

struct Matrix {
    double a, b, c, d, e, f;
    std::pair<double, double> apply(double u, double v) const { return {a * u + c * v + e, b * u + d * v + f}; }
};

// Places a w x h box upright for the reader, in the corner asked for, on a page
// whose visible area is `crop` and which viewers turn clockwise by `rotate`.
Matrix placement_matrix(const pdf::Rect& crop, int rotate, double w, double h, const Placement& place) {
    bool sideways = rotate == 90 || rotate == 270;
    double view_w = sideways ? crop.height() : crop.width();
    double view_h = sideways ? crop.width() : crop.height();
    bool left = place.corner == Corner::TopLeft || place.corner == Corner::BottomLeft;
    bool top = place.corner == Corner::TopLeft || place.corner == Corner::TopRight;
    double x0 = place.at ? place.at->first : left ? place.margin_x : view_w - place.margin_x - w;
    double y0 = place.at ? place.at->second : top ? view_h - place.margin_y - h : place.margin_y;
    switch (rotate) {
        case 90: return {0, 1, -1, 0, crop.urx - y0, crop.lly + x0};
        case 180: return {-1, 0, 0, -1, crop.urx - x0, crop.ury - y0};
        case 270: return {0, -1, 1, 0, crop.llx + y0, crop.ury - x0};
        default: return {1, 0, 0, 1, crop.llx + x0, crop.lly + y0};
    }
}

// The 1-based page the badge goes on (out of range when the page does not exist).
int target_page(pdf::File& file, const Options& options) {
    return options.placement.page > 0 ? options.placement.page : file.page_count() + options.placement.page + 1;
}

// ---------------------------------------------------------------- what poppler reads of pages

// Each page poppler reads for stamp is preflighted against the budget once and read once, in a
// child started as early as possible: it works while the update is made. The title's page is
// read as pith verify reads it (page::visible::Look::Rendered), for the title judgement both share;
// the badge's page for the ink its placement avoids (page::visible::Look::Ink), a second reading when
// it is the same page. So does the child that will read the title's pixels: it loads Tesseract
// meanwhile.
class PageReadings {
public:
    PageReadings(pdf::File& file, const std::string& password) : file_(file), password_(password) {}
    void start(int index, page::visible::Look look) {
        const std::pair<int, page::visible::Look> key{index, look};
        if (readers_.count(key) || done_.count(key)) return;
        // What poppler is asked to read fits the budget (doc/limits.md).
        if (preflighted_.insert(index).second) file_.preflight_page(file_.page(index));
        readers_.emplace(key, std::make_unique<page::visible::ChildReader>(file_.bytes(), index, password_, look));
    }
    const page::visible::Reading& get(int index, page::visible::Look look) {
        start(index, look);
        const std::pair<int, page::visible::Look> key{index, look};
        auto done = done_.find(key);
        if (done == done_.end()) {
            done = done_.emplace(key, readers_.at(key)->collect()).first;
            readers_.erase(key);
        }
        return done->second;
    }
    // The pages as the title judgement reads them: as pith verify does.
    page::title::Pages title_pages() {
        const auto words = [this](int i) { return get(i, page::visible::Look::Rendered); };
        return {words, file_.bytes(), password_, file_.page_count()};
    }
    void start_pixels() { pixels_ = std::make_unique<page::pixels::Reader>(file_.bytes(), password_); }
    // The title's pixels read as `request` asks, by the child started for it if there is one.
    page::pixels::Reading read_pixels(page::pixels::Request request) {
        auto reader =
            page::pixels::reader_for(std::exchange(pixels_, nullptr), file_.bytes(), password_, std::move(request));
        return reader->collect();
    }

private:
    pdf::File& file_;
    std::string password_;
    std::unique_ptr<page::pixels::Reader> pixels_;
    std::set<int> preflighted_;
    std::map<std::pair<int, page::visible::Look>, std::unique_ptr<page::visible::ChildReader>> readers_;
    std::map<std::pair<int, page::visible::Look>, page::visible::Reading> done_;
};

// ---------------------------------------------------------------- placement

// Objects drawn only to learn the badge's size are numbered and dropped.
class DiscardingSink : public pdf::ObjectSink {
public:
    Ref add(const Object&) override { return Ref(++count_, 0); }
    Ref add_stream(const Dictionary&, const std::string&) override { return Ref(++count_, 0); }

private:
    unsigned count_ = 0;
};

std::pair<double, double> measure_badge(const std::string& label, const std::string& url, const badge::Options& look) {
    DiscardingSink sink;
    const badge::Badge b = badge::draw(sink, label, url, look);
    return {b.width_pt, b.height_pt};
}

// A page smaller than the badge and its margins (labels, icons) still gets it: margins
// shrink first, then the badge is scaled down to fit.
struct Fit {
    double scale, w, h, margin_x, margin_y;
};
Fit fit_badge(std::pair<double, double> size, double view_w, double view_h, const Placement& asked) {
    Fit f;
    f.scale = std::min({1.0, 0.9 * view_w / size.first, 0.9 * view_h / size.second});
    f.w = size.first * f.scale;
    f.h = size.second * f.scale;
    f.margin_x = std::min(asked.margin_x, (view_w - f.w) / 2);
    f.margin_y = std::min(asked.margin_y, (view_h - f.h) / 2);
    return f;
}

// The configured corner, or --at, as a lower-left position for placement_matrix.
Placement as_asked(const Placement& asked, const Fit& fit) {
    Placement p = asked;
    p.margin_x = fit.margin_x;
    p.margin_y = fit.margin_y;
    return p;
}

std::string where_asked(const Placement& asked) {
    if (asked.at) return "at " + fmt(asked.at->first) + "," + fmt(asked.at->second);
    return corner_name(asked.corner) + " corner";
}

// The lower-left of the badge at its place as the reader sees the page.
std::pair<double, double> lower_left(const Placement& p, const Fit& fit, double view_w, double view_h) {
    if (p.at) return *p.at;
    const bool left = p.corner == Corner::TopLeft || p.corner == Corner::BottomLeft;
    const bool top = p.corner == Corner::TopLeft || p.corner == Corner::TopRight;
    return {left ? p.margin_x : view_w - p.margin_x - fit.w, top ? view_h - p.margin_y - fit.h : p.margin_y};
}

// Decides where the badge goes and fills summary.where: automatic placement picks a spot the
// page leaves free for the plain badge (or, with none, the spot where the boxed badge covers
// least, boxed); an explicit --corner/--at is kept and warned about when it covers content. An
// unmeasurable page keeps the configured corner, boxed: readable whatever lies below.
Placement choose_spot(PageReadings& pages, int index, const Options& options, const Fit& plain, const Fit& boxed, double view_w,
                      double view_h, Summary& summary) {
    const Placement& asked = options.placement;
    Where& where = summary.where;
    const page::visible::Reading& reading = pages.get(index, page::visible::Look::Ink);
    const std::optional<placement::InkMap>& map = reading.ink;
    const std::string why = reading.failed || reading.page ? reading.why : "poppler cannot render the page";
    const std::string page = "page " + std::to_string(index + 1);
    where.boxed = options.badge.style == "boxed";
    if (!map) {
        where.spot = where_asked(asked);
        where.why = page + " could not be measured (" + why + "): " + (asked.automatic ? "the configured " : "") +
                    "spot, boxed to stay readable";
        where.boxed = true;
        summary.warnings.push_back(where.why);
        return as_asked(asked, boxed);
    }
    where.measured = true;
    if (!asked.automatic) {
        Placement p = as_asked(asked, plain);
        const auto [x, y] = lower_left(p, plain, view_w, view_h);
        where.spot = where_asked(asked);
        where.inked = placement::inked_around(*map, {x, y, where.spot}, plain.w, plain.h);
        where.why = where.inked == 0 ? "as asked; the page paints nothing there" : "as asked";
        if (where.inked > 0)
            summary.warnings.push_back("the badge " + where.spot + " covers content already on " + page + " (" +
                                       fmt(std::round(where.inked * 1000) / 10) + "% of its area is painted)");
        return p;
    }
    placement::Choice c = placement::choose(*map, plain.w, plain.h, plain.margin_x, plain.margin_y, asked.corner);
    if (!c.free) {
        c = placement::choose(*map, boxed.w, boxed.h, boxed.margin_x, boxed.margin_y, asked.corner);
        where.boxed = true;
        summary.warnings.push_back(page + ": " + c.why);
    }
    where.spot = c.spot.where;
    where.why = c.why;
    where.inked = c.inked;
    Placement p = as_asked(asked, where.boxed ? boxed : plain);
    p.at = std::make_pair(c.spot.x, c.spot.y);
    return p;
}

// The page's /Contents with pith's two badge streams around the rest: an earlier badge's
// streams go wherever they stand (a later revision may have appended content after them, and
// leaving one would draw two badges or unbalance q/Q).
Array contents_around(pdf::File& file, const Object& page, Ref open, Ref close) {
    Array contents;
    pdf::append(contents, open);
    if (const Object* existing = pdf::own_contents(page)) {
        const Object& resolved = file.resolve(*existing);
        if (pdf::is_array(resolved)) {
            for (const auto& item : pdf::array_of(resolved))
                if (!pith_data::is_badge_stream(file, item)) pdf::append(contents, item);
        } else if (pdf::is_reference(*existing)) {
            pdf::append(contents, *existing);
        }
    }
    pdf::append(contents, close);
    return contents;
}

// The page's /Resources with the badge's form XObject added.
Dictionary resources_with(pdf::File& file, const pdf::Page& page, const Ref& xobject) {
    Dictionary resources;
    if (pdf::is_dictionary(page.resources)) resources = pdf::dictionary_of(page.resources);
    Dictionary xobjects;
    if (const Object* x = file.get_key(resources, "XObject"); x && pdf::is_dictionary(*x))
        xobjects = pdf::dictionary_of(*x);
    pdf::put(xobjects, Name(pith_data::kBadgeResourceName), xobject);
    pdf::put(resources, "XObject", xobjects);
    return resources;
}

// The badge's box on the page: its form's corners through the placement matrix.
void badge_rect(const Matrix& m, const badge::Badge& badge, double rect[4]) {
    double xs[4], ys[4];
    std::tie(xs[0], ys[0]) = m.apply(0, 0);
    std::tie(xs[1], ys[1]) = m.apply(badge.width_pt, 0);  // form space: the matrix scales
    std::tie(xs[2], ys[2]) = m.apply(0, badge.height_pt);
    std::tie(xs[3], ys[3]) = m.apply(badge.width_pt, badge.height_pt);
    rect[0] = *std::min_element(xs, xs + 4);
    rect[1] = *std::min_element(ys, ys + 4);
    rect[2] = *std::max_element(xs, xs + 4);
    rect[3] = *std::max_element(ys, ys + 4);
}

// The badge's link: a printed, borderless /URI link to the resolver over its box.
Dictionary badge_link(const double rect[4], const Ref& page, const Record& record, const std::string& url) {
    Dictionary link;
    pdf::put(link, "Type", Name("Annot"));
    pdf::put(link, "Subtype", Name("Link"));
    Array box;
    for (int i = 0; i < 4; ++i) pdf::append(box, Object(rect[i]));
    pdf::put(link, "Rect", box);
    Array border;
    for (int i = 0; i < 3; ++i) pdf::append(border, pdf::integer_value(0));
    pdf::put(link, "Border", border);
    pdf::put(link, "F", pdf::integer_value(4));  // Print
    pdf::put(link, "NM", pdf::text_value(pith_data::kBadgeAnnotationName));
    pdf::put(link, "P", page);
    pdf::put(link, "Contents", pdf::text_value("Pith number " + record.number.full() + ": open its registry record"));
    Dictionary action;
    pdf::put(action, "S", Name("URI"));
    pdf::put(action, "URI", pdf::text_value(url));
    pdf::put(link, "A", action);
    return link;
}

// The badge's page: the badge page index (0-based), checked, or nullopt with a warning when
// the document has no usable page tree.
std::optional<int> badge_page_index(pdf::File& file, const Options& options, Summary& summary) {
    const int count = file.page_count();
    if (count == 0) {  // qpdf and PoDoFo find no page either; some viewers guess pages by scanning
        summary.warnings.push_back("the document has no usable page tree: metadata embedded, no badge drawn");
        return std::nullopt;
    }
    const int index = target_page(file, options) - 1;
    if (index < 0 || index >= count)
        throw Error(file.name() + ": has " + std::to_string(count) + " pages; there is no page " + std::to_string(options.placement.page), err::options_invalid);
    return index;
}

void draw_badge(pdf::File& file, PageReadings& pages, pdf::Update& update, const Record& record, const Options& options,
                Summary& summary) {
    const std::optional<int> index = badge_page_index(file, options, summary);
    if (!index) return;
    pdf::Page page = file.page(*index);
    file.check_page(page);
    const std::string url = options.resolver + record.number.body;
    const pdf::Rect& crop = page.crop_box;
    bool sideways = page.rotate == 90 || page.rotate == 270;
    double view_w = sideways ? crop.height() : crop.width(), view_h = sideways ? crop.width() : crop.height();

    // Where the badge goes, from its size plain and boxed; then the badge itself.
    badge::Options look = options.badge, boxed = options.badge;
    boxed.style = "boxed";
    const Fit plain_fit = fit_badge(measure_badge(record.number.short_form(), url, look), view_w, view_h, options.placement);
    const Fit boxed_fit = look.style == "boxed" ? plain_fit
                                                : fit_badge(measure_badge(record.number.short_form(), url, boxed), view_w, view_h, options.placement);
    const Placement place = choose_spot(pages, *index, options, plain_fit, boxed_fit, view_w, view_h, summary);
    if (summary.where.boxed) look = boxed;
    const Fit& fit = summary.where.boxed ? boxed_fit : plain_fit;
    badge::Badge badge = badge::draw(update, record.number.short_form(), url, look);
    if (fit.scale < 1 || fit.margin_x < options.placement.margin_x || fit.margin_y < options.placement.margin_y)
        summary.warnings.push_back("page " + std::to_string(*index + 1) + " is small (" + fmt(view_w) + " x " + fmt(view_h) +
                                   " pt): badge margins reduced" + (fit.scale < 1 ? ", badge scaled to " + fmt(fit.scale * 100) + "%" : "") +
                                   (fit.scale < 1 && look.qr ? " (its QR code, " + fmt(fit.scale * look.qr_module_pt) + " pt a module, may not scan)" : ""));
    Matrix m = placement_matrix(crop, page.rotate, fit.w, fit.h, place);
    m.a *= fit.scale, m.b *= fit.scale, m.c *= fit.scale, m.d *= fit.scale;

    const Ref open_ref = update.add_stream(Dictionary(), pith_data::kBadgeOpen);
    const Ref close_ref =
        update.add_stream(Dictionary(), pith_data::kBadgeCloseHead + fmt(m.a) + " " + fmt(m.b) + " " + fmt(m.c) + " " +
                                            fmt(m.d) + " " + fmt(m.e) + " " + fmt(m.f) + pith_data::kBadgeCloseTail);
    Object page_object = file.get(page.ref);
    pdf::set_contents(page_object, contents_around(file, page_object, open_ref, close_ref));
    pdf::set_resources(page_object, resources_with(file, page, badge.xobject));
    badge_rect(m, badge, summary.rect);
    Array annots;
    if (const auto* existing = pdf::annotations(file, page_object))
        for (const auto& item : *existing)
            if (!pith_data::is_badge_annotation(file, item)) pdf::append(annots, item);
    pdf::append(annots, update.add(Object(badge_link(summary.rect, page.ref, record, url))));
    pdf::set_annotations(page_object, annots);
    update.replace(page.ref, page_object);
    summary.page = *index + 1;
}

// ---------------------------------------------------------------- what the PDF already shows

// A link's body names `body` when it is the body or a prefix of it (a short alias).
bool names(const std::string& link_body, const std::string& body) { return body.rfind(link_body, 0) == 0; }

// The Pith numbers the input already carries besides the record's: in its XMP and Info, and in
// resolver links on page 1 and the page of an earlier stamp's badge.
struct NumbersInInput {
    std::set<std::string> others;  // other numbers, as the PDF writes them
    bool other_in_link = false;    // one of them in a link pith stamp did not draw: shown on a page
    bool latex_badge = false;      // a link pith stamp did not draw names the record's number: pith.sty's badge
    int stamp_badge_page = 0;      // 1-based page of an earlier pith stamp's badge, 0 if none
};

NumbersInInput numbers_in_input(pdf::File& file, const PithNumber& number) {
    const pith_data::PithData e = pith_data::extract(file);
    NumbersInInput c;
    auto metadata = [&](const std::string& text) {
        std::string body = text;
        try {
            body = parse_number(text).body;
        } catch (const Error&) {
        }
        if (!text.empty() && body != number.body) c.others.insert(text);
    };
    if (const std::string n = xmp::get(e.xmp.pith, xmp::property::number); !n.empty()) metadata(n);
    if (auto it = e.info.find("PithNumber"); it != e.info.end()) metadata(it->second);
    for (const auto& link : e.links) {
        if (link.pith_badge) {
            c.stamp_badge_page = link.page;
            continue;
        }
        const std::string body = pith_data::body_of_link(link.uri);
        if (body.empty()) continue;
        if (names(body, number.body)) {
            c.latex_badge = true;
        } else {
            c.others.insert(body);
            c.other_in_link = true;
        }
    }
    return c;
}

// A paper must never show two Pith numbers. What an earlier pith stamp wrote, --replace
// replaces; a number on a page that pith did not draw (pith.sty's badge) cannot be taken back.
void refuse_other_number(const std::string& name, const NumbersInInput& c, const PithNumber& number,
                         bool stamped_before, bool replace) {
    if (c.others.empty() || (replace && !c.other_in_link)) return;
    const std::string other = *c.others.begin();
    if (c.other_in_link)
        throw Error(name + ": page 1 already shows Pith number " + other + " (a pith.sty badge or another tool's link), not the record's " +
                        number.full() + "; a paper must never show two different Pith numbers",
                    err::stamp_other_number);
    throw Error(name + ": " + (stamped_before ? "stamped earlier with" : "its metadata carries") + " Pith number " + other +
                    ", not the record's " + number.full() + "; a paper must never show two different Pith numbers (--replace replaces it)",
                err::stamp_other_number);
}

// The record's title against the title page (page 1, or the title block's page after front
// matter), judged by the judgement pith verify reports (page/title_judgement.hpp): a record that
// is not this paper's is refused before anything is written, and what verify would not confirm
// as the title is refused too, so that what stamp accepts, verify calls trusted. Returns where
// the title is (its page's 0-based index in `page`).
drawing::Area check_title(PageReadings& pages, pdf::File& file, const Record& record, Summary& summary) {
    const std::string plain = record.title.value_or(""), hash = record.title_hash.value_or("");
    Findings f;
    const page::title::TextJudgement t = page::title::judge_text(plain, hash, pages.title_pages(), f);
    if (t.ask) page::title::judge_pixels(t.words, pages.read_pixels(*t.ask), f);
    if (page::title::confirmed(f)) {
        summary.title = "shown";
        return drawing::title_area(t.block, file);
    }
    const std::string& name = file.name();
    const page::title::Shown shown = t.block.shown.shown;
    if (f.failure.empty()) {
        const std::string why = f.informational.empty() ? "it was not found" : f.informational.front().explanation;
        throw Error(name + ": the record's title cannot be checked: " + why +
                        " (--no-title-check stamps anyway; pith verify will then say unverified)",
                    err::stamp_title_unchecked);
    }
    std::string how = f.failure.front().explanation;
    if (shown == page::title::Shown::Differs && t.block.reading.page) {
        std::string shows = page::visible::visible_text(*t.block.reading.page);
        std::replace(shows.begin(), shows.end(), '\n', ' ');
        const std::string title = shortened(record.title.value_or("(known by its hash only)"), 80);
        how = "page 1 does not show the record's title \"" + title + "\" (it shows \"" + shortened(shows, 60) + "\")";
    }
    throw Error(name + ": " + how + "; is this the record of this paper? (--no-title-check stamps anyway)",
                err::stamp_title_not_shown);
}

// The pages verify reads (page 1, the title's, the badge's) must show alike in every common
// viewer, as verify holds them to: drawn only with what the closed list holds (the title and the
// badge kept clear), optional content whose state is not the viewer's choice, annotations every
// viewer reads alike, each object defined once.
void refuse_viewer_differences(pdf::File& file, const std::vector<drawing::Area>& kept, bool allow_unlisted) {
    if (allow_unlisted) return;
    std::set<int> pages{0};
    for (const drawing::Area& a : kept) pages.insert(a.page);
    std::vector<std::string> found;
    for (const drawing::ViewerDifference& d : drawing::viewer_differences(file, pages, kept))
        found.push_back(d.explanation);
    if (!found.empty())
        throw Error(file.name() + ": " + joined(found) +
                        "; pith verify could not say trusted (--allow-unlisted stamps anyway)",
                    err::stamp_construct_unlisted);
}

// What verify will hold the pages to: the record's title shown as the title (unless
// --no-title-check), and the pages it reads drawn only with what the closed list holds.
void check_pages(PageReadings& pages, pdf::File& file, const Record& record, const Options& options, Summary& summary) {
    const trace::Span span("stamp/pages");
    std::vector<drawing::Area> kept;
    if (options.check_title) kept.push_back(check_title(pages, file, record, summary));
    const double* r = summary.rect;
    if (summary.page > 0) kept.push_back({summary.page - 1, {r[0], r[1], r[2], r[3]}, "the badge"});
    refuse_viewer_differences(file, kept, options.allow_unlisted);
}

// What stamp refuses before it reads the PDF: a record that does not recompute (unless
// --allow-unverified) and option combinations that cannot be honoured.
void check_request(const Record& record, const Options& options, Summary& summary) {
    if (!record.consistent() && !options.allow_unverified)
        throw Error(record.source + ": the record's stated hash or number does not recompute (run `pith record " + record.source +
                    "`); refusing to stamp. --allow-unverified stamps anyway and marks the metadata unverified.", err::record_inconsistent);
    if (!record.consistent()) summary.warnings.push_back("stamping a record that does not recompute; marked pith:unverified");
    if (options.signer && options.rewrite) throw Error("--rewrite writes a new file without signatures: it cannot be combined with signing", err::options_invalid);
    if (options.certify && !options.signer) throw Error("--certify needs a signing key (--sign-cert and --sign-key, or --sign-p12)", err::options_invalid);
}

// Writes the result: a whole new file (--rewrite), or the kept bytes `prior` and pith's update,
// with the publisher's signature filled in; `out` already holds `prior`. The bytes added.
std::uint64_t write_result(const std::string& output, std::string_view prior, pdf::Update& update, const Dictionary& info,
                           const std::optional<sign::Placeholder>& signature, const Options& options, std::optional<AtomicFile>& out,
                           const std::string& name) {
    const trace::Span span("stamp/write");
    if (options.rewrite) {
        const std::string whole = pdf::rewrite_whole(std::string(prior) + update.appended(), name, options.password, info);
        write_file_atomically(output, {whole});
        return whole.size();
    }
    std::map<std::uint32_t, std::size_t> offsets;
    std::string tail = update.appended(&offsets);
    if (signature) sign::finish(prior, tail, offsets, *signature, *options.signer);
    if (output == "-") {
        write_file_atomically("-", {prior, tail});
    } else {
        out->write(tail);
        out->commit();
    }
    return tail.size();
}

}  // namespace

Corner parse_corner(const std::string& text) {
    const std::vector<std::string> names = options::choices_of(kCornerNames);
    const auto found = std::find(names.begin(), names.end(), text);
    if (found == names.end())
        throw Error("unknown corner \"" + text + "\": use " + kCornerNames, err::options_invalid);
    return static_cast<Corner>(found - names.begin());
}

std::string corner_name(Corner c) { return options::choices_of(kCornerNames).at(static_cast<std::size_t>(c)); }

namespace {

// Whether to draw a badge: not over pith.sty's own for this number (unless --badge-always), and
// only on the page of an earlier stamp's badge that later revisions keep.
bool badge_wanted(pdf::File& file, const std::optional<pith_data::PithUpdate>& previous, const NumbersInInput& in_input,
                  const Options& options, Summary& summary) {
    const bool badge = options.draw_badge && (!in_input.latex_badge || options.badge_always);
    summary.latex_badge = in_input.latex_badge && !badge;
    if (summary.latex_badge && options.draw_badge && options.badge.qr)  // asked for, and not done: said
        summary.warnings.push_back("the QR code asked for is not drawn: page 1 already shows pith.sty's badge for this number, which is "
                                   "kept (--badge-always draws pith's badge, with its QR code, as well)");
    if (badge && previous && !previous->newest && in_input.stamp_badge_page &&
        in_input.stamp_badge_page != target_page(file, options))
        throw Error(file.name() + ": revisions were added after an earlier pith stamp whose badge is on page " +
                        std::to_string(in_input.stamp_badge_page) + "; stamp on that page (--page " +
                        std::to_string(in_input.stamp_badge_page) + ") so that it replaces the old badge",
                    err::stamp_badge_elsewhere);
    return badge;
}

// Page 1 for the title check, the badge's page for its placement.
void start_readings(PageReadings& pages, pdf::File& file, const Options& options, bool badge, bool has_title, Summary& summary) {
    if (options.check_title && file.page_count() == 0)  // pith verify could not say trusted either
        throw Error(file.name() + ": the record's title cannot be checked: the document has no page to show it (--no-title-check "
                                  "stamps the metadata anyway; pith verify will then say unverified)", err::stamp_title_unchecked);
    if (options.check_title) {
        pages.start(0, page::visible::Look::Rendered);
        if (has_title) pages.start_pixels();
    } else {
        summary.title = "not checked (--no-title-check)";
    }
    const int badge_page = target_page(file, options);
    if (badge && badge_page >= 1 && badge_page <= file.page_count())
        pages.start(badge_page - 1, page::visible::Look::Ink);
}

// Replacing an earlier stamp cuts the file back to the bytes before it (`kept`): a signature made
// over that stamp (pith stamp --sign-*) goes with it. Never silently: refused, or with
// --drop-signatures done and reported among the warnings.
void refuse_dropping_signatures(pdf::File& file, pdf::File& kept, const Options& options, Summary& summary) {
    std::vector<std::string> lost = sign::signatures(file);
    for (const std::string& stays : sign::signatures(kept))
        if (auto it = std::find(lost.begin(), lost.end(), stays); it != lost.end()) lost.erase(it);
    if (lost.empty()) return;
    std::string what = std::to_string(lost.size()) + (lost.size() == 1 ? " signature" : " signatures") + " made over it (";
    for (std::size_t i = 0; i < lost.size(); ++i) what += (i ? ", " : "") + lost[i];
    what += ")";
    if (options.drop_signatures) {
        summary.warnings.push_back("replaced the earlier pith stamp and dropped " + what + " (--drop-signatures)");
        return;
    }
    throw Error(file.name() + ": stamping again replaces the earlier pith stamp and drops " + what +
                    "; --drop-signatures replaces it anyway",
                err::stamp_drops_signatures);
}

// pith:priorSha256: the hash of the bytes kept as they stand in the output (`copied`), which
// must be the bytes parsed; without a copy (a copy of this process's own, or a failed write,
// which the commit reports), of `prior` itself.
std::string prior_digest(std::string_view prior, PrefixSha256* copied, const std::string& name) {
    if (!copied) return to_hex(sha256(prior));
    const Sha256 digest = copied->digest(std::min<std::uint64_t>(prior.size(), copied->bytes().size()));
    if (copied->bytes() != prior)
        throw Error(name + ": changed while pith was stamping it; nothing written (stamp it again)", err::input_changed);
    return to_hex(digest);
}

// The publisher's signature: in this same update, over every byte of the result.
std::optional<sign::Placeholder> prepare_signature(pdf::File& file, pdf::Update& update, const Options& options, Summary& summary) {
    if (!options.signer) return std::nullopt;
    std::optional<Ref> page;
    if (summary.page > 0) page = file.page(summary.page - 1).ref;
    summary.signed_by = options.signer->subject();
    return sign::prepare(file, update, page ? &*page : nullptr, *options.signer, options.certify);
}

}  // namespace

Summary stamp_file(const std::string& input, const std::string& output, const Record& record, const Options& options) {
    const trace::Span span("stamp", input);
    Summary summary;
    summary.number = record.number.full();
    check_request(record, options, summary);

    // A file input is mapped (not read) when the output is a file: the kernel copies its bytes
    // to the output, and pith:priorSha256 is the hash of the bytes there, compared with the bytes
    // parsed, so it describes exactly what was written even if the input changes meanwhile.
    const pdf::OpenOptions open{options.password, !options.password.empty()};
    std::optional<InputFile> in;
    if (input != "-" && output != "-" && !options.rewrite) in.emplace(input);
    pdf::File file = in ? pdf::File::open(in->fd(), input, open)
                        : pdf::File::from_bytes(read_file_or_stdin(input, std::size_t{4} << 30), input == "-" ? "standard input" : input, open);
    const auto previous = pith_data::find_pith_update(file);
    const NumbersInInput in_input = numbers_in_input(file, record.number);
    refuse_other_number(file.name(), in_input, record.number, previous.has_value(), options.replace);
    if (previous && previous->newest) {  // replace it rather than stack another
        pdf::File kept = pdf::File::from_bytes(std::string(file.bytes().substr(0, previous->prior_length)), file.name(), open);
        refuse_dropping_signatures(file, kept, options, summary);
        file = std::move(kept);
        summary.replaced_previous = true;
    }
    refuse_certified(file, options.force);
    // Most damage shows on opening: refused before the copy and the badge.
    pith_data::refuse_damaged(file, options.allow_damaged, "stamp");
    const bool badge = badge_wanted(file, previous, in_input, options, summary);
    // poppler reads page 1 and the badge's page in a child while the update is made.
    PageReadings pages(file, options.password);
    start_readings(pages, file, options, badge, record.title && !record.title->empty(), summary);

    std::string_view prior = file.bytes();
    std::optional<AtomicFile> out;
    std::optional<PrefixSha256> copied;  // the bytes kept, as they stand in the output; hashed on another core
    if (!options.rewrite && output != "-") {
        out.emplace(output);
        const bool whole_input = in && !summary.replaced_previous;
        if (!whole_input || !out->copy_from(*in, prior.size())) out->write(prior);
        if (in && out->good()) copied.emplace(out->fd());
    }
    pdf::Update update(file);
    if (!options.rewrite) update.set_comment(pith_data::kUpdateMarker + " prior=" + std::to_string(prior.size()));
    // A cross-reference table pith had to rebuild is written out in full, so every reader
    // sees the objects pith saw instead of repairing the file its own way.
    update.set_repair(file.reconstructed());
    Dictionary info = write_info(file, update, record.number.full());
    if (badge) draw_badge(file, pages, update, record, options, summary);
    const std::string prior_sha256 = options.rewrite ? "" : prior_digest(prior, copied ? &*copied : nullptr, file.name());
    write_metadata(file, update, properties_for(record, options, prior.size(), prior_sha256, summary));
    pith_data::refuse_damaged(file, options.allow_damaged, "stamp");  // and some while reading the page drawn on
    const std::optional<sign::Placeholder> signature = prepare_signature(file, update, options, summary);
    if (!file.defects().empty())
        summary.warnings.push_back(pdf::damage_message(file) + "; stamped because of --allow-damaged");

    if (file.page_count() > 0) check_pages(pages, file, record, options, summary);

    summary.prior_length = options.rewrite ? 0 : prior.size();
    summary.added = write_result(output, prior, update, info, signature, options, out, file.name());
    return summary;
}

}  // namespace pith::stamp
