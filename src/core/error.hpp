// SPDX-License-Identifier: MIT
#pragma once
#include <stdexcept>
#include <string>

namespace pith {

// The stable codes of pith's errors, for machines (`pith batch` reports, --json) and for people
// who look them up in doc/errors.md. Each names what went wrong in terms of what the user does
// about it; a code is given where the error happens, never guessed from the message later.
// tests/cli/error_codes.py checks that this list and doc/errors.md hold the same codes.
namespace err {
inline constexpr const char* options_invalid = "options.invalid";
inline constexpr const char* input_not_found = "input.not_found";
inline constexpr const char* input_unreadable = "input.unreadable";
inline constexpr const char* input_not_json = "input.not_json";
inline constexpr const char* input_not_pdf = "input.not_pdf";
inline constexpr const char* input_changed = "input.changed";
inline constexpr const char* pdf_syntax = "pdf.syntax";
inline constexpr const char* pdf_damaged = "pdf.damaged";
inline constexpr const char* pdf_password = "pdf.password";
inline constexpr const char* pdf_encryption = "pdf.encryption";
inline constexpr const char* pdf_certified = "pdf.certified";
inline constexpr const char* pdf_too_large = "pdf.too_large";
inline constexpr const char* pdf_xmp = "pdf.xmp";
inline constexpr const char* record_invalid = "record.invalid";
inline constexpr const char* record_inconsistent = "record.inconsistent";
inline constexpr const char* number_invalid = "number.invalid";
inline constexpr const char* keyring_invalid = "keyring.invalid";
inline constexpr const char* keyring_duplicate_id = "keyring.duplicate_id";
inline constexpr const char* keyring_unknown_id = "keyring.unknown_id";
inline constexpr const char* trust_invalid = "trust.invalid";
inline constexpr const char* sign_key_invalid = "sign.key_invalid";
inline constexpr const char* sign_already_signed = "sign.already_signed";
inline constexpr const char* stamp_title_not_shown = "stamp.title_not_shown";
inline constexpr const char* stamp_title_unchecked = "stamp.title_unchecked";
inline constexpr const char* stamp_construct_unlisted = "stamp.construct_unlisted";
inline constexpr const char* stamp_other_number = "stamp.other_number";
inline constexpr const char* stamp_badge_elsewhere = "stamp.badge_elsewhere";
inline constexpr const char* stamp_drops_signatures = "stamp.drops_signatures";
inline constexpr const char* registry_unknown = "registry.unknown";
inline constexpr const char* registry_refused = "registry.refused";
inline constexpr const char* registry_unreachable = "registry.unreachable";
inline constexpr const char* manifest_invalid = "manifest.invalid";
inline constexpr const char* output_exists = "output.exists";
inline constexpr const char* output_unwritable = "output.unwritable";
inline constexpr const char* output_unverifiable = "output.unverifiable";
inline constexpr const char* install_incomplete = "install.incomplete";
inline constexpr const char* internal_error = "internal.error";
// Only in `pith batch` reports: what happened to a worker, and verify mode's states that are not ok.
inline constexpr const char* worker_crashed = "worker.crashed";
inline constexpr const char* worker_timeout = "worker.timeout";
inline constexpr const char* worker_memory = "worker.memory";
inline constexpr const char* verify_invalid = "verify.invalid";
inline constexpr const char* verify_unverified = "verify.unverified";
inline constexpr const char* verify_absent = "verify.absent";
}  // namespace err

// Every failure pith reports to a user: one line, naming the input and the problem in words for
// people, and its code (one of err::). The code is required so that no error goes without one.
class Error : public std::runtime_error {
public:
    Error(const std::string& message, std::string code) : std::runtime_error(message), code_(std::move(code)) {}
    const std::string& code() const { return code_; }

private:
    std::string code_;
};

}  // namespace pith
