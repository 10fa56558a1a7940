// SPDX-License-Identifier: MIT
#pragma once
// Low-level PDF lexical helpers over a byte range (internal to src/pdf).
#include "pdf/budget.hpp"

#include <podofo/podofo.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <istream>
#include <optional>
#include <streambuf>
#include <string>
#include <utility>

namespace pith::pdf {

constexpr std::uint64_t npos64 = ~std::uint64_t(0);

inline bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0'; }
inline bool is_delim(char c) {
    return c == '(' || c == ')' || c == '<' || c == '>' || c == '[' || c == ']' || c == '{' || c == '}' ||
           c == '/' || c == '%';
}
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

inline void skip_ws(const char* d, std::uint64_t n, std::uint64_t& p) {
    while (p < n && is_ws(d[p])) ++p;
}
inline void skip_spaces(const char* d, std::uint64_t n, std::uint64_t& p) {
    while (p < n && (d[p] == ' ' || d[p] == '\t')) ++p;
}
inline void skip_ws_comments(const char* d, std::uint64_t n, std::uint64_t& p) {
    while (p < n) {
        if (is_ws(d[p])) {
            ++p;
        } else if (d[p] == '%') {
            while (p < n && d[p] != '\n' && d[p] != '\r') ++p;
        } else {
            break;
        }
    }
}
inline bool starts_with(const char* d, std::uint64_t n, std::uint64_t p, const char* s) {
    for (std::uint64_t i = 0; s[i]; ++i)
        if (p + i >= n || d[p + i] != s[i]) return false;
    return true;
}
// Reads up to 19 decimal digits.
inline bool read_uint(const char* d, std::uint64_t n, std::uint64_t& p, std::uint64_t& v) {
    std::uint64_t q = p;
    v = 0;
    while (q < n && is_digit(d[q]) && q - p < 19) v = v * 10 + static_cast<std::uint64_t>(d[q++] - '0');
    if (q == p) return false;
    p = q;
    return true;
}

// A read-only streambuf over memory (no copy), seekable so PoDoFo can tell().
class MemBuf : public std::streambuf {
public:
    MemBuf(const char* b, std::size_t n) {
        char* p = const_cast<char*>(b);
        setg(p, p, p + n);
    }

protected:
    pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
        char* base = dir == std::ios_base::beg ? eback() : dir == std::ios_base::cur ? gptr() : egptr();
        char* t = base + off;
        if (t < eback() || t > egptr()) return pos_type(off_type(-1));
        setg(eback(), t, egptr());
        return pos_type(t - eback());
    }
    pos_type seekpos(pos_type pos, std::ios_base::openmode m) override {
        return seekoff(off_type(pos), std::ios_base::beg, m);
    }
};

