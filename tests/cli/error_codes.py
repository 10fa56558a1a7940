#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every error code of doc/errors.md: the list equals src/core/error.hpp's, every code is given
somewhere in src/, and each is produced here by a real failure, with the code in the text line
(`pith: MESSAGE  [CODE]`), in --json output where the command has it, and in batch reports.
A code counts as tested only when this run saw pith give it (never because some suite's text
mentions it): the worker failures, a spoilt output and an input changed during the stamp through
the test hooks (NEEDS_HOOKS), internal.error by running the unit test case that makes it
(UNIT_CASE, with --unit).

usage: error_codes.py --pith PITH --source SRC [--unit PITH_TESTS] [--hooks ON|OFF]
"""
import argparse
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pdfedit  # noqa: E402
from pdfwriter import classic, minimal_pdf, stream  # noqa: E402
from pithrun import Failure, Workdir, check  # noqa: E402

# Codes whose failure only a test hook (doc/test-hooks.md) can make on purpose: in a build without
# hooks (--hooks OFF) they are listed as not produced here and not required.
NEEDS_HOOKS = {"worker.crashed", "worker.timeout", "worker.memory", "output.unverifiable", "input.changed"}
# The one code no command can be made to give: what a library throws past pith's own errors.
# tests/unit/budget_test.cpp produces it; this test runs that test case (--unit) and requires it passes.
UNIT_CASE = {"internal.error": "budget: within_budget names the file and turns what a hostile file throws into pdf.too_large"}


def codes_in_header(src):
    text = open(os.path.join(src, "src", "core", "error.hpp")).read()
    return dict(re.findall(r'inline constexpr const char\* (\w+) = "([a-z_]+\.[a-z_]+)";', text))


def codes_in_doc(src):
    text = open(os.path.join(src, "doc", "errors.md")).read()
    return set(re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \|", text, re.M))


def check_lists(src):
    header = codes_in_header(src)
    doc = codes_in_doc(src)
    check(len(header) >= 30, "too few codes read from error.hpp: %r" % header)
    check(set(header.values()) == doc, "doc/errors.md and src/core/error.hpp differ: only in doc %r, only in src %r"
          % (sorted(doc - set(header.values())), sorted(set(header.values()) - doc)))
    sources = []
    for root, _, files in os.walk(os.path.join(src, "src")):
        for name in files:
            if name.endswith((".cpp", ".hpp")) and name != "error.hpp":
                sources.append(open(os.path.join(root, name), errors="replace").read())
    everything = "\n".join(sources)
    unused = [name for name in header if "err::" + name not in everything]
    check(not unused, "codes no source file gives: %r" % unused)
    # A code is one of err::, never a string typed at a throw site.
    literal = re.findall(r'Error\([^;]*,\s*"([a-z_]+\.[a-z_]+)"\)', everything)
    check(not literal, "throw sites with a literal code instead of err::: %r" % literal)
    return set(header.values())


class Registry(http.server.BaseHTTPRequestHandler):
    """/gone/...: 404 (registry.unknown); anything else: 200 with text that is not JSON (registry.refused)."""

    def do_GET(self):
        status, body = (404, b"no") if self.path.startswith("/gone") else (200, b"hello, not JSON")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def check_code_once(line, code):
    """An error line names its code once: one `[code]`, and the words do not repeat it."""
    bracketed = re.findall(r"\[[a-z_]+\.[a-z_]+\]", line)
    check(len(bracketed) == 1 and line.count(code) == 1, "the code is not named exactly once: %r" % line)


class Ctx(Workdir):
    def __init__(self, args, tmp):
        super().__init__(args, tmp)
        self.seen = {}

    def run(self, args, env=None):
        """Errors are what this test asks for: only a crash fails here (not Workdir.run's checks)."""
        p = subprocess.run([self.pith] + args, capture_output=True, timeout=120, cwd=self.tmp, env=self.env(**(env or {})))
        out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
        check(p.returncode >= 0, "pith %s: killed by signal %d" % (" ".join(args), -p.returncode))
        return p.returncode, out, err

    def expect(self, code, args, json_out=False, env=None):
        """`pith ARGS` fails with `code`: last line of stderr `pith: ...  [code]`; with --json also
        {"error_code": code, ...} as the last line of standard output."""
        rc, out, err = self.run(args, env)
        lines = err.strip().splitlines()
        line = next((l for l in reversed(lines) if l.startswith("pith: ")), "")
        print("%-22s pith %s\n%22s -> %s" % (code, " ".join(a.replace(self.tmp + "/", "") for a in args), "", line))
        check(rc != 0, "pith %s: exit 0, expected %s" % (" ".join(args), code))
        check(line.endswith("  [%s]" % code), "pith %s: wanted [%s], stderr %r" % (" ".join(args), code, err[-600:]))
        check_code_once(line, code)
        check("json.exception" not in err and "ePdfError" not in err, "library wording reached the user: %r" % err)
        if json_out:
            last = json.loads(out.strip().splitlines()[-1])
            check(last.get("error_code") == code and last.get("error"), "--json: %r, wanted error_code %s" % (last, code))
            check(line == "pith: %s  [%s]" % (last["error"], code), "text and --json differ: %r / %r" % (line, last))
        self.seen[code] = True

    def batch_codes(self, manifest_lines, extra=(), env=None, name="m"):
        m = self.write(name + ".jsonl", "\n".join(json.dumps(x) for x in manifest_lines) + "\n")
        report = self.path(name + "-report.jsonl")
        self.run(["batch", m, "--report", report, "--progress", "none"] + (list(extra) or ["-j", "1"]), env)
        lines = [json.loads(l) for l in open(report)]
        return {r["line"]: r for r in lines if r.get("event") == "file"}


def edited_record(ctx, name):
    """examples/record.json with a stated hash that does not recompute."""
    text = re.sub(r'"canonical_sha256":\s*"[0-9a-f]{64}"', '"canonical_sha256":"%s"' % ("0" * 64), open(ctx.record).read())
    check("0" * 64 in text, "examples/record.json states no canonical_sha256")
    return ctx.write(name, text)


def with_broken_xmp(ctx, src, name):
    """`src` with a catalog /Metadata stream that is not well-formed XML (qpdf's QDF form edited)."""
    q = subprocess.run(["qpdf", "--qdf", "--object-streams=disable", src, "-"], capture_output=True, check=True).stdout
    n = max(int(x) for x in re.findall(rb"(?m)^(\d+) 0 obj", q)) + 1
    xml = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description></x:xmpmeta>'
    obj = b"%d 0 obj\n<< /Type /Metadata /Subtype /XML /Length %d >>\nstream\n%s\nendstream\nendobj\n" % (n, len(xml) + 1, xml)
    q = q.replace(b"/Type /Catalog", b"/Type /Catalog\n  /Metadata %d 0 R" % n, 1)
    x = q.rindex(b"\nxref\n")
    fixed = ctx.write(name + ".qdf", subprocess.run(["fix-qdf"], input=q[:x + 1] + obj + q[x + 1:], capture_output=True,
                                                    check=True).stdout)
    subprocess.run(["qpdf", fixed, ctx.path(name)], capture_output=True)  # a clean cross-reference table (exit 3: warnings)
    check(b"/Metadata" in open(ctx.path(name), "rb").read(), "no /Metadata in " + name)
    return ctx.path(name)


def with_revision_after(ctx, src, name):
    """`src` with one more incremental update (a new Info dictionary), as another tool adds after a stamp."""
    data = open(src, "rb").read()
    size = int(pdfedit.trailer_entry(pdfedit.last_trailer(data)[1], "Size"))
    return ctx.write(name, pdfedit.append_update(data, {size: "<< /Producer (another tool) >>"}, info="%d 0 R" % size))


def produce_cli(ctx):
    c, a, r = ctx, ctx.article, ctx.record
    readme = os.path.join(c.src, "README.md")
    c.expect("options.invalid", ["stamp", a, "--record", r, "--json"], json_out=True)
    c.expect("options.invalid", ["verfy", "x.pdf"])
    c.expect("input.not_found", ["verify", c.path("missing.pdf"), "--json"], json_out=True)
    c.expect("input.not_found", ["record", c.path("missing.json"), "--json"], json_out=True)
    os.makedirs(c.path("a-directory"))
    c.expect("input.unreadable", ["record", c.path("a-directory"), "--json"], json_out=True)
    c.expect("input.not_json", ["record", readme, "--json"], json_out=True)
    rc, out, err = c.run(["record", readme])
    check(re.search(r"README\.md: not JSON \(line 1, column 1\)  \[input\.not_json\]$", err.strip()), "JSON wording: %r" % err)
    c.expect("input.not_pdf", ["verify", readme, "--json"], json_out=True)
    c.expect("pdf.syntax", ["verify", c.write("syntax.pdf", b"%PDF-1.4\n%%EOF\n"), "--json"], json_out=True)
    data = open(a, "rb").read()
    sx = data.rindex(b"startxref")
    damaged = data[:sx] + b"startxref\n12\n%%EOF\n"  # the cross-reference data is not where it says
    c.expect("pdf.damaged", ["stamp", c.write("damaged.pdf", damaged), "--record", r, "-o", c.path("d-out.pdf"), "--json"],
             json_out=True)
    enc = c.path("encrypted.pdf")
    subprocess.run(["qpdf", "--encrypt", "user", "owner", "256", "--", a, enc], check=True)
    c.expect("pdf.password", ["verify", enc, "--json"], json_out=True)
    c.expect("pdf.password", ["verify", enc, "--password", "wrong"])
    subprocess.run(["qpdf", "--object-streams=disable", "--encrypt", "user", "owner", "128", "--use-aes=y", "--", a,
                    c.path("enc-plain.pdf")], check=True)
    custom = open(c.path("enc-plain.pdf"), "rb").read().replace(b"/Filter /Standard", b"/Filter /Privatex", 1)
    check(b"/Privatex" in custom, "qpdf's /Encrypt has no /Filter /Standard")
    c.expect("pdf.encryption", ["verify", c.write("custom.pdf", custom), "--password", "user"])
    c.expect("pdf.xmp", ["stamp", with_broken_xmp(c, a, "bad-xmp.pdf"), "--record", r, "-o", c.path("x.pdf"), "--json"],
             json_out=True)
    c.expect("pdf.too_large", ["--limits", "decoded=1K", "verify", a, "--json"], json_out=True)
    c.expect("record.invalid", ["record", c.write("not-record.json", '{"hello": 1}'), "--json"], json_out=True)
    c.expect("record.inconsistent", ["tex", edited_record(c, "bad-sha.json")])
    c.expect("record.inconsistent", ["stamp", a, "--record", c.path("bad-sha.json"), "-o", c.path("x.pdf"), "--json"],
             json_out=True)
    c.expect("number.invalid", ["stamp", a, "--number", "pith:bogus", "-o", c.path("x.pdf")])
    c.expect("keyring.invalid", ["verify", a, "--keyring", c.write("ring-bad.json", '{"x": 1}'), "--json"], json_out=True)
    ring = c.path("ring.json")
    rc, _, err = c.run(["keygen", "--key-id", "k1", "--secret", c.path("k1.key"), "--keyring", ring])
    check(rc == 0, "keygen: " + err)
    c.expect("keyring.duplicate_id", ["keygen", "--key-id", "k1", "--secret", c.path("k2.key"), "--keyring", ring])
    c.expect("output.exists", ["keygen", "--key-id", "k3", "--secret", c.path("k1.key"), "--keyring", ring])
    c.expect("keyring.unknown_id", ["keys", "revoke", "nobody", "--keyring", ring])
    c.expect("trust.invalid", ["verify", a, "--trust", readme, "--json"], json_out=True)
    c.expect("output.unwritable", ["stamp", a, "--record", r, "-o", c.path("no-such-dir/out.pdf")])
    # Signing: a self-signed certificate made here.
    key, cert = c.path("sign.key"), c.path("sign.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-subj",
                    "/CN=pith error codes", "-days", "2"], check=True, capture_output=True)
    os.chmod(key, 0o644)
    c.expect("sign.key_invalid", ["stamp", a, "--record", r, "-o", c.path("s.pdf"), "--sign-cert", cert, "--sign-key", key])
    os.chmod(key, 0o600)
    signed_dir = os.path.join(c.src, "tests", "corpus", "files", "signed")
    certified = os.path.join(signed_dir, "verapdf-a2b-6-1-12-t02-pass-a-signed.pdf")  # DocMDP P=2
    c.expect("pdf.certified", ["stamp", certified, "--record", r, "--no-title-check", "-o", c.path("c2.pdf"), "--json"],
             json_out=True)
    c.expect("sign.already_signed", ["stamp", os.path.join(signed_dir, "qpdf-digitally-signed.pdf"), "--record", r,
                                     "--no-title-check", "-o", c.path("c3.pdf"), "--certify", "--sign-cert", cert, "--sign-key", key])
    # The record's title is not the paper's; another number than the stamped one.
    other = os.path.join(c.src, "tests", "vectors", "seed-000-pith_number_record.json")  # another paper's record
    c.expect("stamp.title_not_shown", ["stamp", a, "--record", other, "-o", c.path("t.pdf"), "--json"],
             json_out=True)
    # A page that shows no text: the title cannot be checked.
    c.expect("stamp.title_unchecked", ["stamp", c.write("blank.pdf", minimal_pdf()), "--record", r, "-o", c.path("b.pdf"), "--json"],
             json_out=True)
    # A page drawn with what the closed list lacks: a PostScript XObject.
    postscript = classic([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                          b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R "
                          b"/Resources << /XObject << /X0 5 0 R >> >> >>",
                          stream("", b"/X0 Do"), stream("/Type /XObject /Subtype /PS", b"0 setgray")])
    c.expect("stamp.construct_unlisted", ["stamp", c.write("postscript.pdf", postscript), "--record", r, "--no-title-check",
                                          "-o", c.path("ps.pdf"), "--json"], json_out=True)
    stamped = c.path("stamped.pdf")
    rc, _, err = c.run(["stamp", a, "--record", r, "-o", stamped])
    check(rc == 0, "stamp: " + err)
    c.expect("stamp.badge_elsewhere", ["stamp", with_revision_after(c, stamped, "revised.pdf"), "--record", r, "--page", "2",
                                       "-o", c.path("r2.pdf"), "--json"], json_out=True)
    c.expect("stamp.other_number", ["stamp", stamped, "--record", other, "--no-title-check",
                                    "-o", c.path("o.pdf")])
    # mutool, which renders --png, is not installed (not on PATH).
    c.expect("install.incomplete", ["badge", "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3", "--png", "-o", c.path("b.png")],
             env={"PATH": c.path("empty-path")})
    return stamped, other


