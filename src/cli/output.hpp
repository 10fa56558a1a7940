#pragma once
// How the CLI shows findings to people: one line per check, a mark, colour only on a terminal.
#include "core/findings.hpp"

#include <cstdio>
#include <string>

namespace pith::cli {

bool use_colour(std::FILE* stream);
void print_findings(const Findings& findings, std::FILE* out);
void print_field(const std::string& label, const std::string& value, std::FILE* out);

}  // namespace pith::cli
