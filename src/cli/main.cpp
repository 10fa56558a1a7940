// pith: command-line front end. Argument parsing and printing only; the work is in the library.
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/platform.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>

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
               "Manual: README.md, man pith, and the pith.sty manual (pith.pdf).");
    app.set_version_flag("--version", std::string("pith ") + PITH_VERSION);
    app.require_subcommand(1);
    app.fallthrough();

    int status = 0;
    register_record_commands(app, status);
    register_pdf_commands(app, status);
    register_batch_commands(app, status);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "pith: %s\nRun `pith --help` for usage.\n", e.what());
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
