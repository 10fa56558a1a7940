// SPDX-License-Identifier: MIT
#include "pdf/file.hpp"

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/trace.hpp"
#include "pdf/file_impl.hpp"
#include "pdf/filters.hpp"
#include "pdf/syntax.hpp"


#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

namespace pith::pdf {

using namespace PoDoFo;

namespace {

constexpr std::uint32_t kMaxObjNum = 8388607;            // PDF implementation limit (2^23 - 1)
constexpr std::size_t kMaxXrefSections = 20000;
constexpr std::size_t kMaxXrefStreamDecoded = std::size_t(256) << 20;
constexpr int kMaxLoadDepth = 32;

void quiet_podofo() {
    static std::once_flag once;
    std::call_once(once, [] {
        PdfError::EnableLogging(false);
        PdfError::EnableDebug(false);
    });
}

std::int64_t as_int(const PdfObject* o, std::int64_t def) {
    if (!o) return def;
    if (o->IsNumber()) return o->GetNumber();
    if (o->IsReal()) return static_cast<std::int64_t>(o->GetReal());
    return def;
}

}  // namespace

double number_value(const PdfObject& obj, double fallback) {
    if (obj.IsNumber()) return static_cast<double>(obj.GetNumber());
    if (obj.IsReal()) return obj.GetReal();
    return fallback;
}

std::string format_number(double v) {
    long long n = std::llround(v * 10000.0);
    if (n == 0) return "0";
    std::string s = n < 0 ? "-" : "";
    unsigned long long a = n < 0 ? 0ULL - static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n);
    s += std::to_string(a / 10000);
    if (unsigned frac = static_cast<unsigned>(a % 10000)) {
        char buf[8];
        std::snprintf(buf, sizeof buf, ".%04u", frac);
        std::string f(buf);
        while (f.back() == '0') f.pop_back();
        s += f;
    }
    return s;
}

std::string text_of(const PdfObject* o) {
    if (!o) return {};
    if (o->IsString() || o->IsHexString()) return o->GetString().GetStringUtf8();
    if (o->IsName()) return o->GetName().GetName();
    return {};
}

std::string to_pdf_string(const PdfObject& obj) {
    PdfRefCountedBuffer buf;
    PdfOutputDevice dev(&buf);
    obj.PdfVariant::Write(&dev, ePdfWriteMode_Clean, nullptr);
    return std::string(buf.GetBuffer(), dev.GetLength());
}

// ---------------------------------------------------------------- Impl basics

File::Impl::~Impl() {
    if (map) munmap(map, map_len);
}

void XrefTable::finish() {
    std::stable_sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) { return a.first < b.first; });
    items_.erase(std::unique(items_.begin(), items_.end(), [](const Item& a, const Item& b) { return a.first == b.first; }),
                 items_.end());
}

const XrefEntry* XrefTable::find(std::uint32_t num) const {
    auto it = std::lower_bound(items_.begin(), items_.end(), num, [](const Item& a, std::uint32_t n) { return a.first < n; });
    return it != items_.end() && it->first == num ? &it->second : nullptr;
}

void File::Impl::fail(const std::string& what, const char* code) const { throw Error(name + ": " + what, code); }

void File::Impl::defect(const std::string& what) {
    if (defects.size() < 100 && std::find(defects.begin(), defects.end(), what) == defects.end()) defects.push_back(what);
}

void File::Impl::ambiguity(const std::string& what) {
    if (ambiguities.size() < 100 && std::find(ambiguities.begin(), ambiguities.end(), what) == ambiguities.end())
        ambiguities.push_back(what);
}

// ---------------------------------------------------------------- parsing helpers

namespace {

struct Parsed {
    PdfObject value;
    std::uint64_t end = 0;  // absolute offset after the value
};

// Parses "num gen obj" at abs; returns position after "obj" or npos.
std::uint64_t object_header(const char* d, std::uint64_t n, std::uint64_t abs, std::uint32_t* num,
                            std::uint32_t* gen) {
    std::uint64_t p = abs;
    std::uint64_t a = 0, b = 0;
    if (!read_uint(d, n, p, a)) return npos64;
    if (p >= n || !is_ws(d[p])) return npos64;
    skip_ws(d, n, p);
    if (!read_uint(d, n, p, b)) return npos64;
    skip_ws(d, n, p);
    if (!starts_with(d, n, p, "obj")) return npos64;
    p += 3;
    if (a > kMaxObjNum || b > 65535) return npos64;
    *num = static_cast<std::uint32_t>(a);
    *gen = static_cast<std::uint32_t>(b);
    return p;
}

}  // namespace

// Locates the stream data following a dictionary that ends at `after`.
// Returns false if no "stream" keyword follows.
static bool locate_stream(File::Impl& f, std::uint64_t after, std::int64_t declared, std::uint64_t& data,
                          std::uint64_t& len) {
    const char* d = f.d;
    std::uint64_t n = f.n;
    std::uint64_t p = after;
    skip_ws_comments(d, n, p);
    if (!starts_with(d, n, p, "stream")) return false;
    p += 6;
    if (p < n && d[p] == '\r') ++p;
    if (p < n && d[p] == '\n') ++p;
    data = p;
    if (declared >= 0 && static_cast<std::uint64_t>(declared) <= n - p) {
        std::uint64_t q = p + static_cast<std::uint64_t>(declared);
        skip_ws(d, n, q);
        if (starts_with(d, n, q, "endstream")) {
            len = static_cast<std::uint64_t>(declared);
            return true;
        }
    }
    const char* hit = static_cast<const char*>(memmem(d + p, n - p, "endstream", 9));
    if (!hit) f.fail("stream at offset " + std::to_string(after) + " has no endstream");
    std::uint64_t e = static_cast<std::uint64_t>(hit - d);
    if (e > p && d[e - 1] == '\n') --e;
    if (e > p && d[e - 1] == '\r') --e;
    len = e - p;
    f.defect(declared >= 0 ? "stream /Length " + std::to_string(declared) + " at offset " + std::to_string(after) + " is wrong"
                           : "stream at offset " + std::to_string(after) + " has no valid /Length");
    return true;
}

// Parses the value at `pos` straight into `out` (PoDoFo 0.9.8's objects have no move
// constructors: every copy of a big /Kids array costs as much as parsing it). Returns the end.
// `partial`: null to read the whole value; else widths are left out (Lexer::leave_out_widths)
// and *partial tells whether any were.
// Every value read is charged to `f`'s budget. The keys one of its dictionaries holds twice with
// different values are kept for File::keys_twice(`num`) (0: not an object).
static std::uint64_t parse_into(File::Impl& f, std::uint32_t num, const char* base, std::uint64_t size, std::uint64_t pos,
                                PdfVariant& out, bool* partial = nullptr) {
    Lexer lx(base + pos, static_cast<std::size_t>(size - pos));
    lx.charge(f.budget);
    if (partial) lx.leave_out_widths();
    lx.read(out);
    if (partial) *partial = lx.left_out();
    if (num && !lx.keys_twice().empty()) f.keys_twice[num] = lx.keys_twice();
    return pos + lx.tell();
}

static Parsed parse_value(File::Impl& f, std::uint64_t pos) {
    Parsed r;
    r.end = parse_into(f, 0, f.d, f.n, pos, r.value);
    return r;
}

// ---------------------------------------------------------------- xref

// An object listed twice in one cross-reference section: readers need not agree on which
// entry counts.
static void note_listed_twice(File::Impl& f, const std::vector<std::pair<std::uint32_t, XrefEntry>>& entries,
                              const char* what) {
    std::vector<std::uint32_t> nums;
    nums.reserve(entries.size());
    for (const auto& item : entries) nums.push_back(item.first);
    std::sort(nums.begin(), nums.end());
    for (std::size_t i = 1; i < nums.size(); ++i)
        if (nums[i] == nums[i - 1] && nums[i] != 0)
            f.ambiguity("object " + std::to_string(nums[i]) + " is listed twice in one " + what);
}

