// SPDX-License-Identifier: MIT
// pith batch: manifest parsing (line numbers in errors), sharding, temporary-file clean-up.
#include "batch/batch.hpp"
#include "core/error.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

using namespace pith;
using namespace pith::batch;
namespace fs = std::filesystem;

TEST_CASE("batch manifest: entries, options and defaults", "[batch]") {
    std::string text =
        "# a comment\n"
        "{\"input\":\"a.pdf\",\"record\":\"r.json\",\"output\":\"out/a.pdf\"}\n"
        "\n"
        "{\"input\":\"b.pdf\",\"record\":{\"canonical_record\":{}},\"output\":\"out/b.pdf\",\"page\":-1,\"corner\":\"bottom-left\","
        "\"margin_x\":30,\"qr\":true,\"style\":\"boxed\",\"password\":\"pw\",\"force\":true,\"id\":42}\r\n";
    Manifest m = parse_manifest(text, "m.jsonl", Mode::Stamp, Shard{});
    REQUIRE(m.jobs.size() == 2);
    CHECK(m.lines_total == 2);
    CHECK(m.jobs[0].line == 2);
    CHECK(m.jobs[1].line == 4);
    Entry b = parse_entry(std::string_view(m.text.data() + m.jobs[1].offset, m.jobs[1].length), 4, "m.jsonl", Mode::Stamp);
    CHECK(b.input == "b.pdf");
    CHECK(b.record_inline);
    CHECK(b.options.placement.page == -1);
    CHECK(b.options.placement.corner == stamp::Corner::BottomLeft);
    CHECK(b.options.placement.margin_x == 30);
    CHECK(b.options.badge.qr);
    CHECK(b.options.badge.style == "boxed");
    CHECK(b.options.password == "pw");
    CHECK(b.options.force);
    CHECK(b.id == "42");

    Entry d = parse_entry("{\"input\":\"c.pdf\",\"output\":\"o.pdf\"}", 1, "m", Mode::Stamp, "default.json");
    CHECK(d.record_path == std::optional<std::string>("default.json"));
    Entry bare = parse_entry("  received/x y.pdf ", 1, "m", Mode::Verify);
    CHECK(bare.input == "received/x y.pdf");
}

// "at" and "rewrite" were missing from the manifest (issue 33); every key now goes through the
// row of stamp/options_table.hpp that pith stamp's flag goes through.
TEST_CASE("batch manifest: at, rewrite and the option table's checks", "[batch]") {
    auto entry = [](const std::string& extra) {
        return parse_entry("{\"input\":\"a.pdf\",\"record\":\"r\",\"output\":\"o.pdf\"" + extra + "}", 1, "m", Mode::Stamp);
    };
    const Entry plain = entry("");
    CHECK(plain.options.placement.automatic);
    CHECK(!plain.options.placement.at);
    CHECK(!plain.options.rewrite);
    const Entry e = entry(",\"at\":[100,700.5],\"rewrite\":true,\"no_title_check\":true,\"no_badge\":false");
    REQUIRE(e.options.placement.at);
    CHECK(e.options.placement.at->first == 100);
    CHECK(e.options.placement.at->second == 700.5);
    CHECK(!e.options.placement.automatic);  // a position given: the badge goes there (issue 21)
    CHECK(e.options.rewrite);
    CHECK(!e.options.check_title);
    CHECK(e.options.draw_badge);
    CHECK(!entry(",\"corner\":\"top-right\"").options.placement.automatic);
    CHECK(!entry(",\"no_badge\":true").options.draw_badge);
    for (const char* bad : {",\"at\":[1]", ",\"at\":\"1,2\"", ",\"at\":[1,\"2\"]", ",\"rewrite\":1"})
        CHECK_THROWS_AS(entry(bad), Error);
    CHECK_THROWS_WITH(entry(",\"style\":\"neon\""), Catch::Contains("\"style\": must be one of plain|boxed"));
    CHECK_THROWS_WITH(entry(",\"page\":1.5"), Catch::Contains("non-zero integer"));
    CHECK_THROWS_WITH(entry(",\"colour\":1"), Catch::Contains("known: input, id, record,") && Catch::Contains("rewrite, at, password"));
}

