// SPDX-License-Identifier: MIT
#pragma once
// pith's accessors for the parts of PDF objects that stamp, verify, sign and pith_data read and
// write: a page's contents, resources and annotations, and a dictionary's entries by kind. The
// keys are spelled here, and what to do with a value of the wrong type is decided once: callers
// outside src/pdf ask for "the annotations of this page", not for the PoDoFo objects at "Annots".
// Every reader resolves references (File::resolve) and treats a value of the wrong type as
// absent; none throws for a hostile file.
#include "pdf/file.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pith::pdf {

// ---- Reading a value, the same way whichever PoDoFo reads it

// A string, literal "(...)" or hexadecimal "<...>" (PoDoFo 0.9 tells the two apart, 0.10 does not).
bool is_string(const Object& object);
bool is_hex_string(const Object& object);
// An integer or a real (PoDoFo 0.9's IsNumber is integers only, as is 0.10's).
bool is_number(const Object& object);
// A string's bytes as stored (decrypted, not decoded as text); "" for anything else.
std::string string_bytes(const Object& object);
// A dictionary's entries by key (the key without its "/"), in PoDoFo's order (sorted by key).
std::vector<std::pair<std::string, const Object*>> entries(const Dictionary& dictionary);
std::size_t entry_count(const Dictionary& dictionary);
// The same for an object that is a dictionary (LibraryError when it is not).
inline std::vector<std::pair<std::string, const Object*>> entries(const Object& dictionary) {
    return entries(dictionary_of(dictionary));
}
inline std::size_t entry_count(const Object& dictionary) { return entry_count(dictionary_of(dictionary)); }

// ---- Making a value

// null: PoDoFo 0.9's Object() is an empty dictionary, 0.10's is null; say which.
Object null_value();
Object integer_value(std::int64_t value);
// A text string: PDFDocEncoding's ASCII as is, anything else as UTF-16BE with its mark.
Object text_value(std::string_view utf8);
// A hexadecimal string of these bytes.
Object hex_value(std::string_view bytes);
void append(Array& array, const Object& item);

// The value at `key` of `object`, resolved; nullptr when `object` is not a dictionary, or the
// key is absent or null.
const Object* entry(File& file, const Object& object, const char* key);
// The same when the value is a dictionary; nullptr otherwise.
const Object* dictionary_entry(File& file, const Object& object, const char* key);
// A name's text; "" for anything else, and for null (text_of() also reads strings).
std::string name_of(const Object* object);
// text_of() the value at `key`: a string's text or a name's, "" for anything else.
std::string text_entry(File& file, const Object& object, const char* key);

// The references an array lists, or the one reference `value` is, in order (references to an
// array followed once); direct items are left out. Empty for nullptr.
std::vector<Ref> references_in(File& file, const Object* value);

// A page's /Annots array (resolved); nullptr when the page is not a dictionary, has none, or
// it is not an array. Its items are as stored: references, or direct dictionaries.
const Array* annotations(File& file, const Object& page);
// The items of the page's /Annots array, a copy to extend (empty when annotations() is nullptr).
Array annotations_copy(File& file, const Object& page);
// The numbers of an array (references resolved, integers and reals alike); nullopt for nullptr,
// for anything but an array, and for an array holding anything but numbers.
std::optional<std::vector<double>> numbers_in(File& file, const Object* array);
// An annotation's /Rect (read_rect); false when `annotation` is not a dictionary or its /Rect is
// not four finite numbers.
bool annotation_rect(File& file, const Object& annotation, Rect& rect);
// A dictionary's /Subtype as text_entry() reads it.
std::string subtype_of(File& file, const Object& object);

// The document's XMP packet: the catalog's /Metadata when it refers to a stream; nullopt when
// it is absent, direct, or refers to anything else (a viewer reads no packet there either).
std::optional<Ref> metadata_stream(File& file);

// The page's own /Contents as stored (unresolved): nullptr when absent.
const Object* own_contents(const Object& page);

// Writing a page of an update: its /Contents, /Resources and /Annots replaced.
void set_contents(Object& page, const Array& contents);
void set_resources(Object& page, const Dictionary& resources);
void set_annotations(Object& page, const Array& annotations);

}  // namespace pith::pdf
