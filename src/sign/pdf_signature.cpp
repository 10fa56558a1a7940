// SPDX-License-Identifier: MIT
#include "sign/pdf_signature.hpp"

#include "core/error.hpp"
#include "pdf/objects.hpp"

#include <cstdio>
#include <ctime>
#include <set>

namespace pith::sign {

using pdf::Array;
using pdf::Dictionary;
using pdf::Name;
using pdf::Object;
using pdf::Ref;

namespace {

// Ten digits: any offset of a file below 10 GB fits in the space the placeholder takes.
constexpr std::int64_t kRangePlaceholder = 9999999999LL;

using pdf::name_of;

// The fields of the form (and their kids, a few levels down), as (dictionary) objects; each
// field object once, so that a /Kids loop costs nothing more.
void collect_fields(pdf::File& file, const Object* fields, int depth, std::vector<const Object*>& out,
                    std::set<std::uint32_t>& seen) {
    if (!fields || !pdf::is_array(*fields) || depth > 8) return;
    for (const auto& item : pdf::array_of(*fields)) {
        if (!pdf::is_reference(item) || !seen.insert(pdf::object_number(pdf::reference_of(item))).second ||
            seen.size() > 100000)
            continue;
        const Object& f = file.resolve(item);
        if (!pdf::is_dictionary(f)) continue;
        out.push_back(&f);
        collect_fields(file, file.get_key(pdf::dictionary_of(f), "Kids"), depth + 1, out, seen);
    }
}

std::string pdf_date_now() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "D:%Y%m%d%H%M%SZ", &tm);
    return buf;
}

const Object& current(pdf::File& file, pdf::Update& update, const Ref& ref) {
    const Object* p = update.pending(ref);
    return p ? *p : file.get(ref);
}

}  // namespace

namespace {

std::vector<const Object*> signed_fields(pdf::File& file) {
    std::vector<const Object*> fields, out;
    const Object* form = file.get_key(pdf::dictionary_of(file.catalog()), "AcroForm");
    if (!form || !pdf::is_dictionary(*form)) return out;
    std::set<std::uint32_t> seen;
    collect_fields(file, file.get_key(pdf::dictionary_of(*form), "Fields"), 0, fields, seen);
    for (const Object* f : fields)
        if (name_of(file.get_key(pdf::dictionary_of(*f), "FT")) == "Sig" && file.get_key(pdf::dictionary_of(*f), "V"))
            out.push_back(f);
    return out;
}

std::string text_of(const Object* o) {
    return o && pdf::is_string(*o) ? pdf::text_of(o) : std::string();
}

}  // namespace

bool has_signatures(pdf::File& file) { return !signed_fields(file).empty(); }

int docmdp_permissions(pdf::File& file) {
    const Object* perms = file.get_key(pdf::dictionary_of(file.catalog()), "Perms");
    const Object* sig =
        perms && pdf::is_dictionary(*perms) ? file.get_key(pdf::dictionary_of(*perms), "DocMDP") : nullptr;
    const Object* refs =
        sig && pdf::is_dictionary(*sig) ? file.get_key(pdf::dictionary_of(*sig), "Reference") : nullptr;
    if (!refs || !pdf::is_array(*refs)) return sig ? 1 : 0;
    for (const auto& item : pdf::array_of(*refs)) {
        const Object& r = file.resolve(item);
        if (!pdf::is_dictionary(r) || pdf::name_of(file.get_key(pdf::dictionary_of(r), "TransformMethod")) != "DocMDP")
            continue;
        const Object* params = file.get_key(pdf::dictionary_of(r), "TransformParams");
        const Object* pv =
            params && pdf::is_dictionary(*params) ? file.get_key(pdf::dictionary_of(*params), "P") : nullptr;
        const long long v = pv && pdf::is_integer(*pv) ? pdf::integer_of(*pv) : 2;  // 2 when the parameters give none
        return v >= 1 && v <= 3 ? static_cast<int>(v) : 1;
    }
    return 1;
}

std::vector<std::string> signatures(pdf::File& file) {
    std::vector<std::string> out;
    for (const Object* f : signed_fields(file)) {
        std::string text = "field \"" + text_of(file.get_key(pdf::dictionary_of(*f), "T")) + "\"";
        const Object& v = file.resolve(*file.get_key(pdf::dictionary_of(*f), "V"));  // signed_fields: present
        if (pdf::is_dictionary(v)) {
            if (const std::string name = text_of(file.get_key(pdf::dictionary_of(v), "Name")); !name.empty())
                text += " by " + name;
            if (const std::string when = text_of(file.get_key(pdf::dictionary_of(v), "M")); !when.empty())
                text += " at " + when;
        }
        out.push_back(text);
    }
    return out;
}

