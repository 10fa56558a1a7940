// SPDX-License-Identifier: MIT
#pragma once
// A publisher's signing key and certificate, and the CMS (PAdES B-B) signatures made with them.
//
// Loaded once (pith batch signs many files with one Signer). The private key never comes
// from the command line: a passphrase is read from a file or an environment variable, and a
// key file that group or others may read is refused.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pith::sign {

struct KeySource {
    std::string cert;       // PEM certificate of the signer (with --sign-key)
    std::string key;        // PEM private key (PKCS#8 or traditional, maybe encrypted)
    std::string chain;      // PEM intermediate certificates to embed (optional)
    std::string p12;        // PKCS#12 file instead of cert + key (+ its chain)
    std::string pass_file;  // passphrase: first line of this file
    std::string pass_env;   // passphrase: this environment variable
    bool any() const { return !cert.empty() || !key.empty() || !p12.empty(); }
};

class Signer {
public:
    // Throws pith::Error with a one-line reason (file unreadable, readable by others, wrong
    // passphrase, key and certificate do not match, unsupported key type).
    static Signer load(const KeySource& source);

    // Subject of the signing certificate, one line ("CN=Journal X, O=...").
    const std::string& subject() const { return subject_; }
    // Bytes to reserve for the DER of one signature (the /Contents hole holds twice as many hex digits).
    std::size_t reserve() const { return reserve_; }
    // A detached CMS SignedData over the concatenation of `pieces`: SHA-256, the signer's
    // certificate and chain, signed attributes contentType, messageDigest, signingTime and
    // ESS signing-certificate-v2. DER bytes.
    std::string sign(const std::vector<std::string_view>& pieces) const;

private:
    struct State;
    std::shared_ptr<const State> state_;
    std::string subject_;
    std::size_t reserve_ = 0;
};

// SHA-256 of the concatenation of `pieces` (raw 32 bytes).
std::string sha256_of(const std::vector<std::string_view>& pieces);

}  // namespace pith::sign
