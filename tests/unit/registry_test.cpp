// SPDX-License-Identifier: MIT
// The registry client without a network: what a query may be, the checks every answer passes,
// the cache (re-checked when read, --offline), the public key forms `pith keys add` reads, and the
// web badge's SVG. The HTTP side is tested against a local server in tests/registry/.
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/keys.hpp"
#include "registry/registry.hpp"
#include "registry/web_badge.hpp"

#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

using namespace pith;
using namespace pith::registry;
namespace fs = std::filesystem;

namespace {

std::string vector_text(const char* name) {
    return read_file_or_stdin(std::string(PITH_SOURCE_DIR) + "/tests/vectors/" + name);
}

const char* kSeed000 = "seed-000-pith_number_record.json";  // pith:2025:23QNCODH577IUWDFZU4YX4M5NI, arXiv 2504.09307v1
const char* kSeed004 = "seed-004-pith_number_record.json";  // pith:2023:GZ3OEI4JYPZPS66UULEGJKFYJU, arXiv 2311.03687v2

// The registry address is a closed port: a test that reached for the network would fail there.
Options offline_options(const TempDir& dir) {
    Options o;
    o.registry = "http://127.0.0.1:9";
    o.cache_dir = dir.path.string();
    o.offline = true;
    return o;
}

}  // namespace

TEST_CASE("registry: queries people type") {
    CHECK(parse_query("pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3").kind == Query::Kind::Number);
    CHECK(parse_query("yrunqitd2rkqxo2yh7sdtyyaq3").number.body == "YRUNQITD2RKQXO2YH7SDTYYAQ3");
    CHECK(parse_query("pith:YRUNQITD").kind == Query::Kind::Short);
    Query a = parse_query("arxiv:2407.14645v1");
    CHECK((a.kind == Query::Kind::Arxiv && a.arxiv_id == "2407.14645" && a.arxiv_version == 1));
    CHECK(!parse_query("ARXIV:2407.14645").arxiv_version);
    CHECK(parse_query("arxiv:hep-th/9901001v2").arxiv_id == "hep-th/9901001");
    CHECK(parse_query("arxiv:2407.14645v1").key() != parse_query("arxiv:2407.14645").key());
    CHECK(parse_query("pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3").key() == parse_query("YRUNQITD2RKQXO2YH7SDTYYAQ3").key());
    for (const char* bad : {"arxiv:", "arxiv:../../etc/passwd", "arxiv:2407.14645&json=false", "arxiv:2407.1", "pith:ABC"})
        CHECK_THROWS_AS(parse_query(bad), Error);
}

TEST_CASE("registry: an answer must be the record asked for and recompute") {
    Record r = read_record(vector_text(kSeed000), "seed");
    CHECK_NOTHROW(check_answer(r, parse_query("pith:2025:23QNCODH577IUWDFZU4YX4M5NI"), "x", false));
    CHECK_NOTHROW(check_answer(r, parse_query("pith:23QNCODH577I"), "x", false));
    CHECK_NOTHROW(check_answer(r, parse_query("arxiv:2504.09307v1"), "x", false));
    CHECK_THROWS_AS(check_answer(r, parse_query("pith:2024:23QNCODH577IUWDFZU4YX4M5NI"), "x", false), Refused);  // year
    CHECK_THROWS_AS(check_answer(r, parse_query("pith:2023:GZ3OEI4JYPZPS66UULEGJKFYJU"), "x", false), Refused);
    CHECK_THROWS_AS(check_answer(r, parse_query("pith:23QNCODI"), "x", false), Refused);
    CHECK_THROWS_AS(check_answer(r, parse_query("arxiv:2504.09307v2"), "x", false), Refused);
    CHECK_THROWS_AS(check_answer(r, parse_query("arxiv:2311.03687"), "x", false), Refused);
    CHECK_THROWS_AS(check_answer(r, parse_query("pith:23QNCODH"), "x", true), Refused);  // not a bundle
    Json edited = parse_json(vector_text(kSeed000), "seed");
    edited["canonical_record"]["metadata"]["license"] = "other";
    CHECK_THROWS_WITH(check_answer(read_record(edited.dump(), "e"), parse_query("pith:23QNCODH"), "e", false),
                      Catch::Contains("does not recompute"));
    Record state = read_record(vector_text("seed-002-open_graph_state.json"), "s");
    CHECK_NOTHROW(check_answer(state, parse_query("YRUNQITD2RKQXO2YH7SDTYYAQ3"), "s", true));
}

