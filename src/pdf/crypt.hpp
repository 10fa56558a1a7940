// SPDX-License-Identifier: MIT
#pragma once
// Per-object encryption for the standard security handler (RC4, AESV2, AESV3), with the file
// key md5_file_key() derives (RC4, AESV2) or PoDoFo's PdfEncrypt at Authenticate() (AESV3).
// PoDoFo 0.9.8's own Encrypt() fails for AES-256, so the writer uses this instead.
#include <podofo/podofo.h>

#include <optional>
#include <string>
#include <string_view>

namespace pith::pdf {

// Makes RC4 available to OpenSSL 3, from a provider built into pith, for PoDoFo's own reading
// of RC4 and AES-128 files (`pith stamp --rewrite` loads the whole document with PoDoFo).
// Once per process; false if OpenSSL refused.
bool ensure_rc4();
// Makes AES available to OpenSSL 3 (pith's own AESV2/AESV3 and PoDoFo's AESV3 password check):
// loads OpenSSL's default provider. Once per process; false if OpenSSL refused.
bool ensure_aes();

// AES-CBC with PKCS #7 padding, a 16- or 32-byte key and a 16-byte IV. Decrypting, bad padding
// leaves out the last block, as OpenSSL's EVP does (and qpdf reads such data).
std::string aes_cbc(bool encrypt, const std::string& key, const unsigned char* iv, std::string_view data);

// The file key of the standard security handler's revisions 2-4 (RC4 and AES-128 files:
// PDF 32000-1 7.6.3.3, algorithms 2 and 4 to 7) when `password` is the user or the owner
// password; nullopt otherwise. PoDoFo's PdfEncrypt::Authenticate computes the same through
// OpenSSL's EVP RC4, whose first use costs a third of a millisecond to set up.
std::optional<std::string> md5_file_key(const PoDoFo::PdfEncrypt& enc, const std::string& document_id, const std::string& password);

class Crypt {
public:
    // `file_key`: the key md5_file_key() gave, or PoDoFo's after Authenticate() (AES-256).
    Crypt(const PoDoFo::PdfEncrypt& enc, const std::string& file_key);
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
