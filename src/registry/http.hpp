// SPDX-License-Identifier: MIT
#pragma once
// HTTP GET for the registry client, through Debian's libcurl: HTTPS with the system's CAs (or a
// given bundle), proxies from the environment (http_proxy, https_proxy, no_proxy), time-outs, a
// size limit, a bounded number of redirects, retries with backoff on 429 and 5xx, and one plain
// line for every failure. Nothing in pith calls this unless a command was asked to go online.
#include "core/error.hpp"

#include <cstddef>
#include <string>

namespace pith::registry {

struct HttpOptions {
    std::string cacert;                        // extra CA bundle (PEM); empty: the system's CAs
    long connect_timeout_s = 10;
    long timeout_s = 60;                       // whole transfer, per attempt
    std::size_t max_bytes = std::size_t(32) << 20;  // a record is ~10 kB; a bundle well under 1 MB
    long max_redirects = 5;
    int retries = 3;                           // extra attempts after 429, 5xx or a dropped connection
    double backoff_s = 0.5;                    // first wait; doubled each time (Retry-After wins, up to 30 s)
};

struct HttpResponse {
    long status = 0;
    std::string body;
    std::string content_type;
    std::string url;  // after redirects
};

// An HTTP answer that is not 2xx, after the retries; `status` lets callers say "not in the registry".
class HttpError : public Error {
public:
    HttpError(const std::string& what, long status) : Error(what, err::registry_unreachable), status(status) {}
    long status;
};

// GET `url` with `Accept: accept` and `User-Agent: pith/<version>`. Throws HttpError for a final
// status outside 2xx, pith::Error for everything else (offline, DNS, TLS, time-out, too large),
// each one line naming the URL.
HttpResponse http_get(const std::string& url, const std::string& accept, const HttpOptions& options);

}  // namespace pith::registry
