// SPDX-License-Identifier: MIT
#pragma once
// Every finding code pith reports, with what it means: the one list. Findings::ok, info and fail
// take only these constants (a Code is never made from a string elsewhere), so a misspelt code does
// not compile. doc/findings.md explains each to users; tests/doc/doc_findings.py checks that the two
// hold the same codes and that no code is spelt out as a string anywhere else in src/.
#include <cstring>
#include <string>

namespace pith {

// A finding code: one of the constants below.
class Code {
public:
    constexpr explicit Code(const char* text) : text_(text) {}
    const char* c_str() const { return text_; }
    friend bool operator==(const std::string& code, Code c) { return code == c.text_; }
    friend bool operator==(Code a, Code b) { return std::strcmp(a.text_, b.text_) == 0; }
    friend bool operator<(Code a, Code b) { return std::strcmp(a.text_, b.text_) < 0; }  // as std::string orders them

private:
    const char* text_;
};

// Codes a check treats alike: all that start with the family's prefix.
class Family {
public:
    constexpr explicit Family(const char* prefix) : prefix_(prefix) {}
    bool holds(Code code) const { return std::strncmp(code.c_str(), prefix_, std::strlen(prefix_)) == 0; }

private:
    const char* prefix_;
};

// Each constant is its code with '_' for '.'; the comment says what it reports.
namespace finding {
// pith verify: the pith data a PDF carries
inline constexpr Code pith_metadata_present{"pith.metadata.present"};      // pith data found in XMP and/or Info
inline constexpr Code pith_metadata_absent{"pith.metadata.absent"};        // no pith data (a failure when a badge link remains)
inline constexpr Code pith_metadata_malformed{"pith.metadata.malformed"};  // pith data that cannot be read
inline constexpr Code pith_metadata_ambiguous{"pith.metadata.ambiguous"};  // the XMP reads more than one way
inline constexpr Code pith_hash_match{"pith.hash.match"};                  // the embedded canonical hash recomputes
inline constexpr Code pith_hash_mismatch{"pith.hash.mismatch"};            // the embedded canonical hash does not recompute
inline constexpr Code pith_hash_not_stated{"pith.hash.not_stated"};        // no canonical hash embedded
inline constexpr Code pith_record_absent{"pith.record.absent"};            // no canonical record embedded
inline constexpr Code pith_record_malformed{"pith.record.malformed"};      // the embedded canonical record cannot be read
inline constexpr Code pith_record_number_only{"pith.record.number_only"};  // only the number is embedded (pith.sty's \pithnumber)
inline constexpr Code pith_record_unverified{"pith.record.unverified"};    // stamped with --allow-unverified
inline constexpr Code pith_record_expected_match{"pith.record.expected.match"};        // the embedded record equals --record's
inline constexpr Code pith_record_expected_mismatch{"pith.record.expected.mismatch"};  // it differs from --record's
inline constexpr Code pith_number_match{"pith.number.match"};              // the number derives from the hash and year
inline constexpr Code pith_number_mismatch{"pith.number.mismatch"};        // the number does not derive from them
// pith verify: links and the badge
inline constexpr Code pith_links_match{"pith.links.match"};                // XMP, Info and every resolver link name one number
inline constexpr Code pith_links_mismatch{"pith.links.mismatch"};          // they name different numbers
inline constexpr Code pith_links_absent{"pith.links.absent"};              // no link to the resolver
inline constexpr Code pith_link_action{"pith.link.action"};                // a pith link runs another action than /URI or chains more
inline constexpr Code pith_link_host{"pith.link.host"};                    // a pith link goes to another host than the resolver
inline constexpr Code pith_link_overlap{"pith.link.overlap"};              // another link lies over the badge
inline constexpr Code pith_link_under_badge{"pith.link.under_badge"};      // older links under the badge; pith's takes the click
inline constexpr Code pith_badge_text_match{"pith.badge.text.match"};      // the badge's text is visible on its page
inline constexpr Code pith_badge_text_mismatch{"pith.badge.text.mismatch"};  // another Pith number is shown there
inline constexpr Code pith_badge_text_absent{"pith.badge.text.absent"};    // no visible badge text
inline constexpr Code pith_badge_hidden{"pith.badge.hidden"};              // the badge's text is there but a reader cannot see it
inline constexpr Code pith_badge_drawing_match{"pith.badge.drawing.match"};          // the badge is what pith stamp draws
inline constexpr Code pith_badge_drawing_mismatch{"pith.badge.drawing.mismatch"};    // the badge was redrawn otherwise
inline constexpr Code pith_badge_drawing_unchecked{"pith.badge.drawing.unchecked"};  // the badge could not be drawn again
inline constexpr Code pith_badge_only{"pith.badge.only"};                  // a badge link but no pith metadata (a converter dropped it)
// pith verify: the title on page 1
inline constexpr Code pith_title_match{"pith.title.match"};                // the record's title is page 1's title
inline constexpr Code pith_title_differs{"pith.title.differs"};            // page 1 shows another title
inline constexpr Code pith_title_none{"pith.title.none"};                  // no title to check against
inline constexpr Code pith_title_hidden{"pith.title.hidden"};              // the title is there but a reader cannot see it
inline constexpr Code pith_title_not_title{"pith.title.not_title"};        // the title's words are on page 1, not as its title
inline constexpr Code pith_title_pixels_match{"pith.title.pixels.match"};            // the pixels show the title
inline constexpr Code pith_title_pixels_differs{"pith.title.pixels.differs"};        // the pixels show other words there
inline constexpr Code pith_title_pixels_faint{"pith.title.pixels.faint"};            // a title word's contrast is below 3:1
inline constexpr Code pith_title_pixels_outranked{"pith.title.pixels.outranked"};    // larger text above the title
inline constexpr Code pith_title_pixels_unverified{"pith.title.pixels.unverified"};  // the pixels could not be read
inline constexpr Code pith_text_failed{"pith.text.failed"};                // poppler failed: the text checks could not be made
inline constexpr Code pith_text_skipped{"pith.text.skipped"};              // the pages were not rendered (pith batch's own check)
// pith verify: what changed after the stamp
inline constexpr Code pith_prior_match{"pith.prior.match"};                // the bytes pith stamped onto still start the file
inline constexpr Code pith_prior_mismatch{"pith.prior.mismatch"};          // they do not
inline constexpr Code pith_rewritten{"pith.rewritten"};                    // the file was rewritten after stamping
inline constexpr Code pith_update_match{"pith.update.match"};              // pith's update changes what pith stamp changes
inline constexpr Code pith_update_mismatch{"pith.update.mismatch"};        // it changes something else
inline constexpr Code pith_update_missing{"pith.update.missing"};          // pith's update is not found
inline constexpr Code pith_update_none{"pith.update.none"};                // the pith data came with the document (pith.sty)
inline constexpr Code pith_changes_none{"pith.changes.none"};              // nothing appended after the stamp
inline constexpr Code pith_changes_after{"pith.changes.after"};            // only what may change after a stamp was appended
inline constexpr Code pith_changed_page_tree{"pith.changed.page_tree"};    // the page tree changed after stamping
inline constexpr Code pith_changed_page{"pith.changed.page"};              // a page's keys changed
inline constexpr Code pith_changed_content{"pith.changed.content"};        // a page's content changed
inline constexpr Code pith_changed_resource{"pith.changed.resource"};      // a resource pages draw with changed
inline constexpr Code pith_changed_annotation{"pith.changed.annotation"};  // an annotation not on the closed list
inline constexpr Code pith_changed_catalog{"pith.changed.catalog"};        // the catalog or a document-level object changed
inline constexpr Code pith_changed_metadata{"pith.changed.metadata"};      // title, author or subject viewers show, or pith's XMP
inline constexpr Code pith_changed_freed{"pith.changed.freed"};            // an object a reader sees was freed
inline constexpr Code pith_changed_action{"pith.changed.action"};          // a link, action or script added or changed
inline constexpr Code pith_changed_form{"pith.changed.form"};              // the form changed beyond field values
inline constexpr Code pith_changed_unreadable{"pith.changed.unreadable"};  // a later object cannot be read
inline constexpr Code pith_changed_docmdp{"pith.changed.docmdp"};          // a change a certification forbids
inline constexpr Code pith_xref_chain{"pith.xref.chain"};                  // the /Prev chain skips pith's revision
// pith verify: what viewers read differently
inline constexpr Code pith_construct_unlisted{"pith.construct.unlisted"};  // drawn with what the closed list lacks
inline constexpr Code pith_optional_content_ambiguous{"pith.optional_content.ambiguous"};  // optional content the viewer decides
inline constexpr Code pith_annotation_malformed{"pith.annotation.malformed"};  // an annotation viewers read differently
inline constexpr Code pith_objects_ambiguous{"pith.objects.ambiguous"};        // an object with two definitions
// pith verify: the verdict, the keyring, damage
inline constexpr Code pith_evidence_missing{"pith.evidence.missing"};      // why a report without failures is not trusted
inline constexpr Code keyring_entry_refused{"keyring.entry_refused"};      // a keyring entry was refused
inline constexpr Code pdf_damaged{"pdf.damaged"};                          // a defect of a damaged PDF (--allow-damaged)
// pith verify: signatures
inline constexpr Code stamp_signed{"stamp.signed"};                        // the publisher's signature covers the stamp
inline constexpr Code stamp_unsigned{"stamp.unsigned"};                    // no publisher's signature covers the stamp
inline constexpr Code stamp_signer_unknown{"stamp.signer_unknown"};        // signed by someone the reader does not trust
inline constexpr Code stamp_signature_invalid{"stamp.signature_invalid"};  // the file changed after the publisher signed
inline constexpr Code stamp_changed_after_signing{"stamp.changed_after_signing"};  // changed or stamped again after signing
inline constexpr Code signature_no_anchors{"signature.no_anchors"};        // no trust anchors given (--trust)
inline constexpr Code signature_untrusted{"signature.untrusted"};          // the certificate does not chain to an anchor
inline constexpr Code signature_expired{"signature.expired"};              // the certificate was not valid at the signing time
inline constexpr Code signature_key_usage{"signature.key_usage"};          // the certificate's key usage does not allow signing
inline constexpr Code signature_other{"signature.other"};                  // another signature, and what it holds
inline constexpr Code signature_other_unknown{"signature.other_unknown"};  // another signature holds, its signer unknown here
// pith verify --online: the registry's answer
inline constexpr Code registry_known{"registry.known"};                    // the registry serves the number's record
inline constexpr Code registry_unknown{"registry.unknown"};                // the registry does not know the number
inline constexpr Code registry_refused{"registry.refused"};                // the registry's answer was refused
inline constexpr Code registry_unreachable{"registry.unreachable"};        // no answer from the registry
// pith record (and the embedded record's receipt in pith verify)
inline constexpr Code record_hash_match{"record.hash.match"};              // canonical_sha256 recomputes
inline constexpr Code record_hash_mismatch{"record.hash.mismatch"};        // it does not
inline constexpr Code record_hash_not_stated{"record.hash.not_stated"};    // no canonical_sha256 stated
inline constexpr Code record_number_match{"record.number.match"};          // the number derives from the hash and year
inline constexpr Code record_number_mismatch{"record.number.mismatch"};    // it does not
inline constexpr Code record_number_not_stated{"record.number.not_stated"};  // no number stated
inline constexpr Code record_state_match{"record.state.match"};            // a bundle's state_sha256 recomputes
inline constexpr Code record_state_mismatch{"record.state.mismatch"};      // it does not
inline constexpr Code record_title_match{"record.title.match"};            // the title hashes to title_canon_sha256
inline constexpr Code record_title_mismatch{"record.title.mismatch"};      // it does not
inline constexpr Code receipt_valid{"receipt.valid"};                      // the receipt verifies under a trusted key
inline constexpr Code receipt_invalid{"receipt.invalid"};                  // the receipt's signature does not verify
inline constexpr Code receipt_key_unknown{"receipt.key_unknown"};          // signed by a key not in the keyring
inline constexpr Code receipt_key_revoked{"receipt.key_revoked"};          // signed by a revoked key
inline constexpr Code receipt_key_outside_validity{"receipt.key_outside_validity"};  // the key is not valid now
inline constexpr Code receipt_malformed{"receipt.malformed"};              // the receipt cannot be read
inline constexpr Code receipt_absent{"receipt.absent"};                    // no receipt
}  // namespace finding

// The families checks look for.
namespace family {
inline constexpr Family pith_badge{"pith.badge."};      // the badge's checks
inline constexpr Family pith_title{"pith.title."};      // the title's checks
inline constexpr Family pith_changed{"pith.changed."};  // a change after stamping
}  // namespace family

}  // namespace pith
