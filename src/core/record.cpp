// SPDX-License-Identifier: MIT
#include "core/record.hpp"

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/unicode.hpp"


namespace pith {
namespace {

std::optional<std::string> string_at(const Json& object, const Json::json_pointer& pointer) {
    if (!object.contains(pointer)) return std::nullopt;
    const Json& v = object.at(pointer);
    if (!v.is_string()) return std::nullopt;
    return v.get<std::string>();
}

Receipt read_receipt(const Json& r, const std::string& source) {
    if (!r.is_object()) throw Error(source + ": receipt is not an object", err::record_invalid);
    auto field = [&](const char* name) { return r.contains(name) && r[name].is_string() ? r[name].get<std::string>() : std::string(); };
    return Receipt{field("key_id"), field("algorithm"), field("signature_b64"), field("public_key_fingerprint"),
                   field("signed_at"), field("canonical_sha256"), field("signed_message")};
}

}  // namespace

const char* to_string(RecordKind kind) {
    switch (kind) {
        case RecordKind::NumberRecord: return "pith_number_record";
        case RecordKind::GraphState: return "pith_open_graph_state";
        case RecordKind::LinkedData: return "linked_data";
        case RecordKind::CanonicalRecord: return "canonical_record";
    }
    return "?";
}

bool Record::title_matches() const { return !title || !title_hash || pith::title_hash(*title) == *title_hash; }

Record read_record(std::string_view text, const std::string& source) {
    Record r;
    r.source = source;
    r.document = parse_json(text, source);
    const Json& doc = r.document;
    if (!doc.is_object()) throw Error(source + ": not a Pith record: the top level is not a JSON object", err::record_invalid);

    if (doc.value("record_type", "") == "pith_number_record") {
        r.kind = RecordKind::NumberRecord;
        r.canonical_record = doc.value("canonical_record", Json());
        r.stated_hash = string_at(doc, "/canonical_sha256"_json_pointer);
        r.stated_number = string_at(doc, "/pith_number"_json_pointer);
        if (doc.contains("receipt") && !doc["receipt"].is_null()) r.receipt = read_receipt(doc["receipt"], source);
        r.title = string_at(doc, "/paper/title"_json_pointer);
    } else if (doc.value("state_type", "") == "pith_open_graph_state") {
        r.kind = RecordKind::GraphState;
        if (!doc.contains("current") || !doc["current"].is_object())
            throw Error(source + ": pith_open_graph_state without a \"current\" object", err::record_invalid);
        r.canonical_record = doc["current"].value("canonical_record", Json());
        r.stated_number = string_at(doc, "/pith_number"_json_pointer);
        r.stated_state_sha256 = string_at(doc, "/state_sha256"_json_pointer);
        Json without = doc;
        without.erase("state_sha256");
        r.recomputed_state_sha256 = to_hex(sha256(canonical_json(without)));
        const auto created = "/current/record_created/payload"_json_pointer;
        if (doc.contains(created)) {
            const Json& payload = doc.at(created);
            r.stated_hash = string_at(payload, "/canonical_sha256"_json_pointer);
            if (payload.contains("receipt") && !payload["receipt"].is_null())
                r.receipt = read_receipt(payload["receipt"], source);
        }
        for (const auto& snapshot : doc["current"].value("graph_snapshots", Json::array()))
            if (auto title = string_at(snapshot, "/payload/graph_snapshot/paper/title"_json_pointer)) r.title = title;
    } else if (doc.contains("canonical_record")) {
        r.kind = RecordKind::LinkedData;
        r.canonical_record = doc["canonical_record"];
        r.stated_hash = string_at(doc, "/canonical_sha256"_json_pointer);
        r.stated_number = string_at(doc, "/pith_number"_json_pointer);
        if (doc.contains("receipt") && doc["receipt"].is_object()) r.receipt = read_receipt(doc["receipt"], source);
        r.title = string_at(doc, "/paper/title"_json_pointer);
        if (!r.title) r.title = string_at(doc, "/name"_json_pointer);
    } else if (doc.contains("metadata") && doc.contains("source")) {
        r.kind = RecordKind::CanonicalRecord;
        r.canonical_record = doc;
    } else {
        throw Error(source +
                    ": not a Pith record: expected a pith_number_record, a pith_open_graph_state, a document with "
                    "\"canonical_record\", or a canonical record with \"metadata\" and \"source\"", err::record_invalid);
    }

    if (!r.canonical_record.is_object()) throw Error(source + ": canonical_record is missing or not an object", err::record_invalid);
    auto submitted = string_at(r.canonical_record, "/metadata/submitted_at"_json_pointer);
    if (!submitted) throw Error(source + ": canonical_record has no metadata.submitted_at, so it has no Pith number year", err::record_invalid);
    r.canonical_bytes = canonical_json(r.canonical_record);
    r.canonical_hash = sha256(r.canonical_bytes);
    r.number = number_from_hash(r.canonical_hash, year_of_timestamp(*submitted));
    r.title_hash = string_at(r.canonical_record, "/metadata/title_canon_sha256"_json_pointer);
    return r;
}

Record load_record(const std::string& path) { return read_record(read_file_or_stdin(path), path); }

Json with_receipt(const Record& record, const Json& receipt) {
    Json out;
    if (record.kind == RecordKind::NumberRecord) {
        out = record.document;
    } else {
        out = Json::object();
        out["record_type"] = "pith_number_record";
        out["schema_version"] = "1.0";
        out["canonical_record"] = record.canonical_record;
        if (record.title) out["paper"] = Json{{"title", *record.title}};
    }
    out["pith_number"] = record.number.full();
    out["short_pith_number"] = record.number.short_form();
    out["canonical_sha256"] = to_hex(record.canonical_hash);
    out["receipt"] = receipt;
    return out;
}

}  // namespace pith
