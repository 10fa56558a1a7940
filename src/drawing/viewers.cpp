// SPDX-License-Identifier: MIT
#include "drawing/viewers.hpp"

#include "core/error.hpp"
#include "drawing/closed_list.hpp"
#include "pdf/budget.hpp"
#include "pdf/content.hpp"
#include "pdf/objects.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace pith::drawing {
namespace {

using pdf::Array;
using pdf::Dictionary;
using pdf::Object;
using pdf::Ref;

using pdf::name_of;

bool is_number(const Object& o) { return pdf::is_number(o) && std::isfinite(pdf::number_value(o)); }

// An array of `count` numbers (any count when `count` < 0).
bool numbers(pdf::File& file, const Object* o, int count) {
    if (!o || !o->IsArray() || (count >= 0 && o->GetArray().size() != static_cast<std::size_t>(count))) return false;
    return std::all_of(o->GetArray().begin(), o->GetArray().end(), [&](const Object& v) { return is_number(file.resolve(v)); });
}

// ---------------------------------------------------------------- optional content

// The optional content groups and membership dictionaries a page draws with, found through its
// resources (/Properties, XObjects' /OC, the forms they draw) and its annotations (/OC, their
// appearances). Each object is visited once; the walk is bounded.
class OcUse {
public:
    explicit OcUse(pdf::File& file) : file_(file) {}

    std::map<std::uint32_t, Ref> groups;  // OCGs, by object number
    std::vector<std::string> problems;              // what makes their state the viewer's choice

    void resources(const Object* res, int depth) {
        if (!res || !res->IsDictionary() || depth > 16) return;
        if (const auto* props = pdf::dictionary_entry(file_, *res, "Properties"))
            for (const auto& [key, value] : pdf::entries(props->GetDictionary())) membership(*value);
        if (const auto* xobjects = pdf::dictionary_entry(file_, *res, "XObject"))
            for (const auto& [key, value] : pdf::entries(xobjects->GetDictionary())) xobject(*value, depth);
    }

    void xobject(const Object& value, int depth) {
        if (!value.IsReference() || !seen_.insert(value.GetReference().ObjectNumber()).second || seen_.size() > 5000) return;
        const Object& x = file_.get(value.GetReference());
        if (!x.IsDictionary()) return;
        if (const Object* oc = x.GetDictionary().GetKey("OC")) membership(*oc);
        if (name_of(pdf::entry(file_, x, "Subtype")) == "Form") resources(pdf::entry(file_, x, "Resources"), depth + 1);
    }

    // An /OC value or a /Properties entry: an OCG, an OCMD, or other marked-content properties.
    void membership(const Object& value) {
        const Object& d = file_.resolve(value);
        if (!d.IsDictionary()) return;
        const std::string type = name_of(file_.get_key(d.GetDictionary(), "Type"));
        if (type == "OCG") return group(value);
        if (type != "OCMD") return;
        if (d.GetDictionary().HasKey("VE"))
            problems.push_back("an optional content membership dictionary has a visibility expression (/VE), which viewers "
                               "evaluate differently or not at all");
        const Object* ocgs = d.GetDictionary().GetKey("OCGs");
        if (!ocgs) return;
        const Object& list = file_.resolve(*ocgs);
        if (list.IsArray())
            for (const auto& item : list.GetArray()) group(item);
        else
            group(*ocgs);
    }

private:
    void group(const Object& value) {
        if (value.IsReference()) {
            if (file_.resolve(value).IsDictionary()) groups.emplace(value.GetReference().ObjectNumber(), value.GetReference());
        } else if (value.IsDictionary()) {
            problems.push_back("an optional content group is a direct object, which /OCProperties cannot list");
        }
    }

