// SPDX-License-Identifier: MIT
// pith record, keygen, sign.
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/registry_flags.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/findings.hpp"
#include "core/keys.hpp"
#include "core/record.hpp"
#include "tex/tex.hpp"

#include <unistd.h>

namespace pith::cli {
namespace {

struct RecordOptions {
    std::string file;
    std::vector<std::string> keyrings;
    bool json = false;
};

int run_record(const RecordOptions& o) {
    Record record = load_record(o.file);
    Keyring keyring = Keyring::load(o.keyrings);
    ReceiptStatus receipt_status;
    Findings findings = check_record(record, keyring, &receipt_status);
    for (const auto& w : keyring.warnings) findings.info(finding::keyring_entry_refused, w);
    bool consistent = findings.failure.empty();

    if (o.json) {
        Json out = {{"file", o.file},
                    {"kind", to_string(record.kind)},
                    {"number", record.number.full()},
                    {"short_number", record.number.short_form()},
                    {"aliases", {record.number.short_form(8), record.number.short_form(12), record.number.short_form(16)}},
                    {"canonical_sha256", to_hex(record.canonical_hash)},
                    {"receipt", {{"status", to_string(receipt_status)},
                                 {"key_id", record.receipt ? Json(record.receipt->key_id) : Json(nullptr)}}},
                    {"consistent", consistent}};
        out.update(findings.to_json());
        std::printf("%s\n", pretty_json(out).c_str());
    } else {
        print_field("record", o.file + " (" + to_string(record.kind) + ")", stdout);
        print_field("number", record.number.full(), stdout);
        print_field("short", record.number.short_form() + "  (also " + record.number.short_form(12) + ", " +
                                 record.number.short_form(16) + ")", stdout);
        print_field("hash", to_hex(record.canonical_hash), stdout);
        print_findings(findings, stdout);
        print_field("result", consistent ? "consistent" : "NOT consistent", stdout);
    }
    return consistent ? kExitOk : kExitInvalid;
}

struct KeygenOptions {
    std::string key_id, secret, keyring;
};

int run_keygen(const KeygenOptions& o) {
    if (file_exists(o.secret)) throw Error(o.secret + ": already exists; pith will not overwrite a secret key", err::output_exists);
    KeyPair pair = generate_keypair();
    write_secret_key_file(o.secret, {o.key_id, pair.secret_key});
    try {
        add_key_to_keyring_file(o.keyring, o.key_id, pair.public_key);
    } catch (...) {
        ::unlink(o.secret.c_str());  // ours: write_secret_key_file never replaces a file
        throw;
    }
    std::printf("key id:      %s\nfingerprint: %s\nsecret key:  %s (mode 0600; keep it private)\nkeyring:     %s\n",
                o.key_id.c_str(), key_fingerprint(pair.public_key).c_str(), o.secret.c_str(), o.keyring.c_str());
    return kExitOk;
}

struct SignOptions {
    std::string record, secret, key_id, output;
};

int run_sign(const SignOptions& o) {
    Record record = load_record(o.record);
    if (!record.hash_matches())
        throw Error(o.record + ": stated canonical_sha256 " + *record.stated_hash + " does not recompute (" +
                    to_hex(record.canonical_hash) + "); refusing to sign", err::record_inconsistent);
    if (!record.number_matches())
        throw Error(o.record + ": stated Pith number " + *record.stated_number + " does not derive from the record (" +
                    record.number.full() + "); refusing to sign", err::record_inconsistent);
    SecretKeyFile key = read_secret_key_file(o.secret);
    if (!o.key_id.empty()) key.key_id = o.key_id;
    if (key.key_id.empty()) throw Error(o.secret + ": has no key id; pass --key-id", err::options_invalid);
    Json signed_record = with_receipt(record, make_receipt(record.canonical_hash, key, now_rfc3339()));
    write_file_atomically(o.output, {pretty_json(signed_record) + "\n"});
    if (o.output != "-")
        std::fprintf(stderr, "signed %s as %s with key %s -> %s\n", o.record.c_str(), record.number.full().c_str(),
                     key.key_id.c_str(), o.output.c_str());
    return kExitOk;
}

struct TexCommand {
    std::string record, number, arxiv;
    RegistryFlags registry;
};

int run_tex(const TexCommand& c, int& status) {
    if (!c.record.empty() + !c.number.empty() + !c.arxiv.empty() != 1)
        throw Error("give exactly one of RECORD, --number NUMBER and --arxiv ID", err::options_invalid);
    const std::string path = c.record.empty() ? (c.number.empty() ? "arxiv:" + c.arxiv : c.number) : c.record;
    Record record = c.record.empty() ? fetch_record(path, c.registry, status) : load_record(path);
    if (!record.consistent())
        throw Error(path + ": the record does not recompute (run `pith record " + path + "`); refusing to print it for LaTeX", err::record_inconsistent);
    std::fputs(tex::snippet(record).c_str(), stdout);
    return kExitOk;
}

}  // namespace

void register_record_commands(CLI::App& app, int& status) {
    auto record_opts = std::make_shared<RecordOptions>();
    auto* record = app.add_subcommand("record", "Check a Pith record: recompute its canonical hash, number and receipt");
    record->footer(
        "FILE is a registry record (pith_number_record), a bundle state (pith_open_graph_state), the registry's\n"
        "JSON-LD answer, or a bare canonical_record; - reads standard input.\n\n"
        "Exit status: 0 consistent (a receipt whose key is unknown is shown but is not an error),\n"
        "1 something stated does not recompute or the receipt is invalid, 2 unreadable or malformed input.\n\n"
        "Example:\n  pith record seed.json --keyring registry-keys.json");
    record->add_option("file", record_opts->file, "Record file, or - for standard input")->required();
    record->add_option("--keyring", record_opts->keyrings, "Keyring file with trusted registry keys (repeatable)")->allow_extra_args(false);
    record->add_flag("--json", record_opts->json, "Print the result as JSON (fields: doc/commands.md, `pith record`)");
    record->callback([record_opts, &status] { status = run_record(*record_opts); });

    auto keygen_opts = std::make_shared<KeygenOptions>();
    auto* keygen = app.add_subcommand("keygen", "Create an Ed25519 signing key for a private registry or tests");
    keygen->footer("Writes the secret key (mode 0600, never overwritten) and adds the public key to the keyring,\n"
                   "creating it. If the keyring already holds KEY-ID, nothing is written.\n\nExample:\n  pith keygen --key-id my-registry-2026 --secret my.key --keyring keyring.json");
    keygen->add_option("--key-id", keygen_opts->key_id, "Name of the key, as receipts will cite it")->required();
    keygen->add_option("--secret", keygen_opts->secret, "Secret key file to create")->required();
    keygen->add_option("--keyring", keygen_opts->keyring, "Keyring file to add the public key to")->required();
    keygen->callback([keygen_opts, &status] { status = run_keygen(*keygen_opts); });

    auto sign_opts = std::make_shared<SignOptions>();
    auto* sign = app.add_subcommand("sign", "Issue a receipt for a record (for private registries, mirrors and tests)");
    sign->footer("Refuses a record whose stated hash or number does not recompute. Writes a pith_number_record\n"
                 "with the new receipt.\n\nExample:\n  pith sign record.json --secret my.key -o signed.json");
    sign->add_option("record", sign_opts->record, "Record file, or - for standard input")->required();
    sign->add_option("--secret", sign_opts->secret, "Secret key file from `pith keygen`")->required();
    sign->add_option("--key-id", sign_opts->key_id, "Key id to cite (default: the one in the secret key file)");
    sign->add_option("-o,--output", sign_opts->output, "Output file, or - for standard output")->required();
    sign->callback([sign_opts, &status] { status = run_sign(*sign_opts); });

    auto tex_command = std::make_shared<TexCommand>();
    auto* tex = app.add_subcommand("tex", "Print the \\pithnumber line for latex/pith.sty, with receipt, title and record");
    tex->footer("Checks the record first. The title and canonical record are printed as hex of their UTF-8\n"
                "bytes, so nothing in them can upset TeX; pith.sty decodes them into the PDF's XMP.\n\n"
                "Example:\n  pith tex record.json > pith-number.tex   # then \\input{pith-number} after \\usepackage{pith}");
    tex->add_option("record", tex_command->record, "Record file, or - for standard input");
    tex->add_option("--number", tex_command->number, "Fetch the record of this Pith number from the registry (see pith fetch)");
    tex->add_option("--arxiv", tex_command->arxiv, "Fetch the record of this arXiv id from the registry");
    add_registry_flags(tex, tex_command->registry);
    tex->callback([tex_command, &status] { status = run_tex(*tex_command, status); });
}

}  // namespace pith::cli
