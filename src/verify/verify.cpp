// SPDX-License-Identifier: MIT
#include "verify/verify.hpp"

#include "badge/redraw.hpp"
#include "core/cpus.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/number.hpp"
#include "core/sanitizer.hpp"
#include "core/trace.hpp"
#include "core/unicode.hpp"
#include "drawing/closed_list.hpp"
#include "drawing/viewers.hpp"
#include "pith_data/pith_data.hpp"
#include "page/pixels.hpp"
#include "page/title.hpp"
#include "page/title_judgement.hpp"
#include "page/visible.hpp"
#include "pdf/file.hpp"
#include "pdf/objects.hpp"
#include "verify/changes.hpp"
#include "verify/rewritten.hpp"
#include "verify/signatures.hpp"
#include "xmp/xmp.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string_view>

namespace pith::verify {
namespace {

using pith_data::body_of_link;
using pith_data::Link;
using pith_data::PithData;

pdf::OpenOptions open_options(const std::string& password) { return pdf::OpenOptions{password, !password.empty()}; }

std::optional<PithNumber> try_number(const std::string& text) {
    if (text.empty()) return std::nullopt;
    try {
        return parse_number(text);
    } catch (const Error&) {
        return std::nullopt;
    }
}

}  // namespace

const char* to_string(State state) {
    switch (state) {
        case State::Trusted: return "trusted";
        case State::Unverified: return "unverified";
        case State::Invalid: return "invalid";
        case State::Absent: return "absent";
    }
    return "?";
}

Json Report::to_json() const {
    Json j = {{"file", file}, {"state", to_string(state)}, {"number", number.empty() ? Json(nullptr) : Json(number)}};
    j.update(findings.to_json());
    Json regions = Json::array();
    for (const Region& r : findings.regions)
        regions.push_back({{"page", r.page},
                           {"x0", r.x0},
                           {"y0", r.y0},
                           {"x1", r.x1},
                           {"y1", r.y1},
                           {"kind", to_string(r.kind)},
                           {"outcome", to_string(r.outcome)},
                           {"label", r.label}});
    j["regions"] = std::move(regions);
    return j;
}

Json unreadable_to_json(const std::string& file, const Error& error) {
    Report report;
    report.file = file;
    Json j = report.to_json();
    j["state"] = "unreadable";
    j["error"] = error.what();
    j["error_code"] = error.code();
    return j;
}

namespace {

// What a page's text says of the badge: it shows pith:<the number's first 8 letters>, another
// Pith number (with or without that one), or none.
enum class BadgeText { Shown, Other, None };

// The badge shows "pith:" and, after any white space, 8 upper-case base32 letters. Another
// number anywhere on the page wins: a paper must never show two.
BadgeText badge_text(const std::string& page_text, const PithNumber& number) {
    bool shown = false, other = false;
    for (std::size_t at = page_text.find("pith:"); at != std::string::npos; at = page_text.find("pith:", at + 1)) {
        std::size_t p = at + 5;
        while (p < page_text.size() && (page_text[p] == ' ' || (page_text[p] >= '\t' && page_text[p] <= '\r'))) ++p;
        if (p + 8 > page_text.size() ||
            !std::all_of(page_text.begin() + p, page_text.begin() + p + 8, [](char c) { return is_base32_letter(c, false); }))
            continue;
        if (page_text.compare(p, 8, number.body, 0, 8) == 0) shown = true;
        else other = true;
    }
    return other ? BadgeText::Other : shown ? BadgeText::Shown : BadgeText::None;
}

// The host a link goes to, for a picture's label: "example.org", "(no address)".
std::string host_of(const std::string& uri) {
    const std::size_t scheme = uri.find("://");
    const std::size_t start = scheme == std::string::npos ? 0 : scheme + 3;
    const std::string host = uri.substr(start, uri.find_first_of("/?#", start) - start);
    return host.empty() ? "(no address)" : host;
}

// Records where a check looked (page 1-based; `r` in default user space, either corner order).
void mark(Findings& f, int page, const pdf::Rect& r, RegionKind kind, RegionOutcome outcome, std::string label) {
    f.regions.push_back({page, std::min(r.llx, r.urx), std::min(r.lly, r.ury), std::max(r.llx, r.urx),
                         std::max(r.lly, r.ury), kind, outcome, std::move(label)});
}

void check_link_overlap(pdf::File& file, const Baseline& baseline, Findings& f);

// The number as embedded, and whether the metadata reads one way only.
std::optional<PithNumber> check_number(const PithData& e, Report& report) {
    Findings& f = report.findings;
    const auto& p = e.xmp.pith;
    const std::string xmp_text = xmp::get(p, xmp::property::number);
    std::optional<PithNumber> xmp_number = try_number(xmp_text);
    std::optional<PithNumber> info_number = try_number(e.info.count("PithNumber") ? e.info.at("PithNumber") : "");
    if (!xmp_text.empty() && !xmp_number) f.fail(finding::pith_metadata_malformed, "XMP pith:number \"" + xmp_text + "\" is not a Pith number");
    if (!e.xmp.ambiguities.empty())
        f.fail(finding::pith_metadata_ambiguous, "the XMP metadata can be read more than one way, so other readers may see other values: " +
                                              joined(e.xmp.ambiguities));
    std::optional<PithNumber> number = xmp_number ? xmp_number : info_number;
    if (!number) {
        f.fail(finding::pith_metadata_malformed, "the pith metadata holds no readable Pith number");
        return std::nullopt;
    }
    report.number = number->is_full() ? number->full() : number->short_form(number->body.size());
    f.ok(finding::pith_metadata_present, std::string("pith metadata found (") + (xmp_number ? "XMP" : "") +
                                      (xmp_number && info_number ? " and " : "") + (info_number ? "Info" : "") + ")");
    return number;
}

// 2-3. The record, its hash and the number derived from them.
struct RecordData {
    std::optional<Record> record;
    std::optional<Sha256> hash;
};

RecordData check_record_data(const xmp::Properties& p, const PithNumber& number, const std::string& shown, Findings& f) {
    RecordData r;
    if (!xmp::get(p, xmp::property::canonicalRecord).empty()) {
        try {
            r.record = read_record(xmp::get(p, xmp::property::canonicalRecord), "embedded canonical record");
        } catch (const Error& err) {
            f.fail(finding::pith_record_malformed, err.what());
        }
    }
    if (r.record) {
        r.hash = r.record->canonical_hash;
        const std::string stated = xmp::get(p, xmp::property::canonicalSha256);
        if (stated.empty())
            f.info(finding::pith_hash_not_stated, "no pith:canonicalSha256 embedded; recomputed " + to_hex(*r.hash));
        else if (stated == to_hex(*r.hash))
            f.ok(finding::pith_hash_match, "canonical hash " + stated + " recomputes from the embedded canonical record");
        else
            f.fail(finding::pith_hash_mismatch, "embedded canonical hash " + stated + " differs from the recomputed " + to_hex(*r.hash));
        if (r.record->number.body == number.body && (number.year == 0 || number.year == r.record->number.year))
            f.ok(finding::pith_number_match, "Pith number " + r.record->number.full() + " derives from the embedded record");
        else
            f.fail(finding::pith_number_mismatch, "embedded number " + shown + " differs from " + r.record->number.full() + ", derived from the embedded record");
        return r;
    }
    // Without the record there is no signed title to bind the paper to: never trusted.
    if (auto stated = sha256_from_hex(xmp::get(p, xmp::property::canonicalSha256))) {
        r.hash = *stated;
        f.info(finding::pith_record_absent, "no canonical record embedded: the hash cannot be recomputed and the paper's title cannot be checked");
        if (number_from_hash(*stated, number.year).body.substr(0, number.body.size()) == number.body)
            f.ok(finding::pith_number_match, "Pith number " + shown + " derives from the embedded canonical hash");
        else
            f.fail(finding::pith_number_mismatch, "embedded number " + shown + " does not derive from the embedded canonical hash");
    } else {  // pith.sty's one-line \pithnumber: say what makes the PDF checkable
        f.info(finding::pith_record_number_only,
               "only the number is embedded (a one-line \\pithnumber): no record to check it, a receipt or the title against; "
               "run `pith tex --number " + shown + " > pith-number.tex`, put \\input{pith-number} in place of the \\pithnumber "
               "line and compile again (or check the registry's record: pith verify --online)");
    }
    return r;
}

// The receipt. A key that is revoked, or outside its validity now, makes it at most
// unverified: the receipt's signed_at is not signed, so it cannot show the signature is older.
bool check_receipt_data(const xmp::Properties& p, const std::optional<Sha256>& hash, const Keyring& keyring, Findings& f) {
    const std::optional<Receipt> receipt = xmp::receipt_of(p);
    bool valid = false;
    if (receipt && hash) {
        ReceiptCheck check = check_receipt(receipt, *hash, keyring, now_rfc3339());
        const Code code = receipt_code(check.status);
        if (check.status == ReceiptStatus::Valid) {
            valid = true;
            f.ok(code, check.explanation);
        } else if (check.status == ReceiptStatus::KeyUnknown || check.status == ReceiptStatus::KeyRevoked ||
                   check.status == ReceiptStatus::KeyOutsideValidity) {
            f.info(code, check.explanation);
        } else {
            f.fail(code, check.explanation);
        }
    } else {
        f.info(finding::receipt_absent,
               !receipt ? "no receipt embedded" : "a receipt is embedded but no hash to check it against");
    }
    for (const auto& w : keyring.warnings) f.info(finding::keyring_entry_refused, w);
    return valid;
}

// Info, XMP and links name one number; every pith link is a plain link to the resolver.
void check_links(pdf::File& file, const PithData& e, const PithNumber& number, const std::string& shown,
                 const Baseline& baseline, const std::string& resolver, Findings& f) {
    std::vector<std::string> disagreements, unsafe, elsewhere;
    const auto xmp_number = try_number(xmp::get(e.xmp.pith, xmp::property::number));
    const auto info_number = try_number(e.info.count("PithNumber") ? e.info.at("PithNumber") : "");
    if (xmp_number && info_number && info_number->body != xmp_number->body)
        disagreements.push_back("Info /PithNumber is " + e.info.at("PithNumber"));
    for (const auto& link : e.links) {
        const std::string body = body_of_link(link.uri), where = "the link on page " + std::to_string(link.page);
        const std::size_t problems = disagreements.size() + unsafe.size() + elsewhere.size();
        if (body.empty() || number.body.compare(0, body.size(), body) != 0 || body.size() > number.body.size())
            disagreements.push_back(where + " points to " + (link.uri.empty() ? "nothing" : link.uri));
        if (link.action != "URI" || link.chained)
            unsafe.push_back(where + " runs a /" + (link.action.empty() ? "?" : link.action) + " action" + (link.chained ? " with more chained after it (/Next)" : ""));
        else if (!body.empty() && link.uri.rfind(resolver, 0) != 0)
            elsewhere.push_back(where + " goes to " + link.uri);
        const bool bad = disagreements.size() + unsafe.size() + elsewhere.size() > problems;
        mark(f, link.page, {link.rect[0], link.rect[1], link.rect[2], link.rect[3]}, RegionKind::Link,
             bad ? RegionOutcome::Fail : RegionOutcome::Ok,
             (link.pith_badge ? "badge link to " : "link to ") + host_of(link.uri));
    }
    if (!disagreements.empty()) f.fail(finding::pith_links_mismatch, "not everything names " + shown + ": " + joined(disagreements));
    if (!unsafe.empty()) f.fail(finding::pith_link_action, "a pith link must only open the resolver: " + joined(unsafe));
    if (!elsewhere.empty()) f.fail(finding::pith_link_host, "a pith link must go to " + resolver + ": " + joined(elsewhere));
    if (disagreements.empty() && unsafe.empty() && elsewhere.empty()) {
        if (!e.links.empty())
            f.ok(finding::pith_links_match, "the metadata and " + std::to_string(e.links.size()) + " link" + (e.links.size() == 1 ? "" : "s") +
                                         " to " + resolver + " name the same number");
        else
            f.info(finding::pith_links_absent, "no link to the Pith resolver found on page 1 or the badge's page");
    }
    check_link_overlap(file, baseline, f);
}

// Another link over the badge takes the reader elsewhere when they click it. A link the
// paper had before the stamp lies under it (pith's link comes after it in /Annots, and
// viewers give the click to the last): the publisher stamped there, nobody added it.
void check_link_overlap(pdf::File& file, const Baseline& baseline, Findings& f) {
    if (!baseline.badge_drawn || baseline.badge_page >= file.page_count()) return;
    const auto* annots = pdf::annotations(file, file.get(file.page(baseline.badge_page).ref));
    if (!annots) return;
    bool under_badge = true;  // before pith's link in /Annots
    std::size_t older = 0;
    for (const auto& item : *annots) {
        if (pdf::is_reference(item) && pdf::reference_of(item) == baseline.badge_link) {
            under_badge = false;
            continue;
        }
        const auto& a = file.resolve(item);
        if (!pdf::is_dictionary(a) || pdf::subtype_of(file, a) != "Link" || pith_data::is_badge_annotation(file, a))
            continue;
        pdf::Rect r;
        if (!pdf::annotation_rect(file, a, r) || !pdf::overlaps(r, baseline.badge_rect)) continue;
        const auto& before = baseline.annots_before;
        const auto* action = pdf::dictionary_entry(file, a, "A");
        const std::string host = host_of(action ? pdf::text_entry(file, *action, "URI") : "");
        if (under_badge && pdf::is_reference(item) &&
            std::find(before.begin(), before.end(), pdf::reference_of(item)) != before.end()) {
            ++older;
            mark(f, baseline.badge_page + 1, r, RegionKind::Link, RegionOutcome::Info,
                 "older link under the badge to " + host);
            continue;
        }
        mark(f, baseline.badge_page + 1, r, RegionKind::Link, RegionOutcome::Fail, "link over the badge to " + host);
        f.fail(finding::pith_link_overlap, "another link lies over the badge on page " + std::to_string(baseline.badge_page + 1));
        return;
    }
    if (older)
        f.info(finding::pith_link_under_badge, std::to_string(older) + " link" + (older == 1 ? "" : "s") + " the paper had before the stamp " +
                                            (older == 1 ? "lies" : "lie") + " under the badge on page " + std::to_string(baseline.badge_page + 1) +
                                            " (pith's link is above " + (older == 1 ? "it" : "them") + ")");
}

// A page with text a reader cannot see (a scan's text layer) would fill a picture: the first ones.
constexpr std::size_t kMaxHiddenRegions = 100;

// The words of a page pith read that a reader cannot see; a run of them on a line, hidden for
// the same reason, is one region.
void mark_hidden(const page::visible::Page& page, const pdf::Page& geometry, int page_number, Findings& f) {
    std::size_t marked = 0;
    for (std::size_t i = 0; i < page.words.size() && marked < kMaxHiddenRegions; ++i) {
        const page::visible::Word& w = page.words[i];
        if (w.visible) continue;
        ++marked;
        std::size_t last = i;
        while (!page.words[last].line_end && last + 1 < page.words.size() && !page.words[last + 1].visible &&
               page.words[last + 1].hidden_why == w.hidden_why)
            ++last;
        mark(f, page_number, drawing::words_area(page.words, {i, last}, geometry), RegionKind::Hidden,
             RegionOutcome::Info, "unseen: " + w.hidden_why);
        i = last;
    }
}

// pith stamp's badge, judged by every check of it: drawn as pith draws it, its text visible,
// no link over it.
void mark_badge(const Baseline& b, Findings& f) {
    if (!b.badge_drawn) return;
    const bool failed = std::any_of(f.failure.begin(), f.failure.end(), [](const Finding& x) {
        return family::pith_badge.holds(x.code) || x.code == finding::pith_link_overlap;
    });
    const bool shown = std::any_of(f.success.begin(), f.success.end(), [](const Finding& x) { return x.code == finding::pith_badge_text_match; });
    mark(f, b.badge_page + 1, b.badge_rect, RegionKind::Badge,
         failed  ? RegionOutcome::Fail
         : shown ? RegionOutcome::Ok
                 : RegionOutcome::Info,
         "badge");
}

struct TitleCheck {
    int page = 0;                   // 0-based: the title block's page
    std::optional<pdf::Rect> area;  // where that page shows it, when the record gives the plain title
    page::pixels::TitleWords words;                // the title as the text layer shows it
    std::optional<page::pixels::Request> ask;      // the reading from pixels that can still make it trusted
    std::unique_ptr<page::pixels::Reader> pixels;  // that reading, once asked
};

// The title read from pixels must agree with the text layer's (doc/visible.md, "The title
// from pixels"). Read only where the verdict can still be trusted: it is the costliest check.
void check_title_pixels(TitleCheck& title, Findings& f) {
    if (!title.pixels) return;
    if (!f.failure.empty()) return title.pixels.reset();  // invalid already: not worth its cost
    const page::pixels::Verdict v = page::title::judge_pixels(title.words, title.pixels->collect(), f).verdict;
    for (Region& r : f.regions)  // the title's region says what the pixels made of it
        if (r.kind == RegionKind::Title)
            r.outcome = v == page::pixels::Verdict::Agrees       ? RegionOutcome::Ok
                        : v == page::pixels::Verdict::Unverified ? RegionOutcome::Info
                                                           : RegionOutcome::Fail;
}

// The record's title against what the title block's page shows a reader (page 1, or after
// front matter): text nobody sees never binds.
TitleCheck check_title(pdf::File& file, const std::string& plain, const std::string& hash, page::visible::Reading page1,
                       const Options& options, Findings& f) {
    const trace::Span span("verify/title_text");
    const auto read = [&](int i) {
        if (i == 0) return std::move(page1);
        file.preflight_page(file.page(i));  // what poppler is asked to read fits the budget (doc/limits.md)
        return page::visible::ChildReader(file.bytes(), i, options.password).collect();
    };
    page::title::TextJudgement judged =
        page::title::judge_text(plain, hash, {read, file.bytes(), options.password, file.page_count()}, f);
    const page::title::TitleBlock& block = judged.block;
    TitleCheck out{block.index, std::nullopt, std::move(judged.words), std::nullopt, nullptr};
    if (!block.reading.page) return out;
    const pdf::Page geometry = file.page(block.index);
    const auto& words = block.reading.page->words;
    mark_hidden(*block.reading.page, geometry, block.index + 1, f);
    const page::title::OnPage& t = block.shown;
    if (t.elsewhere)
        mark(f, block.index + 1, drawing::words_area(words, *t.elsewhere, geometry), RegionKind::Title,
             RegionOutcome::Fail, "the record's title, not set as one");
    if (t.span) {
        out.area = drawing::title_area(block, file).rect;
        mark(f, block.index + 1, *out.area, RegionKind::Title, RegionOutcome::Ok, "title");
        if (f.failure.empty()) out.ask = std::move(judged.ask);
    }
    return out;
}

// The badge pith stamp drew is exactly what it draws for this number, with the options it
// recorded (pith:badge): drawn again and compared object by object.
void check_badge_drawing(pdf::File& file, const PithData& e, const PithNumber& number, const Baseline& b,
                         const std::string& recorded, Findings& f) {
    const std::optional<badge::Options> options = badge::options_from(recorded);
    if (!options)
        return f.info(finding::pith_badge_drawing_unchecked, recorded.empty() ? "the metadata does not say how the badge was drawn (pith:badge): "
                                                                         "it cannot be drawn again to compare"
                                                                       : "pith:badge is not a description pith stamp writes: the badge "
                                                                         "cannot be drawn again to compare");
    std::string url;
    for (const auto& l : e.links)
        if (l.pith_badge) url = l.uri;
    const std::string why = badge::redraw_differs(file, b.badge_xobject, number.short_form(), url, *options);
    if (why.empty())
        f.ok(finding::pith_badge_drawing_match, "the badge is exactly what pith stamp draws for " + number.short_form());
    else
        f.fail(finding::pith_badge_drawing_mismatch, "the badge is not what pith stamp draws for " + number.short_form() + ": " + why);
}

// The badge text a reader sees on the badge's page: the number's first 8 letters, and no
// other Pith number.
void check_badge_text(const PithData& e, const PithNumber& number, const Baseline& baseline,
                      const std::optional<page::visible::Page>& page, Findings& f) {
    const BadgeText badge = badge_text(page ? page::visible::visible_text(*page) : "", number);
    const std::string expected = "pith:" + number.body.substr(0, 8), where = "page " + std::to_string(e.badge_page);
    const bool hidden =
        badge == BadgeText::None && page && badge_text(page::visible::all_text(*page), number) == BadgeText::Shown;
    if (badge == BadgeText::Shown)
        f.ok(finding::pith_badge_text_match, where + " shows " + expected);
    else if (badge == BadgeText::Other)
        f.fail(finding::pith_badge_text_mismatch, where + " shows a different Pith number than " + expected);
    else if (hidden && !baseline.badge_drawn)  // drawn to be unseen
        f.fail(finding::pith_badge_hidden, "the badge's text " + expected + " is on " + where + " only where a reader cannot see it (" +
                                        page::visible::hidden_reasons(*page) + ")");
    else  // none, or pith stamp's own badge, unchanged, hidden by its page (too small, content left open)
        f.info(finding::pith_badge_text_absent,
               "no visible badge text " + expected + " found on " + where +
                   (hidden ? " (pith stamp drew it, but it is " + page::visible::hidden_reasons(*page) + ")" : ""));
}

// The reasons a report without failures is not trusted: every check must have been made.
std::vector<std::string> missing_evidence(const Findings& f, bool receipt_valid, bool badge_expected, bool unverified_record) {
    auto listed = [](const std::vector<Finding>& section, Code code) {
        return std::any_of(section.begin(), section.end(), [&](const Finding& x) { return x.code == code; });
    };
    auto has = [&](Code code) { return listed(f.success, code); };
    std::vector<std::string> missing;
    if (!receipt_valid) missing.push_back("no valid receipt under a trusted key");
    if (listed(f.informational, finding::pith_record_absent) || listed(f.informational, finding::pith_record_number_only))
        missing.push_back("no canonical record to recompute the hash from");
    if (!has(finding::pith_title_match)) missing.push_back("the record's title was not found set as the title on page 1 (or after front matter)");
    else if (!has(finding::pith_title_pixels_match)) missing.push_back("the pixels did not confirm the title the text layer shows");
    if (badge_expected && !has(finding::pith_badge_text_match)) missing.push_back("the badge is not visible");
    if (listed(f.informational, finding::pith_badge_drawing_unchecked)) missing.push_back("the badge could not be drawn again to compare");
    if (listed(f.informational, finding::pith_rewritten)) missing.push_back("the file was rewritten after stamping: what changed since cannot be checked");
    else if (!has(finding::pith_update_match) && !has(finding::pith_update_none)) missing.push_back("the stamp could not be checked");
    if (unverified_record) missing.push_back("the record was stamped with --allow-unverified");
    return missing;
}

// What page 1 and the badge's page show a reader (the badge text, the title): poppler lays them
// out and renders them in children that work while the receipt, the links, the stamp and what
// changed after it are checked. Where the record has a
// title, the child that will read it from pixels starts too, loading Tesseract meanwhile.
struct Readers {
    std::optional<page::visible::ChildReader> page1, badge_page;
    std::unique_ptr<page::pixels::Reader> title_pixels;
};

void start_readers(pdf::File& file, const PithData& e, bool has_title, const Options& options, Readers& readers,
                   Findings& f) {
    if (!options.render)
        return f.info(finding::pith_text_skipped, "the pages were not rendered (a stamper's check of its own output): title and badge not checked");
    if (file.page_count() == 0) return;  // without pages there is nothing for poppler to read either
    // What the children are asked must fit the file's budget too (pdf.too_large stops them).
    file.preflight_page(file.page(0));
    if (e.badge_page != 1) file.preflight_page(file.page(e.badge_page - 1));
    readers.page1.emplace(file.bytes(), 0, options.password);
    if (e.badge_page != 1) readers.badge_page.emplace(file.bytes(), e.badge_page - 1, options.password);
    if (has_title && f.failure.empty())  // an invalid file's title is not read from pixels (check_title_pixels)
        readers.title_pixels = std::make_unique<page::pixels::Reader>(file.bytes(), options.password);
}

// The pages' readings; a file that defeats the text checks is not given their benefit.
std::pair<page::visible::Reading, page::visible::Reading> collect_readers(Readers& readers, Findings& f) {
    page::visible::Reading page1, badge_page;
    if (readers.page1) page1 = readers.page1->collect();
    if (readers.badge_page) badge_page = readers.badge_page->collect();
    if (page1.failed || badge_page.failed)
        f.fail(finding::pith_text_failed, "the page text could not be extracted (" + (page1.failed ? page1.why : badge_page.why) +
                                       "), so the checks that need it cannot be made");
    return {std::move(page1), std::move(badge_page)};
}

// The bytes before pith's update: their length as recorded, when it is. A file rewritten
// since (rewritten.hpp) has none to check: `rewritten` holds its badge then.
std::optional<std::uint64_t> check_prior(pdf::File& file, const xmp::Properties& p, PrefixSha256& prefix_hash,
                                         std::optional<Baseline>& rewritten, Findings& f) {
    const std::string length = xmp::get(p, xmp::property::priorLength);
    if (length.empty()) return std::nullopt;
    const std::uint64_t prior = std::strtoull(length.c_str(), nullptr, 10);
    if (prior <= file.bytes().size() && to_hex(prefix_hash.digest(prior)) == xmp::get(p, xmp::property::priorSha256)) {
        f.ok(finding::pith_prior_match, "the " + length + " bytes pith stamped onto are unchanged");
    } else if ((rewritten = rewritten_since_stamp(file, prior, !xmp::get(p, xmp::property::badge).empty()))) {
        f.info(finding::pith_rewritten, "the file was rewritten after stamping (the " + length + " bytes pith stamped onto no longer start it "
                                 "and pith's update is gone), so what changed since cannot be checked");
        return std::nullopt;
    } else {
        f.fail(finding::pith_prior_mismatch, "the " + length + " bytes pith stamped onto are no longer the start of the file");
    }
    return prior;
}

// The areas no change after the stamp may cover: the badge (pith stamp's, or pith.sty's
// links) and the title.
std::vector<Area> keep_clear(const PithData& e, const Baseline& baseline, const TitleCheck& title) {
    std::vector<Area> areas;
    if (baseline.badge_drawn) areas.push_back({baseline.badge_page, baseline.badge_rect, "the badge"});
    else
        for (const auto& l : e.links) areas.push_back({l.page - 1, {l.rect[0], l.rect[1], l.rect[2], l.rect[3]}, "the badge"});
    if (title.area) areas.push_back({title.page, *title.area, "the title"});
    return areas;
}

// The record the reader fetched.
void check_expected(const Options& options, const RecordData& data, const PithNumber& number, Findings& f) {
    if (!options.expected) return;
    const auto& record = data.record;
    const std::string what = record ? "record" : "number";
    if (record ? record->canonical_bytes == options.expected->canonical_bytes : options.expected->number.body == number.body)
        f.ok(finding::pith_record_expected_match, "the embedded " + what + " equals " + options.expected->source);
    else
        f.fail(finding::pith_record_expected_mismatch, "the embedded " + what + " differs from " + options.expected->source);
}

// No metadata at all: absent, or invalid where a badge links to the resolver.
void judge_without_metadata(const PithData& e, Report& report) {
    Findings& f = report.findings;
    if (!e.links.empty()) {
        f.fail(finding::pith_metadata_absent, "a Pith badge links to " + e.links.front().uri + " but the PDF carries no pith metadata");
        report.state = State::Invalid;
    } else {
        f.info(finding::pith_metadata_absent, "no pith metadata (XMP or Info) and no Pith badge link");
        report.state = f.failure.empty() ? State::Absent : State::Invalid;
    }
}

// Invalid on any failure; trusted only when every check was made; else unverified, saying why.
void decide(Report& report, const std::vector<std::string>& missing) {
    Findings& f = report.findings;
    if (!f.failure.empty()) {
        report.state = State::Invalid;
    } else if (missing.empty()) {
        report.state = State::Trusted;
    } else {
        report.state = State::Unverified;
        f.info(finding::pith_evidence_missing, "not trusted: " + joined(missing));
    }
}

// No pith metadata, yet a page links to the resolver, and pith's update is not there to have
// lost it (a converter such as Ghostscript's pdfwrite drops the XMP and keeps the page). The number
// the link names is all the file says; the record the reader fetched (--online) or gave (--record)
// is checked as if it were embedded: hash, number, receipt, then its title and number against the
// page. Unverified at best: the file's own evidence is gone.
void judge_badge_only(pdf::File& file, const PithData& e, const Keyring& keyring, const Options& options,
                      Report& report) {
    Findings& f = report.findings;
    const auto named = std::find_if(e.links.begin(), e.links.end(), [](const Link& l) { return !body_of_link(l.uri).empty(); });
    const std::string body = named == e.links.end() ? "" : body_of_link(named->uri);
    const std::string shown = body.size() == 26 ? body : "pith:" + body;
    f.info(finding::pith_badge_only, "page " + std::to_string(e.badge_page) + " links to the Pith number " + (body.empty() ? "(none)" : shown) +
                                  " but the PDF carries no pith metadata (a converter such as Ghostscript's pdfwrite drops it)");
    if (!options.expected) {
        report.number = body.empty() ? "" : shown;
        report.state = body.empty() || !f.failure.empty() ? State::Invalid : State::Unverified;
        if (body.empty()) f.fail(finding::pith_metadata_absent, "a Pith badge links to " + e.links.front().uri + " but names no Pith number");
        else f.info(finding::pith_evidence_missing, "not trusted: only the number on the page remains; pith verify --online fetches its record "
                                               "from the registry and checks it against the page");
        return;
    }
    const Record& record = *options.expected;
    report.number = record.number.full();
    const std::string hash = to_hex(record.canonical_hash);
    if (record.hash_matches())
        f.ok(finding::pith_hash_match, "canonical hash " + hash + " recomputes from the canonical record of " + record.source);
    else
        f.fail(finding::pith_hash_mismatch, "the hash " + record.source + " states differs from the recomputed " + hash);
    if (record.number_matches())
        f.ok(finding::pith_number_match, "Pith number " + report.number + " derives from the record of " + record.source);
    else
        f.fail(finding::pith_number_mismatch, "the number " + record.source + " states does not derive from its record");
    xmp::Properties p;  // the receipt, as pith stamp would have embedded it
    if (record.receipt) xmp::put_receipt(*record.receipt, p);
    Readers readers;
    start_readers(file, e, false, options, readers, f);
    check_receipt_data(p, record.canonical_hash, keyring, f);
    check_links(file, e, record.number, report.number, Baseline{}, options.resolver, f);
    auto [page1, badge_page] = collect_readers(readers, f);
    if (options.render) check_badge_text(e, record.number, Baseline{}, readers.badge_page ? badge_page.page : page1.page, f);
    const std::string title = record.title && record.title_matches() ? *record.title : "";
    if (options.render) check_title(file, title, record.title_hash.value_or(""), std::move(page1), options, f);  // not from pixels: never trusted
    decide(report, {"the PDF carries no pith metadata: only " + options.expected->source + " was checked against the page"});
}

// What withholds trusted (every check must have been made, nothing read two ways), then the state.
// `kept`: the title's and the badge's areas (keep_clear()).
void conclude(pdf::File& file, const PithData& e, const Baseline& baseline, int title_page,
              const std::vector<Area>& kept, bool receipt_valid, bool publisher_signed, const Options& options,
              Report& report) {
    const trace::Span span("verify/conclude");
    Findings& f = report.findings;
    const bool unverified_record = xmp::get(e.xmp.pith, xmp::property::unverified) == "True";
    if (unverified_record)
        f.info(finding::pith_record_unverified, "the record was stamped with --allow-unverified: its stated hash or number did not recompute");
    std::vector<std::string> missing = missing_evidence(f, receipt_valid, baseline.badge_drawn || !e.links.empty(), unverified_record);
    // What viewers read differently on the pages read (title, badge) and in the file's objects.
    const std::set<int> pages{0, title_page, e.badge_page - 1, baseline.badge_drawn ? baseline.badge_page : 0};
    for (drawing::ViewerDifference& d : drawing::viewer_differences(file, pages, kept)) {
        if (d.fails) {
            f.fail(d.code, std::move(d.explanation));
        } else {
            f.info(d.code, std::move(d.explanation));
            missing.push_back(std::move(d.missing));
        }
    }
    if (options.require_signed_stamp && !publisher_signed)
        missing.push_back("the stamp is not signed by a publisher trusted here (--require-signed-stamp)");
    decide(report, missing);
}

// `prefix_hash`: hashing the file from its start since it was opened (for the bytes before pith's update).
Report verify_file(pdf::File& file, const std::string& path, const Keyring& keyring, const Options& options,
                   PrefixSha256& prefix_hash) {
    const PithData e = pith_data::extract(file);
    Report report;
    report.file = path;
    Findings& f = report.findings;
    const auto& p = e.xmp.pith;

    if (!e.xmp_error.empty()) f.fail(finding::pith_metadata_malformed, "the XMP metadata is not well-formed: " + e.xmp_error);
    if (!e.any_pith_data()) {
        if (!e.links.empty() && !e.pith_revision && e.xmp_error.empty()) judge_badge_only(file, e, keyring, options, report);
        else judge_without_metadata(e, report);
        return report;
    }
    const std::optional<PithNumber> number = check_number(e, report);
    if (!number) {
        report.state = State::Invalid;
        return report;
    }
    const RecordData data = check_record_data(p, *number, report.number, f);
    Readers readers;
    start_readers(file, e, data.record && !xmp::get(p, xmp::property::title).empty(), options, readers, f);
    const bool receipt_valid = check_receipt_data(p, data.hash, keyring, f);

    // The bytes before pith's update, and pith's update itself.
    std::optional<Baseline> rewritten;
    const std::optional<std::uint64_t> prior_length = check_prior(file, p, prefix_hash, rewritten, f);
    const Baseline baseline = rewritten ? *rewritten : check_pith_update(file, prior_length, options.password, f);
    const std::string tool = xmp::get(p, xmp::property::stampTool);
    if (!prior_length && baseline.found)
        f.ok(finding::pith_update_none, "no update of pith stamp's: the pith data was written with the document (made by " +
                                     (tool.empty() ? std::string("an unknown tool") : tool) + ")");
    check_links(file, e, *number, report.number, baseline, options.resolver, f);
    if (baseline.badge_drawn) check_badge_drawing(file, e, *number, baseline, xmp::get(p, xmp::property::badge), f);

    // The visible badge text; the title, as a reader sees it on page 1 (or after front
    // matter). Only a title that hashes to the signed title_canon_sha256 counts: pith:title
    // itself is not signed.
    auto [page1, badge_page] = collect_readers(readers, f);
    if (options.render) check_badge_text(e, *number, baseline, readers.badge_page ? badge_page.page : page1.page, f);
    if (badge_page.page) mark_hidden(*badge_page.page, file.page(e.badge_page - 1), e.badge_page, f);
    const std::string title_hash = data.record && data.record->title_hash ? *data.record->title_hash : "";
    const std::string signed_title = data.record ? xmp::get(p, xmp::property::title) : "";
    TitleCheck title = options.render ? check_title(file, signed_title, title_hash, std::move(page1), options, f) : TitleCheck{};
    if (title.ask)  // read while the checks below run
        title.pixels = page::pixels::reader_for(std::move(readers.title_pixels), file.bytes(), options.password,
                                                std::move(*title.ask));

    // What changed after the stamp; then PDF signatures, the publisher's over pith's update
    // first of all (they name the signer of what changed).
    const std::vector<Area> kept = keep_clear(e, baseline, title);
    check_later_changes(file, baseline, kept, options.password, f);
    const bool publisher_signed = check_signatures(file, baseline, options.anchors, f);
    check_expected(options, data, *number, f);
    (void)file.ambiguous_definitions();  // its scan of every byte while the pixels are read; conclude() asks for it
    check_title_pixels(title, f);
    mark_badge(baseline, f);
    conclude(file, e, baseline, title.page, kept, receipt_valid, publisher_signed, options, report);
    return report;
}

}  // namespace

Report verify(const std::string& path, const Keyring& keyring, const Options& options,
              const std::function<void(pdf::File&, Report&)>& then) {
    const trace::Span span("verify", path);
    const InputFile in(path);
    PrefixSha256 prefix_hash(in.fd());  // on another core, while the file is parsed
    pdf::File file = pdf::File::open(in.fd(), path, open_options(options.password));
    pith_data::refuse_damaged(file, options.allow_damaged);  // most damage shows on opening
    Report report = verify_file(file, path, keyring, options, prefix_hash);
    pith_data::refuse_damaged(file, options.allow_damaged);  // the rest while reading the pages
    for (const std::string& defect : file.defects())
        report.findings.info(finding::pdf_damaged, "the PDF is damaged (" + defect + "); read with --allow-damaged");
    if (then) then(file, report);
    return report;
}

void add_registry_answer(Report& report, Code code, const std::string& why) {
    if (code == finding::registry_known) {
        report.findings.ok(code, why);
    } else if (code == finding::registry_unknown) {
        report.findings.fail(code, why);
        report.state = State::Invalid;
    } else {
        report.findings.info(code, why);
        if (report.state == State::Trusted) {
            report.state = State::Unverified;
            report.findings.info(finding::pith_evidence_missing, "not trusted: the registry's record could not be checked");
        }
    }
}

}  // namespace pith::verify
