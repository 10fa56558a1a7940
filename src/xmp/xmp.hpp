// SPDX-License-Identifier: MIT
#pragma once
// pith's XMP properties: the schema (templates/pith-xmp.json), reading them from a
// metadata packet, and merging them into one without losing anything it holds.
#include "core/record.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::xmp {

struct PropertyDefinition {
    std::string name;        // "number"
    std::string value_type;  // XMP value type: Text, URI, Boolean, Integer, Date
    std::string description;
};

struct Schema {
    std::string namespace_uri;
    std::string prefix;
    std::string description;
    std::vector<PropertyDefinition> properties;

    static const Schema& pith();  // parsed once from the compiled-in templates/pith-xmp.json
    bool defines(const std::string& name) const;
};

// pith property name (without prefix) -> value.
using Properties = std::map<std::string, std::string>;

// A record's receipt as pith's properties (receiptKeyId, receiptAlgorithm, receiptSignature,
// receiptFingerprint, receiptSignedAt; empty fields left out): how pith stamp embeds it and pith
// verify reads it back, written once.
void put_receipt(const Receipt& receipt, Properties& p);
// The receipt the properties carry; nullopt without receiptSignature. It signs
// "canonical_sha256_bytes", the only message pith's receipts sign.
std::optional<Receipt> receipt_of(const Properties& p);

// What pith reads from a packet.
struct Packet {
    Properties pith;                // pith properties, whatever prefix the packet binds to the namespace
    std::string title;              // dc:title (x-default, else the first alternative)
    std::string pdfa_part;          // pdfaid:part, empty when the file does not claim PDF/A
    std::string pdfa_conformance;
    bool pith_declared_for_pdfa = false;  // a pdfaExtension schema declares the pith namespace
    // Why other readers may read other pith values than `pith` holds: a property given twice,
    // outside an rdf:Description, with a structured value, or more than one packet or rdf:RDF.
    std::vector<std::string> ambiguities;
};

// Throws pith::Error for a packet that is not well-formed XML (DTDs and entities are never expanded).
Packet read(std::string_view packet);

// Returns `existing` (may be empty: a new packet is made) with every pith property
// replaced by `properties`; everything else is kept. When the packet claims PDF/A,
// the pith namespace is declared in its pdfaExtension schemas.
std::string merge(std::string_view existing, const Properties& properties);

constexpr std::size_t kMaxPacketSize = 32u << 20;

}  // namespace pith::xmp
