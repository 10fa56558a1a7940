// SPDX-License-Identifier: MIT
#include "pdf/crypt.hpp"

#include "core/error.hpp"

#if PITH_HAVE_OPENSSL_LOW_LEVEL
#define OPENSSL_SUPPRESS_DEPRECATED  // MD5() and AES_cbc_encrypt(): see md5() and aes_low_level()
#include <openssl/aes.h>
#include <openssl/md5.h>
#endif
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <sodium.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

namespace pith::pdf {

using namespace PoDoFo;

namespace {

class Rc4 {
public:
    Rc4(const unsigned char* key, std::size_t length) {
        for (int i = 0; i < 256; ++i) s_[i] = static_cast<unsigned char>(i);
        unsigned j = 0;
        for (std::size_t i = 0; i < 256; ++i) {
            j = (j + s_[i] + key[i % length]) & 0xff;
            std::swap(s_[i], s_[j]);
        }
    }
    void apply(const unsigned char* in, unsigned char* out, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) {
            a_ = (a_ + 1) & 0xff;
            b_ = (b_ + s_[a_]) & 0xff;
            std::swap(s_[a_], s_[b_]);
            out[k] = static_cast<unsigned char>(in[k] ^ s_[(s_[a_] + s_[b_]) & 0xff]);
        }
    }

private:
    unsigned char s_[256];
    unsigned a_ = 0, b_ = 0;
};

std::string rc4(const std::string& key, std::string_view in) {
    std::string out(in.size(), '\0');
    Rc4(reinterpret_cast<const unsigned char*>(key.data()), key.size())
        .apply(reinterpret_cast<const unsigned char*>(in.data()), reinterpret_cast<unsigned char*>(&out[0]), in.size());
    return out;
}

// RC4 for OpenSSL, as a provider built into pith. PoDoFo checks the passwords of /V 1-4 files
// with RC4, which OpenSSL 3 keeps in its legacy provider: a module that costs more to load
// than reading a small PDF (doc/performance.md).
namespace rc4_provider {

struct Context {
    std::unique_ptr<Rc4> rc4;
    std::size_t key_length = 16;
};

int set_ctx_params(void* ctx, const OSSL_PARAM params[]) {
    const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN);
    std::size_t length = 0;
    if (!p) return 1;
    if (!OSSL_PARAM_get_size_t(p, &length) || length == 0 || length > 256) return 0;
    static_cast<Context*>(ctx)->key_length = length;
    return 1;
}

int init(void* vctx, const unsigned char* key, std::size_t length, const unsigned char*, std::size_t, const OSSL_PARAM params[]) {
    auto* ctx = static_cast<Context*>(vctx);
    if (!set_ctx_params(ctx, params)) return 0;
    if (key) {
        if (length == 0 || length > 256) return 0;
        ctx->rc4 = std::make_unique<Rc4>(key, length);
    }
    return 1;
}

int update(void* vctx, unsigned char* out, std::size_t* written, std::size_t room, const unsigned char* in, std::size_t n) {
    auto* ctx = static_cast<Context*>(vctx);
    if (!ctx->rc4 || room < n) return 0;
    ctx->rc4->apply(in, out, n);
    *written = n;
    return 1;
}

int final(void*, unsigned char*, std::size_t* written, std::size_t) {
    *written = 0;
    return 1;
}

int get_params(OSSL_PARAM params[]) {
    OSSL_PARAM* p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) && !OSSL_PARAM_set_uint(p, EVP_CIPH_STREAM_CIPHER)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, 16)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, 0)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, 1)) return 0;
    for (const char* flag : {OSSL_CIPHER_PARAM_AEAD, OSSL_CIPHER_PARAM_CUSTOM_IV, OSSL_CIPHER_PARAM_CTS,
                             OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, OSSL_CIPHER_PARAM_HAS_RAND_KEY})
        if ((p = OSSL_PARAM_locate(params, flag)) && !OSSL_PARAM_set_int(p, 0)) return 0;
    return 1;
}

int get_ctx_params(void* ctx, OSSL_PARAM params[]) {
    OSSL_PARAM* p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, static_cast<Context*>(ctx)->key_length))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, 0)) return 0;
    return 1;
}

const OSSL_PARAM* gettable_params(void*) {
    static const OSSL_PARAM params[] = {
        OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, nullptr),        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
        OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),     OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, nullptr),
        OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, nullptr),         OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, nullptr),
        OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, nullptr),          OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, nullptr),
        OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, nullptr), OSSL_PARAM_END};
    return params;
}

