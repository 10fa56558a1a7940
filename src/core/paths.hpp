// SPDX-License-Identifier: MIT
#pragma once
// Where pith's files live: the keyring, the trust store for publishers' signatures, and the
// registry's cache. The user's files follow the XDG base directories: $XDG_CONFIG_HOME/pith
// (else ~/.config/pith) and $XDG_CACHE_HOME/pith (else ~/.cache/pith); a variable set to ""
// counts as unset. The system's are in /etc/pith. The environment is read at each call.
#include <optional>
#include <string>
#include <vector>

namespace pith::paths {

// The user's keyring file; nullopt when neither XDG_CONFIG_HOME nor HOME is set.
std::optional<std::string> user_keyring();
// Where the keyring is looked for without PITH_KEYRING: the user's, then /etc/pith/keyring.json.
std::vector<std::string> keyrings();
// Where the trust store is looked for without PITH_TRUST: the user's trust.pem, then /etc/pith/trust.pem.
std::vector<std::string> trust_stores();
// The registry's cache directory; nullopt when neither XDG_CACHE_HOME nor HOME is set.
std::optional<std::string> cache_dir();

// The paths of a colon-separated list in the environment `variable` (PITH_KEYRING,
// PITH_TRUST), empty entries left out; nullopt when it is unset or "".
std::optional<std::vector<std::string>> list_from(const char* variable);

}  // namespace pith::paths