static void add_entry(File::Impl& f, std::uint32_t num, const XrefEntry& e, XrefSection& sec) {
    if (num == 0 || num > kMaxObjNum) return;
    if (f.xref.size() > 10u * 1000u * 1000u) f.fail("too many cross-reference entries");
    if (e.type != 0) sec.objects.push_back(num);
    f.xref.add(num, e);  // newer sections were read first: finish() keeps the first value
}

static std::uint64_t resolve_abs(File::Impl& f, std::uint64_t rel, bool want_xref) {
    // Offsets are relative to the header; some writers use absolute ones: accept both.
    auto looks_right = [&](std::uint64_t abs) {
        if (abs >= f.n) return false;
        std::uint64_t p = abs;
        skip_ws(f.d, f.n, p);
        if (want_xref && starts_with(f.d, f.n, p, "xref")) return true;
        std::uint32_t a, b;
        return object_header(f.d, f.n, p, &a, &b) != npos64;
    };
    if (f.hdr + rel < f.n && looks_right(f.hdr + rel)) return f.hdr + rel;
    if (f.hdr > 0 && looks_right(rel)) return rel;
    return npos64;
}

// /W: the widths of the three fields of each entry; returns an entry's size.
static std::size_t xref_stream_widths(File::Impl& f, const PdfDictionary& dd, int wv[3]) {
    const PdfObject* w = dd.GetKey("W");
    if (!w || !w->IsArray() || w->GetArray().size() < 3) f.fail("cross-reference stream without valid /W");
    for (int i = 0; i < 3; ++i) {
        std::int64_t x = as_int(&w->GetArray()[i], -1);
        if (x < 0 || x > 8) f.fail("cross-reference stream /W out of range");
        wv[i] = static_cast<int>(x);
    }
    const std::size_t rec = static_cast<std::size_t>(wv[0] + wv[1] + wv[2]);
    if (rec == 0) f.fail("cross-reference stream /W is all zero");
    return rec;
}

// /Index: the (first number, count) of each subsection; by default all of /Size.
static std::vector<std::pair<std::int64_t, std::int64_t>> xref_stream_index(const PdfDictionary& dd) {
    std::int64_t size = as_int(dd.GetKey("Size"), 0);
    std::vector<std::pair<std::int64_t, std::int64_t>> index;
    const PdfObject* idx = dd.GetKey("Index");
    if (idx && idx->IsArray()) {
        const PdfArray& a = idx->GetArray();
        for (std::size_t i = 0; i + 1 < a.size(); i += 2) index.emplace_back(as_int(&a[i], -1), as_int(&a[i + 1], -1));
    } else {
        index.emplace_back(0, size);
    }
    return index;
}

// The entries `decoded` holds, numbered by `index`.
static std::vector<std::pair<std::uint32_t, XrefEntry>> xref_stream_entries(
    File::Impl& f, const std::string& decoded, const int wv[3], std::size_t rec,
    const std::vector<std::pair<std::int64_t, std::int64_t>>& index) {
    std::size_t pos = 0;
    auto field = [&](int width, std::uint64_t def) {
        if (width == 0) return def;
        std::uint64_t v = 0;
        for (int i = 0; i < width; ++i) v = (v << 8) | static_cast<unsigned char>(decoded[pos + i]);
        pos += width;
        return v;
    };
    std::vector<std::pair<std::uint32_t, XrefEntry>> entries;
    entries.reserve(decoded.size() / rec);
    for (auto [start, count] : index) {
        if (start < 0 || count < 0 || start > kMaxObjNum || count > kMaxObjNum + 1 - start)
            f.fail("cross-reference stream /Index out of range");
        for (std::int64_t i = 0; i < count; ++i) {
            if (pos + rec > decoded.size()) {
                f.defect("cross-reference stream is shorter than its /Index says");
                break;
            }
            XrefEntry e;
            std::uint64_t t = field(wv[0], 1), b = field(wv[1], 0), c = field(wv[2], 0);
            if (t == 1) {
                e.type = 1;
                e.value = b;
                e.gen = static_cast<std::uint16_t>(c);
            } else if (t == 2) {
                e.type = 2;
                e.value = b;
                e.index = static_cast<std::uint32_t>(c);
            } else if (t == 0) {
                e.type = 0;
            } else {
                continue;  // unknown types are ignored (spec: treat as null)
            }
            entries.emplace_back(static_cast<std::uint32_t>(start + i), e);
        }
    }
    return entries;
}

static void parse_xref_stream(File::Impl& f, std::uint64_t abs, XrefSection& sec, PdfDictionary* trailer_out) {
    std::uint32_t num, gen;
    std::uint64_t p = object_header(f.d, f.n, abs, &num, &gen);
    if (p == npos64) f.fail("no cross-reference stream at offset " + std::to_string(abs));
    Parsed dict = parse_value(f, p);
    if (!dict.value.IsDictionary()) f.fail("cross-reference stream is not a dictionary");
    const PdfDictionary& dd = dict.value.GetDictionary();
    const PdfObject* type = dd.GetKey("Type");
    if (!type || !type->IsName() || type->GetName() != PdfName("XRef"))
        f.fail("object at startxref " + std::to_string(abs) + " is not a cross-reference stream");
    std::uint64_t data = 0, len = 0;
    const PdfObject* lenobj = dd.GetKey("Length");
    std::int64_t declared = (lenobj && lenobj->IsNumber()) ? lenobj->GetNumber() : -1;
    if (!locate_stream(f, dict.end, declared, data, len)) f.fail("cross-reference stream has no data");
    std::string decoded = decode_filters(std::string_view(f.d + data, len), dd.GetKey("Filter"),
                                         dd.GetKey("DecodeParms"), kMaxXrefStreamDecoded, f.budget);
    int wv[3];
    const std::size_t rec = xref_stream_widths(f, dd, wv);
    auto entries = xref_stream_entries(f, decoded, wv, rec, xref_stream_index(dd));
    note_listed_twice(f, entries, "cross-reference stream");
    f.xref.reserve_more(entries.size());
    sec.objects.reserve(sec.objects.size() + entries.size());
    for (auto& [num2, e] : entries) add_entry(f, num2, e, sec);
    sec.tail = data + len;
    if (trailer_out) {
        *trailer_out = dd;
        for (const char* k : {"Length", "Filter", "DecodeParms", "W", "Index", "Type", "XRefStm"})
            trailer_out->RemoveKey(k);
    }
}

// "nnnnnnnnnn ggggg n" and a two-byte end of line (" \r", " \n" or "\r\n"), as the spec fixes it.
static bool xref_entry_well_formed(const char* d, std::uint64_t n, std::uint64_t p) {
    if (n - p < 20) return false;
    for (int i = 0; i < 10; ++i)
        if (!is_digit(d[p + i])) return false;
    for (int i = 11; i < 16; ++i)
        if (!is_digit(d[p + i])) return false;
    const char a = d[p + 18], b = d[p + 19];
    return d[p + 10] == ' ' && d[p + 16] == ' ' && (d[p + 17] == 'n' || d[p + 17] == 'f') &&
           ((a == ' ' && (b == '\r' || b == '\n')) || (a == '\r' && b == '\n'));
}