const OSSL_PARAM* ctx_params(void*, void*) {
    static const OSSL_PARAM params[] = {OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr), OSSL_PARAM_END};
    return params;
}

const OSSL_DISPATCH cipher_functions[] = {
    {OSSL_FUNC_CIPHER_NEWCTX, reinterpret_cast<void (*)()>(+[](void*) -> void* { return new (std::nothrow) Context; })},
    {OSSL_FUNC_CIPHER_FREECTX, reinterpret_cast<void (*)()>(+[](void* ctx) { delete static_cast<Context*>(ctx); })},
    {OSSL_FUNC_CIPHER_ENCRYPT_INIT, reinterpret_cast<void (*)()>(&init)},
    {OSSL_FUNC_CIPHER_DECRYPT_INIT, reinterpret_cast<void (*)()>(&init)},
    {OSSL_FUNC_CIPHER_UPDATE, reinterpret_cast<void (*)()>(&update)},
    {OSSL_FUNC_CIPHER_FINAL, reinterpret_cast<void (*)()>(&final)},
    {OSSL_FUNC_CIPHER_GET_PARAMS, reinterpret_cast<void (*)()>(&get_params)},
    {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, reinterpret_cast<void (*)()>(&gettable_params)},
    {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, reinterpret_cast<void (*)()>(&get_ctx_params)},
    {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, reinterpret_cast<void (*)()>(&set_ctx_params)},
    {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, reinterpret_cast<void (*)()>(&ctx_params)},
    {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, reinterpret_cast<void (*)()>(&ctx_params)},
    {0, nullptr}};

const OSSL_ALGORITHM ciphers[] = {{"RC4:1.2.840.113549.3.4", "provider=pith-rc4", cipher_functions, "RC4 (pith)"},
                                  {nullptr, nullptr, nullptr, nullptr}};

const OSSL_ALGORITHM* query(void*, int operation, int* no_cache) {
    *no_cache = 0;
    return operation == OSSL_OP_CIPHER ? ciphers : nullptr;
}

const OSSL_DISPATCH provider_functions[] = {{OSSL_FUNC_PROVIDER_QUERY_OPERATION, reinterpret_cast<void (*)()>(&query)}, {0, nullptr}};

int provider_init(const OSSL_CORE_HANDLE*, const OSSL_DISPATCH*, const OSSL_DISPATCH** out, void** provider_context) {
    *out = provider_functions;
    *provider_context = nullptr;
    return 1;
}

}  // namespace rc4_provider

#if PITH_HAVE_OPENSSL_LOW_LEVEL
// OpenSSL's one-call MD5, deprecated for EVP, which would fetch it from the default provider:
// RC4 files need nothing else from it.
std::string md5(const std::string& in) {
    unsigned char out[MD5_DIGEST_LENGTH];
    MD5(reinterpret_cast<const unsigned char*>(in.data()), in.size(), out);
    return std::string(reinterpret_cast<char*>(out), sizeof out);
}
#else
// Portable: EVP, from OpenSSL's default provider (loaded here: pith loads its providers itself).
std::string md5(const std::string& in) {
    if (!ensure_aes()) throw Error("MD5 is unavailable (OpenSSL's default provider did not load)", err::internal_error);
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_Digest(in.data(), in.size(), out, &n, EVP_md5(), nullptr) != 1) throw Error("MD5 failed", err::internal_error);
    return std::string(reinterpret_cast<char*>(out), n);
}
#endif

// The 32 bytes a password is padded with (PDF 32000-1 7.6.3.3).
const char kPasswordPadding[] = "\x28\xBF\x4E\x5E\x4E\x75\x8A\x41\x64\x00\x4E\x56\xFF\xFA\x01\x08"
                                "\x2E\x2E\x00\xB6\xD0\x68\x3E\x80\x2F\x0C\xA9\xFE\x64\x53\x69\x7A";

std::string padded_password(const std::string& password) {
    std::string out = password.substr(0, 32);
    out.append(kPasswordPadding, 32 - out.size());
    return out;
}

struct CtxFree {
    void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};

#if PITH_HAVE_OPENSSL_LOW_LEVEL
// Below this size OpenSSL's low-level AES does the work: it needs no provider (EVP's first AES
// fetch builds every cipher of the default provider) but has no AES-NI, so it is the faster
// for the few kilobytes most runs decrypt (doc/performance.md).
constexpr std::size_t kLowLevelAesMax = 64 << 10;

