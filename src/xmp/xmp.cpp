// SPDX-License-Identifier: MIT
#include "xmp/xmp.hpp"

#include "core/error.hpp"
#include "core/json.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <utility>

namespace pith::xmp {

// templates/pith-xmp.json, compiled in (xmp/schema_data.cpp.in).
extern const char* const kXmpSchemaJson;

namespace {

constexpr const char* kRdfNs = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
constexpr const char* kDcNs = "http://purl.org/dc/elements/1.1/";
constexpr const char* kPdfaIdNs = "http://www.aiim.org/pdfa/ns/id/";
constexpr const char* kPdfaExtensionNs = "http://www.aiim.org/pdfa/ns/extension/";
constexpr const char* kPdfaSchemaNs = "http://www.aiim.org/pdfa/ns/schema#";
constexpr const char* kPdfaPropertyNs = "http://www.aiim.org/pdfa/ns/property#";
constexpr const char* kXNs = "adobe:ns:meta/";
constexpr int kMaxDepth = 256;

std::string local_name(const char* qname) {
    const char* colon = std::strchr(qname, ':');
    return colon ? colon + 1 : qname;
}

std::string prefix_of(const char* qname) {
    const char* colon = std::strchr(qname, ':');
    return colon ? std::string(qname, colon) : std::string();
}

// The namespace URI a prefix is bound to at `node` (XML namespaces are lexically scoped).
std::string namespace_of(pugi::xml_node node, const std::string& prefix) {
    std::string attr = prefix.empty() ? "xmlns" : "xmlns:" + prefix;
    for (; node; node = node.parent())
        if (auto a = node.attribute(attr.c_str())) return a.value();
    return {};
}

bool in_namespace(pugi::xml_node scope, const char* qname, const char* ns) {
    return namespace_of(scope, prefix_of(qname)) == ns;
}

// Next node in document order, without recursion (hostile packets may nest deeply).
pugi::xml_node next_node(pugi::xml_node node, pugi::xml_node root) {
    if (node.first_child()) return node.first_child();
    while (node && node != root) {
        if (node.next_sibling()) return node.next_sibling();
        node = node.parent();
    }
    return {};
}

template <typename Visit>
void for_each_element(pugi::xml_node root, Visit visit) {
    for (pugi::xml_node n = root.first_child(); n; n = next_node(n, root))
        if (n.type() == pugi::node_element) visit(n);
}

pugi::xml_node find_rdf(pugi::xml_document& doc) {
    pugi::xml_node found;
    for_each_element(doc, [&](pugi::xml_node n) {
        if (!found && local_name(n.name()) == "RDF" && in_namespace(n, n.name(), kRdfNs)) found = n;
    });
    return found;
}

void load(pugi::xml_document& doc, std::string_view packet) {
    if (packet.size() > kMaxPacketSize) throw Error("XMP packet larger than 32 MiB", err::pdf_xmp);
    // Default parsing: no DTD processing, only XML's predefined entities and character references.
    auto result = doc.load_buffer(packet.data(), packet.size(), pugi::parse_default, pugi::encoding_auto);
    if (!result)
        throw Error(std::string("XMP packet is not well-formed XML: ") + result.description() + " at byte " +
                        std::to_string(result.offset),
                    err::pdf_xmp);
    // Real packets nest a dozen levels; bounding the depth keeps every lookup up the tree cheap.
    int depth = 0;
    for (pugi::xml_node n = doc.first_child(); n;) {
        if (n.first_child()) {
            n = n.first_child();
            if (++depth > kMaxDepth)
                throw Error("XMP packet nested deeper than " + std::to_string(kMaxDepth) + " levels", err::pdf_xmp);
            continue;
        }
        while (n && !n.next_sibling()) {
            n = n.parent();
            --depth;
        }
        if (n) n = n.next_sibling();
    }
}

// Every text under `n` in document order, white space collapsed to one space (writers differ in
// layout; alternatives and list items are separated by a space).
std::string all_text(pugi::xml_node n) {
    std::string text;
    for (pugi::xml_node d = n.first_child(); d; d = next_node(d, n)) {
        if (d.type() != pugi::node_pcdata && d.type() != pugi::node_cdata) continue;
        for (const char* c = d.value(); *c; ++c) {
            const bool space = *c == ' ' || *c == '\n' || *c == '\r' || *c == '\t';
            if (!space) text += *c;
            else if (!text.empty() && text.back() != ' ') text += ' ';
        }
        if (!text.empty() && text.back() != ' ') text += ' ';
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

bool shown_by_viewers(const std::string& local) {
    return local == "title" || local == "creator" || local == "description";
}

std::string text_of(pugi::xml_node n) {
    // Simple property, or the first rdf:li of an rdf:Alt/Seq/Bag (x-default preferred).
    for (pugi::xml_node child : n.children()) {
        if (child.type() != pugi::node_element) continue;
        std::string first;
        for (pugi::xml_node li : child.children()) {
            if (li.type() != pugi::node_element) continue;
            if (std::strcmp(li.attribute("xml:lang").value(), "x-default") == 0) return li.text().get();
            if (first.empty()) first = li.text().get();
        }
        return first;
    }
    return n.text().get();
}

}  // namespace

const Schema& Schema::pith() {
    static const Schema schema = [] {
        Json j = parse_json(kXmpSchemaJson, "templates/pith-xmp.json");
        Schema s;
        s.namespace_uri = j.at("namespace").get<std::string>();
        s.prefix = j.at("prefix").get<std::string>();
        s.description = j.at("schema").get<std::string>();
        for (const auto& p : j.at("properties"))
            s.properties.push_back({p.at("name").get<std::string>(), p.at("valueType").get<std::string>(),
                                    p.at("description").get<std::string>()});
        return s;
    }();
    return schema;
}

bool Schema::defines(const std::string& name) const {
    for (const auto& p : properties)
        if (p.name == name) return true;
    return false;
}

namespace {
bool is_description(pugi::xml_node n) {
    return n && local_name(n.name()) == "Description" && in_namespace(n, n.name(), kRdfNs);
}
}  // namespace

Packet read(std::string_view packet) {
    pugi::xml_document doc;
    load(doc, packet);
    const Schema& schema = Schema::pith();
    Packet out;
    // One reading only: a pith property is a simple value, given once, directly in an
    // rdf:Description (as an element or an attribute), in the one packet there is.
    auto set_pith = [&](const std::string& name, std::string value, bool in_description, bool simple) {
        if (!out.pith.values_.emplace(name, value).second)
            out.ambiguities.push_back("pith:" + name + " is given more than once");
        if (!in_description) out.ambiguities.push_back("pith:" + name + " stands outside an rdf:Description");
        if (!simple) out.ambiguities.push_back("pith:" + name + " is not a simple text value");
    };
    int rdf_count = 0;
    for (std::size_t at = packet.find("<?xpacket begin"), n = 0; at != std::string_view::npos;
         at = packet.find("<?xpacket begin", at + 1))
        if (++n == 2) out.ambiguities.push_back("the metadata stream holds more than one XMP packet");
    for_each_element(doc, [&](pugi::xml_node n) {
        std::string name = local_name(n.name());
        std::string ns = namespace_of(n, prefix_of(n.name()));
        if (name == "RDF" && ns == kRdfNs && ++rdf_count == 2)
            out.ambiguities.push_back("the packet holds more than one rdf:RDF");
        if (ns == schema.namespace_uri) {
            bool simple = !n.first_attribute() ||
                          std::all_of(n.attributes_begin(), n.attributes_end(), [](const pugi::xml_attribute& a) {
                              return std::string(a.name()).rfind("xmlns", 0) == 0;
                          });
            for (pugi::xml_node c : n.children())
                simple &= c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata;
            set_pith(name, n.text().get(), is_description(n.parent()), simple);
        } else if (ns == kDcNs && shown_by_viewers(name)) {
            out.dublin_core.push_back(name + "=" + all_text(n));
            if (name == "title" && out.title.empty()) out.title = text_of(n);
        }
        else if (ns == kPdfaIdNs && name == "part") out.pdfa_part = n.text().get();
        else if (ns == kPdfaIdNs && name == "conformance") out.pdfa_conformance = n.text().get();
        else if (ns == kPdfaSchemaNs && name == "namespaceURI" && schema.namespace_uri == n.text().get())
            out.pith_declared_for_pdfa = true;
        for (pugi::xml_attribute a : n.attributes()) {  // rdf:Description shorthand: properties as attributes
            std::string aname = a.name();
            if (aname.rfind("xmlns", 0) == 0) continue;
            std::string ans = namespace_of(n, prefix_of(a.name()));
            std::string alocal = local_name(a.name());
            if (ans == schema.namespace_uri) set_pith(alocal, a.value(), is_description(n), true);
            else if (ans == kDcNs && shown_by_viewers(alocal)) out.dublin_core.push_back(alocal + "=" + a.value());
            else if (ans == kPdfaIdNs && alocal == "part") out.pdfa_part = a.value();
            else if (ans == kPdfaIdNs && alocal == "conformance") out.pdfa_conformance = a.value();
            else if (ans == kPdfaSchemaNs && alocal == "namespaceURI" && schema.namespace_uri == a.value())
                out.pith_declared_for_pdfa = true;
        }
    });
    std::sort(out.dublin_core.begin(), out.dublin_core.end());
    return out;
}

namespace {

// Names in the packet's own rdf prefix ("rdf:about", or "about" where RDF is the default namespace).
struct RdfNames {
    std::string prefix;
    std::string operator()(const char* local) const { return (prefix.empty() ? "" : prefix + ":") + local; }
};

// The packet's rdf:RDF, or a new x:xmpmeta/rdf:RDF replacing whatever `doc` held.
pugi::xml_node rdf_of(pugi::xml_document& doc) {
    pugi::xml_node rdf = find_rdf(doc);
    if (!rdf) {
        doc.reset();
        pugi::xml_node meta = doc.append_child("x:xmpmeta");
        meta.append_attribute("xmlns:x") = kXNs;
        rdf = meta.append_child("rdf:RDF");
        rdf.append_attribute("xmlns:rdf") = kRdfNs;
    }
    return rdf;
}

// Removes every previous pith property, wherever it stands (a pith property outside rdf:RDF
// would otherwise outlive every stamp: fuzz_xmp), and pith's PDF/A schema declaration.
// Returns the first rdf:Description's rdf:about, which the new descriptions repeat.
std::string remove_pith(pugi::xml_document& doc, pugi::xml_node rdf, const RdfNames& rdf_name) {
    const Schema& schema = Schema::pith();
    std::vector<pugi::xml_node> doomed;
    std::vector<std::pair<pugi::xml_node, pugi::xml_attribute>> doomed_attributes;
    std::string about;
    bool about_seen = false;
    auto holds_rdf = [&](pugi::xml_node n) {
        for (pugi::xml_node p = rdf; p; p = p.parent())
            if (p == n) return true;
        return false;
    };
    for_each_element(doc, [&](pugi::xml_node n) {
        if (local_name(n.name()) == "Description" && in_namespace(n, n.name(), kRdfNs) && !about_seen) {
            about = n.attribute(rdf_name("about").c_str()).value();
            about_seen = true;
        }
        if (namespace_of(n, prefix_of(n.name())) == schema.namespace_uri && !holds_rdf(n)) doomed.push_back(n);
        if (local_name(n.name()) == "namespaceURI" && in_namespace(n, n.name(), kPdfaSchemaNs) &&
            schema.namespace_uri == n.text().get())
            doomed.push_back(n.parent());  // the rdf:li describing the pith schema
        for (pugi::xml_attribute a : n.attributes()) {
            std::string aname = a.name();
            if (aname.rfind("xmlns", 0) == 0) continue;
            std::string ans = namespace_of(n, prefix_of(a.name()));
            if (ans == schema.namespace_uri) doomed_attributes.emplace_back(n, a);
            if (ans == kPdfaSchemaNs && local_name(a.name()) == "namespaceURI" && schema.namespace_uri == a.value())
                doomed.push_back(n);
        }
    });
    for (auto& [node, attr] : doomed_attributes) node.remove_attribute(attr);
    for (auto it = doomed.rbegin(); it != doomed.rend(); ++it)
        if (it->parent()) it->parent().remove_child(*it);
    return about;
}

// Descriptions that only held pith properties are now empty: drop them.
void drop_empty_descriptions(pugi::xml_node rdf, const RdfNames& rdf_name) {
    for (pugi::xml_node d = rdf.first_child(); d;) {
        pugi::xml_node next = d.next_sibling();
        if (local_name(d.name()) == "Description" && !d.first_child()) {
            bool only_bookkeeping = true;
            for (pugi::xml_attribute a : d.attributes()) {
                std::string aname = a.name();
                if (aname.rfind("xmlns", 0) != 0 && aname != rdf_name("about")) only_bookkeeping = false;
            }
            if (only_bookkeeping) rdf.remove_child(d);
        }
        d = next;
    }
}

// One new rdf:Description holding `properties`.
void add_properties(pugi::xml_node rdf, const RdfNames& rdf_name, const std::string& about,
                    const Properties& properties) {
    const Schema& schema = Schema::pith();
    pugi::xml_node desc = rdf.append_child(rdf_name("Description").c_str());
    desc.append_attribute(rdf_name("about").c_str()) = about.c_str();
    desc.append_attribute(("xmlns:" + schema.prefix).c_str()) = schema.namespace_uri.c_str();
    const std::map<std::string, std::string> by_name(properties.begin(), properties.end());
    for (const auto& definition : schema.properties) {  // schema order, so packets read the same everywhere
        auto value = by_name.find(definition.name);
        if (value == by_name.end()) continue;
        desc.append_child((schema.prefix + ":" + definition.name).c_str()).text() = value->second.c_str();
    }
    for (const auto& [name, value] : properties)
        if (!schema.defines(name))
            throw Error("internal: XMP property pith:" + name + " is not in templates/pith-xmp.json",
                        err::internal_error);
}

// PDF/A: pdfaExtension:schemas is one property, so add to its Bag when there is one.
pugi::xml_node pdfa_schemas_bag(pugi::xml_node rdf, const RdfNames& rdf_name, const std::string& about) {
    pugi::xml_node bag;
    for_each_element(rdf, [&](pugi::xml_node n) {
        if (!bag && local_name(n.name()) == "schemas" && in_namespace(n, n.name(), kPdfaExtensionNs))
            for (pugi::xml_node c : n.children())
                if (local_name(c.name()) == "Bag") bag = c;
    });
    if (!bag) {
        pugi::xml_node ext = rdf.append_child(rdf_name("Description").c_str());
        ext.append_attribute(rdf_name("about").c_str()) = about.c_str();
        ext.append_attribute("xmlns:pdfaExtension") = kPdfaExtensionNs;
        bag = ext.append_child("pdfaExtension:schemas").append_child(rdf_name("Bag").c_str());
    }
    return bag;
}

// The pith schema declared in the PDF/A extension schemas, as PDF/A requires for custom properties.
void declare_for_pdfa(pugi::xml_node rdf, const RdfNames& rdf_name, const std::string& about) {
    const Schema& schema = Schema::pith();
    pugi::xml_node li = pdfa_schemas_bag(rdf, rdf_name, about).append_child(rdf_name("li").c_str());
    li.append_attribute(rdf_name("parseType").c_str()) = "Resource";
    li.append_attribute("xmlns:pdfaSchema") = kPdfaSchemaNs;
    li.append_attribute("xmlns:pdfaProperty") = kPdfaPropertyNs;
    li.append_child("pdfaSchema:schema").text() = schema.description.c_str();
    li.append_child("pdfaSchema:namespaceURI").text() = schema.namespace_uri.c_str();
    li.append_child("pdfaSchema:prefix").text() = schema.prefix.c_str();
    pugi::xml_node seq = li.append_child("pdfaSchema:property").append_child(rdf_name("Seq").c_str());
    for (const auto& definition : schema.properties) {
        pugi::xml_node p = seq.append_child(rdf_name("li").c_str());
        p.append_attribute(rdf_name("parseType").c_str()) = "Resource";
        p.append_child("pdfaProperty:name").text() = definition.name.c_str();
        p.append_child("pdfaProperty:valueType").text() = definition.value_type.c_str();
        p.append_child("pdfaProperty:category").text() = "external";
        p.append_child("pdfaProperty:description").text() = definition.description.c_str();
    }
}

}  // namespace

std::string merge(std::string_view existing, const Properties& properties) {
    pugi::xml_document doc;
    if (!existing.empty()) load(doc, existing);
    pugi::xml_node rdf = rdf_of(doc);
    const RdfNames rdf_name{prefix_of(rdf.name())};
    const bool claims_pdfa = !existing.empty() && !read(existing).pdfa_part.empty();

    const std::string about = remove_pith(doc, rdf, rdf_name);
    drop_empty_descriptions(rdf, rdf_name);
    add_properties(rdf, rdf_name, about, properties);
    if (claims_pdfa) declare_for_pdfa(rdf, rdf_name, about);

    std::ostringstream out;
    out << "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n";
    doc.save(out, " ", pugi::format_indent | pugi::format_no_declaration, pugi::encoding_utf8);
    out << "<?xpacket end=\"w\"?>";
    return out.str();
}

std::string get(const Properties& p, Property property) {
    const auto it = p.values_.find(property.name);
    return it == p.values_.end() ? std::string() : it->second;
}

void set(Properties& p, Property property, std::string value) { p.values_[property.name] = std::move(value); }

void put_receipt(const Receipt& receipt, Properties& p) {
    const std::pair<Property, const std::string*> fields[] = {{property::receiptKeyId, &receipt.key_id},
                                                              {property::receiptAlgorithm, &receipt.algorithm},
                                                              {property::receiptSignature, &receipt.signature_b64},
                                                              {property::receiptFingerprint, &receipt.fingerprint},
                                                              {property::receiptSignedAt, &receipt.signed_at}};
    for (const auto& [name, value] : fields)
        if (!value->empty()) set(p, name, *value);
}

std::optional<Receipt> receipt_of(const Properties& p) {
    if (get(p, property::receiptSignature).empty()) return std::nullopt;
    return Receipt{get(p, property::receiptKeyId),
                   get(p, property::receiptAlgorithm),
                   get(p, property::receiptSignature),
                   get(p, property::receiptFingerprint),
                   get(p, property::receiptSignedAt),
                   "",
                   "canonical_sha256_bytes"};
}

}  // namespace pith::xmp
