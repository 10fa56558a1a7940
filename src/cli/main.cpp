// pith: command-line front end. Argument parsing and printing only; the work is in the library.
#include "cli/commands.hpp"
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

// Levenshtein distance, for "did you mean" (command names are a few letters long).
std::size_t distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

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
            if (std::size_t d = distance(word, sub->get_name()); d < best) best = d, nearest = sub->get_name();
        }
        return "unknown command '" + word + "'" + (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)");
    }
    return std::nullopt;
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
        std::fprintf(stderr, "pith: %s\nRun `pith --help` for usage.\n", misuse->c_str());
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
        std::fprintf(stderr, "pith: %s\nRun `%s` for usage.\n", e.what(), help_for(app).c_str());
        return kExitUsage;
    } catch (const pith::Error& e) {
        std::fprintf(stderr, "pith: %s\n", e.what());
        return status ? status : kExitUsage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pith: internal error: %s\n", e.what());
        return kExitUsage;
    }
    return status;
}
