// SPDX-License-Identifier: MIT
#pragma once
// pith's accessors for the parts of PDF objects that stamp, verify, sign and mark read and
// write: a page's contents, resources and annotations, and a dictionary's entries by kind. The
// keys are spelled here, and what to do with a value of the wrong type is decided once: callers
// outside src/pdf ask for "the annotations of this page", not for the PoDoFo objects at "Annots".
// Every reader resolves references (File::resolve) and treats a value of the wrong type as
// absent; none throws for a hostile file.
#include "pdf/file.hpp"

#include <podofo/podofo.h>

#include <string>
#include <vector>

namespace pith::pdf {

// The value at `key` of `object`, resolved; nullptr when `object` is not a dictionary, or the
// key is absent or null.
const PoDoFo::PdfObject* entry(File& file, const PoDoFo::PdfObject& object, const char* key);
// The same when the value is a dictionary; nullptr otherwise.
const PoDoFo::PdfObject* dictionary_entry(File& file, const PoDoFo::PdfObject& object, const char* key);
// A name's text; "" for anything else, and for null (text_of() also reads strings).
std::string name_of(const PoDoFo::PdfObject* object);
// text_of() the value at `key`: a string's text or a name's, "" for anything else.
std::string text_entry(File& file, const PoDoFo::PdfObject& object, const char* key);

// The references an array lists, or the one reference `value` is, in order (references to an
// array followed once); direct items are left out. Empty for nullptr.
std::vector<PoDoFo::PdfReference> references_in(File& file, const PoDoFo::PdfObject* value);

// A page's /Annots array (resolved); nullptr when the page is not a dictionary, has none, or
// it is not an array. Its items are as stored: references, or direct dictionaries.
const PoDoFo::PdfArray* annotations(File& file, const PoDoFo::PdfObject& page);
// The items of the page's /Annots array, a copy to extend (empty when annotations() is nullptr).
PoDoFo::PdfArray annotations_copy(File& file, const PoDoFo::PdfObject& page);
// An annotation's /Rect (read_rect); false when `annotation` is not a dictionary or its /Rect is
// not four finite numbers.
bool annotation_rect(File& file, const PoDoFo::PdfObject& annotation, Rect& rect);
// A dictionary's /Subtype as text_entry() reads it.
std::string subtype_of(File& file, const PoDoFo::PdfObject& object);

// The page's own /Contents as stored (unresolved): nullptr when absent.
const PoDoFo::PdfObject* own_contents(const PoDoFo::PdfObject& page);

// Writing a page of an update: its /Contents, /Resources and /Annots replaced.
void set_contents(PoDoFo::PdfObject& page, const PoDoFo::PdfArray& contents);
void set_resources(PoDoFo::PdfObject& page, const PoDoFo::PdfDictionary& resources);
void set_annotations(PoDoFo::PdfObject& page, const PoDoFo::PdfArray& annotations);

}  // namespace pith::pdf
