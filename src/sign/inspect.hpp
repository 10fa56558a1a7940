// SPDX-License-Identifier: MIT
#pragma once
// Checking a PDF signature's CMS SignedData (OpenSSL): the signature over the signed
// attributes, the message digest over the signed byte ranges, the signer's certificate (its
// chain to the reader's trust anchors, its validity at the signing time, its key usage).
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::sign {

// Certificates the reader trusts to vouch for publishers (PEM files of CA certificates).
class Anchors {
public:
    // `files`: every --trust FILE; when none, $PITH_TRUST (FILE:FILE...), else
    // ~/.config/pith/trust.pem ($XDG_CONFIG_HOME/pith/trust.pem) and /etc/pith/trust.pem where
    // present: the same places as the keyring. Throws when a file given cannot be read.
    static Anchors load(const std::vector<std::string>& files);
    bool empty() const { return count_ == 0; }
    struct Store;
    std::shared_ptr<Store> store;  // null when empty
private:
    int count_ = 0;
};

struct CmsCheck {
    bool parsed = false;            // a CMS SignedData with one signer and its certificate
    bool valid = false;             // signature and message digest hold for the ranges given
    std::string error;              // why not parsed or not valid
    std::string subject;            // the signer's certificate subject ("CN=..., O=...")
    std::string digest;             // the digest algorithm ("SHA256")
    std::optional<std::time_t> signing_time;  // the signed signingTime attribute (else the caller's /M)
    std::string signing_time_text;  // RFC 3339
    enum class Chain { Trusted, Untrusted, NoAnchors } chain = Chain::NoAnchors;
    std::string chain_error;        // why untrusted
    std::string anchor;             // the trust anchor's subject when trusted
    bool expired = false;           // a certificate of the chain was not valid at the signing time
    std::string expiry;             // which and when
    bool key_usage = true;          // the signer's key usage allows signing documents
};

// `der`: the DER of /Contents (trailing zero padding allowed); `pieces`: the bytes /ByteRange
// covers, in order; `claimed_time`: the signature dictionary's /M, used when the CMS carries
// no signing time.
CmsCheck inspect(std::string_view der, const std::vector<std::string_view>& pieces, const Anchors& anchors,
                 std::optional<std::time_t> claimed_time);

}  // namespace pith::sign
