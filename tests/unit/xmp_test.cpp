// SPDX-License-Identifier: MIT
// XMP: merging keeps what a packet had, escapes any record content, declares pith for PDF/A.
#include "core/error.hpp"
#include "xmp/xmp.hpp"

#include <catch2/catch.hpp>

#include <pugixml.hpp>

using namespace pith;

namespace {

const char* kPdfaPacket = R"(<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="1" pdfaid:conformance="B"/>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">A Paper</rdf:li></rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>Ada</rdf:li></rdf:Seq></dc:creator></rdf:Description>
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:CreatorTool>LaTeX</xmp:CreatorTool></rdf:Description>
</rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>)";

int count(const std::string& haystack, const std::string& needle) {
    int n = 0;
    for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
    return n;
}

}  // namespace

// pith's properties with the values given.
xmp::Properties properties(std::initializer_list<std::pair<xmp::Property, std::string>> values) {
    xmp::Properties p;
    for (const auto& [property, value] : values) xmp::set(p, property, value);
    return p;
}

TEST_CASE("the schema comes from templates/pith-xmp.json", "[xmp]") {
    const auto& s = xmp::Schema::pith();
    CHECK(s.namespace_uri == "https://pith.science/ns/xmp/1.0/");
    CHECK(s.prefix == "pith");
    CHECK(s.defines("number"));
    CHECK(s.defines("canonicalRecord"));
    CHECK_FALSE(s.defines("nonsense"));
    // A packet may hold a pith property the schema does not define; merging never writes one.
    const xmp::Properties nonsense = xmp::read(R"(<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pith="https://pith.science/ns/xmp/1.0/"><pith:nonsense>x</pith:nonsense></rdf:Description></rdf:RDF></x:xmpmeta>)").pith;
    CHECK(nonsense.size() == 1);
    CHECK_THROWS_WITH(xmp::merge("", nonsense), Catch::Contains("not in templates/pith-xmp.json"));
}

TEST_CASE("merging keeps every property, replaces pith's and reads back", "[xmp]") {
    std::string record = R"({"a":"<b>&amp; ]]> \u00e9 😀","n":1})";
    std::string merged = xmp::merge(kPdfaPacket, properties({{xmp::property::number, "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3"}, {xmp::property::canonicalRecord, record}}));
    pugi::xml_document doc;
    REQUIRE(doc.load_string(merged.c_str()));  // well-formed
    xmp::Packet p = xmp::read(merged);
    CHECK(xmp::get(p.pith, xmp::property::number) == "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3");
    CHECK(xmp::get(p.pith, xmp::property::canonicalRecord) == record);
    CHECK(p.title == "A Paper");
    CHECK(p.pdfa_part == "1");
    CHECK(p.pdfa_conformance == "B");
    CHECK(p.pith_declared_for_pdfa);
    CHECK(merged.find("<xmp:CreatorTool>LaTeX</xmp:CreatorTool>") != std::string::npos);
    CHECK(merged.find("<rdf:li>Ada</rdf:li>") != std::string::npos);
    CHECK(merged.find("]]>") == std::string::npos);

    // Every pith property is declared once in the PDF/A extension schema.
    for (const auto& def : xmp::Schema::pith().properties)
        CHECK(count(merged, "<pdfaProperty:name>" + def.name + "</pdfaProperty:name>") == 1);

    // Merging again replaces: one value, one declaration, nothing stale.
    std::string again = xmp::merge(merged, properties({{xmp::property::number, "pith:2023:GZ3OEI4JYPZPS66UULEGJKFYJU"}}));
    xmp::Packet q = xmp::read(again);
    CHECK(q.pith.size() == 1);
    CHECK(xmp::get(q.pith, xmp::property::number) == "pith:2023:GZ3OEI4JYPZPS66UULEGJKFYJU");
    CHECK(count(again, "pith:number") == 2);  // open and close tag
    CHECK(count(again, "<pdfaSchema:namespaceURI>https://pith.science/ns/xmp/1.0/</pdfaSchema:namespaceURI>") == 1);
    CHECK(again.find("pdfaid:part=\"1\"") != std::string::npos);
}

TEST_CASE("a packet without PDF/A gets no extension schema; an empty one is created", "[xmp]") {
    std::string fresh = xmp::merge("", properties({{xmp::property::number, "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3"}}));
    CHECK(fresh.find("pdfaExtension") == std::string::npos);
    CHECK(fresh.rfind("<?xpacket begin=", 0) == 0);
    CHECK(xmp::get(xmp::read(fresh).pith, xmp::property::number) == "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3");
}

TEST_CASE("pith properties written by other tools in any prefix or as attributes are read and replaced", "[xmp]") {
    std::string other = R"(<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:p="https://pith.science/ns/xmp/1.0/" p:number="pith:2023:GZ3OEI4JYPZPS66UULEGJKFYJU"><p:title>T</p:title></rdf:Description>
</rdf:RDF></x:xmpmeta>)";
    CHECK(xmp::get(xmp::read(other).pith, xmp::property::number) == "pith:2023:GZ3OEI4JYPZPS66UULEGJKFYJU");
    CHECK(xmp::get(xmp::read(other).pith, xmp::property::title) == "T");
    xmp::Packet p = xmp::read(xmp::merge(other, properties({{xmp::property::number, "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3"}})));
    CHECK(p.pith.size() == 1);
    CHECK(xmp::get(p.pith, xmp::property::number) == "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3");
}

