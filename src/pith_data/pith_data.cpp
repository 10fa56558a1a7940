// SPDX-License-Identifier: MIT
#include "pith_data/pith_data.hpp"

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/number.hpp"
#include "core/trace.hpp"
#include "page/title.hpp"
#include "pdf/file.hpp"
#include "pdf/objects.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string_view>

namespace pith::pith_data {
namespace {

using pdf::Object;
using pdf::Ref;
using pdf::text_of;

// Whether pith's marker, naming the bytes before it, stands at `at` (after end-of-line bytes).
std::optional<std::uint64_t> marker_at(std::string_view bytes, std::size_t at) {
    const std::string tag = kUpdateMarker + " prior=";
    while (at < bytes.size() && (bytes[at] == '\r' || bytes[at] == '\n')) ++at;
    if (bytes.substr(at, tag.size()) != tag) return std::nullopt;
    const std::uint64_t prior = std::strtoull(std::string(bytes.substr(at + tag.size(), 20)).c_str(), nullptr, 10);
    if (prior > at || bytes.substr(prior, at - prior).find_first_not_of("\r\n") != std::string_view::npos) return std::nullopt;
    return prior;
}

// pith:priorLength as the document's XMP records it.
std::optional<std::uint64_t> recorded_prior_length(pdf::File& file) {
    try {
        const std::optional<Ref> metadata = pdf::metadata_stream(file);
        if (!metadata) return std::nullopt;
        const xmp::Packet packet = xmp::read(file.stream_decoded(*metadata));
        const std::string length = xmp::get(packet.pith, xmp::property::priorLength);
        if (length.empty()) return std::nullopt;
        return std::strtoull(length.c_str(), nullptr, 10);
    } catch (const Error&) {
        return std::nullopt;
    }
}

void collect_links(pdf::File& file, int index, std::vector<Link>& links) {
    const auto* annots = pdf::annotations(file, file.get(file.page(index).ref));
    if (!annots) return;
    for (const auto& item : *annots) {
        const auto& annot = file.resolve(item);
        if (!pdf::is_dictionary(annot)) continue;
        Link link;
        if (const auto* action = pdf::dictionary_entry(file, annot, "A")) {
            link.uri = pdf::text_entry(file, *action, "URI");
            link.action = pdf::text_entry(file, *action, "S");
            link.chained = pdf::has_key(*action, "Next");
        }
        link.pith_badge = pith_data::is_badge_annotation(file, annot);
        if (!link.pith_badge && body_of_link(link.uri).empty()) continue;
        link.page = index + 1;
        if (const auto* rect = pdf::entry(file, annot, "Rect");
            rect && pdf::is_array(*rect) && pdf::array_of(*rect).size() == 4)
            for (int i = 0; i < 4; ++i) link.rect[i] = pdf::number_value(file.resolve(pdf::array_of(*rect)[i]));
        links.push_back(link);
    }
}

}  // namespace

bool is_badge_stream(pdf::File& file, const Object& item) {
    if (!pdf::is_reference(item) || !file.is_stream(pdf::reference_of(item))) return false;
    if (pdf::has_key(file.get(pdf::reference_of(item)), "Filter")) return false;
    try {
        return file.stream_encoded(pdf::reference_of(item)).rfind(kBadgeStreamMarker, 0) == 0;
    } catch (const Error&) {
        return false;
    }
}

bool is_badge_annotation(pdf::File& file, const Object& item) {
    const Object& annot = file.resolve(item);
    if (!pdf::is_dictionary(annot)) return false;
    const Object* name = file.get_key(pdf::dictionary_of(annot), "NM");
    return name && pdf::is_string(*name) && pdf::text_of(name) == kBadgeAnnotationName;
}

std::optional<PithUpdate> find_pith_update(pdf::File& file) {
    const std::string_view bytes = file.bytes();
    const std::string tag = kUpdateMarker + " prior=";
    const auto revisions = file.revisions();
    // The marker opens a revision: it follows the end of the one before, after at most some
    // bytes of trailing junk there (a window, so the cost does not grow with the file).
    constexpr std::size_t kWindow = 64 * 1024;
    for (std::size_t i = revisions.size(); i-- > 1;) {
        // Offsets fit in size_t: they lie within `bytes` (32 bits wide in WebAssembly).
        const auto from = static_cast<std::size_t>(revisions[i - 1].end);
        const auto to = std::min({from + kWindow, static_cast<std::size_t>(revisions[i].end), bytes.size()});
        const void* hit = from < to ? ::memmem(bytes.data() + from, to - from, tag.data(), tag.size()) : nullptr;
        if (!hit) continue;
        if (auto prior = marker_at(bytes, static_cast<const char*>(hit) - bytes.data()))
            return PithUpdate{*prior, i, i + 1 == revisions.size()};
    }
    // A stamp with --allow-damaged that rebuilt the cross-reference table leaves a single
    // revision: the XMP says where pith's update starts.
    if (revisions.size() == 1)
        if (auto recorded = recorded_prior_length(file); recorded && *recorded < bytes.size())
            if (auto prior = marker_at(bytes, *recorded); prior && *prior == *recorded) return PithUpdate{*prior, 0, true};
    return std::nullopt;
}

// 8 to 26 letters, any case, then one of . / ? # or the end.
std::string body_of_link(const std::string& uri) {
    for (std::size_t at = uri.find("/pith/"); at != std::string::npos; at = uri.find("/pith/", at + 1)) {
        std::size_t end = at + 6;
        while (end < uri.size() && is_base32_letter(uri[end], true)) ++end;
        const std::size_t length = end - at - 6;
        if (length < 8 || length > 26 || (end < uri.size() && std::string_view("./?#").find(uri[end]) == std::string_view::npos))
            continue;
        std::string body = uri.substr(at + 6, length);
        std::transform(body.begin(), body.end(), body.begin(), [](unsigned char c) { return std::toupper(c); });
        return body;
    }
    return {};
}

PithData extract(pdf::File& file) {
    const trace::Span span("pith_data/extract");
    PithData e;
    e.file = file.name();
    if (const std::optional<Ref> metadata = pdf::metadata_stream(file)) {
        e.has_xmp = true;
        try {
            e.xmp = xmp::read(file.stream_decoded(*metadata));
        } catch (const Error& err) {
            e.xmp_error = err.what();
        }
    }
    if (const Object* info = file.info())
        for (const char* key : {"PithNumber", "Title"})
            if (std::string v = text_of(file.get_key(pdf::dictionary_of(*info), key)); !v.empty()) e.info[key] = v;

    auto revisions = file.revisions();
    if (auto update = pith_data::find_pith_update(file)) e.pith_revision = update->revision;
    for (std::size_t i = 0; i < revisions.size(); ++i)
        e.revisions.push_back({revisions[i].end, revisions[i].objects.size(), e.pith_revision == i});

    // Links: page 1 and the pages pith's own update rewrote (where `pith stamp` put the badge),
    // all syntax-checked; where they hold no link to the resolver, pages 2 and 3 too (pith.sty
    // prints its badge after the title block, which may follow front matter; a paper's own
    // citations further on are none of the badge's business).
    const int count = file.page_count();
    std::set<int> pages;
    if (count > 0) pages.insert(0);
    if (e.pith_revision && count > 0) {
        const auto& touched = revisions[*e.pith_revision].objects;
        std::set<std::uint32_t> wanted;
        for (std::uint32_t num : touched) {
            const Object& o = file.get(Ref(num, 0));
            if (pdf::is_dictionary(o) && text_of(pdf::find(o, "Type")) == "Page") wanted.insert(num);
        }
        for (int i = 0; i < count && !wanted.empty(); ++i)
            if (wanted.erase(pdf::object_number(file.page(i).ref))) pages.insert(i);
    }
    for (int index : pages) {
        collect_links(file, index, e.links);
        file.check_page(file.page(index));
    }
    for (int index = 1; e.links.empty() && index < std::min(count, page::title::kTitlePages); ++index)
        if (!pages.count(index)) collect_links(file, index, e.links);
    // The badge's page: pith stamp's badge, else the first link to the resolver (pith.sty prints
    // its badge after the title block, which may follow front matter).
    const auto stamped = std::find_if(e.links.begin(), e.links.end(), [](const Link& l) { return l.pith_badge; });
    if (stamped != e.links.end()) e.badge_page = stamped->page;
    else if (!e.links.empty()) e.badge_page = std::min_element(e.links.begin(), e.links.end(), [](const Link& a, const Link& b) {
                                                  return a.page < b.page;
                                              })->page;
    return e;
}

Json PithData::to_json() const {
    Json links_json = Json::array();
    for (const auto& l : links)
        links_json.push_back({{"page", l.page}, {"rect", {l.rect[0], l.rect[1], l.rect[2], l.rect[3]}}, {"uri", l.uri},
                              {"action", l.action}, {"chained", l.chained}, {"pith_badge", l.pith_badge}});
    Json revisions_json = Json::array();
    for (const auto& r : revisions) revisions_json.push_back({{"end", r.end}, {"objects", r.objects}, {"pith", r.pith}});
    Json xmp_json = Json::object();
    for (const auto& [k, v] : xmp.pith) xmp_json[k] = v;
    std::string number = xmp::get(xmp.pith, xmp::property::number);
    if (number.empty() && info.count("PithNumber")) number = info.at("PithNumber");
    return {{"file", file},
            {"number", number.empty() ? Json(nullptr) : Json(number)},
            {"xmp", {{"present", has_xmp}, {"error", xmp_error.empty() ? Json(nullptr) : Json(xmp_error)}, {"pith", xmp_json},
                     {"dc_title", xmp.title}, {"pdfa", xmp.pdfa_part.empty() ? Json(nullptr) : Json(xmp.pdfa_part + xmp.pdfa_conformance)},
                     {"pith_declared_for_pdfa", xmp.pith_declared_for_pdfa}}},
            {"info", info},
            {"links", links_json},
            {"revisions", revisions_json},
            {"pith_revision", pith_revision ? Json(*pith_revision) : Json(nullptr)},
            {"defects", defects}};
}

void refuse_damaged(const pdf::File& file, bool allow_damaged, const std::string& doing) {
    if (allow_damaged || file.defects().empty()) return;
    const std::string rebuilt = file.reconstructed() ? ", with a rebuilt cross-reference table" : "";
    throw Error(file.name() + ": " + pdf::damage_message(file) + "; refusing to " + doing + " it (--allow-damaged " +
                    doing + "s it anyway" + rebuilt + ")",
                err::pdf_damaged);
}

PithData extract(const std::string& path, const std::string& password, bool allow_damaged) {
    const InputFile in(path);  // "-": standard input
    pdf::File file = pdf::File::open(in.fd(), path, pdf::OpenOptions{password, !password.empty()});
    refuse_damaged(file, allow_damaged);  // most damage shows on opening
    PithData e = extract(file);
    refuse_damaged(file, allow_damaged);  // the rest while reading page 1
    e.defects = file.defects();
    return e;
}

std::string carried_number(const PithData& e) {
    Json number = e.to_json()["number"];
    std::string n = number.is_string() ? number.get<std::string>() : "";
    for (std::size_t i = 0; n.empty() && i < e.links.size(); ++i)
        if (const std::string body = body_of_link(e.links[i].uri); !body.empty()) n = body.size() == 26 ? body : "pith:" + body;
    return n;
}

}  // namespace pith::pith_data
