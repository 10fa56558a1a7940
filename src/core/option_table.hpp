// SPDX-License-Identifier: MIT
#pragma once
// What a command's option table is made of: one row per option, from which the CLI11
// flags and `--help` are made, the batch manifest's keys read, and the man page and
// doc/commands.md checked (ctest cli_option_table). The rows of one command are in its module:
// stamp/options_table.hpp, verify/options_table.hpp.
#include "core/error.hpp"
#include "core/json.hpp"

#include <initializer_list>
#include <string>
#include <vector>

namespace pith::options {

// How a value is written: a flag takes none (a manifest key takes true or false), Point is
// "X,Y" on the command line and [X, Y] in a manifest, Texts may be given several times.
enum class Type { Flag, Integer, Number, Text, Point, Texts };
const char* to_string(Type type);

// One value, as the command line or a manifest line gave it.
struct Value {
    bool flag = false;
    double number = 0;  // Integer (checked to be one by the row that takes it) and Number
    std::string text;
    double point[2] = {0, 0};
};

struct Row {
    const char* flags;  // CLI11's spelling: "-o,--output", "--margin-x"
    const char* key;    // the batch manifest's key; nullptr: the command line only
    Type type;
    const char* help;   // one line, as `--help` shows it
    // The values a Text row takes, "a|b|c" (--help's value name, and the docs' spelling of the
    // flag); nullptr: any. The row's apply judges them, so a manifest line is refused alike.
    const char* choices = nullptr;
};

// The values of `choices`, "a|b|c", in order.
std::vector<std::string> choices_of(const char* choices);
// Whether `text` is one of `choices`.
bool is_one_of(const char* choices, const std::string& text);

// The long flag of a row: "--output" of "-o,--output".
std::string long_flag(const Row& row);
const Row* find(const std::vector<Row>& rows, const std::string& long_name);

// The option of a command's table (stamp::Option, verify::Option: each has a `row`) whose long
// flag is `long_name`; a flag the table lacks is pith's own mistake (internal.error).
template <class Option>
const Option& of_flag(const std::vector<Option>& table, const std::string& long_name) {
    for (const Option& o : table)
        if (long_flag(o.row) == long_name) return o;
    throw Error("internal error: no option " + long_name + " in the table", err::internal_error);
}

// The rows of a command's table, then those of the groups it shares.
template <class Option>
std::vector<Row> rows_of(const std::vector<Option>& table, std::initializer_list<const std::vector<Row>*> groups) {
    std::vector<Row> rows;
    for (const Option& o : table) rows.push_back(o.row);
    for (const auto* group : groups) rows.insert(rows.end(), group->begin(), group->end());
    return rows;
}

// Options several commands share, bound by the CLI (cli/registry_flags.hpp, add_signing_options):
// where records come from, and the publisher's signing key.
const std::vector<Row>& registry_rows();
const std::vector<Row>& signing_rows();

// {flags, long, key, type, help, choices} per row: what ctest cli_option_table checks the docs against.
Json to_json(const std::vector<Row>& rows);

}  // namespace pith::options
