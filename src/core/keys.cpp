// SPDX-License-Identifier: MIT
#include "core/keys.hpp"

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/paths.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace pith {
namespace {

std::string string_field(const Json& entry, const char* name) {
    if (!entry.contains(name) || entry[name].is_null()) return {};
    if (!entry[name].is_string()) throw Error(std::string("\"") + name + "\" is not a string", err::keyring_invalid);
    return entry[name].get<std::string>();
}

}  // namespace

void Keyring::add_file(const std::string& path) {
    Json doc = parse_json(read_file_or_stdin(path, 16u << 20), path);
    if (!doc.is_object() || !doc.contains("keys") || !doc["keys"].is_array())
        throw Error(path + ": not a pith keyring: expected an object with a \"keys\" array", err::keyring_invalid);
    files.push_back(path);
    for (std::size_t i = 0; i < doc["keys"].size(); ++i) {
        const Json& entry = doc["keys"][i];
        std::string where = path + ": keys[" + std::to_string(i) + "]";
        try {
            if (!entry.is_object()) throw Error("not an object", err::keyring_invalid);
            TrustedKey key;
            key.key_id = string_field(entry, "key_id");
            if (key.key_id.empty()) throw Error("no key_id", err::keyring_invalid);
            where += " (" + key.key_id + ")";
            std::string algorithm = string_field(entry, "algorithm");
            if (algorithm != "ed25519") throw Error("algorithm \"" + algorithm + "\" is not ed25519", err::keyring_invalid);
            auto raw = base64_decode(string_field(entry, "public_key"), key.public_key.size());
            if (!raw) throw Error("public_key is not the base64 of 32 bytes", err::keyring_invalid);
            std::memcpy(key.public_key.data(), raw->data(), raw->size());
            key.fingerprint = key_fingerprint(key.public_key);
            std::string stated = string_field(entry, "fingerprint");
            if (!stated.empty() && stated != key.fingerprint)
                throw Error("fingerprint " + stated + " does not match the public key (" + key.fingerprint + ")", err::keyring_invalid);
            key.not_before = string_field(entry, "not_before");
            key.not_after = string_field(entry, "not_after");
            for (const auto* bound : {&key.not_before, &key.not_after})
                if (!bound->empty() && !parse_rfc3339(*bound)) throw Error("\"" + *bound + "\" is not an RFC 3339 time", err::keyring_invalid);
            if (entry.contains("revoked")) {
                const Json& revoked = entry["revoked"];
                if (revoked.is_boolean())
                    key.revoked = revoked.get<bool>() ? "true" : "";
                else if (revoked.is_string() && parse_rfc3339(revoked.get<std::string>()))
                    key.revoked = revoked.get<std::string>();
                else if (!revoked.is_null())
                    throw Error("\"revoked\" must be true, false or an RFC 3339 time", err::keyring_invalid);
            }
            key.source = path;
            keys.push_back(std::move(key));
        } catch (const Error& e) {
            warnings.push_back(where + ": refused: " + e.what());
        }
    }
}

Keyring Keyring::load(const std::vector<std::string>& explicit_files) {
    Keyring ring;
    if (!explicit_files.empty()) {
        for (const auto& f : explicit_files) ring.add_file(f);
        return ring;
    }
    if (const auto listed = paths::list_from("PITH_KEYRING")) {
        for (const auto& f : *listed) ring.add_file(f);
        return ring;
    }
    for (const auto& f : paths::keyrings())
        if (file_exists(f)) ring.add_file(f);
    return ring;
}

void add_key_to_keyring_file(const std::string& path, const std::string& key_id, const PublicKey& key) {
    Json doc = {{"pith_keyring", 1}, {"keys", Json::array()}};
    if (file_exists(path)) {
        doc = parse_json(read_file_or_stdin(path, 16u << 20), path);
        if (!doc.is_object() || !doc.contains("keys") || !doc["keys"].is_array())
            throw Error(path + ": not a pith keyring: expected an object with a \"keys\" array", err::keyring_invalid);
        for (const auto& entry : doc["keys"])
            if (entry.is_object() && entry.value("key_id", "") == key_id)
                throw Error(path + ": already holds a key with id \"" + key_id + "\"", err::keyring_duplicate_id);
    }
    doc["keys"].push_back({{"key_id", key_id},
                           {"algorithm", "ed25519"},
                           {"public_key", base64(key.data(), key.size())},
                           {"fingerprint", key_fingerprint(key)}});
    write_file_atomically(path, {pretty_json(doc) + "\n"}, 0644);
}

void revoke_key_in_keyring_file(const std::string& path, const std::string& key_id, const std::string& since) {
    if (!since.empty() && !parse_rfc3339(since)) throw Error("\"" + since + "\" is not an RFC 3339 time", err::options_invalid);
    Json doc = parse_json(read_file_or_stdin(path, 16u << 20), path);
    if (!doc.is_object() || !doc.contains("keys") || !doc["keys"].is_array())
        throw Error(path + ": not a pith keyring: expected an object with a \"keys\" array", err::keyring_invalid);
    bool found = false;
    for (auto& entry : doc["keys"])
        if (entry.is_object() && entry.value("key_id", "") == key_id) {
            entry["revoked"] = since.empty() ? Json(true) : Json(since);
            found = true;
        }
    if (!found) throw Error(path + ": holds no key with id \"" + key_id + "\"", err::keyring_unknown_id);
    write_file_atomically(path, {pretty_json(doc) + "\n"}, 0644);
}

std::string default_keyring_file() {
    if (auto path = paths::user_keyring()) return std::move(*path);
    throw Error("no keyring file: set XDG_CONFIG_HOME or HOME, or pass --keyring", err::options_invalid);
}

PublicKey parse_public_key(std::string_view text, const std::string& source, const std::string& key_id) {
    std::string t(text);
    t.erase(0, t.find_first_not_of(" \t\r\n"));
    t.erase(t.find_last_not_of(" \t\r\n") + 1);
    std::string b64 = t;
    if (t.rfind("-----BEGIN PUBLIC KEY-----", 0) == 0) {
        auto end = t.find("-----END PUBLIC KEY-----");
        if (end == std::string::npos) throw Error(source + ": PEM without its END line", err::keyring_invalid);
        b64.clear();
        for (char c : t.substr(26, end - 26))
            if (!std::isspace(static_cast<unsigned char>(c))) b64 += c;
        static const unsigned char spki[12] = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};
        auto der = base64_decode(b64, 44);
        if (!der || std::memcmp(der->data(), spki, 12) != 0) throw Error(source + ": the PEM is not an Ed25519 public key", err::keyring_invalid);
        b64 = base64(reinterpret_cast<const unsigned char*>(der->data()) + 12, 32);
    } else if (!t.empty() && t[0] == '{') {
        Json doc = parse_json(t, source);
        const Json* entry = &doc;
        if (doc.contains("keys") && doc["keys"].is_array()) {
            entry = nullptr;
            for (const auto& k : doc["keys"])
                if (k.is_object() && k.value("key_id", "") == key_id) entry = &k;
            if (!entry) throw Error(source + ": the keyring holds no key with id \"" + key_id + "\"", err::keyring_unknown_id);
        }
        if (!entry->is_object() || !entry->contains("public_key") || !(*entry)["public_key"].is_string())
            throw Error(source + ": no \"public_key\" (standard base64 of 32 bytes)", err::keyring_invalid);
        std::string stated_id = entry->value("key_id", key_id);
        if (stated_id != key_id) throw Error(source + ": the key is \"" + stated_id + "\", not \"" + key_id + "\"", err::keyring_invalid);
        std::string algorithm = entry->value("algorithm", "ed25519");
        if (algorithm != "ed25519") throw Error(source + ": algorithm \"" + algorithm + "\" is not ed25519", err::keyring_invalid);
        b64 = (*entry)["public_key"].get<std::string>();
    }
    auto raw = base64_decode(b64, 32);
    if (!raw) throw Error(source + ": not an Ed25519 public key (expected the base64 of 32 bytes, a PEM or a JSON key)", err::keyring_invalid);
    PublicKey key;
    std::memcpy(key.data(), raw->data(), key.size());
    return key;
}

