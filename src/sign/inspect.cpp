// SPDX-License-Identifier: MIT
#include "sign/inspect.hpp"

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/paths.hpp"
#include "sign/signer.hpp"
#include "sign/x509_text.hpp"

#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <cstdlib>
#include <cstring>

namespace pith::sign {

struct Anchors::Store {
    X509_STORE* store = X509_STORE_new();
    ~Store() { X509_STORE_free(store); }
};

namespace {

// Adds every PEM certificate of `path` to `store`; the number added.
int add_pem(X509_STORE* store, const std::string& path) {
    BIO* bio = BIO_new_file(path.c_str(), "rb");
    if (!bio) throw Error(path + ": cannot read trust anchors (" + std::strerror(errno) + ")", err::trust_invalid);
    int n = 0;
    while (X509* c = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
        X509_STORE_add_cert(store, c);
        X509_free(c);
        ++n;
    }
    ERR_clear_error();
    BIO_free(bio);
    if (n == 0) throw Error(path + ": no PEM certificate in it", err::trust_invalid);
    return n;
}

std::vector<std::string> anchor_files(const std::vector<std::string>& given) {
    if (!given.empty()) return given;
    if (auto listed = paths::list_from("PITH_TRUST")) return std::move(*listed);
    std::vector<std::string> out;
    for (const auto& f : paths::trust_stores())
        if (file_exists(f)) out.push_back(f);
    return out;
}

std::optional<std::time_t> signing_time_of(CMS_SignerInfo* si) {
    const int at = CMS_signed_get_attr_by_NID(si, NID_pkcs9_signingTime, -1);
    if (at < 0) return std::nullopt;
    X509_ATTRIBUTE* attr = CMS_signed_get_attr(si, at);
    ASN1_TYPE* t = attr ? X509_ATTRIBUTE_get0_type(attr, 0) : nullptr;
    if (!t || (t->type != V_ASN1_UTCTIME && t->type != V_ASN1_GENERALIZEDTIME)) return std::nullopt;
    std::tm tm{};
    if (!ASN1_TIME_to_tm(reinterpret_cast<ASN1_TIME*>(t->value.asn1_string), &tm)) return std::nullopt;
    return timegm(&tm);
}

// The signature over the signed attributes, and their message digest against the ranges.
void check_signature(CMS_ContentInfo* cms, CMS_SignerInfo* si, const EVP_MD* md, STACK_OF(X509)* certs,
                     const std::vector<std::string_view>& pieces, CmsCheck& out) {
    if (CMS_signed_get_attr_count(si) <= 0) {  // no signed attributes (old adbe.pkcs7.detached): over the content itself
        std::string content;
        for (auto p : pieces) content.append(p);
        BIO* bio = BIO_new_mem_buf(content.data(), static_cast<int>(content.size()));
        out.valid = CMS_verify(cms, certs, nullptr, bio, nullptr, CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY) == 1;
        BIO_free(bio);
        if (!out.valid) out.error = "the signature does not match the signed bytes (" + openssl_error() + ")";
        return;
    }
    if (CMS_SignerInfo_verify(si) != 1) {
        out.error = "the signature over the signed attributes does not verify (" + openssl_error() + ")";
        return;
    }
    auto* stated = static_cast<ASN1_OCTET_STRING*>(
        CMS_signed_get0_data_by_OBJ(si, OBJ_nid2obj(NID_pkcs9_messageDigest), -3, V_ASN1_OCTET_STRING));
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    bool ok = ctx && EVP_DigestInit_ex(ctx, md, nullptr);
    for (auto p : pieces) ok = ok && EVP_DigestUpdate(ctx, p.data(), p.size());
    ok = ok && EVP_DigestFinal_ex(ctx, digest, &len);
    EVP_MD_CTX_free(ctx);
    out.valid = ok && stated && static_cast<unsigned>(ASN1_STRING_length(stated)) == len &&
                std::memcmp(ASN1_STRING_get0_data(stated), digest, len) == 0;
    if (!out.valid) out.error = "the signed bytes no longer have the digest the signature covers";
}

// The chain to an anchor (times not checked there), then each certificate's validity at `when`.
void check_certificate(X509* signer, STACK_OF(X509)* certs, const Anchors& anchors, std::time_t when, CmsCheck& out) {
    if (X509_get_extension_flags(signer) & EXFLAG_KUSAGE)
        out.key_usage = (X509_get_key_usage(signer) & (KU_DIGITAL_SIGNATURE | KU_NON_REPUDIATION)) != 0;
    std::vector<X509*> chain{signer};
    if (!anchors.empty()) {
        X509_STORE_CTX* ctx = X509_STORE_CTX_new();
        X509_STORE_CTX_init(ctx, anchors.store->store, signer, certs);
        X509_STORE_CTX_set_flags(ctx, X509_V_FLAG_NO_CHECK_TIME);
        const bool trusted = X509_verify_cert(ctx) == 1;
        out.chain = trusted ? CmsCheck::Chain::Trusted : CmsCheck::Chain::Untrusted;
        if (!trusted) out.chain_error = X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx));
        if (STACK_OF(X509)* verified = X509_STORE_CTX_get0_chain(ctx); trusted && verified) {
            chain.clear();
            for (int i = 0; i < sk_X509_num(verified); ++i) chain.push_back(sk_X509_value(verified, i));
            out.anchor = subject_of(chain.back());
        }
        X509_STORE_CTX_free(ctx);
        ERR_clear_error();
    }
    for (X509* c : chain) {
        std::time_t t = when;
        if (X509_cmp_time(X509_get0_notAfter(c), &t) < 0 || X509_cmp_time(X509_get0_notBefore(c), &t) > 0) {
            out.expired = true;
            out.expiry = subject_of(c) + " is valid from " + time_text(X509_get0_notBefore(c)) + " to " + time_text(X509_get0_notAfter(c)) +
                         ", not at the signing time " + rfc3339(when);
            break;
        }
    }
}

}  // namespace

