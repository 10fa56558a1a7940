#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The conventions a command-line tool keeps, one ctest per case (tests/cli.cmake): an existing key id,
stamp to stdout and from stdin, unknown commands and per-subcommand --help, JSON lines, batch
--dry-run --json, no terminal escapes from file contents, the man page, several files verified
side by side, PITH_TRACE.

usage: cli_conventions.py --pith PITH --source SRC CASE
Each case works in a temporary directory with an empty HOME. Exit 0 pass, 1 fail.
"""
import hashlib
import json
import os
import pty
import select
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pithrun import Workdir, case_main, check, isolated_env  # noqa: E402


class Ctx(Workdir):
    def stamped(self):
        out = self.path("stamped.pdf")
        if not os.path.exists(out):
            rc, _, err = self.run(["stamp", self.article, "--record", self.record, "-o", out])
            check(rc == 0, "stamp failed: " + err)
        return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def case_keygen_existing_id(ctx):
    ring = ctx.path("ring.json")
    rc, _, err = ctx.run(["keygen", "--key-id", "k1", "--secret", ctx.path("first.key"), "--keyring", ring])
    check(rc == 0, "first keygen failed: " + err)
    before = read(ring)
    rc, _, err = ctx.run(["keygen", "--key-id", "k1", "--secret", ctx.path("second.key"), "--keyring", ring])
    print("second keygen with the same id: exit %d: %s" % (rc, err.strip()))
    check(rc == 2, "keygen with a key id the keyring holds: exit %d, expected 2" % rc)
    check("already holds a key" in err, "the error does not say why: " + err)
    check(not os.path.exists(ctx.path("second.key")), "a new secret key was left on disk: second.key")
    check(read(ring) == before, "the keyring changed")
    check(sorted(os.listdir(ctx.tmp)) == ["first.key", "home", "ring.json"],
          "stray files: %s" % sorted(os.listdir(ctx.tmp)))
    # And the refusal of an existing secret file still leaves that file alone.
    old = read(ctx.path("first.key"))
    rc, _, err = ctx.run(["keygen", "--key-id", "k2", "--secret", ctx.path("first.key"), "--keyring", ring])
    check(rc == 2 and read(ctx.path("first.key")) == old and read(ring) == before, "existing secret: " + err)


def case_stamp_stdout(ctx):
    original = read(ctx.article)
    # To a pipe: the PDF on standard output, the summary on standard error with the true count.
    rc, out, err = ctx.raw(["stamp", "-", "--record", ctx.record, "-o", "-"], stdin=original)
    check(rc == 0, "stamp - -o -: exit %d: %s" % (rc, err))
    check(out.startswith(original), "standard output does not start with the input's bytes")
    added = len(out) - len(original)
    print("stamp -o -: %d bytes appended; stderr: %s" % (added, err.strip().splitlines()[-1]))
    check(added > 0 and ("%d bytes appended" % added) in err, "summary does not report the %d bytes appended: %s" % (added, err))
    with open(ctx.path("piped.pdf"), "wb") as f:
        f.write(out)
    q = subprocess.run(["qpdf", "--check", ctx.path("piped.pdf")], capture_output=True, text=True)
    check(q.returncode in (0, 3), "qpdf --check of the piped output: %s" % q.stdout[-500:])
    # To a terminal: refused before any byte is written.
    master, slave = pty.openpty()
    p = subprocess.Popen([ctx.pith, "stamp", ctx.article, "--record", ctx.record, "-o", "-"], stdout=slave,
                         stderr=subprocess.PIPE, env=isolated_env(ctx.home), cwd=ctx.tmp)
    os.close(slave)
    _, err = p.communicate(timeout=120)
    shown = b""
    while select.select([master], [], [], 0.2)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    err = err.decode("utf-8", "replace")
    print("stamp -o - on a terminal: exit %d: %s; %d bytes shown" % (p.returncode, err.strip(), len(shown)))
    check(p.returncode == 2, "stamp -o - to a terminal: exit %d, expected 2" % p.returncode)
    check("terminal" in err, "the refusal does not name the terminal: " + err)
    check(b"%PDF" not in shown and len(shown) == 0, "bytes reached the terminal: %r" % shown[:80])


def case_unknown_command(ctx):
    for args, want in ((["verfy", "x.pdf"], "unknown command 'verfy' (did you mean 'verify'?)"),
                       (["stmp", "x.pdf"], "unknown command 'stmp' (did you mean 'stamp'?)"),
                       (["frobnicate"], "unknown command 'frobnicate'"),
                       (["--bogus"], "unknown option '--bogus'"),
                       (["--bogus", "verify", "x.pdf"], "unknown option '--bogus'")):
        rc, out, err = ctx.run(args)
        print("pith %s: exit %d: %s" % (" ".join(args), rc, err.strip().splitlines()[0] if err.strip() else ""))
        check(rc == 2, "pith %s: exit %d, expected 2" % (" ".join(args), rc))
        check(want in err, "pith %s: %r does not say %r" % (" ".join(args), err, want))
        check("subcommand is required" not in err, "pith %s: still CLI11's wording: %r" % (" ".join(args), err))
    rc, _, err = ctx.run(["frobnicate"])
    check("did you mean" not in err, "a far word got a suggestion: " + err)
    rc, out, _ = ctx.run(["--version"])
    check(rc == 0 and out.startswith("pith "), "--version broke")


def case_subcommand_help(ctx):
    for args, command in ((["verify"], "verify"), (["stamp", ctx.article, "--corner"], "stamp"),
                          (["extract", "a.pdf", "b.pdf"], "extract"), (["keygen", "--key-id", "x"], "keygen"),
                          (["batch", "--progress"], "batch")):
        rc, _, err = ctx.run(args)
        print("pith %s: exit %d: %s" % (" ".join(args), rc, " / ".join(err.strip().splitlines())))
        check(rc == 2, "pith %s: exit %d, expected 2" % (" ".join(args), rc))
        check("Run `pith %s --help` for usage." % command in err, "pith %s: does not point to its help: %r" % (" ".join(args), err))
    rc, _, err = ctx.run([])
    check(rc == 2 and "Run `pith --help`" in err, "pith alone: " + err)


def case_stdin(ctx):
    stamped = ctx.stamped()
    data = read(stamped)
    for command in ("verify", "extract"):
        rc_file, out_file, _ = ctx.run([command, "--json", stamped])
        rc_in, out_in, err = ctx.run([command, "--json", "-"], stdin=data)
        print("%s -: exit %d (file: %d)" % (command, rc_in, rc_file))
        check(rc_in == rc_file, "%s -: exit %d, the file gives %d: %s" % (command, rc_in, rc_file, err))
        a, b = json.loads(out_file), json.loads(out_in)
        for doc in (a, b):
            doc.pop("file", None)
        check(a == b, "%s -: the report differs from the file's:\n%s\n%s" % (command, out_file[:400], out_in[:400]))
    rc, out, err = ctx.run(["verify", "-"], stdin=b"not a PDF\n")
    check(rc == 2 and "-" in err, "verify - of junk: exit %d: %s" % (rc, err))
    rc, out, err = ctx.run(["extract", "-"], stdin=read(ctx.article))
    check(rc == 3, "extract - of an unstamped PDF: exit %d, expected 3" % rc)


def case_verify_json_lines(ctx):
    stamped = ctx.stamped()
    junk = ctx.path("junk.pdf")
    with open(junk, "wb") as f:
        f.write(b"junk\n")
    for files in ([stamped], [stamped, ctx.article], [ctx.article, junk, stamped]):
        rc, out, err = ctx.run(["verify", "--json"] + files)
        lines = out.splitlines()
        print("%d file(s): exit %d, %d line(s)" % (len(files), rc, len(lines)))
        check(len(lines) == len(files), "%d files gave %d lines: %r" % (len(files), len(lines), out[:300]))
        for f, line in zip(files, lines):
            doc = json.loads(line)
            check(isinstance(doc, dict), "a line is not an object: " + line[:200])
            check(doc["file"] == f, "report for %s names %s" % (f, doc["file"]))
            check(set(doc) >= {"file", "state", "number", "success", "informational", "failure"}, "shape: %s" % sorted(doc))


def case_verify_jobs(ctx):
    """Several files are verified side by side (--jobs): the same reports, in the order given,
    with the same exit status, whether one, two or three at a time; an unreadable file among them
    says so on standard error in its place."""
    stamped = ctx.stamped()
    junk = ctx.path("junk.pdf")
    with open(junk, "wb") as f:
        f.write(b"junk\n")
    files = [stamped, ctx.article, junk, stamped, ctx.article]
    runs = {}
    for jobs in ("1", "2", "3"):
        for form in ([], ["--json"]):
            rc, out, err = ctx.run(["verify", "--jobs", jobs] + form + files)
            runs.setdefault(tuple(form), []).append((rc, out, err))
    for form, results in runs.items():
        check(len(set(results)) == 1, "--jobs 1, 2 and 3 differ%s: %r" % (" (--json)" if form else "", [r[0] for r in results]))
    rc, out, err = runs[("--json",)][0]
    check(rc == 2, "an unreadable file among them: exit %d, want 2" % rc)
    check([json.loads(line)["file"] for line in out.splitlines()] == files, "the reports are not in the order given: %r" % out[:300])
    rc, out, err = runs[()][0]
    named = [line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")]
    check(named == [stamped, ctx.article, stamped, ctx.article], "the text reports are not in the order given: %r" % named)
    check(err.count("pith: ") == 1 and junk in err, "standard error: %r" % err)
    print("%d files at 1, 2 and 3 at a time: the same reports in the same order, exit %d" % (len(files), rc))


def traced(ctx, name, args, subject, own_steps):
    """`pith ARGS` with PITH_TRACE: one whole step `name` about `subject`; pith's steps and its
    children's (poppler's page text, the title block rendered and read) inside its time."""
    trace = ctx.path("trace.jsonl")
    rc, out, err = ctx.run(args, env={"PITH_TRACE": trace})
    check(rc in (0, 4), "%s: exit %d: %s" % (name, rc, err.strip()))  # 4: the example's key is in no keyring
    with open(trace, encoding="utf-8") as f:
        spans = [json.loads(line) for line in f]
    os.remove(trace)
    whole = [s for s in spans if s["step"] == name]
    check(len(whole) == 1 and whole[0]["subject"] == subject, "%s: the whole step: %r" % (name, whole))
    top = whole[0]
    steps = {s["step"] for s in spans}
    for want in ("pdf/open", "pith_data/extract", "page_text/words", "pixels/render", "ocr/title_block", "pixels/wait") + own_steps:
        check(want in steps, "%s: no %s step (have %s)" % (name, want, sorted(steps)))
    check(any(s["step"] == "ocr/title_block" and s["pid"] != top["pid"] for s in spans), "%s: the title block is read in pith's process" % name)
    outside = [s["step"] for s in spans if s["start"] < top["start"] - 1 or s["start"] + s["ms"] > top["start"] + top["ms"] + 1]
    check(not outside and all(s["ms"] >= 0 for s in spans), "%s: steps outside the command's time: %s" % (name, outside))
    print("%s: %d spans in %d processes, %.0f ms" % (name, len(spans), len({s["pid"] for s in spans}), top["ms"]))


def case_trace(ctx):
    """PITH_TRACE (src/core/trace.hpp) for stamp and verify; nothing without it; bench/trace_steps.py
    reads what it writes."""
    stamped = ctx.path("stamped.pdf")
    traced(ctx, "stamp", ["stamp", ctx.article, "--record", ctx.record, "-o", stamped], ctx.article, ("stamp/pages", "stamp/write"))
    traced(ctx, "verify", ["verify", stamped], stamped,
           ("verify/pith_update", "verify/title_text", "verify/later_changes", "verify/conclude"))
    ctx.run(["verify", stamped])
    check(not os.path.exists(ctx.path("trace.jsonl")), "without PITH_TRACE a trace was written")
    p = subprocess.run([sys.executable, os.path.join(ctx.src, "bench", "trace_steps.py"), "--", ctx.pith, "verify", stamped],
                       capture_output=True, text=True, env=ctx.env())
    check(p.returncode == 0 and "ocr/title_block" in p.stdout, "bench/trace_steps.py: exit %d: %s" % (p.returncode, p.stdout + p.stderr))


def case_batch_dry_run_json(ctx):
    stamped = ctx.stamped()
    manifest = ctx.path("manifest.jsonl")
    with open(manifest, "w") as f:
        f.write(json.dumps({"input": ctx.article, "output": ctx.path("o1.pdf"), "record": ctx.record, "id": "a"}) + "\n")
        f.write(json.dumps({"input": stamped, "output": ctx.path("o2.pdf"), "record": ctx.record}) + "\n")
    rc, out, err = ctx.run(["batch", manifest, "--dry-run", "--json"])
    print("batch --dry-run --json: exit %d\n%s" % (rc, out))
    check(rc == 0, "exit %d: %s" % (rc, err))
    doc = json.loads(out)
    check(doc["entries"] == 2 and doc["in_shard"] == 2, "counts: %s" % doc)
    check([j["line"] for j in doc["jobs"]] == [1, 2], "lines: %s" % doc["jobs"])
    check([j["input"] for j in doc["jobs"]] == [ctx.article, stamped], "inputs: %s" % doc["jobs"])
    check(doc["jobs"][0]["id"] == "a" and doc["jobs"][1]["id"] is None, "ids: %s" % doc["jobs"])
    check(not os.path.exists(ctx.path("o1.pdf")) and not os.path.exists(ctx.path("o2.pdf")), "a dry run wrote outputs")
    rc, out, _ = ctx.run(["batch", manifest, "--dry-run"])
    check(rc == 0 and out.splitlines() == ["1\t" + ctx.article, "2\t" + stamped], "text dry run: %r" % out)


def case_terminal_escapes(ctx):
    # What a PDF, a record or a file name holds is shown, never obeyed: no control character or
    # bidi override reaches the terminal raw, so none can rewrite the verdict pith printed.
    hostile = "Evil\x1b[1A\x1b[2K\rtrusted\u202e\u009b31m Title"
    title_hash = hashlib.sha256(hostile.lower().encode("utf-8")).hexdigest()
    record = ctx.write("evil.json", json.dumps({"record_type": "pith_number_record", "paper": {"title": hostile},
                                                "canonical_record": {"schema_version": "1.0", "metadata": {
                                                    "submitted_at": "2024-01-01T00:00:00Z", "title_canon_sha256": title_hash},
                                                    "source": {"id": "escapes", "kind": "test", "version": 1}}}))
    name = ctx.path("paper\x1b[2K\u202e.pdf")
    shutil.copy(ctx.article, name)
    raw = ("\x1b", "\r", "\u202e", "\u009b")

    def shown(what, rc, out, err, want):
        print("%s: exit %d\n%s%s" % (what, rc, out, err))
        check(not any(c in out + err for c in raw), "%s: a control character reached the terminal" % what)
        check(want in out + err, "%s: %r is not shown escaped" % (what, want))

    rc, out, err = ctx.run(["stamp", name, "--record", record, "-o", ctx.path("out.pdf")])  # refused: title not shown
    shown("stamp's error", rc, out, err, "Evil\\x1b[1A\\x1b[2K\\x0dtrusted\\u202e\\u009b31m Title")
    rc, out, err = ctx.run(["stamp", name, "--record", record, "-o", ctx.path("stamped\x1b.pdf"), "--no-title-check"])
    check(rc == 0, "stamp --no-title-check: " + err)
    rc, out, err = ctx.run(["verify", ctx.path("stamped\x1b.pdf")])
    shown("verify's findings", rc, out, err, "stamped\\x1b.pdf: INVALID")
    rc, out, err = ctx.run(["verify", name])
    shown("verify's header", rc, out, err, "paper\\x1b[2K\\u202e.pdf: absent")
    rc, out, err = ctx.run(["extract", ctx.path("stamped\x1b.pdf")])
    shown("extract's fields", rc, out, err, "stamped\\x1b.pdf")
    rc, out, err = ctx.run(["verify", "--json", ctx.path("stamped\x1b.pdf")])
    check(json.loads(out)["file"].endswith("stamped\x1b.pdf"), "JSON keeps the file name as it is")


def case_man_page(ctx):
    page = os.path.join(ctx.src, "doc", "pith.1")
    text = open(page, encoding="utf-8").read()
    check(".SH OPTIONS" in text, "no OPTIONS section")
    check("README" not in text, "refers to a README that is not installed")
    # extract's exit 3 without Pith data, as the man page states it.
    rc, _, _ = ctx.run(["extract", ctx.article])
    check(rc == 3, "extract of an unstamped PDF: exit %d" % rc)
    exits = text[text.index(".SH EXIT STATUS"):]
    exits = exits[:exits.index(".SH", 4)]
    check("extract" in exits and "3" in exits, "EXIT STATUS does not give extract's 3")
    # man renders the page without warnings (man-db, in .ci/packages.txt: a missing man fails).
    check(shutil.which("man") is not None, "man is not installed (Debian: man-db), so the man page was not rendered")
    if shutil.which("man"):
        p = subprocess.run(["man", "--warnings", "-l", page], capture_output=True, text=True,
                           env=dict(os.environ, MANPAGER="cat", MANWIDTH="80"))
        check(p.returncode == 0, "man -l fails: " + p.stderr[-500:])
        check(not p.stderr.strip(), "man --warnings: " + p.stderr[-800:])
        print("man -l renders %d lines, no warnings" % len(p.stdout.splitlines()))


def main():
    return case_main(globals(), Ctx, "pith-cli-points-")


if __name__ == "__main__":
    sys.exit(main())
