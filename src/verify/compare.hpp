// SPDX-License-Identifier: MIT
#pragma once
// Comparing a document's objects with an earlier document's: what the check of pith's own update
// (pith_update.cpp) and the judgement of later revisions (later_changes.cpp) both use.
#include "pdf/file.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>

namespace pith::verify {

// A dictionary's /Type; "" for anything else.
std::string type_of(const pdf::Object& o);
// The keys as "/A, /B".
std::string keys_text(const std::set<std::string>& keys);
// A value as text for comparing, so that what a rewriting tool changes without changing the value
// (a string's syntax, a number's last digits) compares equal.
std::string canon(const pdf::Object& o);
// Object `num` holds the same value in both documents, and a stream the same bytes.
bool same_object(pdf::File& a, pdf::File& b, std::uint32_t num);
// The keys whose values differ between two dictionaries (a key present in only one counts).
std::set<std::string> changed_keys(const pdf::Object& a, const pdf::Object& b);
std::set<std::string> without(std::set<std::string> keys, std::initializer_list<const char*> allowed);
// The document `file` held when it was `length` bytes long; nullopt when those bytes are no PDF.
std::optional<pdf::File> document_at(pdf::File& file, std::uint64_t length, const std::string& what,
                                     const std::string& password);
// `file`'s revisions begin with `head`'s.
bool chain_starts_with(pdf::File& file, pdf::File& head);

}  // namespace pith::verify
