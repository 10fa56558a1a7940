// SPDX-License-Identifier: MIT
#pragma once
// The replies pith's children write on their pipe (page/visible, page/pixels): numbers as C99
// hex floats (%a, exact) and whole numbers, each ended by one space or newline, and byte strings
// of a length given before them. A child that read a hostile file may have been made to write
// anything, so Reply refuses what is malformed (nullopt) and never reads past the end.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pith::reply {

// `v` as a hex float followed by `end`.
void put_number(std::string& out, double v, char end = ' ');

class Reply {
public:
    explicit Reply(std::string_view s) : s_(s) {}
    // Consumes `word` when the reply goes on with it.
    bool literal(std::string_view word);
    // A finite number followed by `end`.
    std::optional<double> number(char end = ' ');
    // A whole number followed by `end`, no more than the bytes left: what it counts follows it,
    // so a product of two counts cannot overflow.
    std::optional<std::size_t> count(char end = ' ');
    // 0 or 1 followed by `end`.
    std::optional<bool> flag(char end = ' ');
    // The next `n` bytes.
    std::optional<std::string> bytes(std::size_t n);
    bool done() const { return s_.empty(); }

private:
    std::string_view s_;
};

}  // namespace pith::reply
