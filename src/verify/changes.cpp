// SPDX-License-Identifier: MIT
#include "verify/changes.hpp"

#include "core/error.hpp"
#include "mark/mark.hpp"
#include "pdf/budget.hpp"
#include "pdf/content.hpp"
#include "pdf/objects.hpp"
#include "sign/pdf_signature.hpp"
#include "xmp/xmp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

namespace pith::verify {
namespace {

using pdf::Array;
using pdf::Dictionary;
using pdf::Object;
using pdf::Ref;

using pdf::name_of;
std::string type_of(const Object& o) { return o.IsDictionary() ? name_of(o.GetDictionary().GetKey("Type")) : std::string(); }

std::string keys_text(const std::set<std::string>& keys) {
    std::string out;
    for (const auto& k : keys) out += (out.empty() ? "/" : ", /") + k;
    return out;
}

// A value as text for comparing: strings by their (decrypted) text whatever their syntax, so
// that an encrypted file's strings, re-encrypted as another string form, still compare equal;
// numbers to 3 decimals (a thousandth of a point): pith stamp's writer (PoDoFo) keeps 6 of a
// page's real numbers, MuPDF's incremental save writes floats (841.889758 becomes 841.8898).
std::string canon(const Object& o) {
    if (pdf::is_string(o)) return "(" + pdf::text_of(&o) + ")";
    if (o.IsName()) return "/" + name_of(&o);
    if (o.IsReference()) return std::to_string(o.GetReference().ObjectNumber()) + " " + std::to_string(o.GetReference().GenerationNumber()) + " R";
    if (pdf::is_number(o)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.3f", pdf::number_value(o));
        return buf;
    }
    if (o.IsArray()) {
        std::string out = "[";
        for (const auto& item : o.GetArray()) out += canon(item) + " ";
        return out + "]";
    }
    if (o.IsDictionary()) {
        std::string out = "<<";
        for (const auto& [key, value] : pdf::entries(o.GetDictionary())) out += "/" + key + " " + canon(*value) + " ";
        return out + ">>";
    }
    return pdf::to_pdf_string(o);  // null, booleans
}


// Object `num` of `a` and of `b` are the same: same value, and for streams the same bytes.
bool same_object(pdf::File& a, pdf::File& b, std::uint32_t num) {
    const Ref ra = a.reference(num), rb = b.reference(num);
    if (a.exists(ra) != b.exists(rb)) return false;
    if (!a.exists(ra)) return true;
    if (ra != rb || canon(a.get(ra)) != canon(b.get(rb))) return false;
    if (a.is_stream(ra) != b.is_stream(rb)) return false;
    return !a.is_stream(ra) || a.stream_encoded(ra) == b.stream_encoded(rb);
}

// The keys whose values differ between two dictionaries (a key present in only one counts).
std::set<std::string> changed_keys(const Object& a, const Object& b) {
    std::set<std::string> out;
    if (!a.IsDictionary() || !b.IsDictionary()) return {"(whole object)"};
    for (const auto& [key, value] : pdf::entries(a.GetDictionary())) {
        const Object* other = b.GetDictionary().GetKey(key);
        if (!other || canon(*other) != canon(*value)) out.insert(key);
    }
    for (const auto& [key, value] : pdf::entries(b.GetDictionary()))
        if (!a.GetDictionary().GetKey(key)) out.insert(key);
    return out;
}

std::set<std::string> without(std::set<std::string> keys, std::initializer_list<const char*> allowed) {
    for (const char* k : allowed) keys.erase(k);
    return keys;
}

// The document `file` held when it was `length` bytes long; nullopt when those bytes are no PDF.
std::optional<pdf::File> prefix(pdf::File& file, std::uint64_t length, const std::string& what, const std::string& password) {
    try {
        return file.prefix(length, file.name() + " (" + what + ")", pdf::OpenOptions{password, !password.empty()});
    } catch (const Error&) {
        return std::nullopt;
    } catch (const pdf::LibraryError&) {
        return std::nullopt;
    }
}

bool chain_starts_with(pdf::File& file, pdf::File& head) {
    auto all = file.revisions(), first = head.revisions();
    if (first.size() > all.size()) return false;
    for (std::size_t i = 0; i < first.size(); ++i)
        if (all[i].startxref != first[i].startxref) return false;
    return true;
}

// ---------------------------------------------------------------- pith's own update

// The badge's closing stream as draw_badge writes it: head, six numbers, tail. The matrix is
// one draw_badge can write, wherever it chose to put the badge: upright for the reader on a page
// turned by a multiple of 90 degrees, scaled by at most 1 (shrunk only to fit a small page).
bool is_close_stream(const std::string& s) {
    const std::string& head = mark::kBadgeCloseHead;
    const std::string& tail = mark::kBadgeCloseTail;
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
    if (before.exists(ref) || !stamped.is_stream(ref) || stamped.get(ref).GetDictionary().HasKey("Filter")) return false;
    return ok(stamped.stream_encoded(ref));
}

bool no_border(const Object& border) {
    return border.IsArray() && border.GetArray().size() == 3 &&
           std::all_of(border.GetArray().begin(), border.GetArray().end(),
                       [](const Object& n) { return pdf::is_number(n) && pdf::number_value(n) == 0; });
}

// The link annotation draw_badge writes, and nothing more.
bool is_badge_link(pdf::File& stamped, const Object& link, const Ref& page) {
    if (!link.IsDictionary()) return false;
    const Dictionary& d = link.GetDictionary();
    std::set<std::string> keys;
    for (const auto& [key, value] : pdf::entries(d)) keys.insert(key);
    if (keys != std::set<std::string>{"Type", "Subtype", "Rect", "Border", "F", "NM", "P", "Contents", "A"}) return false;
    const Object* action = d.GetKey("A");
    if (name_of(d.GetKey("Subtype")) != "Link" || !no_border(*d.GetKey("Border")) ||
        pdf::number_value(*d.GetKey("F")) != 4 || !d.GetKey("P")->IsReference() || d.GetKey("P")->GetReference() != page ||
        !action->IsDictionary() || pdf::entry_count(action->GetDictionary()) != 2 ||
        name_of(action->GetDictionary().GetKey("S")) != "URI")
        return false;
    pdf::Rect rect;
    return mark::is_badge_annotation(stamped, link) && pdf::read_rect(stamped, d.GetKey("Rect"), rect);
}

// ---------------------------------------------------------------- a publisher's signature in pith's update

// `ref` is a signature field `pith stamp --sign-*` adds: new, an invisible widget (zero-area
// rectangle) merged with a field /FT /Sig whose /V is a new signature dictionary, nothing more.
bool is_new_signature_field(pdf::File& before, pdf::File& stamped, const Object& item) {
    if (!item.IsReference() || before.exists(item.GetReference()) || !stamped.exists(item.GetReference())) return false;
    const Object& field = stamped.get(item.GetReference());
    if (!field.IsDictionary()) return false;
    const Dictionary& d = field.GetDictionary();
    for (const auto& [key, value] : pdf::entries(d))
        if (!std::set<std::string>{"Type", "Subtype", "FT", "T", "V", "F", "Rect", "P", "AP"}.count(key)) return false;
    // Its appearance, if any: one new empty form (PDF/A wants one; the zero rectangle shows nothing).
    if (const Object* ap = d.GetKey("AP")) {
        const Object* n = ap->IsDictionary() && pdf::entry_count(ap->GetDictionary()) == 1 ? ap->GetDictionary().GetKey("N") : nullptr;
        if (!n || !n->IsReference() || before.exists(n->GetReference()) || !stamped.is_stream(n->GetReference()) ||
            !stamped.stream_decoded(n->GetReference()).empty())
            return false;
    }
    const Object* v = d.GetKey("V");
    pdf::Rect rect;
    return name_of(d.GetKey("FT")) == "Sig" && name_of(d.GetKey("Subtype")) == "Widget" && v && v->IsReference() &&
           !before.exists(v->GetReference()) && type_of(stamped.get(v->GetReference())) == "Sig" &&
           pdf::read_rect(stamped, d.GetKey("Rect"), rect) && rect.width() == 0 && rect.height() == 0;
}

// The form pith's update leaves: the old one (or none) plus new signature fields and /SigFlags;
// with a certification, the catalog's /Perms gains /DocMDP naming the new signature.
void check_signature_form(pdf::File& before, pdf::File& stamped, std::vector<std::string>& problems) {
    const Object* old_form = before.get_key(before.catalog().GetDictionary(), "AcroForm");
    const Object* new_form = stamped.get_key(stamped.catalog().GetDictionary(), "AcroForm");
    if (!new_form || !new_form->IsDictionary()) return problems.push_back("the catalog's /AcroForm");
    const Object empty{Dictionary()};
    const Object& old = old_form && old_form->IsDictionary() ? *old_form : empty;
    if (auto keys = without(changed_keys(old, *new_form), {"Fields", "SigFlags"}); !keys.empty())
        problems.push_back("the form's " + keys_text(keys));
    const Object* old_fields = before.get_key(old.GetDictionary(), "Fields");
    const Object* new_fields = stamped.get_key(new_form->GetDictionary(), "Fields");
    const std::size_t kept = old_fields && old_fields->IsArray() ? old_fields->GetArray().size() : 0;
    bool ok = new_fields && new_fields->IsArray() && new_fields->GetArray().size() == kept + 1;
    for (std::size_t i = 0; ok && i < kept; ++i) ok = canon(old_fields->GetArray()[i]) == canon(new_fields->GetArray()[i]);
    if (!ok || !is_new_signature_field(before, stamped, new_fields->GetArray().back()))
        problems.push_back("the form's /Fields beyond one new signature field");
    const Object* flags = stamped.get_key(new_form->GetDictionary(), "SigFlags");
    if (!flags || !flags->IsNumber() || (flags->GetNumber() & 3) != 3) problems.push_back("the form's /SigFlags");
    const Object* old_perms = before.get_key(before.catalog().GetDictionary(), "Perms");
    const Object* new_perms = stamped.get_key(stamped.catalog().GetDictionary(), "Perms");
    if (canon(old_perms ? *old_perms : empty) == canon(new_perms ? *new_perms : empty)) return;
    const Object* docmdp = new_perms && new_perms->IsDictionary() ? new_perms->GetDictionary().GetKey("DocMDP") : nullptr;
    if (!ok || !docmdp || !docmdp->IsReference() ||
        docmdp->GetReference() != stamped.get(new_fields->GetArray().back().GetReference()).GetDictionary().GetKey("V")->GetReference() ||
        !without(changed_keys(old_perms ? *old_perms : empty, *new_perms), {"DocMDP"}).empty() || (old_perms && old_perms->IsDictionary() && old_perms->GetDictionary().HasKey("DocMDP")))
        problems.push_back("the catalog's /Perms");
}

// The badge page: pith's update may change its /Contents (its two streams around what was
// there), /Resources (the badge XObject added) and /Annots (the link added), nothing else.
void check_badge_page(pdf::File& before, pdf::File& stamped, const Ref& ref, Baseline& b,
                      std::vector<std::string>& problems) {
    int index = -1;
    for (int i = 0, n = before.page_count(); i < n && index < 0; ++i)
        if (before.page(i).ref == ref) index = i;
    const std::string which = "page object " + std::to_string(ref.ObjectNumber());
    if (index < 0) return problems.push_back(which + ", not a page of the document");
    const Object& old_page = before.get(ref);
    const Object& new_page = stamped.get(ref);
    const std::set<std::string> other = without(changed_keys(old_page, new_page), {"Contents", "Resources", "Annots"});
    if (!other.empty()) problems.push_back("page " + std::to_string(index + 1) + "'s " + keys_text(other));

    // /Contents: [open, the old streams (an earlier badge's left out, wherever it stood), close].
    auto old_items = pdf::references_in(before, old_page.GetDictionary().GetKey("Contents"));
    old_items.erase(std::remove_if(old_items.begin(), old_items.end(),
                                   [&](const Ref& r) { return mark::is_badge_stream(before, Object(r)); }),
                    old_items.end());
    const Object* contents = new_page.GetDictionary().GetKey("Contents");
    auto items = pdf::references_in(stamped, contents);
    const bool contents_ok = contents && contents->IsArray() && items.size() == old_items.size() + 2 &&
                             std::equal(old_items.begin(), old_items.end(), items.begin() + 1) &&
                             new_plain_stream(before, stamped, items.front(), [](const std::string& s) { return s == mark::kBadgeOpen; }) &&
                             new_plain_stream(before, stamped, items.back(), is_close_stream);
    if (!contents_ok) problems.push_back("page " + std::to_string(index + 1) + "'s /Contents beyond the badge's two streams");

    // /Resources: the page's effective resources and the badge XObject.
    const pdf::Page old_view = before.page(index);
    const Object* resources = new_page.GetDictionary().GetKey("Resources");
    bool resources_ok = resources && resources->IsDictionary();
    Ref badge_xobject;
    if (resources_ok) {
        Dictionary expected = old_view.resources.IsDictionary() ? old_view.resources.GetDictionary() : Dictionary();
        Dictionary xobjects;
        if (const Object* x = before.get_key(expected, "XObject"); x && x->IsDictionary()) xobjects = x->GetDictionary();
        const Object* badge = nullptr;
        if (const Object* x = resources->GetDictionary().GetKey("XObject"); x && x->IsDictionary())
            badge = x->GetDictionary().GetKey(pdf::Name(mark::kBadgeResourceName));
        resources_ok = badge && badge->IsReference() && !before.exists(badge->GetReference()) &&
                       type_of(stamped.get(badge->GetReference())) == "XObject";
        if (resources_ok) {
            badge_xobject = badge->GetReference();
            xobjects.AddKey(pdf::Name(mark::kBadgeResourceName), *badge);
            expected.AddKey("XObject", xobjects);
            resources_ok = canon(Object(expected)) == canon(*resources);
        }
    }
    if (!resources_ok) problems.push_back("page " + std::to_string(index + 1) + "'s /Resources beyond the badge XObject");

    // /Annots: the old ones (an earlier badge link left out) and the new link.
    std::vector<std::string> expected_annots;
    if (const auto* old = pdf::annotations(before, old_page))
        for (const auto& item : *old) {
            if (!mark::is_badge_annotation(before, item)) expected_annots.push_back(canon(item));
        }
    const Object* annots = new_page.GetDictionary().GetKey("Annots");
    // A signing stamp adds its invisible signature widget after the link.
    const bool widget = annots && annots->IsArray() && annots->GetArray().size() == expected_annots.size() + 2 &&
                        is_new_signature_field(before, stamped, annots->GetArray().back());
    bool annots_ok = annots && annots->IsArray() && annots->GetArray().size() == expected_annots.size() + 1 + widget;
    Ref link;
    if (annots_ok) {
        Array items = annots->GetArray();
        if (widget) items.erase(items.end() - 1);
        for (std::size_t i = 0; i < expected_annots.size(); ++i) annots_ok &= canon(items[i]) == expected_annots[i];
        annots_ok &= items.back().IsReference() && !before.exists(items.back().GetReference());
        if (annots_ok) link = items.back().GetReference();
        annots_ok = annots_ok && is_badge_link(stamped, stamped.get(link), ref);
    }
    if (!annots_ok) problems.push_back("page " + std::to_string(index + 1) + "'s /Annots beyond the badge's link");
    if (contents_ok && resources_ok && annots_ok) {
        b.badge_drawn = true;
        b.badge_page = index;
        b.badge_link = link;
        if (const auto* old = pdf::annotations(before, old_page))
            for (const auto& item : *old)
                if (item.IsReference()) b.annots_before.push_back(item.GetReference());
        b.badge_xobject = badge_xobject;
        pdf::read_rect(stamped, stamped.get(link).GetDictionary().GetKey("Rect"), b.badge_rect);
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
    const Object* md = before.catalog().GetDictionary().GetKey("Metadata");
    const std::uint32_t metadata = md && md->IsReference() ? md->GetReference().ObjectNumber() : 0;
    const Object* af = before.catalog().GetDictionary().GetKey("AcroForm");
    const std::uint32_t form = af && af->IsReference() ? af->GetReference().ObjectNumber() : 0;
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
    if (stamped.info_ref() != before.info_ref() && before.info_ref().ObjectNumber() != 0) problems.push_back("the trailer's /Info");
    const Object* new_md = stamped.catalog().GetDictionary().GetKey("Metadata");
    if (!new_md || !new_md->IsReference() || !stamped.is_stream(new_md->GetReference()))
        problems.push_back("the catalog's /Metadata, which is no stream");
}

// ---------------------------------------------------------------- later revisions

// What an object of the baseline is for, as far as later changes are concerned; an object
// reached along several paths is judged by the strictest.
enum Role : unsigned {
    kCatalog = 1u << 0,     // only /AcroForm, /DSS and a few more may change
    kPageTree = 1u << 1,    // nothing may change
    kPage = 1u << 2,        // only /Annots may change
    kContent = 1u << 3,     // page content: nothing may change
    kResource = 1u << 4,    // fonts, images, forms, graphics states: nothing may change
    kDocument = 1u << 5,    // names, actions, optional content, ...: nothing may change
    kMetadata = 1u << 6,    // the XMP: pith's properties may not change
    kAnnots = 1u << 7,      // a page's /Annots array: judged as the page's /Annots
    kAnnotation = 1u << 8,  // may change if it then covers neither the badge nor the title
    kBadgeLink = 1u << 9,   // nothing may change
    kForm = 1u << 10,       // AcroForm and fields: may change
};

class Roles {
public:
    explicit Roles(pdf::File& doc) : doc_(doc) {}

    // Walks the baseline from the catalog. Bounded: when a huge document cuts the walk short,
    // an object it did not reach is judged strictly (kDocument), never let through.
    void walk() {
        visit(doc_.root_ref(), kCatalog);
        while (!queue_.empty() && steps_ < kMaxSteps) {
            auto [ref, role] = queue_.front();
            queue_.pop_front();
            ++steps_;
            expand(ref, role);
        }
        complete_ = queue_.empty();
    }
    unsigned of(std::uint32_t num) const {
        auto it = roles_.find(num);
        if (it != roles_.end()) return it->second;
        return complete_ ? 0u : unsigned(kDocument);
    }

private:
    static constexpr std::size_t kMaxSteps = 500000;

    void visit(const Ref& ref, unsigned role) {
        // The catalog is judged by the catalog rules only, whatever names it (a signature's /Data).
        if (ref.ObjectNumber() == doc_.root_ref().ObjectNumber() && role != kCatalog) return;
        unsigned& have = roles_[ref.ObjectNumber()];
        if ((have & role) == role) return;
        have |= role;
        queue_.emplace_back(ref, role);
    }
    // Every reference inside `o` (not following references) gets `role`, except the keys `skip`.
    void children(const Object& o, unsigned role, std::initializer_list<const char*> skip = {}) {
        if (o.IsReference()) return visit(o.GetReference(), role);
        if (o.IsArray())
            for (const auto& item : o.GetArray()) children(item, role);
        if (o.IsDictionary())
            for (const auto& [key, value] : pdf::entries(o.GetDictionary())) {
                bool skipped = false;
                for (const char* s : skip) skipped |= key == s;
                if (!skipped) children(*value, role);
            }
    }
    // The items of a page's /Annots array: pith's badge link, or other annotations.
    void annotations(const Object& array) {
        if (!array.IsArray()) return;
        for (const auto& item : array.GetArray())
            if (item.IsReference()) visit(item.GetReference(), mark::is_badge_annotation(doc_, item) ? kBadgeLink : kAnnotation);
    }
    void expand(const Ref& ref, unsigned role) {
        const Object& o = doc_.get(ref);
        const std::string type = type_of(o);
        // Pages are judged by the page rules only, whatever else names them (destinations, /P).
        if ((type == "Page" || type == "Pages") && !(role & (kPageTree | kPage))) return;
        if (role == kCatalog && o.IsDictionary()) {
            for (const auto& [key, value] : pdf::entries(o.GetDictionary())) {
                const std::string k = key;
                if (k == "Pages") children(*value, kPageTree);
                else if (k == "Metadata") children(*value, kMetadata);
                else if (k == "AcroForm") children(*value, kForm);
                else if (k != "DSS" && k != "StructTreeRoot" && k != "Outlines" && k != "MarkInfo") children(*value, kDocument);
            }
        } else if (role == kPageTree && o.IsDictionary()) {
            if (const Object* kids = o.GetDictionary().GetKey("Kids"); kids)
                for (const auto& kid : pdf::references_in(doc_, kids)) visit(kid, type_of(doc_.get(kid)) == "Pages" ? kPageTree : kPage);
            children(o, kPageTree, {"Kids", "Parent"});
            if (const Object* r = o.GetDictionary().GetKey("Resources")) children(*r, kResource);
        } else if (role == kPage && o.IsDictionary()) {
            for (const auto& [key, value] : pdf::entries(o.GetDictionary())) {
                const std::string k = key;
                if (k == "Parent") continue;
                if (k == "Contents") children(*value, kContent);
                else if (k == "Resources") children(*value, kResource);
                else if (k == "Annots" && value->IsReference()) visit(value->GetReference(), kAnnots);
                else if (k == "Annots") annotations(*value);
                else children(*value, kPage);
            }
        } else if (role == kAnnots) {
            annotations(o);
        } else if (role == kBadgeLink || role == kAnnotation) {
            children(o, role, {"P", "Parent", "Popup"});
        } else if (role != kMetadata) {
            children(o, role, {"Parent", "P"});
        }
    }

    pdf::File& doc_;
    std::unordered_map<std::uint32_t, unsigned> roles_;
    std::deque<std::pair<Ref, unsigned>> queue_;
    std::size_t steps_ = 0;
    bool complete_ = false;
};

// What the later revisions did, by code, and what they added that is on the list of what may
// change after a stamp (reported as added, never a failure).
struct Problems {
    std::map<Code, std::vector<std::string>> by_code;  // code -> what
    std::vector<std::string> added;                           // allowed: comments, form values, signatures
    int markup = 0;                                           // how many of `added` are comments (DocMDP P=2)
    std::vector<Region> regions;                              // where what was judged stands: annotations, changed pages
    void add(Code code, const std::string& what) { by_code[code].push_back(what); }
    std::size_t count() const {
        std::size_t n = 0;
        for (const auto& [code, what] : by_code) n += what.size();
        return n;
    }
};

// Records an annotation's region once it is judged: a failure when judging it added a problem.
struct MarkJudged {
    Problems& p;
    int page;  // 0-based; -1: on no page (not marked)
    pdf::Rect rect;  // as pdf::read_rect gives it: lower left, upper right
    std::string label;
    std::size_t before = p.count();
    bool shown = true;  // false: hidden by its flags, nothing to draw
    ~MarkJudged() {
        if (page >= 0 && shown)
            p.regions.push_back({page + 1, rect.llx, rect.lly, rect.urx, rect.ury, "annotation", p.count() > before ? "fail" : "info", label});
    }
};

// The baseline and the file now, compared object by object.
struct Comparison {
    std::set<std::uint32_t> changed;     // in the baseline, different now
    std::set<std::uint32_t> fresh;       // not in the baseline
    std::set<std::uint32_t> freed;       // in the baseline, gone now
    std::set<std::uint32_t> unreadable;  // cannot be read now (and is not the baseline's own damage)
};

// Reads object `num` of `doc` whole (a stream's bytes too): false when it cannot be read (it
// does not parse, or is not where the cross-reference data says: read as null). Damage the
// reader repairs (a wrong stream /Length) is not recorded here: pith read no such object before.
bool readable(pdf::File& doc, std::uint32_t num) {
    const std::size_t defects = doc.defects().size();
    bool ok = true;
    try {
        const Ref ref = doc.reference(num);
        ok = !doc.get(ref).IsNull();
        if (ok && doc.is_stream(ref)) doc.stream_encoded(ref);
    } catch (const Error&) {
        ok = false;
    } catch (const pdf::LibraryError&) {
        ok = false;
    }
    doc.forget_defects_since(defects);
    return ok;
}

// An object stream among `later`, as the baseline or the file now reads it: then the objects
// inside it may have changed though no later section lists them.
bool object_stream_redefined(pdf::File& before, pdf::File& now, const std::set<std::uint32_t>& later) {
    for (std::uint32_t num : later)
        for (pdf::File* doc : {&before, &now})
            try {
                if (doc->is_stream(doc->reference(num)) && type_of(doc->get(doc->reference(num))) == "ObjStm") return true;
            } catch (const Error&) {
                return true;  // cannot tell: compare everything
            } catch (const pdf::LibraryError&) {
                return true;
            }
    return false;
}

// Every object of both documents, resolved, not only what the later xref sections list: an
// object stream redefined later changes every object in it though only the stream is listed.
// An object that cannot be read now is a change; `later` (the objects the later sections list)
// tells the baseline's own unreadable objects, left alone, from ones redefined. The lists serve
// only to skip work: where no object stream was redefined and neither cross-reference was
// rebuilt, an object no later section lists is the baseline's bytes, unchanged.
Comparison compare(pdf::File& before, pdf::File& now, const std::set<std::uint32_t>& later) {
    Comparison c;
    const bool everything = before.reconstructed() || now.reconstructed() || object_stream_redefined(before, now, later);
    const std::uint32_t top = std::max(before.max_object_number(), now.max_object_number());
    for (std::uint32_t num = 1; num <= top; ++num) {
        const bool was = before.exists(before.reference(num)), is = now.exists(now.reference(num));
        if (!was && !is) continue;
        if (was && !is) {
            c.freed.insert(num);
            continue;
        }
        if (!everything && !later.count(num)) continue;
        const bool now_ok = readable(now, num);
        if (!was) {
            if (!now_ok) c.unreadable.insert(num);
            c.fresh.insert(num);
            continue;
        }
        const bool before_ok = readable(before, num);
        if (!now_ok && (before_ok || later.count(num))) {
            c.unreadable.insert(num);
            c.changed.insert(num);
        } else if (now_ok && (!before_ok || !same_object(before, now, num))) {
            c.changed.insert(num);
        }
    }
    return c;
}

// The operators a content stream (an appearance) uses; nullopt when it does not parse.
std::optional<std::set<std::string>> operators_of(const std::string& content) {
    std::set<std::string> ops;
    try {
        pdf::ContentLexer lexer(content);
        std::string_view op;
        while (lexer.next_operator(op)) ops.insert(std::string(op));
    } catch (const Error&) {
        return std::nullopt;
    }
    return ops;
}

// The appearance streams of an annotation (/AP /N, /R, /D: a stream or a dictionary of them).
std::vector<Ref> appearance_streams(pdf::File& doc, const Dictionary& annot) {
    std::vector<Ref> out;
    const Object* ap = doc.get_key(annot, "AP");
    if (!ap || !ap->IsDictionary()) return out;
    for (const char* k : {"N", "R", "D"}) {
        const Object* v = ap->GetDictionary().GetKey(k);
        if (!v) continue;
        if (v->IsReference() && doc.is_stream(v->GetReference())) {
            out.push_back(v->GetReference());
            continue;
        }
        const Object& states = doc.resolve(*v);
        if (states.IsDictionary())
            for (const auto& [key, s] : pdf::entries(states.GetDictionary()))
                if (s->IsReference() && doc.is_stream(s->GetReference())) out.push_back(s->GetReference());
    }
    return out;
}

// Whether the appearances use any of `ops` (an appearance that does not parse counts as using them).
bool appearance_uses(pdf::File& doc, const Dictionary& annot, std::initializer_list<const char*> ops) {
    for (const auto& ref : appearance_streams(doc, annot)) {
        std::optional<std::set<std::string>> used;
        try {
            used = operators_of(doc.stream_decoded(ref));
        } catch (const Error&) {
        }
        if (!used) return true;
        for (const char* op : ops)
            if (used->count(op)) return true;
    }
    return false;
}

const std::initializer_list<const char*> kShowsText = {"Tj", "TJ", "'", "\"", "Do", "BI", "sh"};
const std::initializer_list<const char*> kPaints = {"f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "Tj", "TJ", "'", "\"", "Do", "BI", "sh"};

// A form field's type, inherited from its parents.
std::string field_type(pdf::File& doc, const Object& field) {
    const Object* o = &field;
    for (int depth = 0; o && o->IsDictionary() && depth < 16; ++depth) {
        if (const Object* ft = doc.get_key(o->GetDictionary(), "FT")) return name_of(ft);
        o = doc.get_key(o->GetDictionary(), "Parent");
    }
    return {};
}

std::string field_name(pdf::File& doc, const Object& field) {
    const Object* t = field.IsDictionary() ? doc.get_key(field.GetDictionary(), "T") : nullptr;
    return t && pdf::is_string(*t) ? "\"" + pdf::text_of(t) + "\"" : "(unnamed)";
}

// The annotation flags that hide it on screen: Hidden, or NoView without Print.
bool hidden(long long flags) { return (flags & 2) || ((flags & 32) && !(flags & 4)); }

// Keys a reader's viewer changes on an annotation without changing what it shows.
const std::initializer_list<const char*> kNoteKeys = {"M", "Contents", "T", "NM", "Open", "Popup", "RC", "CreationDate",
                                                      "Subj", "IRT", "State", "StateModel", "P"};

// One annotation added or changed after the stamp (`old`: its baseline version, if any),
// against the closed list of what may change: comments (highlight, underline, strike-out,
// squiggly, sticky note, ink, their popups) whose appearance shows no text or image; form-field
// values in their widgets; signatures whose widgets paint nothing. None may cover an area to keep clear.
void judge_annotation(pdf::File& now, const Object& annot, const Object* old, int page, const std::vector<Area>& keep_clear,
                      Problems& p, bool redrawn = false) {
    if (!annot.IsDictionary()) return p.add(finding::pith_changed_annotation, "an annotation that is no dictionary");
    const Dictionary& d = annot.GetDictionary();
    const std::string subtype = name_of(now.get_key(d, "Subtype"));
    const std::string where = "a /" + (subtype.empty() ? std::string("(no subtype)") : subtype) + " annotation" +
                              (page >= 0 ? " on page " + std::to_string(page + 1) : "");
    if (!redrawn && old && old->IsDictionary() && without(changed_keys(*old, annot), kNoteKeys).empty()) return;  // a note's text or state
    const Object* f = now.get_key(d, "F");
    if (f && !f->IsNumber()) return p.add(finding::pith_changed_annotation, where + " whose /F is not an integer");
    const long long flags = f ? f->GetNumber() : 0;
    pdf::Rect rect;
    if (!pdf::read_rect(now, d.GetKey("Rect"), rect)) return p.add(finding::pith_changed_annotation, where + " whose /Rect cannot be read");
    MarkJudged marked{p, page, rect, "/" + subtype + (old ? " changed" : " added") + " after the stamp"};
    if (old && old->IsDictionary()) {
        const Object* of = now.get_key(old->GetDictionary(), "F");
        if (name_of(now.get_key(old->GetDictionary(), "Subtype")) != subtype) return p.add(finding::pith_changed_annotation, where + " that was another kind before");
        if (of && of->IsNumber() && hidden(of->GetNumber()) && !hidden(flags))
            return p.add(finding::pith_changed_annotation, where + " hidden before the stamp and shown after it");
    }
    if (hidden(flags)) return void(marked.shown = false);
    for (const auto& area : keep_clear)
        if (area.page == page && pdf::overlaps(rect, area.rect)) p.add(finding::pith_changed_annotation, where + " over " + area.what);
    static const std::set<std::string> comments = {"Highlight", "Underline", "StrikeOut", "Squiggly", "Text", "Ink", "Popup"};
    if (subtype == "Link") return p.add(finding::pith_changed_action, where + ": links may not be added after the stamp");
    if (comments.count(subtype)) {
        if (appearance_uses(now, d, kShowsText)) return p.add(finding::pith_changed_annotation, where + " whose appearance draws text or images");
        ++p.markup;
        return p.added.push_back("a comment (" + where + ")");
    }
    if (subtype == "Widget") {
        const std::string type = field_type(now, annot);
        if (type == "Sig") {
            if (rect.width() != 0 && rect.height() != 0 && appearance_uses(now, d, kPaints))
                return p.add(finding::pith_changed_annotation, "a signature field's " + where + " whose appearance paints over the page");
            return p.added.push_back("signature field " + field_name(now, annot));
        }
        if (!old) return p.add(finding::pith_changed_form, "a new form field " + field_name(now, annot) + " (" + where + ")");
        if (auto keys = without(changed_keys(*old, annot), {"V", "AP", "AS", "MK", "DA", "F", "M"}); !keys.empty())
            return p.add(finding::pith_changed_form, "the " + keys_text(keys) + " of form field " + field_name(now, annot));
        return p.added.push_back("the value of form field " + field_name(now, annot));
    }
    p.add(finding::pith_changed_annotation, where + ": not a comment pith accepts after the stamp (highlight, underline, strike-out, "
                                     "squiggly, sticky note, ink)");
}

// Actions anywhere in what was added or changed: /A or /Next naming an action, /AA, /OpenAction, /JS.
void find_actions(pdf::File& doc, const Object& o, int depth, std::set<std::string>& found) {
    if (depth > 32) return;
    if (o.IsArray())
        for (const auto& item : o.GetArray()) find_actions(doc, item, depth + 1, found);
    if (!o.IsDictionary()) return;
    for (const auto& [key, value] : pdf::entries(o.GetDictionary())) {
        const std::string k = key;
        if (k == "AA" || k == "OpenAction" || k == "JS") found.insert("/" + k);
        if (k == "A" || k == "Next") {
            const Object& a = doc.resolve(*value);
            if (a.IsDictionary() && a.GetDictionary().GetKey("S")) found.insert("a /" + name_of(a.GetDictionary().GetKey("S")) + " action");
        }
        if (!value->IsReference()) find_actions(doc, *value, depth + 1, found);
    }
}

int page_index(pdf::File& doc, const Ref& ref, const std::vector<Area>& keep_clear) {
    for (const auto& area : keep_clear)
        if (area.page < doc.page_count() && doc.page(area.page).ref == ref) return area.page;
    return -1;  // no area to keep clear there: annotations may go anywhere
}

// Where a change to a page or its content shows (for --picture): the whole of each page of the
// baseline that is the object, or draws it as /Contents. The pages are read once, at the first
// change that asks; a page that cannot be read is not marked (a drawing aid only).
class PagesDrawing {
public:
    explicit PagesDrawing(pdf::File& doc) : doc_(doc) {}
    void mark(std::uint32_t num, Problems& p) {
        if (!read_) read();
        for (auto [it, end] = pages_.equal_range(num); it != end; ++it) {
            const auto& [index, c] = it->second;
            p.regions.push_back({index + 1, c.llx, c.lly, c.urx, c.ury, "content", "fail", "page changed after the stamp"});
        }
    }

private:
    void read() {
        read_ = true;
        try {
            for (int i = 0; i < doc_.page_count(); ++i) {
                const pdf::Page page = doc_.page(i);
                const auto on_page = [&](std::uint32_t num) { pages_.emplace(num, std::make_pair(i, page.crop_box)); };
                on_page(page.ref.ObjectNumber());
                const Object& o = doc_.get(page.ref);
                const Object* contents = o.IsDictionary() ? o.GetDictionary().GetKey("Contents") : nullptr;
                if (contents && contents->IsReference()) on_page(contents->GetReference().ObjectNumber());
                if (contents && contents->IsArray())
                    for (const auto& item : contents->GetArray())
                        if (item.IsReference()) on_page(item.GetReference().ObjectNumber());
            }
        } catch (const Error&) {
        } catch (const pdf::LibraryError&) {
        }
    }

    pdf::File& doc_;
    bool read_ = false;
    std::multimap<std::uint32_t, std::pair<int, pdf::Rect>> pages_;  // object -> (page index, its crop box)
};

void judge_changed(pdf::File& before, pdf::File& now, std::uint32_t num, unsigned role, PagesDrawing& drawing, Problems& p) {
    const Ref ref = before.reference(num);
    const Object& old = before.get(ref);
    const Object& cur = now.get(now.reference(num));
    const std::string what = "object " + std::to_string(num) + (type_of(old).empty() ? "" : " (/" + type_of(old) + ")");
    if (role & kPageTree) return p.add(finding::pith_changed_page_tree, "the page tree node " + what);
    if (role & kPage) {  // a page is judged by the page rules, whatever else names it (an /OpenAction, a destination)
        auto keys = without(changed_keys(old, cur), {"Annots"});
        if (!keys.empty()) drawing.mark(num, p);
        if (keys.count("Contents")) p.add(finding::pith_changed_content, "the /Contents of page " + what);
        keys.erase("Contents");
        if (!keys.empty()) p.add(finding::pith_changed_page, "the " + keys_text(keys) + " of page " + what);
        return;
    }
    if (role & kContent) {
        drawing.mark(num, p);
        return p.add(finding::pith_changed_content, "page content stream " + what);
    }
    if (role & kResource) return p.add(finding::pith_changed_resource, "a resource pages draw with, " + what);
    if (role & kBadgeLink) return p.add(finding::pith_changed_annotation, "the badge's link annotation " + what);
    if (role & kDocument) return p.add(finding::pith_changed_catalog, "a document-level " + what);
    if (role & kCatalog) {
        auto keys = without(changed_keys(old, cur), {"AcroForm", "DSS", "Extensions", "Version", "MarkInfo", "StructTreeRoot", "Outlines"});
        if (!keys.empty()) p.add(finding::pith_changed_catalog, "the catalog's " + keys_text(keys));
        return;
    }
    if (role & kMetadata) {
        try {
            if (xmp::read(before.stream_decoded(ref)).pith == xmp::read(now.stream_decoded(now.reference(num))).pith) return;
        } catch (const Error&) {
        }
        return p.add(finding::pith_changed_metadata, "pith's XMP properties were rewritten");
    }
    // Annotations and their /Annots arrays are judged page by page (judge_pages).
}

// Every annotation of every page now that is new or changed, judged with its page; the badge's
// link may not leave its page. Then annotations the pages do not list (a form's widgets).
const pdf::Array* annots_of(pdf::File& doc, int i) { return pdf::annotations(doc, doc.get(doc.page(i).ref)); }

// Whether an appearance stream of `annot` was redefined later: that changes what the annotation
// shows, though not its dictionary.
bool redrawn(pdf::File& now, const Object& annot, const Comparison& c) {
    bool out = false;
    if (annot.IsDictionary())
        for (const auto& ref : appearance_streams(now, annot.GetDictionary())) out |= c.changed.count(ref.ObjectNumber()) > 0;
    if (const Object* ap = annot.IsDictionary() ? annot.GetDictionary().GetKey("AP") : nullptr; ap && ap->IsReference())
        out |= c.changed.count(ap->GetReference().ObjectNumber()) > 0;
    return out;
}

// The annotations page `i` lists that are new or changed since the baseline (`judged` collects them).
void judge_page_annotations(pdf::File& before, pdf::File& now, const Comparison& c, int i, const std::vector<Area>& keep_clear,
                            std::set<std::uint32_t>& judged, Problems& p) {
    const auto* cur = annots_of(now, i);
    const auto* old = i < before.page_count() ? annots_of(before, i) : nullptr;
    std::set<std::string> kept;  // the baseline's items, as written
    if (old)
        for (const auto& item : *old) kept.insert(canon(item));
    if (old)
        for (const auto& item : *old)
            if (item.IsReference() && mark::is_badge_annotation(before, item) && (!cur || !std::any_of(cur->begin(), cur->end(),
                    [&](const Object& x) { return x.IsReference() && x.GetReference() == item.GetReference(); })))
                p.add(finding::pith_changed_annotation, "the badge's link was removed from page " + std::to_string(i + 1));
    if (!cur) return;
    std::vector<Area> areas;
    for (const auto& area : keep_clear)
        if (area.page == i) areas.push_back(area);
    for (const auto& item : *cur) {
        if (!item.IsReference()) {
            if (!kept.count(canon(item))) judge_annotation(now, item, nullptr, i, areas, p);
            continue;
        }
        const std::uint32_t num = item.GetReference().ObjectNumber();
        if (c.unreadable.count(num) || judged.count(num) || mark::is_badge_annotation(before, item)) continue;  // a changed badge link is its own failure
        const Object& annot = now.get(item.GetReference());
        const bool again = redrawn(now, annot, c);
        if (!(c.fresh.count(num) || c.changed.count(num) || again)) continue;
        judged.insert(num);
        const Object* was = c.fresh.count(num) ? nullptr : &before.get(before.reference(num));
        judge_annotation(now, annot, was, i, areas, p, again);
    }
}

// Annotations no page lists (a widget only the form names) still draw in some viewers.
void judge_unlisted_annotations(pdf::File& before, pdf::File& now, const Comparison& c, const std::vector<Area>& keep_clear,
                                std::set<std::uint32_t>& judged, Problems& p) {
    static const std::set<std::string> kinds = {"Widget", "Link", "FreeText", "Stamp", "Square", "Circle", "Line", "Polygon",
                                                "PolyLine", "Highlight", "Underline", "StrikeOut", "Squiggly", "Text", "Ink",
                                                "Popup", "Caret", "FileAttachment", "Sound", "Movie", "Screen", "Watermark", "Redact",
                                                "RichMedia", "3D", "PrinterMark", "TrapNet"};
    for (const auto* set : {&c.fresh, &c.changed})
        for (std::uint32_t num : *set) {
            if (judged.count(num) || c.unreadable.count(num)) continue;
            const Object& o = now.get(now.reference(num));
            if (!o.IsDictionary() || (!kinds.count(name_of(o.GetDictionary().GetKey("Subtype"))) && type_of(o) != "Annot")) continue;
            if (mark::is_badge_annotation(before, Object(before.reference(num)))) continue;
            judged.insert(num);
            const Object* page_ref = o.GetDictionary().GetKey("P");
            const int page = page_ref && page_ref->IsReference() ? page_index(before, page_ref->GetReference(), keep_clear) : -1;
            const Object* old = set == &c.changed ? &before.get(before.reference(num)) : nullptr;
            if (page_ref) {
                judge_annotation(now, o, old, page, keep_clear, p);
            } else {  // on any page: judged against every area
                Problems one;
                for (const auto& area : keep_clear) judge_annotation(now, o, old, area.page, {area}, one);
                if (keep_clear.empty()) judge_annotation(now, o, old, -1, {}, one);
                for (const auto& [code, items] : one.by_code) p.by_code[code].push_back(items.front());
                if (one.by_code.empty() && !one.added.empty()) {
                    p.added.push_back(one.added.front());
                    p.markup += one.markup > 0;
                }
            }
        }
}

void judge_pages(pdf::File& before, pdf::File& now, const Comparison& c, const std::vector<Area>& keep_clear, Problems& p) {
    std::set<std::uint32_t> judged;
    for (int i = 0; i < now.page_count(); ++i) judge_page_annotations(before, now, c, i, keep_clear, judged, p);
    judge_unlisted_annotations(before, now, c, keep_clear, judged, p);
}

// The form: /NeedAppearances (viewers redraw every field from its value), XFA (Acrobat shows
// another form), a calculation order (scripts), new fields other than signatures.
void judge_form(pdf::File& before, pdf::File& now, const Comparison& c, Problems& p) {
    const Object* old_form = before.get_key(before.catalog().GetDictionary(), "AcroForm");
    const Object* form = now.get_key(now.catalog().GetDictionary(), "AcroForm");
    if (!form || !form->IsDictionary()) return;
    const Object empty{Dictionary()};
    const Object& old = old_form && old_form->IsDictionary() ? *old_form : empty;
    const std::set<std::string> keys = changed_keys(old, *form);
    const Object* need = now.get_key(form->GetDictionary(), "NeedAppearances");
    if (keys.count("NeedAppearances") && need && need->IsBool() && need->GetBool())
        p.add(finding::pith_changed_form, "the form's /NeedAppearances (viewers redraw every field from its value)");
    for (const char* k : {"XFA", "CO"})
        if (keys.count(k)) p.add(finding::pith_changed_form, std::string("the form's /") + k);
    const Object* fields = now.get_key(form->GetDictionary(), "Fields");
    if (fields && fields->IsArray())
        for (const auto& item : fields->GetArray())
            if (item.IsReference() && c.fresh.count(item.GetReference().ObjectNumber()) && !c.unreadable.count(item.GetReference().ObjectNumber())) {
                const Object& field = now.get(item.GetReference());
                if (field.IsDictionary() && !field.GetDictionary().HasKey("Subtype") && field_type(now, field) != "Sig")
                    p.add(finding::pith_changed_form, "a new form field " + field_name(now, field));
            }
}

// The dc: title, creator and description of an XMP packet, as written (whatever prefix binds
// the Dublin Core namespace): what viewers show as the document's title, author and subject.
std::vector<std::string> dc_fields(const std::string& xmp) {
    std::vector<std::string> out;
    const std::string ns = "http://purl.org/dc/elements/1.1/";
    for (std::size_t at = xmp.find(ns); at != std::string::npos; at = xmp.find(ns, at + 1)) {
        const std::size_t eq = xmp.rfind('=', at);
        const std::size_t colon = xmp.rfind("xmlns:", eq);
        if (eq == std::string::npos || colon == std::string::npos || eq - colon > 40) continue;
        const std::string prefix = xmp.substr(colon + 6, eq - colon - 6);
        for (const char* name : {"title", "creator", "description"}) {
            const std::string tag = prefix + ":" + name;
            for (std::size_t i = xmp.find(tag); i != std::string::npos; i = xmp.find(tag, i + 1)) {
                const std::size_t after = i + tag.size();
                if (after >= xmp.size() || (xmp[after] != '=' && xmp[after] != '>' && xmp[after] != ' ' && xmp[after] != '/'))
                    continue;  // another name that starts so
                if (i > 0 && xmp[i - 1] == '/') continue;  // an end tag
                if (i == 0 || xmp[i - 1] != '<') {  // an attribute: its quoted value
                    const std::size_t q = xmp.find_first_of("\"'", after);
                    const std::size_t e = q == std::string::npos ? q : xmp.find(xmp[q], q + 1);
                    if (e != std::string::npos) out.push_back(std::string(name) + "=" + xmp.substr(q + 1, e - q - 1));
                    continue;
                }
                // An element: its text, tags left out and white space collapsed (writers differ in layout).
                const std::size_t gt = xmp.find('>', after);
                if (gt == std::string::npos) break;
                if (xmp[gt - 1] == '/') {  // <dc:description/>: empty
                    out.push_back(std::string(name) + "=");
                    i = gt;
                    continue;
                }
                const std::size_t end = xmp.find("</" + tag, after);
                std::string text;
                bool in_tag = true;  // the rest of the start tag
                for (std::size_t k = after; k < (end == std::string::npos ? xmp.size() : end); ++k) {
                    const char ch = xmp[k];
                    if (ch == '<' || ch == '>') {
                        in_tag = ch == '<';
                        if (!text.empty() && text.back() != ' ') text += ' ';
                    } else if (!in_tag) {
                        const bool space = ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
                        if (!space) text += ch;
                        else if (!text.empty() && text.back() != ' ') text += ' ';
                    }
                }
                while (!text.empty() && text.back() == ' ') text.pop_back();
                out.push_back(std::string(name) + "=" + text);
                if (end == std::string::npos) break;
                i = end + tag.size();  // past the end tag's name
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Info /Title, /Author, /Subject and XMP dc:title, dc:creator, dc:description: what viewers show
// as the document's title (in the window bar with /DisplayDocTitle), author and subject.
void judge_document_information(pdf::File& before, pdf::File& now, Problems& p) {
    const Object* old_info = before.info();
    const Object* info = now.info();
    for (const char* key : {"Title", "Author", "Subject"}) {
        const Object* a = old_info ? before.get_key(old_info->GetDictionary(), key) : nullptr;
        const Object* b = info ? now.get_key(info->GetDictionary(), key) : nullptr;
        if ((a ? canon(*a) : "") != (b ? canon(*b) : "")) p.add(finding::pith_changed_metadata, std::string("Info /") + key);
    }
    auto xmp = [](pdf::File& doc) {
        const Object* md = doc.catalog().GetDictionary().GetKey("Metadata");
        try {
            return md && md->IsReference() && doc.is_stream(md->GetReference()) ? doc.stream_decoded(md->GetReference(), xmp::kMaxPacketSize)
                                                                                 : std::string();
        } catch (const Error&) {
            return std::string("(unreadable)");
        }
    };
    if (dc_fields(xmp(before)) != dc_fields(xmp(now))) p.add(finding::pith_changed_metadata, "the XMP's dc:title, dc:creator or dc:description");
}

}  // namespace

Baseline check_pith_update(pdf::File& file, const std::optional<std::uint64_t>& prior_length, const std::string& password,
                           Findings& f) {
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
            auto d = prefix(file, r.end, "first revision", password);
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
    std::optional<pdf::File> before = prefix(file, prior, "before pith's update", password);
    const bool is_file = b.end == bytes.size();
    std::optional<pdf::File> copy = is_file ? std::nullopt : prefix(file, b.end, "as stamped", password);
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

// The trailer, the encryption and Info's /PithNumber, as the baseline had them.
void judge_trailer(pdf::File& baseline, pdf::File& file, Problems& p) {
    if (file.root_ref() != baseline.root_ref()) p.add(finding::pith_changed_catalog, "the trailer names another catalog (/Root)");
    if (file.encrypted() != baseline.encrypted() || file.encrypt_ref() != baseline.encrypt_ref())
        p.add(finding::pith_changed_catalog, "the encryption (/Encrypt)");
    auto pith_number = [](pdf::File& d) {
        const Object* info = d.info();
        const Object* n = info ? info->GetDictionary().GetKey("PithNumber") : nullptr;
        return n ? canon(*n) : std::string();
    };
    if (pith_number(baseline) != pith_number(file)) p.add(finding::pith_changed_metadata, "Info's /PithNumber");
}

// Every changed object by its role in the baseline; true when anything changed but the
// catalog's /DSS (DocMDP P=1 allows nothing else).
bool judge_objects(pdf::File& baseline, pdf::File& file, const Comparison& c, Problems& p) {
    Roles roles(baseline);
    roles.walk();
    PagesDrawing drawing(baseline);
    bool other_changes = false;
    for (std::uint32_t num : c.changed) {
        const unsigned role = roles.of(num);
        if (c.unreadable.count(num)) {
            p.add(finding::pith_changed_unreadable, "object " + std::to_string(num) + " cannot be read after the stamp");
            continue;
        }
        if (role != 0 && !(role == kCatalog && without(changed_keys(baseline.get(baseline.reference(num)), file.get(file.reference(num))), {"DSS"}).empty()))
            other_changes = true;
        judge_changed(baseline, file, num, role, drawing, p);
    }
    for (std::uint32_t num : c.unreadable)
        if (!c.changed.count(num) && roles.of(num) == 0) p.add(finding::pith_changed_unreadable, "object " + std::to_string(num) + ", added after the stamp, cannot be read");
    for (std::uint32_t num : c.freed)
        if (roles.of(num) & ~unsigned(kAnnotation | kForm)) p.add(finding::pith_changed_freed, "object " + std::to_string(num) + " was freed");
    return other_changes;
}

// Actions added anywhere: those an object did not have in the baseline.
void judge_actions(pdf::File& baseline, pdf::File& file, const Comparison& c, Problems& p) {
    for (const auto* set : {&c.changed, &c.fresh})
        for (std::uint32_t num : *set) {
            if (c.unreadable.count(num)) continue;
            std::set<std::string> found, had;
            find_actions(file, file.get(file.reference(num)), 0, found);
            if (set == &c.changed) find_actions(baseline, baseline.get(baseline.reference(num)), 0, had);
            std::vector<std::string> added;
            for (const auto& a : found)
                if (!had.count(a)) added.push_back(a);
            if (!added.empty())
                p.add(finding::pith_changed_action, joined(added) + " in object " + std::to_string(num) + " (no links, actions or scripts may be added after the stamp)");
        }
}

// A certification signature's DocMDP permissions against what changed; the permissions (0: none).
int judge_docmdp(pdf::File& baseline, bool other_changes, Problems& p) {
    const int docmdp = sign::docmdp_permissions(baseline);
    if (docmdp == 1 && (other_changes || !p.added.empty()))
        p.add(finding::pith_changed_docmdp, "the certification signature's DocMDP permissions (P=1) allow no change at all");
    if (docmdp == 2 && p.markup > 0)
        p.add(finding::pith_changed_docmdp, "the certification signature's DocMDP permissions (P=2) allow form filling and signing, not comments");
    return docmdp;
}

void report_changes(const Problems& p, std::size_t count, int docmdp, Findings& f) {
    f.regions.insert(f.regions.end(), p.regions.begin(), p.regions.end());
    const std::string what = std::to_string(count) + " revision" + (count == 1 ? "" : "s") + " appended after the pith data";
    if (p.by_code.empty()) {
        std::string list = p.added.empty() ? "document information only (dates and XMP properties, not the title, author or subject)"
                                           : "added after the stamp: " + joined(p.added);
        f.info(finding::pith_changes_after, what + " change only what may change after a stamp" +
                                         (docmdp ? " (DocMDP P=" + std::to_string(docmdp) + ")" : std::string()) + "; " + list);
        return;
    }
    for (const auto& [code, items] : p.by_code) f.fail(code, "changed after stamping (" + what + "): " + joined(items));
}

void check_later_changes(pdf::File& file, const Baseline& b, const std::vector<Area>& keep_clear, const std::string& password,
                         Findings& f) {
    if (!b.found) return;
    if (b.whole_file) {
        f.ok(finding::pith_changes_none, "nothing was appended to the file after its pith data");
        return;
    }
    std::optional<pdf::File> baseline = prefix(file, b.end, "as stamped", password);
    if (!baseline || !chain_starts_with(file, *baseline)) {
        f.fail(finding::pith_xref_chain, "the file's cross-reference chain does not pass through the revision that holds its pith data: "
                                  "viewers and pith may read different documents");
        return;
    }
    std::set<std::uint32_t> later;
    std::size_t count = 0;
    for (const auto& r : file.revisions())
        if (r.end > b.end) {
            later.insert(r.objects.begin(), r.objects.end());
            ++count;
        }
    Problems p;
    const Comparison c = compare(*baseline, file, later);
    judge_trailer(*baseline, file, p);
    const bool other_changes = judge_objects(*baseline, file, c, p);
    try {
        judge_pages(*baseline, file, c, keep_clear, p);
        judge_form(*baseline, file, c, p);
        judge_document_information(*baseline, file, p);
        judge_actions(*baseline, file, c, p);
    } catch (const Error& e) {
        p.add(finding::pith_changed_unreadable, std::string("what was appended cannot be read (") + e.what() + ")");
    } catch (const pdf::LibraryError& e) {
        p.add(finding::pith_changed_unreadable, "what was appended cannot be read (" + pdf::podofo_words(e) + ")");
    }
    report_changes(p, count, judge_docmdp(*baseline, other_changes, p), f);
}

}  // namespace pith::verify
