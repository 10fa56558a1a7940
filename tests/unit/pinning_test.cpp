// SPDX-License-Identifier: MIT
// Key pinning for `pith keys add` (src/registry/pinning): what pins a key's fingerprint, and that
// a key enters the keyring only with the pinned fingerprint, once per key id.
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/keys.hpp"
#include "registry/pinning.hpp"

#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

using namespace pith;
using namespace pith::registry;
namespace fs = std::filesystem;

namespace {

// The code of the pith::Error `f` throws; "" when it throws none.
template <typename F>
std::string error_code(F f) {
    try {
        f();
    } catch (const Error& e) {
        return e.code();
    }
    return "";
}

// A cached record (seed 000, which recomputes) whose receipt names `key_id` and `fingerprint`;
// `edit` breaks the record so that it no longer recomputes.
void cache_record(const TempDir& dir, const std::string& name, const std::string& key_id, const std::string& fingerprint, bool edit = false) {
    Json doc = parse_json(read_file_or_stdin(std::string(PITH_SOURCE_DIR) + "/tests/vectors/seed-000-pith_number_record.json"), "seed");
    doc["receipt"]["key_id"] = key_id;
    doc["receipt"]["public_key_fingerprint"] = fingerprint;
    if (edit) doc["canonical_record"]["metadata"]["license"] = "other";
    fs::create_directories(dir.path / "records");
    write_file_atomically((dir.path / "records" / name).string(), {doc.dump()});
}

}  // namespace

TEST_CASE("pinning: --fingerprint pins, lower-cased, without reading the cache") {
    const Pin pin = pin_key("k", "8D4B5EE74E4693BCD1DF2446408B0D54", []() -> std::string { throw Error("cache read", err::internal_error); });
    CHECK(pin.fingerprint == "8d4b5ee74e4693bcd1df2446408b0d54");
    CHECK(pin.by == "--fingerprint");
}

TEST_CASE("pinning: without --fingerprint, the one fingerprint the cached receipts give for the key") {
    TempDir dir;
    auto cache = [&] { return dir.path.string(); };
    CHECK(error_code([&] { pin_key("k", "", cache); }) == err::options_invalid);  // no cache at all
    cache_record(dir, "other-key.json", "other", "11111111111111111111111111111111");
    cache_record(dir, "edited.json", "k", "22222222222222222222222222222222", true);  // does not recompute
    CHECK(error_code([&] { pin_key("k", "", cache); }) == err::options_invalid);      // neither counts
    cache_record(dir, "a.json", "k", "8D4B5EE74E4693BCD1DF2446408B0D54");
    cache_record(dir, "b.json", "k", "8D4B5EE74E4693BCD1DF2446408B0D54");  // the same again
    const Pin pin = pin_key("k", "", cache);
    CHECK(pin.fingerprint == "8d4b5ee74e4693bcd1df2446408b0d54");
    CHECK(pin.by == "the cached receipts");
    cache_record(dir, "c.json", "k", "33333333333333333333333333333333");  // receipts that disagree pin nothing
    CHECK_THROWS_WITH(pin_key("k", "", cache), Catch::Contains("name 2 fingerprints for k"));
}

TEST_CASE("pinning: a key enters the keyring only with the pinned fingerprint, and a key id only once") {
    TempDir dir;
    const std::string ring = (dir.path / "config" / "pith" / "keyring.json").string();  // its folder is created
    const KeyPair key = generate_keypair(), other = generate_keypair();
    const Pin pinned{key_fingerprint(key.public_key), "--fingerprint"};

    // A key whose fingerprint is not the pinned one is refused, and nothing is written.
    CHECK(error_code([&] { add_pinned_key(ring, "k", other.public_key, pinned, "k.pem"); }) == err::registry_refused);
    CHECK_THROWS_WITH(add_pinned_key(ring, "k", other.public_key, pinned, "k.pem"),
                      Catch::Contains("k.pem: key fingerprint " + key_fingerprint(other.public_key) + " does not match " +
                                      pinned.fingerprint + " (pinned by --fingerprint); not added"));
    CHECK(!file_exists(ring));

    // The first key for an id, with the pinned fingerprint, enters.
    const Added added = add_pinned_key(ring, "k", key.public_key, pinned, "k.pem");
    CHECK(added.fingerprint == pinned.fingerprint);
    CHECK(added.ring == ring);
    Keyring loaded = Keyring::load({ring});
    REQUIRE(loaded.keys.size() == 1);
    CHECK((loaded.keys[0].key_id == "k" && loaded.keys[0].fingerprint == pinned.fingerprint));

    // The id is pinned now: neither the same key again nor another one (pinned by its own
    // fingerprint) replaces or joins it.
    CHECK(error_code([&] { add_pinned_key(ring, "k", key.public_key, pinned, "k.pem"); }) == err::keyring_duplicate_id);
    const Pin other_pin{key_fingerprint(other.public_key), "--fingerprint"};
    CHECK(error_code([&] { add_pinned_key(ring, "k", other.public_key, other_pin, "k2.pem"); }) == err::keyring_duplicate_id);
    CHECK(Keyring::load({ring}).keys.size() == 1);
    // Another id is another pin.
    add_pinned_key(ring, "k2", other.public_key, other_pin, "k2.pem");
    CHECK(Keyring::load({ring}).keys.size() == 2);
}