namespace {

// A field name no field of the form (`fields`) has yet.
std::string new_field_name(pdf::File& file, const Array& fields) {
    std::vector<const Object*> existing;
    const Object fields_object(fields);
    std::set<std::uint32_t> seen;
    collect_fields(file, &fields_object, 0, existing, seen);
    std::set<std::string> names;
    for (const Object* f : existing)
        if (const Object* t = file.get_key(pdf::dictionary_of(*f), "T"); t && pdf::is_string(*t))
            names.insert(pdf::text_of(t));
    std::string name = kFieldName;
    for (int i = 2; names.count(name); ++i) name = kFieldName + std::to_string(i);
    return name;
}

// The signature dictionary: placeholders patched by finish(). All values direct.
Dictionary signature_dictionary(const Signer& signer, bool certify) {
    Dictionary sig;
    pdf::put(sig, "Type", Name("Sig"));
    pdf::put(sig, "Filter", Name("Adobe.PPKLite"));
    pdf::put(sig, "SubFilter", Name("ETSI.CAdES.detached"));
    Array range;
    pdf::append(range, pdf::integer_value(0));
    for (int i = 0; i < 3; ++i) pdf::append(range, pdf::integer_value(kRangePlaceholder));
    pdf::put(sig, "ByteRange", range);
    const std::string zeros(signer.reserve(), '\0');
    pdf::put(sig, "Contents", pdf::hex_value(zeros));
    pdf::put(sig, "M", pdf::text_value(pdf_date_now()));
    if (certify) {
        Dictionary params;
        pdf::put(params, "Type", Name("TransformParams"));
        pdf::put(params, "P", pdf::integer_value(2));
        pdf::put(params, "V", Name("1.2"));
        Dictionary reference;
        pdf::put(reference, "Type", Name("SigRef"));
        pdf::put(reference, "TransformMethod", Name("DocMDP"));
        pdf::put(reference, "TransformParams", params);
        Array refs;
        pdf::append(refs, reference);
        pdf::put(sig, "Reference", refs);
    }
    return sig;
}

// The field, merged with an invisible widget: zero rectangle, Print and Locked.
Dictionary signature_field(pdf::Update& update, const std::string& name, const Ref& signature,
                              const Ref* page) {
    Dictionary field;
    pdf::put(field, "Type", Name("Annot"));
    pdf::put(field, "Subtype", Name("Widget"));
    pdf::put(field, "FT", Name("Sig"));
    pdf::put(field, "T", pdf::text_value(name));
    pdf::put(field, "V", signature);
    pdf::put(field, "F", pdf::integer_value(132));
    Array rect;
    for (int i = 0; i < 4; ++i) pdf::append(rect, pdf::integer_value(0));
    pdf::put(field, "Rect", rect);
    if (page) pdf::put(field, "P", *page);
    // An empty appearance: PDF/A wants one for every widget; a zero rectangle shows nothing anyway.
    Dictionary form_xobject;
    pdf::put(form_xobject, "Type", Name("XObject"));
    pdf::put(form_xobject, "Subtype", Name("Form"));
    Array bbox;
    for (int i = 0; i < 4; ++i) pdf::append(bbox, pdf::integer_value(0));
    pdf::put(form_xobject, "BBox", bbox);
    Dictionary appearance;
    pdf::put(appearance, "N", update.add_stream(form_xobject, ""));
    pdf::put(field, "AP", appearance);
    return field;
}

// The widget joins the page's annotations.
void add_to_annotations(pdf::File& file, pdf::Update& update, const Ref& page, const Ref& field) {
    Object page_object = current(file, update, page);
    Array annots = pdf::annotations_copy(file, page_object);
    pdf::append(annots, field);
    pdf::set_annotations(page_object, annots);
    update.replace(page, page_object);
}

}  // namespace