    pdf::File& file_;
    std::set<std::uint32_t> seen_;
};

bool lists(const Object* array, std::uint32_t num) {
    if (!array || !array->IsArray()) return false;
    return std::any_of(array->GetArray().begin(), array->GetArray().end(),
                       [&](const Object& v) { return v.IsReference() && v.GetReference().ObjectNumber() == num; });
}

// The group's state under a configuration dictionary: /BaseState, then /ON and /OFF.
// `base`: the state /BaseState /Unchanged (alternate configurations) keeps.
bool state_in(pdf::File& file, const Object& config, std::uint32_t num, bool base) {
    if (!config.IsDictionary()) return base;
    const Dictionary& c = config.GetDictionary();
    const std::string base_state = name_of(file.get_key(c, "BaseState"));
    bool on = base_state == "OFF" ? false : base_state == "ON" ? true : base_state == "Unchanged" ? base : true;
    if (lists(file.get_key(c, "ON"), num)) on = true;
    if (lists(file.get_key(c, "OFF"), num)) on = false;
    return on;
}

// The intents an /Intent value names (a name or an array of names; absent means View).
std::set<std::string> intents(pdf::File& file, const Object* intent) {
    if (!intent) return {"View"};
    if (intent->IsName()) return {name_of(intent)};
    std::set<std::string> out;
    if (intent->IsArray())
        for (const auto& item : intent->GetArray()) out.insert(name_of(&file.resolve(item)));
    return out;
}

// A group counts in a configuration when their intents meet (the configuration's /All takes
// every group): MuPDF hides one that does not, poppler ignores /Intent.
bool intents_meet(const std::set<std::string>& group, const std::set<std::string>& config) {
    return config.count("All") || std::any_of(group.begin(), group.end(), [&](const std::string& i) { return config.count(i) > 0; });
}

// Why group `num`'s state is the viewer's choice ("" when it is not).
std::string group_problem(pdf::File& file, const Dictionary* props, std::uint32_t num, const Object& ocg) {
    const Object* named = ocg.IsDictionary() ? ocg.GetDictionary().GetKey("Name") : nullptr;
    const std::string name = named && pdf::is_string(*named) ? pdf::text_of(named) : "";
    const std::string who = "optional content group " + std::to_string(num) + (name.empty() ? "" : " (\"" + name + "\")");
    if (!props) return who + " is used, but the catalog has no /OCProperties";
    if (!lists(file.get_key(*props, "OCGs"), num)) return who + " is not listed in /OCProperties /OCGs";
    const Object* d = file.get_key(*props, "D");
    const bool on = state_in(file, d ? *d : Object(), num, true);
    const Dictionary& g = ocg.GetDictionary();
    if (!intents_meet(intents(file, file.get_key(g, "Intent")),
                      intents(file, d && d->IsDictionary() ? file.get_key(d->GetDictionary(), "Intent") : nullptr)))
        return who + " has an /Intent the default configuration's /Intent does not include (MuPDF then hides it; poppler "
                     "ignores /Intent)";
    const Object* usage = file.get_key(g, "Usage");
    if (usage && usage->IsDictionary()) {
        static const std::pair<const char*, const char*> kStates[] = {{"View", "ViewState"}, {"Print", "PrintState"}, {"Export", "ExportState"}};
        for (const auto& [category, key] : kStates) {
            const Object* entry = file.get_key(usage->GetDictionary(), category);
            const std::string state = entry && entry->IsDictionary() ? name_of(file.get_key(entry->GetDictionary(), key)) : "";
            if (!state.empty() && (state == "ON") != on)
                return who + " is " + (on ? "ON" : "OFF") + " in /D but its /Usage /" + category + " /" + key + " is " + state +
                       " (applied by MuPDF always, by Acrobat through /AS auto-states; poppler ignores it)";
        }
        const Object* as = d && d->IsDictionary() ? file.get_key(d->GetDictionary(), "AS") : nullptr;
        if (as && as->IsArray())
            for (const auto& item : as->GetArray()) {
                const Object& rule = file.resolve(item);
                if (!rule.IsDictionary()) continue;
                const Object* applies = file.get_key(rule.GetDictionary(), "OCGs");
                if (applies && !lists(applies, num)) continue;
                const Object* categories = file.get_key(rule.GetDictionary(), "Category");
                if (!categories || !categories->IsArray()) continue;
                for (const auto& c : categories->GetArray())
                    if (const std::string category = name_of(&file.resolve(c));
                        category != "View" && category != "Print" && category != "Export" &&  // their states: checked above
                        file.get_key(usage->GetDictionary(), category.c_str()))
                        return who + " has /Usage /" + category +
                               " that an /AS auto-state applies (a viewer's zoom, language or event decides its state)";
            }
    }
    const Object* configs = file.get_key(*props, "Configs");
    if (configs && configs->IsArray())
        for (const auto& item : configs->GetArray())
            if (state_in(file, file.resolve(item), num, on) != on)
                return who + " is " + (on ? "ON" : "OFF") + " in /D and " + (on ? "OFF" : "ON") +
                       " in an alternate configuration (/Configs), which viewers may choose (MuPDF does)";
    return "";
}

// ---------------------------------------------------------------- annotations

// What is wrong with an appearance stream: "" when it is a Form XObject with a /BBox whose
// content parses.
std::string appearance_problem(pdf::File& file, const Object& value) {
    if (!value.IsReference() || !file.is_stream(value.GetReference())) return "is not a stream";
    const Object& form = file.get(value.GetReference());
    if (!numbers(file, file.get_key(form.GetDictionary(), "BBox"), 4)) return "has no /BBox of four numbers";
    if (const Object* m = file.get_key(form.GetDictionary(), "Matrix"); m && !numbers(file, m, 6)) return "has a /Matrix that is not six numbers";
    try {
        pdf::ContentLexer(file.stream_decoded(value.GetReference())).check_syntax();
    } catch (const pdf::TooLarge&) {
        throw;
    } catch (const Error& e) {
        return std::string("does not parse (") + e.what() + ")";
    }
    return "";
}

// The normal appearance the annotation shows (/AP /N, or its /AS state), checked.
std::string ap_problem(pdf::File& file, const Dictionary& annot) {
    const Object* ap = file.get_key(annot, "AP");
    if (!ap) return "";
    if (!ap->IsDictionary()) return "/AP is not a dictionary";
    const Object* n = ap->GetDictionary().GetKey("N");
    if (!n) return "";
    const Object& normal = file.resolve(*n);
    if (normal.IsDictionary() && !(n->IsReference() && file.is_stream(n->GetReference()))) {  // appearance states
        const std::string state = name_of(file.get_key(annot, "AS"));
        const Object* chosen = state.empty() ? nullptr : normal.GetDictionary().GetKey(state);
        if (!chosen) {  // /AS naming a state /N lacks (a check box's /Off) draws nothing in every viewer
            if (state.empty() && pdf::entry_count(normal.GetDictionary()) > 1)
                return "/AP /N holds appearance states and no /AS names one of them (viewers then pick differently)";
            return "";
        }
        if (const std::string why = appearance_problem(file, *chosen); !why.empty()) return "the appearance /" + state + " " + why;
        return "";
    }
    if (const std::string why = appearance_problem(file, *n); !why.empty()) return "the appearance /AP /N " + why;
    return "";
}

std::string border_problem(pdf::File& file, const Dictionary& annot) {
    if (const Object* border = file.get_key(annot, "Border")) {
        if (!border->IsArray() || border->GetArray().size() < 3 || border->GetArray().size() > 4) return "/Border is not an array of 3 or 4 values";
        const Array& b = border->GetArray();
        for (std::size_t i = 0; i < 3; ++i)
            if (!is_number(file.resolve(b[i]))) return "/Border holds a value that is not a number";
        if (b.size() == 4 && !numbers(file, &file.resolve(b[3]), -1)) return "/Border's dash pattern is not an array of numbers";
    }
    if (const Object* bs = file.get_key(annot, "BS")) {
        if (!bs->IsDictionary()) return "/BS is not a dictionary";
        const Dictionary& s = bs->GetDictionary();
        if (const Object* w = file.get_key(s, "W"); w && (!is_number(*w) || pdf::number_value(*w) < 0)) return "/BS /W is not a width";
        if (const Object* style = file.get_key(s, "S"); style && !style->IsName()) return "/BS /S is not a name";
        if (const Object* dash = file.get_key(s, "D"); dash && !numbers(file, dash, -1)) return "/BS /D is not an array of numbers";
    }
    return "";
}

std::string annotation_problem(pdf::File& file, const Object& annot) {
    if (!annot.IsDictionary()) return "is not a dictionary";
    const Dictionary& d = annot.GetDictionary();
    if (const auto* subtype = pdf::entry(file, annot, "Subtype"); !subtype || !subtype->IsName()) return "has no /Subtype name";
    if (!numbers(file, pdf::entry(file, annot, "Rect"), 4))
        return "has a /Rect that is not four numbers (poppler drops the annotation, MuPDF draws it)";
    if (const Object* flags = file.get_key(d, "F"); flags && !flags->IsNumber())
        return "has flags /F that are not an integer (poppler reads none, MuPDF rounds them: Hidden or not is the viewer's choice)";
    if (std::string why = border_problem(file, d); !why.empty()) return "has " + why;
    if (std::string why = ap_problem(file, d); !why.empty()) return "has " + why;
    return "";
}

}  // namespace