std::string aes_low_level(bool enc, const std::string& key, const unsigned char* iv, std::string_view in) {
    AES_KEY schedule;
    const auto* key_bytes = reinterpret_cast<const unsigned char*>(key.data());
    const int bits = key.size() == 32 ? 256 : 128;
    if ((enc ? AES_set_encrypt_key(key_bytes, bits, &schedule) : AES_set_decrypt_key(key_bytes, bits, &schedule)) != 0)
        throw Error("cannot initialise AES", err::internal_error);
    std::string data(in);
    if (enc) data.append(16 - in.size() % 16, static_cast<char>(16 - in.size() % 16));  // PKCS #7 padding
    std::string out(data.size(), '\0');
    unsigned char chain[16];
    std::memcpy(chain, iv, sizeof chain);
    AES_cbc_encrypt(reinterpret_cast<const unsigned char*>(data.data()), reinterpret_cast<unsigned char*>(&out[0]), data.size(),
                    &schedule, chain, enc ? AES_ENCRYPT : AES_DECRYPT);
    if (enc || out.empty()) return out;
    const auto pad = static_cast<unsigned char>(out.back());
    bool padded = pad >= 1 && pad <= 16;
    for (std::size_t i = 1; padded && i <= pad; ++i) padded = static_cast<unsigned char>(out[out.size() - i]) == pad;
    out.resize(out.size() - (padded ? pad : 16));  // bad padding: the blocks before the last, as EVP gives
    return out;
}

#endif

std::string aes_evp(bool enc, const std::string& key, const unsigned char* iv, std::string_view in) {
    if (!ensure_aes()) throw Error("AES is unavailable (OpenSSL's default provider did not load)", err::internal_error);
    std::unique_ptr<EVP_CIPHER_CTX, CtxFree> ctx(EVP_CIPHER_CTX_new());
    const EVP_CIPHER* c = key.size() == 32 ? EVP_aes_256_cbc() : EVP_aes_128_cbc();
    if (!ctx || EVP_CipherInit_ex(ctx.get(), c, nullptr, reinterpret_cast<const unsigned char*>(key.data()), iv,
                                  enc ? 1 : 0) != 1)
        throw Error("cannot initialise AES", err::internal_error);
    std::string out(in.size() + 32, '\0');
    int n1 = 0, n2 = 0;
    if (EVP_CipherUpdate(ctx.get(), reinterpret_cast<unsigned char*>(&out[0]), &n1,
                         reinterpret_cast<const unsigned char*>(in.data()), static_cast<int>(in.size())) != 1)
        throw Error("AES failed", err::internal_error);
    if (EVP_CipherFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(&out[0]) + n1, &n2) != 1) {
        if (enc) throw Error("AES failed", err::internal_error);
        // Bad padding: keep the unpadded bytes (readers such as qpdf do the same).
        out.resize(static_cast<std::size_t>(n1));
        return out;
    }
    out.resize(static_cast<std::size_t>(n1 + n2));
    return out;
}

}  // namespace

std::string aes_cbc(bool encrypt, const std::string& key, const unsigned char* iv, std::string_view data) {
#if PITH_HAVE_OPENSSL_LOW_LEVEL
    if (data.size() < kLowLevelAesMax && (encrypt || data.size() % 16 == 0)) return aes_low_level(encrypt, key, iv, data);
#endif
    return aes_evp(encrypt, key, iv, data);
}

namespace {

// OpenSSL set up without reading the system's openssl.cnf (pith uses no TLS or engines it
// could configure). A provider loaded by hand ends OpenSSL's implicit loading of its default
// one, so ensure_aes() loads that explicitly, when first needed: fetching a cipher from it
// builds all of its ciphers, which RC4 files do without (doc/performance.md).
void init_openssl() {
    static std::once_flag once;
    std::call_once(once, [] { OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr); });
}

}  // namespace

// Providers live for the process; unloaded at exit so leak checkers stay quiet. RC4: pith's
// own provider (PITH_HAVE_RC4_PROVIDER, the fast path), or OpenSSL's legacy module, then pith's
// provider where that module is missing (some distributions do not ship it).
bool ensure_rc4() {
    static std::once_flag once;
    static OSSL_PROVIDER* rc4 = nullptr;
    std::call_once(once, [] {
        init_openssl();
#if !PITH_HAVE_RC4_PROVIDER
        ensure_aes();  // the legacy module has RC4 only; PoDoFo's MD5 and AES come from the default one
        rc4 = OSSL_PROVIDER_load(nullptr, "legacy");
#endif
        if (!rc4 && OSSL_PROVIDER_add_builtin(nullptr, "pith-rc4", rc4_provider::provider_init) == 1)
            rc4 = OSSL_PROVIDER_load(nullptr, "pith-rc4");
        if (rc4) std::atexit([] { OSSL_PROVIDER_unload(rc4); });
    });
    return rc4 != nullptr;
}

