// SPDX-License-Identifier: MIT
// The one JSON form of a stamp's result: `pith stamp --json` prints it, `pith batch` takes its
// lines' keys from it.
#include "stamp/stamp.hpp"

namespace pith::stamp {

Json Summary::to_json(const std::string& input, const std::string& output) const {
    Json j = {{"input", input}, {"output", output}, {"number", number}, {"prior_length", prior_length},
              {"added_bytes", added}, {"replaced_previous_stamp", replaced_previous}, {"title", title},
              {"latex_badge_kept", latex_badge}, {"warnings", warnings},
              {"signed_by", signed_by.empty() ? Json(nullptr) : Json(signed_by)}};
    j["badge"] = page ? Json{{"page", page}, {"rect", {rect[0], rect[1], rect[2], rect[3]}}, {"spot", where.spot}, {"why", where.why},
                             {"boxed", where.boxed}, {"measured", where.measured}, {"inked", where.inked}}
                      : Json(nullptr);
    return j;
}

}  // namespace pith::stamp
