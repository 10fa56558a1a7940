// SPDX-License-Identifier: MIT
#pragma once
// Stream filters used by the PDF reader (internal to src/pdf, but usable elsewhere).
#include "pdf/budget.hpp"
#include "pdf/file.hpp"

#include <podofo/podofo.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace pith::pdf {

// zlib inflate (accepts zlib or raw deflate data; keeps what was decoded before a
// corrupt tail). Throws pith::Error if nothing can be decoded or the output
// would exceed `limit`; TooLarge past `budget` (when given), checked as the output grows.
std::string flate_decode(std::string_view in, std::size_t limit = kMaxDecodedSize, Budget* budget = nullptr);
std::string flate_encode(std::string_view in);

// PNG (>= 10) and TIFF (2) predictors as described by /DecodeParms.
std::string apply_predictor(std::string data, const PoDoFo::PdfDictionary* parms);

// Decode `in` through the filter chain named by `filter` (Name or Array) with
// `parms` (Dictionary, Array or null). Supports Flate, LZW, ASCIIHex, ASCII85,
// RunLength (+ predictors), all pith's own code; throws pith::Error naming unsupported filters
// (image codecs such as DCT/JPX/JBIG2/CCITT are never decoded here), pith::Error when a step's
// output would exceed `limit` (the caller's choice: it may read around it) and TooLarge past
// `budget` (per stream and in all; every step's output counts), checked as each output grows.
std::string decode_filters(std::string_view in, const PoDoFo::PdfObject* filter,
                           const PoDoFo::PdfObject* parms, std::size_t limit = kMaxDecodedSize,
                           Budget* budget = nullptr);

}  // namespace pith::pdf