// PoDoFo's input device over memory: GetChar, Look, Tell and Seek give what PdfInputDevice
// gives over a std::istream, at the end and after it too (an istream's state: a read at the end
// sets eof and fail, a peek eof; any call with either set fails; Seek clears eof), without the
// istream's sentry and virtual streambuf calls per byte, which were most of the cost of
// reading an object. `stream` only satisfies PdfInputDevice's constructor: it is not read.
class MemoryDevice : public PoDoFo::PdfInputDevice {
public:
    MemoryDevice(const char* b, std::size_t n, const std::istream* stream) : PdfInputDevice(stream), d_(b), n_(n) {}
    int GetChar() const override {
        if (!ready()) return EOF;
        if (p_ >= n_) {
            eof_ = fail_ = true;
            return EOF;
        }
        return static_cast<unsigned char>(d_[p_++]);
    }
    int Look() const override {
        if (!ready()) return EOF;
        if (p_ >= n_) {
            eof_ = true;
            return EOF;
        }
        return static_cast<unsigned char>(d_[p_]);
    }
    std::streamoff Tell() const override { return ready() ? static_cast<std::streamoff>(p_) : -1; }
    void Seek(std::streamoff off, std::ios_base::seekdir dir) override {
        eof_ = false;
        if (!ready()) return;
        const std::streamoff size = static_cast<std::streamoff>(n_);
        const std::streamoff base = dir == std::ios_base::beg ? 0 : dir == std::ios_base::cur ? static_cast<std::streamoff>(p_) : size;
        if (off < -base || off > size - base) fail_ = true;
        else p_ = static_cast<std::size_t>(base + off);
    }
    std::streamoff Read(char* out, std::streamsize length) override {
        if (!ready()) return 0;
        const std::size_t got = std::min(static_cast<std::size_t>(std::max<std::streamsize>(length, 0)), n_ - p_);
        std::copy(d_ + p_, d_ + p_ + got, out);
        p_ += got;
        if (static_cast<std::streamsize>(got) != length) eof_ = fail_ = true;
        return static_cast<std::streamoff>(got);
    }
    bool Eof() const override { return eof_; }
    bool Bad() const override { return false; }
    void Clear(std::ios_base::iostate state) const override {
        eof_ = (state & std::ios_base::eofbit) != 0;
        fail_ = (state & (std::ios_base::failbit | std::ios_base::badbit)) != 0;
    }

private:
    bool ready() const {  // an istream's sentry: any state bit set fails, and sets fail
        if (eof_ || fail_) fail_ = true;
        return !fail_;
    }
    const char* d_;
    std::size_t n_;
    mutable std::size_t p_ = 0;
    mutable bool eof_ = false, fail_ = false;
};

struct LexerStorage {
    const char* data;
    std::size_t size;
    MemBuf buf;
    std::istream is;
    LexerStorage(const char* b, std::size_t n) : data(b), size(n), buf(b, n), is(&buf) {}
};

// PoDoFo's tokenizer reading directly from memory.
class Lexer : private LexerStorage, public PoDoFo::PdfTokenizer {
public:
    Lexer(const char* b, std::size_t n)
        : LexerStorage(b, n),
          PoDoFo::PdfTokenizer(PoDoFo::PdfRefCountedInputDevice(new MemoryDevice(b, n, &is)),
                               PoDoFo::PdfRefCountedBuffer(4096)) {}
    // The next value (strings as written: pith decrypts them itself). PoDoFo 0.9.8's
    // GetNextVariant copies every array and dictionary twice per level of nesting (its objects
    // cannot be moved), so a font's inline width table cost more than the rest of verifying;
    // here they are built where they end up.
    void read(PoDoFo::PdfVariant& v) {
        const char* token = nullptr;
        PoDoFo::EPdfTokenType type;
        if (!GetNextToken(token, &type)) PODOFO_RAISE_ERROR(PoDoFo::ePdfError_UnexpectedEOF);
        read(token, type, v, 0);
    }
    // Where reading stopped. The device answers -1 once a read met the end (as an istream's
    // tellg), so that is the end: answering 0 made read_hex_string() rescan the input from its
    // start for "<" as the last byte (fuzz_object_lexer's finding, tests/fuzz/corpus/object_lexer).
    std::uint64_t tell() {
        std::streamoff t = m_device.Device()->Tell();
        return t < 0 ? size : static_cast<std::uint64_t>(t);
    }
    // Leaves out the values of /W and /W2 keys that are arrays of numbers (a CID font's glyph
    // widths: thousands of numbers, which reading text does not need); left_out() tells
    // whether any were.
    void leave_out_widths() { leave_out_widths_ = true; }
    bool left_out() const { return left_out_; }
    // The keys a dictionary read held twice with different values: PoDoFo, poppler, MuPDF and
    // qpdf keep the last value, Ghostscript the first, so readers see different objects.
    const std::vector<std::string>& keys_twice() const { return keys_twice_; }
    // Every value read is charged to `budget` (objects materialised); its depth limit applies.
    void charge(Budget* budget) {
        budget_ = budget;
        if (budget) max_depth_ = budget->limits().depth;
    }

private:
    static constexpr int kMaxDepth = 256;  // as PoDoFo's own recursion guard (the default limit)
    int max_depth_ = kMaxDepth;
    Budget* budget_ = nullptr;
    std::uint64_t fast_failed_at_ = 0;
    bool leave_out_widths_ = false, left_out_ = false;
    std::vector<std::string> keys_twice_;

