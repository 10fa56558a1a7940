// SPDX-License-Identifier: MIT
#pragma once
// A stamped paper saved again by a tool that rewrites the whole file (qpdf, a linearizer,
// mutool clean, a viewer's "Save As"): the bytes pith stamped onto no longer start the file and
// pith's update cannot be delimited, so what changed since cannot be checked (at best
// unverified), but the metadata, the badge and its link are still there to check.
#include "pdf/file.hpp"
#include "verify/changes.hpp"

#include <cstdint>

namespace pith::verify {

// Whether a file whose pith:priorSha256 no longer matches its first `prior_length` bytes was
// rewritten rather than altered in place: no trace of pith's incremental update is left, neither
// its marker comment ("%PithUpdate prior=", which opens it and survives any edit that keeps it)
// nor a revision ending where the stamped input ended. A file with either keeps pith's update
// and is judged as it stands (altered: invalid). Removing both gains a forger nothing: a
// rewritten file is never trusted.
bool rewritten_since_stamp(pdf::File& file, std::uint64_t prior_length);

// The badge pith stamp drew, found where a rewrite leaves it: the link named /NM pith-badge and
// the /PithBadge XObject in its page's resources. `found` stays false: there is no document as
// stamped to compare later changes with.
Baseline badge_after_rewrite(pdf::File& file);

}  // namespace pith::verify
