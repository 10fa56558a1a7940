// SPDX-License-Identifier: MIT
// pith: command-line front end. Argument parsing and printing only; the work is in the library.
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "core/json.hpp"
#include "core/edit_distance.hpp"
#include "core/error.hpp"
#include "pdf/budget.hpp"
#include "core/platform.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {


// Before CLI11 sees them: the words ahead of the command. CLI11 says only "A subcommand is
// required" for both `pith verfy` and `pith --bogus`; this names the word and the nearest command.
std::optional<std::string> misuse_before_command(const CLI::App& app, int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string word = argv[i];
        if (word == "--help" || word == "-h" || word == "--version") return std::nullopt;
        if (!word.empty() && word[0] == '-') {
            const std::string name = word.substr(0, word.find('='));
            const CLI::Option* known = app.get_option_no_throw(name);
            if (!known) return "unknown option '" + word + "'";
            if (known->get_type_size() != 0 && name.size() == word.size()) ++i;  // its value follows (--limits SPEC)
            continue;
        }
        std::string nearest;
        std::size_t best = 3;  // suggest only a near miss: at most two edits
        for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
            if (sub->get_name() == word) return std::nullopt;
            if (std::size_t d = pith::edit_distance<char>(word, sub->get_name()); d < best) best = d, nearest = sub->get_name();
        }
        return "unknown command '" + word + "'" + (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)");
    }
    return std::nullopt;
}

// The command line asked for --json: errors are then also one JSON object on standard output,
// where a pipeline reads the command's results.
bool wants_json(const CLI::App& app) {
    for (const CLI::App* sub : app.get_subcommands()) {  // the command run, and its own (keys list)
        if (const CLI::Option* json = sub->get_option_no_throw("--json"); json && json->count() > 0) return true;
        if (wants_json(*sub)) return true;
    }
    return false;
}

// Every error that ends a command: its line on standard error and, with --json, its object.
int fail(const CLI::App& app, const std::string& message, const std::string& code, int status) {
    pith::cli::print_error(message, code);
    if (wants_json(app)) {
        pith::Json j = {{"error_code", code}, {"error", message}};
        std::printf("%s\n", j.dump(-1, ' ', false, pith::Json::error_handler_t::replace).c_str());
    }
    return status;
}

// Where a usage error points: the help of the command it happened in.
std::string help_for(const CLI::App& app) {
    for (const CLI::App* sub : app.get_subcommands()) return "pith " + sub->get_name() + " --help";
    return "pith --help";
}

}  // namespace

int main(int argc, char** argv) {
    using namespace pith::cli;
    pith::platform::set_program_path(argc > 0 ? argv[0] : nullptr);
    CLI::App app{"pith: put a verifiable Pith number on scientific papers, and check one.\n\n"
                 "A Pith number (pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3) is the content address of a paper's\n"
                 "canonical metadata record, issued with an Ed25519 receipt by a registry.\n"
                 "Run `pith COMMAND --help` for the options of one command."};
    app.footer("Typical use:\n"
               "  pith record record.json                              check a registry record\n"
               "  pith stamp paper.pdf --record record.json -o out.pdf embed it, draw the badge\n"
               "  pith verify out.pdf --keyring registry-keys.json     check a received PDF\n"
               "  pith tex record.json                                 the \\pithnumber line for pith.sty\n\n"
               "Errors are one line on standard error; usage errors exit with status 2.\n"
               "Manual: man pith, doc/ in the source, and the pith.sty manual (pith.pdf).");
    app.set_version_flag("--version", std::string("pith ") + PITH_VERSION);
    app.require_subcommand(1);
    // The work one input file may ask for (doc/limits.md); set before any subcommand runs.
    app.add_option_function<std::string>(
           "--limits", [](const std::string& spec) { pith::pdf::Limits::set_current(pith::pdf::Limits::parse(spec)); },
           "Raise (or lower) what one PDF may cost, e.g. decoded=1G,values=20000000; default " +
               pith::pdf::Limits().describe() + " (also $PITH_LIMITS; doc/limits.md)")
        ->type_name("KEY=N,...");
    app.fallthrough();

    int status = 0;
    register_record_commands(app, status);
    register_pdf_commands(app, status);
    register_batch_commands(app, status);
    register_registry_commands(app, status);

    if (auto misuse = misuse_before_command(app, argc, argv)) {
        pith::cli::print_error(*misuse, pith::err::options_invalid);
        std::fprintf(stderr, "Run `pith --help` for usage.\n");
        return kExitUsage;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        const int code = fail(app, e.what(), pith::err::options_invalid, kExitUsage);
        std::fprintf(stderr, "Run `%s` for usage.\n", help_for(app).c_str());
        return code;
    } catch (const pith::Error& e) {
        return fail(app, e.what(), e.code(), status ? status : kExitUsage);
    } catch (const std::exception& e) {  // work outside pdf::within_budget that a library refused
        return fail(app, std::string("internal error: ") + e.what(), pith::err::internal_error, kExitUsage);
    } catch (...) {
        return fail(app, "internal error: an exception pith does not know", pith::err::internal_error, kExitUsage);
    }
    return status;
}
