// SPDX-License-Identifier: MIT
// The budget every decode and parse of a file draws from (src/pdf/budget.hpp, issue 15), and
// pith's own LZW, RunLength and ASCII85 decoders, checked against the PDF specification's
// example and against PoDoFo's decoders (an independent implementation) on generated data.
#include "core/error.hpp"
#include "pdf/budget.hpp"
#include "pdf/filters.hpp"
#include "pdf/syntax.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace pith::pdf;
using namespace PoDoFo;

namespace {

std::string decode_with(const char* filter, const std::string& in, Budget* budget = nullptr,
                        std::size_t limit = kMaxDecodedSize) {
    PdfObject name{PdfName(filter)};
    return decode_filters(in, &name, nullptr, limit, budget);
}

std::string podofo_decode(EPdfFilter type, const std::string& in) {
    std::unique_ptr<PdfFilter> f(PdfFilterFactory::Create(type));
    char* buf = nullptr;
    pdf_long len = 0;
    f->Decode(in.data(), static_cast<pdf_long>(in.size()), &buf, &len, nullptr);
    std::string out(buf ? buf : "", buf ? static_cast<std::size_t>(len) : 0);
    podofo_free(buf);
    return out;
}

// A plain LZW encoder (EarlyChange 1, a Clear when the table is nearly full), for test data.
std::string lzw_encode(const std::string& in) {
    std::string out;
    std::uint32_t acc = 0;
    int bits = 0, width = 9;
    auto put = [&](int code) {
        acc = (acc << width) | static_cast<std::uint32_t>(code), bits += width;
        while (bits >= 8) out.push_back(static_cast<char>((acc >> (bits -= 8)) & 0xFF));
    };
    std::map<std::string, int> table;
    auto reset = [&] {
        table.clear();
        for (int i = 0; i < 256; ++i) table[std::string(1, static_cast<char>(i))] = i;
    };
    reset();
    put(256);
    int next = 258;
    std::string w;
    for (char c : in) {
        if (table.count(w + c)) {
            w += c;
            continue;
        }
        put(table[w]);
        table[w + c] = next++;
        if (next + 1 > (1 << width) && width < 12) ++width;  // the decoder widens one code early
        w = std::string(1, c);
        if (next >= 4000) {
            put(table[w]), w.clear();
            put(256), reset(), next = 258, width = 9;
        }
    }
    if (!w.empty()) put(table[w]);
    put(257);
    if (bits > 0) out.push_back(static_cast<char>((acc << (8 - bits)) & 0xFF));
    return out;
}

std::string run_length_encode(const std::string& in) {
    std::string out;
    for (std::size_t i = 0; i < in.size();) {
        std::size_t run = 1;
        while (i + run < in.size() && run < 128 && in[i + run] == in[i]) ++run;
        if (run > 1) {
            out.push_back(static_cast<char>(257 - run)), out.push_back(in[i]);
        } else {
            std::size_t lit = 1;
            while (i + lit < in.size() && lit < 128 && in[i + lit] != in[i + lit - 1]) ++lit;
            out.push_back(static_cast<char>(lit - 1)), out.append(in, i, lit);
            run = lit;
        }
        i += run;
    }
    return out + '\x80';
}

// Bytes from a fixed seed, with runs (so that LZW and RunLength have something to find).
std::string sample(unsigned seed, std::size_t size) {
    std::mt19937 rng(seed);
    std::string s;
    while (s.size() < size) s.append(1 + rng() % 9, static_cast<char>("abc \n\x00\xff"[rng() % 7]));
    return s.substr(0, size);
}

}  // namespace

