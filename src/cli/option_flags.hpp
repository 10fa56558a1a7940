// SPDX-License-Identifier: MIT
#pragma once
// CLI11 options made from a command's option table (core/option_table.hpp): the flag, its help
// and its value type come from the row, so `--help` says what the table says.
#include "core/error.hpp"
#include "core/option_table.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace pith::cli {

// An option that hands its value, as given, to `set` once the command line is parsed.
CLI::Option* add_row(CLI::App& cmd, const options::Row& row, std::function<void(const options::Value&)> set);

// Every row whose value the table applies: `target` gets it while the command line is parsed,
// a value the row refuses is a usage error that names the flag. Defaults shown are read from
// default-constructed Options.
template <class Option, class Target>
void add_applied_options(CLI::App& cmd, const std::vector<Option>& table, Target& target) {
    const Target defaults{};
    for (const Option& o : table) {
        if (!o.apply) continue;
        auto set = [&target, apply = o.apply, flag = options::long_flag(o.row)](const options::Value& v) {
            try {
                apply(target, v);
            } catch (const Error& e) {
                throw Error(flag + ": " + e.what(), e.code());
            }
        };
        CLI::Option* added = add_row(cmd, o.row, set);
        if (o.shown_default) added->default_str(o.shown_default(defaults));
    }
}

// An option that takes only `choices`, "a|b|c": --help shows them as its value, and CLI11 refuses
// any other value with a usage error that lists them.
CLI::Option* one_of(CLI::Option* option, const char* choices);

// A row the command binds to a variable of its own (a file name, --json).
template <class T>
CLI::Option* add_bound(CLI::App& cmd, const options::Row& row, T& variable) {
    if constexpr (std::is_same_v<T, bool>) return cmd.add_flag(row.flags, variable, row.help);
    CLI::Option* added = cmd.add_option(row.flags, variable, row.help);
    if constexpr (std::is_same_v<T, std::vector<std::string>>) added->allow_extra_args(false);
    if (row.choices) added->type_name(row.choices);
    return added;
}

}  // namespace pith::cli
