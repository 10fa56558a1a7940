// SPDX-License-Identifier: MIT
#include "pdf/objects.hpp"

#include <algorithm>

namespace pith::pdf {

using PoDoFo::PdfArray;
using PoDoFo::PdfDictionary;
using PoDoFo::PdfObject;
using PoDoFo::PdfReference;

bool is_string(const PdfObject& object) { return object.IsString() || object.IsHexString(); }
bool is_hex_string(const PdfObject& object) { return object.IsHexString(); }
bool is_number(const PdfObject& object) { return object.IsNumber() || object.IsReal(); }

std::string string_bytes(const PdfObject& object) {
    if (!is_string(object)) return {};
    const PoDoFo::PdfString& s = object.GetString();
    return std::string(s.GetString(), static_cast<std::size_t>(s.GetLength()));
}

std::vector<std::pair<std::string, const PdfObject*>> entries(const PdfDictionary& dictionary) {
    std::vector<std::pair<std::string, const PdfObject*>> out;
    out.reserve(dictionary.GetKeys().size());
    for (const auto& [key, value] : dictionary.GetKeys()) out.emplace_back(key.GetName(), value);
    return out;
}

std::size_t entry_count(const PdfDictionary& dictionary) { return dictionary.GetKeys().size(); }

PdfObject null_value() { return PdfObject(PoDoFo::PdfVariant()); }
PdfObject integer_value(std::int64_t value) { return PdfObject(static_cast<PoDoFo::pdf_int64>(value)); }

PdfObject text_value(std::string_view utf8) {
    const bool ascii = std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    const std::string text(utf8);
    // PoDoFo 0.9 writes a std::string's bytes as they are (PDFDocEncoding) and UTF-8 as UTF-16BE.
    return ascii ? PdfObject(PoDoFo::PdfString(text)) : PdfObject(PoDoFo::PdfString(reinterpret_cast<const PoDoFo::pdf_utf8*>(text.c_str())));
}

PdfObject hex_value(std::string_view bytes) {
    return PdfObject(PoDoFo::PdfString(bytes.data(), static_cast<PoDoFo::pdf_long>(bytes.size()), true));
}

void append(PdfArray& array, const PdfObject& item) { array.push_back(item); }

const PdfObject* entry(File& file, const PdfObject& object, const char* key) {
    return object.IsDictionary() ? file.get_key(object.GetDictionary(), key) : nullptr;
}

const PdfObject* dictionary_entry(File& file, const PdfObject& object, const char* key) {
    const PdfObject* value = entry(file, object, key);
    return value && value->IsDictionary() ? value : nullptr;
}

std::string name_of(const PdfObject* object) { return object && object->IsName() ? object->GetName().GetName() : std::string(); }

std::string text_entry(File& file, const PdfObject& object, const char* key) { return text_of(entry(file, object, key)); }

std::vector<PdfReference> references_in(File& file, const PdfObject* value) {
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

const PdfArray* annotations(File& file, const PdfObject& page) {
    const PdfObject* annots = entry(file, page, "Annots");
    return annots && annots->IsArray() ? &annots->GetArray() : nullptr;
}

PdfArray annotations_copy(File& file, const PdfObject& page) {
    const PdfArray* annots = annotations(file, page);
    return annots ? *annots : PdfArray();
}

std::optional<std::vector<double>> numbers_in(File& file, const PdfObject* array) {
    if (!array || !file.resolve(*array).IsArray()) return std::nullopt;
    std::vector<double> out;
    for (const PdfObject& item : file.resolve(*array).GetArray()) {
        const PdfObject& v = file.resolve(item);
        if (!is_number(v)) return std::nullopt;
        out.push_back(number_value(v));
    }
    return out;
}

bool annotation_rect(File& file, const PdfObject& annotation, Rect& rect) {
    return read_rect(file, entry(file, annotation, "Rect"), rect);
}

std::string subtype_of(File& file, const PdfObject& object) { return text_entry(file, object, "Subtype"); }

std::optional<Ref> metadata_stream(File& file) {
    const PdfObject* metadata = find(file.catalog(), "Metadata");
    if (!metadata || !is_reference(*metadata) || !file.is_stream(reference_of(*metadata))) return std::nullopt;
    return reference_of(*metadata);
}

const PdfObject* own_contents(const PdfObject& page) {
    return page.IsDictionary() ? page.GetDictionary().GetKey("Contents") : nullptr;
}

void set_contents(PdfObject& page, const PdfArray& contents) { page.GetDictionary().AddKey("Contents", contents); }
void set_resources(PdfObject& page, const PdfDictionary& resources) { page.GetDictionary().AddKey("Resources", resources); }
void set_annotations(PdfObject& page, const PdfArray& annotations) { page.GetDictionary().AddKey("Annots", annotations); }

}  // namespace pith::pdf
