// SPDX-License-Identifier: MIT
#include "pdf/filters.hpp"

#include "core/error.hpp"
#include "core/hex.hpp"
#include "core/platform.hpp"

#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace pith::pdf {

using namespace PoDoFo;

namespace {

// A decoded stream that has grown past kPopulateFrom has its next kPopulateAhead bytes of room
// mapped in one call (core/platform.hpp: Linux 5.14; elsewhere nothing happens) instead of
// a page fault at each of their pages, a large share of inflating a big page content
// (doc/performance.md).
constexpr std::size_t kPopulateFrom = 256 << 10, kPopulateAhead = 256 << 10;

void populate(std::string& room, std::size_t from, std::size_t length) {
    platform::populate_for_write(room.data() + from, std::min(room.capacity(), from + length) - from);
}

// The growth of one decoded stream, checked against the caller's limit (pith::Error: the caller
// may read around it) and the file's budget (TooLarge), so a bomb stops as it grows.
class Meter {
public:
    Meter(std::size_t limit, Budget* budget) : limit_(limit), budget_(budget) {}
    void grew_to(std::size_t size) {
        if (budget_) {
            budget_->stream(size);
            if (size > charged_) budget_->decoded(size - charged_);
            charged_ = std::max(charged_, size);
        }
        if (size > limit_) throw Error("decoded stream exceeds " + std::to_string(limit_ >> 20) + " MiB", err::pdf_too_large);
    }

private:
    std::size_t limit_, charged_ = 0;
    Budget* budget_;
};

// How often the decoders below report their growth.
constexpr std::size_t kMeterStep = 65536;

}  // namespace

std::string flate_decode(std::string_view in, std::size_t limit, Budget* budget) {
    std::string out;
    for (int attempt = 0; attempt < 2; ++attempt) {
        out.clear();
        // Room for a generous guess of the decoded size: pages not written to cost nothing,
        // while growing the string copies it into freshly faulted ones.
        out.reserve(std::min(limit, std::max<std::size_t>(in.size() * 32, 65536)));
        Meter meter(limit, budget);
        z_stream zs;
        std::memset(&zs, 0, sizeof zs);
        // Attempt 0: a zlib stream, its deflate data read raw after the two-byte header (so no
        // Adler-32 is computed: readers do not refuse data whose checksum is wrong, and neither
        // did pith), or gzip; attempt 1: raw deflate from the first byte.
        const bool zlib_header = in.size() >= 2 && (in[0] & 0x8F) == 0x08 && !(in[1] & 0x20) &&
                                 ((static_cast<unsigned char>(in[0]) << 8) | static_cast<unsigned char>(in[1])) % 31 == 0;
        const std::size_t skip = attempt == 0 && zlib_header ? 2 : 0;
        const int wbits = attempt == 0 && !zlib_header ? 15 + 32 : -15;
        if (inflateInit2(&zs, wbits) != Z_OK) throw Error("cannot initialise zlib", err::internal_error);
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + skip));
        zs.avail_in = static_cast<uInt>(in.size() - skip);
        int rc = Z_OK;
        while (true) {  // inflated straight into `out`, a block at a time
            constexpr std::size_t kBlock = 65536;
            const std::size_t had = out.size();
            if (had >= kPopulateFrom && had % kPopulateAhead == 0) populate(out, had, kPopulateAhead);
            out.resize(had + kBlock);
            zs.next_out = reinterpret_cast<Bytef*>(&out[had]);
            zs.avail_out = kBlock;
            rc = inflate(&zs, Z_NO_FLUSH);
            const std::size_t got = kBlock - zs.avail_out;
            out.resize(had + got);
            try {
                meter.grew_to(out.size());
            } catch (...) {
                inflateEnd(&zs);
                throw;
            }
            if (rc == Z_STREAM_END) break;
            if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;  // truncated input: keep what we have
            if (rc != Z_OK && rc != Z_BUF_ERROR) break;        // corrupt tail
            if (got == 0 && zs.avail_in == 0) break;
        }
        inflateEnd(&zs);
        if (rc == Z_STREAM_END || !out.empty()) return out;
        if (in.empty()) return out;
    }
    throw Error("corrupt Flate data", err::pdf_syntax);
}

