// SPDX-License-Identifier: MIT
#include "core/findings.hpp"

#include "core/unicode.hpp"

namespace pith {

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : "; ") + s;
    return out;
}

const char* to_string(RegionKind kind) {
    switch (kind) {
        case RegionKind::Title: return "title";
        case RegionKind::Badge: return "badge";
        case RegionKind::Link: return "link";
        case RegionKind::Annotation: return "annotation";
        case RegionKind::Content: return "content";
        case RegionKind::Hidden: return "hidden";
    }
    return "";
}

const char* to_string(RegionOutcome outcome) {
    switch (outcome) {
        case RegionOutcome::Ok: return "ok";
        case RegionOutcome::Info: return "info";
        case RegionOutcome::Fail: return "fail";
    }
    return "";
}

Json Findings::to_json() const {
    auto list = [](const std::vector<Finding>& items) {
        Json out = Json::array();
        for (const auto& f : items) out.push_back({{"code", f.code.c_str()}, {"explanation", f.explanation}});
        return out;
    };
    return {{"success", list(success)}, {"informational", list(informational)}, {"failure", list(failure)}};
}

Code receipt_code(ReceiptStatus status) {
    switch (status) {
        case ReceiptStatus::Valid: return finding::receipt_valid;
        case ReceiptStatus::Invalid: return finding::receipt_invalid;
        case ReceiptStatus::KeyUnknown: return finding::receipt_key_unknown;
        case ReceiptStatus::KeyRevoked: return finding::receipt_key_revoked;
        case ReceiptStatus::KeyOutsideValidity: return finding::receipt_key_outside_validity;
        case ReceiptStatus::Malformed: return finding::receipt_malformed;
        case ReceiptStatus::Absent: return finding::receipt_absent;
    }
    return finding::receipt_malformed;
}

Findings check_record(const Record& r, const Keyring& keyring, ReceiptStatus* receipt_status) {
    Findings f;
    const std::string hash = to_hex(r.canonical_hash);
    if (!r.stated_hash)
        f.info(finding::record_hash_not_stated, "the record states no canonical_sha256; recomputed " + hash);
    else if (r.hash_matches())
        f.ok(finding::record_hash_match, "canonical_sha256 " + hash + " recomputes from the canonical record");
    else
        f.fail(finding::record_hash_mismatch, "stated canonical_sha256 " + *r.stated_hash + " differs from the recomputed " + hash);

    if (!r.stated_number)
        f.info(finding::record_number_not_stated, "the record states no Pith number; derived " + r.number.full());
    else if (r.number_matches())
        f.ok(finding::record_number_match, "Pith number " + r.number.full() + " derives from the canonical hash and year");
    else
        f.fail(finding::record_number_mismatch, "stated Pith number " + *r.stated_number + " differs from the derived " + r.number.full());

    if (r.stated_state_sha256) {
        if (r.state_matches())
            f.ok(finding::record_state_match, "state_sha256 " + *r.stated_state_sha256 + " recomputes from the bundle state");
        else
            f.fail(finding::record_state_mismatch, "stated state_sha256 " + *r.stated_state_sha256 + " differs from the recomputed " + *r.recomputed_state_sha256);
    }

    if (r.title && r.title_hash) {
        if (r.title_matches())
            f.ok(finding::record_title_match, "the paper title hashes to metadata.title_canon_sha256");
        else
            f.fail(finding::record_title_mismatch, "the paper title \"" + *r.title + "\" does not hash to metadata.title_canon_sha256 " + *r.title_hash);
    }

    ReceiptCheck receipt = check_receipt(r.receipt, r.canonical_hash, keyring);
    if (receipt_status) *receipt_status = receipt.status;
    const Code code = receipt_code(receipt.status);
    switch (receipt.status) {
        case ReceiptStatus::Valid: f.ok(code, receipt.explanation); break;
        case ReceiptStatus::KeyUnknown:
        case ReceiptStatus::Absent: f.info(code, receipt.explanation); break;
        default: f.fail(code, receipt.explanation);
    }
    return f;
}

}  // namespace pith
