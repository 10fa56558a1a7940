// SPDX-License-Identifier: MIT
// pith stamp, verify, extract.
#include "cli/commands.hpp"
#include "cli/option_flags.hpp"
#include "cli/output.hpp"
#include "cli/registry_flags.hpp"
#include "core/child.hpp"
#include "core/cpus.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/json.hpp"
#include "core/reply.hpp"
#include "pith_data/pith_data.hpp"
#include "page/pixels.hpp"
#include "pdf/budget.hpp"
#include "sign/inspect.hpp"
#include "sign/signer.hpp"
#include "stamp/options_table.hpp"
#include "stamp/stamp.hpp"
#include "verify/options_table.hpp"
#include "verify/picture.hpp"
#include "verify/verify.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

namespace pith::cli {
namespace {

struct StampCommand {
    std::string input, record, output;
    bool in_place = false, json = false;
    stamp::Options options;  // the table's options (stamp/options_table.hpp) go here as they are parsed
    sign::KeySource key;
    std::string number, arxiv;  // the record from the registry instead of --record
    RegistryFlags registry;
};

// The record named by exactly one of --record, --number and --arxiv.
Record record_to_stamp(const StampCommand& c, int& status) {
    if (!c.record.empty() + !c.number.empty() + !c.arxiv.empty() != 1)
        throw Error("give exactly one of --record FILE, --number NUMBER and --arxiv ID", err::options_invalid);
    if (!c.record.empty()) return load_record(c.record);
    return fetch_record(c.number.empty() ? "arxiv:" + c.arxiv : c.number, c.registry, status);
}

// The badge's place and why, for the human summary.
std::string badge_line(const stamp::Summary& s) {
    char rect[128];
    std::snprintf(rect, sizeof rect, "page %d, [%.1f %.1f %.1f %.1f]", s.page, s.rect[0], s.rect[1], s.rect[2], s.rect[3]);
    return std::string(rect) + ", " + s.where.spot + (s.where.boxed ? ", boxed" : "") + ": " + s.where.why;
}

int run_stamp(StampCommand& c, int& status) {
    if (c.in_place == !c.output.empty()) throw Error("give exactly one of -o OUT.pdf and --in-place", err::options_invalid);
    if (c.in_place && c.input == "-") throw Error("--in-place needs a file, not standard input", err::options_invalid);
    const std::string output = c.in_place ? c.input : c.output;
    if (c.record == "-" && c.input == "-") throw Error("the PDF and the record cannot both come from standard input", err::options_invalid);
    if (output == "-" && ::isatty(STDOUT_FILENO))
        throw Error("standard output is a terminal: pith will not write a PDF there (redirect it: -o - > out.pdf)", err::options_invalid);
    Record record = record_to_stamp(c, status);
    if (c.key.any()) c.options.signer = sign::Signer::load(c.key);
    else if (!c.key.pass_file.empty() || !c.key.pass_env.empty() || !c.key.chain.empty())
        throw Error("--sign-chain and --sign-pass-* need --sign-cert and --sign-key, or --sign-p12", err::options_invalid);
    stamp::Summary s = pdf::within_budget(c.input, [&] { return stamp::stamp_file(c.input, output, record, c.options); }, false);

    std::FILE* out = output == "-" ? stderr : stdout;
    for (const auto& w : s.warnings) std::fprintf(stderr, "pith: warning: %s\n", printable(w).c_str());
    if (c.json) {
        std::fprintf(out, "%s\n", pretty_json(s.to_json(c.input, output)).c_str());
    } else {
        print_field("stamped", c.input + " -> " + output, out);
        print_field("number", s.number, out);
        if (s.page)
            print_field("badge", badge_line(s), out);
        else if (s.latex_badge)
            print_field("badge", "none drawn: page 1 already shows pith.sty's badge for this number (--badge-always draws one)", out);
        print_field("title", s.title == "shown" ? "page 1 shows the record's title" : s.title, out);
        if (c.options.rewrite)
            print_field("file", "rewritten as a whole new file of " + std::to_string(s.added) + " bytes", out);
        else
            print_field("update", std::to_string(s.added) + " bytes appended to the " + std::to_string(s.prior_length) +
                                      " input bytes (kept byte for byte)" + (s.replaced_previous ? "; replaced the previous pith stamp" : ""), out);
        if (!s.signed_by.empty()) print_field("signed", "by " + s.signed_by + " (PAdES, whole file)", out);
    }
    return kExitOk;
}

struct VerifyCommand {
    std::vector<std::string> files;
    std::vector<std::string> keyrings;
    std::string record;
    bool json = false;
    std::vector<std::string> trust;
    bool online = false;
    verify::Options options;  // the table's options (verify/options_table.hpp) go here as they are parsed
    RegistryFlags registry;
    std::string picture;  // --picture FILE.png|.html
    int jobs = 0;         // files verified at a time; 0: every CPU this process may use
};

// --online: the registry's answer for the number a PDF carries; its record becomes the record the
// embedded one must equal (pith.record.expected.*). None when the PDF carries no number.
std::optional<registry::Answer> ask_registry(const std::string& file, const VerifyCommand& c) {
    const std::string n =
        pith_data::carried_number(pith_data::extract(file, c.options.password, c.options.allow_damaged));
    if (n.empty()) return std::nullopt;
    return registry::ask(n, [&] { return registry_options(c.registry); });
}

// Worst first: the exit status of several files is that of the worst one.
int severity(int exit_code) {
    switch (exit_code) {
        case kExitInvalid: return 4;
        case kExitUsage: return 3;
        case kExitAbsent: return 2;
        case kExitUnverified: return 1;
        default: return 0;
    }
}

int exit_code_of(verify::State state) {
    switch (state) {
        case verify::State::Trusted: return kExitOk;
        case verify::State::Invalid: return kExitInvalid;
        case verify::State::Absent: return kExitAbsent;
        case verify::State::Unverified: return kExitUnverified;
    }
    return kExitInvalid;
}

// --picture: its format and its file, checked before any work (a place that cannot be written
// is a usage error then, and a picture appears whole or not at all).
std::unique_ptr<AtomicFile> picture_file(const VerifyCommand& c, verify::picture::Format& format) {
    if (c.picture.empty()) return nullptr;
    if (c.files.size() != 1) throw Error("--picture draws one file: give one PDF", err::options_invalid);
    format = verify::picture::format_of(c.picture);
    return std::make_unique<AtomicFile>(c.picture);
}

verify::Options verify_options(const VerifyCommand& c) {
    verify::Options options = c.options;
    options.anchors = sign::Anchors::load(c.trust);
    if (!c.record.empty()) options.expected = load_record(c.record);
    return options;
}

// What verifying one file gives: its exit status, its JSON report, and what it prints on standard
// output and standard error, so that files verified side by side print in the order given.
struct Verified {
    int code = kExitOk;
    Json report;
    std::string out, err;
};

// The text a FILE* stream gets, for functions that print to one.
std::string printed(const std::function<void(std::FILE*)>& print) {
    char* text = nullptr;
    std::size_t size = 0;
    std::FILE* stream = open_memstream(&text, &size);
    if (!stream) throw Error("cannot make a memory stream: " + std::string(std::strerror(errno)), err::internal_error);
    print(stream);
    std::fclose(stream);
    std::string out(text, size);
    std::free(text);
    return out;
}

Verified verify_one(const std::string& file, const VerifyCommand& c, const Keyring& keyring, verify::Options options,
                    AtomicFile* picture_out, verify::picture::Format format, bool colour) {
    Verified v;
    try {
        std::optional<registry::Answer> online;
        if (c.online) {
            online = ask_registry(file, c);
            options.expected = online ? online->record : std::nullopt;
        }
        // The picture is drawn while the file is open, of the report as printed.
        const auto draw = [&](pdf::File& pdf, verify::Report& report) {
            if (online) verify::add_registry_answer(report, online->code, online->why);
            if (picture_out) picture_out->write(verify::picture::draw(pdf, options.password, report, format));
        };
        verify::Report report = pdf::within_budget(file, [&] { return verify::verify(file, keyring, options, draw); });
        if (picture_out) picture_out->commit();
        v.code = exit_code_of(report.state);
        v.report = report.to_json();
        if (!c.json) {
            const char* state = verify::to_string(report.state);
            const char* ansi = report.state == verify::State::Trusted ? "\033[32;1m"
                               : report.state == verify::State::Invalid ? "\033[31;1m" : "\033[33;1m";
            v.out = printed([&](std::FILE* out) {
                std::fprintf(out, "%s: %s%s%s%s%s\n", printable(file).c_str(), colour ? ansi : "",
                             report.state == verify::State::Invalid ? "INVALID" : state, colour ? "\033[0m" : "",
                             report.number.empty() ? "" : "  ", printable(report.number).c_str());
                print_findings(report.findings, out);
            });
        }
    } catch (const Error& e) {
        v.code = kExitUsage;
        v.report = verify::unreadable_to_json(file, e);
        v.err = error_line(e.what(), e.code());
    }
    return v;
}

// How long one file's verification may take in its child: its own readers stop far sooner.
constexpr double kFileSeconds = 3600;

// Several files are verified side by side, each in a child, `--jobs` at a time: one file's
// reading of its title block leaves the other CPUs idle (doc/performance.md).
std::vector<Verified> verify_in_children(const VerifyCommand& c, const Keyring& keyring, const verify::Options& options,
                                         bool colour) {
    std::vector<Verified> all;
    const unsigned jobs = c.jobs > 0 ? static_cast<unsigned>(c.jobs) : usable_cpus();
    // The child's reply: the exit status, then the report, standard output and standard error,
    // each as its length and its bytes (a file's name need not be UTF-8).
    child::in_order(c.files.size(), jobs, kFileSeconds, [&](std::size_t i) {
        const Verified v = verify_one(c.files[i], c, keyring, options, nullptr, {}, colour);
        std::string reply = std::to_string(v.code) + " ";
        for (const std::string& field : {v.report.dump(-1, ' ', false, Json::error_handler_t::replace), v.out, v.err})
            reply += std::to_string(field.size()) + " " + field;
        return reply;
    }, [&](std::size_t i, child::Ended ended) {
        Verified v;
        const std::string bytes = ended.bytes && ended.exited_cleanly() ? std::move(*ended.bytes) : std::string();
        reply::Reply in(bytes);
        const std::optional<std::size_t> code = in.count();
        std::optional<std::string> fields[3];
        for (auto& field : fields)
            if (const std::optional<std::size_t> n = in.count()) field = in.bytes(*n);
        try {
            if (!code || !fields[0] || !fields[1] || !fields[2] || !in.done()) throw Error("", err::internal_error);
            v = {static_cast<int>(*code), parse_json(*fields[0], c.files[i]), std::move(*fields[1]), std::move(*fields[2])};
        } catch (const Error&) {
            const Error e(c.files[i] + ": its verification crashed or ran out of time", err::internal_error);
            v = {kExitUsage, verify::unreadable_to_json(c.files[i], e), "", error_line(e.what(), e.code())};
        }
        all.push_back(std::move(v));
    });
    return all;
}

int run_verify(const VerifyCommand& c) {
    if (c.online && !c.record.empty()) throw Error("give --record or --online, not both", err::options_invalid);
    if (c.jobs < 0) throw Error("--jobs must be 0 (every CPU) or more", err::options_invalid);
    verify::picture::Format format = verify::picture::Format::Png;
    const std::unique_ptr<AtomicFile> picture_out = picture_file(c, format);
    const Keyring keyring = Keyring::load(c.keyrings);
    const verify::Options options = verify_options(c);
    const bool colour = use_colour(stdout);
    std::vector<Verified> all;
    if (c.files.size() > 1) {
        page::pixels::preload_readers();  // once, for every child
        all = verify_in_children(c, keyring, options, colour);
    } else {
        all.push_back(verify_one(c.files[0], c, keyring, options, picture_out.get(), format, colour));
    }
    int worst = kExitOk;
    for (const Verified& v : all) {
        std::fputs(v.out.c_str(), stdout);
        std::fputs(v.err.c_str(), stderr);
        if (severity(v.code) > severity(worst)) worst = v.code;
    }
    if (c.json)  // JSON Lines: one report per line, whatever the count (jq reads it as it is)
        for (const Verified& v : all) std::printf("%s\n", v.report.dump(-1, ' ', false, Json::error_handler_t::replace).c_str());
    return worst;
}

struct ExtractCommand {
    std::string file, password;
    bool json = false, allow_damaged = false;
};

int run_extract(const ExtractCommand& c) {
    pith_data::PithData e =
        pdf::within_budget(c.file, [&] { return pith_data::extract(c.file, c.password, c.allow_damaged); });
    Json j = e.to_json();
    if (c.json) {
        std::printf("%s\n", pretty_json(j).c_str());
    } else {
        print_field("file", c.file, stdout);
        print_field("number", j["number"].is_null() ? "(none)" : j["number"].get<std::string>(), stdout);
        for (const auto& [name, value] : e.xmp.pith) print_field("xmp " + name, value, stdout);
        for (const auto& [name, value] : e.info) print_field("info " + name, value, stdout);
        for (const auto& link : e.links) {
            char rect[96];
            std::snprintf(rect, sizeof rect, "[%.1f %.1f %.1f %.1f]", link.rect[0], link.rect[1], link.rect[2], link.rect[3]);
            print_field("link", "page " + std::to_string(link.page) + " " + rect + " " + link.uri + (link.pith_badge ? " (pith badge)" : ""), stdout);
        }
        for (const auto& defect : e.defects) print_field("damage", defect, stdout);
        print_field("revisions", std::to_string(e.revisions.size()) +
                                     (e.pith_revision ? ", pith's update is number " + std::to_string(*e.pith_revision + 1) : ", none by pith stamp"), stdout);
    }
    return e.any_pith_data() ? kExitOk : kExitAbsent;
}

}  // namespace

// --sign-*: a publisher's key signs pith's update (doc/signing.md).
void add_signing_options(CLI::App& cmd, sign::KeySource& key, bool& certify) {
    const auto row = [](const char* name) { return *options::find(options::signing_rows(), name); };
    add_bound(cmd, row("--sign-cert"), key.cert);
    add_bound(cmd, row("--sign-key"), key.key);
    add_bound(cmd, row("--sign-chain"), key.chain);
    add_bound(cmd, row("--sign-p12"), key.p12);
    add_bound(cmd, row("--sign-pass-file"), key.pass_file);
    add_bound(cmd, row("--sign-pass-env"), key.pass_env);
    add_bound(cmd, row("--certify"), certify);
}

namespace {

// Every row of stamp/options_table.hpp: those the table applies, and those the command binds.
void add_stamp_options(CLI::App& cmd, StampCommand& c) {
    const auto row = [](const char* name) { return stamp::option_of_flag(name).row; };
    add_bound(cmd, row("--record"), c.record);
    add_bound(cmd, row("--number"), c.number);
    add_bound(cmd, row("--arxiv"), c.arxiv);
    add_bound(cmd, row("--output"), c.output);
    add_bound(cmd, row("--in-place"), c.in_place);
    add_applied_options(cmd, stamp::option_table(), c.options);
    add_bound(cmd, row("--json"), c.json);
    add_signing_options(cmd, c.key, c.options.certify);
    add_registry_flags(&cmd, c.registry);
}

void register_stamp(CLI::App& app, int& status) {
    auto c = std::make_shared<StampCommand>();
    auto* stamp = app.add_subcommand("stamp", "Embed a Pith number, hash and receipt in a PDF and draw a linked badge");
    stamp->footer(
        "The PDF gains one incremental update: every input byte is kept (signatures stay valid), the\n"
        "record goes into the XMP metadata (namespace in templates/pith-xmp.json) and Info /PithNumber,\n"
        "and a badge `pith:XXXXXXXX` linking to the registry is drawn on the page. Stamping a stamped\n"
        "PDF replaces the earlier stamp. The output is written atomically; on error nothing is written.\n"
        "A damaged PDF (broken cross-reference data, objects not where the xref says, wrong stream\n"
        "lengths, page-tree loops, ...) is refused: repair it (e.g. `qpdf in.pdf out.pdf`) or pass\n"
        "--allow-damaged, which stamps it with a rebuilt cross-reference table where the old one is unusable.\n"
        "A `pith batch` manifest line takes the same options as keys (--margin-x is \"margin_x\").\n\n"
        "Examples:\n"
        "  pith stamp paper.pdf --record record.json -o paper-stamped.pdf\n"
        "  pith stamp paper.pdf --record record.json --in-place --corner bottom-right --qr\n"
        "  cat paper.pdf | pith stamp - --record record.json -o - > out.pdf");
    stamp->add_option("input", c->input, "PDF to stamp, or - for standard input")->required();
    add_stamp_options(*stamp, *c);
    stamp->callback([c, &status] { status = run_stamp(*c, status); });
}

// Every row of verify/options_table.hpp.
void add_verify_options(CLI::App& cmd, VerifyCommand& v) {
    const auto row = [](const char* name) { return verify::option_of_flag(name).row; };
    add_bound(cmd, row("--keyring"), v.keyrings);
    add_bound(cmd, row("--record"), v.record);
    add_applied_options(cmd, verify::option_table(), v.options);
    add_bound(cmd, row("--trust"), v.trust);
    add_bound(cmd, row("--online"), v.online);
    add_bound(cmd, row("--json"), v.json);
    add_bound(cmd, row("--picture"), v.picture)->type_name("FILE");
    add_bound(cmd, row("--jobs"), v.jobs);
    add_registry_flags(&cmd, v.registry);
}

void register_verify(CLI::App& app, int& status) {
    auto v = std::make_shared<VerifyCommand>();
    auto* verify = app.add_subcommand("verify", "Check the Pith data of received PDFs and say what holds");
    verify->footer(
        "Offline (unless --online): reads only the PDF and the keys you trust. Each check prints one line with a stable code;\n"
        "the state is trusted (every check was made and holds: a genuine record under a trusted key, its title\n"
        "on page 1, the stamp intact and nothing a reader sees changed after it), unverified (nothing fails,\n"
        "but evidence is missing: no receipt, an unknown, revoked or expired key, no record or title), invalid\n"
        "(a check fails) or absent (no Pith data). What each state promises: doc/trust.md.\n\n"
        "Exit status: 0 trusted, 1 invalid, 2 usage, unreadable or damaged file, 3 absent, 4 unverified;\n"
        "with several files, the worst one decides. A damaged PDF is refused (exit 2) unless\n"
        "--allow-damaged, which reads it anyway and lists the damage as informational lines (pdf.damaged).\n\n"
        "Keys: --keyring FILE (repeatable); otherwise $PITH_KEYRING (FILE:FILE...); otherwise\n"
        "~/.config/pith/keyring.json and /etc/pith/keyring.json.\n\n"
        "Examples:\n"
        "  pith verify paper.pdf\n"
        "  pith verify paper.pdf --keyring registry-keys.json --record fetched.json --json\n"
        "  pith verify paper.pdf --picture checked.png    # what was checked, drawn over the page");
    verify->add_option("files", v->files, "PDF files; - reads one from standard input")->required();
    add_verify_options(*verify, *v);
    verify->callback([v, &status] { status = run_verify(*v); });
}

}  // namespace

void register_pdf_commands(CLI::App& app, int& status) {
    register_stamp(app, status);
    register_verify(app, status);
    auto x = std::make_shared<ExtractCommand>();
    auto* extract = app.add_subcommand("extract", "Print the Pith data embedded in a PDF, without judging it");
    extract->footer("Shows the pith XMP properties, Info entries, links to the resolver (page 1 and the pages\n"
                    "pith's update touched) and the file's revisions. Exit status 0, or 3 when there is no Pith data;\n"
                    "2 when the file cannot be read or is damaged (--allow-damaged shows it with its damage).");
    extract->add_option("file", x->file, "PDF file, or - for standard input")->required();
    extract->add_option("--password", x->password, "User password of an encrypted PDF");
    extract->add_flag("--allow-damaged", x->allow_damaged, "Read a damaged PDF and list its damage, instead of refusing it");
    extract->add_flag("--json", x->json, "Print as JSON");
    extract->callback([x, &status] { status = run_extract(*x); });
}

}  // namespace pith::cli