// A cross-reference table's subsections, from `p` (after "xref") up to "trailer".
static void read_table(File::Impl& f, std::uint64_t& p, std::vector<std::pair<std::uint32_t, XrefEntry>>& entries) {
    const char* d = f.d;
    const std::uint64_t n = f.n;
    while (true) {
        skip_ws_comments(d, n, p);
        if (p >= n) f.fail("cross-reference table is truncated");
        if (starts_with(d, n, p, "trailer")) break;
        std::uint64_t start = 0, count = 0;
        if (!read_uint(d, n, p, start)) f.fail("bad cross-reference subsection header at offset " + std::to_string(p));
        skip_spaces(d, n, p);
        if (!read_uint(d, n, p, count)) f.fail("bad cross-reference subsection header at offset " + std::to_string(p));
        if (start > kMaxObjNum || count > kMaxObjNum + 1 - start || count > (n - p) / 5 + 1)
            f.fail("cross-reference subsection out of range");
        for (std::uint64_t i = 0; i < count; ++i) {
            skip_ws(d, n, p);
            if (!xref_entry_well_formed(d, n, p))
                f.defect("cross-reference entry at offset " + std::to_string(p) + " is not the 20 bytes the PDF specification requires");
            std::uint64_t off = 0, g = 0;
            if (!read_uint(d, n, p, off)) f.fail("bad cross-reference entry at offset " + std::to_string(p));
            skip_spaces(d, n, p);
            if (!read_uint(d, n, p, g)) f.fail("bad cross-reference entry at offset " + std::to_string(p));
            skip_spaces(d, n, p);
            if (p >= n || (d[p] != 'n' && d[p] != 'f')) f.fail("bad cross-reference entry at offset " + std::to_string(p));
            XrefEntry e;
            e.type = d[p] == 'n' ? 1 : 0;
            e.value = off;
            e.gen = static_cast<std::uint16_t>(std::min<std::uint64_t>(g, 65535));
            ++p;
            if (e.type == 1 && off == 0) e.type = 0;  // "in use at offset 0": treat as missing
            entries.emplace_back(static_cast<std::uint32_t>(start + i), e);
        }
    }
}

// Hybrid file: the /XRefStm entries take precedence over this table's.
static void read_hybrid_stream(File::Impl& f, const PdfDictionary& trailer, XrefSection& sec) {
    const PdfObject* xs = trailer.GetKey("XRefStm");
    if (!xs || !xs->IsNumber() || xs->GetNumber() < 0) return;
    std::uint64_t xabs = resolve_abs(f, static_cast<std::uint64_t>(xs->GetNumber()), false);
    if (xabs == npos64) {
        f.defect("/XRefStm offset is invalid; ignored");
    } else {
        std::uint64_t tail = sec.tail;
        try {
            parse_xref_stream(f, xabs, sec, nullptr);
        } catch (const Error& e) {
            f.defect(std::string("ignoring broken /XRefStm: ") + e.what());
        }
        sec.tail = tail;
    }
}

static XrefSection parse_section(File::Impl& f, std::uint64_t rel, PdfDictionary& trailer) {
    XrefSection sec;
    sec.rel = rel;
    std::uint64_t abs = resolve_abs(f, rel, true);
    if (abs == npos64) f.fail("startxref/Prev offset " + std::to_string(rel) + " does not point to a cross-reference section");
    std::uint64_t p = abs;
    skip_ws(f.d, f.n, p);
    if (!starts_with(f.d, f.n, p, "xref")) {
        sec.kind = XrefKind::Stream;
        parse_xref_stream(f, p, sec, &trailer);
        return sec;
    }
    sec.kind = XrefKind::Table;
    p += 4;
    std::vector<std::pair<std::uint32_t, XrefEntry>> entries;
    read_table(f, p, entries);
    note_listed_twice(f, entries, "cross-reference table");
    p += 7;
    Parsed t = parse_value(f, p);
    if (!t.value.IsDictionary()) f.fail("trailer is not a dictionary");
    trailer = t.value.GetDictionary();
    sec.tail = t.end;
    read_hybrid_stream(f, trailer, sec);
    f.xref.reserve_more(entries.size());
    sec.objects.reserve(sec.objects.size() + entries.size());
    for (auto& [num, e] : entries) add_entry(f, num, e, sec);
    return sec;
}

// ---------------------------------------------------------------- reconstruction

// Calls visit(num, gen, at) for each "num gen obj" in the file after the header, in file order
// (`at`: absolute offset of num); stops when visit returns false.
template <typename Visit>
static void scan_headers(File::Impl& f, Visit&& visit) {
    const char* d = f.d;
    const std::uint64_t n = f.n;
    std::uint64_t p = f.hdr;
    while (p + 3 <= n) {
        const char* hit = static_cast<const char*>(memmem(d + p, n - p, "obj", 3));
        if (!hit) break;
        std::uint64_t k = static_cast<std::uint64_t>(hit - d);
        p = k + 3;
        if (k + 3 < n && !is_ws(d[k + 3]) && !is_delim(d[k + 3])) continue;
        // walk back: ws gen ws num
        std::uint64_t q = k;
        if (q == 0 || !is_ws(d[q - 1])) continue;
        while (q > 0 && is_ws(d[q - 1])) --q;
        std::uint64_t ge = q;
        while (q > 0 && is_digit(d[q - 1]) && ge - q < 6) --q;
        if (q == ge || q == 0 || !is_ws(d[q - 1])) continue;
        while (q > 0 && is_ws(d[q - 1])) --q;
        std::uint64_t ne = q;
        while (q > 0 && is_digit(d[q - 1]) && ne - q < 8) --q;
        if (q == ne) continue;
        if (q > 0 && !is_ws(d[q - 1]) && !is_delim(d[q - 1])) continue;
        std::uint32_t num, gen;
        if (object_header(d, n, q, &num, &gen) == npos64 || num == 0) continue;
        if (q < f.hdr) continue;
        if (!visit(num, gen, q)) break;
    }
}

static std::unordered_map<std::uint32_t, XrefEntry> scan_objects(File::Impl& f) {
    std::unordered_map<std::uint32_t, XrefEntry> t;
    scan_headers(f, [&](std::uint32_t num, std::uint32_t gen, std::uint64_t at) {
        XrefEntry e;
        e.type = 1;
        e.gen = static_cast<std::uint16_t>(gen);
        e.value = at - f.hdr;
        t[num] = e;
        return t.size() <= 10u * 1000u * 1000u;
    });
    return t;
}

static bool head_contains(File::Impl& f, std::uint64_t rel, const char* needle) {
    std::uint64_t abs = f.hdr + rel;
    if (abs >= f.n) return false;
    std::uint64_t len = std::min<std::uint64_t>(f.n - abs, 1024);
    return memmem(f.d + abs, len, needle, std::strlen(needle)) != nullptr;
}

static std::shared_ptr<ObjStm> get_objstm(File::Impl& f, std::uint32_t snum);


using ByOffset = std::vector<std::pair<std::uint64_t, std::uint32_t>>;  // scanned objects, by offset

static bool trailer_from_keyword(File::Impl& f) {
    bool found = false;
    // Trailer: the last "trailer" dictionary with /Root ...
    std::uint64_t end = f.n;
    for (int tries = 0; tries < 200 && !found; ++tries) {
        std::string_view hay(f.d + f.hdr, end - f.hdr);
        std::size_t k = hay.rfind("trailer");
        if (k == std::string_view::npos) break;
        end = f.hdr + k;
        try {
            Parsed t = parse_value(f, f.hdr + k + 7);
            if (t.value.IsDictionary() && t.value.GetDictionary().GetKey("Root")) {
                f.trailer = t.value.GetDictionary();
                found = true;
            }
        } catch (const std::exception&) {
        } catch (const PdfError&) {
        }
    }
    return found;
}

