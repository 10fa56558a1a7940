// SPDX-License-Identifier: MIT
#include "badge/redraw.hpp"

#include "core/error.hpp"
#include "pdf/filters.hpp"
#include "pdf/objects.hpp"
#include "pdf/object_sink.hpp"

#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace pith::badge {
namespace {

using pdf::Object;
using pdf::Ref;

// The objects badge::draw() describes, kept in memory and numbered 1, 2, ...
class Drawn : public pdf::ObjectSink {
public:
    struct Item {
        Object value;
        std::optional<std::string> data;  // a stream's bytes, as encoded
    };
    Ref add(const Object& value) override { return keep({value, std::nullopt}); }
    Ref add_stream(const pdf::Dictionary& dict, const std::string& data) override { return keep({Object(dict), data}); }
    const Item& at(std::uint32_t number) const { return objects_.at(number); }

private:
    Ref keep(Item o) {
        objects_.emplace(static_cast<std::uint32_t>(objects_.size() + 1), std::move(o));
        return Ref(static_cast<std::uint32_t>(objects_.size()), 0);
    }
    std::map<std::uint32_t, Item> objects_;
};

// Walks the drawn badge and the file's side by side; `why` says where they first differ.
class Comparison {
public:
    Comparison(pdf::File& file, const Drawn& drawn) : file_(file), drawn_(drawn) {}

    bool same_object(std::uint32_t want, const Ref& got) {
        if (!seen_.insert({want, pdf::object_number(got)}).second) return true;
        if (!file_.exists(got)) return differ("object " + std::to_string(pdf::object_number(got)) + " is missing");
        const Drawn::Item& w = drawn_.at(want);
        const std::string where = "object " + std::to_string(pdf::object_number(got));
        if (w.data.has_value() != file_.is_stream(got)) return differ(where + " is " + (w.data ? "not a stream" : "a stream"));
        if (w.data) {
            const bool flate = pdf::has_key(w.value, "Filter");
            if ((flate ? pdf::flate_decode(*w.data) : *w.data) != file_.stream_decoded(got))
                return differ(where + "'s stream draws something else");
        }
        return same_value(w.value, file_.get(got), where);
    }

    std::string why;

private:
    bool differ(const std::string& what) {
        if (why.empty()) why = what;
        return false;
    }

    bool same_value(const Object& w, const Object& g, const std::string& where) {
        if (pdf::is_reference(w))
            return pdf::is_reference(g) ? same_object(pdf::object_number(pdf::reference_of(w)), pdf::reference_of(g))
                                        : differ(where + " holds a value where pith writes a reference");
        if (pdf::is_dictionary(w)) {
            if (!pdf::is_dictionary(g)) return differ(where + " is not a dictionary");
            const auto entries = [](const Object& o) {
                const auto list = pdf::entries(o);
                return std::map<std::string, const Object*>(list.begin(), list.end());
            };
            const auto wk = entries(w), gk = entries(g);
            for (const auto& [key, value] : gk)  // /Length and /Filter depend on how the stream was written
                if (key != "Length" && key != "Filter" && !wk.count(key))
                    return differ(where + " has /" + key + ", which pith does not write");
            for (const auto& [key, value] : wk) {
                if (key == "Length" || key == "Filter") continue;
                const auto it = gk.find(key);
                if (it == gk.end()) return differ(where + " lacks /" + key);
                if (!same_value(*value, *it->second, where + " /" + key)) return false;
            }
            return true;
        }
        if (pdf::is_array(w)) {
            if (!pdf::is_array(g) || pdf::array_of(g).size() != pdf::array_of(w).size())
                return differ(where + " is another array");
            for (std::size_t i = 0; i < pdf::array_of(w).size(); ++i)
                if (!same_value(pdf::array_of(w)[i], pdf::array_of(g)[i], where)) return false;
            return true;
        }
        if (pdf::is_number(w))
            return pdf::is_number(g) && std::fabs(pdf::number_value(w) - pdf::number_value(g)) < 1e-5 ? true
                                                                                                               : differ(where + " holds another number");
        if (pdf::is_string(w))
            return pdf::is_string(g) && pdf::text_of(&g) == pdf::text_of(&w)
                       ? true
                       : differ(where + " holds another string");
        if (pdf::is_name(w))
            return pdf::is_name(g) && pdf::name_of(&g) == pdf::name_of(&w) ? true
                                                                           : differ(where + " holds another name");
        return pdf::to_pdf_string(w) == pdf::to_pdf_string(g) ? true : differ(where + " holds another value");
    }

    pdf::File& file_;
    const Drawn& drawn_;
    std::set<std::pair<std::uint32_t, std::uint32_t>> seen_;
};

}  // namespace

std::string redraw_differs(pdf::File& file, const Ref& xobject, const std::string& label, const std::string& url,
                           const Options& options) {
    Drawn drawn;
    Badge made;
    try {
        made = draw(drawn, label, url, options);
    } catch (const Error& e) {
        return std::string("the recorded badge options cannot be drawn (") + e.what() + ")";
    }
    Comparison c(file, drawn);
    try {
        if (c.same_object(pdf::object_number(made.xobject), xobject)) return {};
    } catch (const Error& e) {
        return std::string("the badge cannot be read (") + e.what() + ")";
    }
    return c.why;
}

}  // namespace pith::badge