void write_secret_key_file(const std::string& path, const SecretKeyFile& key) {
    Json doc = {{"pith_secret_key", 1},
                {"key_id", key.key_id},
                {"algorithm", "ed25519"},
                {"secret_key", base64(key.secret_key.data(), key.secret_key.size())}};
    write_file_atomically(path, {pretty_json(doc) + "\n"}, 0600, true);
}

SecretKeyFile read_secret_key_file(const std::string& path) {
    Json doc = parse_json(read_file_or_stdin(path, 1u << 20), path);
    if (!doc.is_object() || doc.value("algorithm", "") != "ed25519" || !doc.contains("secret_key") || !doc["secret_key"].is_string())
        throw Error(path + ": not a pith secret key file (made by `pith keygen`)", err::keyring_invalid);
    SecretKeyFile key;
    key.key_id = doc.value("key_id", "");
    auto raw = base64_decode(doc["secret_key"].get<std::string>(), key.secret_key.size());
    if (!raw) throw Error(path + ": secret_key is not the base64 of 64 bytes", err::keyring_invalid);
    std::memcpy(key.secret_key.data(), raw->data(), raw->size());
    return key;
}

const char* to_string(ReceiptStatus status) {
    switch (status) {
        case ReceiptStatus::Valid: return "valid";
        case ReceiptStatus::Invalid: return "invalid";
        case ReceiptStatus::KeyUnknown: return "key_unknown";
        case ReceiptStatus::KeyRevoked: return "key_revoked";
        case ReceiptStatus::KeyOutsideValidity: return "key_outside_validity";
        case ReceiptStatus::Malformed: return "malformed";
        case ReceiptStatus::Absent: return "absent";
    }
    return "?";
}

