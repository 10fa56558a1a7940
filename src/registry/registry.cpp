// SPDX-License-Identifier: MIT
#include "registry/registry.hpp"

#include "core/files.hpp"
#include "core/paths.hpp"

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <regex>
#include <thread>
#include <unordered_set>

namespace pith::registry {
namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// arXiv identifiers: 2407.14645 (new style, 4 or 5 digits after the dot) and hep-th/9901001 (old).
Query parse_arxiv(const std::string& typed, const std::string& id_text) {
    static const std::regex form(R"(((\d{4}\.\d{4,5})|([a-z][a-z-]*(\.[A-Z]{2})?/\d{7}))(v(\d{1,4}))?)");
    std::smatch m;
    if (!std::regex_match(id_text, m, form))
        throw Error("not an arXiv identifier: \"" + typed + "\" (expected arxiv:2407.14645, arxiv:2407.14645v1 or arxiv:hep-th/9901001)", err::number_invalid);
    Query q;
    q.kind = Query::Kind::Arxiv;
    q.text = typed;
    q.arxiv_id = m[1].str();
    if (m[6].matched) q.arxiv_version = std::stoi(m[6].str());
    return q;
}

std::string arxiv_full(const Query& q) {
    return q.arxiv_id + (q.arxiv_version ? "v" + std::to_string(*q.arxiv_version) : "");
}

// ---- cache: records/BODY.json, bundles/BODY.json, aliases/NAME (holding a BODY) ----

std::string alias_name(const Query& q) {
    if (q.kind == Query::Kind::Short) return "short-" + q.number.body;
    std::string name = "arxiv-" + arxiv_full(q);
    for (auto& c : name)
        if (c == '/') c = '_';
    return name;
}

std::string cache_file(const Options& o, bool bundle, const std::string& body) {
    return o.cache_dir + (bundle ? "/bundles/" : "/records/") + body + ".json";
}

// Without an alias file: the one cached record that answers `q` (a short alias, an arXiv id that
// was fetched by number), found by reading the cache; "" when none or several do.
std::string scan_cache(const Query& q, const Options& o) {
    std::string found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(o.cache_dir + "/records", ec)) {
        std::string name = entry.path().filename().string();
        if (name.size() != kBodyLength + 5 || name.compare(kBodyLength, 5, ".json") != 0) continue;
        std::string body = name.substr(0, kBodyLength);
        if (q.kind == Query::Kind::Short && body.compare(0, q.number.body.size(), q.number.body) != 0) continue;
        try {
            check_answer(read_record(read_file_or_stdin(entry.path().string(), o.http.max_bytes), name), q, name, false);
        } catch (const Error&) {
            continue;
        }
        if (!found.empty() && found != body) return "";  // ambiguous: let the registry decide
        found = body;
    }
    return found;
}

// The BODY the cache knows for `q`, or "".
std::string cached_body(const Query& q, const Options& o) {
    if (q.kind == Query::Kind::Number) return q.number.body;
    std::string path = o.cache_dir + "/aliases/" + alias_name(q);
    if (!file_exists(path)) return scan_cache(q, o);
    try {
        std::string body = read_file_or_stdin(path, 64);
        return body.size() == kBodyLength ? body : "";
    } catch (const Error&) {
        return "";
    }
}

// The cache only saves work: a copy that cannot be written is simply fetched again next time.
void store(const std::string& path, const std::string& text) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    try {
        write_file_atomically(path, {text});
    } catch (const Error&) {
    }
}

void remember(const Query& q, const Fetched& f, const Options& o, bool bundle) {
    store(cache_file(o, bundle, f.record.number.body), f.text);
    if (q.kind != Query::Kind::Number) store(o.cache_dir + "/aliases/" + alias_name(q), f.record.number.body);
}

std::optional<Fetched> from_cache(const Query& q, const Options& o, bool bundle) {
    std::string body = cached_body(q, o);
    if (body.empty()) return std::nullopt;
    std::string path = cache_file(o, bundle, body);
    if (!file_exists(path)) return std::nullopt;
    Fetched f{read_record(read_file_or_stdin(path, o.http.max_bytes), path), "", path, true};
    check_answer(f.record, q, path, bundle);
    if (f.record.number.body != body) throw Refused(path + ": holds " + f.record.number.full() + ", not " + body);
    return f;
}

