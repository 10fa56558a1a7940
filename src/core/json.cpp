// SPDX-License-Identifier: MIT
#include "core/json.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

namespace pith {
namespace {

constexpr std::size_t kLongInteger = 300;
const std::string kPlaceholder = "\xEF\xB7\x90pith-integer:";

std::string abbreviate(const std::string& token) {
    return token.size() <= 40 ? token : token.substr(0, 20) + "..." + token.substr(token.size() - 10) + " (" + std::to_string(token.size()) + " characters)";
}

std::string quote_key(const std::string& key) {
    for (char c : key) {
        auto u = static_cast<unsigned char>(c);
        if (!(std::isalnum(u) || c == '_')) return "[" + Json(key).dump() + "]";
    }
    return "." + key;
}

// Builds the DOM like nlohmann's own SAX DOM parser, but refuses what a
// canonical record must not hold and remembers where it is for error messages.
class StrictBuilder : public nlohmann::json_sax<Json> {
public:
    explicit StrictBuilder(std::string source) : source_(std::move(source)) {}

    Json result;
    std::string error;

    bool null() override { return put(Json(nullptr)); }
    bool boolean(bool v) override { return put(Json(v)); }
    bool number_integer(number_integer_t v) override { return put(Json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return put(Json(v)); }
    bool number_float(number_float_t v, const string_t& lexeme) override {
        if (lexeme.find_first_of(".eE") == std::string::npos)  // beyond 64 bits: keep the exact digits, as Python does
            return put(Json::binary(std::vector<std::uint8_t>(lexeme.begin(), lexeme.end())));
        if (!std::isfinite(v)) return fail("number " + lexeme + " is outside the range of a double");
        return put(Json(v));
    }
    bool string(string_t& v) override {
        if (!long_integers.empty() && v.rfind(kPlaceholder, 0) == 0) {
            const std::string& digits = long_integers.at(std::stoul(v.substr(kPlaceholder.size())));
            if (digits.size() > 4300 + (digits[0] == '-'))
                return fail("integer with more than 4300 digits (Python's limit)");
            return put(Json::binary(std::vector<std::uint8_t>(digits.begin(), digits.end())));
        }
        return put(Json(std::move(v)));
    }
    std::vector<std::string> long_integers;  // see swap_long_integers
    bool binary(binary_t&) override { return fail("unexpected binary value"); }

    bool start_object(std::size_t) override { return open(Json::object()); }
    bool key(string_t& k) override {
        Json& object = *stack_.back();
        if (object.contains(k)) return fail("duplicate key \"" + k + "\"", path() + quote_key(k));
        keys_.back() = k;
        has_key_.back() = true;
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_array() override { return close(); }

    bool parse_error(std::size_t position, const std::string& last_token,
                     const nlohmann::detail::exception& ex) override {
        std::string what;
        if (ex.id == 406) {  // nlohmann converts every number without 64-bit integer form to a double first
            bool integer = last_token.find_first_of(".eE") == std::string::npos;
            return fail(integer ? "integer " + abbreviate(last_token) + " is beyond 10^308, the largest pith keeps exactly"
                                : "number " + abbreviate(last_token) + " is outside the range of a double");
        }
        // last_token holds what was read of the bad literal, after earlier context: '"a":-Inf'.
        auto start = last_token.find_last_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-");
        std::string literal = last_token.substr(start == std::string::npos ? 0 : start + 1);
        if (!literal.empty() && literal[0] == '-') literal.erase(0, 1);
        if (!literal.empty() && (literal[0] == 'N' || literal[0] == 'I'))
            what = "NaN and Infinity are not allowed in a Pith record";
        else
            return not_json(ex.what());
        return fail(what + " (byte " + std::to_string(position) + ")");
    }

private:
    std::string source_;
    std::vector<Json*> stack_;
    std::vector<std::string> keys_;
    std::vector<bool> has_key_;

    // Where the parser is: each open container contributes the step to the child
    // being read (an array its next index, an object the key just read).
    std::string path() const {
        std::string p = "$";
        for (std::size_t i = 0; i < stack_.size(); ++i) {
            const Json& container = *stack_[i];
            bool innermost = i + 1 == stack_.size();
            if (container.is_array()) {
                p += "[" + std::to_string(container.size() - (innermost ? 0 : 1)) + "]";
            } else if (has_key_[i]) {
                p += quote_key(keys_[i]);
            } else {
                break;
            }
        }
        return p;
    }

    // nlohmann's words are for programmers ("[json.exception.parse_error.101] parse error at line 1,
    // column 1: syntax error while parsing value - invalid literal; last read: '#'"): say where, in people's.
    bool not_json(const std::string& library) {
        const auto at = library.find("at line "), colon = library.find(": ", at == std::string::npos ? 0 : at);
        std::string where = at == std::string::npos || colon == std::string::npos ? "" : library.substr(at + 3, colon - at - 3);
        if (library.find("end of input") != std::string::npos) where += std::string(where.empty() ? "" : ": ") + "it ends too early";
        if (error.empty()) error = source_ + ": not JSON" + (where.empty() ? "" : " (" + where + ")");
        return false;
    }

    bool fail(const std::string& what, const std::string& where = {}) {
        if (error.empty()) error = source_ + ": " + what + " at " + (where.empty() ? path() : where);
        return false;
    }

    bool put(Json&& value) {
        if (stack_.empty()) {
            result = std::move(value);
            return true;
        }
        Json& parent = *stack_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(value));
        } else {
            parent[keys_.back()] = std::move(value);
            has_key_.back() = false;
        }
        return true;
    }