std::string flate_encode(std::string_view in) {
    // Small hash tables for small inputs (a badge has a dozen glyphs of a few hundred bytes):
    // zlib clears them for every stream, which costs more than compressing a glyph.
    z_stream zs{};
    const int mem_level = in.size() < 16384 ? 1 : 8;
    if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15, mem_level, Z_DEFAULT_STRATEGY) != Z_OK)
        throw Error("zlib compression failed", err::internal_error);
    std::string out(deflateBound(&zs, static_cast<uLong>(in.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    zs.next_out = reinterpret_cast<Bytef*>(&out[0]);
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) throw Error("zlib compression failed", err::internal_error);
    return out;
}

static long long dict_int(const PdfDictionary* d, const char* key, long long def) {
    if (!d) return def;
    const PdfObject* o = d->GetKey(PdfName(key));
    if (!o) return def;
    if (o->IsNumber()) return o->GetNumber();
    if (o->IsReal()) return static_cast<long long>(o->GetReal());
    return def;
}

std::string apply_predictor(std::string data, const PdfDictionary* parms) {
    long long predictor = dict_int(parms, "Predictor", 1);
    if (predictor <= 1) return data;
    long long colors = dict_int(parms, "Colors", 1);
    long long bpc = dict_int(parms, "BitsPerComponent", 8);
    long long columns = dict_int(parms, "Columns", 1);
    if (colors < 1 || colors > 32 || columns < 1 || columns > (1 << 24) ||
        !(bpc == 1 || bpc == 2 || bpc == 4 || bpc == 8 || bpc == 16))
        throw Error("invalid predictor parameters", err::pdf_syntax);
    const std::size_t bpp = std::max<std::size_t>(1, static_cast<std::size_t>((colors * bpc + 7) / 8));
    const std::size_t rowlen = static_cast<std::size_t>((colors * bpc * columns + 7) / 8);
    if (predictor == 2) {
        if (bpc != 8) throw Error("TIFF predictor with BitsPerComponent != 8 is not supported", err::pdf_syntax);
        for (std::size_t row = 0; row + rowlen <= data.size(); row += rowlen)
            for (std::size_t i = bpp; i < rowlen; ++i)
                data[row + i] = static_cast<char>(data[row + i] + data[row + i - bpp]);
        return data;
    }
    if (predictor < 10) throw Error("unsupported predictor " + std::to_string(predictor), err::pdf_syntax);
    std::string out;
    out.reserve(data.size());
    std::vector<unsigned char> prev(rowlen, 0), cur(rowlen, 0);
    std::size_t pos = 0;
    while (pos < data.size()) {
        unsigned char type = static_cast<unsigned char>(data[pos++]);
        std::size_t n = std::min(rowlen, data.size() - pos);
        std::fill(cur.begin(), cur.end(), 0);
        std::memcpy(cur.data(), data.data() + pos, n);
        pos += n;
        for (std::size_t i = 0; i < rowlen; ++i) {
            unsigned a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
            switch (type) {
                case 0: break;
                case 1: cur[i] = static_cast<unsigned char>(cur[i] + a); break;
                case 2: cur[i] = static_cast<unsigned char>(cur[i] + b); break;
                case 3: cur[i] = static_cast<unsigned char>(cur[i] + ((a + b) >> 1)); break;
                case 4: {
                    int p = int(a) + int(b) - int(c);
                    int pa = std::abs(p - int(a)), pb = std::abs(p - int(b)), pc = std::abs(p - int(c));
                    unsigned pr = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
                    cur[i] = static_cast<unsigned char>(cur[i] + pr);
                    break;
                }
                default: throw Error("invalid PNG predictor row type " + std::to_string(type), err::pdf_syntax);
            }
        }
        out.append(reinterpret_cast<const char*>(cur.data()), n);
        std::swap(prev, cur);
    }
    return out;
}

// ASCIIHexDecode: up to '>', white space skipped.
static std::string hex_decode(const std::string& in) {
    std::string out;
    if (!decode_hex(std::string_view(in).substr(0, in.find('>')), out, NonHex::SkipSpace))
        throw Error("invalid character in ASCIIHex data", err::pdf_syntax);
    return out;
}

// LZWDecode (PDF 32000-1, 7.4.4): 9- to 12-bit codes, 256 clears the table, 257 ends the data;
// with /EarlyChange 1 (the default) the code width grows one code early.
static std::string lzw_decode(std::string_view in, const PdfDictionary* parms, Meter& meter) {
    const int early = dict_int(parms, "EarlyChange", 1) ? 1 : 0;
    std::vector<std::pair<int, unsigned char>> table;  // code -> (prefix code or -1, last byte)
    auto reset = [&] {
        table.clear();
        for (int i = 0; i < 256; ++i) table.emplace_back(-1, static_cast<unsigned char>(i));
        table.emplace_back(-1, 0), table.emplace_back(-1, 0);  // 256 and 257: never looked up
    };
    reset();
    std::string out, entry;
    auto expand = [&](int code) {  // entry = the bytes of `code`
        entry.clear();
        for (int c = code; c >= 0; c = table[static_cast<std::size_t>(c)].first) entry.push_back(static_cast<char>(table[static_cast<std::size_t>(c)].second));
        std::reverse(entry.begin(), entry.end());
    };
    int width = 9, prev = -1;
    std::uint32_t acc = 0;
    int bits = 0;
    std::size_t reported = 0;
    for (std::size_t pos = 0;;) {
        while (bits < width && pos < in.size()) acc = (acc << 8) | static_cast<unsigned char>(in[pos++]), bits += 8;
        if (bits < width) break;
        bits -= width;
        const int code = static_cast<int>((acc >> bits) & ((1u << width) - 1));
        if (code == 256) {
            reset();
            width = 9, prev = -1;
            continue;
        }
        if (code == 257) break;
        if (prev < 0) {
            if (code > 255) throw Error("corrupt LZW data", err::pdf_syntax);
            expand(code);
        } else {
            if (code < static_cast<int>(table.size())) expand(code);
            else if (code == static_cast<int>(table.size())) expand(prev), entry.push_back(entry[0]);
            else throw Error("corrupt LZW data", err::pdf_syntax);
            if (table.size() < 4096) table.emplace_back(prev, static_cast<unsigned char>(entry[0]));
            if (static_cast<int>(table.size()) + early >= (1 << width) && width < 12) ++width;
        }
        out += entry;
        prev = code;
        if (out.size() - reported >= kMeterStep) meter.grew_to(reported = out.size());
    }
    meter.grew_to(out.size());
    return out;
}

// RunLengthDecode (7.4.5): a length byte n, then n + 1 literal bytes (n < 128) or one byte
// repeated 257 - n times (n > 128); 128 ends the data.
static std::string run_length_decode(std::string_view in, Meter& meter) {
    std::string out;
    std::size_t reported = 0;
    for (std::size_t pos = 0; pos < in.size();) {
        const unsigned n = static_cast<unsigned char>(in[pos++]);
        if (n == 128) break;
        if (n < 128) {
            const std::size_t take = std::min<std::size_t>(n + 1, in.size() - pos);
            out.append(in.data() + pos, take);
            pos += take;
        } else if (pos < in.size()) {
            out.append(257 - n, in[pos++]);
        }
        if (out.size() - reported >= kMeterStep) meter.grew_to(reported = out.size());
    }
    meter.grew_to(out.size());
    return out;
}

// ASCII85Decode (7.4.3): groups of five characters '!'..'u' for four bytes, 'z' for four zero
// bytes, white space ignored, "~>" ends the data; a final partial group of n characters gives
// n - 1 bytes.
static std::string ascii85_decode(std::string_view in, Meter& meter) {
    std::string out;
    std::uint64_t group = 0;
    int count = 0;
    std::size_t reported = 0;
    for (std::size_t pos = 0; pos < in.size(); ++pos) {
        const char c = in[pos];
        if (c == '~') break;
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0') continue;
        if (c == 'z' && count == 0) {
            out.append(4, '\0');
        } else if (c >= '!' && c <= 'u') {
            group = group * 85 + static_cast<std::uint64_t>(c - '!');
            if (++count == 5) {
                if (group > 0xFFFFFFFFu) throw Error("invalid ASCII85 group", err::pdf_syntax);
                for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((group >> shift) & 0xFF));
                group = 0, count = 0;
            }
        } else {
            throw Error("invalid character in ASCII85 data", err::pdf_syntax);
        }
        if (out.size() - reported >= kMeterStep) meter.grew_to(reported = out.size());
    }
    if (count == 1) throw Error("ASCII85 data ends with a single character", err::pdf_syntax);
    if (count > 1) {
        for (int i = count; i < 5; ++i) group = group * 85 + 84;
        if (group > 0xFFFFFFFFu) throw Error("invalid ASCII85 group", err::pdf_syntax);
        for (int i = 0; i < count - 1; ++i) out.push_back(static_cast<char>((group >> (24 - 8 * i)) & 0xFF));
    }
    meter.grew_to(out.size());
    return out;
}