    // The array of numbers that starts just after '[': its item count and its end, or nullopt
    // for another array. An array that starts before the point where an earlier attempt failed
    // is refused directly: so no byte is scanned twice by failed attempts, however deep the nesting.
    std::optional<std::pair<std::size_t, std::uint64_t>> number_array_here(int depth) {
        const std::uint64_t p = tell();
        if (p < fast_failed_at_) return std::nullopt;
        std::uint64_t end = p;
        const std::optional<std::size_t> items = number_array_items(end, depth);
        if (!items) {
            fast_failed_at_ = end + 1;
            return std::nullopt;
        }
        return std::make_pair(*items, end);
    }

    // Passes over the array of numbers that starts just after '['; false (nothing passed over)
    // for another array.
    bool skip_number_array(int depth) {
        const auto found = number_array_here(depth);
        if (found) m_device.Device()->Seek(static_cast<std::streamoff>(found->second));
        return found.has_value();
    }

    // An array of numbers only (or of such arrays), as a font's width table, read straight from
    // memory: PoDoFo's tokenizer makes a virtual call per byte and reads two tokens ahead after
    // every integer (for "n g R"), which made fontsampler.pdf's inline widths verify's largest
    // cost. The values are PoDoFo's (strtol for integers; for reals the correctly rounded
    // double its classic-locale stream gives); anything else (a comment, a name, a reference,
    // a number PoDoFo would read otherwise, as "1-2") leaves the array to the tokenizer.
    // Called just after '[': the tokenizer never reads past a delimiter, so nothing is queued.
    bool read_number_array(PoDoFo::PdfArray& array, int depth) {
        const auto found = number_array_here(depth);
        if (!found) return false;
        array.reserve(found->first);  // PdfObject cannot be moved: growing the vector copies every item
        std::uint64_t p = tell();
        fill_number_array(p, array);
        m_device.Device()->Seek(static_cast<std::streamoff>(p));
        return true;
    }

    // The items of the array whose first item is at `p`, when it holds numbers and arrays of them
    // only; otherwise nullopt, with `p` where it stops being such an array.
    std::optional<std::size_t> number_array_items(std::uint64_t& p, int depth) const {
        std::size_t items = 0;
        for (int nesting = 0;;) {
            skip_ws(data, size, p);
            if (p >= size) return std::nullopt;
            if (data[p] == ']') {
                ++p;
                if (nesting-- == 0) return items;
                continue;
            }
            if (data[p] == '[') {
                ++p;
                if (nesting++ == 0) ++items;
                if (depth + nesting > max_depth_) return std::nullopt;
                continue;
            }
            const std::uint64_t end = token_end(p);
            if (!is_number(data + p, data + end)) return std::nullopt;
            if (nesting == 0) ++items;
            p = end;
        }
    }

    // Builds the array number_array_items() accepted.
    void fill_number_array(std::uint64_t& p, PoDoFo::PdfArray& array) {
        for (;;) {
            skip_ws(data, size, p);
            if (data[p] == ']') {
                ++p;
                return;
            }
            if (data[p] == '[') {
                ++p;
                array.push_back(PoDoFo::PdfObject(PoDoFo::PdfArray()));
                PoDoFo::PdfVariant& nested = array.back();
                fill_number_array(p, nested.GetArray());
                continue;
            }
            const std::uint64_t end = token_end(p);
            array.push_back(PoDoFo::PdfObject(number_value(data + p, data + end)));
            p = end;
        }
    }

    // A hex string (just after '<'), read from memory as PoDoFo's ReadHexString reads it through
    // a virtual call per byte (a signature's /Contents has tens of thousands): the hex digits up
    // to '>' or the end, others skipped, an odd count padded with 0.
    void read_hex_string(PoDoFo::PdfVariant& v) {
        std::uint64_t p = tell();
        std::string digits;
        for (; p < size && data[p] != '>'; ++p)
            if (is_digit(data[p]) || (data[p] >= 'A' && data[p] <= 'F') || (data[p] >= 'a' && data[p] <= 'f')) digits += data[p];
        if (digits.size() % 2) digits += '0';
        PoDoFo::PdfString string;
        string.SetHexData(digits.data(), static_cast<PoDoFo::pdf_long>(digits.size()), nullptr);
        v = string;
        m_device.Device()->Seek(static_cast<std::streamoff>(p < size ? p + 1 : p));
    }