def produce_registry(ctx):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Registry)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % server.server_address[1]
    number = json.load(open(ctx.record)).get("pith_number") or "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3"
    try:
        ctx.expect("registry.unknown", ["fetch", number, "--registry", base + "/gone", "--retries", "0", "--json"], json_out=True)
        ctx.expect("registry.refused", ["fetch", number, "--registry", base + "/junk", "--retries", "0", "--json"], json_out=True)
        ctx.expect("registry.unreachable", ["fetch", number, "--offline", "--json"], json_out=True)
    finally:
        server.shutdown()


def produce_batch(ctx, stamped, other):
    c = ctx
    c.write("bad.jsonl", '{"input": "a.pdf", "output": "b.pdf", "colour": "red"}\n')
    c.expect("manifest.invalid", ["batch", c.path("bad.jsonl"), "--record", c.record, "--json"])
    res = c.batch_codes([{"input": c.article}, {"input": stamped}, {"input": stamped, "record": other},
                         {"input": c.path("missing.pdf")}], ["--verify"])
    for line, code in enumerate(("verify.absent", "verify.unverified", "verify.invalid", "input.not_found"), 1):
        check(res[line]["error_code"] == code, "batch --verify line %d: %r, wanted %s" % (line, res[line], code))
        c.seen[code] = True
    # A stamp batch reports the code pith stamp prints (no guessing from the message).
    os.makedirs(c.path("password-protected"))
    c.write("password-protected/notes.pdf", "just text\n")
    res = c.batch_codes([{"input": c.path("password-protected/notes.pdf"), "output": c.path("pp-out.pdf")},
                         {"input": c.article, "output": c.path("batch-out.pdf")}], ["--record", c.record])
    check(res[1]["error_code"] == "input.not_pdf", "a non-PDF under password-protected/: %r" % res[1])
    check(res[2]["status"] == "stamped", "the article: %r" % res[2])


