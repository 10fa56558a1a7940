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
    if (!o || !pdf::is_array(*o) || (count >= 0 && pdf::array_of(*o).size() != static_cast<std::size_t>(count)))
        return false;
    return std::all_of(pdf::array_of(*o).begin(), pdf::array_of(*o).end(),
                       [&](const Object& v) { return is_number(file.resolve(v)); });
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
        if (!res || !pdf::is_dictionary(*res) || depth > 16) return;
        if (const auto* props = pdf::dictionary_entry(file_, *res, "Properties"))
            for (const auto& [key, value] : pdf::entries(*props)) membership(*value);
        if (const auto* xobjects = pdf::dictionary_entry(file_, *res, "XObject"))
            for (const auto& [key, value] : pdf::entries(*xobjects)) xobject(*value, depth);
    }

    void xobject(const Object& value, int depth) {
        if (!pdf::is_reference(value) || !seen_.insert(pdf::object_number(pdf::reference_of(value))).second ||
            seen_.size() > 5000)
            return;
        const Object& x = file_.get(pdf::reference_of(value));
        if (!pdf::is_dictionary(x)) return;
        if (const Object* oc = pdf::find(x, "OC")) membership(*oc);
        if (name_of(pdf::entry(file_, x, "Subtype")) == "Form") resources(pdf::entry(file_, x, "Resources"), depth + 1);
    }

    // An /OC value or a /Properties entry: an OCG, an OCMD, or other marked-content properties.
    void membership(const Object& value) {
        const Object& d = file_.resolve(value);
        if (!pdf::is_dictionary(d)) return;
        const std::string type = name_of(file_.get_key(pdf::dictionary_of(d), "Type"));
        if (type == "OCG") return group(value);
        if (type != "OCMD") return;
        if (pdf::has_key(d, "VE"))
            problems.push_back("an optional content membership dictionary has a visibility expression (/VE), which viewers "
                               "evaluate differently or not at all");
        const Object* ocgs = pdf::find(d, "OCGs");
        if (!ocgs) return;
        const Object& list = file_.resolve(*ocgs);
        if (pdf::is_array(list))
            for (const auto& item : pdf::array_of(list)) group(item);
        else
            group(*ocgs);
    }

private:
    void group(const Object& value) {
        if (pdf::is_reference(value)) {
            if (pdf::is_dictionary(file_.resolve(value)))
                groups.emplace(pdf::object_number(pdf::reference_of(value)), pdf::reference_of(value));
        } else if (pdf::is_dictionary(value)) {
            problems.push_back("an optional content group is a direct object, which /OCProperties cannot list");
        }
    }

    pdf::File& file_;
    std::set<std::uint32_t> seen_;
};

bool lists(const Object* array, std::uint32_t num) {
    if (!array || !pdf::is_array(*array)) return false;
    return std::any_of(pdf::array_of(*array).begin(), pdf::array_of(*array).end(), [&](const Object& v) {
        return pdf::is_reference(v) && pdf::object_number(pdf::reference_of(v)) == num;
    });
}

// The group's state under a configuration dictionary: /BaseState, then /ON and /OFF.
// `base`: the state /BaseState /Unchanged (alternate configurations) keeps.
bool state_in(pdf::File& file, const Object& config, std::uint32_t num, bool base) {
    if (!pdf::is_dictionary(config)) return base;
    const Dictionary& c = pdf::dictionary_of(config);
    const std::string base_state = name_of(file.get_key(c, "BaseState"));
    bool on = base_state == "OFF" ? false : base_state == "ON" ? true : base_state == "Unchanged" ? base : true;
    if (lists(file.get_key(c, "ON"), num)) on = true;
    if (lists(file.get_key(c, "OFF"), num)) on = false;
    return on;
}

// The intents an /Intent value names (a name or an array of names; absent means View).
std::set<std::string> intents(pdf::File& file, const Object* intent) {
    if (!intent) return {"View"};
    if (pdf::is_name(*intent)) return {name_of(intent)};
    std::set<std::string> out;
    if (pdf::is_array(*intent))
        for (const auto& item : pdf::array_of(*intent)) out.insert(name_of(&file.resolve(item)));
    return out;
}

// A group counts in a configuration when their intents meet (the configuration's /All takes
// every group): MuPDF hides one that does not, poppler ignores /Intent.
bool intents_meet(const std::set<std::string>& group, const std::set<std::string>& config) {
    return config.count("All") || std::any_of(group.begin(), group.end(), [&](const std::string& i) { return config.count(i) > 0; });
}

