// SPDX-License-Identifier: MIT
// libFuzzer target: pith's XMP reader and merger (src/xmp) on any bytes. Either may refuse
// the packet, but only with a pith::Error; a packet pith reads and merges into reads back with
// exactly the pith properties it set, and keeps its title and PDF/A claim (unless merge had to
// make a new packet).
#include "core/error.hpp"
#include "xmp/xmp.hpp"

#include <pugixml.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// Whether the packet has an element named RDF in RDF's namespace (bound where it is used; the
// depth is bounded by pith's read, which accepted the packet).
bool has_rdf(const std::string& packet) {
    pugi::xml_document doc;
    if (!doc.load_buffer(packet.data(), packet.size(), pugi::parse_default, pugi::encoding_auto)) return false;
    const pugi::xpath_node_set rdf = doc.select_nodes("//*[local-name()='RDF']");
    for (const pugi::xpath_node& found : rdf) {
        const std::string name = found.node().name();
        const std::size_t colon = name.find(':');
        const std::string attribute = colon == std::string::npos ? "xmlns" : "xmlns:" + name.substr(0, colon);
        for (pugi::xml_node n = found.node(); n; n = n.parent()) {
            if (const pugi::xml_attribute a = n.attribute(attribute.c_str())) {
                if (std::string(a.value()) == "http://www.w3.org/1999/02/22-rdf-syntax-ns#") return true;
                break;
            }
        }
    }
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string packet(reinterpret_cast<const char*>(data), size);
    pith::xmp::Packet before;
    try {
        before = pith::xmp::read(packet);
    } catch (const pith::Error&) {
        return 0;  // not well-formed: merge would refuse it too, or make a new packet
    }
    pith::xmp::Properties set;
    pith::xmp::set(set, pith::xmp::property::number, "pith:2024:abcdefgh");
    pith::xmp::set(set, pith::xmp::property::canonicalSha256, "00ff<&>\"'");
    std::string merged;
    try {
        merged = pith::xmp::merge(packet, set);
    } catch (const pith::Error&) {
        return 0;  // refused (e.g. a packet grown past kMaxPacketSize)
    }
    pith::xmp::Packet after;
    try {
        after = pith::xmp::read(merged);
    } catch (const pith::Error& e) {
        std::fprintf(stderr, "pith cannot read the packet it merged: %s\n", e.what());
        std::abort();
    }
    // A packet without an rdf:RDF element (in RDF's namespace) is replaced by a new one (merge
    // "may make a new packet"): then only the pith properties are asked for.
    const bool replaced = !has_rdf(packet);
    if (after.pith != set || (!replaced && (after.title != before.title || after.pdfa_part != before.pdfa_part ||
                                            after.pdfa_conformance != before.pdfa_conformance))) {
        std::fprintf(stderr, "merged packet reads back otherwise (pith properties %zu, title '%s' -> '%s', pdfa '%s' -> '%s')\n",
                     after.pith.size(), before.title.c_str(), after.title.c_str(), before.pdfa_part.c_str(), after.pdfa_part.c_str());
        std::abort();
    }
    return 0;
}
