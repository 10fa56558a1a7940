// SPDX-License-Identifier: MIT
#pragma once
// Trusted registry keys (keyring files), secret key files, and receipt checking.
#include "core/crypto.hpp"
#include "core/json.hpp"
#include "core/record.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pith {

struct TrustedKey {
    std::string key_id;
    PublicKey public_key{};
    std::string fingerprint;  // always equal to key_fingerprint(public_key): entries that disagree are refused
    std::string not_before;   // RFC 3339, empty when unbounded
    std::string not_after;
    std::string revoked;      // empty: not revoked; "true" or the RFC 3339 time of revocation
    std::string source;       // the keyring file it came from
};

struct Keyring {
    std::vector<TrustedKey> keys;
    std::vector<std::string> files;     // keyring files read
    std::vector<std::string> warnings;  // entries refused, with the reason

    // Reads one keyring file and adds its keys (a missing file is an error).
    void add_file(const std::string& path);
    // The keyring a command uses: the --keyring files when given; otherwise the
    // files in $PITH_KEYRING (separated by ':'); otherwise those of
    // ~/.config/pith/keyring.json and /etc/pith/keyring.json that exist.
    static Keyring load(const std::vector<std::string>& explicit_files);
};

// Adds a key to a keyring file, creating it; refuses a second key with the same id.
void add_key_to_keyring_file(const std::string& path, const std::string& key_id, const PublicKey& key);

// Marks the key `key_id` revoked in a keyring file: "revoked": true, or the RFC 3339 time `since`.
void revoke_key_in_keyring_file(const std::string& path, const std::string& key_id, const std::string& since);

// The keyring file `pith keys add` and `revoke` change by default: $XDG_CONFIG_HOME/pith/keyring.json,
// else ~/.config/pith/keyring.json.
std::string default_keyring_file();

// A registry's published public key, in any of these forms: a pith keyring (the entry `key_id`),
// a JSON object with "public_key" (standard base64 of 32 bytes), a PEM "PUBLIC KEY" (Ed25519
// SubjectPublicKeyInfo), or the bare base64 text. Throws pith::Error naming `source`.
PublicKey parse_public_key(std::string_view text, const std::string& source, const std::string& key_id);

// Secret key files: JSON {"pith_secret_key":1,"key_id":..,"algorithm":"ed25519","secret_key":base64(64 bytes)}.
struct SecretKeyFile {
    std::string key_id;
    SecretKey secret_key{};
};
void write_secret_key_file(const std::string& path, const SecretKeyFile& key);  // mode 0600, never overwrites
SecretKeyFile read_secret_key_file(const std::string& path);

enum class ReceiptStatus { Valid, Invalid, KeyUnknown, KeyRevoked, KeyOutsideValidity, Malformed, Absent };
const char* to_string(ReceiptStatus status);  // "valid", "invalid", "key_unknown", ...

struct ReceiptCheck {
    ReceiptStatus status;
    std::string key_id;
    std::string explanation;  // one plain sentence
};

// Checks an Ed25519 receipt over the 32 raw bytes of `canonical_hash`. A key's validity window
// is compared with `at` (RFC 3339) when given, else with the receipt's signed_at. signed_at is
// not signed, so a caller that must not trust the sender passes the current time: a backdated
// signed_at then cannot revive an expired key.
ReceiptCheck check_receipt(const std::optional<Receipt>& receipt, const Sha256& canonical_hash, const Keyring& keyring,
                           const std::string& at = "");

// Issues a receipt as the registry does.
Json make_receipt(const Sha256& canonical_hash, const SecretKeyFile& key, const std::string& signed_at);

// Seconds since the epoch of an RFC 3339 timestamp; nullopt when it is not one.
std::optional<long long> parse_rfc3339(const std::string& text);
std::string now_rfc3339();

}  // namespace pith