TEST_CASE("filters: LZW decodes the PDF specification's example and agrees with PoDoFo", "[budget]") {
    // PDF 32000-1, 7.4.4.2: "-----A---B" is the codes 256 45 258 258 65 259 66 257.
    const std::string spec_example("\x80\x0B\x60\x50\x22\x0C\x0C\x85\x01", 9);
    CHECK(decode_with("LZWDecode", spec_example) == "-----A---B");
    for (unsigned seed = 1; seed <= 20; ++seed) {
        const std::string data = sample(seed, 1000 * seed * seed);
        const std::string encoded = lzw_encode(data);
        REQUIRE(decode_with("LZWDecode", encoded) == data);
        CHECK(podofo_decode(ePdfFilter_LZWDecode, encoded) == data);  // the encoder is right, too
    }
    CHECK_THROWS_AS(decode_with("LZWDecode", std::string("\x80\x7f\xff\xff", 4)), pith::Error);  // a code never defined
}

TEST_CASE("filters: RunLength and ASCII85 decode what the specification and PoDoFo encode", "[budget]") {
    // 7.4.5: a length byte n < 128 is followed by n + 1 literal bytes, n > 128 by one byte
    // repeated 257 - n times; 128 ends the data. (PoDoFo 0.9.8's own decoder gets this wrong.)
    CHECK(decode_with("RunLengthDecode", std::string("\x02" "abc" "\xfd" "z" "\x80" "ignored", 13)) == "abczzzz");
    for (unsigned seed = 1; seed <= 20; ++seed) {
        const std::string data = sample(seed, 777 * seed);
        CHECK(decode_with("RunLengthDecode", run_length_encode(data)) == data);
        std::unique_ptr<PdfFilter> a85(PdfFilterFactory::Create(ePdfFilter_ASCII85Decode));
        char* buf = nullptr;
        pdf_long len = 0;
        a85->Encode(data.data(), static_cast<pdf_long>(data.size()), &buf, &len);
        const std::string encoded(buf, static_cast<std::size_t>(len));
        podofo_free(buf);
        CHECK(decode_with("ASCII85Decode", encoded) == data);
    }
    CHECK(decode_with("ASCII85Decode", "87cURD]i,\"Ebo80~>") == "Hello World!");
    CHECK(decode_with("ASCII85Decode", "z!!~>") == std::string(5, '\0'));
    CHECK_THROWS_AS(decode_with("ASCII85Decode", "87cU{~>"), pith::Error);
}

TEST_CASE("budget: every filter stops a bomb as it grows, and the budget stays spent", "[budget]") {
    Limits small;
    small.stream = 1 << 20;
    small.decoded = 3 << 20;
    const std::string spaces(8 << 20, ' ');
    const std::string bombs[][2] = {{"FlateDecode", flate_encode(spaces)},
                                    {"LZWDecode", lzw_encode(spaces)},
                                    {"RunLengthDecode", run_length_encode(spaces)},
                                    {"ASCII85Decode", std::string(4 << 20, 'z')}};
    for (const auto& [filter, data] : bombs) {
        Budget budget(small);
        CHECK_THROWS_AS(decode_with(filter.c_str(), data, &budget), TooLarge);
        CHECK(budget.spent());
        CHECK(budget.decoded_total() <= small.stream + (1 << 17));  // stopped within a step of the limit
        CHECK_THROWS_AS(decode_with("FlateDecode", flate_encode("small"), &budget), TooLarge);  // spent for good
    }
    // Streams under the per-stream limit add up to the per-file one.
    Budget budget(small);
    const std::string mib = flate_encode(std::string(900 << 10, 'x'));
    for (int i = 0; i < 3; ++i) CHECK(decode_with("FlateDecode", mib, &budget).size() == (900u << 10));
    CHECK_THROWS_AS(decode_with("FlateDecode", mib, &budget), TooLarge);
    // The caller's own limit is an ordinary error (it reads around it); the budget is not spent.
    Budget fresh(small);
    CHECK_THROWS_AS(decode_with("FlateDecode", mib, &fresh, 1000), pith::Error);
    CHECK_FALSE(fresh.spent());
    // Every step of a chain counts: Flate over LZW decodes twice.
    Budget chain(small);
    PdfArray filters;
    filters.push_back(PdfName("FlateDecode")), filters.push_back(PdfName("LZWDecode"));
    PdfObject filter(filters);
    CHECK_THROWS_AS(decode_filters(flate_encode(lzw_encode(spaces)), &filter, nullptr, kMaxDecodedSize, &chain), TooLarge);
}

