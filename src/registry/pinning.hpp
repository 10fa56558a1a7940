// SPDX-License-Identifier: MIT
#pragma once
// Key pinning for `pith keys add`: a registry key enters a keyring only when its fingerprint is
// the one pinned beforehand, by the user (--fingerprint) or by the receipts of records fetched.
#include "core/crypto.hpp"

#include <functional>
#include <string>

namespace pith::registry {

struct Pin {
    std::string fingerprint;  // lower-case hex
    std::string by;           // what pinned it, for messages: "--fingerprint" or "the cached receipts"
};

// `fingerprint` when given (lower-cased); otherwise the one fingerprint that the receipts from
// `key_id` give in the cached records that recompute (`cache_dir()`/records; asked for only
// then). Throws options.invalid when they give none, or more than one.
Pin pin_key(const std::string& key_id, const std::string& fingerprint, const std::function<std::string()>& cache_dir);

struct Added {
    std::string fingerprint;  // the key's
    std::string ring;         // the keyring file it was added to
};

// Adds `key` as `key_id` to the keyring file `ring` (default_keyring_file() when empty; its folder
// is created), only when its fingerprint is the pinned one: registry.refused otherwise, naming
// `source`. A key id the file holds already is refused (keyring.duplicate_id), even for the same key.
Added add_pinned_key(const std::string& ring, const std::string& key_id, const PublicKey& key, const Pin& pin,
                     const std::string& source);

}  // namespace pith::registry