static bool trailer_from_xref_stream(File::Impl& f, const ByOffset& by_offset) {
    bool found = false;
    // ... else the newest cross-reference stream dictionary with /Root.
    for (auto it = by_offset.rbegin(); it != by_offset.rend() && !found; ++it) {
        if (!head_contains(f, it->first, "/XRef")) continue;
        try {
            std::uint32_t num, gen;
            std::uint64_t p = object_header(f.d, f.n, f.hdr + it->first, &num, &gen);
            if (p == npos64) continue;
            Parsed t = parse_value(f, p);
            if (t.value.IsDictionary() && t.value.GetDictionary().GetKey("Root")) {
                f.trailer = t.value.GetDictionary();
                for (const char* k : {"Length", "Filter", "DecodeParms", "W", "Index", "Type"}) f.trailer.RemoveKey(k);
                found = true;
            }
        } catch (const std::exception&) {
        } catch (const PdfError&) {
        }
    }
    return found;
}

static void add_object_stream_entries(File::Impl& f, const ByOffset& by_offset) {
    // Objects stored in object streams (a scanned object of the same number wins).
    std::vector<XrefTable::Item> in_streams;
    std::size_t budget = 5000;
    for (auto& [off, num] : by_offset) {
        if (!head_contains(f, off, "/ObjStm")) continue;
        if (budget-- == 0) break;
        try {
            auto os = get_objstm(f, num);
            for (std::size_t i = 0; i < os->entries.size(); ++i) {
                XrefEntry e;
                e.type = 2;
                e.value = num;
                e.index = static_cast<std::uint32_t>(i);
                in_streams.emplace_back(os->entries[i].first, e);
            }
        } catch (const std::exception&) {
        } catch (const PdfError&) {
        }
    }
    for (const auto& [num, e] : in_streams) f.xref.add(num, e);
}

static void find_catalog(File::Impl& f, const ByOffset& by_offset) {
    // No /Root: look for the catalog.
    if (!f.trailer.GetKey("Root")) {
        for (auto it = by_offset.rbegin(); it != by_offset.rend(); ++it) {
            if (!head_contains(f, it->first, "/Catalog")) continue;
            try {
                const PdfObject& o = f.load(PdfReference(it->second, f.xref.find(it->second)->gen)).value;
                const PdfObject* t = o.IsDictionary() ? o.GetDictionary().GetKey("Type") : nullptr;
                if (t && t->IsName() && t->GetName() == PdfName("Catalog")) {
                    f.trailer.AddKey("Root", PdfReference(it->second, f.xref.find(it->second)->gen));
                    break;
                }
            } catch (const std::exception&) {
            } catch (const PdfError&) {
            }
        }
    }
}

// `why`: what was wrong with the cross-reference data.
static void reconstruct(File::Impl& f, const std::string& why) {
    f.reconstructed = true;
    if (!f.scanned) f.scanned = scan_objects(f);
    if (f.scanned->empty()) f.fail("not a readable PDF: " + why + ", and no objects found in it");
    f.xref.clear();
    for (const auto& [num, e] : *f.scanned) f.xref.add(num, e);
    f.xref.finish();
    f.cache.clear();
    f.objstms.clear();
    f.shared_streams.clear();
    f.sections.clear();
    f.trailer = PdfDictionary();
    bool found = trailer_from_keyword(f);
    ByOffset by_offset;
    for (auto& [num, e] : f.xref) by_offset.emplace_back(e.value, num);
    std::sort(by_offset.begin(), by_offset.end());
    if (!found) trailer_from_xref_stream(f, by_offset);
    f.trailer.RemoveKey("Prev");
    f.trailer.RemoveKey("XRefStm");
    add_object_stream_entries(f, by_offset);
    f.xref.finish();
    find_catalog(f, by_offset);
    f.max_num = 0;
    for (auto& [num, e] : f.xref) f.max_num = std::max(f.max_num, num);
    f.defect(why + " (cross-reference table rebuilt by scanning the file)");
}

// ---------------------------------------------------------------- objects

static std::shared_ptr<ObjStm> get_objstm(File::Impl& f, std::uint32_t snum) {
    auto it = f.objstms.find(snum);
    if (it != f.objstms.end()) return it->second;
    const XrefEntry* xe = f.xref.find(snum);
    if (!xe || xe->type != 1) f.fail("object stream " + std::to_string(snum) + " is missing");
    PdfReference sref(snum, xe->gen);
    const CachedObject& so = f.load(sref);
    if (!so.stream || !so.value.IsDictionary()) f.fail("object stream " + std::to_string(snum) + " is not a stream");
    const PdfDictionary& sd = so.value.GetDictionary();
    std::int64_t count = as_int(sd.GetKey("N"), -1), first = as_int(sd.GetKey("First"), -1);
    auto os = std::make_shared<ObjStm>();
    os->data = stream_bytes(f, sref, true);
    if (count < 0 || first < 0 || static_cast<std::uint64_t>(first) > os->data.size() || count > 1000000)
        f.fail("object stream " + std::to_string(snum) + " has an invalid /N or /First");
    std::uint64_t p = 0;
    const char* d = os->data.data();
    std::uint64_t hn = static_cast<std::uint64_t>(first);
    for (std::int64_t i = 0; i < count; ++i) {
        std::uint64_t num = 0, off = 0;
        skip_ws_comments(d, hn, p);
        if (!read_uint(d, hn, p, num)) break;
        skip_ws_comments(d, hn, p);
        if (!read_uint(d, hn, p, off)) break;
        if (num == 0 || num > kMaxObjNum || static_cast<std::uint64_t>(first) + off > os->data.size()) continue;
        os->entries.emplace_back(static_cast<std::uint32_t>(num), static_cast<std::uint64_t>(first) + off);
    }
    if (os->entries.size() != static_cast<std::size_t>(count))
        f.defect("object stream " + std::to_string(snum) + " header lists fewer objects than /N");
    std::vector<std::uint32_t> nums;
    for (const auto& entry : os->entries) nums.push_back(entry.first);
    std::sort(nums.begin(), nums.end());
    for (std::size_t i = 1; i < nums.size(); ++i)
        if (nums[i] == nums[i - 1])
            f.ambiguity("object stream " + std::to_string(snum) + " defines object " + std::to_string(nums[i]) +
                        " twice (MuPDF reads the first, poppler the one the cross-reference entry's index names)");
    f.objstms[snum] = os;
    return os;
}

bool stream_is_encrypted(const File::Impl& f, const PdfDictionary& dict) {
    if (!f.enc) return false;
    const PdfObject* type = dict.GetKey("Type");
    if (type && type->IsName()) {
        if (type->GetName() == PdfName("XRef")) return false;
        if (type->GetName() == PdfName("Metadata") && !f.metadata_encrypted) return false;
    }
    const PdfObject* filter = dict.GetKey("Filter");
    bool crypt = false;
    if (filter && filter->IsName() && filter->GetName() == PdfName("Crypt")) crypt = true;
    if (filter && filter->IsArray() && !filter->GetArray().empty() && filter->GetArray()[0].IsName() &&
        filter->GetArray()[0].GetName() == PdfName("Crypt"))
        crypt = true;
    if (crypt) {
        // Only the Identity crypt filter is distinguished here; named filters use the default (StdCF).
        const PdfObject* parms = dict.GetKey("DecodeParms");
        if (parms && parms->IsArray() && !parms->GetArray().empty()) parms = &parms->GetArray()[0];
        const PdfObject* name = (parms && parms->IsDictionary()) ? parms->GetDictionary().GetKey("Name") : nullptr;
        if (!name || (name->IsName() && name->GetName() == PdfName("Identity"))) return false;
    }
    return true;
}