    // A literal string (just after '('), read from memory as PDF 32000-1 7.3.4.2 says, which
    // PoDoFo 0.9.8's ReadString does not: an unknown escape drops only the backslash ("\q" is
    // "q"; PoDoFo dropped both, so a stamp turned an Info "(v\quantum)" into "vuantum"); a
    // backslash before an end of line (CR, LF or CRLF) drops both; an end of line without one
    // is a single LF; \ddd is 1 to 3 octal digits, high-order overflow ignored. Balanced
    // parentheses need no escape. An unterminated string ends at the end of the input, as
    // PoDoFo read it.
    void read_literal_string(PoDoFo::PdfVariant& v) {
        std::uint64_t p = tell();
        std::string out;
        for (int open = 0; p < size;) {
            const char c = data[p++];
            if (c == '(') ++open;
            if (c == ')' && open-- == 0) break;
            if (c == '\r' || c == '\n') {  // any end of line is one LF
                if (c == '\r' && p < size && data[p] == '\n') ++p;
                out += '\n';
            } else if (c != '\\') {
                out += c;
            } else if (p < size) {
                p = read_escape(p, out);
            }
        }
        v = PoDoFo::PdfString(out.data(), static_cast<PoDoFo::pdf_long>(out.size()));
        m_device.Device()->Seek(static_cast<std::streamoff>(p));
    }

    // The escape whose byte after the backslash is at `p`: appends its value, returns its end.
    std::uint64_t read_escape(std::uint64_t p, std::string& out) const {
        const char c = data[p++];
        switch (c) {
            case 'n': out += '\n'; return p;
            case 'r': out += '\r'; return p;
            case 't': out += '\t'; return p;
            case 'b': out += '\b'; return p;
            case 'f': out += '\f'; return p;
            case '\r': return p < size && data[p] == '\n' ? p + 1 : p;  // a line continuation
            case '\n': return p;
            default: break;
        }
        if (c < '0' || c > '7') {  // "(", ")", "\\" and unknown escapes: the byte itself
            out += c;
            return p;
        }
        unsigned code = static_cast<unsigned>(c - '0');
        for (int digits = 1; digits < 3 && p < size && data[p] >= '0' && data[p] <= '7'; ++digits)
            code = code * 8 + static_cast<unsigned>(data[p++] - '0');
        out += static_cast<char>(code & 0xff);
        return p;
    }

    std::uint64_t token_end(std::uint64_t p) const {
        while (p < size && !is_ws(data[p]) && !is_delim(data[p])) ++p;
        return p;
    }

    // [+-]digits or [+-]digits.digits, with a digit somewhere: what PoDoFo reads as a number
    // and from_chars reads whole.
    static bool is_number(const char* b, const char* e) {
        const char* q = b < e && (*b == '+' || *b == '-') ? b + 1 : b;
        bool dot = false, digit = false;
        for (; q < e; ++q) {
            if (*q == '.' && !dot) dot = true;
            else if (is_digit(*q)) digit = true;
            else return false;
        }
        return digit && e - b <= 40;
    }

    static PoDoFo::PdfVariant number_value(const char* b, const char* e) {
        if (std::find(b, e, '.') == e) {
            char text[48];
            std::copy(b, e, text);
            text[e - b] = '\0';
            return PoDoFo::PdfVariant(static_cast<PoDoFo::pdf_int64>(std::strtol(text, nullptr, 10)));
        }
        const char* digits = *b == '+' || *b == '-' ? b + 1 : b;
        const double d = decimal_value(digits, e);  // is_number() checked the syntax
        return PoDoFo::PdfVariant(*b == '-' ? -d : d);
    }

