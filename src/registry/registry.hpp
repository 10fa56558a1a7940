// SPDX-License-Identifier: MIT
#pragma once
// The Pith registry client: what a user asks for (a number, a short alias, an arXiv id), where the
// registry serves it, the checks every answer must pass, and the local content-addressed cache.
#include "core/finding_codes.hpp"
#include "core/number.hpp"
#include "core/record.hpp"
#include "registry/http.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pith::registry {

// An answer that came but does not check (not JSON, not a record, does not recompute, another
// record than the one asked for): pith refuses it. Other failures (network, 404) are plain Errors.
class Refused : public Error {
public:
    explicit Refused(const std::string& message) : Error(message, err::registry_refused) {}
};

// The registry answered 404: it does not know what was asked for.
class NotFound : public Error {
public:
    explicit NotFound(const std::string& message) : Error(message, err::registry_unknown) {}
};

inline const std::string kDefaultRegistry = "https://pith.science";

// What was asked for: `pith:2024:BODY`, `BODY`, `pith:SHORT` (8, 12 or 16 characters) or
// `arxiv:2407.14645` / `arxiv:2407.14645v1`.
struct Query {
    enum class Kind { Number, Short, Arxiv } kind = Kind::Number;
    PithNumber number;          // Number (year 0 when BODY was typed alone), Short
    std::string arxiv_id;       // Arxiv, without the version
    std::optional<int> arxiv_version;
    std::string text;           // as typed, for messages
    std::string key() const;    // one spelling per distinct query (batch fetches each once)
};
Query parse_query(const std::string& text);  // throws pith::Error

struct Options {
    std::string registry = kDefaultRegistry;  // base URL, without a trailing slash
    std::string cache_dir;                     // empty: default_cache_dir()
    bool offline = false;                      // only the cache; never the network
    bool use_cache = true;                     // false: always ask the registry (the answer is still cached)
    HttpOptions http;
};
// $XDG_CACHE_HOME/pith, else ~/.cache/pith.
std::string default_cache_dir();
// The registry given by --registry, else $PITH_REGISTRY, else https://pith.science.
std::string registry_from_environment(const std::string& given);

struct Fetched {
    Record record;
    std::string text;     // the document as served (and cached)
    std::string origin;   // the URL it came from, or the cache file
    bool from_cache = false;
};

// The record (or with `bundle`, the open graph state) for `query`: from the cache when it holds
// it, else from the registry, then cached. Refuses, with one line, an answer that is not JSON, not
// a record, does not recompute (hash, number, state_sha256, title hash) or is not the one asked
// for (number, short prefix, arXiv source.id and version). A cached copy is checked the same way.
Fetched fetch(const Query& query, const Options& options, bool bundle = false);

// The checks, alone: throws pith::Error naming `origin` when `record` does not answer `query`.
void check_answer(const Record& record, const Query& query, const std::string& origin, bool bundle);

// What the registry says of a number (pith verify --online): its record and finding::registry_known,
// or finding::registry_unknown (404), _refused (an answer that does not check) or _unreachable
// (no answer), with the reason. `options` is called within: options that cannot be worked out (a
// --registry that is not a URL) leave the registry unreached too.
struct Answer {
    std::optional<Record> record;
    Code code;
    std::string why;
};
Answer ask(const std::string& number, const std::function<Options()>& options);

// Fetches every query once, `parallel` at a time (batch manifests). Returns one error line per
// query that failed (empty when all are cached now).
std::vector<std::string> prefetch(const std::vector<Query>& queries, const Options& options, unsigned parallel);

// Addresses (pith-formats.md): the JSON and graph of a number, the arXiv resolver.
std::string json_url(const std::string& registry, const std::string& body_or_short);
std::string graph_url(const std::string& registry, const std::string& body);
std::string resolver_url(const std::string& registry, const std::string& arxiv_id_with_version);

}  // namespace pith::registry
