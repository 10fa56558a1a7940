// SPDX-License-Identifier: MIT
// The judgement of every revision appended after the baseline (changes.hpp): each changed object
// by its role in the baseline, the comments, form fields and signatures a reader's viewer adds,
// the document information, actions and DocMDP.
#include "verify/changes.hpp"

#include "core/error.hpp"
#include "core/trace.hpp"
#include "pith_data/pith_data.hpp"
#include "pdf/budget.hpp"
#include "pdf/content.hpp"
#include "pdf/objects.hpp"
#include "sign/pdf_signature.hpp"
#include "verify/comment_drawing.hpp"
#include "verify/compare.hpp"
#include "xmp/xmp.hpp"

#include <algorithm>
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
        if (pdf::object_number(ref) == pdf::object_number(doc_.root_ref()) && role != kCatalog) return;
        unsigned& have = roles_[pdf::object_number(ref)];
        if ((have & role) == role) return;
        have |= role;
        queue_.emplace_back(ref, role);
    }
    // Every reference inside `o` (not following references) gets `role`, except the keys `skip`.
    void children(const Object& o, unsigned role, std::initializer_list<const char*> skip = {}) {
        if (pdf::is_reference(o)) return visit(pdf::reference_of(o), role);
        if (pdf::is_array(o))
            for (const auto& item : pdf::array_of(o)) children(item, role);
        if (pdf::is_dictionary(o))
            for (const auto& [key, value] : pdf::entries(o)) {
                bool skipped = false;
                for (const char* s : skip) skipped |= key == s;
                if (!skipped) children(*value, role);
            }
    }
    // The items of a page's /Annots array: pith's badge link, or other annotations.
    void annotations(const Object& array) {
        if (!pdf::is_array(array)) return;
        for (const auto& item : pdf::array_of(array))
            if (pdf::is_reference(item))
                visit(pdf::reference_of(item), pith_data::is_badge_annotation(doc_, item) ? kBadgeLink : kAnnotation);
    }
    void expand(const Ref& ref, unsigned role) {
        const Object& o = doc_.get(ref);
        const std::string type = type_of(o);
        // Pages are judged by the page rules only, whatever else names them (destinations, /P).
        if ((type == "Page" || type == "Pages") && !(role & (kPageTree | kPage))) return;
        if (role == kCatalog && pdf::is_dictionary(o)) {
            for (const auto& [key, value] : pdf::entries(o)) {
                const std::string k = key;
                if (k == "Pages") children(*value, kPageTree);
                else if (k == "Metadata") children(*value, kMetadata);
                else if (k == "AcroForm") children(*value, kForm);
                else if (k != "DSS" && k != "StructTreeRoot" && k != "Outlines" && k != "MarkInfo") children(*value, kDocument);
            }
        } else if (role == kPageTree && pdf::is_dictionary(o)) {
            if (const Object* kids = pdf::find(o, "Kids"); kids)
                for (const auto& kid : pdf::references_in(doc_, kids)) visit(kid, type_of(doc_.get(kid)) == "Pages" ? kPageTree : kPage);
            children(o, kPageTree, {"Kids", "Parent"});
            if (const Object* r = pdf::find(o, "Resources")) children(*r, kResource);
        } else if (role == kPage && pdf::is_dictionary(o)) {
            for (const auto& [key, value] : pdf::entries(o)) {
                const std::string k = key;
                if (k == "Parent") continue;
                if (k == "Contents") children(*value, kContent);
                else if (k == "Resources") children(*value, kResource);
                else if (k == "Annots" && pdf::is_reference(*value))
                    visit(pdf::reference_of(*value), kAnnots);
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
    std::map<int, std::vector<comments::Stroke>> ink;         // page -> the ink strokes of the comments judged there
    void add(Code code, const std::string& what) { by_code[code].push_back(what); }
    std::size_t count() const {
        std::size_t n = 0;
        for (const auto& [code, what] : by_code) n += what.size();
        return n;
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
        ok = !pdf::is_null(doc.get(ref));
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
    if (!ap || !pdf::is_dictionary(*ap)) return out;
    for (const char* k : {"N", "R", "D"}) {
        const Object* v = pdf::find(*ap, k);
        if (!v) continue;
        if (pdf::is_reference(*v) && doc.is_stream(pdf::reference_of(*v))) {
            out.push_back(pdf::reference_of(*v));
            continue;
        }
        const Object& states = doc.resolve(*v);
        if (pdf::is_dictionary(states))
            for (const auto& [key, s] : pdf::entries(states))
                if (pdf::is_reference(*s) && doc.is_stream(pdf::reference_of(*s))) out.push_back(pdf::reference_of(*s));
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
    for (int depth = 0; o && pdf::is_dictionary(*o) && depth < 16; ++depth) {
        if (const Object* ft = doc.get_key(pdf::dictionary_of(*o), "FT")) return name_of(ft);
        o = doc.get_key(pdf::dictionary_of(*o), "Parent");
    }
    return {};
}

std::string field_name(pdf::File& doc, const Object& field) {
    const Object* t = pdf::is_dictionary(field) ? doc.get_key(pdf::dictionary_of(field), "T") : nullptr;
    return t && pdf::is_string(*t) ? "\"" + pdf::text_of(t) + "\"" : "(unnamed)";
}

// ---- What a comment draws (comment_drawing.hpp): its appearance against its own data

// The graphics states an appearance's own /Resources hold, against comments::ext_gstate_rule.
std::string ext_gstates(pdf::File& doc, const Object& form) {
    const Object* resources = pdf::find(form, "Resources");
    const Object* states = resources ? pdf::dictionary_entry(doc, doc.resolve(*resources), "ExtGState") : nullptr;
    if (!states) return "";
    for (const auto& [name, state] : pdf::entries(*states)) {
        const Object& gs = doc.resolve(*state);
        if (!pdf::is_dictionary(gs)) continue;
        std::vector<std::pair<std::string, std::string>> keys;
        for (const auto& [key, value] : pdf::entries(gs)) keys.emplace_back(key, name_of(&doc.resolve(*value)));
        if (std::string why = comments::ext_gstate_rule(keys); !why.empty()) return why;
    }
    return "";
}

// One appearance stream read into what it paints on the page; `box`: its /BBox through its /Matrix.
comments::Drawing drawing_of(pdf::File& doc, const Ref& ref, const pdf::Rect& rect, pdf::Rect& box) {
    const auto refused = [](std::string why) { return comments::Drawing{{}, std::move(why)}; };
    const Object& form = doc.get(ref);
    pdf::Rect bbox;
    comments::Matrix matrix = comments::kIdentity, to_page;
    if (!pdf::read_rect(doc, pdf::find(form, "BBox"), bbox)) return refused("no readable /BBox");
    if (const Object* stored = pdf::find(form, "Matrix")) {
        const auto m = pdf::numbers_in(doc, stored);
        if (!m || m->size() != 6) return refused("a /Matrix that is not six numbers");
        std::copy(m->begin(), m->end(), matrix.begin());
    }
    box = comments::transformed_box(bbox, matrix);
    if (!comments::appearance_to_page(bbox, matrix, rect, to_page)) return refused("an empty /BBox");
    if (std::string why = ext_gstates(doc, form); !why.empty()) return refused(why);
    try {
        return comments::read_drawing(doc.stream_decoded(ref), to_page);
    } catch (const Error& e) {
        return refused(std::string("a stream that cannot be decoded (") + e.what() + ")");
    }
}

// The /InkList's strokes, and the stroke width (/BS /W, else 1) viewers draw them at.
bool ink_of(pdf::File& doc, const Dictionary& d, std::vector<comments::Polyline>& ink, double& width) {
    const Object* list = doc.get_key(d, "InkList");
    if (!list || !pdf::is_array(*list)) return false;
    for (const auto& item : pdf::array_of(*list)) {
        const auto n = pdf::numbers_in(doc, &item);
        if (!n || n->size() < 2 || n->size() % 2) return false;
        ink.emplace_back();
        for (std::size_t i = 0; i + 1 < n->size(); i += 2) ink.back().push_back({(*n)[i], (*n)[i + 1]});
    }
    const Object* bs = doc.get_key(d, "BS");
    const Object* w = bs && pdf::is_dictionary(*bs) ? doc.get_key(pdf::dictionary_of(*bs), "W") : nullptr;
    width = w && pdf::is_number(*w) ? std::abs(pdf::number_value(*w)) : 1.0;
    return true;
}

// Why a comment's appearances are not what a viewer draws from its own data, or an Ink comment's
// strokes are no marks standing apart from `page_ink` (the ink judged on its page before, which
// its strokes join); "" when they are and do.
std::string drawing_rule(pdf::File& doc, const Dictionary& d, const std::string& subtype, const pdf::Rect& rect,
                         std::vector<comments::Stroke>& page_ink) {
    std::vector<comments::Polyline> ink;
    double width = 1;
    const bool markup = subtype != "Text" && subtype != "Popup" && subtype != "Ink";
    const auto quads = markup ? pdf::numbers_in(doc, doc.get_key(d, "QuadPoints")) : std::vector<double>();
    if (!quads) return "whose /QuadPoints are not quads";
    if (subtype == "Ink" && !ink_of(doc, d, ink, width)) return "whose /InkList is not a list of strokes";
    if (std::string why = subtype == "Text" ? comments::note_rule(rect, nullptr) : ""; !why.empty()) return why;
    for (const Ref& ref : appearance_streams(doc, d)) {
        pdf::Rect box;
        const comments::Drawing drawing = drawing_of(doc, ref, rect, box);
        std::string why = subtype == "Popup" ? comments::popup_rule(drawing)
                          : subtype == "Ink" ? comments::ink_appearance_rule(drawing, ink, width)
                          : subtype == "Text" ? comments::note_rule(rect, &box)
                                              : comments::markup_rule(subtype, drawing, *quads);
        if (subtype == "Text" && why.empty() && !drawing.refused.empty())
            why = "whose appearance uses " + drawing.refused;
        if (!why.empty()) return why;
    }
    if (subtype != "Ink") return "";
    std::string why = comments::ink_marks_rule(ink, width, page_ink);
    for (const auto& s : ink) page_ink.push_back({s, width});
    return why;
}

// The annotation flags that hide it on screen: Hidden, or NoView without Print.
bool hidden(long long flags) { return (flags & 2) || ((flags & 32) && !(flags & 4)); }
constexpr long long kToggleNoView = 256;

// Keys a reader's viewer changes on an annotation without changing what it shows.
const std::initializer_list<const char*> kNoteKeys = {"M", "Contents", "T", "NM", "Open", "Popup", "RC", "CreationDate",
                                                      "Subj", "IRT", "State", "StateModel", "P"};

// A pop-up that opens only when the reader asks (neither it nor its note is /Open): its /Rect is
// where that window will open (MuPDF puts every note's at the top left, over most titles), not
// what the page shows; what it paints is judged as a comment's drawing (popup_rule).
bool closed_popup(pdf::File& doc, const Dictionary& d) {
    if (name_of(doc.get_key(d, "Subtype")) != "Popup") return false;
    const auto open = [&](const Dictionary& a) {  // /Open is false when absent; anything but a boolean may be true
        const Object* v = doc.get_key(a, "Open");
        return v && (!pdf::is_bool(*v) || pdf::bool_of(*v));
    };
    const Object* parent = doc.get_key(d, "Parent");
    return !open(d) && !(parent && pdf::is_dictionary(*parent) && open(pdf::dictionary_of(*parent)));
}

// One annotation added or changed after the stamp (`old`: its baseline version, if any),
// against the closed list of what may change: comments (highlight, underline, strike-out,
// squiggly, sticky note, ink, their popups) whose appearance shows no text or image; form-field
// values in their widgets; signatures whose widgets paint nothing. None may cover an area to keep clear.
// `drawn`: where the annotation draws and what to call it there, once its /Rect is read; reset
// when its flags hide it.
void annotation_rules(pdf::File& now, const Object& annot, const Object* old, int page, const std::vector<Area>& keep_clear,
                      bool redrawn, Problems& p, std::optional<Region>& drawn) {
    if (!pdf::is_dictionary(annot))
        return p.add(finding::pith_changed_annotation, "an annotation that is no dictionary");
    const Dictionary& d = pdf::dictionary_of(annot);
    const std::string subtype = name_of(now.get_key(d, "Subtype"));
    const std::string where = "a /" + (subtype.empty() ? std::string("(no subtype)") : subtype) + " annotation" +
                              (page >= 0 ? " on page " + std::to_string(page + 1) : "");
    if (!redrawn && old && pdf::is_dictionary(*old) && without(changed_keys(*old, annot), kNoteKeys).empty())
        return;  // a note's text or state
    const Object* f = now.get_key(d, "F");
    if (f && !pdf::is_integer(*f))
        return p.add(finding::pith_changed_annotation, where + " whose /F is not an integer");
    const long long flags = f ? pdf::integer_of(*f) : 0;
    pdf::Rect rect;
    if (!pdf::read_rect(now, pdf::find(d, "Rect"), rect))
        return p.add(finding::pith_changed_annotation, where + " whose /Rect cannot be read");
    drawn = Region{page + 1, rect.llx, rect.lly, rect.urx, rect.ury, RegionKind::Annotation, RegionOutcome::Info,
                   "/" + subtype + (old ? " changed" : " added") + " after the stamp"};
    if (old && pdf::is_dictionary(*old)) {
        const Object* of = now.get_key(pdf::dictionary_of(*old), "F");
        if (name_of(now.get_key(pdf::dictionary_of(*old), "Subtype")) != subtype)
            return p.add(finding::pith_changed_annotation, where + " that was another kind before");
        if (of && pdf::is_integer(*of) && hidden(pdf::integer_of(*of)) && !hidden(flags))
            return p.add(finding::pith_changed_annotation, where + " hidden before the stamp and shown after it");
    }
    // ToggleNoView turns NoView over when the pointer is on the annotation: hidden now, shown then.
    if (flags & kToggleNoView) return p.add(finding::pith_changed_annotation, where + " that a viewer shows on hover (ToggleNoView)");
    if (hidden(flags)) return drawn.reset();
    for (const auto& area : keep_clear)
        if (area.page == page && !closed_popup(now, d) && pdf::overlaps(rect, area.rect))
            p.add(finding::pith_changed_annotation, where + " over " + area.what);
    static const std::set<std::string> kComments = {"Highlight", "Underline", "StrikeOut", "Squiggly",
                                                    "Text",      "Ink",       "Popup"};
    if (subtype == "Link") return p.add(finding::pith_changed_action, where + ": links may not be added after the stamp");
    if (kComments.count(subtype)) {
        if (appearance_uses(now, d, kShowsText)) return p.add(finding::pith_changed_annotation, where + " whose appearance draws text or images");
        if (const std::string why = drawing_rule(now, d, subtype, rect, p.ink[page]); !why.empty())
            return p.add(finding::pith_changed_annotation, where + " " + why);
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

// annotation_rules(), and where the annotation stands on its page once judged: a failed region
// when judging it found a problem (an annotation its flags hide draws nothing and is not marked).
void judge_annotation(pdf::File& now, const Object& annot, const Object* old, int page, const std::vector<Area>& keep_clear,
                      Problems& p, bool redrawn = false) {
    const std::size_t problems_before = p.count();
    std::optional<Region> drawn;
    annotation_rules(now, annot, old, page, keep_clear, redrawn, p, drawn);
    if (!drawn || page < 0) return;
    if (p.count() > problems_before) drawn->outcome = RegionOutcome::Fail;
    p.regions.push_back(std::move(*drawn));
}

// Actions anywhere in what was added or changed: /A or /Next naming an action, /AA, /OpenAction, /JS.
void find_actions(pdf::File& doc, const Object& o, int depth, std::set<std::string>& found) {
    if (depth > 32) return;
    if (pdf::is_array(o))
        for (const auto& item : pdf::array_of(o)) find_actions(doc, item, depth + 1, found);
    if (!pdf::is_dictionary(o)) return;
    for (const auto& [key, value] : pdf::entries(o)) {
        const std::string k = key;
        if (k == "AA" || k == "OpenAction" || k == "JS") found.insert("/" + k);
        if (k == "A" || k == "Next") {
            const Object& a = doc.resolve(*value);
            if (pdf::is_dictionary(a) && pdf::find(a, "S"))
                found.insert("a /" + name_of(pdf::find(a, "S")) + " action");
        }
        if (!pdf::is_reference(*value)) find_actions(doc, *value, depth + 1, found);
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
            p.regions.push_back({index + 1, c.llx, c.lly, c.urx, c.ury, RegionKind::Content, RegionOutcome::Fail,
                             "page changed after the stamp"});
        }
    }

private:
    void read() {
        read_ = true;
        try {
            for (int i = 0; i < doc_.page_count(); ++i) {
                const pdf::Page page = doc_.page(i);
                const auto on_page = [&](std::uint32_t num) { pages_.emplace(num, std::make_pair(i, page.crop_box)); };
                on_page(pdf::object_number(page.ref));
                const Object& o = doc_.get(page.ref);
                const Object* contents = pdf::is_dictionary(o) ? pdf::find(o, "Contents") : nullptr;
                if (contents && pdf::is_reference(*contents)) on_page(pdf::object_number(pdf::reference_of(*contents)));
                if (contents && pdf::is_array(*contents))
                    for (const auto& item : pdf::array_of(*contents))
                        if (pdf::is_reference(item)) on_page(pdf::object_number(pdf::reference_of(item)));
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
    if (pdf::is_dictionary(annot))
        for (const auto& ref : appearance_streams(now, pdf::dictionary_of(annot)))
            out |= c.changed.count(pdf::object_number(ref)) > 0;
    if (const Object* ap = pdf::is_dictionary(annot) ? pdf::find(annot, "AP") : nullptr; ap && pdf::is_reference(*ap))
        out |= c.changed.count(pdf::object_number(pdf::reference_of(*ap))) > 0;
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
            if (pdf::is_reference(item) && pith_data::is_badge_annotation(before, item) &&
                (!cur || !std::any_of(cur->begin(), cur->end(), [&](const Object& x) {
                    return pdf::is_reference(x) && pdf::reference_of(x) == pdf::reference_of(item);
                })))
                p.add(finding::pith_changed_annotation, "the badge's link was removed from page " + std::to_string(i + 1));
    if (!cur) return;
    std::vector<Area> areas;
    for (const auto& area : keep_clear)
        if (area.page == i) areas.push_back(area);
    for (const auto& item : *cur) {
        if (!pdf::is_reference(item)) {
            if (!kept.count(canon(item))) judge_annotation(now, item, nullptr, i, areas, p);
            continue;
        }
        const std::uint32_t num = pdf::object_number(pdf::reference_of(item));
        if (c.unreadable.count(num) || judged.count(num) || pith_data::is_badge_annotation(before, item))
            continue;  // a changed badge link is its own failure
        const Object& annot = now.get(pdf::reference_of(item));
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
            if (!pdf::is_dictionary(o) || (!kinds.count(name_of(pdf::find(o, "Subtype"))) && type_of(o) != "Annot"))
                continue;
            if (pith_data::is_badge_annotation(before, Object(before.reference(num)))) continue;
            judged.insert(num);
            const Object* page_ref = pdf::find(o, "P");
            const int page = page_ref && pdf::is_reference(*page_ref)
                                 ? page_index(before, pdf::reference_of(*page_ref), keep_clear)
                                 : -1;
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
    const Object* old_form = before.get_key(pdf::dictionary_of(before.catalog()), "AcroForm");
    const Object* form = now.get_key(pdf::dictionary_of(now.catalog()), "AcroForm");
    if (!form || !pdf::is_dictionary(*form)) return;
    const Object empty{Dictionary()};
    const Object& old = old_form && pdf::is_dictionary(*old_form) ? *old_form : empty;
    const std::set<std::string> keys = changed_keys(old, *form);
    const Object* need = now.get_key(pdf::dictionary_of(*form), "NeedAppearances");
    if (keys.count("NeedAppearances") && need && pdf::is_bool(*need) && pdf::bool_of(*need))
        p.add(finding::pith_changed_form, "the form's /NeedAppearances (viewers redraw every field from its value)");
    for (const char* k : {"XFA", "CO"})
        if (keys.count(k)) p.add(finding::pith_changed_form, std::string("the form's /") + k);
    const Object* fields = now.get_key(pdf::dictionary_of(*form), "Fields");
    if (fields && pdf::is_array(*fields))
        for (const auto& item : pdf::array_of(*fields))
            if (pdf::is_reference(item) && c.fresh.count(pdf::object_number(pdf::reference_of(item))) &&
                !c.unreadable.count(pdf::object_number(pdf::reference_of(item)))) {
                const Object& field = now.get(pdf::reference_of(item));
                if (pdf::is_dictionary(field) && !pdf::has_key(field, "Subtype") && field_type(now, field) != "Sig")
                    p.add(finding::pith_changed_form, "a new form field " + field_name(now, field));
            }
}

// The dc:title, dc:creator and dc:description of the document's XMP (xmp::Packet::dublin_core);
// a packet that is not well-formed XML, or whose stream cannot be decoded, is compared as written.
std::vector<std::string> dublin_core(pdf::File& doc) {
    const std::optional<Ref> metadata = pdf::metadata_stream(doc);
    std::string packet;
    try {
        if (!metadata) return {};
        packet = doc.stream_decoded(*metadata, xmp::kMaxPacketSize);
        return packet.empty() ? std::vector<std::string>() : xmp::read(packet).dublin_core;
    } catch (const Error&) {
        return {packet.empty() ? "a stream that cannot be decoded" : "not read as XML: " + packet};
    }
}

// Info /Title, /Author, /Subject and XMP dc:title, dc:creator, dc:description: what viewers show
// as the document's title (in the window bar with /DisplayDocTitle), author and subject.
void judge_document_information(pdf::File& before, pdf::File& now, Problems& p) {
    const Object* old_info = before.info();
    const Object* info = now.info();
    for (const char* key : {"Title", "Author", "Subject"}) {
        const Object* a = old_info ? before.get_key(pdf::dictionary_of(*old_info), key) : nullptr;
        const Object* b = info ? now.get_key(pdf::dictionary_of(*info), key) : nullptr;
        if ((a ? canon(*a) : "") != (b ? canon(*b) : "")) p.add(finding::pith_changed_metadata, std::string("Info /") + key);
    }
    if (dublin_core(before) != dublin_core(now)) p.add(finding::pith_changed_metadata, "the XMP's dc:title, dc:creator or dc:description");
}

// The trailer, the encryption and Info's /PithNumber, as the baseline had them.
void judge_trailer(pdf::File& baseline, pdf::File& file, Problems& p) {
    if (file.root_ref() != baseline.root_ref()) p.add(finding::pith_changed_catalog, "the trailer names another catalog (/Root)");
    if (file.encrypted() != baseline.encrypted() || file.encrypt_ref() != baseline.encrypt_ref())
        p.add(finding::pith_changed_catalog, "the encryption (/Encrypt)");
    auto pith_number = [](pdf::File& d) {
        const Object* info = d.info();
        const Object* n = info ? pdf::find(*info, "PithNumber") : nullptr;
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

// What the revisions after the stamp amount to, named as pyHanko's modification levels are: the
// highest of document information (its LTA_UPDATES: dates, XMP, a document timestamp's data),
// form filling (FORM_FILLING: field values and signatures) and comments (ANNOTATIONS).
std::string modification_level(const Problems& p) {
    if (p.markup > 0) return "comments (" + std::to_string(p.markup) + ", pyHanko's ANNOTATIONS)";
    if (!p.added.empty()) return "form filling (pyHanko's FORM_FILLING)";
    return "document information (pyHanko's LTA_UPDATES)";
}

void report_changes(const Problems& p, std::size_t count, int docmdp, Findings& f) {
    f.regions.insert(f.regions.end(), p.regions.begin(), p.regions.end());
    const std::string what = std::to_string(count) + " revision" + (count == 1 ? "" : "s") + " appended after the pith data";
    if (p.by_code.empty()) {
        std::string list = p.added.empty() ? "document information only (dates and XMP properties, not the title, author or subject)"
                                           : "added after the stamp: " + joined(p.added);
        f.info(finding::pith_changes_after, what + " change only what may change after a stamp" +
                                         (docmdp ? " (DocMDP P=" + std::to_string(docmdp) + ")" : std::string()) +
                                         "; modification level: " + modification_level(p) + "; " + list);
        return;
    }
    for (const auto& [code, items] : p.by_code) f.fail(code, "changed after stamping (" + what + "): " + joined(items));
}

}  // namespace

void check_later_changes(pdf::File& file, const Baseline& b, const std::vector<Area>& keep_clear, const std::string& password,
                         Findings& f) {
    const trace::Span span("verify/later_changes");
    if (!b.found) return;
    if (b.whole_file) {
        f.ok(finding::pith_changes_none, "nothing was appended to the file after its pith data");
        return;
    }
    std::optional<pdf::File> baseline = document_at(file, b.end, "as stamped", password);
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
