// SPDX-License-Identifier: MIT
#pragma once
// Every cryptographic operation pith performs: Ed25519 and base64 from libsodium, SHA-256 from OpenSSL.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace pith {

using Sha256 = std::array<unsigned char, 32>;
using PublicKey = std::array<unsigned char, 32>;
using SecretKey = std::array<unsigned char, 64>;
using Signature = std::array<unsigned char, 64>;

Sha256 sha256(std::string_view bytes);

// SHA-256 of a prefix of a file whose length is learnt later: a thread hashes the open file
// `fd` from its start as soon as this is made, keeping its state at every chunk boundary, so
// digest(n) waits only for what that thread has not reached yet. (`pith verify` hashes the
// bytes before pith's update while it parses the file to find where that update starts;
// `pith stamp` the input, or its part before a pith update it replaces.) The
// file is mapped here, independently of the caller's use of `fd`; the thread stops when this
// is destroyed. Small files are hashed in digest() instead. Throws pith::Error.
class PrefixSha256 {
public:
    explicit PrefixSha256(int fd);
    PrefixSha256(const PrefixSha256&) = delete;
    PrefixSha256& operator=(const PrefixSha256&) = delete;
    ~PrefixSha256();
    Sha256 digest(std::uint64_t length);  // of the first `length` bytes; throws beyond the end
    std::string_view bytes() const;       // the file as mapped when constructed

private:
    void start_thread();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

std::string to_hex(const unsigned char* data, std::size_t size);
template <std::size_t N>
std::string to_hex(const std::array<unsigned char, N>& bytes) { return to_hex(bytes.data(), N); }
// Lower- or upper-case hex of exactly N bytes; nullopt otherwise.
std::optional<Sha256> sha256_from_hex(std::string_view hex);

// RFC 4648 base32, upper case, no padding.
std::string base32(const unsigned char* data, std::size_t size);

// Standard base64 with padding. Decoding is strict (libsodium): no whitespace,
// no junk, no non-zero leftover bits, and the decoded length must be exactly `size`.
std::string base64(const unsigned char* data, std::size_t size);
std::optional<std::string> base64_decode(std::string_view text, std::size_t size);

// The key fingerprint pith assumes the registry uses (not proven by the seed
// records): lower-case hex of the first 16 bytes of SHA-256 of the raw 32-byte key.
std::string key_fingerprint(const PublicKey& key);

struct KeyPair {
    PublicKey public_key;
    SecretKey secret_key;
};
KeyPair generate_keypair();
PublicKey public_key_of(const SecretKey& secret);
Signature sign_detached(std::string_view message, const SecretKey& secret);
bool verify_detached(const Signature& signature, std::string_view message, const PublicKey& key);

}  // namespace pith
