// SPDX-License-Identifier: MIT
#pragma once
// Certificates and OpenSSL errors as text for pith's messages (shared by signing and inspection).
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/x509.h>

#include <ctime>
#include <string>

namespace pith::sign {

// OpenSSL's first queued error (the queue is cleared), for the one-line message.
inline std::string openssl_error() {
    unsigned long e = ERR_get_error();
    ERR_clear_error();
    if (!e) return "unknown OpenSSL error";
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    return buf;
}

// "CN=Journal X, O=Publisher", as the certificate lists it, UTF-8 kept.
inline std::string subject_of(X509* cert) {
    BIO* b = BIO_new(BIO_s_mem());
    X509_NAME_print_ex(b, X509_get_subject_name(cert), 0, (XN_FLAG_SEP_CPLUS_SPC | XN_FLAG_FN_SN | ASN1_STRFLGS_RFC2253) & ~ASN1_STRFLGS_ESC_MSB);
    char* data = nullptr;
    long n = BIO_get_mem_data(b, &data);
    std::string s(data, static_cast<std::size_t>(n));
    BIO_free(b);
    return s;
}

inline std::string rfc3339(std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

inline std::string time_text(const ASN1_TIME* t) {
    std::tm tm{};
    if (!t || !ASN1_TIME_to_tm(t, &tm)) return "?";
    return rfc3339(timegm(&tm));
}

}  // namespace pith::sign
