#include "pdf/filters.hpp"

#include "core/error.hpp"
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
// a page fault at each of their pages: 20% of the time a large page content takes to inflate.
constexpr std::size_t kPopulateFrom = 256 << 10, kPopulateAhead = 256 << 10;

void populate(std::string& room, std::size_t from, std::size_t length) {
    platform::populate_for_write(room.data() + from, std::min(room.capacity(), from + length) - from);
}

}  // namespace

std::string flate_decode(std::string_view in, std::size_t limit) {
    std::string out;
    for (int attempt = 0; attempt < 2; ++attempt) {
        out.clear();
        // Room for a generous guess of the decoded size: pages not written to cost nothing,
        // while growing the string copies it into freshly faulted ones.
        out.reserve(std::min(limit, std::max<std::size_t>(in.size() * 32, 65536)));
        z_stream zs;
        std::memset(&zs, 0, sizeof zs);
        // Attempt 0: a zlib stream, its deflate data read raw after the two-byte header (so no
        // Adler-32 is computed: readers do not refuse data whose checksum is wrong, and neither
        // did pith), or gzip; attempt 1: raw deflate from the first byte.
        const bool zlib_header = in.size() >= 2 && (in[0] & 0x8F) == 0x08 && !(in[1] & 0x20) &&
                                 ((static_cast<unsigned char>(in[0]) << 8) | static_cast<unsigned char>(in[1])) % 31 == 0;
        const std::size_t skip = attempt == 0 && zlib_header ? 2 : 0;
        const int wbits = attempt == 0 && !zlib_header ? 15 + 32 : -15;
        if (inflateInit2(&zs, wbits) != Z_OK) throw Error("cannot initialise zlib");
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
            if (out.size() > limit) {
                inflateEnd(&zs);
                throw Error("decoded stream exceeds " + std::to_string(limit >> 20) + " MiB");
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
    throw Error("corrupt Flate data");
}

std::string flate_encode(std::string_view in) {
    // Small hash tables for small inputs (a badge has a dozen glyphs of a few hundred bytes):
    // zlib clears them for every stream, which costs more than compressing a glyph.
    z_stream zs{};
    const int mem_level = in.size() < 16384 ? 1 : 8;
    if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15, mem_level, Z_DEFAULT_STRATEGY) != Z_OK)
        throw Error("zlib compression failed");
    std::string out(deflateBound(&zs, static_cast<uLong>(in.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    zs.next_out = reinterpret_cast<Bytef*>(&out[0]);
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) throw Error("zlib compression failed");
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
        throw Error("invalid predictor parameters");
    const std::size_t bpp = std::max<std::size_t>(1, static_cast<std::size_t>((colors * bpc + 7) / 8));
    const std::size_t rowlen = static_cast<std::size_t>((colors * bpc * columns + 7) / 8);
    if (predictor == 2) {
        if (bpc != 8) throw Error("TIFF predictor with BitsPerComponent != 8 is not supported");
        for (std::size_t row = 0; row + rowlen <= data.size(); row += rowlen)
            for (std::size_t i = bpp; i < rowlen; ++i)
                data[row + i] = static_cast<char>(data[row + i] + data[row + i - bpp]);
        return data;
    }
    if (predictor < 10) throw Error("unsupported predictor " + std::to_string(predictor));
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
                default: throw Error("invalid PNG predictor row type " + std::to_string(type));
            }
        }
        out.append(reinterpret_cast<const char*>(cur.data()), n);
        std::swap(prev, cur);
    }
    return out;
}

static std::string hex_decode(const std::string& in) {
    std::string out;
    int hi = -1;
    for (char c : in) {
        int v;
        if (c >= '0' && c <= '9') v = c - '0';
        else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
        else if (c == '>') break;
        else if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0') continue;
        else throw Error("invalid character in ASCIIHex data");
        if (hi < 0) hi = v;
        else {
            out.push_back(static_cast<char>(hi * 16 + v));
            hi = -1;
        }
    }
    if (hi >= 0) out.push_back(static_cast<char>(hi * 16));
    return out;
}

static std::string podofo_decode(EPdfFilter type, std::string_view in, const PdfDictionary* parms) {
    std::unique_ptr<PdfFilter> f(PdfFilterFactory::Create(type));
    if (!f || !f->CanDecode()) throw Error("filter not available");
    char* buf = nullptr;
    pdf_long len = 0;
    try {
        f->Decode(in.data(), static_cast<pdf_long>(in.size()), &buf, &len, parms);
    } catch (const PdfError& e) {
        if (buf) podofo_free(buf);
        throw Error(std::string("corrupt stream data (") + PdfError::ErrorName(e.GetError()) + ")");
    }
    std::string out(buf ? buf : "", buf ? static_cast<std::size_t>(len) : 0);
    if (buf) podofo_free(buf);
    return out;
}

std::string decode_filters(std::string_view in, const PdfObject* filter, const PdfObject* parms,
                           std::size_t limit) {
    std::vector<PdfName> names;
    std::vector<const PdfDictionary*> plist;
    if (!filter || filter->IsNull()) return std::string(in);
    if (filter->IsName()) {
        names.push_back(filter->GetName());
    } else if (filter->IsArray()) {
        for (const auto& f : filter->GetArray()) {
            if (!f.IsName()) throw Error("invalid /Filter entry");
            names.push_back(f.GetName());
        }
    } else {
        throw Error("invalid /Filter");
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
        if (n == "FlateDecode" || n == "Fl") {
            data = apply_predictor(flate_decode(data, limit), plist[i]);
        } else if (n == "LZWDecode" || n == "LZW") {
            data = podofo_decode(ePdfFilter_LZWDecode, data, plist[i]);
        } else if (n == "ASCIIHexDecode" || n == "AHx") {
            data = hex_decode(data);
        } else if (n == "ASCII85Decode" || n == "A85") {
            data = podofo_decode(ePdfFilter_ASCII85Decode, data, nullptr);
        } else if (n == "RunLengthDecode" || n == "RL") {
            data = podofo_decode(ePdfFilter_RunLengthDecode, data, nullptr);
        } else if (n == "Crypt") {
            // Identity crypt filter (others are handled by the encryption layer).
        } else {
            throw Error("unsupported stream filter /" + n);
        }
        if (data.size() > limit) throw Error("decoded stream too large");
    }
    return data;
}

}  // namespace pith::pdf
