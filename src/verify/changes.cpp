// SPDX-License-Identifier: MIT
#include "verify/changes.hpp"

#include "core/error.hpp"
#include "pdf/budget.hpp"
#include "stamp/stamp.hpp"
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

using PoDoFo::PdfArray;
using PoDoFo::PdfDictionary;
using PoDoFo::PdfObject;
using PoDoFo::PdfReference;

std::string name_of(const PdfObject* o) { return o && o->IsName() ? o->GetName().GetName() : std::string(); }
std::string type_of(const PdfObject& o) { return o.IsDictionary() ? name_of(o.GetDictionary().GetKey("Type")) : std::string(); }

std::string keys_text(const std::set<std::string>& keys) {
    std::string out;
    for (const auto& k : keys) out += (out.empty() ? "/" : ", /") + k;
    return out;
}

// A value as text for comparing: strings by their (decrypted) text whatever their syntax, so
// that an encrypted file's strings, re-encrypted as another string form, still compare equal;
// numbers to 5 decimals, as pith stamp's writer (PoDoFo) keeps 6 of a page's real numbers.
std::string canon(const PdfObject& o) {
    if (o.IsString() || o.IsHexString()) return "(" + o.GetString().GetStringUtf8() + ")";
    if (o.IsName()) return "/" + o.GetName().GetName();
    if (o.IsReference()) return std::to_string(o.GetReference().ObjectNumber()) + " " + std::to_string(o.GetReference().GenerationNumber()) + " R";
    if (o.IsNumber() || o.IsReal()) {  // to 5 decimals: PoDoFo writes reals with 6
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.5f", pdf::number_value(o));
        return buf;
    }
    if (o.IsArray()) {
        std::string out = "[";
        for (const auto& item : o.GetArray()) out += canon(item) + " ";
        return out + "]";
    }
    if (o.IsDictionary()) {
        std::string out = "<<";
        for (const auto& [key, value] : o.GetDictionary().GetKeys()) out += "/" + key.GetName() + " " + canon(*value) + " ";
        return out + ">>";
    }
    return pdf::to_pdf_string(o);  // null, booleans
}


// Object `num` of `a` and of `b` are the same: same value, and for streams the same bytes.
bool same_object(pdf::File& a, pdf::File& b, std::uint32_t num) {
    const PdfReference ra = a.reference(num), rb = b.reference(num);
    if (a.exists(ra) != b.exists(rb)) return false;
    if (!a.exists(ra)) return true;
    if (ra != rb || canon(a.get(ra)) != canon(b.get(rb))) return false;
    if (a.is_stream(ra) != b.is_stream(rb)) return false;
    return !a.is_stream(ra) || a.stream_encoded(ra) == b.stream_encoded(rb);
}

// The keys whose values differ between two dictionaries (a key present in only one counts).
std::set<std::string> changed_keys(const PdfObject& a, const PdfObject& b) {
    std::set<std::string> out;
    if (!a.IsDictionary() || !b.IsDictionary()) return {"(whole object)"};
    for (const auto& [key, value] : a.GetDictionary().GetKeys()) {
        const PdfObject* other = b.GetDictionary().GetKey(key);
        if (!other || canon(*other) != canon(*value)) out.insert(key.GetName());
    }
    for (const auto& [key, value] : b.GetDictionary().GetKeys())
        if (!a.GetDictionary().GetKey(key)) out.insert(key.GetName());
    return out;
}

std::set<std::string> without(std::set<std::string> keys, std::initializer_list<const char*> allowed) {
    for (const char* k : allowed) keys.erase(k);
    return keys;
}

// The references a /Contents or /Annots value lists (a reference to an array, an array, or one reference).
std::vector<PdfReference> refs_in(pdf::File& file, const PdfObject* value) {
    std::vector<PdfReference> out;
    if (!value) return out;
    const PdfObject& v = file.resolve(*value);
    if (v.IsArray()) {
        for (const auto& item : v.GetArray())
            if (item.IsReference()) out.push_back(item.GetReference());
    } else if (value->IsReference()) {
        out.push_back(value->GetReference());
    }
    return out;
}

