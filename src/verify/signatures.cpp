// SPDX-License-Identifier: MIT
#include "verify/signatures.hpp"

#include "core/error.hpp"
#include "core/hex.hpp"
#include "pith_data/pith_data.hpp"
#include "pdf/objects.hpp"

#include <algorithm>
#include <cstring>
#include <set>

namespace pith::verify {
namespace {

using pdf::Object;

using pdf::name_of;

struct Signature {
    std::string field;            // /T
    std::uint64_t covered_end = 0;
    std::size_t revision = 0;     // 1-based revision whose %%EOF ends the covered bytes; 0: none
    std::string malformed;        // why the byte range or /Contents cannot be trusted
    sign::CmsCheck cms;
    std::string who() const { return cms.subject.empty() ? "the signer of field " + field : cms.subject; }
};

// Signature fields of the form (their kids too), with their /V signature dictionaries. Each
// field object is visited once: a /Kids loop or a field listed many times costs nothing more.
void collect(pdf::File& file, const Object* fields, const std::string& inherited_type, int depth,
             std::vector<std::pair<std::string, const Object*>>& out, std::set<std::uint32_t>& seen) {
    if (!fields || !pdf::is_array(*fields) || depth > 8) return;
    for (const auto& item : pdf::array_of(*fields)) {
        if (!pdf::is_reference(item) || !seen.insert(pdf::object_number(pdf::reference_of(item))).second ||
            seen.size() > 100000)
            continue;
        const Object& f = file.resolve(item);
        if (!pdf::is_dictionary(f)) continue;
        const Object* ft = file.get_key(pdf::dictionary_of(f), "FT");
        const std::string type = ft ? name_of(ft) : inherited_type;
        const Object* v = file.get_key(pdf::dictionary_of(f), "V");
        const Object* t = file.get_key(pdf::dictionary_of(f), "T");
        if (type == "Sig" && v && pdf::is_dictionary(*v))
            out.emplace_back(t && pdf::is_string(*t) ? pdf::text_of(t) : "(unnamed)", v);
        collect(file, file.get_key(pdf::dictionary_of(f), "Kids"), type, depth + 1, out, seen);
    }
}

// /M "D:YYYYMMDDHHmmSS[Z|+HH'mm]" as a time; nullopt if it does not read so.
std::optional<std::time_t> pdf_date(const std::string& s) {
    std::size_t at = s.rfind("D:", 0) == 0 ? 2 : 0;
    if (s.size() < at + 14 || s.find_first_not_of("0123456789", at) < at + 14) return std::nullopt;
    auto num = [&](std::size_t from, std::size_t n) { return std::stoi(s.substr(from, n)); };
    std::tm tm{};
    tm.tm_year = num(at, 4) - 1900;
    tm.tm_mon = num(at + 4, 2) - 1;
    tm.tm_mday = num(at + 6, 2);
    tm.tm_hour = num(at + 8, 2);
    tm.tm_min = num(at + 10, 2);
    tm.tm_sec = num(at + 12, 2);
    std::time_t t = timegm(&tm);
    const std::size_t z = at + 14;
    if (z + 3 <= s.size() && (s[z] == '+' || s[z] == '-') && std::isdigit(static_cast<unsigned char>(s[z + 1]))) {
        int offset = num(z + 1, 2) * 3600;
        if (z + 6 <= s.size() && s[z + 3] == '\'' && std::isdigit(static_cast<unsigned char>(s[z + 4]))) offset += num(z + 4, 2) * 60;
        t -= s[z] == '+' ? offset : -offset;
    }
    return t;
}

// The byte range: four direct integers from 0, the gap exactly the hex string /Contents, inside
// the file; then the CMS over the ranges.
Signature read_signature(pdf::File& file, const std::string& field, const Object& sig, const std::vector<pdf::Revision>& revisions,
                         const sign::Anchors& anchors) {
    Signature s;
    s.field = field;
    const std::string_view bytes = file.bytes();
    // A signature whose ranges cannot be trusted still names its signer, from /Contents.
    auto name_signer = [&] {
        const Object* c = pdf::find(sig, "Contents");
        if (!c || !pdf::is_string(*c)) return;
        const std::string der = pdf::string_bytes(*c);
        s.cms = sign::inspect(der, {}, anchors, std::nullopt);
        s.cms.valid = false;
    };
    const Object* range = pdf::find(sig, "ByteRange");
    std::uint64_t v[4] = {0, 0, 0, 0};
    bool ok = range && pdf::is_array(*range) && pdf::array_of(*range).size() == 4;
    for (int i = 0; ok && i < 4; ++i) {
        const Object& n = pdf::array_of(*range)[i];
        ok = pdf::is_integer(n) && pdf::integer_of(n) >= 0;
        if (ok) v[i] = static_cast<std::uint64_t>(pdf::integer_of(n));
    }
    if (!ok || v[0] != 0 || v[1] + 2 > v[2] || v[2] > bytes.size() || v[3] > bytes.size() - v[2]) {
        s.malformed = "its /ByteRange is not four integers from 0 with a gap inside the file";
        name_signer();
        return s;
    }
    s.covered_end = v[2] + v[3];
    for (std::size_t i = 0; i < revisions.size(); ++i)
        if (s.covered_end >= revisions[i].eof_end && s.covered_end <= revisions[i].end) s.revision = i + 1;
    const std::string_view gap = bytes.substr(v[1], v[2] - v[1]);
    std::string der;
    ok = gap.size() % 2 == 0 && gap.front() == '<' && gap.back() == '>' &&
         decode_hex(gap.substr(1, gap.size() - 2), der, NonHex::Reject);
    // The gap must be this dictionary's /Contents, not some other hex string left unsigned.
    const Object* contents = pdf::find(sig, "Contents");
    ok = ok && contents && pdf::is_hex_string(*contents) && pdf::string_bytes(*contents) == der;
    if (!ok) {
        s.malformed = "the gap in its /ByteRange is not exactly the hex string /Contents";
        name_signer();
        return s;
    }
    const Object* m = pdf::find(sig, "M");
    std::optional<std::time_t> claimed;
    if (m && pdf::is_string(*m)) claimed = pdf_date(pdf::text_of(m));
    s.cms = sign::inspect(der, {bytes.substr(0, v[1]), bytes.substr(v[2], v[3])}, anchors, claimed);
    return s;
}

// Revision `index` (1-based) opens with pith stamp's marker: it is a pith update.
bool is_pith_revision(std::string_view bytes, const std::vector<pdf::Revision>& revisions, std::size_t index) {
    if (index < 2 || index > revisions.size()) return false;
    const std::size_t from = revisions[index - 2].end;
    const std::size_t to = std::min<std::size_t>(from + 64, bytes.size());
    return from < to &&
           bytes.substr(from, to - from).find(pith_data::kUpdateMarker + " prior=") != std::string_view::npos;
}

// What the signature says of its signer, for the findings: empty when the signer is trusted.
std::vector<std::string> signer_doubts(const Signature& s, Findings& f) {
    std::vector<std::string> doubts;
    const auto& c = s.cms;
    if (c.chain == sign::CmsCheck::Chain::NoAnchors) {
        doubts.push_back("no trust anchors given (--trust CAS.pem)");
        f.info(finding::signature_no_anchors, "the certificate of " + c.subject + " was not checked against trust anchors: none given (--trust)");
    } else if (c.chain == sign::CmsCheck::Chain::Untrusted) {
        doubts.push_back("its certificate does not chain to a trust anchor");
        f.info(finding::signature_untrusted, "the certificate of " + c.subject + " does not chain to a trust anchor (" + c.chain_error + ")");
    }
    if (c.expired) {
        doubts.push_back("a certificate was not valid at the signing time");
        f.info(finding::signature_expired, "signed at " + c.signing_time_text + " with a certificate not valid then: " + c.expiry);
    }
    if (!c.key_usage) {
        doubts.push_back("the certificate's key usage does not allow signing documents");
        f.info(finding::signature_key_usage, "the certificate of " + c.subject + " has neither digitalSignature nor nonRepudiation key usage");
    }
    return doubts;
}

bool changed_after(const Findings& f) {
    return std::any_of(f.failure.begin(), f.failure.end(), [](const Finding& x) {
        return family::pith_changed.holds(x.code) || x.code == finding::pith_xref_chain;
    });
}

}  // namespace

namespace {

// A signature other than the publisher's over the stamp: valid only when it holds and its signer
// is one the reader trusts (as for the publisher's).
void report_other(const std::string& field, const Signature& s, const std::string& covers, const Baseline& baseline, Findings& f) {
    const bool holds = s.malformed.empty() && s.cms.parsed && s.cms.valid;
    std::vector<std::string> doubts;
    if (holds && s.cms.chain == sign::CmsCheck::Chain::NoAnchors) doubts.push_back("no trust anchors given (--trust)");
    if (holds && s.cms.chain == sign::CmsCheck::Chain::Untrusted) doubts.push_back("its certificate does not chain to a trust anchor (" + s.cms.chain_error + ")");
    if (holds && s.cms.expired) doubts.push_back("a certificate was not valid at the signing time");
    if (holds && !s.cms.key_usage) doubts.push_back("the certificate's key usage does not allow signing documents");
    const std::string state = !s.malformed.empty() ? "malformed: " + s.malformed
                              : !holds ? "not valid: " + s.cms.error
                              : doubts.empty() ? "valid, certificate chains to " + s.cms.anchor
                              : "the signature holds, but its signer is unknown here: " + joined(doubts);
    f.info(holds && !doubts.empty() ? finding::signature_other_unknown : finding::signature_other,
           "signature \"" + field + "\" by " + s.who() + " covers " + covers + ", " +
               (s.covered_end < baseline.end ? "from before the stamp" : "made after the stamp") + "; " + state);
}

}  // namespace

bool check_signatures(pdf::File& file, const Baseline& baseline, const sign::Anchors& anchors, Findings& f) {
    const Object* form = file.get_key(pdf::dictionary_of(file.catalog()), "AcroForm");
    std::vector<std::pair<std::string, const Object*>> fields;
    std::set<std::uint32_t> seen;
    if (form && pdf::is_dictionary(*form))
        collect(file, file.get_key(pdf::dictionary_of(*form), "Fields"), "", 0, fields, seen);
    const auto revisions = file.revisions();
    const std::string n = std::to_string(revisions.size());
    bool publisher = false, stamp_signed = false;
    for (const auto& [field, sig] : fields) {
        const Signature s = read_signature(file, field, *sig, revisions, anchors);
        const bool over_stamp = baseline.found && s.revision > 0 && revisions[s.revision - 1].end == baseline.end;
        // What pdfsig says too: "Total document signed" or "not total document signed".
        const std::string covers = s.revision == 0 ? "bytes that end at no revision (not the whole file)"
                                   : s.revision == revisions.size() ? "the whole file"
                                   : "the file up to revision " + std::to_string(s.revision) + " of " + n + ", not the whole file";
        const std::string compared = s.revision == revisions.size() ? "" : " (what was appended after it was compared with what it "
                                                                           "signed, object by object: pith.changes.after)";
        if (over_stamp) {
            publisher = true;
            if (!s.malformed.empty() || !s.cms.parsed || !s.cms.valid) {
                f.fail(finding::stamp_signature_invalid, "the file changed after " + s.who() + " signed the stamp: " +
                                                      (s.malformed.empty() ? s.cms.error : s.malformed));
                continue;
            }
            if (changed_after(f)) {  // the signature holds for the stamp, not for the file as it is now
                f.fail(finding::stamp_changed_after_signing, "changed after " + s.who() + " signed it: what was appended later changes what a reader sees (above)");
                continue;
            }
            const std::vector<std::string> doubts = signer_doubts(s, f);
            if (doubts.empty()) {
                stamp_signed = true;
                f.ok(finding::stamp_signed, "stamped and signed by " + s.cms.subject + " at " + s.cms.signing_time_text + " (" + s.cms.digest +
                                         ", certificate chains to " + s.cms.anchor + "); the signature covers " + covers + compared);
            } else {
                f.info(finding::stamp_signer_unknown, "stamped and signed by " + s.cms.subject + ", whom pith does not trust here: " + joined(doubts) +
                                                   "; the signature covers " + covers + compared);
            }
            continue;
        }
        // A signature over an earlier pith update: the stamp was made again after it was signed.
        if (s.malformed.empty() && is_pith_revision(file.bytes(), revisions, s.revision)) {
            f.fail(finding::stamp_changed_after_signing, "stamped again after " + s.who() + " signed an earlier stamp (the signature covers " + covers + ")");
            continue;
        }
        report_other(field, s, covers, baseline, f);
    }
    if (baseline.found && !publisher) f.info(finding::stamp_unsigned, "no publisher's signature covers the stamp (pith stamp --sign-cert)");
    return stamp_signed;
}

}  // namespace pith::verify
