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

// One of pith's properties, named as templates/pith-xmp.json (the schema pith.sty shares) names
// it. Code outside src/xmp reads and writes properties through these constants only, so a
// misspelt name does not compile (code_xmp_properties checks the constants against the schema
// file and that no other code names a property by a string).
struct Property {
    constexpr explicit Property(const char* property_name) : name(property_name) {}
    const char* name;
};
namespace property {
inline constexpr Property number{"number"};
inline constexpr Property shortNumber{"shortNumber"};
inline constexpr Property canonicalSha256{"canonicalSha256"};
inline constexpr Property canonicalRecord{"canonicalRecord"};
inline constexpr Property title{"title"};
inline constexpr Property receiptKeyId{"receiptKeyId"};
inline constexpr Property receiptAlgorithm{"receiptAlgorithm"};
inline constexpr Property receiptSignature{"receiptSignature"};
inline constexpr Property receiptFingerprint{"receiptFingerprint"};
inline constexpr Property receiptSignedAt{"receiptSignedAt"};
inline constexpr Property resolverUrl{"resolverUrl"};
inline constexpr Property unverified{"unverified"};
inline constexpr Property stampTool{"stampTool"};
inline constexpr Property stampToolVersion{"stampToolVersion"};
inline constexpr Property stampedAt{"stampedAt"};
inline constexpr Property badge{"badge"};
inline constexpr Property priorLength{"priorLength"};
inline constexpr Property priorSha256{"priorSha256"};
}  // namespace property
struct Packet;

// pith's properties and their values. Read and written by the constants above (get(), set());
// a packet may hold names the schema does not define, which iteration shows (by name, in order).
class Properties {
public:
    using const_iterator = std::map<std::string, std::string>::const_iterator;
    const_iterator begin() const { return values_.begin(); }
    const_iterator end() const { return values_.end(); }
    std::size_t size() const { return values_.size(); }
    bool empty() const { return values_.empty(); }
    bool operator==(const Properties& other) const { return values_ == other.values_; }
    bool operator!=(const Properties& other) const { return values_ != other.values_; }

private:
    friend std::string get(const Properties& p, Property property);
    friend void set(Properties& p, Property property, std::string value);
    friend Packet read(std::string_view packet);
    std::map<std::string, std::string> values_;
};

// The property's value, "" when absent.
std::string get(const Properties& p, Property property);
void set(Properties& p, Property property, std::string value);

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
    // dc:title, dc:creator and dc:description, each as "title=its text" (every alternative and
    // list item, white space collapsed), sorted: what viewers show as the document's title,
    // author and subject, compared before and after a later revision.
    std::vector<std::string> dublin_core;
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