    // Digits with at most one dot, correctly rounded. C++ libraries without floating-point
    // from_chars (libc++ before 14, emscripten's) use strtod, which reads such digits alike in
    // the C locale, the only one pith runs in.
    static double decimal_value(const char* b, const char* e) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
        double d = 0;
        std::from_chars(b, e, d, std::chars_format::fixed);
        return d;
#else
        char text[48];
        std::copy(b, e, text);
        text[e - b] = '\0';
        return std::strtod(text, nullptr);
#endif
    }

    void next(const char*& token, PoDoFo::EPdfTokenType& type) {
        if (!GetNextToken(token, &type)) PODOFO_RAISE_ERROR_INFO(PoDoFo::ePdfError_UnexpectedEOF, "unterminated array or dictionary");
    }

    // The dictionary that starts just after "<<". A key written twice keeps its last value, as
    // PoDoFo's own parser does, and is named in keys_twice() when the values differ.
    void read_dictionary(PoDoFo::PdfVariant& v, int depth) {
        using namespace PoDoFo;
        const char* token = nullptr;
        EPdfTokenType type;
        v = PdfDictionary();
        PdfDictionary& dict = v.GetDictionary();
        for (next(token, type); !(type == ePdfTokenType_Delimiter && token[0] == '>' && token[1] == '>'); next(token, type)) {
            PdfVariant key;
            GetNextVariant(token, type, key, nullptr);
            const PdfName name = key.GetName();  // throws when the key is not a name
            next(token, type);
            if (leave_out_widths_ && type == ePdfTokenType_Delimiter && token[0] == '[' &&
                (name.GetName() == "W" || name.GetName() == "W2") && skip_number_array(depth + 1)) {
                left_out_ = true;
                continue;
            }
            if (const auto earlier = dict.GetKeys().find(name); earlier != dict.GetKeys().end()) {
                PdfObject again{PdfVariant()};
                read(token, type, again, depth + 1);
                std::string before, after;
                earlier->second->ToString(before);
                again.ToString(after);
                if (before != after) keys_twice_.push_back(name.GetName());
                *earlier->second = again;
                continue;
            }
            dict.AddKey(name, PdfObject(PdfVariant()));
            PdfObject* slot = dict.GetKeys().find(name)->second;  // GetKey() answers null for the empty name "/"
            read(token, type, *slot, depth + 1);
        }
    }

    void read(const char* token, PoDoFo::EPdfTokenType type, PoDoFo::PdfVariant& v, int depth) {
        using namespace PoDoFo;
        // Too deep is damage, not an overrun: the recursion stops here, whatever the file holds.
        if (depth > max_depth_) PODOFO_RAISE_ERROR_INFO(ePdfError_InvalidDataType, "objects nested too deeply");
        if (budget_) budget_->value();
        switch (const EPdfDataType kind = DetermineDataType(token, type, v)) {
            case ePdfDataType_Null:
            case ePdfDataType_Bool:
            case ePdfDataType_Number:
            case ePdfDataType_Real:
            case ePdfDataType_Reference:
                return;  // DetermineDataType has set it
            case ePdfDataType_Name:
                ReadDataType(kind, v, nullptr);
                return;
            case ePdfDataType_String:
                read_literal_string(v);
                return;
            case ePdfDataType_HexString:
                read_hex_string(v);
                return;
            case ePdfDataType_Array: {
                v = PdfArray();
                PdfArray& array = v.GetArray();
                if (read_number_array(array, depth)) {
                    if (budget_) budget_->values(array.size());
                    return;
                }
                for (next(token, type); !(type == ePdfTokenType_Delimiter && token[0] == ']'); next(token, type)) {
                    array.push_back(PdfObject(PdfVariant()));
                    read(token, type, array.back(), depth + 1);
                }
                return;
            }
            case ePdfDataType_Dictionary:
                return read_dictionary(v, depth);
            default:
                PODOFO_RAISE_ERROR_INFO(ePdfError_InvalidDataType, "unexpected token");
        }
    }
};

}  // namespace pith::pdf
