// SPDX-License-Identifier: MIT
#pragma once
// Is the badge in a stamped PDF exactly the one pith stamp draws?
//
// pith stamp records the badge's options (pith:badge); verify draws the badge again with them,
// for the number's label and the link's URL, and compares the Form XObject and everything it
// uses, object by object: dictionaries key by key, numbers to 5 decimals, strings by value,
// streams by their decoded bytes. A badge that says or draws anything else (another label, a
// white box over the title, glyph outlines of other letters) differs.
#include "badge/badge.hpp"
#include "pdf/file.hpp"

#include <string>

namespace pith::badge {

// Empty when the XObject at `xobject` is the badge badge::draw() makes of `label`, `url` and
// `options`; otherwise what differs first, for a message.
std::string redraw_differs(pdf::File& file, const pdf::Ref& xobject, const std::string& label, const std::string& url,
                           const Options& options);

}  // namespace pith::badge