bool ensure_aes() {
    static std::once_flag once;
    static OSSL_PROVIDER* def = nullptr;
    std::call_once(once, [] {
        init_openssl();
        def = OSSL_PROVIDER_load(nullptr, "default");
        if (def) std::atexit([] { OSSL_PROVIDER_unload(def); });
    });
    return def != nullptr;
}

std::optional<std::string> md5_file_key(const PdfEncrypt& enc, const std::string& document_id, const std::string& password) {
    const int revision = enc.GetRevision();
    const std::size_t length = static_cast<std::size_t>(enc.GetKeyLength() / 8);
    if (revision < 2 || revision > 4 || length < 5 || length > 16) return std::nullopt;
    const std::string o(reinterpret_cast<const char*>(enc.GetOValue()), 32), u(reinterpret_cast<const char*>(enc.GetUValue()), 32);
    const std::string padding(kPasswordPadding, 32);
    auto file_key = [&](const std::string& user_password) {  // algorithm 2, from a padded user password
        std::string in = user_password + o;
        const auto p = static_cast<std::uint32_t>(enc.GetPValue());
        for (int shift = 0; shift < 32; shift += 8) in += static_cast<char>((p >> shift) & 0xFF);
        in += document_id;
        if (!enc.IsMetadataEncrypted()) in += "\xFF\xFF\xFF\xFF";
        std::string digest = md5(in);
        if (revision >= 3)
            for (int i = 0; i < 50; ++i) digest = md5(digest.substr(0, length));
        return digest.substr(0, length);
    };
    auto xored = [](std::string key, int with) {
        for (char& c : key) c = static_cast<char>(c ^ with);
        return key;
    };
    auto opens = [&](const std::string& key) {  // algorithms 4 and 5: is /U what `key` makes?
        if (revision == 2) return rc4(key, padding) == u;
        std::string check = md5(padding + document_id);
        for (int i = 0; i < 20; ++i) check = rc4(xored(key, i), check);
        return u.compare(0, 16, check) == 0;  // the rest of /U is arbitrary
    };
    if (std::string key = file_key(padded_password(password)); opens(key)) return key;
    // Algorithm 7: as the owner password, which unlocks the user password kept in /O.
    std::string owner = md5(padded_password(password));
    if (revision >= 3)
        for (int i = 0; i < 50; ++i) owner = md5(owner.substr(0, length));
    std::string user_password = o;
    if (revision == 2) {
        user_password = rc4(owner.substr(0, 5), o);
    } else {
        owner.resize(length);
        for (int i = 19; i >= 0; --i) user_password = rc4(xored(owner, i), user_password);
    }
    if (std::string key = file_key(user_password); opens(key)) return key;
    return std::nullopt;
}

Crypt::Crypt(const PdfEncrypt& enc, const std::string& file_key) {
    switch (enc.GetEncryptAlgorithm()) {
        case PdfEncrypt::ePdfEncryptAlgorithm_RC4V1:
        case PdfEncrypt::ePdfEncryptAlgorithm_RC4V2: algo_ = Algo::RC4; break;
        case PdfEncrypt::ePdfEncryptAlgorithm_AESV2: algo_ = Algo::AES128; break;
        default: algo_ = Algo::AES256; break;
    }
    int len = enc.GetKeyLength() / 8;
    if (algo_ == Algo::AES256) len = 32;
    else if (algo_ == Algo::AES128) len = 16;
    else if (len < 5 || len > 16) len = len < 5 ? 5 : 16;
    key_ = file_key.substr(0, static_cast<std::size_t>(len));
}

std::string Crypt::object_key(const PdfReference& ref) const {
    if (algo_ == Algo::AES256) return key_;
    std::string k = key_;
    std::uint32_t n = ref.ObjectNumber();
    std::uint32_t g = ref.GenerationNumber();
    k.push_back(static_cast<char>(n & 0xff));
    k.push_back(static_cast<char>((n >> 8) & 0xff));
    k.push_back(static_cast<char>((n >> 16) & 0xff));
    k.push_back(static_cast<char>(g & 0xff));
    k.push_back(static_cast<char>((g >> 8) & 0xff));
    if (algo_ == Algo::AES128) k += "sAlT";
    std::string h = md5(k);
    h.resize(std::min<std::size_t>(key_.size() + 5, 16));
    return h;
}

