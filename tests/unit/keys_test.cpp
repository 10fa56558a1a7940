// SPDX-License-Identifier: MIT
// Receipts and keyrings: every outcome, and tampering of each byte.
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/findings.hpp"
#include "core/keys.hpp"
#include "core/record.hpp"

#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>

using namespace pith;
namespace fs = std::filesystem;

namespace {

Record seed() { return load_record(std::string(PITH_SOURCE_DIR) + "/tests/vectors/seed-002-open_graph_state.json"); }

Keyring keyring_of(const Json& doc, const TempDir& dir) {
    std::string path = dir / "ring.json";
    write_file_atomically(path, {doc.dump()});
    Keyring ring;
    ring.add_file(path);
    return ring;
}

}  // namespace

TEST_CASE("seed receipts are 'key unknown' without the registry key", "[keys][seeds]") {
    Keyring empty;
    for (const char* name : {"seed-000-pith_number_record.json", "seed-002-open_graph_state.json", "seed-004-pith_number_record.json"}) {
        Record r = load_record(std::string(PITH_SOURCE_DIR) + "/tests/vectors/" + name);
        ReceiptCheck c = check_receipt(r.receipt, r.canonical_hash, empty);
        CHECK(c.status == ReceiptStatus::KeyUnknown);
        CHECK(c.explanation.rfind("not checked: key unknown: pith-v1-2026-05 (not in the keys you trust: ", 0) == 0);
        CHECK(c.explanation.find("`pith keys add KEY-FILE-OR-URL --key-id pith-v1-2026-05 --fingerprint FP`") != std::string::npos);
    }
}