namespace {
// What a reader does about an unknown key: obtain it and pin it by the fingerprint the registry
// publishes (doc/registry.md, Keys). The receipt's own fingerprint is a hint to compare, not proof.
std::string key_unknown_hint(const Receipt& r) {
    return " (not in the keys you trust: get the registry's key and pin it with `pith keys add KEY-FILE-OR-URL --key-id " +
           r.key_id + " --fingerprint FP`, FP as the registry publishes it" +
           (r.fingerprint.empty() ? std::string() : "; this receipt names " + r.fingerprint) + ")";
}
}  // namespace

ReceiptCheck check_receipt(const std::optional<Receipt>& receipt, const Sha256& canonical_hash, const Keyring& keyring,
                           const std::string& at) {
    if (!receipt) return {ReceiptStatus::Absent, "", "no receipt"};
    const Receipt& r = *receipt;
    auto result = [&](ReceiptStatus s, std::string why) { return ReceiptCheck{s, r.key_id, std::move(why)}; };
    if (r.algorithm != "ed25519") return result(ReceiptStatus::Malformed, "receipt algorithm \"" + r.algorithm + "\" is not ed25519");
    if (!r.signed_message.empty() && r.signed_message != "canonical_sha256_bytes")
        return result(ReceiptStatus::Malformed, "receipt signs \"" + r.signed_message + "\", not canonical_sha256_bytes");
    auto raw = base64_decode(r.signature_b64, 64);
    if (!raw) return result(ReceiptStatus::Malformed, "receipt signature is not the base64 of 64 bytes");
    if (!r.canonical_sha256.empty() && r.canonical_sha256 != to_hex(canonical_hash))
        return result(ReceiptStatus::Invalid, "receipt is for canonical hash " + r.canonical_sha256 + ", not this record's " + to_hex(canonical_hash));
    Signature signature;
    std::memcpy(signature.data(), raw->data(), signature.size());
    std::string_view message(reinterpret_cast<const char*>(canonical_hash.data()), canonical_hash.size());

    // The key id is only a hint: a key is a candidate when its id or its recomputed fingerprint matches.
    const TrustedKey* signer = nullptr;
    bool had_candidate = false;
    for (const auto& key : keyring.keys) {
        // A trusted key with the receipt's id but another fingerprint is still tried: if it does not
        // verify, the receipt is invalid under the key the user trusts for that id (a swapped key).
        bool named = key.key_id == r.key_id || (!r.fingerprint.empty() && key.fingerprint == r.fingerprint);
        if (!named) continue;
        had_candidate = true;
        if (verify_detached(signature, message, key.public_key)) {
            signer = &key;
            break;
        }
    }
    if (!signer) {
        for (const auto& key : keyring.keys)  // say why: the keyring holds another key under this id
            if (key.key_id == r.key_id && !r.fingerprint.empty() && key.fingerprint != r.fingerprint)
                return result(ReceiptStatus::Invalid, "the receipt's public_key_fingerprint " + r.fingerprint +
                                                          " disagrees with the keyring's key " + key.key_id + " (" +
                                                          key.fingerprint + ", from " + key.source + ")");
        if (had_candidate)
            return result(ReceiptStatus::Invalid, "signature does not verify under trusted key " + r.key_id);
        return result(ReceiptStatus::KeyUnknown, "not checked: key unknown: " + r.key_id + key_unknown_hint(r));
    }
    std::string who = "key " + signer->key_id + " (" + signer->fingerprint + ") from " + signer->source;
    if (!signer->revoked.empty())
        return result(ReceiptStatus::KeyRevoked, "signature verifies, but " + who + " is revoked" +
                                                     (signer->revoked == "true" ? "" : " since " + signer->revoked));
    if (!signer->not_before.empty() || !signer->not_after.empty()) {
        const std::string when_text = at.empty() ? r.signed_at : at;
        const std::string made = at.empty() ? "it was made at " + r.signed_at : "it is now " + at + " (the receipt's signed_at is not signed)";
        auto when = parse_rfc3339(when_text);
        if (!when) return result(ReceiptStatus::KeyOutsideValidity, "signature verifies, but the receipt has no valid signed_at to check against the validity of " + who);
        if (!signer->not_before.empty() && *when < *parse_rfc3339(signer->not_before))
            return result(ReceiptStatus::KeyOutsideValidity, "signature verifies, but " + made + ", before " + who + " became valid (" + signer->not_before + ")");
        if (!signer->not_after.empty() && *when > *parse_rfc3339(signer->not_after))
            return result(ReceiptStatus::KeyOutsideValidity, "signature verifies, but " + made + ", after " + who + " expired (" + signer->not_after + ")");
    }
    return result(ReceiptStatus::Valid, "signature valid under trusted " + who);
}