std::string Crypt::encrypt(const PdfReference& ref, std::string_view plain) const {
    std::string k = object_key(ref);
    if (algo_ == Algo::RC4) return rc4(k, plain);
    // Deterministic IV: keyed hash of the reference and the plaintext (never reused for different data).
    unsigned char iv[16];
    crypto_generichash_state st;
    crypto_generichash_init(&st, reinterpret_cast<const unsigned char*>(k.data()),
                            std::min<std::size_t>(k.size(), crypto_generichash_KEYBYTES_MAX), sizeof iv);
    std::string r = std::to_string(ref.ObjectNumber()) + " " + std::to_string(ref.GenerationNumber()) + " ";
    crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(r.data()), r.size());
    crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(plain.data()), plain.size());
    crypto_generichash_final(&st, iv, sizeof iv);
    return std::string(reinterpret_cast<char*>(iv), 16) + aes_cbc(true, k, iv, plain);
}

std::string Crypt::decrypt(const PdfReference& ref, std::string_view cipher) const {
    std::string k = object_key(ref);
    if (algo_ == Algo::RC4) return rc4(k, cipher);
    if (cipher.size() < 16) return std::string();
    std::size_t body = (cipher.size() - 16) / 16 * 16;
    return aes_cbc(false, k, reinterpret_cast<const unsigned char*>(cipher.data()), cipher.substr(16, body));
}

namespace {
bool is_signature_dictionary(const PdfDictionary& d) {
    const PdfObject* type = d.GetKey("Type");
    return (type && type->IsName() && (type->GetName() == PdfName("Sig") || type->GetName() == PdfName("DocTimeStamp"))) ||
           (d.GetKey("ByteRange") && d.GetKey("Contents") && d.GetKey("Filter"));
}
}  // namespace

void Crypt::encrypt_strings(PdfObject& obj, const PdfReference& ref, int depth) const {
    if (depth > 256) throw Error("object nests too deeply to encrypt", err::pdf_syntax);
    if (obj.IsString() || obj.IsHexString()) {
        const PdfString& s = obj.GetString();
        std::string plain(s.GetString() ? s.GetString() : "", s.GetLength());
        if (s.IsUnicode()) plain = std::string("\xFE\xFF", 2) + plain;  // PoDoFo stores UTF-16BE without the BOM
        std::string c = encrypt(ref, plain);
        obj = PdfObject(PdfString(c.data(), static_cast<pdf_long>(c.size()), true));
    } else if (obj.IsArray()) {
        for (auto& e : obj.GetArray()) encrypt_strings(e, ref, depth + 1);
    } else if (obj.IsDictionary()) {
        // A signature's /Contents stays as written (ISO 32000-2 7.6.2), as decrypt_strings reads it.
        const bool sig = is_signature_dictionary(obj.GetDictionary());
        for (auto& kv : obj.GetDictionary().GetKeys())
            if (!(sig && kv.first == PdfName("Contents"))) encrypt_strings(*kv.second, ref, depth + 1);
    }
}

void Crypt::decrypt_strings(PdfObject& obj, const PdfReference& ref, int depth) const {
    if (depth > 256) throw Error("object nests too deeply to decrypt", err::pdf_syntax);
    if (obj.IsString() || obj.IsHexString()) {
        const PdfString& s = obj.GetString();
        std::string raw(s.GetString() ? s.GetString() : "", s.GetLength());
        if (s.IsUnicode()) raw = std::string("\xFE\xFF", 2) + raw;
        bool hex = s.IsHex();
        std::string p = decrypt(ref, raw);
        obj = PdfObject(PdfString(p.data(), static_cast<pdf_long>(p.size()), hex));
    } else if (obj.IsArray()) {
        for (auto& e : obj.GetArray()) decrypt_strings(e, ref, depth + 1);
    } else if (obj.IsDictionary()) {
        PdfDictionary& d = obj.GetDictionary();
        const bool sig = is_signature_dictionary(d);
        for (auto& kv : d.GetKeys()) {
            if (sig && kv.first == PdfName("Contents")) continue;
            decrypt_strings(*kv.second, ref, depth + 1);
        }
    }
}

}  // namespace pith::pdf