std::string stream_bytes(File::Impl& f, const PdfReference& ref, bool decode, std::size_t limit) {
    const CachedObject& c = f.load(ref);
    if (!c.stream) f.fail("object " + std::to_string(ref.ObjectNumber()) + " is not a stream");
    std::string data(f.d + c.data_abs, static_cast<std::size_t>(c.data_len));
    const PdfDictionary& dict = c.value.GetDictionary();
    if (stream_is_encrypted(f, dict)) {
        try {
            data = f.crypt->decrypt(ref, data);
        } catch (const Error& e) {
            f.fail("cannot decrypt stream " + std::to_string(ref.ObjectNumber()) + ": " + e.what());
        }
    }
    if (!decode) return data;
    auto resolve_direct = [&](const PdfObject* o) -> const PdfObject* {
        for (int i = 0; o && o->IsReference() && i < 8; ++i) o = &f.load(o->GetReference()).value;
        return o;
    };
    const PdfObject* filter = resolve_direct(dict.GetKey("Filter"));
    const PdfObject* parms = resolve_direct(dict.GetKey("DecodeParms"));
    try {
        return decode_filters(data, filter, parms, limit, f.budget);
    } catch (const TooLarge&) {
        throw;  // one message for the whole file (within_budget names it)
    } catch (const Error& e) {
        f.fail("stream " + std::to_string(ref.ObjectNumber()) + ": " + e.what());
    }
}

// A reference to an object number beyond the trailer's /Size (which a file cannot contain) is
// damage; one to a free or missing object within it is simply null, as the spec says.
static void check_references(File::Impl& f, const PdfObject& value, std::uint32_t owner, int depth = 0) {
    if (depth > 64 || f.max_num == 0) return;
    if (value.IsReference()) {
        if (value.GetReference().ObjectNumber() > f.max_num)
            f.defect("object " + std::to_string(owner) + " refers to object " +
                     std::to_string(value.GetReference().ObjectNumber()) + ", beyond the trailer's /Size");
    } else if (value.IsArray()) {
        for (const PdfObject& item : value.GetArray()) check_references(f, item, owner, depth + 1);
    } else if (value.IsDictionary()) {
        for (const auto& [key, item] : value.GetDictionary().GetKeys()) check_references(f, *item, owner, depth + 1);
    }
}

// Parses object `num` at `abs` into `c`; false if "num gen obj" is not there.
static bool parse_top_object(File::Impl& f, std::uint64_t abs, std::uint32_t num, std::uint32_t gen, CachedObject& c,
                             bool without_widths) {
    std::uint32_t n2, g2;
    skip_ws(f.d, f.n, abs);  // an offset one end-of-line early is common (qpdf and poppler accept it too)
    std::uint64_t p = object_header(f.d, f.n, abs, &n2, &g2);
    if (p == npos64 || n2 != num) return false;
    const std::uint64_t end = parse_into(f, num, f.d, f.n, p, c.value, without_widths ? &c.partial : nullptr);
    if (f.crypt && f.enc_ref.ObjectNumber() != num) {
        const PdfObject* t = c.value.IsDictionary() ? c.value.GetDictionary().GetKey("Type") : nullptr;
        if (!(t && t->IsName() && t->GetName() == PdfName("XRef")))
            f.crypt->decrypt_strings(c.value, PdfReference(num, static_cast<pdf_gennum>(gen)));
    }
    check_references(f, c.value, num);
    if (c.value.IsDictionary()) {
        const PdfObject* len = c.value.GetDictionary().GetKey("Length");
        std::int64_t declared = -1;
        if (len && len->IsNumber()) {
            declared = len->GetNumber();
        } else if (len && len->IsReference() && len->GetReference().ObjectNumber() != num) {
            try {
                const PdfObject& lv = f.load(len->GetReference()).value;
                if (lv.IsNumber()) declared = lv.GetNumber();
            } catch (const Error&) {
            }
        }
        std::uint64_t data = 0, dlen = 0;
        if (locate_stream(f, end, declared, data, dlen)) {
            c.stream = true;
            c.data_abs = data;
            c.data_len = dlen;
        }
    }
    return true;
}

const CachedObject& File::Impl::load(const PdfReference& ref, bool without_widths) {
    const std::uint32_t num = ref.ObjectNumber();
    auto hit = cache.find(num);
    if (hit != cache.end() && (!hit->second.partial || without_widths)) return hit->second;
    if (hit != cache.end()) retired.push_back(cache.extract(hit));  // read again whole; the partial one stays where it is
    static const CachedObject null_cached;
    const XrefEntry* xe = xref.find(num);
    if (!xe || xe->type == 0) return null_cached;
    if (xe->type == 1 && xe->gen != ref.GenerationNumber()) return null_cached;
    if (depth >= kMaxLoadDepth) fail("objects nest too deeply (object " + std::to_string(num) + ")");
    struct DepthGuard {
        int& d;
        explicit DepthGuard(int& x) : d(x) { ++d; }
        ~DepthGuard() { --d; }
    } guard(depth);
    const XrefEntry e = *xe;
    // Parsed in place in the cache (see parse_into); the entry goes again if parsing fails.
    CachedObject& c = cache[num];
    try {
        if (e.type == 1) {
            bool ok = hdr + e.value < n && parse_top_object(*this, hdr + e.value, num, e.gen, c, without_widths);
            if (!ok && hdr > 0 && e.value < n) ok = parse_top_object(*this, e.value, num, e.gen, c, without_widths);
            if (!ok) {
                if (!scanned) scanned = scan_objects(*this);
                auto s = scanned->find(num);
                if (s != scanned->end() && s->second.value != e.value)
                    ok = parse_top_object(*this, hdr + s->second.value, num, s->second.gen, c, without_widths);
                if (!ok) {
                    defect("object " + std::to_string(num) + " not found at its cross-reference offset");
                    c = CachedObject();
                    return c;
                }
                defect("object " + std::to_string(num) + " found by scanning (cross-reference offset is wrong)");
            }
        } else {
            if (e.value == num) fail("object stream " + std::to_string(num) + " contains itself");
            auto os = get_objstm(*this, static_cast<std::uint32_t>(e.value));
            std::size_t i = e.index;
            if (i >= os->entries.size() || os->entries[i].first != num) {
                i = os->entries.size();
                for (std::size_t k = 0; k < os->entries.size(); ++k)
                    if (os->entries[k].first == num) i = k;
                if (i == os->entries.size())
                    fail("object " + std::to_string(num) + " is missing from object stream " + std::to_string(e.value));
            }
            parse_into(*this, num, os->data.data(), os->data.size(), os->entries[i].second, c.value,
                       without_widths ? &c.partial : nullptr);
            check_references(*this, c.value, num);
        }
    } catch (const PdfError& err) {
        cache.erase(num);
        fail("cannot parse object " + std::to_string(num) + " (" + podofo_words(err) + ")");
    } catch (...) {
        cache.erase(num);
        throw;
    }
    return c;
}

// ---------------------------------------------------------------- init

// The /Encrypt dictionary, checked for what pith can decrypt (the Standard handler).
static PdfObject encryption_dictionary(File::Impl& f, const PdfObject* e) {
    PdfObject encdict;
    if (e->IsReference()) {
        f.enc_ref = e->GetReference();
        encdict = f.load(e->GetReference()).value;  // enc is not set yet: nothing is decrypted
    } else {
        encdict = *e;
    }
    if (!encdict.IsDictionary()) f.fail("/Encrypt is not a dictionary");
    // Read here: PoDoFo 0.9.8 ignores /EncryptMetadata for AES-256 (R5/R6).
    if (const PdfObject* em = encdict.GetDictionary().GetKey("EncryptMetadata"); em && em->IsBool())
        f.metadata_encrypted = em->GetBool();
    const PdfObject* filter = encdict.GetDictionary().GetKey("Filter");
    if (!filter || !filter->IsName() || filter->GetName() != PdfName("Standard")) {
        std::string nm = filter && filter->IsName() ? filter->GetName().GetName() : std::string("?");
        f.fail("encrypted with the /" + nm + " security handler (public-key or custom encryption is not supported)", err::pdf_encryption);
    }
    // /V 5 (AES-256): PoDoFo checks the password with SHA-256 and AES, through EVP, which its
    // PdfEncrypt sets up when made. /V 1-4: md5_file_key() needs nothing from OpenSSL's providers.
    if (as_int(encdict.GetDictionary().GetKey("V"), 0) >= 5) ensure_aes();
    return encdict;
}

