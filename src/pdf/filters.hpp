#pragma once
// Stream filters used by the PDF reader (internal to src/pdf, but usable elsewhere).
#include "pdf/file.hpp"

#include <podofo/podofo.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace pith::pdf {

// zlib inflate (accepts zlib or raw deflate data; keeps what was decoded before a
// corrupt tail). Throws pith::Error if nothing can be decoded or the output
// would exceed `limit`.
std::string flate_decode(std::string_view in, std::size_t limit = kMaxDecodedSize);
std::string flate_encode(std::string_view in);

// PNG (>= 10) and TIFF (2) predictors as described by /DecodeParms.
std::string apply_predictor(std::string data, const PoDoFo::PdfDictionary* parms);

// Decode `in` through the filter chain named by `filter` (Name or Array) with
// `parms` (Dictionary, Array or null). Supports Flate, LZW, ASCIIHex, ASCII85,
// RunLength (+ predictors); throws pith::Error naming unsupported filters
// (image codecs such as DCT/JPX/JBIG2/CCITT are never decoded here).
std::string decode_filters(std::string_view in, const PoDoFo::PdfObject* filter,
                           const PoDoFo::PdfObject* parms, std::size_t limit = kMaxDecodedSize);

}  // namespace pith::pdf
