// SPDX-License-Identifier: MIT
#pragma once
// What the parts of pith batch share (not part of its interface, batch.hpp).
#include "batch/batch.hpp"

#include <string>

namespace pith::batch {

// The work of one file, in the worker process (work.cpp): a result line without event, line,
// input, output, seconds and attempts. Failures are results with "error_code" and "error".
Json stamp_one(const Entry& e, const Keyring& keyring, const Options& opt);
Json verify_one(const Entry& e, const Keyring& keyring, const Options& opt);
Json failure(const std::string& code, const std::string& message);
void run_test_hooks(const Entry& e);  // PITH_BATCH_TEST_*: make a worker misbehave on purpose

// Scans each output directory of the manifest once and removes what killed workers of an
// earlier run left (temporaries.cpp). Returns how many.
std::size_t remove_stale_temporaries(const Manifest& m, Mode mode, const std::string& default_record);

std::string now_iso();   // UTC, to the second, for the report
double round3(double x);  // seconds in the report: milliseconds are enough

}  // namespace pith::batch