    bool open(Json&& container) {
        if (static_cast<int>(stack_.size()) >= kMaxJsonDepth)
            return fail("nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        Json* slot;
        if (stack_.empty()) {
            result = std::move(container);
            slot = &result;
        } else if (stack_.back()->is_array()) {
            stack_.back()->push_back(std::move(container));
            slot = &stack_.back()->back();
        } else {
            slot = &(*stack_.back())[keys_.back()];
            *slot = std::move(container);
        }
        stack_.push_back(slot);
        keys_.emplace_back();
        has_key_.push_back(false);
        return true;
    }

    bool close() {
        stack_.pop_back();
        keys_.pop_back();
        has_key_.pop_back();
        if (!has_key_.empty()) has_key_.back() = false;
        return true;
    }
};

void append_string(std::string& out, const std::string& s) {
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (char c : s) {
        auto u = static_cast<unsigned char>(c);
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (u < 0x20) {
                    out += "\\u00";
                    out += hex[u >> 4];
                    out += hex[u & 15];
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

void append_value(std::string& out, const Json& v, int indent, int level) {
    auto newline = [&](int lvl) {
        if (indent < 0) return;
        out += '\n';
        out.append(static_cast<std::size_t>(indent * lvl), ' ');
    };
    const char* key_sep = indent < 0 ? ":" : ": ";
    switch (v.type()) {
        case Json::value_t::null: out += "null"; break;
        case Json::value_t::boolean: out += v.get<bool>() ? "true" : "false"; break;
        case Json::value_t::number_integer: out += std::to_string(v.get<std::int64_t>()); break;
        case Json::value_t::number_unsigned: out += std::to_string(v.get<std::uint64_t>()); break;
        case Json::value_t::number_float: out += python_float_repr(v.get<double>()); break;
        case Json::value_t::binary: {
            const auto& digits = v.get_binary();
            std::string text(digits.begin(), digits.end());
            out += text;
            break;
        }
        case Json::value_t::string: append_string(out, v.get_ref<const std::string&>()); break;
        case Json::value_t::array: {
            out += '[';
            bool first = true;
            for (const auto& item : v) {
                if (!first) out += ',';
                first = false;
                newline(level + 1);
                append_value(out, item, indent, level + 1);
            }
            if (!v.empty()) newline(level);
            out += ']';
            break;
        }
        case Json::value_t::object: {
            // nlohmann's object is a std::map<std::string, ...>: byte order, which
            // for UTF-8 is code point order, which is Python's sort order for str.
            out += '{';
            bool first = true;
            for (const auto& [key, item] : v.items()) {
                if (!first) out += ',';
                first = false;
                newline(level + 1);
                append_string(out, key);
                out += key_sep;
                append_value(out, item, indent, level + 1);
            }
            if (!v.empty()) newline(level);
            out += '}';
            break;
        }
        case Json::value_t::discarded: throw Error("cannot serialise a discarded JSON value", err::internal_error);
    }
}

// nlohmann turns every integer beyond 64 bits into a double first and fails past 1e308.
// Integers longer than that are swapped, before parsing, for string placeholders that
// begin with the noncharacter U+FDD0, and swapped back by the builder. An input that
// itself holds U+FDD0 keeps the plain path (and the 10^308 limit): placeholders stay unambiguous.

std::string swap_long_integers(std::string_view text, std::vector<std::string>& integers) {
    std::string out;
    bool in_string = false;
    std::size_t copied = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
            continue;
        }
        if (c != '-' && !(c >= '0' && c <= '9')) continue;
        std::size_t end = i + (c == '-');
        while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
        bool integer = end == text.size() || (text[end] != '.' && text[end] != 'e' && text[end] != 'E');
        if (integer && end - i > kLongInteger) {
            out.append(text.substr(copied, i - copied));
            out += "\"" + kPlaceholder + std::to_string(integers.size()) + "\"";
            integers.emplace_back(text.substr(i, end - i));
            copied = end;
        }
        i = end - 1;
    }
    if (integers.empty()) return {};
    out.append(text.substr(copied));
    return out;
}

}  // namespace

Json parse_json(std::string_view text, const std::string& source_name) {
    // No JSON text holds a NUL byte (not even in a string, where it must be escaped), and
    // nlohmann's lexer takes one for the end of the input: "90\0junk" read as 90 (fuzz_record_reader).
    if (text.find('\0') != std::string_view::npos) throw Error(source_name + ": not JSON (a NUL byte)", err::input_not_json);
    StrictBuilder builder(source_name);
    std::string swapped;
    if (text.find("\xEF\xB7\x90") == std::string_view::npos && text.find("\\ufdd0") == std::string_view::npos &&
        text.find("\\uFDD0") == std::string_view::npos)
        swapped = swap_long_integers(text, builder.long_integers);
    if (!swapped.empty()) text = swapped;
    bool ok = Json::sax_parse(text.begin(), text.end(), &builder, nlohmann::detail::input_format_t::json, true, false);
    if (!ok || !builder.error.empty())
        throw Error(builder.error.empty() ? source_name + ": not JSON" : builder.error, err::input_not_json);
    return std::move(builder.result);
}

namespace {

// printf's "[-]d.ddde±XX" one unit larger in its last digit, in magnitude ("9.9e+04" gives
// "1.0e+05").
std::string up_in_last_digit(const std::string& sci) {
    const std::size_t e = sci.find('e');
    std::string mantissa = sci.substr(0, e);
    int exponent = std::stoi(sci.substr(e + 1));
    bool carry = true;
    for (std::size_t i = mantissa.size(); carry && i-- > 0;) {
        char& c = mantissa[i];
        if (c == '.' || c == '-') continue;
        carry = c == '9';
        c = carry ? '0' : static_cast<char>(c + 1);
    }
    if (carry) {  // 9.99 became 0.00: it is 1.00 times the next power of ten
        mantissa[mantissa[0] == '-' ? 1 : 0] = '1';
        ++exponent;
    }
    char exp[16];
    std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return mantissa + exp;
}

}  // namespace

// The correctly rounded p-digit form for growing p reads back as `value` first, except just above
// a power of two, where doubles are twice as dense below as above: there the nearest p-digit
// form may fall below the numbers that read back as `value` while its neighbour above does not.
std::string shortest_scientific_by_printf(double value) {
    char buf[40];
    for (int precision = 0; precision < 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*e", precision, value);
        if (std::strtod(buf, nullptr) == value) return buf;
        std::string above = up_in_last_digit(buf);
        if (std::strtod(above.c_str(), nullptr) == value) return above;
    }
    std::snprintf(buf, sizeof buf, "%.16e", value);
    return buf;
}

namespace {

// std::to_chars's shortest scientific form; C++ libraries without floating-point to_chars
// (libc++ before 14, which emscripten uses) get the same digits from printf and strtod.
std::string shortest_scientific(double value) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    return std::string(buf, res.ptr);
#else
    return shortest_scientific_by_printf(value);
#endif
}

}  // namespace

std::string python_float_repr(double value) {
    if (!std::isfinite(value)) throw Error("NaN and Infinity have no canonical JSON form", err::record_invalid);
    if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
    std::string sci = shortest_scientific(value);  // "-d.ddde+XX": shortest round-trip digits
    std::string sign;
    if (sci[0] == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    auto e = sci.find('e');
    std::string digits = sci.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    int exponent = std::stoi(sci.substr(e + 1));
    int decpt = exponent + 1;  // position of the decimal point relative to the digits
    int ndigits = static_cast<int>(digits.size());

    std::string out = sign;
    if (decpt > -4 && decpt <= 16) {  // CPython's float_repr_style 'r': positional
        if (decpt <= 0) {
            out += "0." + std::string(static_cast<std::size_t>(-decpt), '0') + digits;
        } else if (decpt >= ndigits) {
            out += digits + std::string(static_cast<std::size_t>(decpt - ndigits), '0') + ".0";
        } else {
            out += digits.substr(0, static_cast<std::size_t>(decpt)) + "." + digits.substr(static_cast<std::size_t>(decpt));
        }
    } else {
        out += digits.substr(0, 1);
        if (ndigits > 1) out += "." + digits.substr(1);
        char exp[16];
        std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
        out += exp;
    }
    return out;
}

std::string canonical_json(const Json& value) {
    std::string out;
    append_value(out, value, -1, 0);
    return out;
}

std::string pretty_json(const Json& value, int indent) {
    std::string out;
    append_value(out, value, indent, 0);
    return out;
}

}  // namespace pith
