// SPDX-License-Identifier: MIT
#pragma once
// Pith registry documents: what they state, and what pith recomputes from them.
#include "core/crypto.hpp"
#include "core/json.hpp"
#include "core/number.hpp"

#include <optional>
#include <string>

namespace pith {

enum class RecordKind {
    NumberRecord,     // "record_type": "pith_number_record" (registry JSON)
    GraphState,       // "state_type": "pith_open_graph_state" (merged bundle state)
    LinkedData,       // the registry's application/ld+json answer wrapping canonical_record
    CanonicalRecord,  // a bare canonical_record object
};
const char* to_string(RecordKind kind);

struct Receipt {
    std::string key_id;
    std::string algorithm;
    std::string signature_b64;
    std::string fingerprint;        // public_key_fingerprint, may be empty
    std::string signed_at;          // may be empty
    std::string canonical_sha256;   // the hash the receipt claims to sign, may be empty
    std::string signed_message;     // "canonical_sha256_bytes"
};

struct Record {
    RecordKind kind;
    std::string source;        // file name, or "-" for standard input
    Json document;             // the whole document as read
    Json canonical_record;
    std::string canonical_bytes;  // canonical JSON of canonical_record
    Sha256 canonical_hash{};      // recomputed
    PithNumber number;            // derived from canonical_hash and metadata.submitted_at

    // What the document states (absent when it does not say).
    std::optional<std::string> stated_hash;
    std::optional<std::string> stated_number;
    std::optional<std::string> stated_state_sha256;
    std::optional<std::string> recomputed_state_sha256;
    std::optional<Receipt> receipt;
    std::optional<std::string> title;  // paper.title where the document carries it
    std::optional<std::string> title_hash;  // metadata.title_canon_sha256

    bool hash_matches() const { return !stated_hash || *stated_hash == to_hex(canonical_hash); }
    bool number_matches() const { return !stated_number || *stated_number == number.full(); }
    bool state_matches() const { return !stated_state_sha256 || stated_state_sha256 == recomputed_state_sha256; }
    bool title_matches() const;  // true when there is no title or no title hash to compare
    bool consistent() const { return hash_matches() && number_matches() && state_matches() && title_matches(); }
};

// Reads any of the four shapes; throws pith::Error naming the source and the problem.
Record read_record(std::string_view text, const std::string& source);
// `path` may be "-" for standard input.
Record load_record(const std::string& path);

// The record a receipt was issued for, as a pith_number_record with `receipt` set.
Json with_receipt(const Record& record, const Json& receipt);

}  // namespace pith
