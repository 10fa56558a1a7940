// SPDX-License-Identifier: MIT
#pragma once
#include "pdf/types.hpp"

#include <string>

namespace pith::pdf {

// Receives the new indirect objects of an update and numbers them.
// The PDF writer implements it; the badge and XMP code only describe objects.
class ObjectSink {
public:
    virtual ~ObjectSink() = default;
    // A plain indirect object (dictionary, array, ...).
    virtual Ref add(const Object& value) = 0;
    // A stream object: `data` is written exactly as given (encode it yourself and
    // put /Filter in `dict`); the writer sets /Length.
    virtual Ref add_stream(const Dictionary& dict, const std::string& data) = 0;
};

}  // namespace pith::pdf
