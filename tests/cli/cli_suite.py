#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CLI tests for `pith record`, `pith keygen` and `pith sign` (one ctest per case, see tests/cli.cmake).

usage: cli_suite.py --pith PITH --source SRC CASE
Every case works in its own temporary directory with HOME set to an empty directory and
PITH_KEYRING / XDG_CONFIG_HOME unset, so no default keyring can interfere.
Exit 0 pass, 1 fail.
"""
import json
import os
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pithrun import Failure, Workdir, case_main, check  # noqa: E402

SEED_KEY_ID = "pith-v1-2026-05"


class Ctx(Workdir):
    def __init__(self, args, tmp):
        super().__init__(args, tmp)
        self.vectors = os.path.join(self.src, "tests", "vectors")
        self.seeds = sorted(os.path.join(self.vectors, f) for f in os.listdir(self.vectors) if f.endswith(".json"))
        check(self.seeds, "no seed records in " + self.vectors)

    def record_json(self, args, stdin=None):
        rc, out, err = self.run(["record", "--json"] + args, stdin=stdin)
        try:
            return rc, json.loads(out), err
        except ValueError:
            raise Failure("pith record --json %s: output is not JSON (exit %d): %r %r" % (args, rc, out[:300], err[:300]))


def codes(doc, section):
    return [f["code"] for f in doc[section]]


def expected_for(seed):
    """number, short number and hash as stated in the seed (the registry's own values)."""
    doc = json.load(open(seed))
    if doc.get("record_type") == "pith_number_record":
        return doc["pith_number"], doc["short_pith_number"], doc["canonical_sha256"]
    payload = doc["current"]["record_created"]["payload"]
    number = doc["pith_number"]
    return number, "pith:" + number.split(":")[2][:8], payload["canonical_sha256"]


def one_line_error(what, rc, out, err, exit_code=None):
    check(rc != 0, "%s: exit 0, expected an error" % what)
    if exit_code is not None:
        check(rc == exit_code, "%s: exit %d, expected %d (stderr %r)" % (what, rc, exit_code, err[:300]))
    lines = err.strip().splitlines()
    check(len(lines) == 1, "%s: expected a one-line error on stderr, got %d lines: %r" % (what, len(lines), err[:500]))
    check(lines[0].startswith("pith: "), "%s: error does not start with 'pith: ': %r" % (what, lines[0][:200]))
    check(len(lines[0]) > 12, "%s: error says nothing: %r" % (what, lines[0]))
    check(not out.strip(), "%s: something on stdout: %r" % (what, out[:200]))
    return lines[0]


# ----------------------------------------------------------------------------------------------
# pith record

def case_record_seeds(ctx):
    for seed in ctx.seeds:
        name = os.path.basename(seed)
        number, short, sha = expected_for(seed)
        for label, args, stdin in (("file", [seed], None), ("stdin", ["-"], open(seed, "rb").read())):
            rc, doc, err = ctx.record_json(args, stdin=stdin)
            where = "%s (%s)" % (name, label)
            check(rc == 0, "%s: exit %d: %s" % (where, rc, err))
            check(doc["number"] == number, "%s: number %r, expected %r" % (where, doc["number"], number))
            check(doc["short_number"] == short, "%s: short_number %r, expected %r" % (where, doc["short_number"], short))
            check(doc["canonical_sha256"] == sha, "%s: canonical_sha256 %r" % (where, doc["canonical_sha256"]))
            check(doc["receipt"]["status"] == "key_unknown", "%s: receipt.status %r" % (where, doc["receipt"]))
            check(doc["receipt"]["key_id"] == SEED_KEY_ID, "%s: receipt.key_id %r" % (where, doc["receipt"]))
            check(doc["consistent"] is True and doc["failure"] == [], "%s: not consistent: %s" % (where, doc["failure"]))
            check("receipt.key_unknown" in codes(doc, "informational"), "%s: no receipt.key_unknown" % where)
            check(any("key unknown: " + SEED_KEY_ID in f["explanation"] for f in doc["informational"]),
                  "%s: no 'key unknown: %s'" % (where, SEED_KEY_ID))
            check({"record.hash.match", "record.number.match"} <= set(codes(doc, "success")), "%s: %s" % (where, doc["success"]))
            if label == "stdin":
                check(doc["file"] == "-", "%s: file %r" % (where, doc["file"]))
            print("%s: %s ok" % (where, number))
        # Text output, too.
        rc, out, err = ctx.run(["record", seed])
        check(rc == 0 and number in out and "key unknown: " + SEED_KEY_ID in out and "consistent" in out,
              "%s: text output: exit %d %r" % (name, rc, out[:500]))


def case_record_hash_edited(ctx):
    for seed in ctx.seeds:
        name = os.path.basename(seed)
        number, short, sha = expected_for(seed)
        text = open(seed).read()
        check(text.count(sha) >= 1, "%s: hash not found" % name)
        flipped = ("0" if sha[0] != "0" else "1") + sha[1:]
        doc = json.loads(text)
        # Edit only the stated hash (not the receipt's copy), so the failure is the stated hash's.
        if doc.get("record_type") == "pith_number_record":
            doc["canonical_sha256"] = flipped
        else:
            doc["current"]["record_created"]["payload"]["canonical_sha256"] = flipped
        path = ctx.write(name + ".hash-edited.json", json.dumps(doc))
        rc, out_doc, err = ctx.record_json([path])
        check(rc == 1, "%s: edited hash: exit %d, expected 1 (%s)" % (name, rc, err))
        check("record.hash.mismatch" in codes(out_doc, "failure"), "%s: failure %s" % (name, out_doc["failure"]))
        check(out_doc["consistent"] is False, "%s: still consistent" % name)
        rc, out, err = ctx.run(["record", path])
        check(rc == 1 and "record.hash.mismatch" in out, "%s: text output exit %d" % (name, rc))
        print("%s: hash edited -> exit 1 record.hash.mismatch" % name)


# ----------------------------------------------------------------------------------------------
# pith keygen / sign

def keygen(ctx, secret="k.key", ring="ring.json", key_id="cli-test-key"):
    return ctx.run(["keygen", "--key-id", key_id, "--secret", ctx.path(secret), "--keyring", ctx.path(ring)])


def case_keygen(ctx):
    rc, out, err = keygen(ctx)
    check(rc == 0, "keygen: exit %d %s" % (rc, err))
    mode = stat.S_IMODE(os.stat(ctx.path("k.key")).st_mode)
    check(mode == 0o600, "secret key mode %o, expected 600" % mode)
    key = json.load(open(ctx.path("k.key")))
    check(key.get("key_id") == "cli-test-key" and key.get("algorithm") == "ed25519", "secret key file: %r" % list(key))
    ring = json.load(open(ctx.path("ring.json")))
    check(len(ring["keys"]) == 1 and ring["keys"][0]["key_id"] == "cli-test-key", "keyring: %r" % ring)
    check("secret_key" not in json.dumps(ring), "the keyring holds the secret key")
    before = open(ctx.path("k.key"), "rb").read()
    ring_before = open(ctx.path("ring.json"), "rb").read()
    # Refuses to overwrite the secret key (and leaves both files alone).
    rc, out, err = keygen(ctx, ring="ring2.json")
    one_line_error("keygen over an existing secret", rc, "", err)
    check(open(ctx.path("k.key"), "rb").read() == before, "the secret key was overwritten")
    check(not os.path.exists(ctx.path("ring2.json")), "keygen refused but still wrote a keyring")
    # A second key into the same keyring under the same id is refused, too.
    rc, out, err = keygen(ctx, secret="k2.key")
    check(rc != 0, "keygen: a second key with the same id in one keyring was accepted")
    check(open(ctx.path("ring.json"), "rb").read() == ring_before, "the keyring changed")
    # Secret keys made under a restrictive or permissive umask are 0600 all the same.
    for umask in (0o000, 0o077):
        old = os.umask(umask)
        try:
            rc, out, err = keygen(ctx, secret="u%o.key" % umask, ring="u%o.json" % umask)
        finally:
            os.umask(old)
        check(rc == 0, "keygen umask %o: %s" % (umask, err))
        mode = stat.S_IMODE(os.stat(ctx.path("u%o.key" % umask)).st_mode)
        check(mode == 0o600, "umask %o: secret key mode %o" % (umask, mode))
    print("keygen ok")


def case_sign(ctx):
    rc, out, err = keygen(ctx)
    check(rc == 0, "keygen: %s" % err)
    for seed in [ctx.record] + ctx.seeds:
        name = os.path.basename(seed)
        signed = ctx.path(name + ".signed.json")
        rc, out, err = ctx.run(["sign", seed, "--secret", ctx.path("k.key"), "-o", signed])
        check(rc == 0, "sign %s: exit %d %s" % (name, rc, err))
        number, short, sha = expected_for(seed)
        rc, doc, err = ctx.record_json([signed, "--keyring", ctx.path("ring.json")])
        check(rc == 0, "%s signed, with keyring: exit %d %s" % (name, rc, err))
        check(doc["receipt"]["status"] == "valid" and "receipt.valid" in codes(doc, "success"),
              "%s signed, with keyring: receipt %r" % (name, doc["receipt"]))
        check(doc["number"] == number and doc["canonical_sha256"] == sha, "%s: the signed record changed number or hash" % name)
        rc, doc, err = ctx.record_json([signed])
        check(rc == 0, "%s signed, without keyring: exit %d" % (name, rc))
        check(doc["receipt"]["status"] == "key_unknown" and doc["receipt"]["key_id"] == "cli-test-key",
              "%s signed, without keyring: receipt %r" % (name, doc["receipt"]))
        print("%s: signed; valid with --keyring, key_unknown without" % name)
    # Standard output and standard input.
    rc, out, err = ctx.run(["sign", "-", "--secret", ctx.path("k.key"), "-o", "-"], stdin=open(ctx.record, "rb").read())
    check(rc == 0, "sign - -o -: exit %d %s" % (rc, err))
    path = ctx.write("stdout-signed.json", out)
    rc, doc, err = ctx.record_json([path, "--keyring", ctx.path("ring.json")])
    check(rc == 0 and doc["receipt"]["status"] == "valid", "sign via stdin/stdout: %r" % doc.get("receipt"))
    # PITH_KEYRING names the keyring.
    env_ring = dict(PITH_KEYRING=ctx.path("ring.json"))
    p = subprocess.run([ctx.pith, "record", "--json", path], capture_output=True, env=dict(ctx.env(), **env_ring))
    check(p.returncode == 0 and json.loads(p.stdout)["receipt"]["status"] == "valid", "PITH_KEYRING not used")
    # A different trusted key under the same id: the receipt must not count as valid.
    rc, out, err = keygen(ctx, secret="other.key", ring="other.json")
    rc, doc, err = ctx.record_json([path, "--keyring", ctx.path("other.json")])
    check(doc["receipt"]["status"] != "valid", "a receipt verified under another key")


def case_sign_refuses(ctx):
    rc, out, err = keygen(ctx)
    check(rc == 0, "keygen: %s" % err)
    doc = json.load(open(ctx.seeds[0]))
    doc["canonical_sha256"] = "0" * 64
    bad = ctx.write("bad-hash.json", json.dumps(doc))
    out_path = ctx.path("bad-signed.json")
    rc, out, err = ctx.run(["sign", bad, "--secret", ctx.path("k.key"), "-o", out_path])
    line = one_line_error("sign a record whose hash does not recompute", rc, out, err)
    check("canonical_sha256" in line or "hash" in line, "the error does not name the hash: %r" % line)
    check(not os.path.exists(out_path), "sign refused but wrote %s" % out_path)
    leftovers = [f for f in os.listdir(ctx.tmp) if f.startswith("bad-signed.json")]
    check(not leftovers, "temporary files left: %s" % leftovers)
    # The stated number does not derive.
    doc = json.load(open(ctx.seeds[0]))
    doc["pith_number"] = doc["pith_number"][:-1] + ("A" if doc["pith_number"][-1] != "A" else "B")
    bad = ctx.write("bad-number.json", json.dumps(doc))
    rc, out, err = ctx.run(["sign", bad, "--secret", ctx.path("k.key"), "-o", out_path])
    one_line_error("sign a record whose number does not derive", rc, out, err)
    check(not os.path.exists(out_path), "sign refused but wrote %s" % out_path)
    # To standard output: nothing printed.
    rc, out, err = ctx.run(["sign", bad, "--secret", ctx.path("k.key"), "-o", "-"])
    one_line_error("sign (to stdout) a bad record", rc, out, err)
    # Not a secret key file.
    rc, out, err = ctx.run(["sign", ctx.record, "--secret", ctx.record, "-o", out_path])
    one_line_error("sign with a record as the secret key", rc, out, err)
    check(not os.path.exists(out_path), "sign refused but wrote %s" % out_path)
    print("sign refuses ok")


# ----------------------------------------------------------------------------------------------
# bad input

def bad_inputs(ctx):
    seed_text = open(ctx.seeds[0]).read()
    seed = json.loads(seed_text)
    dup = seed_text.replace('"canonical_record":{', '"canonical_record":{"schema_version":"9.9",', 1)
    check(dup != seed_text, "could not make the duplicate-key input")
    nan = seed_text.replace('"version":1', '"version":NaN', 1)
    check(nan != seed_text, "could not make the NaN input")
    deep = ctx.path("deep.json")
    with open(deep, "w") as f:
        chunk = "[" * (1 << 20)
        for _ in range(100):
            f.write(chunk)
    os.makedirs(ctx.path("a-directory"))
    return [
        ("not JSON", ctx.write("not.json", "hello, world\n"), None),
        ("[]", ctx.write("array.json", "[]"), None),
        ("{}", ctx.write("object.json", "{}"), None),
        ("a string", ctx.write("string.json", '"pith"'), None),
        ("truncated JSON", ctx.write("truncated.json", seed_text[: len(seed_text) // 2]), None),
        ("100 MB of [", deep, None),
        ("NaN", ctx.write("nan.json", nan), "NaN"),
        ("Infinity", ctx.write("inf.json", '{"canonical_record":{"metadata":{"submitted_at":"2024-01-01T00:00:00Z","x":-Infinity},"source":{}}}'), "Infinity"),
        ("duplicate keys", ctx.write("dup.json", dup), "$.canonical_record.schema_version"),
        ("duplicate top-level keys", ctx.write("dup2.json", '{"record_type":"pith_number_record","record_type":"x"}'), "record_type"),
        ("empty file", ctx.write("empty.json", ""), None),
        ("binary garbage", ctx.write("garbage.json", bytes(range(256)) * 4), None),
        ("invalid UTF-8", ctx.write("badutf8.json", b'{"canonical_record":{"metadata":{"submitted_at":"2024-01-01T00:00:00Z","t":"\xff\xfe"},"source":{}}}'), None),
        ("canonical_record without submitted_at", ctx.write("nosub.json", json.dumps({"canonical_record": {"metadata": {}, "source": {}}})), "submitted_at"),
        ("a directory", ctx.path("a-directory"), None),
        ("a missing file", ctx.path("no-such-file.json"), "no-such-file.json"),
    ]


def case_bad_input_record(ctx):
    problems = []
    for what, path, must_mention in bad_inputs(ctx):
        for args in (["record", path], ["record", "--json", path]):
            try:
                rc, out, err = ctx.run(args)
                json_out = args[1] == "--json"
                line = one_line_error("pith %s (%s)" % (" ".join(args[:-1]), what), rc, "" if json_out else out, err, exit_code=2)
                if json_out:  # the error as JSON on stdout too, the same as the line (doc/errors.md)
                    j = json.loads(out)
                    check(line == "pith: %s  [%s]" % (j["error"], j["error_code"]), "%s: --json %r, stderr %r" % (what, out, line))
                check(len(line) < 4096, "%s: the one-line error is %d characters long" % (what, len(line)))
                if must_mention:
                    check(must_mention in line, "%s: the error does not mention %r: %r" % (what, must_mention, line[:300]))
                if args[1] != "--json":
                    print("%-40s -> exit %d: %s" % (what, rc, line[:150]))
            except Failure as e:
                problems.append(str(e))
    # From standard input too.
    for what, data in (("stdin: not JSON", b"nope"), ("stdin: empty", b""), ("stdin: []", b"[]")):
        try:
            rc, out, err = ctx.run(["record", "-"], stdin=data)
            one_line_error(what, rc, out, err, exit_code=2)
        except Failure as e:
            problems.append(str(e))
    check(not problems, "\n".join(problems))


def case_bad_input_sign(ctx):
    rc, out, err = keygen(ctx)
    check(rc == 0, "keygen: %s" % err)
    problems = []
    for what, path, must_mention in bad_inputs(ctx):
        if what == "100 MB of [":
            continue  # covered by `record`; the same reader
        out_path = ctx.path("signed-bad.json")
        try:
            rc, out, err = ctx.run(["sign", path, "--secret", ctx.path("k.key"), "-o", out_path])
            one_line_error("pith sign (%s)" % what, rc, out, err, exit_code=2)
            check(not os.path.exists(out_path), "sign (%s) wrote an output file" % what)
        except Failure as e:
            problems.append(str(e))
    # Bad secret key files and keyrings.
    for what, args in (
        ("secret key missing", ["sign", ctx.record, "--secret", ctx.path("nope.key"), "-o", ctx.path("x.json")]),
        ("secret key not JSON", ["sign", ctx.record, "--secret", ctx.write("bad.key", "xx"), "-o", ctx.path("x.json")]),
        ("keyring not JSON", ["record", ctx.record, "--keyring", ctx.write("bad-ring.json", "{")]),
        ("keyring []", ["record", ctx.record, "--keyring", ctx.write("arr-ring.json", "[]")]),
        ("keyring missing", ["record", ctx.record, "--keyring", ctx.path("no-ring.json")]),
    ):
        try:
            rc, out, err = ctx.run(args)
            one_line_error(what, rc, out, err, exit_code=2)
        except Failure as e:
            problems.append(str(e))
    check(not problems, "\n".join(problems))


def case_usage(ctx):
    problems = []
    for args in (
        [],
        ["no-such-command"],
        ["record"],
        ["record", "--no-such-option", ctx.record],
        ["keygen"],
        ["keygen", "--key-id", "x", "--secret", ctx.path("u.key")],
        ["sign", ctx.record],
        ["sign", ctx.record, "--secret"],
        ["verify"],
        ["stamp", "x.pdf"],
    ):
        rc, out, err = ctx.run(args)
        lines = err.strip().splitlines()
        if rc != 2 or not lines or not lines[0].startswith("pith: "):
            problems.append("pith %s: exit %d, stderr %r (expected exit 2 and an error)" % (" ".join(args), rc, err[:200]))
        else:
            print("pith %-45s -> exit 2: %s" % (" ".join(a.replace(ctx.tmp, "T") for a in args), lines[0][:100]))
    check(not os.path.exists(ctx.path("u.key")), "keygen without --keyring wrote a secret key")
    for args in (["--help"], ["record", "--help"], ["keygen", "--help"], ["sign", "--help"], ["--version"]):
        rc, out, err = ctx.run(args)
        if rc != 0 or not out.strip():
            problems.append("pith %s: exit %d" % (" ".join(args), rc))
    check(not problems, "\n".join(problems))


def case_not_a_file(ctx):
    """A directory, a FIFO and /dev/null as the PDF: one-line error, exit 2, no output file,
    never a wait for a FIFO's writer."""
    fifo = ctx.path("fifo.pdf")
    os.mkfifo(fifo)
    for path in (ctx.tmp, fifo, os.devnull):
        for args in (["verify", path], ["extract", path], ["stamp", path, "--record", ctx.record, "-o", ctx.path("out.pdf")]):
            rc, out, err = ctx.run(args, timeout=20)
            line = one_line_error("pith " + " ".join(args), rc, out, err, exit_code=2)
            check("not a regular file" in line, "pith %s: %r" % (" ".join(args), line))
            check(not os.path.exists(ctx.path("out.pdf")), "pith %s left an output file" % " ".join(args))


def main():
    return case_main(globals(), Ctx, "pith-cli-")


if __name__ == "__main__":
    sys.exit(main())
