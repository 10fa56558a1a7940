// SPDX-License-Identifier: MIT
#pragma once
// The options of `pith stamp`, one row each: the CLI makes its flags and --help from
// this table (cli/pdf_commands.cpp), a `pith batch` manifest line takes the rows that have a key
// (batch/manifest.cpp), and ctest cli_option_table checks doc/pith.1 and doc/commands.md against it.
#include "core/option_table.hpp"
#include "stamp/stamp.hpp"

#include <string>
#include <vector>

namespace pith::stamp {

struct Option {
    options::Row row;
    // Sets the value in Options, having checked it: the one place a value is judged. Throws
    // pith::Error (options.invalid) saying what is wrong; the caller says which flag or key.
    // nullptr: the command takes the value itself (the files, the record, --in-place, --json).
    void (*apply)(Options& options, const options::Value& value);
    // The default `--help` shows, read from default Options; nullptr: none shown.
    std::string (*shown_default)(const Options& defaults);
};

const std::vector<Option>& option_table();
const Option* option_of_key(const std::string& key);  // by manifest key; nullptr: none
const Option& option_of_flag(const std::string& long_flag);  // "--record"; throws pith::Error when none

// Every option `pith stamp` takes: the table's rows, then the signing and registry rows.
std::vector<options::Row> all_rows();

// The keys a manifest line takes, in the table's order, and "input" and "id" first: for the
// message that refuses an unknown key.
std::string manifest_keys();

}  // namespace pith::stamp
