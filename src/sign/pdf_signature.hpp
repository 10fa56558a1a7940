// SPDX-License-Identifier: MIT
#pragma once
// The PDF side of a publisher's signature over pith's update (PAdES B-B, ISO 32000-2 12.8):
// an invisible signature field whose /V is a signature dictionary with /SubFilter
// /ETSI.CAdES.detached, written into the same incremental update as the stamp. The update is
// first written with placeholders (/ByteRange of 10-digit numbers, /Contents of zeros); then
// finish() fills in the byte range and the CMS signature over every byte outside the hole.
#include "pdf/file.hpp"
#include "pdf/update.hpp"
#include "sign/signer.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pith::sign {

// The signature field's name prefix (/T "PithStamp", "PithStamp2", ...).
inline const std::string kFieldName = "PithStamp";

struct Placeholder {
    pdf::Ref signature;  // the signature dictionary (/V of the field)
    pdf::Ref field;      // the field, merged with its widget
};

// Whether the document has a signed signature field (a field /FT /Sig with a /V).
bool has_signatures(pdf::File& file);

// A certification signature's DocMDP permissions /P (1: no changes, 2: form filling and
// signing, 3: also comments), or 0 when the document is not certified. A /DocMDP whose
// reference cannot be read, or names another /P, counts as the strictest. pith stamp refuses
// a certified document and pith verify judges later changes by this one reading.
int docmdp_permissions(pdf::File& file);

// Its signed signature fields, each as the user knows it: the field's name (/T) and, where the
// signature dictionary gives them, the signer's /Name and the signing time /M.
std::vector<std::string> signatures(pdf::File& file);

// Adds the field (its widget in `page`'s /Annots when given), the signature dictionary with
// placeholders, the field in /AcroForm /Fields with /SigFlags 3, and with `certify` the
// catalog's /Perms /DocMDP (P=2: form filling and signing allowed). Builds on what `update`
// already replaced (the catalog, the badge page). Throws when certifying a signed PDF.
Placeholder prepare(pdf::File& file, pdf::Update& update, const pdf::Ref* page, const Signer& signer, bool certify);

// `tail`: update.appended(&offsets) for a file whose first `prior.size()` bytes are `prior`.
// Fills /ByteRange and /Contents of the signature dictionary in place.
void finish(std::string_view prior, std::string& tail, const std::map<std::uint32_t, std::size_t>& offsets, const Placeholder& p,
            const Signer& signer);

}  // namespace pith::sign
