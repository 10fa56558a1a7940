// SPDX-License-Identifier: MIT
#pragma once
#include <CLI/CLI.hpp>

#include "sign/signer.hpp"

namespace pith::cli {

// Exit codes shared by every command (documented in doc/commands.md and `pith --help`).
constexpr int kExitOk = 0;        // trusted / consistent / done
constexpr int kExitInvalid = 1;   // something does not hold
constexpr int kExitUsage = 2;     // bad usage, unreadable or malformed input
constexpr int kExitAbsent = 3;    // no pith data in the PDF
constexpr int kExitUnverified = 4;

// Each adds its subcommands; the callback stores the process exit status in `status`.
void register_record_commands(CLI::App& app, int& status);  // record, keygen, sign, tex
void register_pdf_commands(CLI::App& app, int& status);     // stamp, verify, extract
void register_batch_commands(CLI::App& app, int& status);   // batch
void register_registry_commands(CLI::App& app, int& status);  // fetch, keys, badge

// --sign-cert, --sign-key, --sign-chain, --sign-p12, --sign-pass-file, --sign-pass-env, --certify.
void add_signing_options(CLI::App& cmd, sign::KeySource& key, bool& certify);

}  // namespace pith::cli
