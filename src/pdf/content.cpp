#include "pdf/content.hpp"

#include "core/error.hpp"

#include <array>
#include <cstdint>

namespace pith::pdf {

namespace {

constexpr int kMaxNesting = 64;

// Character classes, looked up once per byte (the lexer's inner loops test every byte).
enum : std::uint8_t { kSpace = 1, kDelimiter = 2, kDigit = 4, kNumberStart = 8 };
constexpr std::array<std::uint8_t, 256> kClasses = [] {
    std::array<std::uint8_t, 256> t{};
    for (unsigned char c : {' ', '\n', '\r', '\t', '\f', '\0'}) t[c] = kSpace;
    for (unsigned char c : {'(', ')', '<', '>', '[', ']', '{', '}', '/', '%'}) t[c] = kDelimiter;
    for (unsigned char c = '0'; c <= '9'; ++c) t[c] = kDigit | kNumberStart;
    for (unsigned char c : {'+', '-', '.'}) t[c] = kNumberStart;
    return t;
}();
bool is_class(char c, std::uint8_t classes) { return kClasses[static_cast<unsigned char>(c)] & classes; }
bool is_space(char c) { return is_class(c, kSpace); }
bool is_delimiter(char c) { return is_class(c, kDelimiter); }
bool is_regular(char c) { return !is_class(c, kSpace | kDelimiter); }
bool is_digit(char c) { return is_class(c, kDigit); }
bool is_number_start(char c) { return is_class(c, kNumberStart); }

int hex_value(char c) {
    return is_digit(c)                 ? c - '0'
           : (c >= 'a' && c <= 'f') ? c - 'a' + 10
           : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                    : -1;
}

std::string unescape_name(std::string_view raw) {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '#' && i + 2 < raw.size() && hex_value(raw[i + 1]) >= 0 && hex_value(raw[i + 2]) >= 0) {
            out += static_cast<char>(hex_value(raw[i + 1]) * 16 + hex_value(raw[i + 2]));
            i += 2;
        } else {
            out += raw[i];
        }
    }
    return out;
}

[[noreturn]] void unclosed(const char* what) { throw Error(std::string("unclosed ") + what); }

}  // namespace

std::string decode_hex(std::string_view hex) {
    std::string out;
    int half = -1;
    for (char ch : hex) {
        const int v = hex_value(ch);
        if (v < 0) continue;
        if (half < 0) {
            half = v;
        } else {
            out += static_cast<char>(half * 16 + v);
            half = -1;
        }
    }
    if (half >= 0) out += static_cast<char>(half * 16);
    return out;
}

bool ContentLexer::next(std::string_view& op, std::vector<Operand>& operands) {
    operands.clear();
    for (;;) {
        skip_space();
        if (p_ >= d_.size()) return false;
        if (!is_regular(d_[p_]) || is_number_start(d_[p_])) {
            if (!value(operands.emplace_back(), 0)) operands.pop_back();
            continue;
        }
        const std::string_view word = regular_run();
        if (word == "true" || word == "false" || word == "null") {
            operands.emplace_back();
        } else if (word == "BI") {
            skip_inline_image();
            operands.clear();
        } else {
            op = word;
            return true;
        }
    }
}

void ContentLexer::skip_space() {
    while (p_ < d_.size()) {
        if (is_space(d_[p_])) {
            ++p_;
        } else if (d_[p_] == '%') {
            while (p_ < d_.size() && d_[p_] != '\n' && d_[p_] != '\r') ++p_;
        } else {
            break;
        }
    }
}

std::string_view ContentLexer::regular_run() {
    const std::size_t start = p_;
    while (p_ < d_.size() && is_regular(d_[p_])) ++p_;
    return d_.substr(start, p_ - start);
}