Anchors Anchors::load(const std::vector<std::string>& files) {
    Anchors a;
    for (const auto& f : anchor_files(files)) {
        if (!a.store) a.store = std::make_shared<Store>();
        a.count_ += add_pem(a.store->store, f);
    }
    return a;
}

CmsCheck inspect(std::string_view der, const std::vector<std::string_view>& pieces, const Anchors& anchors,
                 std::optional<std::time_t> claimed_time) {
    CmsCheck out;
    const auto* p = reinterpret_cast<const unsigned char*>(der.data());
    CMS_ContentInfo* cms = d2i_CMS_ContentInfo(nullptr, &p, static_cast<long>(der.size()));
    if (!cms || OBJ_obj2nid(CMS_get0_type(cms)) != NID_pkcs7_signed) {
        CMS_ContentInfo_free(cms);
        ERR_clear_error();
        out.error = "/Contents holds no CMS SignedData";
        return out;
    }
    STACK_OF(CMS_SignerInfo)* infos = CMS_get0_SignerInfos(cms);
    STACK_OF(X509)* certs = CMS_get1_certs(cms);
    X509* signer = nullptr;
    X509_ALGOR* digest_alg = nullptr;
    if (sk_CMS_SignerInfo_num(infos) != 1) {
        out.error = "the CMS holds " + std::to_string(sk_CMS_SignerInfo_num(infos)) + " signers, not one";
    } else {
        CMS_set1_signers_certs(cms, certs, 0);
        CMS_SignerInfo_get0_algs(sk_CMS_SignerInfo_value(infos, 0), nullptr, &signer, &digest_alg, nullptr);
        if (!signer) out.error = "the signer's certificate is not in the signature";
    }
    const EVP_MD* md = digest_alg ? EVP_get_digestbyobj(digest_alg->algorithm) : nullptr;
    if (signer && !md) out.error = "unknown digest algorithm";
    if (signer && md) {
        CMS_SignerInfo* si = sk_CMS_SignerInfo_value(infos, 0);
        out.parsed = true;
        out.subject = subject_of(signer);
        out.digest = EVP_MD_get0_name(md);
        out.signing_time = signing_time_of(si);
        if (!out.signing_time) out.signing_time = claimed_time;
        const std::time_t when = out.signing_time ? *out.signing_time : std::time(nullptr);
        out.signing_time_text = rfc3339(when);
        check_signature(cms, si, md, certs, pieces, out);
        check_certificate(signer, certs, anchors, when, out);
    }
    sk_X509_pop_free(certs, X509_free);
    CMS_ContentInfo_free(cms);
    ERR_clear_error();
    return out;
}

}  // namespace pith::sign
