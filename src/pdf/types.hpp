// SPDX-License-Identifier: MIT
#pragma once
// pith's names for PDF values, for headers that only pass them on; pdf/file.hpp and
// pdf/objects.hpp read and make them. PoDoFo provides them (0.9.8, Debian 12's); no code outside
// src/pdf names PoDoFo, and the member functions it calls on these types are the ones PoDoFo
// 0.9.8 and 0.10 both declare with one meaning. What differs between the two (a dictionary's
// entries, a name's or a string's text, numbers, arrays, new values) is read and built through
// the functions of pdf/objects.hpp. tests/code/podofo_boundary.py keeps that rule;
// doc/dev/podofo.md lists the member functions and why each is safe.
#include <podofo/podofo.h>

namespace pith::pdf {

using Object = PoDoFo::PdfObject;
using Dictionary = PoDoFo::PdfDictionary;
using Array = PoDoFo::PdfArray;
using Ref = PoDoFo::PdfReference;
using Name = PoDoFo::PdfName;
// What PoDoFo throws for a value of the wrong type or broken syntax. Callers outside src/pdf only
// catch it; its words are read by podofo_words() (pdf/budget.hpp).
using LibraryError = PoDoFo::PdfError;

}  // namespace pith::pdf