TEST_CASE("a receipt from keygen + sign verifies, and every tampered byte breaks it", "[keys]") {
    TempDir dir;
    KeyPair pair = generate_keypair();
    SecretKeyFile key{"test-2026", pair.secret_key};
    write_secret_key_file(dir / "test.key", key);
    add_key_to_keyring_file(dir / "ring.json", "test-2026", pair.public_key);

    struct stat st;
    REQUIRE(::stat((dir / "test.key").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK_THROWS_WITH(write_secret_key_file(dir / "test.key", key), Catch::Contains("already exists"));
    CHECK_THROWS_WITH(add_key_to_keyring_file(dir / "ring.json", "test-2026", pair.public_key), Catch::Contains("already holds"));
    CHECK(read_secret_key_file(dir / "test.key").secret_key == pair.secret_key);

    Record record = seed();
    Json signed_doc = with_receipt(record, make_receipt(record.canonical_hash, key, "2026-11-30T00:00:00Z"));
    Record signed_record = read_record(canonical_json(signed_doc), "signed");
    CHECK(signed_record.kind == RecordKind::NumberRecord);
    CHECK(signed_record.number == record.number);
    CHECK(signed_record.consistent());

    Keyring ring;
    ring.add_file(dir / "ring.json");
    REQUIRE(ring.keys.size() == 1);
    CHECK(ring.keys[0].fingerprint == key_fingerprint(pair.public_key));
    CHECK(check_receipt(signed_record.receipt, signed_record.canonical_hash, ring).status == ReceiptStatus::Valid);
    CHECK(check_receipt(signed_record.receipt, signed_record.canonical_hash, Keyring{}).status == ReceiptStatus::KeyUnknown);

    SECTION("any one-byte change to the canonical record") {
        const std::string bytes = signed_record.canonical_bytes;
        int checked = 0;
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            std::string changed = bytes;
            changed[i] = static_cast<char>(changed[i] ^ 0x01);
            try {
                Sha256 h = sha256(canonical_json(parse_json(changed, "x")));
                CHECK(check_receipt(signed_record.receipt, h, ring).status != ReceiptStatus::Valid);
                ++checked;
            } catch (const Error&) {
                ++checked;  // no longer JSON: nothing to be valid
            }
        }
        CHECK(checked == static_cast<int>(bytes.size()));
    }
    SECTION("any one-byte change to the signature") {
        auto raw = *base64_decode(signed_record.receipt->signature_b64, 64);
        for (std::size_t i = 0; i < raw.size(); ++i) {
            std::string changed = raw;
            changed[i] = static_cast<char>(changed[i] ^ 0x80);
            Receipt r = *signed_record.receipt;
            r.signature_b64 = base64(reinterpret_cast<const unsigned char*>(changed.data()), changed.size());
            CHECK(check_receipt(r, signed_record.canonical_hash, ring).status == ReceiptStatus::Invalid);
        }
    }
    SECTION("any one-byte change to the key") {
        for (std::size_t i = 0; i < pair.public_key.size(); ++i) {
            PublicKey changed = pair.public_key;
            changed[i] ^= 0x01;
            // With its fingerprint stated, the keyring refuses the changed key outright ...
            Keyring stated = keyring_of({{"keys", {{{"key_id", "test-2026"}, {"algorithm", "ed25519"},
                                                    {"public_key", base64(changed.data(), 32)},
                                                    {"fingerprint", key_fingerprint(pair.public_key)}}}}}, dir);
            CHECK(stated.keys.empty());
            CHECK(stated.warnings.size() == 1);
            CHECK(check_receipt(signed_record.receipt, signed_record.canonical_hash, stated).status == ReceiptStatus::KeyUnknown);
            // ... and without it, the receipt's fingerprint no longer names it, so it is not valid either.
            Keyring bare = keyring_of({{"keys", {{{"key_id", "test-2026"}, {"algorithm", "ed25519"},
                                                  {"public_key", base64(changed.data(), 32)}}}}}, dir);
            CHECK(check_receipt(signed_record.receipt, signed_record.canonical_hash, bare).status != ReceiptStatus::Valid);
            Receipt no_fingerprint = *signed_record.receipt;
            no_fingerprint.fingerprint.clear();
            CHECK(check_receipt(no_fingerprint, signed_record.canonical_hash, bare).status == ReceiptStatus::Invalid);
        }
    }
}

TEST_CASE("revoked keys, validity windows and malformed receipts have their own outcomes", "[keys]") {
    TempDir dir;
    KeyPair pair = generate_keypair();
    SecretKeyFile key{"k1", pair.secret_key};
    Record record = seed();
    Receipt receipt = *read_record(canonical_json(with_receipt(record, make_receipt(record.canonical_hash, key, "2026-06-01T12:00:00Z"))), "s").receipt;
    Json entry = {{"key_id", "k1"}, {"algorithm", "ed25519"}, {"public_key", base64(pair.public_key.data(), 32)}};

    auto status_with = [&](const Json& extra) {
        Json e = entry;
        e.update(extra);
        return check_receipt(receipt, record.canonical_hash, keyring_of({{"keys", {e}}}, dir)).status;
    };
    CHECK(status_with(Json::object()) == ReceiptStatus::Valid);
    CHECK(status_with({{"revoked", true}}) == ReceiptStatus::KeyRevoked);
    CHECK(status_with({{"revoked", "2026-07-01T00:00:00Z"}}) == ReceiptStatus::KeyRevoked);
    CHECK(status_with({{"revoked", false}}) == ReceiptStatus::Valid);
    CHECK(status_with({{"not_before", "2026-01-01T00:00:00Z"}, {"not_after", "2026-12-31T23:59:59Z"}}) == ReceiptStatus::Valid);
    CHECK(status_with({{"not_before", "2026-07-01T00:00:00Z"}}) == ReceiptStatus::KeyOutsideValidity);
    CHECK(status_with({{"not_after", "2026-05-31T23:59:59+02:00"}}) == ReceiptStatus::KeyOutsideValidity);

    Receipt bad = receipt;
    bad.signature_b64 = "not base64!";
    CHECK(check_receipt(bad, record.canonical_hash, Keyring{}).status == ReceiptStatus::Malformed);
    bad.signature_b64 = base64(pair.public_key.data(), 32);  // valid base64, wrong length
    CHECK(check_receipt(bad, record.canonical_hash, Keyring{}).status == ReceiptStatus::Malformed);
    bad = receipt;
    bad.algorithm = "rsa";
    CHECK(check_receipt(bad, record.canonical_hash, Keyring{}).status == ReceiptStatus::Malformed);
    CHECK(check_receipt(std::nullopt, record.canonical_hash, Keyring{}).status == ReceiptStatus::Absent);

    Keyring broken;
    write_file_atomically(dir / "broken.json", {"{\"keys\": [{\"key_id\": \"x\", \"algorithm\": \"ed25519\", \"public_key\": \"QQ==\"}]}"});
    broken.add_file(dir / "broken.json");
    CHECK(broken.keys.empty());
    CHECK_THAT(broken.warnings.at(0), Catch::Contains("base64 of 32 bytes"));
    write_file_atomically(dir / "notring.json", {"[]"});
    CHECK_THROWS_WITH(broken.add_file(dir / "notring.json"), Catch::Contains("not a pith keyring"));
}

TEST_CASE("the keyring comes from --keyring, then $PITH_KEYRING, then the default files", "[keys]") {
    TempDir dir;
    KeyPair a = generate_keypair(), b = generate_keypair();
    add_key_to_keyring_file(dir / "a.json", "a", a.public_key);
    add_key_to_keyring_file(dir / "b.json", "b", b.public_key);
    ::setenv("PITH_KEYRING", (dir / "b.json").c_str(), 1);
    CHECK(Keyring::load({dir / "a.json"}).keys.at(0).key_id == "a");
    CHECK(Keyring::load({}).keys.at(0).key_id == "b");
    ::unsetenv("PITH_KEYRING");
    ::setenv("XDG_CONFIG_HOME", dir.path.c_str(), 1);
    fs::create_directories(dir.path / "pith");
    fs::copy_file(dir / "a.json", dir.path / "pith" / "keyring.json");
    Keyring defaults = Keyring::load({});
    ::unsetenv("XDG_CONFIG_HOME");
    REQUIRE(!defaults.keys.empty());
    CHECK(defaults.keys.at(0).key_id == "a");
}
