// SPDX-License-Identifier: MIT
#include "sign/signer.hpp"

#include "core/error.hpp"
#include "sign/x509_text.hpp"

#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pith::sign {

struct Signer::State {
    X509* cert = nullptr;
    EVP_PKEY* key = nullptr;
    STACK_OF(X509)* chain = nullptr;
    ~State() {
        X509_free(cert);
        EVP_PKEY_free(key);
        sk_X509_pop_free(chain, X509_free);
    }
};

namespace {

struct BioFile {
    BIO* bio;
    explicit BioFile(const std::string& path) : bio(BIO_new_file(path.c_str(), "rb")) {
        if (!bio) throw Error(path + ": cannot read (" + std::strerror(errno) + ")", err::sign_key_invalid);
    }
    ~BioFile() { BIO_free(bio); }
};

// A private key another user may read is no secret any more: refuse to use it.
void refuse_shared_key(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) throw Error(path + ": cannot read (" + std::strerror(errno) + ")", err::sign_key_invalid);
    if (st.st_mode & (S_IRGRP | S_IROTH | S_IWGRP | S_IWOTH)) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
        throw Error(path + ": private key is readable or writable by group or others (mode " + mode + "); chmod 600 it", err::sign_key_invalid);
    }
}

std::string passphrase(const KeySource& s) {
    if (!s.pass_file.empty() && !s.pass_env.empty()) throw Error("give one of --sign-pass-file and --sign-pass-env", err::options_invalid);
    if (!s.pass_env.empty()) {
        const char* v = std::getenv(s.pass_env.c_str());
        if (!v) throw Error("--sign-pass-env: the environment variable " + s.pass_env + " is not set", err::options_invalid);
        return v;
    }
    if (s.pass_file.empty()) return {};
    std::ifstream in(s.pass_file, std::ios::binary);
    if (!in) throw Error(s.pass_file + ": cannot read the passphrase file", err::sign_key_invalid);
    std::string line;
    std::getline(in, line);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

// Never prompts: an encrypted key without a passphrase given fails.
int password_callback(char* buf, int size, int, void* user) {
    const std::string* pass = static_cast<const std::string*>(user);
    if (!pass || pass->empty() || static_cast<int>(pass->size()) > size) return -1;
    std::memcpy(buf, pass->data(), pass->size());
    return static_cast<int>(pass->size());
}

STACK_OF(X509)* read_certificates(const std::string& path) {
    BioFile f(path);
    STACK_OF(X509)* out = sk_X509_new_null();
    while (X509* c = PEM_read_bio_X509(f.bio, nullptr, nullptr, nullptr)) sk_X509_push(out, c);
    ERR_clear_error();  // the end of the file reads as an error
    if (sk_X509_num(out) == 0) {
        sk_X509_free(out);
        throw Error(path + ": no PEM certificate in it", err::sign_key_invalid);
    }
    return out;
}


}  // namespace

std::string sha256_of(const std::vector<std::string_view>& pieces) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    bool ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
    for (auto p : pieces) ok = ok && EVP_DigestUpdate(ctx, p.data(), p.size());
    ok = ok && EVP_DigestFinal_ex(ctx, md, &len);
    EVP_MD_CTX_free(ctx);
    if (!ok) throw Error("SHA-256 failed: " + openssl_error(), err::internal_error);
    return std::string(reinterpret_cast<char*>(md), len);
}