TEST_CASE("budget: parsing counts values and stops at the nesting limit", "[budget]") {
    Limits small;
    small.values = 1000;
    small.depth = 50;
    auto parse = [&](const std::string& text) {
        Budget budget(small);
        Lexer lexer(text.data(), text.size());
        lexer.charge(&budget);
        PdfVariant v;
        lexer.read(v);
        return v;
    };
    std::string names = "[";
    for (int i = 0; i < 999; ++i) names += "/a ";
    CHECK(parse(names + "]").GetArray().size() == 999);
    CHECK_THROWS_AS(parse(names + "/a /a]"), TooLarge);
    std::string numbers = "[";
    for (int i = 0; i < 2000; ++i) numbers += "1 ";
    CHECK_THROWS_AS(parse(numbers + "]"), TooLarge);  // the fast path for arrays of numbers counts too
    CHECK(parse(std::string(51, '[') + std::string(51, ']')).IsArray());  // the outermost at depth 0
    // Deeper is a damaged object (PoDoFo's error, as its own reader gives), not an overrun.
    CHECK_THROWS_AS(parse(std::string(52, '[') + std::string(52, ']')), PdfError);
    CHECK_THROWS_AS(parse(std::string(100000, '[') + std::string(100000, ']')), PdfError);
}

TEST_CASE("budget: limits from a spec", "[budget]") {
    const Limits l = Limits::parse("decoded=1G,stream=64M,values=123,depth=40,revisions=7,forms=9");
    CHECK(l.decoded == (std::size_t(1) << 30));
    CHECK(l.stream == (std::size_t(64) << 20));
    CHECK(l.values == 123);
    CHECK(l.depth == 40);
    CHECK(l.revisions == 7);
    CHECK(l.forms == 9);
    CHECK(Limits::parse(Limits().describe()).describe() == Limits().describe());
    CHECK(Limits::parse("").describe() == Limits().describe());
    for (const char* bad : {"decoded", "decoded=", "decoded=0", "decoded=5X", "pages=3", "depth=100000", "values=-1"})
        CHECK_THROWS_AS(Limits::parse(bad), pith::Error);
}

TEST_CASE("budget: within_budget names the file and turns what a hostile file throws into pdf.too_large", "[budget]") {
    auto message = [](auto&& work) {
        try {
            within_budget("x.pdf", work);
        } catch (const TooLarge& e) {
            return "TooLarge " + std::string(e.what());
        } catch (const pith::Error& e) {
            return "Error " + std::string(e.what());
        }
        return std::string("none");
    };
    CHECK(message([] { throw std::bad_alloc(); return 0; }).rfind("TooLarge x.pdf: out of memory", 0) == 0);
    CHECK(message([] { PODOFO_RAISE_ERROR(ePdfError_InvalidDataType); return 0; }) ==
          "Error x.pdf: cannot read the PDF (invalid data type)");
    CHECK(message([] { throw pith::Error("x.pdf: other", pith::err::input_unreadable); return 0; }) == "Error x.pdf: other");
    // What other libraries throw (nlohmann::json, std::system_error, ...) is internal.error, named.
    try {
        within_budget("x.pdf", [] { throw std::runtime_error("library words"); return 0; });
        FAIL("nothing thrown");
    } catch (const pith::Error& e) {
        CHECK(e.code() == "internal.error");
        CHECK(std::string(e.what()) == "x.pdf: internal error: library words");
    }
    try {
        within_budget("x.pdf", [] { PODOFO_RAISE_ERROR(ePdfError_InvalidPassword); return 0; });
        FAIL("nothing thrown");
    } catch (const pith::Error& e) {
        CHECK(e.code() == "pdf.password");
    }
    // An overrun a reader caught and read around still refuses the file.
    CHECK(message([] {
              try {
                  Budget::active()->revisions(std::size_t(1) << 40);
              } catch (const pith::Error&) {
              }
              return 0;
          }).rfind("TooLarge x.pdf: more than", 0) == 0);
    CHECK(Budget::active() == nullptr);  // the scope ended with the work
}
