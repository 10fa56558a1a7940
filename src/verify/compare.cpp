// SPDX-License-Identifier: MIT
#include "verify/compare.hpp"

#include "core/error.hpp"
#include "pdf/objects.hpp"

#include <cstdio>

namespace pith::verify {

using pdf::Object;
using pdf::Ref;
using pdf::name_of;

std::string type_of(const Object& o) { return pdf::is_dictionary(o) ? name_of(pdf::find(o, "Type")) : std::string(); }

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
    if (pdf::is_name(o)) return "/" + name_of(&o);
    if (pdf::is_reference(o))
        return std::to_string(pdf::object_number(pdf::reference_of(o))) + " " +
               std::to_string(pdf::generation_number(pdf::reference_of(o))) + " R";
    if (pdf::is_number(o)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.3f", pdf::number_value(o));
        return buf;
    }
    if (pdf::is_array(o)) {
        std::string out = "[";
        for (const auto& item : pdf::array_of(o)) out += canon(item) + " ";
        return out + "]";
    }
    if (pdf::is_dictionary(o)) {
        std::string out = "<<";
        for (const auto& [key, value] : pdf::entries(o)) out += "/" + key + " " + canon(*value) + " ";
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
    if (!pdf::is_dictionary(a) || !pdf::is_dictionary(b)) return {"(whole object)"};
    for (const auto& [key, value] : pdf::entries(a)) {
        const Object* other = pdf::find(b, key);
        if (!other || canon(*other) != canon(*value)) out.insert(key);
    }
    for (const auto& [key, value] : pdf::entries(b))
        if (!pdf::find(a, key)) out.insert(key);
    return out;
}

std::set<std::string> without(std::set<std::string> keys, std::initializer_list<const char*> allowed) {
    for (const char* k : allowed) keys.erase(k);
    return keys;
}

std::optional<pdf::File> document_at(pdf::File& file, std::uint64_t length, const std::string& what,
                                     const std::string& password) {
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

}  // namespace pith::verify