Signer Signer::load(const KeySource& s) {
    auto state = std::make_shared<State>();
    const std::string pass = passphrase(s);
    if (!s.p12.empty()) {
        if (!s.cert.empty() || !s.key.empty()) throw Error("give either --sign-p12 or --sign-cert with --sign-key, not both", err::options_invalid);
        refuse_shared_key(s.p12);
        BioFile f(s.p12);
        PKCS12* p12 = d2i_PKCS12_bio(f.bio, nullptr);
        if (!p12) throw Error(s.p12 + ": not a PKCS#12 file", err::sign_key_invalid);
        const bool ok = PKCS12_parse(p12, pass.c_str(), &state->key, &state->cert, &state->chain);
        PKCS12_free(p12);
        if (!ok || !state->key || !state->cert)
            throw Error(s.p12 + ": cannot open the PKCS#12 file (wrong passphrase? " + openssl_error() + ")", err::sign_key_invalid);
    } else {
        if (s.cert.empty() || s.key.empty()) throw Error("signing needs --sign-cert and --sign-key (or --sign-p12)", err::options_invalid);
        refuse_shared_key(s.key);
        STACK_OF(X509)* certs = read_certificates(s.cert);
        state->cert = sk_X509_shift(certs);  // the first is the signer's; any others join the chain
        state->chain = certs;
        BioFile f(s.key);
        std::string p = pass;
        state->key = PEM_read_bio_PrivateKey(f.bio, nullptr, password_callback, &p);
        if (!state->key)
            throw Error(s.key + ": cannot read the private key (" +
                        (pass.empty() ? std::string("encrypted? give --sign-pass-file or --sign-pass-env; ") : std::string("wrong passphrase? ")) +
                        openssl_error() + ")", err::sign_key_invalid);
    }
    if (!s.chain.empty()) {
        STACK_OF(X509)* more = read_certificates(s.chain);
        if (!state->chain) state->chain = sk_X509_new_null();
        while (sk_X509_num(more) > 0) sk_X509_push(state->chain, sk_X509_shift(more));
        sk_X509_free(more);
    }
    if (!state->chain) state->chain = sk_X509_new_null();
    const int type = EVP_PKEY_get_base_id(state->key);
    if (type != EVP_PKEY_RSA && type != EVP_PKEY_EC)
        throw Error("the signing key is neither RSA nor ECDSA (PAdES signatures here use RSA or ECDSA P-256)", err::sign_key_invalid);
    if (!X509_check_private_key(state->cert, state->key)) {
        ERR_clear_error();
        throw Error("the private key does not belong to the signing certificate", err::sign_key_invalid);
    }
    Signer signer;
    signer.subject_ = subject_of(state->cert);
    // The DER holds the certificates, the signed attributes (with a hash of the certificate)
    // and one signature; 8 KiB of slack covers the attributes and DER overhead many times.
    std::size_t size = 8192 + static_cast<std::size_t>(2 * EVP_PKEY_get_size(state->key)) +
                       static_cast<std::size_t>(i2d_X509(state->cert, nullptr));
    for (int i = 0; i < sk_X509_num(state->chain); ++i) size += static_cast<std::size_t>(i2d_X509(sk_X509_value(state->chain, i), nullptr));
    signer.reserve_ = size;
    signer.state_ = std::move(state);
    return signer;
}

std::string Signer::sign(const std::vector<std::string_view>& pieces) const {
    const State& s = *state_;
    // The digest is computed here over the ranges (no copy of the file); CMS_SignerInfo_sign
    // then signs the attributes, adding signingTime; CMS_CADES adds signing-certificate-v2.
    const std::string digest = sha256_of(pieces);
    CMS_ContentInfo* cms = CMS_sign(nullptr, nullptr, nullptr, nullptr, CMS_PARTIAL | CMS_DETACHED | CMS_BINARY);
    std::string der;
    bool ok = cms != nullptr;
    CMS_SignerInfo* si = ok ? CMS_add1_signer(cms, s.cert, s.key, EVP_sha256(), CMS_BINARY | CMS_NOSMIMECAP | CMS_CADES | CMS_PARTIAL) : nullptr;
    ok = si != nullptr;
    for (int i = 0; ok && i < sk_X509_num(s.chain); ++i) ok = CMS_add1_cert(cms, sk_X509_value(s.chain, i));
    ok = ok && CMS_set_detached(cms, 1);
    ok = ok && CMS_signed_add1_attr_by_NID(si, NID_pkcs9_contentType, V_ASN1_OBJECT, OBJ_nid2obj(NID_pkcs7_data), -1);
    ok = ok && CMS_signed_add1_attr_by_NID(si, NID_pkcs9_messageDigest, V_ASN1_OCTET_STRING, digest.data(), static_cast<int>(digest.size()));
    ok = ok && CMS_SignerInfo_sign(si);
    if (ok) {
        unsigned char* out = nullptr;
        int n = i2d_CMS_ContentInfo(cms, &out);
        ok = n > 0;
        if (ok) der.assign(reinterpret_cast<char*>(out), static_cast<std::size_t>(n));
        OPENSSL_free(out);
    }
    const std::string why = ok ? "" : openssl_error();
    CMS_ContentInfo_free(cms);
    if (!ok) throw Error("signing failed: " + why, err::internal_error);
    return der;
}

}  // namespace pith::sign