// ---- the network ----

// GET `url`; refuses what is not JSON. 404 means the registry does not know what was asked.
HttpResponse get_json(const std::string& url, const Query& q, const Options& o) {
    HttpResponse r;
    try {
        r = http_get(url, "application/json", o.http);
    } catch (const HttpError& e) {
        if (e.status == 404) throw NotFound(q.text + ": the registry " + o.registry + " does not know it (HTTP 404 at " + url + ")");
        throw;
    }
    try {
        parse_json(r.body, r.url);
    } catch (const Error& e) {
        std::string type = r.content_type.empty() ? "" : " (" + r.content_type + ")";
        throw Refused(r.url + ": the answer is not JSON" + type + ": " + e.what());
    }
    return r;
}

// The resolver may answer with the record or with a pointer to it: {"pith_number": ...}.
std::optional<std::string> pointer_of(const HttpResponse& r) {
    Json j = parse_json(r.body, r.url);
    if (j.is_object() && !j.contains("canonical_record") && !j.contains("current") && j.contains("pith_number") &&
        j["pith_number"].is_string())
        return j["pith_number"].get<std::string>();
    return std::nullopt;
}

}  // namespace

std::string Query::key() const {
    switch (kind) {
        case Kind::Number: return number.body;
        case Kind::Short: return "pith:" + number.body;
        case Kind::Arxiv: return "arxiv:" + arxiv_full(*this);
    }
    return text;
}

Query parse_query(const std::string& text) {
    if (lower(text.substr(0, 6)) == "arxiv:") return parse_arxiv(text, text.substr(6));
    Query q;
    q.text = text;
    q.number = parse_number(text);
    q.kind = q.number.body.size() == kBodyLength ? Query::Kind::Number : Query::Kind::Short;
    return q;
}

std::string default_cache_dir() {
    if (auto dir = paths::cache_dir()) return std::move(*dir);
    throw Error("no cache directory: set XDG_CACHE_HOME or HOME", err::options_invalid);
}

std::string registry_from_environment(const std::string& given) {
    std::string r = given;
    if (r.empty())
        if (const char* env = std::getenv("PITH_REGISTRY"); env && *env) r = env;
    if (r.empty()) r = kDefaultRegistry;
    while (!r.empty() && r.back() == '/') r.pop_back();
    if (r.rfind("http://", 0) != 0 && r.rfind("https://", 0) != 0)
        throw Error("registry address \"" + r + "\" is not an http:// or https:// URL", err::options_invalid);
    return r;
}

std::string json_url(const std::string& registry, const std::string& id) { return registry + "/pith/" + id + ".json"; }
std::string graph_url(const std::string& registry, const std::string& body) {
    return registry + "/api/pith-number/" + body + "/graph.json";
}
std::string resolver_url(const std::string& registry, const std::string& arxiv) {
    return registry + "/api/pith-number/resolve?arxiv=" + arxiv + "&json=true";
}

void check_answer(const Record& r, const Query& q, const std::string& origin, bool bundle) {
    auto refuse = [&](const std::string& why) { throw Refused(origin + ": " + why + "; refused"); };
    if (bundle && (r.kind != RecordKind::GraphState || !r.stated_state_sha256))
        refuse("not a bundle state (pith_open_graph_state with state_sha256)");
    if (!r.hash_matches()) refuse("stated canonical_sha256 " + *r.stated_hash + " does not recompute (" + to_hex(r.canonical_hash) + ")");
    if (!r.number_matches()) refuse("stated number " + *r.stated_number + " does not derive from the record (" + r.number.full() + ")");
    if (!r.state_matches()) refuse("stated state_sha256 " + *r.stated_state_sha256 + " does not recompute (" + r.recomputed_state_sha256.value_or("?") + ")");
    if (!r.title_matches()) refuse("the paper title does not hash to metadata.title_canon_sha256");
    const std::string got = r.number.full();
    switch (q.kind) {
        case Query::Kind::Number:
            if (r.number.body != q.number.body || (q.number.year && q.number.year != r.number.year))
                refuse("answers " + got + ", not the " + q.text + " asked for");
            break;
        case Query::Kind::Short:
            if (r.number.body.compare(0, q.number.body.size(), q.number.body) != 0)
                refuse("answers " + got + ", which does not start with " + q.number.body);
            break;
        case Query::Kind::Arxiv: {
            const Json& source = r.canonical_record.contains("source") ? r.canonical_record["source"] : Json();
            const Json id = source.is_object() && source.contains("id") ? source["id"] : Json();
            if (!id.is_string() || id.get<std::string>() != q.arxiv_id)
                refuse("answers " + got + " for source.id " + (id.is_string() ? id.get<std::string>() : std::string("(none)")) +
                       ", not arXiv " + q.arxiv_id);
            if (q.arxiv_version) {
                const Json v = source.contains("version") ? source["version"] : Json();
                if (!v.is_number_integer() || v.get<long long>() != *q.arxiv_version)
                    refuse("answers " + got + " for version " + (v.is_null() ? std::string("(none)") : v.dump()) + " of arXiv " +
                           q.arxiv_id + ", not v" + std::to_string(*q.arxiv_version));
            }
            break;
        }
    }
}

