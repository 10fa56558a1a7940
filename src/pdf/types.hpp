// SPDX-License-Identifier: MIT
#pragma once
// pith's PDF values and the functions that read and change them. PoDoFo provides the values
// (0.9.8, Debian 12's); no code outside src/pdf names PoDoFo or calls a member function of its
// classes: it reads a value's kind and contents with the functions below (and those of
// pdf/objects.hpp, which also follow references through a File), so that a port to PoDoFo 0.10,
// or to another library, rewrites src/pdf alone. tests/code/podofo_boundary.py keeps that rule;
// doc/dev/podofo.md says what differs between PoDoFo's versions and where pith handles it.
#include <podofo/podofo.h>

#include <cstdint>

namespace pith::pdf {

using Object = PoDoFo::PdfObject;
using Dictionary = PoDoFo::PdfDictionary;
using Array = PoDoFo::PdfArray;
using Ref = PoDoFo::PdfReference;
using Name = PoDoFo::PdfName;
// What PoDoFo throws for a value of the wrong type or broken syntax. Callers outside src/pdf only
// catch it; its words are read by podofo_words() (pdf/budget.hpp).
using LibraryError = PoDoFo::PdfError;

// ---- A value's kind, and its contents as that kind. Reading a value as a kind it is not throws
// LibraryError, as PoDoFo does; ask its kind first.

inline bool is_dictionary(const Object& o) { return o.IsDictionary(); }
inline bool is_array(const Object& o) { return o.IsArray(); }
inline bool is_reference(const Object& o) { return o.IsReference(); }
inline bool is_name(const Object& o) { return o.IsName(); }
inline bool is_bool(const Object& o) { return o.IsBool(); }
inline bool is_null(const Object& o) { return o.IsNull(); }
// An integer (a real is not one: pdf::is_number of pdf/objects.hpp takes both).
inline bool is_integer(const Object& o) { return o.IsNumber(); }

inline const Dictionary& dictionary_of(const Object& o) { return o.GetDictionary(); }
inline Dictionary& dictionary_of(Object& o) { return o.GetDictionary(); }
inline const Array& array_of(const Object& o) { return o.GetArray(); }
inline Array& array_of(Object& o) { return o.GetArray(); }
inline const Ref& reference_of(const Object& o) { return o.GetReference(); }
inline bool bool_of(const Object& o) { return o.GetBool(); }
inline std::int64_t integer_of(const Object& o) { return o.GetNumber(); }

// ---- A dictionary's entries. The key is written without its "/"; find() does not follow a
// reference (File::get_key and pdf::entry do).

inline const Object* find(const Dictionary& d, const Name& key) { return d.GetKey(key); }
inline Object* find(Dictionary& d, const Name& key) { return d.GetKey(key); }
inline bool has_key(const Dictionary& d, const Name& key) { return d.HasKey(key); }
inline void put(Dictionary& d, const Name& key, const Object& value) { d.AddKey(key, value); }
inline void remove_key(Dictionary& d, const Name& key) { d.RemoveKey(key); }
// find() and has_key() of an object that is a dictionary.
inline const Object* find(const Object& dictionary, const Name& key) { return find(dictionary_of(dictionary), key); }
inline Object* find(Object& dictionary, const Name& key) { return find(dictionary_of(dictionary), key); }
inline bool has_key(const Object& dictionary, const Name& key) { return has_key(dictionary_of(dictionary), key); }

// ---- A reference's parts.

inline std::uint32_t object_number(const Ref& r) { return r.ObjectNumber(); }
inline std::uint16_t generation_number(const Ref& r) { return r.GenerationNumber(); }

}  // namespace pith::pdf
