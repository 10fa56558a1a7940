// SPDX-License-Identifier: MIT
#pragma once
// A stamped paper saved again by a tool that rewrites the whole file (qpdf, a linearizer,
// mutool clean, a viewer's "Save As"): the bytes pith stamped onto no longer start the file and
// pith's update cannot be delimited, so what changed since cannot be checked (at best
// unverified), but the metadata, the badge and its link are still there to check.
#include "pdf/file.hpp"
#include "verify/changes.hpp"

#include <cstdint>
#include <optional>

namespace pith::verify {

// Whether a file whose pith:priorSha256 no longer matches its first `prior_length` bytes was
// rewritten rather than altered in place, and if so the badge pith stamp drew in it. Rewritten:
// no trace of pith's incremental update is left, neither its marker comment ("%PithUpdate
// prior=", which opens it and survives any edit that keeps it) nor a revision ending where the
// stamped input ended; and where the metadata says pith stamp drew a badge (`badge_recorded`),
// that badge is still there, as a rewrite keeps it: its link named /NM pith-badge, the
// /PithBadge XObject in its page's resources. Otherwise nullopt: the file is judged as it
// stands (altered: invalid). The baseline's `found` stays false: there is no document as
// stamped to compare later changes with, so a rewritten file is never trusted.
std::optional<Baseline> rewritten_since_stamp(pdf::File& file, std::uint64_t prior_length, bool badge_recorded);

}  // namespace pith::verify
