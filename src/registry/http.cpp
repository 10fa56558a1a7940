// SPDX-License-Identifier: MIT
#include "registry/http.hpp"

// Only libcurl's declarations: the library itself is loaded when a command first goes online.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>

namespace pith::registry {
namespace {

struct Transfer {
    std::string body;
    std::size_t max_bytes = 0;
    bool too_large = false;
    long retry_after_s = -1;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    std::size_t n = size * count;
    if (t->body.size() + n > t->max_bytes) {
        t->too_large = true;
        return 0;  // makes curl stop with CURLE_WRITE_ERROR
    }
    t->body.append(data, n);
    return n;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    std::string line(data, size * count);
    std::string lower = line;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower.rfind("retry-after:", 0) == 0) {  // the seconds form; an HTTP date falls back to the backoff
        std::size_t i = 12;
        while (i < line.size() && line[i] == ' ') ++i;
        if (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) t->retry_after_s = std::atol(line.c_str() + i);
    }
    return size * count;
}

// libcurl is opened with dlopen on first use, not linked: no command that stays offline pays for
// mapping it and its ~20 libraries at start-up, and the static build (its own OpenSSL libcrypto)
// never shares a process with the libcrypto.so that libcurl's TLS uses unless it goes online.
struct Api {
    decltype(&curl_global_init) global_init;
    decltype(&curl_easy_init) init;
    decltype(&curl_easy_cleanup) cleanup;
    decltype(&curl_easy_setopt) setopt;
    decltype(&curl_easy_perform) perform;
    decltype(&curl_easy_getinfo) getinfo;
    decltype(&curl_easy_strerror) strerror;
    decltype(&curl_slist_append) slist_append;
    decltype(&curl_slist_free_all) slist_free_all;
};

template <typename F>
void bind(void* lib, const char* name, F& f, std::string& missing) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f) missing = name;
}

// Loaded and initialised once (curl_global_init is not thread-safe; batch fetches from threads).
const Api& api() {
    static std::string error;
    static Api a = [] {
        Api x{};
        void* lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            error = std::string("cannot load libcurl (Debian package libcurl4): ") + dlerror();
            return x;
        }
        bind(lib, "curl_global_init", x.global_init, error);
        bind(lib, "curl_easy_init", x.init, error);
        bind(lib, "curl_easy_cleanup", x.cleanup, error);
        bind(lib, "curl_easy_setopt", x.setopt, error);
        bind(lib, "curl_easy_perform", x.perform, error);
        bind(lib, "curl_easy_getinfo", x.getinfo, error);
        bind(lib, "curl_easy_strerror", x.strerror, error);
        bind(lib, "curl_slist_append", x.slist_append, error);
        bind(lib, "curl_slist_free_all", x.slist_free_all, error);
        if (!error.empty()) error = "libcurl.so.4 lacks " + error;
        else if (x.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) error = "cannot initialise libcurl";
        return x;
    }();
    if (!error.empty()) throw Error(error, err::registry_unreachable);
    return a;
}

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// One line for a transfer that got no HTTP answer.
std::string describe(CURLcode code, const Transfer& t, const HttpOptions& o, const char* detail) {
    switch (code) {
        case CURLE_COULDNT_RESOLVE_HOST: return "cannot resolve the host name (offline, or DNS failing)";
        case CURLE_COULDNT_RESOLVE_PROXY: return "cannot resolve the proxy's host name";
        case CURLE_COULDNT_CONNECT: return "cannot connect (offline, or the registry is down)";
        case CURLE_OPERATION_TIMEDOUT: return "no complete answer within " + std::to_string(o.timeout_s) + " s";
        case CURLE_TOO_MANY_REDIRECTS: return "more than " + std::to_string(o.max_redirects) + " redirects";
        case CURLE_FILESIZE_EXCEEDED: return "answer larger than " + mib(o.max_bytes) + "; refused";
        case CURLE_WRITE_ERROR:
            if (t.too_large) return "answer larger than " + mib(o.max_bytes) + "; refused";
            break;
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_SSL_CACERT_BADFILE:
        case CURLE_SSL_CERTPROBLEM:
            return std::string("TLS failed: ") + (*detail ? detail : api().strerror(code));
        case CURLE_UNSUPPORTED_PROTOCOL: return "only http and https addresses are fetched";
        default: break;
    }
    return *detail ? detail : api().strerror(code);
}

