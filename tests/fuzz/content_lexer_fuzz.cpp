// SPDX-License-Identifier: MIT
// libFuzzer target: pith::pdf::ContentLexer (content streams are attacker-controlled bytes):
// no crash, and its syntax check agrees with its reading.
// Built and run by tests/fuzz.cmake with clang, AddressSanitizer and UBSan.
#include "core/error.hpp"
#include "core/hex.hpp"
#include "pdf/content.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Statement {
    std::string op;
    std::vector<pith::pdf::Operand> operands;
};

// Equal in what each kind of operand holds.
bool same(const std::vector<pith::pdf::Operand>& a, const std::vector<pith::pdf::Operand>& b) {
    using pith::pdf::Operand;
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].kind != b[i].kind) return false;
        if (a[i].kind == Operand::Number && a[i].number_text != b[i].number_text) return false;
        if ((a[i].kind == Operand::Name || a[i].kind == Operand::String) && a[i].bytes != b[i].bytes) return false;
        if (a[i].kind == Operand::Array && !same(a[i].items, b[i].items)) return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // A copy of exactly `size` bytes, so that reading one byte past the end is an error ASan sees.
    std::vector<char> bytes(data, data + size);
    const std::string_view content(bytes.data(), bytes.size());
    // The reading (every operator, its operands built), the token by token reading and
    // check_syntax() must agree on whether the content's syntax holds, and why not; both
    // readings on the operators and their operands.
    std::string read_error = "none", token_error = "none", check_error = "none";
    std::vector<Statement> read, tokens;
    try {
        pith::pdf::ContentLexer lexer(content);
        std::string_view op;
        std::vector<pith::pdf::Operand> operands;
        while (lexer.next_operator(op)) {
            lexer.operands(operands);
            read.push_back({std::string(op), operands});
        }
    } catch (const pith::Error& e) {
        read_error = e.what();  // unclosed strings, arrays, dictionaries: reported, not crashed on
    }
    try {
        pith::pdf::ContentLexer lexer(content);
        std::string_view op;
        Statement next;
        pith::pdf::Operand operand;
        for (pith::pdf::ContentLexer::Token t; (t = lexer.token(op, operand)) != pith::pdf::ContentLexer::Token::End;) {
            if (t == pith::pdf::ContentLexer::Token::Operand) {
                next.operands.push_back(operand);
            } else {
                if (op != "BI") tokens.push_back({std::string(op), std::move(next.operands)});  // BI: an inline image, passed over
                next.operands.clear();
            }
        }
    } catch (const pith::Error& e) {
        token_error = e.what();
    }
    try {
        pith::pdf::ContentLexer(content).check_syntax();
    } catch (const pith::Error& e) {
        check_error = e.what();
    }
    if (read_error != check_error || token_error != check_error || read.size() != tokens.size()) __builtin_trap();
    for (std::size_t i = 0; i < read.size(); ++i)
        if (read[i].op != tokens[i].op || !same(read[i].operands, tokens[i].operands)) __builtin_trap();
    std::string hex_bytes;
    pith::decode_hex(content, hex_bytes, pith::NonHex::Skip);
    return 0;
}
