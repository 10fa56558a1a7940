// SPDX-License-Identifier: MIT
// pith stamp, verify, extract.
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/registry_flags.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "mark/mark.hpp"
#include "page/pixels.hpp"
#include "pdf/budget.hpp"
#include "sign/inspect.hpp"
#include "sign/signer.hpp"
#include "stamp/stamp.hpp"
#include "verify/picture.hpp"
#include "verify/verify.hpp"

#include <unistd.h>

#include <memory>

namespace pith::cli {
namespace {

struct StampCommand {
    std::string input, record, output;
    bool in_place = false, json = false, no_badge = false, no_title_check = false;
    std::string corner = "top-right";
    std::vector<double> at;
    stamp::Options options;
    sign::KeySource key;
    std::string number, arxiv;  // the record from the registry instead of --record
    RegistryFlags registry;
    CLI::Option* corner_option = nullptr;  // given: the badge goes there, not to a free spot (issue 21)
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
    c.options.placement.corner = stamp::parse_corner(c.corner);
    c.options.draw_badge = !c.no_badge;
    c.options.check_title = !c.no_title_check;
    if (!c.at.empty()) c.options.placement.at = std::make_pair(c.at[0], c.at[1]);
    if (c.key.any()) c.options.signer = sign::Signer::load(c.key);
    else if (!c.key.pass_file.empty() || !c.key.pass_env.empty() || !c.key.chain.empty())
        throw Error("--sign-chain and --sign-pass-* need --sign-cert and --sign-key, or --sign-p12", err::options_invalid);
    c.options.placement.automatic = c.at.empty() && !(c.corner_option && c.corner_option->count() > 0);
    stamp::Summary s = pdf::within_budget(c.input, [&] { return stamp::stamp_file(c.input, output, record, c.options); }, false);