TEST_CASE("hostile packets: no entity expansion, no recursion, clear errors", "[xmp]") {
    std::string laughs = R"(<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY ext SYSTEM "file:///etc/passwd">]><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description xmlns:pith="https://pith.science/ns/xmp/1.0/"><pith:number>&lol2;&ext;</pith:number></rdf:Description></rdf:RDF></x:xmpmeta>)";
    std::string value;
    try {
        value = xmp::get(xmp::read(laughs).pith, xmp::property::number);
    } catch (const Error&) {
        value = "refused";
    }
    CHECK(value.find("lollol") == std::string::npos);
    CHECK(value.find("root:") == std::string::npos);

    std::string deep;
    for (int i = 0; i < 200000; ++i) deep += "<a>";
    for (int i = 0; i < 200000; ++i) deep += "</a>";
    CHECK_THROWS_WITH(xmp::read(deep), Catch::Contains("nested deeper than 256"));
    CHECK_THROWS_WITH(xmp::read("<a><b></a>"), Catch::Contains("not well-formed"));
    CHECK_THROWS_WITH(xmp::read(std::string(xmp::kMaxPacketSize + 1, ' ')), Catch::Contains("larger than"));
}

TEST_CASE("a packet that other readers may read differently is flagged ambiguous", "[xmp]") {
    const std::string ns = "xmlns:pith=\"https://pith.science/ns/xmp/1.0/\"";
    auto packet = [](const std::string& body) {
        return "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">" + body +
               "</rdf:RDF></x:xmpmeta>";
    };
    // What pith stamp writes reads one way only, merged into a PDF/A packet too.
    CHECK(xmp::read(xmp::merge("", properties({{xmp::property::number, "pith:2024:A"}}))).ambiguities.empty());
    CHECK(xmp::read(xmp::merge(kPdfaPacket, properties({{xmp::property::number, "pith:2024:A"}}))).ambiguities.empty());

    auto ambiguous = [&](const std::string& body, const std::string& why) {
        INFO(body);
        xmp::Packet p = xmp::read(packet(body));
        REQUIRE(p.ambiguities.size() >= 1);
        CHECK_THAT(p.ambiguities.front(), Catch::Contains(why));
    };
    ambiguous("<rdf:Description rdf:about=\"\" " + ns + "><pith:number>pith:2024:A</pith:number></rdf:Description>"
              "<rdf:Description rdf:about=\"\" " + ns + "><pith:number>pith:2024:B</pith:number></rdf:Description>",
              "pith:number is given more than once");
    ambiguous("<rdf:Description rdf:about=\"\" " + ns + " pith:number=\"pith:2024:A\"><pith:number>pith:2024:B</pith:number></rdf:Description>",
              "pith:number is given more than once");
    ambiguous("<rdf:Description rdf:about=\"\" " + ns + "><pith:number>pith:2024:A</pith:number><pith:number>pith:2024:A</pith:number></rdf:Description>",
              "given more than once");
    ambiguous("<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" " + ns +
                  "><dc:subject><pith:number>pith:2024:A</pith:number></dc:subject></rdf:Description>",
              "stands outside an rdf:Description");
    ambiguous("<rdf:Description rdf:about=\"\" " + ns + "><pith:number><rdf:Alt><rdf:li>pith:2024:A</rdf:li></rdf:Alt></pith:number></rdf:Description>",
              "not a simple text value");
    ambiguous("<rdf:Description rdf:about=\"\" " + ns + "><pith:number rdf:resource=\"x\">pith:2024:A</pith:number></rdf:Description>",
              "not a simple text value");
    const std::string one = "<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>" +
                            packet("<rdf:Description rdf:about=\"\" " + ns + "><pith:number>pith:2024:A</pith:number></rdf:Description>") +
                            "<?xpacket end=\"w\"?>";
    CHECK(xmp::read(one).ambiguities.empty());
    // Two packets in one stream: refused as XML, or read and flagged, never read one way silently.
    bool refused = false;
    xmp::Packet twice;
    try {
        twice = xmp::read(one + one);
    } catch (const Error&) {
        refused = true;
    }
    CHECK((refused || !twice.ambiguities.empty()));
    const std::string rdf = "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"></rdf:RDF>";
    xmp::Packet two = xmp::read("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">" + rdf + rdf + "</x:xmpmeta>");
    REQUIRE(two.ambiguities.size() == 1);
    CHECK_THAT(two.ambiguities.front(), Catch::Contains("more than one rdf:RDF"));
}

TEST_CASE("dc:title, dc:creator and dc:description are read in any prefix, as elements or attributes", "[xmp]") {
    using V = std::vector<std::string>;
    CHECK(xmp::read(kPdfaPacket).dublin_core == V{"creator=Ada", "title=A Paper"});
    // What an honest re-save changes (layout, the prefix's name) reads the same.
    const std::string relaid = R"(<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:e="http://purl.org/dc/elements/1.1/">
   <e:creator>
    <rdf:Seq>
     <rdf:li>Ada</rdf:li>
    </rdf:Seq>
   </e:creator>
   <e:title><rdf:Alt><rdf:li xml:lang="x-default"><![CDATA[A  Paper]]></rdf:li></rdf:Alt></e:title>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>)";
    CHECK(xmp::read(relaid).dublin_core == xmp::read(kPdfaPacket).dublin_core);
    // Every alternative and list item counts, and so do the shorthand attributes; other namespaces
    // and names that only start so do not.
    const std::string many = R"(<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:o="urn:other" dc:description="Shown" o:title="Not">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">A Paper</rdf:li><rdf:li xml:lang="de">Ein Aufsatz</rdf:li></rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>Ada</rdf:li><rdf:li>Bob</rdf:li></rdf:Seq></dc:creator><dc:titleAlias>Not</dc:titleAlias>
</rdf:Description></rdf:RDF></x:xmpmeta>)";
    CHECK(xmp::read(many).dublin_core == V{"creator=Ada Bob", "description=Shown", "title=A Paper Ein Aufsatz"});
    CHECK(xmp::read(xmp::merge("", {})).dublin_core.empty());
}