TEST_CASE("batch manifest: errors name the line", "[batch]") {
    auto bad = [](const std::string& text) { return parse_manifest(text, "m.jsonl", Mode::Stamp, Shard{}); };
    const std::string ok = "{\"input\":\"a.pdf\",\"record\":\"r\",\"output\":\"o.pdf\"}\n";
    CHECK_THROWS_WITH(bad(ok + "{\"input\":\n"), Catch::StartsWith("m.jsonl:2"));
    CHECK_THROWS_WITH(bad(ok + ok), Catch::Contains("m.jsonl:2") && Catch::Contains("also the output of line 1"));
    CHECK_THROWS_WITH(bad(ok + "{\"input\":\"b\",\"record\":\"r\",\"output\":\"p\",\"colour\":1}\n"),
                      Catch::Contains("m.jsonl:2") && Catch::Contains("unknown key \"colour\""));
    CHECK_THROWS_WITH(bad("\n\n{\"input\":\"b\",\"record\":\"r\"}\n"), Catch::Contains("m.jsonl:3") && Catch::Contains("\"output\""));
    CHECK_THROWS_WITH(bad("{\"input\":\"b\",\"output\":\"p\"}\n"), Catch::Contains("\"record\" is missing"));
    CHECK_THROWS_WITH(bad("{\"input\":\"b\",\"record\":\"r\",\"output\":\"p\",\"page\":0}"), Catch::Contains("\"page\""));
    CHECK_THROWS_WITH(bad("{\"input\":\"b\",\"record\":\"r\",\"output\":\"p\",\"corner\":\"middle\"}"), Catch::Contains("unknown corner"));
    CHECK_THROWS_WITH(bad("{\"input\":\"b\",\"record\":\"r\",\"output\":\"p\",\"qr\":\"yes\"}"), Catch::Contains("true or false"));
    CHECK_THROWS_WITH(bad("[1,2]"), Catch::Contains("m.jsonl:1") && Catch::Contains("JSON object"));
    CHECK_THROWS_WITH(bad("not json"), Catch::StartsWith("m.jsonl:1"));
    CHECK_THROWS_WITH(parse_manifest("{\"input\":\"a\"}", "-", Mode::Stamp, Shard{}), Catch::StartsWith("standard input:1"));
}

TEST_CASE("batch shards are disjoint, complete and independent of order", "[batch]") {
    CHECK_THROWS_AS(parse_shard("4/4"), Error);
    CHECK_THROWS_AS(parse_shard("1/0"), Error);
    CHECK_THROWS_AS(parse_shard("x/3"), Error);
    CHECK_THROWS_AS(parse_shard("1"), Error);
    CHECK(parse_shard("2/7").index == 2);
    CHECK(parse_shard("2/7").count == 7);
    CHECK(fnv1a64("") == 14695981039346656037ull);
    CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);  // the published FNV-1a 64 test vector

    std::string forward, backward;
    std::vector<std::string> lines;
    for (int i = 0; i < 500; ++i)
        lines.push_back("{\"input\":\"in/" + std::to_string(i) + ".pdf\",\"record\":\"r\",\"output\":\"o/" + std::to_string(i) + ".pdf\"}\n");
    for (const auto& l : lines) forward += l;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) backward += *it;
    for (std::uint64_t n : {1u, 2u, 3u, 7u}) {
        std::set<std::string> all;
        for (std::uint64_t i = 0; i < n; ++i) {
            auto inputs = [&](const std::string& text) {
                Manifest m = parse_manifest(text, "m", Mode::Stamp, Shard{i, n});
                std::set<std::string> s;
                for (const auto& j : m.jobs) s.insert(parse_entry(std::string_view(m.text.data() + j.offset, j.length), j.line, "m", Mode::Stamp).input);
                return s;
            };
            auto f = inputs(forward);
            CHECK(f == inputs(backward));
            for (const auto& x : f) CHECK(all.insert(x).second);  // disjoint
        }
        CHECK(all.size() == 500);  // complete
    }
}

TEST_CASE("batch removes only the temporaries of the given output", "[batch]") {
    std::string t = (fs::temp_directory_path() / "pith-batch-XXXXXX").string();
    fs::path dir = ::mkdtemp(t.data());
    for (const char* name : {".a.pdf.pith-Ab12Cd", "a.pdf.pith-tmp-Xy34Zw", ".b.pdf.pith-Ab12Cd", "a.pdf", ".a.pdf.pith-toolong"})
        std::ofstream(dir / name) << "x";
    CHECK(remove_temporaries((dir / "a.pdf").string()) == 2);
    CHECK(fs::exists(dir / ".b.pdf.pith-Ab12Cd"));
    CHECK(fs::exists(dir / "a.pdf"));
    CHECK(fs::exists(dir / ".a.pdf.pith-toolong"));
    CHECK(!fs::exists(dir / ".a.pdf.pith-Ab12Cd"));
    fs::remove_all(dir);
}
