// SPDX-License-Identifier: MIT
#pragma once
// The PDF signatures of a stamped file: a publisher's signature over pith's update (pith stamp
// --sign-*) is reported as stamp.signed or stamp.signer_unknown, and a file changed after it
// was signed names the signer; every other signature is reported for what it covers.
// A signature never makes a file trusted; it adds evidence, or (--require-signed-stamp) its
// absence withholds trusted.
#include "core/findings.hpp"
#include "pdf/file.hpp"
#include "sign/inspect.hpp"
#include "verify/changes.hpp"

namespace pith::verify {

// Call after check_later_changes (its failures are what changed after signing). True when the
// baseline is signed by a publisher the reader trusts (stamp.signed).
bool check_signatures(pdf::File& file, const Baseline& baseline, const sign::Anchors& anchors, Findings& f);

}  // namespace pith::verify