static void check_encryption_strings(File::Impl& f, const PdfDictionary& ed) {
    // PoDoFo copies fixed lengths out of these strings and dereferences /OE, /UE and /Perms
    // unchecked (a short or missing one read past its end or crashed): check them first.
    std::vector<std::pair<const char*, pdf_long>> needed = {{"O", 32}, {"U", 32}};
    if (as_int(ed.GetKey("V"), 0) == 5) needed = {{"O", 48}, {"U", 48}, {"OE", 32}, {"UE", 32}, {"Perms", 16}};
    for (const auto& [key, length] : needed) {
        const PdfObject* value = ed.GetKey(key);
        if (!value || !(value->IsString() || value->IsHexString()) || value->GetString().GetLength() < length)
            f.fail(std::string("unsupported encryption (/") + key + " is missing or shorter than " + std::to_string(length) + " bytes)", err::pdf_encryption);
    }
}

// The file key from the password given, else the empty one; nothing if neither opens the file
// (`crypto_error`: why, when the cryptography itself failed).
static std::optional<std::string> file_key(PdfEncrypt* enc, const PdfString& id0, const OpenOptions& opt,
                                           std::string& crypto_error) {
    std::vector<std::string> tries;
    if (opt.password_given || !opt.password.empty()) tries.push_back(opt.password);
    tries.push_back("");
    std::optional<std::string> key;
    const auto algorithm = enc->GetEncryptAlgorithm();
#ifdef PODOFO_HAVE_LIBIDN  // PoDoFo names AES-256 only when built with libidn (for its passwords)
    const bool aes256 = algorithm == PdfEncrypt::ePdfEncryptAlgorithm_AESV3 || algorithm == PdfEncrypt::ePdfEncryptAlgorithm_AESV3R6;
#else
    const bool aes256 = false;
#endif
    for (const auto& pw : tries) {
        if (!aes256) {
            key = md5_file_key(*enc, std::string(id0.GetString() ? id0.GetString() : "", id0.GetLength()), pw);
        } else {
            try {
                if (enc->Authenticate(pw, id0)) key = std::string(reinterpret_cast<const char*>(enc->GetEncryptionKey()), 32);
            } catch (const PdfError& err) {
                crypto_error = PdfError::ErrorName(err.GetError());
            }
        }
        if (key) break;
    }
    return key;
}

static void setup_encryption(File::Impl& f, const OpenOptions& opt) {
    const PdfObject* e = f.trailer.GetKey("Encrypt");
    if (!e || e->IsNull()) return;
    f.has_encrypt = true;
    PdfObject encdict = encryption_dictionary(f, e);
    PdfString id0;
    const PdfObject* id = f.trailer.GetKey("ID");
    if (id && id->IsArray() && !id->GetArray().empty() &&
        (id->GetArray()[0].IsString() || id->GetArray()[0].IsHexString()))
        id0 = id->GetArray()[0].GetString();
    check_encryption_strings(f, encdict.GetDictionary());
    std::unique_ptr<PdfEncrypt> enc;
    try {
        enc.reset(PdfEncrypt::CreatePdfEncrypt(&encdict));
    } catch (const PdfError& err) {
        f.fail(std::string("unsupported encryption (") + PdfError::ErrorName(err.GetError()) + ")");
    }
    if (!enc) f.fail("unsupported encryption");
    std::string crypto_error;
    std::optional<std::string> key = file_key(enc.get(), id0, opt, crypto_error);
    if (!key) {
        if (!crypto_error.empty())
            f.fail("cannot decrypt (" + crypto_error + ")", err::pdf_encryption);
        if (opt.password_given || !opt.password.empty()) f.fail("wrong password for encrypted PDF (check --password)", err::pdf_password);
        f.fail("encrypted PDF needs a password (use --password)", err::pdf_password);
    }
    f.crypt = std::make_unique<Crypt>(*enc, *key);
    f.enc = std::move(enc);
}

static bool catalog_ok(File::Impl& f) {
    try {
        const PdfObject* r = f.trailer.GetKey("Root");
        if (!r || !r->IsReference()) return r && r->IsDictionary();
        return f.load(r->GetReference()).value.IsDictionary();
    } catch (const Error&) {
        return false;
    }
}

// The %PDF-x.y header: where the file starts, and its version.
void File::Impl::read_header() {
    std::uint64_t lim = std::min<std::uint64_t>(n, 1024);
    const char* h = static_cast<const char*>(memmem(d, lim, "%PDF-", 5));
    if (!h) fail("not a PDF file (no %PDF- header)", err::input_not_pdf);
    hdr = static_cast<std::uint64_t>(h - d);
    std::uint64_t p = hdr + 5;
    while (p < n && p < hdr + 12 && (is_digit(d[p]) || d[p] == '.')) version.push_back(d[p++]);
    if (version.size() != 3 || !is_digit(version[0]) || version[1] != '.' || !is_digit(version[2]))
        defect("the header names no PDF version (\"%PDF-" + version + "\")");
}

// Whether the file was cut short (a download or copy that stopped): it ends inside a revision,
// with an object header ("12 0 obj") after its last %%EOF, or with no %%EOF at all. Junk after
// a complete file's %%EOF is not that. Called on damage only: it reads the whole file.
bool File::Impl::cut_short() const {
    const std::string_view all(d, n);
    const std::size_t eof = all.rfind("%%EOF");
    const std::string_view rest = eof == std::string_view::npos ? all : all.substr(eof + 5);
    for (std::size_t at = rest.find(" obj"); at != std::string_view::npos; at = rest.find(" obj", at + 1)) {
        std::size_t p = at;  // back over "N G" before " obj"
        auto digits = [&] {
            const std::size_t end = p;
            while (p > 0 && is_digit(rest[p - 1])) --p;
            return p < end;
        };
        if (digits() && p > 0 && rest[p - 1] == ' ' && (--p, digits())) return true;
    }
    return false;
}

// Where the last startxref keyword is.
std::uint64_t File::Impl::find_startxref() {
    // Readers look for startxref near the end (Acrobat and qpdf: in the last 1024 bytes).
    std::uint64_t tail = std::min<std::uint64_t>(n, 1024);
    std::size_t k = std::string_view(d + n - tail, tail).rfind("startxref");
    std::uint64_t sx = npos64;
    if (k == std::string_view::npos) {
        k = std::string_view(d, n).rfind("startxref");
        if (k != std::string_view::npos) {
            sx = k;
            defect((cut_short() ? "the file is truncated: it ends inside a revision, without %%EOF ("
                                : "the file does not end with startxref and %%EOF (") +
                   std::to_string(n - sx) + " bytes follow the last startxref)");
        }
    } else {
        sx = n - tail + k;
    }
    if (sx == npos64) fail("no startxref");
    return sx;
}

