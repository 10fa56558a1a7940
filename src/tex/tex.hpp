// SPDX-License-Identifier: MIT
#pragma once
// What `pith tex` prints for latex/pith.sty: \pithnumber with the receipt, title and record.
#include "core/record.hpp"

#include <string>

namespace pith::tex {

// Values that could meet TeX's parser (title, record) are given as hex of their UTF-8
// bytes, so no special or non-ASCII character ever reaches it; pith.sty decodes them.
std::string snippet(const Record& record);

}  // namespace pith::tex
