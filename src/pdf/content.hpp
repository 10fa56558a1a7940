#pragma once
// pith::pdf::ContentLexer - content stream syntax: operators and their operands.
//
// Used to check a page's content (File::check_page), to read its text (shown_text) and the
// fonts' ToUnicode CMaps, which are PostScript of the same syntax.
// PoDoFo's content tokenizer builds an object for every token, which cost more than all the
// rest of reading a page; this reads numbers, names, strings and arrays into one small
// structure, and passes over dictionaries (marked-content properties) and inline image data.
#include <string>
#include <string_view>
#include <vector>

namespace pith::pdf {

// One operand of a content operator.
struct Operand {
    enum Kind { Number, Name, String, Array, Other } kind = Other;  // Other: true, false, null, a dictionary
    double number = 0;
    std::string bytes;           // Name: the name (#xx escapes undone); String: its bytes
    std::vector<Operand> items;  // Array
};

class ContentLexer {
public:
    explicit ContentLexer(std::string_view content) : d_(content) {}

    // The next operator and its operands; false at the end. Throws pith::Error ("unclosed
    // string", ...) on a string, array or dictionary the content does not close, and on a
    // dictionary key that is not a name: the syntax errors that make a reader drop the rest.
    bool next(std::string_view& op, std::vector<Operand>& operands);

private:
    bool value(Operand& o, int depth);
    double number();
    std::string literal_string();
    void skip_space();
    std::string_view regular_run();
    void skip_inline_image();

    std::string_view d_;
    std::size_t p_ = 0;
};

// Hex digits to bytes: other characters are skipped, an odd last digit is padded with 0.
std::string decode_hex(std::string_view hex);

}  // namespace pith::pdf
