// SPDX-License-Identifier: MIT
#pragma once
// The options of `pith verify`, one row each: the CLI makes its flags and --help from
// this table (cli/pdf_commands.cpp), and ctest cli_option_table checks doc/pith.1, doc/commands.md
// and the batch manifest against it. A row with a key is what a `pith batch --verify` manifest
// line may give per file (read there by the stamp table's rows of the same key).
#include "core/option_table.hpp"
#include "verify/verify.hpp"

#include <string>
#include <vector>

namespace pith::verify {

struct Option {
    options::Row row;
    // Sets the value in Options; nullptr: the command takes it itself (keyrings, the record,
    // trust anchors, --online, --json, --picture).
    void (*apply)(Options& options, const options::Value& value);
    std::string (*shown_default)(const Options& defaults);  // nullptr: no default shown in --help
};

const std::vector<Option>& option_table();
const Option& option_of_flag(const std::string& long_flag);  // "--record"; throws pith::Error when none

// Every option `pith verify` takes: the table's rows, then the registry rows (--online).
std::vector<options::Row> all_rows();

}  // namespace pith::verify