// Why group `num`'s state is the viewer's choice ("" when it is not).
std::string group_problem(pdf::File& file, const Dictionary* props, std::uint32_t num, const Object& ocg) {
    const Object* named = pdf::is_dictionary(ocg) ? pdf::find(ocg, "Name") : nullptr;
    const std::string name = named && pdf::is_string(*named) ? pdf::text_of(named) : "";
    const std::string who = "optional content group " + std::to_string(num) + (name.empty() ? "" : " (\"" + name + "\")");
    if (!props) return who + " is used, but the catalog has no /OCProperties";
    if (!lists(file.get_key(*props, "OCGs"), num)) return who + " is not listed in /OCProperties /OCGs";
    const Object* d = file.get_key(*props, "D");
    const bool on = state_in(file, d ? *d : Object(), num, true);
    const Dictionary& g = pdf::dictionary_of(ocg);
    if (!intents_meet(
            intents(file, file.get_key(g, "Intent")),
            intents(file, d && pdf::is_dictionary(*d) ? file.get_key(pdf::dictionary_of(*d), "Intent") : nullptr)))
        return who + " has an /Intent the default configuration's /Intent does not include (MuPDF then hides it; poppler "
                     "ignores /Intent)";
    const Object* usage = file.get_key(g, "Usage");
    if (usage && pdf::is_dictionary(*usage)) {
        static const std::pair<const char*, const char*> kStates[] = {{"View", "ViewState"}, {"Print", "PrintState"}, {"Export", "ExportState"}};
        for (const auto& [category, key] : kStates) {
            const Object* entry = file.get_key(pdf::dictionary_of(*usage), category);
            const std::string state =
                entry && pdf::is_dictionary(*entry) ? name_of(file.get_key(pdf::dictionary_of(*entry), key)) : "";
            if (!state.empty() && (state == "ON") != on)
                return who + " is " + (on ? "ON" : "OFF") + " in /D but its /Usage /" + category + " /" + key + " is " + state +
                       " (applied by MuPDF always, by Acrobat through /AS auto-states; poppler ignores it)";
        }
        const Object* as = d && pdf::is_dictionary(*d) ? file.get_key(pdf::dictionary_of(*d), "AS") : nullptr;
        if (as && pdf::is_array(*as))
            for (const auto& item : pdf::array_of(*as)) {
                const Object& rule = file.resolve(item);
                if (!pdf::is_dictionary(rule)) continue;
                const Object* applies = file.get_key(pdf::dictionary_of(rule), "OCGs");
                if (applies && !lists(applies, num)) continue;
                const Object* categories = file.get_key(pdf::dictionary_of(rule), "Category");
                if (!categories || !pdf::is_array(*categories)) continue;
                for (const auto& c : pdf::array_of(*categories))
                    if (const std::string category = name_of(&file.resolve(c));
                        category != "View" && category != "Print" && category != "Export" &&  // checked above
                        file.get_key(pdf::dictionary_of(*usage), category.c_str()))
                        return who + " has /Usage /" + category +
                               " that an /AS auto-state applies (a viewer's zoom, language or event decides its state)";
            }
    }
    const Object* configs = file.get_key(*props, "Configs");
    if (configs && pdf::is_array(*configs))
        for (const auto& item : pdf::array_of(*configs))
            if (state_in(file, file.resolve(item), num, on) != on)
                return who + " is " + (on ? "ON" : "OFF") + " in /D and " + (on ? "OFF" : "ON") +
                       " in an alternate configuration (/Configs), which viewers may choose (MuPDF does)";
    return "";
}

// ---------------------------------------------------------------- annotations

