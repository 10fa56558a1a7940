// SPDX-License-Identifier: MIT
#include "pdf/content.hpp"

#include "core/error.hpp"
#include "core/hex.hpp"

#include <array>
#include <cstdint>

namespace pith::pdf {

namespace {

constexpr int kMaxNesting = 64;

// Character classes, looked up once per byte (the lexer's inner loops test every byte).
// kLetter: the other regular bytes, which start operators (and true, false, null).
enum : std::uint8_t { kSpace = 1, kDelimiter = 2, kNumberStart = 8, kLetter = 16 };
constexpr std::array<std::uint8_t, 256> kClasses = [] {
    std::array<std::uint8_t, 256> t{};
    for (auto& c : t) c = kLetter;
    for (unsigned char c : {' ', '\n', '\r', '\t', '\f', '\0'}) t[c] = kSpace;
    for (unsigned char c : {'(', ')', '<', '>', '[', ']', '{', '}', '/', '%'}) t[c] = kDelimiter;
    for (unsigned char c = '0'; c <= '9'; ++c) t[c] = kNumberStart;
    for (unsigned char c : {'+', '-', '.'}) t[c] = kNumberStart;
    return t;
}();
bool is_class(char c, std::uint8_t classes) { return kClasses[static_cast<unsigned char>(c)] & classes; }
bool is_space(char c) { return is_class(c, kSpace); }
bool is_delimiter(char c) { return is_class(c, kDelimiter); }
bool is_regular(char c) { return !is_class(c, kSpace | kDelimiter); }
bool is_number_start(char c) { return is_class(c, kNumberStart); }

std::string unescape_name(std::string_view raw) {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '#' && i + 2 < raw.size() && hex_digit(raw[i + 1]) >= 0 && hex_digit(raw[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit(raw[i + 1]) * 16 + hex_digit(raw[i + 2]));
            i += 2;
        } else {
            out += raw[i];
        }
    }
    return out;
}

[[noreturn]] void unclosed(const char* what) { throw UnclosedError(std::string("unclosed ") + what); }

}  // namespace

bool ContentLexer::next_operator(std::string_view& op) {
    // Most of a page's bytes are numbers, which matter only as the operands of the few operators
    // a reader acts on: the scan stops only at delimiters and at the start of a word (a letter
    // after a byte that is not regular), and operands() finds the operands when asked.
    const char* d = d_.data();
    const std::size_t n = d_.size();
    operands_from_ = p_;
    for (std::size_t p = p_;;) {
        while (p < n && !is_class(d[p], kDelimiter | kLetter)) ++p;
        if (p >= n) {
            p_ = n;
            return false;
        }
        if (d[p] == '%') {
            while (p < n && d[p] != '\n' && d[p] != '\r') ++p;
            continue;
        }
        if (is_delimiter(d[p])) {
            p_ = p;
            value(nullptr, 0);
            p = p_;
            continue;
        }
        if (p > 0 && is_regular(d[p - 1])) {  // inside a number ("1e5")
            ++p;
            continue;
        }
        const std::size_t start = p;
        while (p < n && is_regular(d[p])) ++p;
        p_ = p;
        op = d_.substr(start, p - start);
        if (op == "true" || op == "false" || op == "null") continue;
        if (op == "BI") {
            skip_inline_image();
            operands_from_ = p = p_;  // an inline image: passed over with what came before it
            continue;
        }
        op_start_ = start;
        return true;
    }
}

void ContentLexer::operands(std::vector<Operand>& out) {
    out.clear();
    const std::size_t resume = p_;
    std::string_view word;
    p_ = operands_from_;
    for (;;) {  // read once already: no error this time
        skip_space();
        if (p_ >= op_start_) break;
        Operand& o = out.emplace_back();
        if (is_regular(d_[p_]) && !is_number_start(d_[p_])) keyword(word);  // true, false or null
        else if (!value(&o, 0)) out.pop_back();                              // a stray delimiter
    }
    p_ = resume;
}

ContentLexer::Token ContentLexer::token(std::string_view& op, Operand& operand) {
    for (;;) {
        skip_space();
        if (p_ >= d_.size()) return Token::End;
        if (!is_regular(d_[p_]) || is_number_start(d_[p_])) {
            operand.kind = Operand::Other;
            operand.bytes.clear();
            operand.items.clear();
            if (value(&operand, 0)) return Token::Operand;
        } else if (keyword(op)) {
            operand.kind = Operand::Other;
            return Token::Operand;
        } else {
            return Token::Operator;
        }
    }
}

// At a word: true for the operands true, false and null; else the word is an operator, put in
// `op` (after BI, the inline image's data has been passed over).
bool ContentLexer::keyword(std::string_view& op) {
    op = regular_run();
    if (op == "true" || op == "false" || op == "null") return true;
    if (op == "BI") skip_inline_image();
    return false;
}

