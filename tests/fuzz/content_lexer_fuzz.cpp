// libFuzzer target: pith::pdf::ContentLexer (content streams are attacker-controlled bytes):
// no crash, and its syntax check agrees with its reading.
// Built and run by tests/fuzz.cmake with clang, AddressSanitizer and UBSan.
#include "core/error.hpp"
#include "pdf/content.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // A copy of exactly `size` bytes, so that reading one byte past the end is an error ASan sees.
    std::vector<char> bytes(data, data + size);
    const std::string_view content(bytes.data(), bytes.size());
    // The reading (every operator, its operands built) and check_syntax() must agree on whether
    // the content's syntax holds, and why not.
    std::string read_error = "none", check_error = "none";
    try {
        pith::pdf::ContentLexer lexer(content);
        std::string_view op;
        std::vector<pith::pdf::Operand> operands;
        while (lexer.next_operator(op)) lexer.operands(operands);
    } catch (const pith::Error& e) {
        read_error = e.what();  // unclosed strings, arrays, dictionaries: reported, not crashed on
    }
    try {
        pith::pdf::ContentLexer(content).check_syntax();
    } catch (const pith::Error& e) {
        check_error = e.what();
    }
    if (read_error != check_error) __builtin_trap();
    (void)pith::pdf::decode_hex(content);
    return 0;
}