bool transient(CURLcode code) {
    return code == CURLE_GOT_NOTHING || code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR ||
           code == CURLE_PARTIAL_FILE;
}

}  // namespace

HttpResponse http_get(const std::string& url, const std::string& accept, const HttpOptions& o) {
    const Api& lib = api();
    std::unique_ptr<CURL, void (*)(CURL*)> curl(lib.init(), lib.cleanup);
    if (!curl) throw Error(url + ": cannot start libcurl", err::internal_error);
    const std::string accept_header = "Accept: " + accept;
    std::unique_ptr<curl_slist, void (*)(curl_slist*)> headers(lib.slist_append(nullptr, accept_header.c_str()),
                                                              lib.slist_free_all);
    char detail[CURL_ERROR_SIZE];
    Transfer t;
    t.max_bytes = o.max_bytes;
    CURL* c = curl.get();
    lib.setopt(c, CURLOPT_URL, url.c_str());
    lib.setopt(c, CURLOPT_HTTPHEADER, headers.get());
    lib.setopt(c, CURLOPT_USERAGENT, "pith/" PITH_VERSION);
    lib.setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    lib.setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    lib.setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    lib.setopt(c, CURLOPT_MAXREDIRS, o.max_redirects);
    lib.setopt(c, CURLOPT_CONNECTTIMEOUT, o.connect_timeout_s);
    lib.setopt(c, CURLOPT_TIMEOUT, o.timeout_s);
    lib.setopt(c, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(o.max_bytes));
    lib.setopt(c, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS time-outs
    lib.setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // whatever this libcurl decodes
    if (!o.cacert.empty()) lib.setopt(c, CURLOPT_CAINFO, o.cacert.c_str());
    lib.setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    lib.setopt(c, CURLOPT_WRITEDATA, &t);
    lib.setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    lib.setopt(c, CURLOPT_HEADERDATA, &t);
    lib.setopt(c, CURLOPT_ERRORBUFFER, detail);

    double wait_s = o.backoff_s;
    for (int attempt = 0;; ++attempt) {
        t.body.clear();
        t.too_large = false;
        t.retry_after_s = -1;
        detail[0] = 0;
        CURLcode code = lib.perform(c);
        long status = 0;
        lib.getinfo(c, CURLINFO_RESPONSE_CODE, &status);
        bool retry = attempt < o.retries &&
                     (code == CURLE_OK ? status == 429 || (status >= 500 && status <= 599) : transient(code));
        if (retry) {
            double pause = t.retry_after_s >= 0 ? std::min<double>(t.retry_after_s, 30) : wait_s;
            std::this_thread::sleep_for(std::chrono::duration<double>(pause));
            wait_s *= 2;
            continue;
        }
        if (code != CURLE_OK) throw Error(url + ": " + describe(code, t, o, detail), err::registry_unreachable);
        HttpResponse r;
        r.status = status;
        char* type = nullptr;
        if (lib.getinfo(c, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK && type) r.content_type = type;
        char* final_url = nullptr;
        r.url = lib.getinfo(c, CURLINFO_EFFECTIVE_URL, &final_url) == CURLE_OK && final_url ? final_url : url;
        if (status < 200 || status > 299) {
            std::string tries = attempt ? " (after " + std::to_string(attempt + 1) + " attempts)" : "";
            throw HttpError(r.url + ": HTTP " + std::to_string(status) +
                                (status == 404 ? " not found" : status == 429 ? " too many requests" : "") + tries,
                            status);
        }
        r.body = std::move(t.body);
        return r;
    }
}

}  // namespace pith::registry
