// pith stamp, verify, extract.
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "stamp/stamp.hpp"

namespace pith::cli {
namespace {

struct StampCommand {
    std::string input, record, output;
    bool in_place = false, json = false, no_badge = false;
    std::string corner = "top-right";
    stamp::Options options;
};

int run_stamp(StampCommand& c) {
    if (c.in_place == !c.output.empty()) throw Error("give exactly one of -o OUT.pdf and --in-place");
    if (c.in_place && c.input == "-") throw Error("--in-place needs a file, not standard input");
    const std::string output = c.in_place ? c.input : c.output;
    if (c.record == "-" && c.input == "-") throw Error("the PDF and the record cannot both come from standard input");
    Record record = load_record(c.record);
    c.options.placement.corner = stamp::parse_corner(c.corner);
    c.options.draw_badge = !c.no_badge;
    stamp::Summary s = stamp::stamp_file(c.input, output, record, c.options);

    std::FILE* out = output == "-" ? stderr : stdout;
    for (const auto& w : s.warnings) std::fprintf(stderr, "pith: warning: %s\n", w.c_str());
    if (c.json) {
        Json j = {{"input", c.input}, {"output", output}, {"number", s.number}, {"prior_length", s.prior_length},
                  {"added_bytes", s.added}, {"replaced_previous_stamp", s.replaced_previous}, {"warnings", s.warnings}};
        j["badge"] = s.page ? Json{{"page", s.page}, {"rect", {s.rect[0], s.rect[1], s.rect[2], s.rect[3]}}} : Json(nullptr);
        std::fprintf(out, "%s\n", pretty_json(j).c_str());
    } else {
        print_field("stamped", c.input + " -> " + output, out);
        print_field("number", s.number, out);
        if (s.page) {
            char rect[128];
            std::snprintf(rect, sizeof rect, "page %d, [%.1f %.1f %.1f %.1f]", s.page, s.rect[0], s.rect[1], s.rect[2], s.rect[3]);
            print_field("badge", rect, out);
        }
        print_field("update", std::to_string(s.added) + " bytes appended to the " + std::to_string(s.prior_length) +
                                  " input bytes (kept byte for byte)" + (s.replaced_previous ? "; replaced the previous pith stamp" : ""), out);
    }
    return kExitOk;
}

}  // namespace

void register_pdf_commands(CLI::App& app, int& status) {
    auto c = std::make_shared<StampCommand>();
    auto* stamp = app.add_subcommand("stamp", "Embed a Pith number, hash and receipt in a PDF and draw a linked badge");
    stamp->footer(
        "The PDF gains one incremental update: every input byte is kept (signatures stay valid), the\n"
        "record goes into the XMP metadata (namespace in templates/pith-xmp.json) and Info /PithNumber,\n"
        "and a badge `pith:XXXXXXXX` linking to the registry is drawn on the page. Stamping a stamped\n"
        "PDF replaces the earlier stamp. The output is written atomically; on error nothing is written.\n\n"
        "Examples:\n"
        "  pith stamp paper.pdf --record record.json -o paper-stamped.pdf\n"
        "  pith stamp paper.pdf --record record.json --in-place --corner bottom-right --qr\n"
        "  cat paper.pdf | pith stamp - --record record.json -o - > out.pdf");
    stamp->add_option("input", c->input, "PDF to stamp, or - for standard input")->required();
    stamp->add_option("-r,--record", c->record, "Pith record (any shape `pith record` reads)")->required();
    stamp->add_option("-o,--output", c->output, "Output PDF, or - for standard output");
    stamp->add_flag("--in-place", c->in_place, "Replace the input file (atomically)");
    stamp->add_option("--page", c->options.placement.page, "Page for the badge, 1-based; -1 is the last page")->capture_default_str();
    stamp->add_option("--corner", c->corner, "top-right, top-left, bottom-right or bottom-left, as the reader sees the page")->capture_default_str();
    stamp->add_option("--margin-x", c->options.placement.margin_x, "Distance in pt from the side edge")->capture_default_str();
    stamp->add_option("--margin-y", c->options.placement.margin_y, "Distance in pt from the top or bottom edge")->capture_default_str();
    stamp->add_option("--text-size", c->options.badge.text_size_pt, "Badge text size in pt")->capture_default_str();
    stamp->add_option("--style", c->options.badge.style, "plain or boxed")->capture_default_str();
    stamp->add_flag("--qr", c->options.badge.qr, "Add a QR code of the resolver URL to the badge");
    stamp->add_option("--qr-module", c->options.badge.qr_module_pt, "Side of one QR module in pt")->capture_default_str();
    stamp->add_flag("--no-badge", c->no_badge, "Embed the metadata only");
    stamp->add_option("--resolver", c->options.resolver, "Base URL the badge links to (BODY is appended)")->capture_default_str();
    stamp->add_flag("--allow-unverified", c->options.allow_unverified, "Stamp a record whose stated hash or number does not recompute");
    stamp->add_flag("--force", c->options.force, "Stamp a certified PDF although its DocMDP permissions forbid changes");
    stamp->add_option("--password", c->options.password, "User password of an encrypted PDF");
    stamp->add_flag("--json", c->json, "Print the summary as JSON");
    stamp->callback([c, &status] { status = run_stamp(*c); });
}

}  // namespace pith::cli
