// SPDX-License-Identifier: MIT
// Prints the option tables of pith stamp and pith verify as JSON (every row: flags, long, key,
// type, help), for ctest cli_option_table, which checks --help, the man page, doc/commands.md and
// the batch manifest against them.
#include "stamp/options_table.hpp"
#include "verify/options_table.hpp"

#include <cstdio>

int main() {
    const pith::Json tables = {{"stamp", pith::options::to_json(pith::stamp::all_rows())},
                               {"verify", pith::options::to_json(pith::verify::all_rows())}};
    std::printf("%s\n", tables.dump(1).c_str());
    return 0;
}
