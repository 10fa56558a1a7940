// SPDX-License-Identifier: MIT
// The check of pith's own update: it changes exactly what `pith stamp` changes (changes.hpp).
#include "verify/changes.hpp"

#include "core/error.hpp"
#include "core/trace.hpp"
#include "pith_data/pith_data.hpp"
#include "pdf/budget.hpp"
#include "pdf/objects.hpp"
#include "verify/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <vector>

namespace pith::verify {
namespace {

using pdf::Array;
using pdf::Dictionary;
using pdf::Object;
using pdf::Ref;
using pdf::name_of;

// The badge's closing stream as draw_badge writes it: head, six numbers, tail. The matrix is
// one draw_badge can write, wherever it chose to put the badge: upright for the reader on a page
// turned by a multiple of 90 degrees, scaled by at most 1 (shrunk only to fit a small page).
bool is_close_stream(const std::string& s) {
    const std::string& head = pith_data::kBadgeCloseHead;
    const std::string& tail = pith_data::kBadgeCloseTail;
    if (s.size() < head.size() + tail.size() || s.compare(0, head.size(), head) != 0 ||
        s.compare(s.size() - tail.size(), tail.size(), tail) != 0)
        return false;
    const std::string numbers = s.substr(head.size(), s.size() - head.size() - tail.size());
    std::vector<double> m;
    for (std::size_t i = 0; i < numbers.size();) {
        std::size_t j = numbers.find(' ', i);
        if (j == std::string::npos) j = numbers.size();
        const std::string n = numbers.substr(i, j - i);
        if (n.empty() || n.find_first_not_of("-.0123456789") != std::string::npos) return false;
        char* end = nullptr;
        m.push_back(std::strtod(n.c_str(), &end));
        if (end != n.c_str() + n.size() || !std::isfinite(m.back())) return false;
        i = j + 1;
    }
    if (m.size() != 6) return false;
    const double scale = std::max(std::fabs(m[0]), std::fabs(m[1]));
    const bool upright = (m[1] == 0 && m[2] == 0 && m[0] == m[3]) || (m[0] == 0 && m[3] == 0 && m[1] == -m[2]);
    return upright && scale > 0 && scale <= 1;
}

bool new_plain_stream(pdf::File& before, pdf::File& stamped, const Ref& ref, bool (*ok)(const std::string&)) {
    if (before.exists(ref) || !stamped.is_stream(ref) || pdf::has_key(stamped.get(ref), "Filter")) return false;
    return ok(stamped.stream_encoded(ref));
}

bool no_border(const Object& border) {
    return pdf::is_array(border) && pdf::array_of(border).size() == 3 &&
           std::all_of(pdf::array_of(border).begin(), pdf::array_of(border).end(),
                       [](const Object& n) { return pdf::is_number(n) && pdf::number_value(n) == 0; });
}

// The link annotation draw_badge writes, and nothing more.
bool is_badge_link(pdf::File& stamped, const Object& link, const Ref& page) {
    if (!pdf::is_dictionary(link)) return false;
    const Dictionary& d = pdf::dictionary_of(link);
    std::set<std::string> keys;
    for (const auto& [key, value] : pdf::entries(d)) keys.insert(key);
    if (keys != std::set<std::string>{"Type", "Subtype", "Rect", "Border", "F", "NM", "P", "Contents", "A"}) return false;
    const Object* action = pdf::find(d, "A");
    if (name_of(pdf::find(d, "Subtype")) != "Link" || !no_border(*pdf::find(d, "Border")) ||
        pdf::number_value(*pdf::find(d, "F")) != 4 || !pdf::is_reference(*pdf::find(d, "P")) ||
        pdf::reference_of(*pdf::find(d, "P")) != page || !pdf::is_dictionary(*action) ||
        pdf::entry_count(*action) != 2 || name_of(pdf::find(*action, "S")) != "URI")
        return false;
    pdf::Rect rect;
    return pith_data::is_badge_annotation(stamped, link) && pdf::read_rect(stamped, pdf::find(d, "Rect"), rect);
}

// ---------------------------------------------------------------- a publisher's signature in pith's update

// `ref` is a signature field `pith stamp --sign-*` adds: new, an invisible widget (zero-area
// rectangle) merged with a field /FT /Sig whose /V is a new signature dictionary, nothing more.
bool is_new_signature_field(pdf::File& before, pdf::File& stamped, const Object& item) {
    if (!pdf::is_reference(item) || before.exists(pdf::reference_of(item)) || !stamped.exists(pdf::reference_of(item)))
        return false;
    const Object& field = stamped.get(pdf::reference_of(item));
    if (!pdf::is_dictionary(field)) return false;
    const Dictionary& d = pdf::dictionary_of(field);
    for (const auto& [key, value] : pdf::entries(d))
        if (!std::set<std::string>{"Type", "Subtype", "FT", "T", "V", "F", "Rect", "P", "AP"}.count(key)) return false;
    // Its appearance, if any: one new empty form (PDF/A wants one; the zero rectangle shows nothing).
    if (const Object* ap = pdf::find(d, "AP")) {
        const Object* n = pdf::is_dictionary(*ap) && pdf::entry_count(*ap) == 1 ? pdf::find(*ap, "N") : nullptr;
        if (!n || !pdf::is_reference(*n) || before.exists(pdf::reference_of(*n)) ||
            !stamped.is_stream(pdf::reference_of(*n)) || !stamped.stream_decoded(pdf::reference_of(*n)).empty())
            return false;
    }
    const Object* v = pdf::find(d, "V");
    pdf::Rect rect;
    return name_of(pdf::find(d, "FT")) == "Sig" && name_of(pdf::find(d, "Subtype")) == "Widget" && v &&
           pdf::is_reference(*v) && !before.exists(pdf::reference_of(*v)) &&
           type_of(stamped.get(pdf::reference_of(*v))) == "Sig" &&
           pdf::read_rect(stamped, pdf::find(d, "Rect"), rect) && rect.width() == 0 && rect.height() == 0;
}

// The form pith's update leaves: the old one (or none) plus new signature fields and /SigFlags;
// with a certification, the catalog's /Perms gains /DocMDP naming the new signature.
void check_signature_form(pdf::File& before, pdf::File& stamped, std::vector<std::string>& problems) {
    const Object* old_form = before.get_key(pdf::dictionary_of(before.catalog()), "AcroForm");
    const Object* new_form = stamped.get_key(pdf::dictionary_of(stamped.catalog()), "AcroForm");
    if (!new_form || !pdf::is_dictionary(*new_form)) return problems.push_back("the catalog's /AcroForm");
    const Object empty{Dictionary()};
    const Object& old = old_form && pdf::is_dictionary(*old_form) ? *old_form : empty;
    if (auto keys = without(changed_keys(old, *new_form), {"Fields", "SigFlags"}); !keys.empty())
        problems.push_back("the form's " + keys_text(keys));
    const Object* old_fields = before.get_key(pdf::dictionary_of(old), "Fields");
    const Object* new_fields = stamped.get_key(pdf::dictionary_of(*new_form), "Fields");
    const std::size_t kept = old_fields && pdf::is_array(*old_fields) ? pdf::array_of(*old_fields).size() : 0;
    bool ok = new_fields && pdf::is_array(*new_fields) && pdf::array_of(*new_fields).size() == kept + 1;
    for (std::size_t i = 0; ok && i < kept; ++i)
        ok = canon(pdf::array_of(*old_fields)[i]) == canon(pdf::array_of(*new_fields)[i]);
    if (!ok || !is_new_signature_field(before, stamped, pdf::array_of(*new_fields).back()))
        problems.push_back("the form's /Fields beyond one new signature field");
    const Object* flags = stamped.get_key(pdf::dictionary_of(*new_form), "SigFlags");
    if (!flags || !pdf::is_integer(*flags) || (pdf::integer_of(*flags) & 3) != 3)
        problems.push_back("the form's /SigFlags");
    const Object* old_perms = before.get_key(pdf::dictionary_of(before.catalog()), "Perms");
    const Object* new_perms = stamped.get_key(pdf::dictionary_of(stamped.catalog()), "Perms");
    if (canon(old_perms ? *old_perms : empty) == canon(new_perms ? *new_perms : empty)) return;
    const Object* docmdp = new_perms && pdf::is_dictionary(*new_perms) ? pdf::find(*new_perms, "DocMDP") : nullptr;
    if (!ok || !docmdp || !pdf::is_reference(*docmdp) ||
        pdf::reference_of(*docmdp) !=
            pdf::reference_of(*pdf::find(stamped.get(pdf::reference_of(pdf::array_of(*new_fields).back())), "V")) ||
        !without(changed_keys(old_perms ? *old_perms : empty, *new_perms), {"DocMDP"}).empty() ||
        (old_perms && pdf::is_dictionary(*old_perms) && pdf::has_key(*old_perms, "DocMDP")))
        problems.push_back("the catalog's /Perms");
}

// The badge page: pith's update may change its /Contents (its two streams around what was
// there), /Resources (the badge XObject added) and /Annots (the link added), nothing else.
void check_badge_page(pdf::File& before, pdf::File& stamped, const Ref& ref, Baseline& b,
                      std::vector<std::string>& problems) {
    int index = -1;
    for (int i = 0, n = before.page_count(); i < n && index < 0; ++i)
        if (before.page(i).ref == ref) index = i;
    const std::string which = "page object " + std::to_string(pdf::object_number(ref));
    if (index < 0) return problems.push_back(which + ", not a page of the document");
    const Object& old_page = before.get(ref);
    const Object& new_page = stamped.get(ref);
    const std::set<std::string> other = without(changed_keys(old_page, new_page), {"Contents", "Resources", "Annots"});
    if (!other.empty()) problems.push_back("page " + std::to_string(index + 1) + "'s " + keys_text(other));

    // /Contents: [open, the old streams (an earlier badge's left out, wherever it stood), close].
    auto old_items = pdf::references_in(before, pdf::find(old_page, "Contents"));
    old_items.erase(std::remove_if(old_items.begin(), old_items.end(),
                                   [&](const Ref& r) { return pith_data::is_badge_stream(before, Object(r)); }),
                    old_items.end());
    const Object* contents = pdf::find(new_page, "Contents");
    auto items = pdf::references_in(stamped, contents);
    const bool contents_ok = contents && pdf::is_array(*contents) && items.size() == old_items.size() + 2 &&
                             std::equal(old_items.begin(), old_items.end(), items.begin() + 1) &&
                             new_plain_stream(before, stamped, items.front(),
                                              [](const std::string& s) { return s == pith_data::kBadgeOpen; }) &&
                             new_plain_stream(before, stamped, items.back(), is_close_stream);
    if (!contents_ok) problems.push_back("page " + std::to_string(index + 1) + "'s /Contents beyond the badge's two streams");

    // /Resources: the page's effective resources and the badge XObject.
    const pdf::Page old_view = before.page(index);
    const Object* resources = pdf::find(new_page, "Resources");
    bool resources_ok = resources && pdf::is_dictionary(*resources);
    Ref badge_xobject;
    if (resources_ok) {
        Dictionary expected =
            pdf::is_dictionary(old_view.resources) ? pdf::dictionary_of(old_view.resources) : Dictionary();
        Dictionary xobjects;
        if (const Object* x = before.get_key(expected, "XObject"); x && pdf::is_dictionary(*x))
            xobjects = pdf::dictionary_of(*x);
        const Object* badge = nullptr;
        if (const Object* x = pdf::find(*resources, "XObject"); x && pdf::is_dictionary(*x))
            badge = pdf::find(*x, pdf::Name(pith_data::kBadgeResourceName));
        resources_ok = badge && pdf::is_reference(*badge) && !before.exists(pdf::reference_of(*badge)) &&
                       type_of(stamped.get(pdf::reference_of(*badge))) == "XObject";
        if (resources_ok) {
            badge_xobject = pdf::reference_of(*badge);
            pdf::put(xobjects, pdf::Name(pith_data::kBadgeResourceName), *badge);
            pdf::put(expected, "XObject", xobjects);
            resources_ok = canon(Object(expected)) == canon(*resources);
        }
    }
    if (!resources_ok) problems.push_back("page " + std::to_string(index + 1) + "'s /Resources beyond the badge XObject");

    // /Annots: the old ones (an earlier badge link left out) and the new link.
    std::vector<std::string> expected_annots;
    if (const auto* old = pdf::annotations(before, old_page))
        for (const auto& item : *old) {
            if (!pith_data::is_badge_annotation(before, item)) expected_annots.push_back(canon(item));
        }
    const Object* annots = pdf::find(new_page, "Annots");
    // A signing stamp adds its invisible signature widget after the link.
    const bool widget = annots && pdf::is_array(*annots) &&
                        pdf::array_of(*annots).size() == expected_annots.size() + 2 &&
                        is_new_signature_field(before, stamped, pdf::array_of(*annots).back());
    bool annots_ok =
        annots && pdf::is_array(*annots) && pdf::array_of(*annots).size() == expected_annots.size() + 1 + widget;
    Ref link;
    if (annots_ok) {
        Array items = pdf::array_of(*annots);
        if (widget) items.erase(items.end() - 1);
        for (std::size_t i = 0; i < expected_annots.size(); ++i) annots_ok &= canon(items[i]) == expected_annots[i];
        annots_ok &= pdf::is_reference(items.back()) && !before.exists(pdf::reference_of(items.back()));
        if (annots_ok) link = pdf::reference_of(items.back());
        annots_ok = annots_ok && is_badge_link(stamped, stamped.get(link), ref);
    }
    if (!annots_ok) problems.push_back("page " + std::to_string(index + 1) + "'s /Annots beyond the badge's link");
    if (contents_ok && resources_ok && annots_ok) {
        b.badge_drawn = true;
        b.badge_page = index;
        b.badge_link = link;
        if (const auto* old = pdf::annotations(before, old_page))
            for (const auto& item : *old)
                if (pdf::is_reference(item)) b.annots_before.push_back(pdf::reference_of(item));
        b.badge_xobject = badge_xobject;
        pdf::read_rect(stamped, pdf::find(stamped.get(link), "Rect"), b.badge_rect);
    }
}

// What pith's update changed in `before`, object by object.
void check_update_objects(pdf::File& before, pdf::File& stamped, Baseline& b, std::vector<std::string>& problems) {
    std::vector<std::uint32_t> touched = stamped.revisions().back().objects;
    if (stamped.revisions().size() == 1) {  // a repair section (set_repair) lists every object
        touched.clear();
        for (std::uint32_t num = 1; num <= stamped.max_object_number(); ++num)
            if (stamped.exists(stamped.reference(num))) touched.push_back(num);
    }
    const Object* md = pdf::find(before.catalog(), "Metadata");
    const std::uint32_t metadata = md && pdf::is_reference(*md) ? pdf::object_number(pdf::reference_of(*md)) : 0;
    const Object* af = pdf::find(before.catalog(), "AcroForm");
    const std::uint32_t form = af && pdf::is_reference(*af) ? pdf::object_number(pdf::reference_of(*af)) : 0;
    bool signed_form = false;  // the form changed: only a publisher's signature may change it
    for (std::uint32_t num : touched) {
        const Ref ref = before.reference(num);
        if (!before.exists(ref) || same_object(before, stamped, num)) continue;  // new objects are judged where they are used
        if (num == metadata) continue;                                           // the XMP: read by its own rules
        const Object& old = before.get(ref);
        const Object& now = stamped.get(stamped.reference(num));
        if (ref == before.root_ref()) {
            auto keys = without(changed_keys(old, now), {"Metadata"});
            if (keys.erase("AcroForm") + keys.erase("Perms")) signed_form = true;
            if (!keys.empty()) problems.push_back("the catalog's " + keys_text(keys));
        } else if (num == form) {
            signed_form = true;
        } else if (ref == before.info_ref()) {
            if (auto keys = without(changed_keys(old, now), {"PithNumber"}); !keys.empty())
                problems.push_back("Info's " + keys_text(keys));
        } else if (type_of(old) == "Page") {
            check_badge_page(before, stamped, ref, b, problems);
        } else {
            problems.push_back("object " + std::to_string(num) + (type_of(old).empty() ? "" : " (/" + type_of(old) + ")"));
        }
    }
    if (signed_form) check_signature_form(before, stamped, problems);
    if (stamped.root_ref() != before.root_ref()) problems.push_back("the trailer's /Root");
    if (stamped.encrypted() != before.encrypted() || stamped.encrypt_ref() != before.encrypt_ref()) problems.push_back("the encryption");
    if (stamped.info_ref() != before.info_ref() && pdf::object_number(before.info_ref()) != 0)
        problems.push_back("the trailer's /Info");
    if (!pdf::metadata_stream(stamped)) problems.push_back("the catalog's /Metadata, which is no stream");
}

}  // namespace

Baseline check_pith_update(pdf::File& file, const std::optional<std::uint64_t>& prior_length, const std::string& password,
                           Findings& f) {
    const trace::Span span("verify/pith_update");
    Baseline b;
    const auto revisions = file.revisions();
    const std::string_view bytes = file.bytes();
    auto nothing_after = [&](std::uint64_t end) {
        return std::none_of(revisions.begin(), revisions.end(), [&](const pdf::Revision& r) { return r.end > end; });
    };
    if (!prior_length) {
        // pith.sty or another tool wrote the pith data: the baseline is the document as first
        // written, the first revision that reads as a document of its own (a linearized file's
        // first-page section does not).
        b.found = true;
        b.end = revisions.back().end;
        for (const auto& r : revisions) {
            if (r.end >= b.end) break;
            auto d = document_at(file, r.end, "first revision", password);
            if (d && !d->reconstructed() && d->defects().empty()) {
                b.end = r.end;
                break;
            }
        }
        b.whole_file = nothing_after(b.end);
        return b;
    }
    // pith's update: from the prior bytes to the next %%EOF.
    const std::uint64_t prior = *prior_length;
    const std::size_t eof = prior < bytes.size() ? bytes.find("%%EOF", prior) : std::string_view::npos;
    if (eof == std::string_view::npos) {
        f.fail(finding::pith_update_missing, "no revision follows the " + std::to_string(prior) + " bytes pith:priorLength names");
        return b;
    }
    b.end = eof + 5;
    if (b.end < bytes.size() && bytes[b.end] == '\r') ++b.end;
    if (b.end < bytes.size() && bytes[b.end] == '\n') ++b.end;
    b.whole_file = nothing_after(b.end);
    std::optional<pdf::File> before = document_at(file, prior, "before pith's update", password);
    const bool is_file = b.end == bytes.size();
    std::optional<pdf::File> copy = is_file ? std::nullopt : document_at(file, b.end, "as stamped", password);
    if (!before || (!is_file && !copy)) {
        f.fail(finding::pith_update_missing, "the bytes before and through pith's update are not a PDF of their own");
        return b;
    }
    pdf::File& stamped = is_file ? file : *copy;
    b.found = true;
    const auto r0 = before->revisions(), r1 = stamped.revisions();
    const bool repaired = r1.size() == 1 && before->reconstructed();
    if (!repaired && !(r1.size() == r0.size() + 1 && chain_starts_with(stamped, *before))) {
        f.fail(finding::pith_update_mismatch, "pith's update does not continue the document before it (its /Prev chain)");
        return b;
    }
    std::vector<std::string> problems;
    try {
        check_update_objects(*before, stamped, b, problems);
    } catch (const Error& e) {
        problems.push_back(std::string("unreadable (") + e.what() + ")");
    } catch (const pdf::LibraryError& e) {
        problems.push_back(std::string("unreadable (") + pdf::podofo_words(e) + ")");
    }
    if (problems.empty())
        f.ok(finding::pith_update_match, "pith's update changes only what pith stamp changes" + std::string(b.badge_drawn ? " (metadata, badge and link)" : " (metadata)"));
    else
        f.fail(finding::pith_update_mismatch, "pith's update changes more than pith stamp does: " + joined(problems));
    return b;
}

}  // namespace pith::verify