std::vector<std::string> optional_content_ambiguities(pdf::File& file, int page_index) {
    const pdf::Page page = file.page(page_index);
    OcUse use(file);
    use.resources(page.resources.IsDictionary() ? &page.resources : nullptr, 0);
    if (const auto* annots = pdf::annotations(file, file.get(page.ref)))
        for (const auto& item : *annots) {
            const Object& a = file.resolve(item);
            if (!a.IsDictionary()) continue;
            if (const Object* oc = a.GetDictionary().GetKey("OC")) use.membership(*oc);
            const Object* ap = file.get_key(a.GetDictionary(), "AP");
            if (!ap || !ap->IsDictionary()) continue;
            for (const auto& [kind, value] : pdf::entries(ap->GetDictionary())) {
                const Object& v = file.resolve(*value);
                if (v.IsDictionary() && !(value->IsReference() && file.is_stream(value->GetReference())))
                    for (const auto& [state, form] : pdf::entries(v.GetDictionary())) use.xobject(*form, 0);
                else
                    use.xobject(*value, 0);
            }
        }
    std::vector<std::string> out = use.problems;
    const Object* props = file.get_key(file.catalog().GetDictionary(), "OCProperties");
    const Dictionary* p = props && props->IsDictionary() ? &props->GetDictionary() : nullptr;
    for (const auto& [num, ref] : use.groups)
        if (std::string why = group_problem(file, p, num, file.get(ref)); !why.empty()) out.push_back(why);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<std::string> malformed_annotations(pdf::File& file, int page_index) {
    const pdf::Page page = file.page(page_index);
    const auto* annots = pdf::entry(file, file.get(page.ref), "Annots");
    std::vector<std::string> out;
    if (!annots) return out;
    if (!annots->IsArray()) return {"/Annots is not an array"};
    for (const auto& item : annots->GetArray()) {
        const Object& a = file.resolve(item);
        if (a.IsNull()) continue;  // a deleted annotation: every reader skips it
        if (std::string why = annotation_problem(file, a); !why.empty())
            out.push_back("the annotation " + (item.IsReference() ? std::to_string(item.GetReference().ObjectNumber()) + " " : std::string()) +
                          why);
    }
    return out;
}

std::vector<ViewerDifference> viewer_differences(pdf::File& file, const std::set<int>& pages,
                                                 const std::vector<Area>& keep_clear) {
    std::vector<ViewerDifference> out;
    const int count = file.page_count();
    for (int index : pages) {
        if (index < 0 || index >= count) continue;
        const std::string where = "page " + std::to_string(index + 1);
        if (auto why = optional_content_ambiguities(file, index); !why.empty())
            out.push_back({finding::pith_optional_content_ambiguous, false,
                           where + " draws optional content whose visibility depends on the viewer: " + joined(why),
                           "optional content on " + where + " shows differently in different viewers"});
        if (auto why = malformed_annotations(file, index); !why.empty())
            out.push_back({finding::pith_annotation_malformed, true,
                           "on " + where + ", viewers read malformed annotations differently: " + joined(why), ""});
    }
    if (std::string what = unlisted_on(file, pages, keep_clear); !what.empty())
        out.push_back({finding::pith_construct_unlisted, false, what + " (viewers may show it differently)",
                       "a page checked draws with constructs pith's closed list lacks"});
    if (auto why = file.ambiguous_definitions(); !why.empty())
        out.push_back({finding::pith_objects_ambiguous, true,
                       "viewers resolve some objects to different definitions: " + joined(why), ""});
    return out;
}

}  // namespace pith::drawing