def produce_signed(ctx, stamped):
    """A publisher-signed stamp, stamped again: it would drop the signature."""
    c = ctx
    key, cert = c.path("sign.key"), c.path("sign.pem")
    signed = c.path("signed.pdf")
    rc, _, err = c.run(["stamp", c.article, "--record", c.record, "-o", signed, "--sign-cert", cert, "--sign-key", key])
    check(rc == 0, "signed stamp: " + err)
    c.expect("stamp.drops_signatures", ["stamp", signed, "--record", c.record, "-o", c.path("again.pdf"), "--json"], json_out=True)


def produce_hooks(ctx):
    """The failures only a test hook makes: a worker that crashes, hangs or runs out of memory, an
    output spoilt after stamping, an input rewritten between pith's copy and its check."""
    c = ctx
    names = {"worker.crashed": ("crash", "PITH_BATCH_TEST_CRASH"), "worker.timeout": ("hang", "PITH_BATCH_TEST_HANG"),
             "worker.memory": ("hog", "PITH_BATCH_TEST_MEMORY"), "output.unverifiable": ("spoil", "PITH_BATCH_TEST_SPOIL")}
    lines = []
    for code, (word, _) in names.items():
        shutil.copy(c.article, c.path("hook-%s.pdf" % word))
        lines.append({"input": c.path("hook-%s.pdf" % word), "output": c.path("hook-%s-out.pdf" % word), "record": c.record})
    env = {var: "hook-%s.pdf" % word for word, var in names.values()}
    # The hanging worker alone meets a short time limit; the others get one no loaded machine
    # reaches, so that a slow stamp is never taken for a hang.
    hang = list(names).index("worker.timeout")
    res = c.batch_codes([lines[hang]], ["--timeout", "2", "--memory", "256"], env=env, name="hang")
    results = {"worker.timeout": res[1]}
    others = [code for code in names if code != "worker.timeout"]
    res = c.batch_codes([l for i, l in enumerate(lines) if i != hang], ["--timeout", "300", "--memory", "256", "-j", "2"], env=env,
                        name="hooks")
    results.update({code: res[line] for line, code in enumerate(others, 1)})
    for line, code in enumerate(names, 1):
        check(results[code]["status"] == "failed" and results[code]["error_code"] == code,
              "batch line %d: %r, wanted %s" % (line, results[code], code))
        check(not os.path.exists(lines[line - 1]["output"]), "%s: an output was left" % code)
        c.seen[code] = True
    # input.changed: pith stops after copying its input (PITH_TEST_STOP_AT_COPY), the input changes, pith goes on.
    src = c.write("changing.pdf", open(c.article, "rb").read())
    args = ["stamp", src, "--record", c.record, "-o", c.path("changing-out.pdf")]
    p = subprocess.Popen([c.pith] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=c.tmp,
                         env=c.env(PITH_TEST_STOP_AT_COPY="after"))
    _, status = os.waitpid(p.pid, os.WUNTRACED)
    if not os.WIFSTOPPED(status):
        p.returncode = os.waitstatus_to_exitcode(status)
        check(False, "PITH_TEST_STOP_AT_COPY=after: pith did not stop (exit %d)" % p.returncode)
    with open(src, "r+b") as f:
        f.seek(100)
        f.write(b"%")
    os.kill(p.pid, signal.SIGCONT)
    _, err = p.communicate(timeout=120)
    line = err.decode("utf-8", "replace").strip()
    print("%-22s pith %s (changed after the copy)\n%22s -> %s" % ("input.changed", " ".join(args), "", line))
    check(p.returncode == 2 and line.endswith("  [input.changed]"), "input.changed: exit %d %r" % (p.returncode, line))
    check_code_once(line, "input.changed")
    c.seen["input.changed"] = True