Json make_receipt(const Sha256& canonical_hash, const SecretKeyFile& key, const std::string& signed_at) {
    std::string_view message(reinterpret_cast<const char*>(canonical_hash.data()), canonical_hash.size());
    Signature sig = sign_detached(message, key.secret_key);
    return {{"kind", "pith_receipt"},
            {"algorithm", "ed25519"},
            {"key_id", key.key_id},
            {"signed_message", "canonical_sha256_bytes"},
            {"canonical_sha256", to_hex(canonical_hash)},
            {"signature_b64", base64(sig.data(), sig.size())},
            {"public_key_fingerprint", key_fingerprint(public_key_of(key.secret_key))},
            {"signed_at", signed_at}};
}

std::optional<long long> parse_rfc3339(const std::string& text) {
    int y, mo, d, h, mi, s, consumed = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &consumed) != 6 || consumed != 19)
        return std::nullopt;
    std::size_t i = 19;
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    }
    long long offset = 0;
    if (i < text.size() && (text[i] == 'Z' || text[i] == 'z')) {
        ++i;
    } else if (i + 6 == text.size() && (text[i] == '+' || text[i] == '-') && text[i + 3] == ':') {
        int oh = std::atoi(text.substr(i + 1, 2).c_str()), om = std::atoi(text.substr(i + 4, 2).c_str());
        offset = (text[i] == '+' ? 1 : -1) * (oh * 3600LL + om * 60LL);
        i += 6;
    } else {
        return std::nullopt;
    }
    if (i != text.size() || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return std::nullopt;
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = s;
    return static_cast<long long>(::timegm(&tm)) - offset;
}

// SOURCE_DATE_EPOCH, where set, makes output reproducible (reproducible-builds.org).
std::string now_rfc3339() {
    const char* fixed = std::getenv("SOURCE_DATE_EPOCH");
    std::time_t t = fixed && *fixed ? static_cast<std::time_t>(std::atoll(fixed)) : std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

}  // namespace pith
