// SPDX-License-Identifier: MIT
#include "pdf/objects.hpp"

namespace pith::pdf {

using PoDoFo::PdfArray;
using PoDoFo::PdfDictionary;
using PoDoFo::PdfObject;
using PoDoFo::PdfReference;

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

bool annotation_rect(File& file, const PdfObject& annotation, Rect& rect) {
    return read_rect(file, entry(file, annotation, "Rect"), rect);
}

std::string subtype_of(File& file, const PdfObject& object) { return text_entry(file, object, "Subtype"); }

const PdfObject* own_contents(const PdfObject& page) {
    return page.IsDictionary() ? page.GetDictionary().GetKey("Contents") : nullptr;
}

void set_contents(PdfObject& page, const PdfArray& contents) { page.GetDictionary().AddKey("Contents", contents); }
void set_resources(PdfObject& page, const PdfDictionary& resources) { page.GetDictionary().AddKey("Resources", resources); }
void set_annotations(PdfObject& page, const PdfArray& annotations) { page.GetDictionary().AddKey("Annots", annotations); }

}  // namespace pith::pdf