TEST_CASE("registry: the cache is checked again when read, and --offline never asks") {
    TempDir dir;
    Options o = offline_options(dir);
    CHECK_THROWS_WITH(fetch(parse_query("pith:23QNCODH"), o), Catch::Contains("not in the cache"));
    fs::create_directories(dir.path / "records");
    write_file_atomically((dir.path / "records" / "23QNCODH577IUWDFZU4YX4M5NI.json").string(), {vector_text(kSeed000)});
    write_file_atomically((dir.path / "records" / "GZ3OEI4JYPZPS66UULEGJKFYJU.json").string(), {vector_text(kSeed004)});
    for (const char* q : {"pith:2025:23QNCODH577IUWDFZU4YX4M5NI", "pith:23QNCODH", "arxiv:2504.09307", "arxiv:2311.03687v2"}) {
        Fetched f = fetch(parse_query(q), o);
        CHECK(f.from_cache);
    }
    CHECK(fetch(parse_query("arxiv:2311.03687"), o).record.number.full() == "pith:2023:GZ3OEI4JYPZPS66UULEGJKFYJU");
    CHECK_THROWS(fetch(parse_query("arxiv:2311.03687v1"), o));
    // A cached file under another record's name is refused, not served.
    write_file_atomically((dir.path / "records" / "23QNCODH577IUWDFZU4YX4M5NI.json").string(), {vector_text(kSeed004)});
    CHECK_THROWS_AS(fetch(parse_query("pith:2025:23QNCODH577IUWDFZU4YX4M5NI"), o), Refused);
}

TEST_CASE("registry: addresses") {
    CHECK(json_url("https://pith.science", "YRUNQITD") == "https://pith.science/pith/YRUNQITD.json");
    CHECK(graph_url("https://r.example", "B") == "https://r.example/api/pith-number/B/graph.json");
    CHECK(resolver_url("https://r.example", "2407.14645v1") == "https://r.example/api/pith-number/resolve?arxiv=2407.14645v1&json=true");
    CHECK(registry_from_environment("https://r.example/") == "https://r.example");
    CHECK_THROWS(registry_from_environment("file:///etc"));
}

TEST_CASE("registry: public keys in the forms keys add reads") {
    KeyPair pair = generate_keypair();
    const std::string b64 = base64(pair.public_key.data(), 32);
    CHECK(parse_public_key(b64 + "\n", "k", "id") == pair.public_key);
    CHECK(parse_public_key(Json{{"key_id", "id"}, {"public_key", b64}}.dump(), "k", "id") == pair.public_key);
    Json ring = {{"pith_keyring", 1}, {"keys", {{{"key_id", "other"}, {"public_key", b64}}, {{"key_id", "id"}, {"public_key", b64}}}}};
    CHECK(parse_public_key(ring.dump(), "k", "id") == pair.public_key);
    // PEM: the Ed25519 SubjectPublicKeyInfo header, then the key
    std::string der = std::string("\x30\x2a\x30\x05\x06\x03\x2b\x65\x70\x03\x21\x00", 12) +
                      std::string(reinterpret_cast<const char*>(pair.public_key.data()), 32);
    std::string pem = "-----BEGIN PUBLIC KEY-----\n" + base64(reinterpret_cast<const unsigned char*>(der.data()), der.size()) +
                      "\n-----END PUBLIC KEY-----\n";
    CHECK(parse_public_key(pem, "k", "id") == pair.public_key);
    CHECK_THROWS(parse_public_key(Json{{"key_id", "else"}, {"public_key", b64}}.dump(), "k", "id"));
    CHECK_THROWS(parse_public_key(ring.dump(), "k", "missing"));
    CHECK_THROWS(parse_public_key("not a key", "k", "id"));
}

TEST_CASE("registry: the web badge is the PDF badge's label, as SVG paths") {
    badge::Options o;
    o.text_size_pt = 14;
    WebBadge b = web_badge(parse_number("pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3"), "https://pith.science/pith/", o);
    CHECK(b.link == "https://pith.science/pith/YRUNQITD2RKQXO2YH7SDTYYAQ3");
    CHECK(b.label == "pith:YRUNQITD");
    CHECK(b.svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    std::size_t paths = 0;
    for (std::size_t at = 0; (at = b.svg.find("<path ", at)) != std::string::npos; ++at) ++paths;
    CHECK(paths == b.label.size());
    CHECK(b.svg.find("href") == std::string::npos);
    CHECK(badge_html(b).find("<a href=\"https://pith.science/pith/YRUNQITD2RKQXO2YH7SDTYYAQ3\"") == 0);
    CHECK_THROWS(web_badge(parse_number("pith:YRUNQITD"), "https://pith.science/pith/", o));
    o.style = "fancy";
    CHECK_THROWS(web_badge(parse_number("YRUNQITD2RKQXO2YH7SDTYYAQ3"), "https://pith.science/pith/", o));
}