// The document `file` held when it was `length` bytes long; nullopt when those bytes are no PDF.
std::optional<pdf::File> prefix(pdf::File& file, std::uint64_t length, const std::string& what, const std::string& password) {
    try {
        return pdf::File::from_bytes(std::string(file.bytes().substr(0, length)), file.name() + " (" + what + ")",
                                     pdf::OpenOptions{password, !password.empty()});
    } catch (const Error&) {
        return std::nullopt;
    } catch (const PoDoFo::PdfError&) {
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
    const std::string& head = stamp::kBadgeCloseHead;
    const std::string& tail = stamp::kBadgeCloseTail;
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

bool new_plain_stream(pdf::File& before, pdf::File& stamped, const PdfReference& ref, bool (*ok)(const std::string&)) {
    if (before.exists(ref) || !stamped.is_stream(ref) || stamped.get(ref).GetDictionary().HasKey("Filter")) return false;
    return ok(stamped.stream_encoded(ref));
}

bool no_border(const PdfObject& border) {
    return border.IsArray() && border.GetArray().size() == 3 &&
           std::all_of(border.GetArray().begin(), border.GetArray().end(),
                       [](const PdfObject& n) { return (n.IsNumber() || n.IsReal()) && pdf::number_value(n) == 0; });
}

// The link annotation draw_badge writes, and nothing more.
bool is_badge_link(pdf::File& stamped, const PdfObject& link, const PdfReference& page) {
    if (!link.IsDictionary()) return false;
    const PdfDictionary& d = link.GetDictionary();
    std::set<std::string> keys;
    for (const auto& [key, value] : d.GetKeys()) keys.insert(key.GetName());
    if (keys != std::set<std::string>{"Type", "Subtype", "Rect", "Border", "F", "NM", "P", "Contents", "A"}) return false;
    const PdfObject* action = d.GetKey("A");
    if (name_of(d.GetKey("Subtype")) != "Link" || !no_border(*d.GetKey("Border")) ||
        pdf::number_value(*d.GetKey("F")) != 4 || !d.GetKey("P")->IsReference() || d.GetKey("P")->GetReference() != page ||
        !action->IsDictionary() || action->GetDictionary().GetKeys().size() != 2 ||
        name_of(action->GetDictionary().GetKey("S")) != "URI")
        return false;
    pdf::Rect rect;
    return stamp::is_badge_annotation(stamped, link) && pdf::read_rect(stamped, d.GetKey("Rect"), rect);
}

// ---------------------------------------------------------------- a publisher's signature in pith's update

// `ref` is a signature field `pith stamp --sign-*` adds: new, an invisible widget (zero-area
// rectangle) merged with a field /FT /Sig whose /V is a new signature dictionary, nothing more.
bool is_new_signature_field(pdf::File& before, pdf::File& stamped, const PdfObject& item) {
    if (!item.IsReference() || before.exists(item.GetReference()) || !stamped.exists(item.GetReference())) return false;
    const PdfObject& field = stamped.get(item.GetReference());
    if (!field.IsDictionary()) return false;
    const PdfDictionary& d = field.GetDictionary();
    for (const auto& [key, value] : d.GetKeys())
        if (!std::set<std::string>{"Type", "Subtype", "FT", "T", "V", "F", "Rect", "P", "AP"}.count(key.GetName())) return false;
    // Its appearance, if any: one new empty form (PDF/A wants one; the zero rectangle shows nothing).
    if (const PdfObject* ap = d.GetKey("AP")) {
        const PdfObject* n = ap->IsDictionary() && ap->GetDictionary().GetKeys().size() == 1 ? ap->GetDictionary().GetKey("N") : nullptr;
        if (!n || !n->IsReference() || before.exists(n->GetReference()) || !stamped.is_stream(n->GetReference()) ||
            !stamped.stream_decoded(n->GetReference()).empty())
            return false;
    }
    const PdfObject* v = d.GetKey("V");
    pdf::Rect rect;
    return name_of(d.GetKey("FT")) == "Sig" && name_of(d.GetKey("Subtype")) == "Widget" && v && v->IsReference() &&
           !before.exists(v->GetReference()) && type_of(stamped.get(v->GetReference())) == "Sig" &&
           pdf::read_rect(stamped, d.GetKey("Rect"), rect) && rect.width() == 0 && rect.height() == 0;
}

// The form pith's update leaves: the old one (or none) plus new signature fields and /SigFlags;
// with a certification, the catalog's /Perms gains /DocMDP naming the new signature.
void check_signature_form(pdf::File& before, pdf::File& stamped, std::vector<std::string>& problems) {
    const PdfObject* old_form = before.get_key(before.catalog().GetDictionary(), "AcroForm");
    const PdfObject* new_form = stamped.get_key(stamped.catalog().GetDictionary(), "AcroForm");
    if (!new_form || !new_form->IsDictionary()) return problems.push_back("the catalog's /AcroForm");
    const PdfObject empty{PdfDictionary()};
    const PdfObject& old = old_form && old_form->IsDictionary() ? *old_form : empty;
    if (auto keys = without(changed_keys(old, *new_form), {"Fields", "SigFlags"}); !keys.empty())
        problems.push_back("the form's " + keys_text(keys));
    const PdfObject* old_fields = before.get_key(old.GetDictionary(), "Fields");
    const PdfObject* new_fields = stamped.get_key(new_form->GetDictionary(), "Fields");
    const std::size_t kept = old_fields && old_fields->IsArray() ? old_fields->GetArray().size() : 0;
    bool ok = new_fields && new_fields->IsArray() && new_fields->GetArray().size() == kept + 1;
    for (std::size_t i = 0; ok && i < kept; ++i) ok = canon(old_fields->GetArray()[i]) == canon(new_fields->GetArray()[i]);
    if (!ok || !is_new_signature_field(before, stamped, new_fields->GetArray().back()))
        problems.push_back("the form's /Fields beyond one new signature field");
    const PdfObject* flags = stamped.get_key(new_form->GetDictionary(), "SigFlags");
    if (!flags || !flags->IsNumber() || (flags->GetNumber() & 3) != 3) problems.push_back("the form's /SigFlags");
    const PdfObject* old_perms = before.get_key(before.catalog().GetDictionary(), "Perms");
    const PdfObject* new_perms = stamped.get_key(stamped.catalog().GetDictionary(), "Perms");
    if (canon(old_perms ? *old_perms : empty) == canon(new_perms ? *new_perms : empty)) return;
    const PdfObject* docmdp = new_perms && new_perms->IsDictionary() ? new_perms->GetDictionary().GetKey("DocMDP") : nullptr;
    if (!ok || !docmdp || !docmdp->IsReference() ||
        docmdp->GetReference() != stamped.get(new_fields->GetArray().back().GetReference()).GetDictionary().GetKey("V")->GetReference() ||
        !without(changed_keys(old_perms ? *old_perms : empty, *new_perms), {"DocMDP"}).empty() || (old_perms && old_perms->IsDictionary() && old_perms->GetDictionary().HasKey("DocMDP")))
        problems.push_back("the catalog's /Perms");
}

// The badge page: pith's update may change its /Contents (its two streams around what was
// there), /Resources (the badge XObject added) and /Annots (the link added), nothing else.
void check_badge_page(pdf::File& before, pdf::File& stamped, const PdfReference& ref, Baseline& b,
                      std::vector<std::string>& problems) {
    int index = -1;
    for (int i = 0, n = before.page_count(); i < n && index < 0; ++i)
        if (before.page(i).ref == ref) index = i;
    const std::string which = "page object " + std::to_string(ref.ObjectNumber());
    if (index < 0) return problems.push_back(which + ", not a page of the document");
    const PdfObject& old_page = before.get(ref);
    const PdfObject& new_page = stamped.get(ref);
    const std::set<std::string> other = without(changed_keys(old_page, new_page), {"Contents", "Resources", "Annots"});
    if (!other.empty()) problems.push_back("page " + std::to_string(index + 1) + "'s " + keys_text(other));

    // /Contents: [open, the old streams (an earlier badge's left out, wherever it stood), close].
    auto old_items = refs_in(before, old_page.GetDictionary().GetKey("Contents"));
    old_items.erase(std::remove_if(old_items.begin(), old_items.end(),
                                   [&](const PdfReference& r) { return stamp::is_badge_stream(before, PdfObject(r)); }),
                    old_items.end());
    const PdfObject* contents = new_page.GetDictionary().GetKey("Contents");
    auto items = refs_in(stamped, contents);
    const bool contents_ok = contents && contents->IsArray() && items.size() == old_items.size() + 2 &&
                             std::equal(old_items.begin(), old_items.end(), items.begin() + 1) &&
                             new_plain_stream(before, stamped, items.front(), [](const std::string& s) { return s == stamp::kBadgeOpen; }) &&
                             new_plain_stream(before, stamped, items.back(), is_close_stream);
    if (!contents_ok) problems.push_back("page " + std::to_string(index + 1) + "'s /Contents beyond the badge's two streams");

    // /Resources: the page's effective resources and the badge XObject.
    const pdf::Page old_view = before.page(index);
    const PdfObject* resources = new_page.GetDictionary().GetKey("Resources");
    bool resources_ok = resources && resources->IsDictionary();
    PdfReference badge_xobject;
    if (resources_ok) {
        PdfDictionary expected = old_view.resources.IsDictionary() ? old_view.resources.GetDictionary() : PdfDictionary();
        PdfDictionary xobjects;
        if (const PdfObject* x = before.get_key(expected, "XObject"); x && x->IsDictionary()) xobjects = x->GetDictionary();
        const PdfObject* badge = nullptr;
        if (const PdfObject* x = resources->GetDictionary().GetKey("XObject"); x && x->IsDictionary())
            badge = x->GetDictionary().GetKey(PoDoFo::PdfName(stamp::kBadgeResourceName));
        resources_ok = badge && badge->IsReference() && !before.exists(badge->GetReference()) &&
                       type_of(stamped.get(badge->GetReference())) == "XObject";
        if (resources_ok) {
            badge_xobject = badge->GetReference();
            xobjects.AddKey(PoDoFo::PdfName(stamp::kBadgeResourceName), *badge);
            expected.AddKey("XObject", xobjects);
            resources_ok = canon(PdfObject(expected)) == canon(*resources);
        }
    }
    if (!resources_ok) problems.push_back("page " + std::to_string(index + 1) + "'s /Resources beyond the badge XObject");

    // /Annots: the old ones (an earlier badge link left out) and the new link.
    std::vector<std::string> expected_annots;
    if (const PdfObject* old = before.get_key(old_page.GetDictionary(), "Annots"); old && old->IsArray())
        for (const auto& item : old->GetArray()) {
            if (!stamp::is_badge_annotation(before, item)) expected_annots.push_back(canon(item));
        }
    const PdfObject* annots = new_page.GetDictionary().GetKey("Annots");
    // A signing stamp adds its invisible signature widget after the link.
    const bool widget = annots && annots->IsArray() && annots->GetArray().size() == expected_annots.size() + 2 &&
                        is_new_signature_field(before, stamped, annots->GetArray().back());
    bool annots_ok = annots && annots->IsArray() && annots->GetArray().size() == expected_annots.size() + 1 + widget;
    PdfReference link;
    if (annots_ok) {
        PdfArray items = annots->GetArray();
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
        if (const PdfObject* old = before.get_key(old_page.GetDictionary(), "Annots"); old && old->IsArray())
            for (const auto& item : old->GetArray())
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
    const PdfObject* md = before.catalog().GetDictionary().GetKey("Metadata");
    const std::uint32_t metadata = md && md->IsReference() ? md->GetReference().ObjectNumber() : 0;
    const PdfObject* af = before.catalog().GetDictionary().GetKey("AcroForm");
    const std::uint32_t form = af && af->IsReference() ? af->GetReference().ObjectNumber() : 0;
    bool signed_form = false;  // the form changed: only a publisher's signature may change it
    for (std::uint32_t num : touched) {
        const PdfReference ref = before.reference(num);
        if (!before.exists(ref) || same_object(before, stamped, num)) continue;  // new objects are judged where they are used
        if (num == metadata) continue;                                           // the XMP: read by its own rules
        const PdfObject& old = before.get(ref);
        const PdfObject& now = stamped.get(stamped.reference(num));
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
    const PdfObject* new_md = stamped.catalog().GetDictionary().GetKey("Metadata");
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

    void visit(const PdfReference& ref, unsigned role) {
        unsigned& have = roles_[ref.ObjectNumber()];
        if ((have & role) == role) return;
        have |= role;
        queue_.emplace_back(ref, role);
    }
    // Every reference inside `o` (not following references) gets `role`, except the keys `skip`.
    void children(const PdfObject& o, unsigned role, std::initializer_list<const char*> skip = {}) {
        if (o.IsReference()) return visit(o.GetReference(), role);
        if (o.IsArray())
            for (const auto& item : o.GetArray()) children(item, role);
        if (o.IsDictionary())
            for (const auto& [key, value] : o.GetDictionary().GetKeys()) {
                bool skipped = false;
                for (const char* s : skip) skipped |= key.GetName() == s;
                if (!skipped) children(*value, role);
            }
    }
    // The items of a page's /Annots array: pith's badge link, or other annotations.
    void annotations(const PdfObject& array) {
        if (!array.IsArray()) return;
        for (const auto& item : array.GetArray())
            if (item.IsReference()) visit(item.GetReference(), stamp::is_badge_annotation(doc_, item) ? kBadgeLink : kAnnotation);
    }
    void expand(const PdfReference& ref, unsigned role) {
        const PdfObject& o = doc_.get(ref);
        const std::string type = type_of(o);
        // Pages are judged by the page rules only, whatever else names them (destinations, /P).
        if ((type == "Page" || type == "Pages") && !(role & (kPageTree | kPage))) return;
        if (role == kCatalog && o.IsDictionary()) {
            for (const auto& [key, value] : o.GetDictionary().GetKeys()) {
                const std::string k = key.GetName();
                if (k == "Pages") children(*value, kPageTree);
                else if (k == "Metadata") children(*value, kMetadata);
                else if (k == "AcroForm") children(*value, kForm);
                else if (k != "DSS" && k != "StructTreeRoot" && k != "Outlines" && k != "MarkInfo") children(*value, kDocument);
            }
        } else if (role == kPageTree && o.IsDictionary()) {
            if (const PdfObject* kids = o.GetDictionary().GetKey("Kids"); kids)
                for (const auto& kid : refs_in(doc_, kids)) visit(kid, type_of(doc_.get(kid)) == "Pages" ? kPageTree : kPage);
            children(o, kPageTree, {"Kids", "Parent"});
            if (const PdfObject* r = o.GetDictionary().GetKey("Resources")) children(*r, kResource);
        } else if (role == kPage && o.IsDictionary()) {
            for (const auto& [key, value] : o.GetDictionary().GetKeys()) {
                const std::string k = key.GetName();
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
    std::deque<std::pair<PdfReference, unsigned>> queue_;
    std::size_t steps_ = 0;
    bool complete_ = false;
};

struct Problems {
    std::map<std::string, std::vector<std::string>> by_code;  // code -> what
    void add(const std::string& code, const std::string& what) { by_code[code].push_back(what); }
};

// A visible annotation over an area to keep clear.
void judge_annotation(pdf::File& doc, const PdfObject& annot, int page, const std::vector<Area>& keep_clear, Problems& p) {
    if (!annot.IsDictionary()) return;
    const PdfDictionary& d = annot.GetDictionary();
    const long long flags = d.GetKey("F") ? static_cast<long long>(pdf::number_value(*d.GetKey("F"))) : 0;
    if (flags & (2 | 32)) return;  // Hidden, NoView
    pdf::Rect rect;
    if (!pdf::read_rect(doc, d.GetKey("Rect"), rect)) return;
    for (const auto& area : keep_clear)
        if (area.page == page && pdf::overlaps(rect, area.rect))
            p.add("pith.changed.annotation", "a /" + name_of(d.GetKey("Subtype")) + " annotation over " + area.what + " on page " +
                                                 std::to_string(page + 1));
}

// A page's /Annots then and now: the badge link kept, every annotation added judged.
void judge_annots(pdf::File& before, pdf::File& now, const std::vector<PdfReference>& old_list,
                  const std::vector<PdfReference>& new_list, int page, const std::vector<Area>& keep_clear, Problems& p) {
    for (const auto& r : old_list) {
        if (stamp::is_badge_annotation(before, PdfObject(r)) && std::find(new_list.begin(), new_list.end(), r) == new_list.end())
            p.add("pith.changed.annotation", "the badge's link was removed from page " + std::to_string(page + 1));
    }
    for (const auto& r : new_list)
        if (std::find(old_list.begin(), old_list.end(), r) == old_list.end()) judge_annotation(now, now.get(r), page, keep_clear, p);
}

int page_index(pdf::File& doc, const PdfReference& ref, const std::vector<Area>& keep_clear) {
    for (const auto& area : keep_clear)
        if (area.page < doc.page_count() && doc.page(area.page).ref == ref) return area.page;
    return -1;  // no area to keep clear there: annotations may go anywhere
}

void judge_changed(pdf::File& before, pdf::File& now, std::uint32_t num, unsigned role, const std::vector<Area>& keep_clear,
                   Problems& p) {
    const PdfReference ref = before.reference(num);
    const PdfObject& old = before.get(ref);
    const PdfObject& cur = now.get(now.reference(num));
    const std::string what = "object " + std::to_string(num) + (type_of(old).empty() ? "" : " (/" + type_of(old) + ")");
    if (role & kPageTree) return p.add("pith.changed.page_tree", "the page tree node " + what);
    if (role & kContent) return p.add("pith.changed.content", "page content stream " + what);
    if (role & kResource) return p.add("pith.changed.resource", "a resource pages draw with, " + what);
    if (role & kBadgeLink) return p.add("pith.changed.annotation", "the badge's link annotation " + what);
    if (role & kDocument) return p.add("pith.changed.catalog", "a document-level " + what);
    if (role & kCatalog) {
        auto keys = without(changed_keys(old, cur), {"AcroForm", "DSS", "Extensions", "Version", "MarkInfo", "StructTreeRoot", "Outlines"});
        if (!keys.empty()) p.add("pith.changed.catalog", "the catalog's " + keys_text(keys));
        return;
    }
    if (role & kPage) {
        auto keys = without(changed_keys(old, cur), {"Annots"});
        if (keys.count("Contents")) p.add("pith.changed.content", "the /Contents of page " + what);
        keys.erase("Contents");
        if (!keys.empty()) p.add("pith.changed.page", "the " + keys_text(keys) + " of page " + what);
        if (cur.IsDictionary())
            judge_annots(before, now, refs_in(before, old.GetDictionary().GetKey("Annots")), refs_in(now, cur.GetDictionary().GetKey("Annots")),
                         page_index(before, ref, keep_clear), keep_clear, p);
        return;
    }
    if (role & kAnnots) return;  // judged with its page below (the page refers to it)
    if (role & kMetadata) {
        try {
            if (xmp::read(before.stream_decoded(ref)).pith == xmp::read(now.stream_decoded(now.reference(num))).pith) return;
        } catch (const Error&) {
        }
        return p.add("pith.changed.metadata", "pith's XMP properties were rewritten");
    }
    if (role & kAnnotation) {
        const PdfObject* page_ref = cur.IsDictionary() ? cur.GetDictionary().GetKey("P") : nullptr;
        int page = page_ref && page_ref->IsReference() ? page_index(before, page_ref->GetReference(), keep_clear) : -1;
        // An annotation without /P: judged against every area, as it may be on any of their pages.
        if (!page_ref)
            for (const auto& area : keep_clear) judge_annotation(now, cur, area.page, {area}, p);
        else
            judge_annotation(now, cur, page, keep_clear, p);
    }
}

// An indirect /Annots array changed: judged with the page that refers to it.
void judge_annots_arrays(pdf::File& before, pdf::File& now, const std::set<std::uint32_t>& changed, const std::vector<Area>& keep_clear,
                         Problems& p) {
    for (const auto& area : keep_clear) {
        if (area.page >= before.page_count()) continue;
        const PdfReference page = before.page(area.page).ref;
        const PdfObject* annots = before.get(page).GetDictionary().GetKey("Annots");
        if (!annots || !annots->IsReference() || !changed.count(annots->GetReference().ObjectNumber())) continue;
        const PdfObject& cur = now.get(page);
        if (!cur.IsDictionary()) continue;
        judge_annots(before, now, refs_in(before, annots), refs_in(now, cur.GetDictionary().GetKey("Annots")), area.page, {area}, p);
    }
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
        f.fail("pith.update.missing", "no revision follows the " + std::to_string(prior) + " bytes pith:priorLength names");
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
        f.fail("pith.update.missing", "the bytes before and through pith's update are not a PDF of their own");
        return b;
    }
    pdf::File& stamped = is_file ? file : *copy;
    b.found = true;
    const auto r0 = before->revisions(), r1 = stamped.revisions();
    const bool repaired = r1.size() == 1 && before->reconstructed();
    if (!repaired && !(r1.size() == r0.size() + 1 && chain_starts_with(stamped, *before))) {
        f.fail("pith.update.mismatch", "pith's update does not continue the document before it (its /Prev chain)");
        return b;
    }
    std::vector<std::string> problems;
    try {
        check_update_objects(*before, stamped, b, problems);
    } catch (const Error& e) {
        problems.push_back(std::string("unreadable (") + e.what() + ")");
    } catch (const PoDoFo::PdfError& e) {
        problems.push_back(std::string("unreadable (") + pdf::podofo_words(e) + ")");
    }
    if (problems.empty())
        f.ok("pith.update.match", "pith's update changes only what pith stamp changes" + std::string(b.badge_drawn ? " (metadata, badge and link)" : " (metadata)"));
    else
        f.fail("pith.update.mismatch", "pith's update changes more than pith stamp does: " + joined(problems));
    return b;
}

void check_later_changes(pdf::File& file, const Baseline& b, const std::vector<Area>& keep_clear, const std::string& password,
                         Findings& f) {
    if (!b.found) return;
    if (b.whole_file) {
        f.ok("pith.changes.none", "nothing was appended to the file after its pith data");
        return;
    }
    std::optional<pdf::File> baseline = prefix(file, b.end, "as stamped", password);
    if (!baseline || !chain_starts_with(file, *baseline)) {
        f.fail("pith.xref.chain", "the file's cross-reference chain does not pass through the revision that holds its pith data: "
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
    std::set<std::uint32_t> changed, freed;
    for (std::uint32_t num : later)
        if (baseline->exists(baseline->reference(num)) && !same_object(*baseline, file, num)) changed.insert(num);
    for (std::uint32_t num = 1; num <= baseline->max_object_number(); ++num)
        if (baseline->exists(baseline->reference(num)) && !file.exists(file.reference(num))) freed.insert(num);
    if (file.root_ref() != baseline->root_ref()) p.add("pith.changed.catalog", "the trailer names another catalog (/Root)");
    if (file.encrypted() != baseline->encrypted() || file.encrypt_ref() != baseline->encrypt_ref())
        p.add("pith.changed.catalog", "the encryption (/Encrypt)");
    auto pith_number = [](pdf::File& d) {
        const PdfObject* info = d.info();
        const PdfObject* n = info ? info->GetDictionary().GetKey("PithNumber") : nullptr;
        return n ? canon(*n) : std::string();
    };
    if (pith_number(*baseline) != pith_number(file)) p.add("pith.changed.metadata", "Info's /PithNumber");
    if (!changed.empty() || !freed.empty()) {
        Roles roles(*baseline);
        roles.walk();
        for (std::uint32_t num : changed) judge_changed(*baseline, file, num, roles.of(num), keep_clear, p);
        judge_annots_arrays(*baseline, file, changed, keep_clear, p);
        for (std::uint32_t num : freed)
            if (roles.of(num) & ~unsigned(kAnnotation | kForm))
                p.add("pith.changed.freed", "object " + std::to_string(num) + " was freed");
    }
    const std::string what = std::to_string(count) + " revision" + (count == 1 ? "" : "s") + " appended after the pith data";
    if (p.by_code.empty()) {
        f.info("pith.changes.after", what + " change only what viewers change (form fields, comments, signatures, document information)");
        return;
    }
    for (const auto& [code, items] : p.by_code) f.fail(code, "changed after stamping (" + what + "): " + joined(items));
}

}  // namespace pith::verify