// The cross-reference sections from `off` along the /Prev chain, newest first; the newest
// trailer, its gaps filled from older ones.
void File::Impl::read_sections(std::uint64_t off) {
    std::set<std::uint64_t> seen;
    bool first = true;
    while (true) {
        if (!seen.insert(off).second) {
            defect("loop in the /Prev chain at offset " + std::to_string(off));
            break;
        }
        if (seen.size() > kMaxXrefSections) fail("too many cross-reference sections");
        budget->revisions(seen.size());
        PdfDictionary t;
        XrefSection sec = parse_section(*this, off, t);
        if (first) {
            trailer = t;
            kind = sec.kind;
            first = false;
        } else {
            for (const auto& [key, val] : t.GetKeys())
                if (!trailer.GetKey(key)) trailer.AddKey(key, *val);  // fill gaps (e.g. /Root in an older trailer)
        }
        sections.push_back(std::move(sec));
        const PdfObject* prev = t.GetKey("Prev");
        if (!prev || !(prev->IsNumber() || prev->IsReal())) break;
        std::int64_t pv = as_int(prev, -1);
        if (pv < 0) break;
        off = static_cast<std::uint64_t>(pv);
    }
}

// Objects beyond the trailer's /Size are damage; max_num covers both.
void File::Impl::check_size() {
    for (auto& [num, e] : xref) max_num = std::max(max_num, num);
    std::int64_t size = as_int(trailer.GetKey("Size"), 0);
    if (size <= static_cast<std::int64_t>(max_num))
        defect("trailer /Size " + std::to_string(size) + " does not cover object " + std::to_string(max_num));
    if (size > 0 && size - 1 <= kMaxObjNum) max_num = std::max(max_num, static_cast<std::uint32_t>(size - 1));
}

void File::Impl::init(const OpenOptions& opt) {
    quiet_podofo();
    read_header();
    bool chain_ok = false;
    std::string chain_error;
    try {
        std::uint64_t p = find_startxref() + 9, v = 0;
        skip_ws(d, n, p);
        if (!read_uint(d, n, p, v)) fail("startxref without an offset");
        startxref = v;
        read_sections(v);
        trailer.RemoveKey("Prev");
        trailer.RemoveKey("XRefStm");
        chain_ok = true;
    } catch (const TooLarge&) {
        throw;  // not damage to read around by scanning the file
    } catch (const Error& e) {
        chain_error = e.what();
        if (chain_error.rfind(name + ": ", 0) == 0) chain_error.erase(0, name.size() + 2);
    } catch (const PdfError& e) {
        chain_error = std::string("cross-reference syntax error (") + PdfError::ErrorName(e.GetError()) + ")";
    }
    xref.finish();
    // A file cut short (a download or copy that stopped) loses its end first: say so, not only
    // what the missing end breaks.
    if (!chain_ok && cut_short()) chain_error = "the file is truncated: it ends inside a revision, without %%EOF (" + chain_error + ")";
    if (!chain_ok || !trailer.GetKey("Root"))
        reconstruct(*this, chain_ok ? "the trailer has no /Root" : chain_error);
    if (!reconstructed) check_size();
    setup_encryption(*this, opt);
    if (!catalog_ok(*this)) {
        if (!reconstructed) {
            reconstruct(*this, "the trailer's /Root is not a dictionary");
            if (has_encrypt && !enc) setup_encryption(*this, opt);
        }
        if (!catalog_ok(*this))  // damage that cannot be read around: what it costs, then the damage itself
            fail("document catalog (/Root) is missing or not a dictionary" + std::string(reconstructed ? " in what remains" : "") +
                 (defects.empty() ? std::string() : " (" + defects.front() + ")"));
    }
}

// ---------------------------------------------------------------- File

File::File(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
File::File(File&&) noexcept = default;
File& File::operator=(File&&) noexcept = default;
File::~File() = default;


}  // namespace pith::pdf

namespace pith::pdf {

File File::open(const std::string& path, const OpenOptions& options) {
    const InputFile in(path);
    return open(in.fd(), path, options);
}

File File::open(int fd, const std::string& name, const OpenOptions& options) {
    const trace::Span span("pdf/open");
    auto impl = std::make_unique<Impl>();
    impl->name = name;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) throw Error(name + ": not a regular file", err::input_unreadable);
    if (st.st_size > 0) {
        void* m = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) throw Error(name + ": cannot map file (" + std::strerror(errno) + ")", err::input_unreadable);
        impl->map = m;
        impl->map_len = static_cast<std::size_t>(st.st_size);
        impl->d = static_cast<const char*>(m);
        impl->n = static_cast<std::uint64_t>(st.st_size);
    } else {
        impl->d = impl->owned.data();
        impl->n = 0;
    }
    impl->init(options);
    return File(std::move(impl));
}

File File::from_bytes(std::string bytes, const std::string& name, const OpenOptions& options) {
    const trace::Span span("pdf/open");
    auto impl = std::make_unique<Impl>();
    impl->name = name;
    impl->owned = std::move(bytes);
    impl->d = impl->owned.data();
    impl->n = impl->owned.size();
    impl->init(options);
    return File(std::move(impl));
}

File File::prefix(std::uint64_t length, const std::string& name, const OpenOptions& options) const {
    auto impl = std::make_unique<Impl>();
    impl->name = name;
    impl->d = impl_->d;
    impl->n = std::min<std::uint64_t>(length, impl_->n);
    impl->init(options);
    return File(std::move(impl));
}

const std::string& File::name() const { return impl_->name; }
std::string_view File::bytes() const { return std::string_view(impl_->d, impl_->n); }
std::uint64_t File::header_offset() const { return impl_->hdr; }
std::string File::version() const { return impl_->version; }
XrefKind File::xref_kind() const { return impl_->kind; }
std::uint64_t File::startxref() const { return impl_->startxref; }
std::uint32_t File::max_object_number() const { return impl_->max_num; }
bool File::reconstructed() const { return impl_->reconstructed; }
const std::vector<std::string>& File::defects() const { return impl_->defects; }
void File::add_defect(const std::string& what) { impl_->defect(what); }
void File::add_ambiguity(const std::string& what) { impl_->ambiguity(what); }
void File::forget_defects_since(std::size_t count) {
    if (count < impl_->defects.size()) impl_->defects.resize(count);
}

std::string damage_message(const File& file) {
    const auto& defects = file.defects();
    if (defects.empty()) return "";
    std::string m = "damaged PDF: " + defects.front();
    if (defects.size() > 1) m += " (and " + std::to_string(defects.size() - 1) + " more)";
    return m;
}
const PdfDictionary& File::trailer() const { return impl_->trailer; }

PdfReference File::root_ref() const {
    const PdfObject* r = impl_->trailer.GetKey("Root");
    return r && r->IsReference() ? r->GetReference() : PdfReference();
}

const PdfObject& File::catalog() {
    const PdfObject* r = impl_->trailer.GetKey("Root");
    if (!r) impl_->fail("no document catalog (/Root)");
    const PdfObject& c = resolve(*r);
    if (!c.IsDictionary()) impl_->fail("document catalog is not a dictionary");
    return c;
}

const PdfObject* File::info() {
    const PdfObject* i = impl_->trailer.GetKey("Info");
    if (!i) return nullptr;
    try {
        const PdfObject& v = resolve(*i);
        return v.IsDictionary() ? &v : nullptr;
    } catch (const Error& e) {
        impl_->defect(std::string("unreadable /Info: ") + e.what());
        return nullptr;
    }
}

PdfReference File::info_ref() const {
    const PdfObject* i = impl_->trailer.GetKey("Info");
    return i && i->IsReference() ? i->GetReference() : PdfReference();
}

bool File::exists(const PdfReference& ref) {
    const XrefEntry* e = impl_->xref.find(ref.ObjectNumber());
    return e && e->type != 0;
}

PdfReference File::reference(std::uint32_t num) const {
    const XrefEntry* e = impl_->xref.find(num);
    return PdfReference(num, e && e->type == 1 ? e->gen : 0);
}

