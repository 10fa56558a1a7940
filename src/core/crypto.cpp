// SPDX-License-Identifier: MIT
#include "core/crypto.hpp"

#include "core/cpus.hpp"
#include "core/error.hpp"
#include "core/hex.hpp"

// SHA256_Init & co. are deprecated in OpenSSL 3 in favour of EVP, whose first use sets up
// the provider store, a start-up cost every run would pay (doc/performance.md).
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <sodium.h>

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

namespace pith {
namespace {

void ensure_sodium() {
    static const bool ready = sodium_init() >= 0;
    if (!ready) throw Error("libsodium failed to initialise", err::internal_error);
}

}  // namespace

// OpenSSL's SHA-256 uses the CPU's SHA extensions, libsodium's does not: that matters when
// pith hashes the whole of a large PDF (doc/performance.md).
Sha256 sha256(std::string_view bytes) {
    Sha256 out;
    SHA256_CTX ctx;
    if (SHA256_Init(&ctx) != 1 || SHA256_Update(&ctx, bytes.data(), bytes.size()) != 1 ||
        SHA256_Final(out.data(), &ctx) != 1)
        throw Error("SHA-256 failed", err::internal_error);
    return out;
}

struct PrefixSha256::Impl {
    static constexpr std::size_t kChunk = std::size_t(256) << 10;
    static constexpr std::size_t kThreadFrom = std::size_t(512) << 10;  // smaller files: no thread

    void* map = nullptr;
    std::string_view bytes;
    std::vector<SHA256_CTX> states;  // states[i]: after the first i chunks
    std::size_t ready = 0;           // states[0 .. ready] are set (guarded by lock)
    bool stop = false;
    std::mutex lock;
    std::condition_variable advanced;
    std::optional<pthread_t> thread;

    void run() {
        SHA256_CTX ctx = states[0];
        for (std::size_t i = 1; i < states.size(); ++i) {
            SHA256_Update(&ctx, bytes.data() + (i - 1) * kChunk, kChunk);
            std::lock_guard<std::mutex> guard(lock);
            if (stop) return;
            states[i] = ctx;
            ready = i;
            advanced.notify_all();
        }
    }
};

PrefixSha256::PrefixSha256(int fd) : impl_(std::make_unique<Impl>()) {
    struct stat st;
    if (::fstat(fd, &st) != 0) throw Error(std::string("cannot stat the file to hash (") + std::strerror(errno) + ")", err::input_unreadable);
    const std::size_t size = S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0;  // the reader says what else it is
    if (size > 0) {
        impl_->map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (impl_->map == MAP_FAILED) throw Error(std::string("cannot map the file to hash (") + std::strerror(errno) + ")", err::input_unreadable);
        impl_->bytes = std::string_view(static_cast<const char*>(impl_->map), size);
    }
    impl_->states.resize(size >= Impl::kThreadFrom ? size / Impl::kChunk + 1 : 1);
    SHA256_Init(&impl_->states[0]);
    if (impl_->states.size() > 1) start_thread();
}

// On another CPU than this one (core/cpus.hpp). Without a thread, digest() hashes everything itself.
void PrefixSha256::start_thread() {
    auto run = [](void* impl) -> void* {
        static_cast<Impl*>(impl)->run();
        return nullptr;
    };
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) == 0) {
        OtherCpus().give_to(attr);
        if (pthread_create(&thread, &attr, run, impl_.get()) == 0) impl_->thread = thread;
        pthread_attr_destroy(&attr);
    }
    if (!impl_->thread) impl_->states.resize(1);
}

PrefixSha256::~PrefixSha256() {
    if (impl_->thread) {
        {
            std::lock_guard<std::mutex> guard(impl_->lock);
            impl_->stop = true;
        }
        pthread_join(*impl_->thread, nullptr);
    }
    if (impl_->map) ::munmap(impl_->map, impl_->bytes.size());
}

std::string_view PrefixSha256::bytes() const { return impl_->bytes; }

Sha256 PrefixSha256::digest(std::uint64_t length) {
    if (length > impl_->bytes.size()) throw Error("SHA-256 of more bytes than the file has", err::internal_error);
    const std::size_t chunks = std::min(static_cast<std::size_t>(length) / Impl::kChunk, impl_->states.size() - 1);
    SHA256_CTX ctx;
    {
        std::unique_lock<std::mutex> guard(impl_->lock);
        impl_->advanced.wait(guard, [&] { return impl_->ready >= chunks; });
        ctx = impl_->states[chunks];
    }
    Sha256 out;
    const std::size_t from = chunks * Impl::kChunk;
    if (SHA256_Update(&ctx, impl_->bytes.data() + from, static_cast<std::size_t>(length) - from) != 1 ||
        SHA256_Final(out.data(), &ctx) != 1)
        throw Error("SHA-256 failed", err::internal_error);
    return out;
}

std::string to_hex(const unsigned char* data, std::size_t size) {
    std::string out(size * 2 + 1, '\0');
    sodium_bin2hex(out.data(), out.size(), data, size);
    out.pop_back();
    return out;
}

std::optional<Sha256> sha256_from_hex(std::string_view hex) {
    std::string bytes;
    if (hex.size() != 64 || !decode_hex(hex, bytes, NonHex::Reject)) return std::nullopt;
    Sha256 out;
    std::memcpy(out.data(), bytes.data(), out.size());
    return out;
}

std::string base32(const unsigned char* data, std::size_t size) {
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    for (std::size_t i = 0; i < size; ++i) {
        buffer = (buffer << 8) | data[i];
        bits += 8;
        while (bits >= 5) {
            out += alphabet[(buffer >> (bits - 5)) & 31];
            bits -= 5;
        }
    }
    if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31];
    return out;
}

std::string base64(const unsigned char* data, std::size_t size) {
    ensure_sodium();
    std::string out(sodium_base64_encoded_len(size, sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(out.data(), out.size(), data, size, sodium_base64_VARIANT_ORIGINAL);
    out.pop_back();  // the terminating NUL
    return out;
}

std::optional<std::string> base64_decode(std::string_view text, std::size_t size) {
    ensure_sodium();
    std::string out(size + 3, '\0');
    std::size_t len = 0;
    const char* end = nullptr;
    if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(),
                          nullptr, &len, &end, sodium_base64_VARIANT_ORIGINAL) != 0 ||
        end != text.data() + text.size() || len != size)
        return std::nullopt;
    out.resize(len);
    return out;
}

std::string key_fingerprint(const PublicKey& key) {
    Sha256 digest = sha256(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()));
    return to_hex(digest.data(), 16);
}

KeyPair generate_keypair() {
    ensure_sodium();
    KeyPair pair;
    crypto_sign_keypair(pair.public_key.data(), pair.secret_key.data());
    return pair;
}

PublicKey public_key_of(const SecretKey& secret) {
    ensure_sodium();
    PublicKey pk;
    crypto_sign_ed25519_sk_to_pk(pk.data(), secret.data());
    return pk;
}

Signature sign_detached(std::string_view message, const SecretKey& secret) {
    ensure_sodium();
    Signature sig;
    crypto_sign_detached(sig.data(), nullptr, reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                         secret.data());
    return sig;
}

bool verify_detached(const Signature& signature, std::string_view message, const PublicKey& key) {
    ensure_sodium();
    return crypto_sign_verify_detached(signature.data(), reinterpret_cast<const unsigned char*>(message.data()),
                                       message.size(), key.data()) == 0;
}

}  // namespace pith
