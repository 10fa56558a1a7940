#pragma once
// Per-object encryption for the standard security handler (RC4, AESV2, AESV3),
// using the file key PoDoFo's PdfEncrypt derived at Authenticate(). PoDoFo
// 0.9.8's own Encrypt() fails for AES-256, so the writer uses this instead.
#include <podofo/podofo.h>

#include <string>
#include <string_view>

namespace pith::pdf {

// Makes RC4 available to OpenSSL 3 (for PoDoFo's PdfEncrypt), from a provider built into pith.
// Once per process; false if OpenSSL refused.
bool ensure_rc4();
// Makes AES available to OpenSSL 3 (pith's own AESV2/AESV3 and PoDoFo's AESV3 password check):
// loads OpenSSL's default provider. Once per process; false if OpenSSL refused.
bool ensure_aes();

// AES-CBC with PKCS #7 padding, a 16- or 32-byte key and a 16-byte IV. Decrypting, bad padding
// leaves out the last block, as OpenSSL's EVP does (and qpdf reads such data).
std::string aes_cbc(bool encrypt, const std::string& key, const unsigned char* iv, std::string_view data);

class Crypt {
public:
    explicit Crypt(const PoDoFo::PdfEncrypt& enc);
    std::string encrypt(const PoDoFo::PdfReference& ref, std::string_view plain) const;
    std::string decrypt(const PoDoFo::PdfReference& ref, std::string_view cipher) const;
    // Replaces every string inside `obj` (recursively) by its encrypted form.
    void encrypt_strings(PoDoFo::PdfObject& obj, const PoDoFo::PdfReference& ref, int depth = 0) const;
    // Replaces every string inside `obj` by its decrypted form, except a signature's /Contents
    // (which the spec leaves unencrypted).
    void decrypt_strings(PoDoFo::PdfObject& obj, const PoDoFo::PdfReference& ref, int depth = 0) const;

private:
    std::string object_key(const PoDoFo::PdfReference& ref) const;
    enum class Algo { RC4, AES128, AES256 } algo_;
    std::string key_;
};

}  // namespace pith::pdf
