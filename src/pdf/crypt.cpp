#include "pdf/crypt.hpp"

#include "core/error.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <memory>
#include <vector>

namespace pith::pdf {

using namespace PoDoFo;

namespace {

std::string rc4(const std::string& key, std::string_view in) {
    unsigned char s[256];
    for (int i = 0; i < 256; ++i) s[i] = static_cast<unsigned char>(i);
    unsigned j = 0;
    for (int i = 0; i < 256; ++i) {
        j = (j + s[i] + static_cast<unsigned char>(key[i % key.size()])) & 0xff;
        std::swap(s[i], s[j]);
    }
    std::string out(in.size(), '\0');
    unsigned a = 0, b = 0;
    for (std::size_t k = 0; k < in.size(); ++k) {
        a = (a + 1) & 0xff;
        b = (b + s[a]) & 0xff;
        std::swap(s[a], s[b]);
        out[k] = static_cast<char>(in[k] ^ s[(s[a] + s[b]) & 0xff]);
    }
    return out;
}

std::string md5(const std::string& in) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(in.data(), in.size(), out, &len, EVP_md5(), nullptr) != 1) throw Error("MD5 is unavailable");
    return std::string(reinterpret_cast<char*>(out), len);
}

struct CtxFree {
    void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};

std::string aes(bool enc, const std::string& key, const unsigned char* iv, std::string_view in) {
    std::unique_ptr<EVP_CIPHER_CTX, CtxFree> ctx(EVP_CIPHER_CTX_new());
    const EVP_CIPHER* c = key.size() == 32 ? EVP_aes_256_cbc() : EVP_aes_128_cbc();
    if (!ctx || EVP_CipherInit_ex(ctx.get(), c, nullptr, reinterpret_cast<const unsigned char*>(key.data()), iv,
                                  enc ? 1 : 0) != 1)
        throw Error("cannot initialise AES");
    std::string out(in.size() + 32, '\0');
    int n1 = 0, n2 = 0;
    if (EVP_CipherUpdate(ctx.get(), reinterpret_cast<unsigned char*>(&out[0]), &n1,
                         reinterpret_cast<const unsigned char*>(in.data()), static_cast<int>(in.size())) != 1)
        throw Error("AES failed");
    if (EVP_CipherFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(&out[0]) + n1, &n2) != 1) {
        if (enc) throw Error("AES failed");
        // Bad padding: keep the unpadded bytes (readers such as qpdf do the same).
        out.resize(static_cast<std::size_t>(n1));
        return out;
    }
    out.resize(static_cast<std::size_t>(n1 + n2));
    return out;
}

}  // namespace

Crypt::Crypt(const PdfEncrypt& enc) {
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
    key_.assign(reinterpret_cast<const char*>(enc.GetEncryptionKey()), static_cast<std::size_t>(len));
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
    return std::string(reinterpret_cast<char*>(iv), 16) + aes(true, k, iv, plain);
}

std::string Crypt::decrypt(const PdfReference& ref, std::string_view cipher) const {
    std::string k = object_key(ref);
    if (algo_ == Algo::RC4) return rc4(k, cipher);
    if (cipher.size() < 16) return std::string();
    std::size_t body = (cipher.size() - 16) / 16 * 16;
    return aes(false, k, reinterpret_cast<const unsigned char*>(cipher.data()), cipher.substr(16, body));
}

void Crypt::encrypt_strings(PdfObject& obj, const PdfReference& ref, int depth) const {
    if (depth > 256) throw Error("object nests too deeply to encrypt");
    if (obj.IsString() || obj.IsHexString()) {
        const PdfString& s = obj.GetString();
        std::string plain(s.GetString() ? s.GetString() : "", s.GetLength());
        if (s.IsUnicode()) plain = std::string("\xFE\xFF", 2) + plain;  // PoDoFo stores UTF-16BE without the BOM
        std::string c = encrypt(ref, plain);
        obj = PdfObject(PdfString(c.data(), static_cast<pdf_long>(c.size()), true));
    } else if (obj.IsArray()) {
        for (auto& e : obj.GetArray()) encrypt_strings(e, ref, depth + 1);
    } else if (obj.IsDictionary()) {
        for (auto& kv : obj.GetDictionary().GetKeys()) encrypt_strings(*kv.second, ref, depth + 1);
    }
}

void Crypt::decrypt_strings(PdfObject& obj, const PdfReference& ref, int depth) const {
    if (depth > 256) throw Error("object nests too deeply to decrypt");
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
        const PdfObject* type = d.GetKey("Type");
        bool sig = (type && type->IsName() && (type->GetName() == PdfName("Sig") || type->GetName() == PdfName("DocTimeStamp"))) ||
                   (d.GetKey("ByteRange") && d.GetKey("Contents") && d.GetKey("Filter"));
        for (auto& kv : d.GetKeys()) {
            if (sig && kv.first == PdfName("Contents")) continue;
            decrypt_strings(*kv.second, ref, depth + 1);
        }
    }
}

}  // namespace pith::pdf