// What is wrong with an appearance stream: "" when it is a Form XObject with a /BBox whose
// content parses.
std::string appearance_problem(pdf::File& file, const Object& value) {
    if (!pdf::is_reference(value) || !file.is_stream(pdf::reference_of(value))) return "is not a stream";
    const Object& form = file.get(pdf::reference_of(value));
    if (!numbers(file, file.get_key(pdf::dictionary_of(form), "BBox"), 4)) return "has no /BBox of four numbers";
    if (const Object* m = file.get_key(pdf::dictionary_of(form), "Matrix"); m && !numbers(file, m, 6))
        return "has a /Matrix that is not six numbers";
    try {
        pdf::ContentLexer(file.stream_decoded(pdf::reference_of(value))).check_syntax();
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
    if (!pdf::is_dictionary(*ap)) return "/AP is not a dictionary";
    const Object* n = pdf::find(*ap, "N");
    if (!n) return "";
    const Object& normal = file.resolve(*n);
    if (pdf::is_dictionary(normal) &&
        !(pdf::is_reference(*n) && file.is_stream(pdf::reference_of(*n)))) {  // appearance states
        const std::string state = name_of(file.get_key(annot, "AS"));
        const Object* chosen = state.empty() ? nullptr : pdf::find(normal, state);
        if (!chosen) {  // /AS naming a state /N lacks (a check box's /Off) draws nothing in every viewer
            if (state.empty() && pdf::entry_count(normal) > 1)
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
        if (!pdf::is_array(*border) || pdf::array_of(*border).size() < 3 || pdf::array_of(*border).size() > 4)
            return "/Border is not an array of 3 or 4 values";
        const Array& b = pdf::array_of(*border);
        for (std::size_t i = 0; i < 3; ++i)
            if (!is_number(file.resolve(b[i]))) return "/Border holds a value that is not a number";
        if (b.size() == 4 && !numbers(file, &file.resolve(b[3]), -1)) return "/Border's dash pattern is not an array of numbers";
    }
    if (const Object* bs = file.get_key(annot, "BS")) {
        if (!pdf::is_dictionary(*bs)) return "/BS is not a dictionary";
        const Dictionary& s = pdf::dictionary_of(*bs);
        if (const Object* w = file.get_key(s, "W"); w && (!is_number(*w) || pdf::number_value(*w) < 0)) return "/BS /W is not a width";
        if (const Object* style = file.get_key(s, "S"); style && !pdf::is_name(*style)) return "/BS /S is not a name";
        if (const Object* dash = file.get_key(s, "D"); dash && !numbers(file, dash, -1)) return "/BS /D is not an array of numbers";
    }
    return "";
}

std::string annotation_problem(pdf::File& file, const Object& annot) {
    if (!pdf::is_dictionary(annot)) return "is not a dictionary";
    const Dictionary& d = pdf::dictionary_of(annot);
    if (const auto* subtype = pdf::entry(file, annot, "Subtype"); !subtype || !pdf::is_name(*subtype))
        return "has no /Subtype name";
    if (!numbers(file, pdf::entry(file, annot, "Rect"), 4))
        return "has a /Rect that is not four numbers (poppler drops the annotation, MuPDF draws it)";
    if (const Object* flags = file.get_key(d, "F"); flags && !pdf::is_integer(*flags))
        return "has flags /F that are not an integer (poppler reads none, MuPDF rounds them: Hidden or not is the viewer's choice)";
    if (std::string why = border_problem(file, d); !why.empty()) return "has " + why;
    if (std::string why = ap_problem(file, d); !why.empty()) return "has " + why;
    return "";
}

}  // namespace

std::vector<std::string> optional_content_ambiguities(pdf::File& file, int page_index) {
    const pdf::Page page = file.page(page_index);
    OcUse use(file);
    use.resources(pdf::is_dictionary(page.resources) ? &page.resources : nullptr, 0);
    if (const auto* annots = pdf::annotations(file, file.get(page.ref)))
        for (const auto& item : *annots) {
            const Object& a = file.resolve(item);
            if (!pdf::is_dictionary(a)) continue;
            if (const Object* oc = pdf::find(a, "OC")) use.membership(*oc);
            const Object* ap = file.get_key(pdf::dictionary_of(a), "AP");
            if (!ap || !pdf::is_dictionary(*ap)) continue;
            for (const auto& [kind, value] : pdf::entries(*ap)) {
                const Object& v = file.resolve(*value);
                if (pdf::is_dictionary(v) && !(pdf::is_reference(*value) && file.is_stream(pdf::reference_of(*value))))
                    for (const auto& [state, form] : pdf::entries(v)) use.xobject(*form, 0);
                else
                    use.xobject(*value, 0);
            }
        }
    std::vector<std::string> out = use.problems;
    const Object* props = file.get_key(pdf::dictionary_of(file.catalog()), "OCProperties");
    const Dictionary* p = props && pdf::is_dictionary(*props) ? &pdf::dictionary_of(*props) : nullptr;
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
    if (!pdf::is_array(*annots)) return {"/Annots is not an array"};
    for (const auto& item : pdf::array_of(*annots)) {
        const Object& a = file.resolve(item);
        if (pdf::is_null(a)) continue;  // a deleted annotation: every reader skips it
        if (std::string why = annotation_problem(file, a); !why.empty())
            out.push_back("the annotation " +
                          (pdf::is_reference(item) ? std::to_string(pdf::object_number(pdf::reference_of(item))) + " "
                                                   : std::string()) +
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
