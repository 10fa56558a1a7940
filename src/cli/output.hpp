// SPDX-License-Identifier: MIT
#pragma once
// How the CLI shows findings to people: one line per check, a mark, colour only on a terminal.
#include "core/findings.hpp"

#include <cstdio>
#include <string>
#include <string_view>

namespace pith::cli {

bool use_colour(std::FILE* stream);

// `text` safe to show on a terminal: what a PDF, a record or a file name holds is shown, never
// obeyed. Control characters (C0, DEL, C1) and bidirectional embeddings and isolates become
// visible escapes ("\x1b", "\u202e"), so no text can move the cursor, recolour or rewrite a
// verdict pith printed. JSON output escapes them itself.
std::string printable(std::string_view text);
void print_findings(const Findings& findings, std::FILE* out);
void print_field(const std::string& label, const std::string& value, std::FILE* out);

// An error, as every command shows it: "pith: MESSAGE  [CODE]" on standard error, the code
// bracketed as verify's findings are (doc/errors.md lists the codes).
void print_error(const std::string& message, const std::string& code);
// The same line, as text.
std::string error_line(const std::string& message, const std::string& code);

}  // namespace pith::cli