// Reads one value at p_ into `o`; false for what is not an operand (a stray delimiter).
bool ContentLexer::value(Operand& o, int depth) {
    if (depth > kMaxNesting) throw Error("arrays or dictionaries nested too deeply");
    const char c = d_[p_];
    if (is_number_start(c)) {
        o.kind = Operand::Number;
        o.number = number();
    } else if (c == '/') {
        ++p_;
        o.kind = Operand::Name;
        o.bytes = unescape_name(regular_run());
    } else if (c == '(') {
        o.kind = Operand::String;
        o.bytes = literal_string();
    } else if (c == '<' && p_ + 1 < d_.size() && d_[p_ + 1] == '<') {
        p_ += 2;
        for (bool key = true;; key = !key) {  // a dictionary: checked, then passed over
            skip_space();
            if (p_ >= d_.size()) unclosed("dictionary");
            if (d_[p_] == '>' && p_ + 1 < d_.size() && d_[p_ + 1] == '>') {
                p_ += 2;
                break;
            }
            if (key && d_[p_] != '/') throw Error("a dictionary key that is not a name");
            Operand inner;
            if (!value(inner, depth + 1) && p_ < d_.size() && is_regular(d_[p_])) regular_run();  // true, false, null
        }
    } else if (c == '<') {
        const std::size_t end = d_.find('>', p_);
        if (end == std::string_view::npos) unclosed("hex string");
        o.kind = Operand::String;
        o.bytes = decode_hex(d_.substr(p_ + 1, end - p_ - 1));
        p_ = end + 1;
    } else if (c == '[') {
        ++p_;
        o.kind = Operand::Array;
        for (;;) {
            skip_space();
            if (p_ >= d_.size()) unclosed("array");
            if (d_[p_] == ']') {
                ++p_;
                break;
            }
            if (!value(o.items.emplace_back(), depth + 1)) {
                o.items.pop_back();
                if (p_ < d_.size() && is_regular(d_[p_])) regular_run();  // true, false, null or an operator inside
            }
        }
    } else {
        if (!is_regular(c)) ++p_;  // a stray ), >, ], { or }
        return false;
    }
    return true;
}

double ContentLexer::number() {
    const std::size_t start = p_;
    bool negative = false;
    while (p_ < d_.size() && (d_[p_] == '+' || d_[p_] == '-')) negative = d_[p_++] == '-' ? !negative : negative;
    double v = 0, scale = 0;
    for (; p_ < d_.size(); ++p_) {
        const char c = d_[p_];
        if (is_digit(c)) {
            v = v * 10 + (c - '0');
            if (scale > 0) scale *= 10;
        } else if (c == '.' && scale == 0) {
            scale = 1;
        } else {
            break;
        }
    }
    if (p_ == start) ++p_;
    while (p_ < d_.size() && is_regular(d_[p_])) ++p_;  // "1.2.3" and the like: the number read so far
    if (scale > 0) v /= scale;
    return negative ? -v : v;
}

std::string ContentLexer::literal_string() {
    std::string out;
    int depth = 0;
    for (++p_;; ++p_) {
        if (p_ >= d_.size()) unclosed("string");
        const char c = d_[p_];
        if (c == '(') {
            ++depth;
        } else if (c == ')') {
            if (depth-- == 0) {
                ++p_;
                return out;
            }
        } else if (c == '\\') {
            if (++p_ >= d_.size()) unclosed("string");
            const char e = d_[p_];
            if (e >= '0' && e <= '7') {
                int v = 0;
                for (int k = 0; k < 3 && p_ < d_.size() && d_[p_] >= '0' && d_[p_] <= '7'; ++k) v = v * 8 + (d_[p_++] - '0');
                --p_;
                out += static_cast<char>(v);
            } else if (e == '\r') {
                if (p_ + 1 < d_.size() && d_[p_ + 1] == '\n') ++p_;  // a line continuation
            } else if (e != '\n') {
                out += e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
            }
            continue;
        }
        out += c;
    }
}

// After BI: the image's dictionary up to ID, then its data up to an EI between white space.
void ContentLexer::skip_inline_image() {
    for (;;) {
        skip_space();
        if (p_ >= d_.size()) return;
        if (is_regular(d_[p_]) && !is_number_start(d_[p_])) {
            if (regular_run() == "ID") break;
            continue;
        }
        Operand ignored;
        value(ignored, 1);
    }
    for (std::size_t at = p_ + 1; (at = d_.find("EI", at)) != std::string_view::npos; ++at) {
        if (is_space(d_[at - 1]) && (at + 2 == d_.size() || is_space(d_[at + 2]) || is_delimiter(d_[at + 2]))) {
            p_ = at + 2;
            return;
        }
    }
    p_ = d_.size();
}

}  // namespace pith::pdf
