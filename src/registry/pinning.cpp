// SPDX-License-Identifier: MIT
#include "registry/pinning.hpp"

#include "core/error.hpp"
#include "core/keys.hpp"
#include "core/record.hpp"

#include <cctype>
#include <filesystem>
#include <set>

namespace pith::registry {

namespace {

// The fingerprints that cached receipts give for `key_id` (the receipts come from records that recompute).
std::set<std::string> receipt_fingerprints(const std::string& key_id, const std::string& cache_dir) {
    std::set<std::string> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(cache_dir + "/records", ec)) {
        try {
            Record r = load_record(entry.path().string());
            if (r.consistent() && r.receipt && r.receipt->key_id == key_id && !r.receipt->fingerprint.empty())
                found.insert(r.receipt->fingerprint);
        } catch (const Error&) {
        }
    }
    return found;
}

}  // namespace

Pin pin_key(const std::string& key_id, const std::string& fingerprint, const std::function<std::string()>& cache_dir) {
    Pin pin{fingerprint, "--fingerprint"};
    if (pin.fingerprint.empty()) {
        auto found = receipt_fingerprints(key_id, cache_dir());
        if (found.empty())
            throw Error("no fingerprint to pin " + key_id + " to: pass --fingerprint HEX, or first `pith fetch` a record signed by it", err::options_invalid);
        if (found.size() > 1) throw Error("cached receipts name " + std::to_string(found.size()) + " fingerprints for " + key_id + "; pass --fingerprint HEX", err::options_invalid);
        pin = {*found.begin(), "the cached receipts"};
    }
    for (auto& ch : pin.fingerprint) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return pin;
}

Added add_pinned_key(const std::string& ring, const std::string& key_id, const PublicKey& key, const Pin& pin,
                     const std::string& source) {
    const std::string actual = key_fingerprint(key);
    if (actual != pin.fingerprint)
        throw Error(source + ": key fingerprint " + actual + " does not match " + pin.fingerprint + " (pinned by " + pin.by +
                    "); not added", err::registry_refused);
    Added added{actual, ring.empty() ? default_keyring_file() : ring};
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(added.ring).parent_path(), ec);
    add_key_to_keyring_file(added.ring, key_id, key);
    return added;
}

}  // namespace pith::registry
