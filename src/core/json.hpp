// SPDX-License-Identifier: MIT
#pragma once
// JSON as the Pith registry computes it: parsed strictly and serialised exactly
// like CPython's json.dumps(obj, sort_keys=True, separators=(',', ':'), ensure_ascii=False).
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace pith {

using Json = nlohmann::json;

// Parses JSON text strictly: duplicate keys, NaN/Infinity, numbers outside the
// double range, invalid UTF-8 and nesting deeper than kMaxJsonDepth are refused
// with a pith::Error that names the JSON path ("$.metadata.title").
// Integers beyond 64 bits keep their exact digits (stored as a binary value
// holding the decimal text, which no JSON input can otherwise produce).
Json parse_json(std::string_view text, const std::string& source_name);

// The canonical bytes: sorted keys, no spaces, raw UTF-8, CPython float repr.
std::string canonical_json(const Json& value);

// The same rules with line breaks and `indent` spaces (for files people read).
std::string pretty_json(const Json& value, int indent = 2);

// CPython's repr() of a finite double ("1e+16", "0.0001", "1e-05", "-0.0").
std::string python_float_repr(double value);
// Its digits where the C++ library lacks floating-point std::to_chars: "[-]d.ddde±XX", the
// shortest that reads back as `value` and, of those, the nearest (as to_chars gives them).
std::string shortest_scientific_by_printf(double value);

constexpr int kMaxJsonDepth = 512;

}  // namespace pith