const PdfObject& File::get(const PdfReference& ref) { return impl_->load(ref).value; }
const PdfObject& File::get_without_widths(const PdfReference& ref) { return impl_->load(ref, true).value; }

const PdfObject& File::resolve(const PdfObject& obj) {
    const PdfObject* o = &obj;
    for (int i = 0; o->IsReference(); ++i) {
        if (i >= 16) impl_->fail("chain of indirect references is too long");
        o = &impl_->load(o->GetReference()).value;
    }
    return *o;
}

const PdfObject* File::get_key(const PdfDictionary& dict, const char* key) {
    const PdfObject* o = dict.GetKey(PdfName(key));
    if (!o) return nullptr;
    const PdfObject& r = resolve(*o);
    return r.IsNull() ? nullptr : &r;
}

bool File::is_stream(const PdfReference& ref) { return impl_->load(ref).stream; }
std::string File::stream_encoded(const PdfReference& ref) { return stream_bytes(*impl_, ref, false); }
std::string File::stream_decoded(const PdfReference& ref, std::size_t limit) { return stream_bytes(*impl_, ref, true, limit); }

std::shared_ptr<const std::string> File::stream_decoded_shared(const PdfReference& ref) {
    auto& cached = impl_->shared_streams[ref.ObjectNumber()];
    if (!cached) cached = std::make_shared<const std::string>(stream_bytes(*impl_, ref, true));
    return cached;
}

bool File::encrypted() const { return impl_->enc != nullptr; }
PdfEncrypt* File::encryption() const { return impl_->enc.get(); }
PdfReference File::encrypt_ref() const { return impl_->enc_ref; }

// Where the cross-reference data puts object `num`'s definition (absolute; the object stream's
// own definition for an object inside one), if at a definition `at` lists.
static std::optional<std::uint64_t> listed_at(File::Impl& f, std::uint32_t num, const std::vector<std::uint64_t>& at) {
    const XrefEntry* e = f.xref.find(num);
    if (e && e->type == 2) {
        const XrefEntry* s = f.xref.find(static_cast<std::uint32_t>(e->value));
        if (!s || s->type != 1) return std::nullopt;
        e = s;
    }
    if (!e || e->type != 1) return std::nullopt;
    for (std::uint64_t base : {f.hdr + e->value, e->value}) {  // relative to the header, or absolute (as read)
        std::uint64_t p = base;
        skip_ws(f.d, f.n, p);
        if (std::find(at.begin(), at.end(), p) != at.end()) return p;
    }
    return std::nullopt;
}

// A definition that starts where one may: after "endobj", or after a comment line ("%PDF-",
// "%%EOF"). Keeps "12 0 obj" quoted in a content stream's text from counting as one.
static bool at_top_level(const File::Impl& f, std::uint64_t at) {
    std::uint64_t p = at;
    while (p > f.hdr && is_ws(f.d[p - 1])) --p;
    if (p >= f.hdr + 6 && std::string_view(f.d + p - 6, 6) == "endobj") return true;
    std::uint64_t line = p;
    while (line > f.hdr && f.d[line - 1] != '\n' && f.d[line - 1] != '\r') --line;
    return line < p && f.d[line] == '%';
}

// The definitions that File::ambiguous_definitions() names from a scan of the whole file.
static std::vector<std::string> defined_differently(File::Impl& f) {
    std::vector<std::string> out;
    if (f.reconstructed) return out;  // damaged: refused, or read with --allow-damaged, anyway
    // Revisions as the bytes mark them (each ends with %%EOF), not as the cross-reference chain
    // has them: a damaged original stamped with --allow-damaged is no part of the chain.
    std::vector<std::uint64_t> ends;
    for (const char* hit = f.d; (hit = static_cast<const char*>(memmem(hit, f.d + f.n - hit, "%%EOF", 5))); hit += 5)
        ends.push_back(static_cast<std::uint64_t>(hit - f.d));
    auto revision_of = [&](std::uint64_t at) { return std::upper_bound(ends.begin(), ends.end(), at) - ends.begin(); };
    std::map<std::uint32_t, std::vector<std::uint64_t>> defs;  // by number: where the file defines it
    scan_headers(f, [&](std::uint32_t num, std::uint32_t, std::uint64_t at) {
        if (at_top_level(f, at)) defs[num].push_back(at);
        return defs.size() <= 10u * 1000u * 1000u;
    });
    auto add = [&](const std::string& what) {
        if (out.size() < 100) out.push_back(what);
    };
    for (const auto& [num, at] : defs) {
        const std::optional<std::uint64_t> used = listed_at(f, num, at);
        const std::string object = "object " + std::to_string(num);
        for (std::uint64_t x : at) {
            if (used && x == *used) continue;
            if (used && revision_of(x) == revision_of(*used))
                add(object + " is defined twice in one revision (at offsets " + std::to_string(std::min(x, *used)) + " and " +
                    std::to_string(std::max(x, *used)) + ")");
            else if (f.hdr > 0 && (!used || x > *used) && !(f.xref.find(num) && f.xref.find(num)->type == 0))
                add(object + " is defined at offset " + std::to_string(x) + (used ? ", after the definition" : "") +
                    " no cross-reference section lists, and bytes before %PDF- make readers that rebuild the "
                    "cross-reference data by scanning (MuPDF) read it");
        }
    }
    return out;
}

std::vector<std::string> File::keys_twice(std::uint32_t num) const {
    const auto found = impl_->keys_twice.find(num);
    return found == impl_->keys_twice.end() ? std::vector<std::string>{} : found->second;
}

std::vector<std::string> File::ambiguous_definitions() {
    Impl& f = *impl_;
    if (!f.defined_differently) f.defined_differently = defined_differently(f);
    std::vector<std::string> out = f.ambiguities;
    for (const std::string& what : *f.defined_differently)
        if (out.size() < 100) out.push_back(what);
    return out;
}

std::vector<Revision> File::revisions() {
    const Impl& f = *impl_;
    std::map<std::uint64_t, Revision> by_end;
    auto eof_after = [&](std::uint64_t from, std::uint64_t& eof_end, std::uint64_t& end) {
        const char* hit = from < f.n ? static_cast<const char*>(memmem(f.d + from, f.n - from, "%%EOF", 5)) : nullptr;
        if (!hit) {
            eof_end = end = f.n;
            return;
        }
        eof_end = static_cast<std::uint64_t>(hit - f.d) + 5;
        end = eof_end;
        if (end < f.n && f.d[end] == '\r') ++end;
        if (end < f.n && f.d[end] == '\n') ++end;
    };
    if (f.sections.empty()) {
        Revision r;
        std::string_view all(f.d, f.n);
        std::size_t k = all.rfind("%%EOF");
        eof_after(k == std::string_view::npos ? f.n : k, r.eof_end, r.end);
        r.startxref = f.startxref;
        r.kind = f.kind;
        for (auto& [num, e] : f.xref)
            if (e.type != 0) r.objects.push_back(num);
        std::sort(r.objects.begin(), r.objects.end());
        return {r};
    }
    for (const auto& sec : f.sections) {
        std::uint64_t eof_end, end;
        eof_after(sec.tail, eof_end, end);
        Revision& r = by_end[end];
        if (r.objects.empty() && r.end == 0) {
            r.end = end;
            r.eof_end = eof_end;
            r.startxref = sec.rel;
            r.kind = sec.kind;
        }
        r.objects.insert(r.objects.end(), sec.objects.begin(), sec.objects.end());
    }
    std::vector<Revision> out;
    for (auto& [end, r] : by_end) {
        std::sort(r.objects.begin(), r.objects.end());
        r.objects.erase(std::unique(r.objects.begin(), r.objects.end()), r.objects.end());
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace pith::pdf