std::string decode_filters(std::string_view in, const PdfObject* filter, const PdfObject* parms,
                           std::size_t limit, Budget* budget) {
    std::vector<PdfName> names;
    std::vector<const PdfDictionary*> plist;
    if (!filter || filter->IsNull()) return std::string(in);
    if (filter->IsName()) {
        names.push_back(filter->GetName());
    } else if (filter->IsArray()) {
        for (const auto& f : filter->GetArray()) {
            if (!f.IsName()) throw Error("invalid /Filter entry", err::pdf_syntax);
            names.push_back(f.GetName());
        }
    } else {
        throw Error("invalid /Filter", err::pdf_syntax);
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
        const PdfDictionary* p = nullptr;
        if (parms && parms->IsDictionary() && names.size() == 1) p = &parms->GetDictionary();
        if (parms && parms->IsDictionary() && i == 0) p = &parms->GetDictionary();
        if (parms && parms->IsArray() && i < parms->GetArray().size() && parms->GetArray()[i].IsDictionary())
            p = &parms->GetArray()[i].GetDictionary();
        plist.push_back(p);
    }
    std::string data(in);
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string& n = names[i].GetName();
        Meter meter(limit, budget);  // each step's output is decoded data (a chain is no way around the budget)
        if (n == "FlateDecode" || n == "Fl") {
            data = flate_decode(data, limit, budget);
        } else if (n == "LZWDecode" || n == "LZW") {
            data = lzw_decode(data, plist[i], meter);
        } else if (n == "ASCIIHexDecode" || n == "AHx") {
            data = hex_decode(data);  // never longer than its input
        } else if (n == "ASCII85Decode" || n == "A85") {
            data = ascii85_decode(data, meter);
        } else if (n == "RunLengthDecode" || n == "RL") {
            data = run_length_decode(data, meter);
        } else if (n == "Crypt") {
            // Identity crypt filter (others are handled by the encryption layer).
        } else {
            throw Error("unsupported stream filter /" + n, err::pdf_syntax);
        }
        if (n == "FlateDecode" || n == "Fl" || n == "LZWDecode" || n == "LZW") data = apply_predictor(std::move(data), plist[i]);
        if (data.size() > limit) throw Error("decoded stream too large", err::pdf_too_large);
    }
    return data;
}

}  // namespace pith::pdf
