// SPDX-License-Identifier: MIT
#pragma once
// pith::pdf::ContentLexer - content stream syntax: operators and their operands.
//
// Used to check a page's content (File::check_page) and to read what it draws before poppler
// does (File::preflight_page).
// PoDoFo's content tokenizer builds an object for every token, which cost more than all the
// rest of reading a page; this reads numbers, names, strings and arrays into one small
// structure, and passes over dictionaries (marked-content properties) and inline image data.
#include "core/error.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pith::pdf {

// A string, array or dictionary the content does not close: everything after its start is
// inside it, so no reader draws any of that.
class UnclosedError : public Error {
public:
    explicit UnclosedError(const std::string& message) : Error(message, err::pdf_syntax) {}
};

// One operand of a content operator.
struct Operand {
    enum Kind { Number, Name, String, Array, Other } kind = Other;  // Other: true, false, null, a dictionary
    std::string_view number_text;  // Number: as written, in the content read
    std::string bytes;             // Name: the name (#xx escapes undone); String: its bytes
    std::vector<Operand> items;    // Array
};

class ContentLexer {
public:
    explicit ContentLexer(std::string_view content) : d_(content) {}

    // The next operator (its operands passed over); false at the end. Throws UnclosedError
    // ("unclosed string", ...) on a string, array or dictionary the content does not close, and
    // pith::Error on a dictionary key that is not a name or nesting over 64 deep: the syntax
    // errors that make a reader drop the rest.
    bool next_operator(std::string_view& op);
    // The operands of the operator next_operator() gave, built when asked: most operators'
    // operands (paths, colours) are not wanted.
    void operands(std::vector<Operand>& out);
    // One token at a time, for readers that handle operands as they come (long CMap blocks):
    // an operand into `operand`, an operator into `op` (BI after passing over the inline
    // image's data), or the end. Throws what next_operator() throws.
    enum class Token { Operand, Operator, End };
    Token token(std::string_view& op, Operand& operand);
    // Reads to the end as next_operator() would: throws what it throws.
    void check_syntax();

private:
    bool value(Operand* o, int depth);
    bool keyword(std::string_view& op);
    void literal_string(std::string* out);
    void skip_space();
    std::string_view regular_run();
    void skip_inline_image();

    std::string_view d_;
    std::size_t p_ = 0;
    std::size_t operands_from_ = 0, op_start_ = 0;  // the last operator's operands lie between
};

}  // namespace pith::pdf