def produce_unit(unit, codes, seen):
    """Runs the Catch2 test case that makes each UNIT_CASE code; it must run and pass."""
    for code, case in UNIT_CASE.items():
        check(code in codes, "UNIT_CASE names %s, which is not a code" % code)
        p = subprocess.run([unit, case], capture_output=True, text=True, timeout=120)
        print("%-22s %s %r -> exit %d" % (code, os.path.basename(unit), case, p.returncode))
        check(p.returncode == 0 and "All tests passed" in p.stdout and "1 test case" in p.stdout,
              "unit test case %r: exit %d\n%s" % (case, p.returncode, p.stdout[-2000:]))
        seen[code] = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--unit", help="the Catch2 unit test binary (pith_tests), for UNIT_CASE")
    ap.add_argument("--hooks", choices=["ON", "OFF"], default="ON", help="whether pith has the test hooks")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="pith-error-codes-")
    try:
        codes = check_lists(args.source)
        ctx = Ctx(args, tmp)
        stamped, other = produce_cli(ctx)
        produce_signed(ctx, stamped)
        produce_registry(ctx)
        produce_batch(ctx, stamped, other)
        if args.hooks == "ON":
            produce_hooks(ctx)
        if args.unit:
            produce_unit(args.unit, codes, ctx.seen)
        unproducible = (NEEDS_HOOKS if args.hooks == "OFF" else set()) | (set() if args.unit else set(UNIT_CASE))
        missing = sorted(codes - set(ctx.seen) - unproducible)
        check(not missing, "codes no test produced: %r" % missing)
        print("error_codes: %d codes, %d produced in this run%s" % (
            len(codes), len(ctx.seen), "; not produced (no test hooks / no --unit): %s" % sorted(unproducible) if unproducible else ""))
    except Failure as e:
        print("FAIL:", e)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