Placeholder prepare(pdf::File& file, pdf::Update& update, const Ref* page, const Signer& signer, bool certify) {
    if (certify && has_signatures(file))
        throw Error(file.name() + ": --certify: the PDF is already signed; only its first signature may certify it", err::sign_already_signed);
    Placeholder p;
    Object catalog = current(file, update, file.root_ref());
    Ref form_ref;
    Dictionary form;
    if (const Object* af = pdf::find(catalog, "AcroForm"); af && pdf::is_reference(*af)) {
        form_ref = pdf::reference_of(*af);
        if (const Object& o = current(file, update, form_ref); pdf::is_dictionary(o)) form = pdf::dictionary_of(o);
    } else if (af && pdf::is_dictionary(*af)) {
        form = pdf::dictionary_of(*af);
    }
    Array fields;
    if (const Object* f = file.get_key(form, "Fields"); f && pdf::is_array(*f)) fields = pdf::array_of(*f);

    const std::string name = new_field_name(file, fields);
    p.signature = update.add(Object(signature_dictionary(signer, certify)));
    p.field = update.add(Object(signature_field(update, name, p.signature, page)));
    if (page) add_to_annotations(file, update, *page, p.field);

    pdf::append(fields, p.field);
    pdf::put(form, "Fields", fields);
    long long flags = 0;
    if (const Object* f = file.get_key(form, "SigFlags"); f && pdf::is_integer(*f)) flags = pdf::integer_of(*f);
    pdf::put(form, "SigFlags", pdf::integer_value(flags | 3));  // signatures exist; append only
    if (pdf::object_number(form_ref) != 0) {
        update.replace(form_ref, Object(form));
    } else {
        pdf::put(pdf::dictionary_of(catalog), "AcroForm", form);
    }
    if (certify) {
        Dictionary perms;
        if (const Object* old = file.get_key(pdf::dictionary_of(catalog), "Perms"); old && pdf::is_dictionary(*old))
            perms = pdf::dictionary_of(*old);
        pdf::put(perms, "DocMDP", p.signature);
        pdf::put(pdf::dictionary_of(catalog), "Perms", perms);
    }
    if (pdf::object_number(form_ref) == 0 || certify) update.replace(file.root_ref(), catalog);
    return p;
}

void finish(std::string_view prior, std::string& tail, const std::map<std::uint32_t, std::size_t>& offsets, const Placeholder& p,
            const Signer& signer) {
    auto at = offsets.find(pdf::object_number(p.signature));
    if (at == offsets.end()) throw Error("internal: the signature dictionary was not written", err::internal_error);
    // PoDoFo writes a dictionary's keys in name order, so /ByteRange and /Contents come before
    // any string of the dictionary: their first occurrences after the object header are the keys.
    const std::size_t key_range = tail.find("/ByteRange", at->second);
    const std::size_t open_range = tail.find('[', key_range), close_range = tail.find(']', open_range);
    const std::size_t key_contents = tail.find("/Contents", at->second);
    const std::size_t lt = tail.find('<', key_contents), gt = tail.find('>', lt);
    if (key_range == std::string::npos || close_range == std::string::npos || key_contents == std::string::npos ||
        gt == std::string::npos || (tail.compare(open_range, 3, "[0 ") != 0 && tail.compare(open_range, 3, "[ 0") != 0))
        throw Error("internal: the signature placeholders were not found", err::internal_error);

    const std::uint64_t start_hole = prior.size() + lt, end_hole = prior.size() + gt + 1;
    const std::uint64_t total = prior.size() + tail.size();
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "0 %llu %llu %llu", static_cast<unsigned long long>(start_hole),
                  static_cast<unsigned long long>(end_hole), static_cast<unsigned long long>(total - end_hole));
    std::string inside(numbers);
    const std::size_t width = close_range - open_range - 1;
    if (inside.size() > width) throw Error("the file is too large to sign (10 GB or more)", err::pdf_too_large);
    inside.resize(width, ' ');
    tail.replace(open_range + 1, width, inside);

    const std::string_view t(tail);
    const std::string der = signer.sign({prior, t.substr(0, lt), t.substr(gt + 1)});
    if (2 * der.size() > gt - lt - 1) throw Error("internal: the signature (" + std::to_string(der.size()) + " bytes) outgrew its space", err::internal_error);
    static const char* digits = "0123456789abcdef";
    for (std::size_t i = 0; i < der.size(); ++i) {
        const auto b = static_cast<unsigned char>(der[i]);
        tail[lt + 1 + 2 * i] = digits[b >> 4];
        tail[lt + 2 + 2 * i] = digits[b & 15];
    }
}

}  // namespace pith::sign
