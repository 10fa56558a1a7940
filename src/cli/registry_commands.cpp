// SPDX-License-Identifier: MIT
// pith fetch, keys, badge; and the registry options shared with stamp, tex, verify and batch.
#include "cli/commands.hpp"
#include "cli/option_flags.hpp"
#include "cli/output.hpp"
#include "cli/registry_flags.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/keys.hpp"
#include "registry/pinning.hpp"
#include "registry/web_badge.hpp"

#include <unistd.h>

namespace pith::cli {

namespace {

// The help of each is its row in options::registry_rows(), which the stamp and verify tables include.
const options::Row& registry_row(const char* name) { return *options::find(options::registry_rows(), name); }

// --offline, --cacert, --cache-dir and the fetching limits, named with `prefix` ("registry-" in batch).
void add_shared_fetch_flags(CLI::App* c, RegistryFlags& f, const std::string& prefix) {
    const auto row = registry_row;
    const auto named = [&](const char* name) { return "--" + prefix + std::string(row(name).flags).substr(2); };
    add_bound(*c, row("--offline"), f.offline);
    add_bound(*c, row("--cacert"), f.cacert);
    add_bound(*c, row("--cache-dir"), f.cache_dir);
    c->add_option(named("--timeout"), f.timeout_s, row("--timeout").help)->capture_default_str();
    c->add_option(named("--connect-timeout"), f.connect_timeout_s, row("--connect-timeout").help)->capture_default_str();
    c->add_option(named("--retries"), f.retries, row("--retries").help)->capture_default_str();
}

}  // namespace

void add_registry_flags(CLI::App* c, RegistryFlags& f, const std::string& prefix) {
    add_bound(*c, registry_row("--registry"), f.registry);
    add_bound(*c, registry_row("--refresh"), f.refresh);
    add_shared_fetch_flags(c, f, prefix);
}

void add_fetch_flags(CLI::App* c, RegistryFlags& f) { add_shared_fetch_flags(c, f, ""); }

registry::Options registry_options(const RegistryFlags& f) {
    registry::Options o;
    o.registry = registry::registry_from_environment(f.registry);
    o.cache_dir = f.cache_dir.empty() ? registry::default_cache_dir() : f.cache_dir;
    o.offline = f.offline;
    o.use_cache = !f.refresh;
    o.http.cacert = f.cacert;
    o.http.timeout_s = f.timeout_s;
    o.http.connect_timeout_s = f.connect_timeout_s;
    o.http.retries = f.retries;
    return o;
}

Record fetch_record(const std::string& query, const RegistryFlags& flags, int& status) {
    try {
        return registry::fetch(registry::parse_query(query), registry_options(flags)).record;
    } catch (const registry::Refused&) {
        status = kExitInvalid;
        throw;
    }
}

namespace {

struct FetchCommand {
    std::string query, output;
    bool json = false, bundle = false;
    RegistryFlags flags;
};

int run_fetch(const FetchCommand& c, int& status) {
    registry::Fetched f;
    try {
        f = registry::fetch(registry::parse_query(c.query), registry_options(c.flags), c.bundle);
    } catch (const registry::Refused&) {
        status = kExitInvalid;
        throw;
    }
    std::string text = f.text.empty() ? read_file_or_stdin(f.origin) : f.text;
    if (!c.output.empty()) write_file_atomically(c.output, {text});
    if (c.json) {
        Json j = {{"query", c.query}, {"number", f.record.number.full()}, {"kind", to_string(f.record.kind)},
                  {"canonical_sha256", to_hex(f.record.canonical_hash)}, {"origin", f.origin},
                  {"from_cache", f.from_cache}, {"output", c.output.empty() ? Json(nullptr) : Json(c.output)}};
        std::printf("%s\n", pretty_json(j).c_str());
    } else if (c.output.empty()) {
        std::fputs(text.c_str(), stdout);
        if (!text.empty() && text.back() != '\n') std::fputc('\n', stdout);
    } else {
        std::fprintf(stderr, "%s %s from %s -> %s\n", f.from_cache ? "cached" : "fetched", f.record.number.full().c_str(),
                     f.origin.c_str(), c.output.c_str());
    }
    return kExitOk;
}

struct KeysCommand {
    std::string source, key_id, fingerprint, keyring, since;
    std::vector<std::string> keyrings;
    bool json = false;
    RegistryFlags flags;
};

int run_keys_add(const KeysCommand& c) {
    const registry::Pin pin = registry::pin_key(c.key_id, c.fingerprint, [&] { return registry_options(c.flags).cache_dir; });
    std::string text;
    if (c.source.rfind("http://", 0) == 0 || c.source.rfind("https://", 0) == 0) {
        if (c.flags.offline) throw Error(c.source + ": --offline forbids the network", err::registry_unreachable);
        text = registry::http_get(c.source, "application/json, application/x-pem-file, text/plain", registry_options(c.flags).http).body;
    } else {
        text = read_file_or_stdin(c.source, 1u << 20);
    }
    const registry::Added added = registry::add_pinned_key(c.keyring, c.key_id, parse_public_key(text, c.source, c.key_id), pin, c.source);
    std::printf("added %s (fingerprint %s, pinned by %s) to %s\n", c.key_id.c_str(), added.fingerprint.c_str(), pin.by.c_str(), added.ring.c_str());
    return kExitOk;
}

int run_keys_list(const KeysCommand& c) {
    Keyring ring = Keyring::load(c.keyrings);
    Json keys = Json::array();
    for (const auto& k : ring.keys)
        keys.push_back({{"key_id", k.key_id}, {"fingerprint", k.fingerprint}, {"not_before", k.not_before},
                        {"not_after", k.not_after}, {"revoked", k.revoked}, {"source", k.source}});
    if (c.json) {
        std::printf("%s\n", pretty_json({{"files", ring.files}, {"keys", keys}, {"refused", ring.warnings}}).c_str());
        return kExitOk;
    }
    if (ring.files.empty()) std::printf("no keyring files (see `pith keys --help`)\n");
    for (const auto& k : ring.keys)
        std::printf("%-24s %s  %s%s%s\n", k.key_id.c_str(), k.fingerprint.c_str(), k.source.c_str(),
                    k.revoked.empty() ? "" : "  REVOKED", k.revoked.empty() || k.revoked == "true" ? "" : (" since " + k.revoked).c_str());
    for (const auto& w : ring.warnings) std::printf("refused: %s\n", w.c_str());
    return kExitOk;
}

int run_keys_revoke(const KeysCommand& c) {
    const std::string ring = c.keyring.empty() ? default_keyring_file() : c.keyring;
    revoke_key_in_keyring_file(ring, c.key_id, c.since);
    std::printf("revoked %s in %s\n", c.key_id.c_str(), ring.c_str());
    return kExitOk;
}

struct BadgeCommand {
    std::string number, output, image, resolver = kDefaultResolver;
    bool svg = false, png = false, html = false, markdown = false;
    double scale = 2;
    badge::Options options;
};

int run_badge(BadgeCommand& c) {
    if (c.svg + c.png + c.html + c.markdown != 1) throw Error("give exactly one of --svg, --png, --html and --markdown", err::options_invalid);
    if (c.png && c.output.empty() && isatty(1)) throw Error("--png writes binary data: give -o FILE.png or redirect standard output", err::options_invalid);
    PithNumber number = parse_number(c.number);
    registry::WebBadge b = registry::web_badge(number, c.resolver, c.options);
    std::string out = c.svg ? b.svg
                      : c.png ? registry::svg_to_png(b.svg, c.scale)
                      : c.html ? registry::badge_html(b)
                               : registry::badge_markdown(b, c.image.empty() ? "pith-" + number.body.substr(0, 8) + ".svg" : c.image);
    write_file_atomically(c.output.empty() ? "-" : c.output, {out});
    return kExitOk;
}

}  // namespace

void register_registry_commands(CLI::App& app, int& status) {
    auto f = std::make_shared<FetchCommand>();
    auto* fetch = app.add_subcommand("fetch", "Download a record from the Pith registry and check it");
    fetch->footer(
        "QUERY is a number (pith:2024:BODY or BODY), a short alias (pith:YRUNQITD) or arxiv:ID[vN]. The answer\n"
        "is refused unless its canonical hash and number recompute and it is the record asked for (the same\n"
        "BODY; a BODY starting with the short alias; source.id and version for arXiv); with --bundle, the\n"
        "open graph state, whose state_sha256 must recompute too. Records are cached by BODY in\n"
        "$XDG_CACHE_HOME/pith and checked again when read; --offline uses only the cache.\n\n"
        "Exit status: 0 fetched, 1 the registry's answer was refused, 2 no answer (network, 404, usage).\n\n"
        "Examples:\n"
        "  pith fetch pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3 -o record.json\n"
        "  pith fetch arxiv:2407.14645v1 --json\n"
        "  pith fetch YRUNQITD2RKQXO2YH7SDTYYAQ3 --bundle -o state.json");
    fetch->add_option("query", f->query, "Number, short alias or arxiv:ID")->required();
    fetch->add_option("-o,--output", f->output, "Write the document to FILE (atomically); default: standard output");
    fetch->add_flag("--json", f->json, "Print {query, number, kind, canonical_sha256, origin, from_cache, output}");
    fetch->add_flag("--bundle", f->bundle, "Fetch the bundle's merged state (graph.json) instead of the record");
    add_registry_flags(fetch, f->flags);
    fetch->callback([f, &status] { status = run_fetch(*f, status); });

    auto k = std::make_shared<KeysCommand>();
    auto* keys = app.add_subcommand("keys", "Manage the registry keys you trust (your keyring)");
    keys->footer("Keyring files: see doc/formats.md (Keys and receipts). add and revoke change --keyring FILE, by default\n"
                 "$XDG_CONFIG_HOME/pith/keyring.json (~/.config/pith/keyring.json).");
    keys->require_subcommand(1);
    auto* add = keys->add_subcommand("add", "Add a registry's public key, only if its fingerprint is the one pinned");
    add->footer("SOURCE is a file or an http(s) URL holding the key: a pith keyring, a JSON object with\n"
                "public_key, a PEM PUBLIC KEY or bare base64. The key enters only when its fingerprint (assumed: hex of\n"
                "the first 16 bytes of SHA-256 of the raw key) equals --fingerprint, or, without it, the\n"
                "public_key_fingerprint of the cached records' receipts from that key.\n\n"
                "Example:\n  pith keys add https://pith.science/keys/pith-v1-2026-05.json --key-id pith-v1-2026-05 \\\n"
                "      --fingerprint 8d4b5ee74e4693bcd1df2446408b0d54");
    add->add_option("source", k->source, "Key file or URL")->required();
    add->add_option("--key-id", k->key_id, "The key's id, as receipts cite it")->required();
    add->add_option("--fingerprint", k->fingerprint, "The fingerprint the key must have (32 hex digits)");
    add->add_option("--keyring", k->keyring, "Keyring file to add to");
    add_fetch_flags(add, k->flags);
    add->callback([k, &status] { status = run_keys_add(*k); });
    auto* list = keys->add_subcommand("list", "List the keys pith trusts, and entries it refuses");
    list->add_option("--keyring", k->keyrings, "Keyring files (default: as pith verify finds them)")->allow_extra_args(false);
    list->add_flag("--json", k->json, "Print {files, keys, refused}");
    list->callback([k, &status] { status = run_keys_list(*k); });
    auto* revoke = keys->add_subcommand("revoke", "Mark a key revoked: receipts under it are no longer valid");
    revoke->add_option("key_id", k->key_id, "Key id")->required();
    revoke->add_option("--keyring", k->keyring, "Keyring file to change");
    revoke->add_option("--since", k->since, "RFC 3339 time of the revocation (default: revoked outright)");
    revoke->callback([k, &status] { status = run_keys_revoke(*k); });

    auto b = std::make_shared<BadgeCommand>();
    auto* badge = app.add_subcommand("badge", "Print the Pith badge for web pages and READMEs (SVG, PNG, HTML, Markdown)");
    badge->footer("The badge pith stamp draws in PDFs (same glyph outlines, colours, styles, optional QR code),\n"
                  "linking to the registry's page for the number. Offline: NUMBER must be whole.\n\n"
                  "Examples:\n  pith badge pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3 --svg -o pith-YRUNQITD.svg\n"
                  "  pith badge YRUNQITD2RKQXO2YH7SDTYYAQ3 --markdown --image https://example.org/pith-YRUNQITD.svg");
    badge->add_option("number", b->number, "The Pith number (pith:YEAR:BODY or BODY)")->required();
    badge->add_flag("--svg", b->svg, "A standalone SVG (paths only)");
    badge->add_flag("--png", b->png, "A PNG (rendered with mutool, from mupdf-tools)");
    badge->add_flag("--html", b->html, "An <a href> around the inline SVG");
    badge->add_flag("--markdown", b->markdown, "[![label](IMAGE)](LINK)");
    badge->add_option("--image", b->image, "Markdown: URL of the published SVG (default pith-XXXXXXXX.svg)");
    badge->add_option("-o,--output", b->output, "Output file (default: standard output)");
    badge->add_option("--resolver", b->resolver, "Base URL the badge links to (BODY is appended)")->capture_default_str();
    b->options.text_size_pt = 14;
    badge->add_option("--text-size", b->options.text_size_pt, "Text size in CSS px")->capture_default_str();
    one_of(badge->add_option("--style", b->options.style, "The badge without or with its opaque box"), badge::kStyles)
        ->capture_default_str();
    badge->add_flag("--qr", b->options.qr, "Add a QR code of the link");
    b->options.qr_module_pt = 2;
    badge->add_option("--qr-module", b->options.qr_module_pt, "Side of one QR module in px")->capture_default_str();
    badge->add_option("--scale", b->scale, "PNG pixels per CSS px (2 for sharp screens)")->capture_default_str();
    badge->callback([b, &status] { status = run_badge(*b); });
}

}  // namespace pith::cli