void ContentLexer::check_syntax() {
    // Numbers and operators cannot be wrong: only what starts with a delimiter can, and the word
    // BI (an inline image, whose data is passed over). So runs of other bytes are skipped whole.
    const char* d = d_.data();
    const std::size_t n = d_.size();
    for (;;) {
        std::size_t p = p_;
        while (p < n && !is_delimiter(d[p]) && !(d[p] == 'B' && (p == 0 || !is_regular(d[p - 1])))) ++p;
        p_ = p;
        if (p >= n) return;
        std::string_view word;
        if (d[p] == 'B') keyword(word);
        else if (d[p] == '%') skip_space();
        else value(nullptr, 0);
    }
}

// The byte loops work on locals: p_ written through `this` would have to be stored and
// reloaded around every byte read (a char may alias it).
void ContentLexer::skip_space() {
    const char* d = d_.data();
    const std::size_t n = d_.size();
    std::size_t p = p_;
    while (p < n) {
        if (is_space(d[p])) {
            ++p;
        } else if (d[p] == '%') {
            while (p < n && d[p] != '\n' && d[p] != '\r') ++p;
        } else {
            break;
        }
    }
    p_ = p;
}

std::string_view ContentLexer::regular_run() {
    const char* d = d_.data();
    const std::size_t n = d_.size(), start = p_;
    std::size_t p = start;
    while (p < n && is_regular(d[p])) ++p;
    p_ = p;
    return d_.substr(start, p - start);
}

// Reads one value at p_ into `o` (or only passes over it, when null); false for what is not an
// operand (a stray delimiter).
bool ContentLexer::value(Operand* o, int depth) {
    if (depth > kMaxNesting) throw Error("arrays or dictionaries nested too deeply", err::pdf_syntax);
    const char c = d_[p_];
    if (is_number_start(c)) {  // its value is read when asked for (most operands are path coordinates)
        const std::string_view text = regular_run();
        if (o) {
            o->kind = Operand::Number;
            o->number_text = text;
        }
    } else if (c == '/') {
        ++p_;
        const std::string_view name = regular_run();
        if (o) {
            o->kind = Operand::Name;
            o->bytes = unescape_name(name);
        }
    } else if (c == '(') {
        if (o) o->kind = Operand::String;
        literal_string(o ? &o->bytes : nullptr);
    } else if (c == '<' && p_ + 1 < d_.size() && d_[p_ + 1] == '<') {
        p_ += 2;
        for (bool key = true;; key = !key) {  // a dictionary: checked, then passed over
            skip_space();
            if (p_ >= d_.size()) unclosed("dictionary");
            if (d_[p_] == '>' && p_ + 1 < d_.size() && d_[p_ + 1] == '>') {
                p_ += 2;
                break;
            }
            if (key && d_[p_] != '/') throw Error("a dictionary key that is not a name", err::pdf_syntax);
            if (!value(nullptr, depth + 1) && p_ < d_.size() && is_regular(d_[p_])) regular_run();  // true, false, null
        }
    } else if (c == '<') {
        const std::size_t end = d_.find('>', p_);
        if (end == std::string_view::npos) unclosed("hex string");
        if (o) {
            o->kind = Operand::String;
            decode_hex(d_.substr(p_ + 1, end - p_ - 1), o->bytes, NonHex::Skip);
        }
        p_ = end + 1;
    } else if (c == '[') {
        ++p_;
        if (o) o->kind = Operand::Array;
        for (;;) {
            skip_space();
            if (p_ >= d_.size()) unclosed("array");
            if (d_[p_] == ']') {
                ++p_;
                break;
            }
            if (!value(o ? &o->items.emplace_back() : nullptr, depth + 1)) {
                if (o) o->items.pop_back();
                if (p_ < d_.size() && is_regular(d_[p_])) regular_run();  // true, false, null or an operator inside
            }
        }
    } else {
        if (!is_regular(c)) ++p_;  // a stray ), >, ], { or }
        return false;
    }
    return true;
}

// Reads the string at p_ into `out`, or only passes over it when null.
void ContentLexer::literal_string(std::string* out) {
    int depth = 0;
    for (++p_;; ++p_) {
        if (p_ >= d_.size()) unclosed("string");
        const char c = d_[p_];
        if (c == '(') {
            ++depth;
        } else if (c == ')') {
            if (depth-- == 0) {
                ++p_;
                return;
            }
        } else if (c == '\\') {
            if (++p_ >= d_.size()) unclosed("string");
            const char e = d_[p_];
            if (e >= '0' && e <= '7') {
                int v = 0;
                for (int k = 0; k < 3 && p_ < d_.size() && d_[p_] >= '0' && d_[p_] <= '7'; ++k) v = v * 8 + (d_[p_++] - '0');
                --p_;
                if (out) *out += static_cast<char>(v);
            } else if (e == '\r') {
                if (p_ + 1 < d_.size() && d_[p_ + 1] == '\n') ++p_;  // a line continuation
            } else if (e != '\n' && out) {
                *out += e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
            }
            continue;
        }
        if (out) *out += c;
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
        value(nullptr, 1);
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
