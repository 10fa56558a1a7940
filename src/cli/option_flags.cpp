// SPDX-License-Identifier: MIT
#include "cli/option_flags.hpp"

namespace pith::cli {

CLI::Option* add_row(CLI::App& cmd, const options::Row& row, std::function<void(const options::Value&)> set) {
    options::Value v;
    switch (row.type) {
        case options::Type::Flag:
            return cmd.add_flag_function(row.flags, [set, v](std::int64_t count) mutable {
                if (count == 0) return;
                v.flag = count > 0;
                set(v);
            }, row.help);
        case options::Type::Integer:
        case options::Type::Number:
            return cmd.add_option_function<double>(row.flags, [set, v](const double& x) mutable {
                v.number = x;
                set(v);
            }, row.help)->type_name(row.type == options::Type::Integer ? "INT" : "FLOAT");
        case options::Type::Point:
            return cmd.add_option_function<std::vector<double>>(row.flags, [set, v](const std::vector<double>& xy) mutable {
                v.point[0] = xy.at(0), v.point[1] = xy.at(1);
                set(v);
            }, row.help)->delimiter(',')->expected(2);
        case options::Type::Text:
        case options::Type::Texts:
            break;
    }
    CLI::Option* added = cmd.add_option_function<std::string>(row.flags, [set, v](const std::string& text) mutable {
        v.text = text;
        set(v);
    }, row.help);
    if (row.choices) added->type_name(row.choices);
    return added;
}

CLI::Option* one_of(CLI::Option* option, const char* choices) {
    CLI::Validator member = CLI::IsMember(options::choices_of(choices));
    member.description("");  // the value name shows them already
    return option->type_name(choices)->check(member);
}

}  // namespace pith::cli