Fetched fetch(const Query& q, const Options& given, bool bundle) {
    Options o = given;
    if (o.cache_dir.empty()) o.cache_dir = default_cache_dir();
    if (o.use_cache) {
        try {
            if (auto f = from_cache(q, o, bundle)) return *f;
        } catch (const Error& e) {
            if (o.offline) throw Refused(std::string("cached copy refused: ") + e.what());
            // else: a damaged or tampered copy is replaced by the registry's
        }
    }
    if (o.offline) throw Error(q.text + ": not in the cache (" + o.cache_dir + ") and --offline forbids the network", err::registry_unreachable);

    if (bundle && q.kind != Query::Kind::Number) {  // learn the BODY first, then ask for its bundle
        Fetched rec = fetch(q, o, false);
        Query by_number = q;
        by_number.kind = Query::Kind::Number;
        by_number.number = rec.record.number;
        Fetched b = fetch(by_number, o, true);
        check_answer(b.record, q, b.origin, true);
        return b;
    }
    std::string url = bundle ? graph_url(o.registry, q.number.body)
                      : q.kind == Query::Kind::Arxiv ? resolver_url(o.registry, arxiv_full(q))
                                                     : json_url(o.registry, q.number.body);
    HttpResponse r = get_json(url, q, o);
    Fetched f;
    if (auto pointer = q.kind == Query::Kind::Arxiv ? pointer_of(r) : std::nullopt)
        f = fetch(parse_query(*pointer), o, false);
    else
        try {
            f = Fetched{read_record(r.body, r.url), r.body, r.url, false};
        } catch (const Error& e) {
            throw Refused(e.what());
        }
    check_answer(f.record, q, f.origin, bundle);
    remember(q, f, o, bundle);
    return f;
}

std::vector<std::string> prefetch(const std::vector<Query>& queries, const Options& o, unsigned parallel) {
    std::vector<const Query*> distinct;
    std::unordered_set<std::string> seen;
    for (const auto& q : queries)
        if (seen.insert(q.key()).second) distinct.push_back(&q);
    std::vector<std::string> errors(distinct.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i; (i = next++) < distinct.size();) {
            try {
                fetch(*distinct[i], o, false);
            } catch (const std::exception& e) {  // a thread must not end the process
                errors[i] = e.what();
            }
        }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < std::max(1u, parallel) && t < distinct.size(); ++t) threads.emplace_back(work);
    for (auto& t : threads) t.join();
    std::vector<std::string> failed;
    for (auto& e : errors)
        if (!e.empty()) failed.push_back(std::move(e));
    return failed;
}

Answer ask(const std::string& number, const std::function<Options()>& options) {
    try {
        const Options o = options();
        Fetched f = fetch(parse_query(number), o);
        return {f.record, finding::registry_known, "the registry " + o.registry + " serves " + number + (f.from_cache ? " (cached copy)" : "")};
    } catch (const NotFound& e) {
        return {std::nullopt, finding::registry_unknown, e.what()};
    } catch (const Refused& e) {
        return {std::nullopt, finding::registry_refused, e.what()};
    } catch (const Error& e) {
        return {std::nullopt, finding::registry_unreachable, e.what()};
    }
}

}  // namespace pith::registry