    std::FILE* out = output == "-" ? stderr : stdout;
    for (const auto& w : s.warnings) std::fprintf(stderr, "pith: warning: %s\n", printable(w).c_str());
    if (c.json) {
        Json j = {{"input", c.input}, {"output", output}, {"number", s.number}, {"prior_length", s.prior_length},
                  {"added_bytes", s.added}, {"replaced_previous_stamp", s.replaced_previous}, {"title", s.title},
                  {"latex_badge_kept", s.latex_badge}, {"warnings", s.warnings},
                  {"signed_by", s.signed_by.empty() ? Json(nullptr) : Json(s.signed_by)}};
        j["badge"] = s.page ? Json{{"page", s.page}, {"rect", {s.rect[0], s.rect[1], s.rect[2], s.rect[3]}},
                                   {"spot", s.where.spot}, {"why", s.where.why}, {"boxed", s.where.boxed},
                                   {"measured", s.where.measured}, {"inked", s.where.inked}}
                            : Json(nullptr);
        std::fprintf(out, "%s\n", pretty_json(j).c_str());
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
    std::string record, password, resolver = kDefaultResolver;
    bool json = false, allow_damaged = false;
    std::vector<std::string> trust;
    bool require_signed_stamp = false;
    bool online = false;
    RegistryFlags registry;
    std::string picture;  // --picture FILE.png|.html
};

// --online: the registry's answer for the number a PDF carries; its record becomes the record the
// embedded one must equal (pith.record.expected.*). None when the PDF carries no number.
std::optional<registry::Answer> ask_registry(const std::string& file, const VerifyCommand& c) {
    const std::string n = mark::carried_number(mark::extract(file, c.password, c.allow_damaged));
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
std::unique_ptr<AtomicFile> picture_file(const VerifyCommand& c, picture::Format& format) {
    if (c.picture.empty()) return nullptr;
    if (c.files.size() != 1) throw Error("--picture draws one file: give one PDF", err::options_invalid);
    format = picture::format_of(c.picture);
    return std::make_unique<AtomicFile>(c.picture);
}

verify::Options verify_options(const VerifyCommand& c) {
    verify::Options options;
    options.password = c.password;
    options.allow_damaged = c.allow_damaged;
    options.resolver = c.resolver;
    options.anchors = sign::Anchors::load(c.trust);
    options.require_signed_stamp = c.require_signed_stamp;
    if (!c.record.empty()) options.expected = load_record(c.record);
    return options;
}

int run_verify(const VerifyCommand& c) {
    if (c.online && !c.record.empty()) throw Error("give --record or --online, not both", err::options_invalid);
    picture::Format format = picture::Format::Png;
    const std::unique_ptr<AtomicFile> picture_out = picture_file(c, format);
    Keyring keyring = Keyring::load(c.keyrings);
    verify::Options options = verify_options(c);
    bool colour = use_colour(stdout);
    int worst = kExitOk;
    Json all = Json::array();
    if (c.files.size() > 1) pixels::preload_readers();
    for (const auto& file : c.files) {
        int code;
        Json result;
        try {
            std::optional<registry::Answer> online;
            if (c.online) {
                online = ask_registry(file, c);
                options.expected = online ? online->record : std::nullopt;
            }
            // The picture is drawn while the file is open, of the report as printed.
            const auto draw = [&](pdf::File& pdf, verify::Report& report) {
                if (online) verify::add_registry_answer(report, online->code, online->why);
                if (picture_out) picture_out->write(picture::draw(pdf, options.password, report, format));
            };
            verify::Report report = pdf::within_budget(file, [&] { return verify::verify(file, keyring, options, draw); });
            if (picture_out) picture_out->commit();
            code = exit_code_of(report.state);
            result = report.to_json();
            if (!c.json) {
                const char* state = verify::to_string(report.state);
                const char* ansi = report.state == verify::State::Trusted ? "\033[32;1m"
                                   : report.state == verify::State::Invalid ? "\033[31;1m" : "\033[33;1m";
                std::printf("%s: %s%s%s%s%s\n", printable(file).c_str(), colour ? ansi : "",
                            report.state == verify::State::Invalid ? "INVALID" : state, colour ? "\033[0m" : "",
                            report.number.empty() ? "" : "  ", printable(report.number).c_str());
                print_findings(report.findings, stdout);
            }
        } catch (const Error& e) {
            code = kExitUsage;
            result = {{"file", file}, {"state", "unreadable"}, {"number", nullptr}, {"error", e.what()},
                      {"success", Json::array()}, {"informational", Json::array()}, {"failure", Json::array()}};
            result["error_code"] = e.code();
            print_error(e.what(), e.code());
        }
        all.push_back(result);
        if (severity(code) > severity(worst)) worst = code;
    }
    if (c.json)  // JSON Lines: one report per line, whatever the count (jq reads it as it is)
        for (const Json& report : all) std::printf("%s\n", report.dump(-1, ' ', false, Json::error_handler_t::replace).c_str());
    return worst;
}

struct ExtractCommand {
    std::string file, password;
    bool json = false, allow_damaged = false;
};

int run_extract(const ExtractCommand& c) {
    mark::Embedded e = pdf::within_budget(c.file, [&] { return mark::extract(c.file, c.password, c.allow_damaged); });
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
    cmd.add_option("--sign-cert", key.cert, "Sign the stamp (PAdES): the signer's PEM certificate (doc/signing.md)");
    cmd.add_option("--sign-key", key.key, "The signer's PEM private key (mode 600; refused if group or others may read it)");
    cmd.add_option("--sign-chain", key.chain, "PEM intermediate certificates to embed with the signer's");
    cmd.add_option("--sign-p12", key.p12, "A PKCS#12 file with key, certificate and chain instead of --sign-cert/--sign-key");
    cmd.add_option("--sign-pass-file", key.pass_file, "Read the key's passphrase from the first line of this file");
    cmd.add_option("--sign-pass-env", key.pass_env, "Read the key's passphrase from this environment variable");
    cmd.add_flag("--certify", certify, "Make the signature a certification (DocMDP P=2); only for PDFs not yet signed");
}

void register_pdf_commands(CLI::App& app, int& status) {
    auto c = std::make_shared<StampCommand>();
    auto* stamp = app.add_subcommand("stamp", "Embed a Pith number, hash and receipt in a PDF and draw a linked badge");
    stamp->footer(
        "The PDF gains one incremental update: every input byte is kept (signatures stay valid), the\n"
        "record goes into the XMP metadata (namespace in templates/pith-xmp.json) and Info /PithNumber,\n"
        "and a badge `pith:XXXXXXXX` linking to the registry is drawn on the page. Stamping a stamped\n"
        "PDF replaces the earlier stamp. The output is written atomically; on error nothing is written.\n"
        "A damaged PDF (broken cross-reference data, objects not where the xref says, wrong stream\n"
        "lengths, page-tree loops, ...) is refused: repair it (e.g. `qpdf in.pdf out.pdf`) or pass\n"
        "--allow-damaged, which stamps it with a rebuilt cross-reference table where the old one is unusable.\n\n"
        "Examples:\n"
        "  pith stamp paper.pdf --record record.json -o paper-stamped.pdf\n"
        "  pith stamp paper.pdf --record record.json --in-place --corner bottom-right --qr\n"
        "  cat paper.pdf | pith stamp - --record record.json -o - > out.pdf");
    stamp->add_option("input", c->input, "PDF to stamp, or - for standard input")->required();
    stamp->add_option("-r,--record", c->record, "Pith record (any shape `pith record` reads)");
    stamp->add_option("--number", c->number, "Fetch the record of this Pith number from the registry (see pith fetch)");
    stamp->add_option("--arxiv", c->arxiv, "Fetch the record of this arXiv id (2407.14645 or 2407.14645v1) from the registry");
    add_registry_flags(stamp, c->registry);
    stamp->add_option("-o,--output", c->output, "Output PDF, or - for standard output");
    stamp->add_flag("--in-place", c->in_place, "Replace the input file (atomically)");
    stamp->add_option("--page", c->options.placement.page, "Page for the badge, 1-based; -1 is the last page")->capture_default_str();
    c->corner_option = stamp->add_option("--corner", c->corner,
                                         "top-right, top-left, bottom-right or bottom-left, as the reader sees the page. Without it "
                                         "(and --at) the badge goes where the page paints nothing, starting from top-right")
                           ->capture_default_str();
    stamp->add_option("--margin-x", c->options.placement.margin_x, "Distance in pt from the side edge")->capture_default_str();
    stamp->add_option("--margin-y", c->options.placement.margin_y, "Distance in pt from the top or bottom edge")->capture_default_str();
    stamp->add_option("--text-size", c->options.badge.text_size_pt, "Badge text size in pt")->capture_default_str();
    stamp->add_option("--style", c->options.badge.style, "plain or boxed")->capture_default_str();
    stamp->add_flag("--qr", c->options.badge.qr, "Add a QR code of the resolver URL to the badge");
    stamp->add_option("--qr-module", c->options.badge.qr_module_pt, "Side of one QR module in pt")->capture_default_str();
    stamp->add_flag("--no-badge", c->no_badge, "Embed the metadata only");
    stamp->add_flag("--badge-always", c->options.badge_always,
                    "Draw the badge even where page 1 already shows pith.sty's badge for this number");
    stamp->add_flag("--no-title-check", c->no_title_check,
                    "Stamp although page 1 does not show the record's title as its title (verify will not say trusted)");
    stamp->add_flag("--replace", c->options.replace, "Replace an earlier pith stamp of another Pith number");
    stamp->add_flag("--drop-signatures", c->options.drop_signatures,
                    "Replace an earlier pith stamp although signatures were made over it: they are lost");
    stamp->add_option("--resolver", c->options.resolver, "Base URL the badge links to (BODY is appended)")->capture_default_str();
    stamp->add_flag("--allow-unverified", c->options.allow_unverified, "Stamp a record whose stated hash or number does not recompute");
    stamp->add_flag("--allow-damaged", c->options.allow_damaged,
                    "Stamp a damaged PDF that pith can read around, instead of refusing it");
    stamp->add_flag("--force", c->options.force, "Stamp a certified PDF although its DocMDP permissions forbid changes");
    stamp->add_flag("--rewrite", c->options.rewrite,
                    "Write a whole new file (PoDoFo) instead of an incremental update; breaks signatures");
    stamp->add_option("--at", c->at, "Badge position X,Y in pt from the lower-left of the page as the reader sees it")
        ->delimiter(',')->expected(2);
    stamp->add_option("--password", c->options.password, "User password of an encrypted PDF");
    stamp->add_flag("--json", c->json, "Print the summary as JSON");
    add_signing_options(*stamp, c->key, c->options.certify);
    stamp->callback([c, &status] { status = run_stamp(*c, status); });

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
    verify->add_option("--keyring", v->keyrings, "Keyring file with trusted registry keys (repeatable)")->allow_extra_args(false);
    verify->add_option("--record", v->record, "A record fetched from the registry: the embedded one must equal it");
    verify->add_option("--password", v->password, "User password of encrypted PDFs");
    verify->add_option("--resolver", v->resolver, "The resolver every pith link must go to (as given to pith stamp --resolver)")
        ->capture_default_str();
    verify->add_flag("--allow-damaged", v->allow_damaged, "Read a damaged PDF instead of refusing it (exit 2)");
    verify->add_option("--trust", v->trust, "PEM file of CA certificates trusted to certify publishers' signing keys (repeatable; "
                       "default $PITH_TRUST, ~/.config/pith/trust.pem, /etc/pith/trust.pem)")->allow_extra_args(false);
    verify->add_flag("--require-signed-stamp", v->require_signed_stamp,
                     "Trust a stamp only when a publisher trusted here signed it (pith stamp --sign-cert)");
    verify->add_flag("--online", v->online, "Also fetch the registry's record for the embedded number: it must know it and agree");
    add_registry_flags(verify, v->registry);
    verify->add_flag("--json", v->json, "Print one line of JSON per file (JSON Lines): {file, state, number, success[], informational[], "
                                        "failure[], regions[]}");
    verify->add_option("--picture", v->picture, "Also draw what was checked (the title, the badge, links, later changes, unseen text, "
                       "each outlined by outcome) over the page(s), with the verdict: FILE.png or FILE.html (one PDF only)")->type_name("FILE");
    verify->callback([v, &status] { status = run_verify(*v); });

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
