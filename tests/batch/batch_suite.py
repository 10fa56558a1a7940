#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CLI tests for `pith batch` (python3 standard library only).

Usage: batch_suite.py --pith PITH --source REPO --shared SHARED CASE

Each case runs in a fresh temporary directory on PDFs it makes itself (copies of
examples/article.pdf, tiny generated PDFs, junk), except `corpus`, which runs over every PDF
of SHARED/corpus and exits 77 (skipped) without it. Test hooks of the batch workers
(doc/test-hooks.md): PITH_BATCH_TEST_CRASH/SEGV/HANG/SPIN/MEMORY=<substring of the
input path>, PITH_BATCH_TEST_SLEEP=<substring>=<seconds>.
"""
import argparse
import csv
import glob
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pdfwriter import classic, stream  # noqa: E402

SKIP = 77
ARGS = None


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def pdf_of(content, annots=b""):
    """A valid one-page PDF showing `content` (Helvetica as /F1), with a correct xref table and,
    optionally, an annotation dictionary."""
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >>"
        + (b" /Annots [6 0 R]" if annots else b"") + b" >>",
        stream("", content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ] + ([annots] if annots else [])
    return classic(objs, version="1.4")


def title_line(title):
    return b"BT /F1 18 Tf 72 720 Td (" + title.encode() + b") Tj ET"


def tiny_pdf(title="Tiny"):
    """A valid one-page PDF showing `title`."""
    return pdf_of(title_line(title))


def tiny_record(title, source_id):
    """An inline pith_number_record (no receipt: verifies `unverified`) whose title is on page 1."""
    meta = {"submitted_at": "2024-01-01T00:00:00Z"}
    rec = {"record_type": "pith_number_record",
           "canonical_record": {"metadata": meta, "schema_version": "1.0", "source": {"id": source_id, "kind": "test", "version": 1}}}
    if title is not None:
        meta["title_canon_sha256"] = hashlib.sha256(title.lower().encode("utf-8")).hexdigest()
        rec["paper"] = {"title": title}
    return rec


def tiny_title(i):
    return "A Tiny Test Paper Number %d" % i


def record_path():
    return os.path.join(ARGS.source, "examples", "record.json")


def make_inputs(d, n_article=4, n_tiny=4, junk=True):
    """Writes inputs to d/in and returns manifest entries {input, record, output} and the expected status."""
    os.makedirs(os.path.join(d, "in"), exist_ok=True)
    entries = []
    for i in range(n_article):
        p = os.path.join("in", "article-%02d.pdf" % i)
        shutil.copy(os.path.join(ARGS.source, "examples", "article.pdf"), os.path.join(d, p))
        entries.append(({"input": p, "record": record_path(), "output": "out/article-%02d.pdf" % i}, "stamped"))
    for i in range(n_tiny):
        p = os.path.join("in", "tiny-%02d.pdf" % i)
        with open(os.path.join(d, p), "wb") as f:
            f.write(tiny_pdf(tiny_title(i)))
        entries.append(({"input": p, "record": tiny_record(tiny_title(i), "tiny-%d" % i), "output": "out/sub/tiny-%02d.pdf" % i}, "stamped"))
    if junk:
        with open(os.path.join(d, "in", "junk.pdf"), "wb") as f:
            f.write(b"this is not a PDF\n" * 10)
        entries.append(({"input": "in/junk.pdf", "record": record_path(), "output": "out/junk.pdf"}, "failed"))
        with open(os.path.join(d, "in", "truncated.pdf"), "wb") as f:
            f.write(b"%PDF-1.4\n%%EOF\n")  # a header and nothing else
        entries.append(({"input": "in/truncated.pdf", "record": record_path(), "output": "out/truncated.pdf"}, "failed"))
        entries.append(({"input": "in/missing.pdf", "record": record_path(), "output": "out/missing.pdf"}, "failed"))
        entries.append(({"input": "in/tiny-00.pdf", "record": "no-such-record.json", "output": "out/norecord.pdf"}, "failed"))
    return entries


def write_manifest(d, entries, name="manifest.jsonl"):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        for e in entries:
            f.write(json.dumps(e[0] if isinstance(e, tuple) else e) + "\n")
    return path


def run(d, *args, env=None, check_rc=None, timeout=600, stdin=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([ARGS.pith] + list(args), cwd=d, env=e, capture_output=True, text=True, timeout=timeout, input=stdin)
    if check_rc is not None and p.returncode not in (check_rc if isinstance(check_rc, (list, tuple)) else [check_rc]):
        fail("pith %s exited %d (wanted %s)\nstdout: %s\nstderr: %s" % (" ".join(args), p.returncode, check_rc, p.stdout, p.stderr[-3000:]))
    return p


def read_report(path):
    with open(path) as f:
        lines = [json.loads(l) for l in f if l.strip()]
    return lines, [l for l in lines if l.get("event") == "file"]


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def temporaries(d):
    found = []
    for root, _, files in os.walk(d):
        found += [os.path.join(root, f) for f in files if ".pith-" in f]
    return found


TITLE_CODES = {"pith.title.not_title", "pith.title.hidden", "pith.title.differs"}


def check_outputs_verify(d, results, passwords=None):
    """Every stamped/skipped output exists, has the reported SHA-256, and `pith verify` accepts it."""
    groups = {}
    for r in results:
        if r["status"] in ("stamped", "skipped"):
            out = os.path.join(d, r["output"])
            check(os.path.exists(out), "output missing: " + out)
            check(sha256_file(out) == r["sha256"], "sha256 in report differs for " + out)
            groups.setdefault((passwords or {}).get(r["output"], ""), []).append(out)
    for password, files in groups.items():
      for i in range(0, len(files), 50):
        chunk = files[i:i + 50]
        p = run(d, "verify", "--json", *(chunk + (["--password", password] if password else [])))
        j = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]  # JSON Lines: one report per file
        for rep in j:
            # A corpus file's record names its first line: where that is no visible title (a logo,
            # a drawing's label: tests/corpus/stamp_suite.py NO_VISIBLE_TITLE) only the title fails.
            title_only = rep["state"] == "invalid" and {f["code"] for f in rep["failure"]} <= TITLE_CODES
            check(rep["state"] in ("trusted", "unverified") or title_only,
                  "pith verify does not accept %s: %s %s" % (rep["file"], rep["state"], rep.get("failure")))


def by_line(results):
    out = {}
    for r in results:
        check(r["line"] not in out, "two results for line %d" % r["line"])
        out[r["line"]] = r
    return out


# ---------------------------------------------------------------------------------------------
def case_manifest_errors(d):
    ok = {"input": "a.pdf", "record": "r.json", "output": "o.pdf"}
    cases = [
        ('%s\n{"input": "b.pdf",\n' % json.dumps(ok), "manifest.jsonl:2"),
        ('%s\n%s\n' % (json.dumps(ok), json.dumps(ok)), "also the output of line 1"),
        ('%s\n{"input":"b","record":"r","output":"p","colour":"red"}\n' % json.dumps(ok), 'manifest.jsonl:2: unknown key "colour"'),
        ('{"input":"b","record":"r"}\n', 'manifest.jsonl:1: "output"'),
    ]
    for text, want in cases:
        with open(os.path.join(d, "manifest.jsonl"), "w") as f:
            f.write(text)
        p = run(d, "batch", "manifest.jsonl", check_rc=2)
        check(want in p.stderr, "wanted %r in %r" % (want, p.stderr))
    p = run(d, "batch", "manifest.jsonl", "--shard", "3/3", check_rc=2)
    check("--shard" in p.stderr, p.stderr)
    p = run(d, "batch", "nonexistent.jsonl", check_rc=2)
    p = run(d, "batch", "--help", check_rc=0)
    check("Examples:" in p.stdout and "--shard" in p.stdout, "help lacks examples")
    # nothing was run: no report, no outputs
    check(not os.path.exists(os.path.join(d, "o.pdf")), "an output was written despite a manifest error")


def case_basic(d):
    entries = make_inputs(d)
    write_manifest(d, entries)
    p = run(d, "batch", "manifest.jsonl", "-j", "2", "--report", "report.jsonl", "--json", "--progress", "lines", check_rc=1)
    summary = json.loads(p.stdout)
    lines, results = read_report(os.path.join(d, "report.jsonl"))
    check(lines[0]["event"] == "start" and lines[-1]["event"] == "end", "report lacks start/end")
    check(len(results) == len(entries), "%d results for %d entries" % (len(results), len(entries)))
    res = by_line(results)
    for i, (e, want) in enumerate(entries, 1):
        r = res[i]
        check(r["input"] == e["input"] and r["output"] == e["output"], "line %d: wrong input/output" % i)
        check(r["status"] == want, "line %d (%s): %s, wanted %s (%s)" % (i, e["input"], r["status"], want, r.get("error")))
        check(isinstance(r["seconds"], (int, float)), "no time spent")
        if want == "failed":
            check(r["error_code"] and r["error"], "failure without code/message: %r" % r)
            check(not os.path.exists(os.path.join(d, e["output"])), "failed file has an output")
    codes = {res[i]["input"]: res[i]["error_code"] for i in res if res[i]["status"] == "failed"}
    check(codes["in/junk.pdf"] == "input.not_pdf", repr(codes))
    check(codes["in/truncated.pdf"] == "pdf.syntax", repr(codes))
    check(codes["in/missing.pdf"] == "input.not_found", repr(codes))
    check(res[len(entries)]["error_code"] == "input.not_found", repr(res[len(entries)]))  # its record is missing
    check(summary["stamped"] == 8 and summary["failed"] == 4 and summary["done"] == len(entries), repr(summary))
    check("files/s" in p.stderr, "no progress lines on stderr")
    check_outputs_verify(d, results)
    check(not temporaries(d), "temporary files left: %r" % temporaries(d))


def case_rerun_no_work(d):
    entries = make_inputs(d, junk=False)
    write_manifest(d, entries)
    run(d, "batch", "manifest.jsonl", "-j", "2", "--report", "r1.jsonl", "-q", check_rc=0)
    stat1 = {e["output"]: os.stat(os.path.join(d, e["output"])) for e, _ in entries}
    p = run(d, "batch", "manifest.jsonl", "-j", "2", "--report", "r2.jsonl", "-q", "--json", check_rc=0)
    s = json.loads(p.stdout)
    check(s["skipped"] == len(entries) and s["stamped"] == 0, repr(s))
    _, r1 = read_report(os.path.join(d, "r1.jsonl"))
    _, r2 = read_report(os.path.join(d, "r2.jsonl"))
    check(all(r["status"] == "skipped" for r in r2), "rerun did work")
    check({r["line"]: r["sha256"] for r in r1} == {r["line"]: r["sha256"] for r in r2}, "sha256 changed on rerun")
    for out, st in stat1.items():
        st2 = os.stat(os.path.join(d, out))
        check((st.st_ino, st.st_mtime_ns) == (st2.st_ino, st2.st_mtime_ns), out + " was rewritten")
    # an output that does not verify (here: replaced by its unstamped input) is redone
    e0 = entries[0][0]
    shutil.copy(os.path.join(d, e0["input"]), os.path.join(d, e0["output"]))
    p = run(d, "batch", "manifest.jsonl", "--report", "r3.jsonl", "-q", "--json", check_rc=0)
    s = json.loads(p.stdout)
    check(s["stamped"] == 1 and s["skipped"] == len(entries) - 1, repr(s))
    # --redo stamps everything again
    p = run(d, "batch", "manifest.jsonl", "--redo", "-q", "--json", check_rc=0)
    check(json.loads(p.stdout)["stamped"] == len(entries), p.stdout)


def resume_after(d, sig):
    entries = [({"input": "in/t-%02d.pdf" % i, "record": tiny_record(tiny_title(i), "t-%d" % i), "output": "out/t-%02d.pdf" % i}, "stamped")
               for i in range(16)]
    os.makedirs(os.path.join(d, "in"))
    for i in range(16):
        with open(os.path.join(d, "in", "t-%02d.pdf" % i), "wb") as f:
            f.write(tiny_pdf(tiny_title(i)))
    write_manifest(d, entries)
    env = dict(os.environ, PITH_BATCH_TEST_SLEEP="in/t-=0.4")
    proc = subprocess.Popen([ARGS.pith, "batch", "manifest.jsonl", "-j", "2", "--report", "r1.jsonl", "--worker-log", "workers.log",
                             "--progress", "none"], cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        time.sleep(0.1)
        if os.path.exists(os.path.join(d, "r1.jsonl")) and len(read_report(os.path.join(d, "r1.jsonl"))[1]) >= 4:
            break
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    lines, r1 = read_report(os.path.join(d, "r1.jsonl"))
    check(0 < len(r1) < 16, "the run was not stopped midway (%d results)" % len(r1))
    if sig == signal.SIGINT:
        check(proc.returncode == 130, "exit %d after SIGINT, wanted 130; %s" % (proc.returncode, err))
        last = lines[-1]
        check(last["event"] == "interrupted" and last["signal"] == "SIGINT", "no interrupted line: %r" % last)
        check(last["done"] == len(r1) and last["remaining"] == 16 - len(r1), repr(last))
        check(last["first_unfinished_line"] is not None, repr(last))
    else:
        check(proc.returncode == -signal.SIGKILL, "exit %d" % proc.returncode)
    # no worker outlives the batch, no half-written output
    time.sleep(0.5)
    pids = [int(l.split("pid=")[1].split()[0]) for l in open(os.path.join(d, "workers.log")) if " start pid=" in l]
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as f:
                check(f.read().split(")")[-1].split()[0] == "Z", "worker %d still running after the batch ended" % pid)
        except FileNotFoundError:
            pass
    done = {r["output"] for r in r1}
    for e, _ in entries:
        out = os.path.join(d, e["output"])
        if os.path.exists(out) and e["output"] not in done:
            # finished by a worker after the last report line: must be complete (rename is atomic)
            p = run(d, "verify", out)
            check(p.returncode in (0, 4), "half-written output " + out)
    # a temporary left by a worker killed mid-write (simulated) is removed by the rerun
    stale = os.path.join(d, "out", ".t-15.pdf.pith-AbC123")
    if os.path.isdir(os.path.join(d, "out")):
        open(stale, "w").write("partial")
    check([t for t in temporaries(d) if t != stale] == [], "temporary files left: %r" % temporaries(d))
    p = run(d, "batch", "manifest.jsonl", "-j", "2", "--report", "r2.jsonl", "-q", "--json", check_rc=0)
    _, r2 = read_report(os.path.join(d, "r2.jsonl"))
    check(len(r2) == 16 and all(r["ok"] for r in r2), "rerun did not finish every file")
    for r in r2:
        if r["output"] in done:
            check(r["status"] == "skipped", "finished file redone: %r" % r)
    check({r["input"] for r in r1} | {r["input"] for r in r2} == {e["input"] for e, _ in entries}, "union does not cover all inputs")
    check(not temporaries(d), "temporary files left after the rerun: %r" % temporaries(d))
    check_outputs_verify(d, r2)


def case_interrupted_resumes(d):
    resume_after(d, signal.SIGINT)


def case_killed_resumes(d):
    resume_after(d, signal.SIGKILL)


def case_worker_crash(d):
    entries = make_inputs(d, n_article=2, n_tiny=3, junk=False)
    write_manifest(d, entries)
    t = time.time()
    p = run(d, "batch", "manifest.jsonl", "-j", "2", "--report", "r.jsonl", "-q", "--json", "--retries", "1",
            env={"PITH_BATCH_TEST_CRASH": "tiny-01", "PITH_BATCH_TEST_SEGV": "tiny-02"}, check_rc=1)
    _, rs = read_report(os.path.join(d, "r.jsonl"))
    check(len(rs) == len(entries), "not one result per input")
    for r in rs:
        if "tiny-01" in r["input"] or "tiny-02" in r["input"]:
            check(r["status"] == "failed" and r["error_code"] == "worker.crashed", repr(r))
            check(r["attempts"] == 2, "a crashed worker was not retried once: %r" % r)
            want = "SIGABRT" if "tiny-01" in r["input"] else "SIGSEGV"
            check(want in r["error"] and r["signal"] == want, repr(r))
        else:
            check(r["status"] == "stamped", repr(r))
    check(json.loads(p.stdout)["retried"] == 2, p.stdout)
    check(not temporaries(d), "temporary files left")


def kill_worker(worker_log, name):
    """SIGKILLs the worker for the entry `name` once --worker-log shows it started."""
    victim = None
    deadline = time.time() + 30
    while victim is None and time.time() < deadline:
        time.sleep(0.05)
        if os.path.exists(worker_log):
            for l in open(worker_log):
                if " start pid=" in l and name in l:
                    victim = int(l.split("pid=")[1].split()[0])
    check(victim, "worker for %s never started" % name)
    time.sleep(0.3)
    os.kill(victim, signal.SIGKILL)


def case_worker_killed_retried(d):
    """A worker killed from outside mid-file (PID from --worker-log) is retried and the file stamped."""
    entries = make_inputs(d, n_article=1, n_tiny=3, junk=False)
    write_manifest(d, entries)
    env = dict(os.environ, PITH_BATCH_TEST_SLEEP="tiny-01=2")
    proc = subprocess.Popen([ARGS.pith, "batch", "manifest.jsonl", "-j", "2", "--report", "r.jsonl", "--worker-log", "w.log", "-q"],
                            cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kill_worker(os.path.join(d, "w.log"), "tiny-01")
    out, err = proc.communicate(timeout=120)
    check(proc.returncode == 0, "exit %d: %s" % (proc.returncode, err))
    _, rs = read_report(os.path.join(d, "r.jsonl"))
    r = [x for x in rs if "tiny-01" in x["input"]][0]
    check(r["status"] == "stamped" and r["attempts"] == 2, "killed worker not retried: %r" % r)
    check(len(rs) == len(entries) and all(x["ok"] for x in rs), "not every file done")
    # with --retries 0 the kill is reported as a clean failure
    proc = subprocess.Popen([ARGS.pith, "batch", "manifest.jsonl", "--redo", "-j", "2", "--retries", "0", "--report", "r2.jsonl",
                             "--worker-log", "w2.log", "-q"], cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kill_worker(os.path.join(d, "w2.log"), "tiny-01")
    proc.communicate(timeout=120)
    check(proc.returncode == 1, "exit %d" % proc.returncode)
    _, rs = read_report(os.path.join(d, "r2.jsonl"))
    r = [x for x in rs if "tiny-01" in x["input"]][0]
    check(r["status"] == "failed" and r["error_code"] == "worker.crashed" and "SIGKILL" in r["error"], repr(r))
    check(sum(x["ok"] for x in rs) == len(entries) - 1, "the others were not done")


def case_worker_timeout(d):
    entries = make_inputs(d, n_article=2, n_tiny=6, junk=False)
    write_manifest(d, entries)
    t = time.time()
    # 10 s a file: the stuck ones reach it, a stamp and check of the article never does, however
    # loaded the machine (about 1 s of CPU).
    p = run(d, "batch", "manifest.jsonl", "-j", "2", "--timeout", "10", "--report", "r.jsonl", "-q",
            env={"PITH_BATCH_TEST_HANG": "tiny-00", "PITH_BATCH_TEST_SPIN": "tiny-03"}, check_rc=1)
    took = time.time() - t
    _, rs = read_report(os.path.join(d, "r.jsonl"))
    check(len(rs) == len(entries), "not one result per input")
    for r in rs:
        if "tiny-00" in r["input"] or "tiny-03" in r["input"]:
            check(r["status"] == "failed" and r["error_code"] == "worker.timeout", repr(r))
            check(r["attempts"] == 1, "a timeout was retried")
        else:
            check(r["status"] == "stamped", repr(r))
    # the two stuck files cost one slot each for 10 s; the rest ran beside them (about 11 s).
    # A generous budget, the figure printed: a loaded machine stretches wall-clock time, and a batch
    # that waited for a hung worker would never end (ctest's timeout).
    print("worker_timeout: the batch took %.1f s (budget 60 s)" % took)
    check(took < 60, "a hanging file slowed the batch: %.1f s" % took)


def case_worker_memory(d):
    entries = make_inputs(d, n_article=1, n_tiny=2, junk=False)
    write_manifest(d, entries)
    p = run(d, "batch", "manifest.jsonl", "-j", "2", "--memory", "512", "--report", "r.jsonl", "-q",
            env={"PITH_BATCH_TEST_MEMORY": "tiny-01"}, check_rc=1)
    _, rs = read_report(os.path.join(d, "r.jsonl"))
    r = [x for x in rs if "tiny-01" in x["input"]][0]
    check(r["status"] == "failed" and r["error_code"] in ("worker.memory", "worker.crashed"), repr(r))
    check(r["error_code"] == "worker.memory", "memory limit not reported as worker.memory: %r" % r)
    check(sum(x["ok"] for x in rs) == 2, "others not done")


def case_shard(d):
    entries = make_inputs(d, n_article=3, n_tiny=9, junk=False)
    write_manifest(d, entries)
    n = 3
    seen = {}
    for i in range(n):
        run(d, "batch", "manifest.jsonl", "--shard", "%d/%d" % (i, n), "-j", "1", "--report", "r%d.jsonl" % i, "-q", check_rc=0)
        lines, rs = read_report(os.path.join(d, "r%d.jsonl" % i))
        check(lines[0]["shard"] == "%d/%d" % (i, n), "start line lacks the shard")
        for r in rs:
            check(r["line"] not in seen, "line %d in shards %d and %d" % (r["line"], seen.get(r["line"], -1), i))
            seen[r["line"]] = i
    check(sorted(seen) == list(range(1, len(entries) + 1)), "shards do not cover the manifest")
    check(len(set(seen.values())) > 1, "every entry in one shard")
    # a big manifest, by --dry-run, in shuffled order too: disjoint, complete, order-independent
    big = [{"input": "p/%d.pdf" % i, "record": "r.json", "output": "o/%d.pdf" % i} for i in range(2000)]
    write_manifest(d, big, "big.jsonl")
    write_manifest(d, list(reversed(big)), "big-rev.jsonl")
    for n in (1, 2, 5, 16):
        union = []
        for i in range(n):
            a = sorted(l.split("\t")[1] for l in run(d, "batch", "big.jsonl", "--dry-run", "--shard", "%d/%d" % (i, n), check_rc=0).stdout.splitlines())
            b = sorted(l.split("\t")[1] for l in run(d, "batch", "big-rev.jsonl", "--dry-run", "--shard", "%d/%d" % (i, n), check_rc=0).stdout.splitlines())
            check(a == b, "shard %d/%d depends on manifest order" % (i, n))
            union += a
        check(len(union) == 2000 and len(set(union)) == 2000, "shards of %d not disjoint and complete" % n)
    # merging the shard reports gives one result per entry (jq, in .ci/packages.txt: a missing jq fails)
    check(shutil.which("jq") is not None, "jq is not installed, so merge-reports.sh was not run")
    if shutil.which("jq"):
        p = subprocess.run([os.path.join(ARGS.source, "examples", "batch", "merge-reports.sh")] + ["r%d.jsonl" % i for i in range(3)],
                           cwd=d, capture_output=True, text=True)
        check(p.returncode == 0, "merge-reports.sh failed: " + p.stderr)
        merged = [json.loads(l) for l in p.stdout.splitlines()]
        check(len(merged) == len(entries), "merged %d of %d" % (len(merged), len(entries)))


def verify_states(d, files):
    """pith verify --json of each file: {file: (state, failure codes)}."""
    p = run(d, "verify", "--json", *files)
    reps = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    return {r["file"]: (r["state"], sorted(f["code"] for f in r["failure"])) for r in reps}


def case_verdicts(d):
    """One verdict per file (issue 31): every stamped or skipped line carries the state its check
    gives, which is pith verify's, the same on a rerun; no_title_check never hides an invalid
    verdict; every warning of the stamp reaches the report; damage is named as damage."""
    os.makedirs(os.path.join(d, "in"))
    t = [tiny_title(i) for i in range(4)]
    files = {
        "plain": pdf_of(title_line(t[0])),
        "other-title": pdf_of(title_line(t[1])),  # stamped with another paper's record and no_title_check
        "unchecked-ok": pdf_of(title_line(t[2])),  # no_title_check where the title is there
        "grey": pdf_of(b"0.8 g 0 0 612 792 re f 0 g " + title_line(t[3])),  # no free spot: the badge is boxed
    }
    for name, data in files.items():
        open(os.path.join(d, "in", name + ".pdf"), "wb").write(data)
    entries = [
        {"input": "in/plain.pdf", "record": tiny_record(t[0], "v-0"), "output": "out/plain.pdf"},
        {"input": "in/other-title.pdf", "record": tiny_record("Quite Another Paper Altogether", "v-1"), "output": "out/other-title.pdf",
         "no_title_check": True},
        {"input": "in/unchecked-ok.pdf", "record": tiny_record(t[2], "v-2"), "output": "out/unchecked-ok.pdf", "no_title_check": True},
        {"input": "in/grey.pdf", "record": tiny_record(t[3], "v-3"), "output": "out/grey.pdf"},
    ]
    # a paper whose page 1 already links to its number (pith.sty's badge), stamped with qr: no QR is drawn
    write_manifest(d, [dict(entries[0], output="probe/plain.pdf")], "probe.jsonl")
    run(d, "batch", "probe.jsonl", "--no-check", "--report", "probe.jsonl.out", "-q", check_rc=0)
    number = read_report(os.path.join(d, "probe.jsonl.out"))[1][0]["number"]
    link = b"<< /Type /Annot /Subtype /Link /Rect [400 700 560 730] /A << /S /URI /URI (https://pith.science/pith/%s) >> >>" % (
        number.split(":")[-1].encode())
    open(os.path.join(d, "in", "sty.pdf"), "wb").write(pdf_of(title_line(t[0]) + b" BT /F1 9 Tf 400 710 Td (pith:" + number.split(":")[-1][:8].encode() + b") Tj ET", link))
    entries.append({"input": "in/sty.pdf", "record": tiny_record(t[0], "v-0"), "output": "out/sty.pdf", "qr": True})
    # damage: a paper cut short (pdfTeX writes the catalog near the end), and one whose xref offsets are wrong
    article = open(os.path.join(ARGS.source, "examples", "article.pdf"), "rb").read()
    open(os.path.join(d, "in", "cut.pdf"), "wb").write(article[:len(article) * 2 // 3])
    shifted = bytearray(pdf_of(title_line(t[0])))
    at = shifted.index(b"xref\n0 6\n") + len(b"xref\n0 6\n0000000000 65535 f \n")
    shifted[at:at + 10] = b"%010d" % (int(shifted[at:at + 10]) + 7)
    open(os.path.join(d, "in", "badxref.pdf"), "wb").write(bytes(shifted))
    entries += [{"input": "in/cut.pdf", "record": record_path(), "output": "out/cut.pdf"},
                {"input": "in/badxref.pdf", "record": tiny_record(t[0], "v-0"), "output": "out/badxref.pdf"}]
    write_manifest(d, entries)

    run(d, "batch", "manifest.jsonl", "-j", "2", "--report", "r1.jsonl", "-q", check_rc=1)
    run(d, "batch", "manifest.jsonl", "-j", "2", "--report", "r2.jsonl", "-q", check_rc=1)
    first = {r["input"]: r for r in read_report(os.path.join(d, "r1.jsonl"))[1]}
    again = {r["input"]: r for r in read_report(os.path.join(d, "r2.jsonl"))[1]}
    made = [first[e["input"]] for e in entries if first[e["input"]]["status"] == "stamped"]
    check(len(made) == 5, "stamped: %r" % {k: (r["status"], r.get("error")) for k, r in first.items()})
    verdict = verify_states(d, [r["output"] for r in made])
    for r in made:
        want, codes = verdict[r["output"]]
        check(r["state"] == want and sorted(r["failures"]) == codes, "%s: the report says %s %r, pith verify %s %r" % (r["input"], r["state"], r["failures"], want, codes))
        a = again[r["input"]]
        check(a["status"] == "skipped" and a["state"] == r["state"] and a["failures"] == r["failures"] and a["ok"] == r["ok"],
              "%s: the rerun says %s %s, the first run %s %s" % (r["input"], a["status"], a.get("state"), r["status"], r["state"]))
    print("states, as pith verify gives them, on both runs: " + ", ".join("%s %s" % (r["input"], r["state"]) for r in made))
    # no_title_check: the verdict pith verify gives, said in the warnings, on both runs
    bad = first["in/other-title.pdf"]
    check(bad["state"] == "invalid" and "pith.title.differs" in bad["failures"], repr(bad))
    for r in (bad, again["in/other-title.pdf"], first["in/unchecked-ok.pdf"]):
        check(any("title not checked" in w and "pith verify says " + r["state"] in w for w in r.get("warnings", [])), "no title warning: %r" % r)
    check("warnings" not in first["in/plain.pdf"] and first["in/plain.pdf"]["state"] == "unverified", repr(first["in/plain.pdf"]))
    # the stamp's warnings
    grey = first["in/grey.pdf"]
    check(grey["badge_boxed"] and any("box" in w for w in grey.get("warnings", [])), "boxed badge without a warning: %r" % grey)
    sty = first["in/sty.pdf"]
    check(sty.get("latex_badge_kept") and "badge_page" not in sty and any("QR code asked for is not drawn" in w for w in sty.get("warnings", [])),
          "QR not drawn without a warning: %r" % sty)
    # --no-check: no verdict (state null), and a no_title_check line says what was not checked
    shutil.rmtree(os.path.join(d, "out"))
    run(d, "batch", "manifest.jsonl", "--no-check", "-j", "2", "--report", "r3.jsonl", "-q", check_rc=1)
    unchecked = {r["input"]: r for r in read_report(os.path.join(d, "r3.jsonl"))[1]}
    check(all(r["state"] is None for r in unchecked.values() if r["status"] == "stamped"), "--no-check with a state: %r" % unchecked)
    check(any("title not checked" in w and "--no-check" in w for w in unchecked["in/other-title.pdf"].get("warnings", [])),
          "no_title_check with --no-check, no warning: %r" % unchecked["in/other-title.pdf"])
    # damage named as damage
    cut, xref = first["in/cut.pdf"], first["in/badxref.pdf"]
    # Damage pith cannot read around is pdf.syntax, not "damaged PDF" (which --allow-damaged stamps)
    check(cut["status"] == "failed" and "truncated" in cut["error"] and cut["error_code"] == "pdf.syntax", "cut short: %r" % cut)
    check(xref["status"] == "failed" and xref["error_code"] == "pdf.damaged" and "damaged PDF" in xref["error"], "broken xref: %r" % xref)
    print("cut short: %s\nbroken xref: %s" % (cut["error"], xref["error"]))


def case_verify_mode(d):
    entries = make_inputs(d, n_article=2, n_tiny=2, junk=True)
    write_manifest(d, entries)
    run(d, "batch", "manifest.jsonl", "-q", check_rc=1)
    # the same manifest with --verify checks each output
    p = run(d, "batch", "--verify", "manifest.jsonl", "--report", "v.jsonl", "-q", "--json", "--accept-unverified", check_rc=1)
    _, rs = read_report(os.path.join(d, "v.jsonl"))
    res = by_line(rs)
    for i, (e, want) in enumerate(entries, 1):
        r = res[i]
        if want == "stamped":
            check(r["status"] == "unverified" and r["ok"] and r["sha256"] == sha256_file(os.path.join(d, e["output"])), repr(r))
        else:
            check(r["status"] == "unreadable" and not r["ok"], repr(r))
    # bare paths on standard input: stamped, unstamped and junk
    listing = "out/article-00.pdf\nin/tiny-01.pdf\nin/junk.pdf\n"
    p = run(d, "batch", "--verify", "-", "--report", "-", "-q", stdin=listing, check_rc=1)
    rs = [json.loads(l) for l in p.stdout.splitlines() if json.loads(l).get("event") == "file"]
    got = {r["input"]: r["status"] for r in rs}
    check(got == {"out/article-00.pdf": "unverified", "in/tiny-01.pdf": "absent", "in/junk.pdf": "unreadable"}, repr(got))


def case_examples(d):
    os.symlink(os.path.join(ARGS.source, "examples"), os.path.join(d, "examples"))
    p = run(d, "batch", os.path.join("examples", "batch", "manifest.jsonl"), "--report", "r.jsonl", "-q", check_rc=0)
    _, rs = read_report(os.path.join(d, "r.jsonl"))
    check(len(rs) == 4 and all(r["status"] == "stamped" for r in rs), repr(rs))
    check_outputs_verify(d, rs)
    for f in ("gnu-parallel.sh", "merge-reports.sh"):
        check(subprocess.run(["sh", "-n", os.path.join(ARGS.source, "examples", "batch", f)]).returncode == 0, f + " syntax")
    check(subprocess.run(["bash", "-n", os.path.join(ARGS.source, "examples", "batch", "slurm-array.sbatch")]).returncode == 0, "sbatch syntax")


def case_gnu_parallel(d):
    if not shutil.which("parallel") or not shutil.which("jq"):  # both in .ci/packages.txt
        fail("GNU parallel or jq is not installed")
    entries = make_inputs(d, n_article=3, n_tiny=5, junk=False)
    write_manifest(d, entries)
    env = dict(os.environ, PITH=ARGS.pith, HOME=d)
    script = os.path.join(ARGS.source, "examples", "batch", "gnu-parallel.sh")
    p = subprocess.run([script, "manifest.jsonl", "3", "reports"], cwd=d, env=env, capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, "gnu-parallel.sh exited %d: %s" % (p.returncode, p.stderr))
    merged = [json.loads(l) for l in open(os.path.join(d, "reports", "merged.jsonl"))]
    check(len(merged) == len(entries) and all(r["status"] == "stamped" for r in merged), repr(merged))
    # again: everything is skipped, and the merge keeps the last (skipped) result per file
    p = subprocess.run([script, "manifest.jsonl", "3", "reports"], cwd=d, env=env, capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, p.stderr)
    merged = [json.loads(l) for l in open(os.path.join(d, "reports", "merged.jsonl"))]
    check(len(merged) == len(entries) and all(r["status"] == "skipped" for r in merged), repr(merged))


# The shared corpus's size and the floor of files batch must stamp there, stated here (measured:
# 64 of 147 stamped, the rest refused as pith stamp refuses them; 66 before the closed list, which
# refuses an XFA form and a file with a document-level script among them). A corpus that lost
# files, or a batch that stamps fewer, fails.
CORPUS_FILES = 147
CORPUS_STAMPED = 64


def corpus_count_problems(files, stamped):
    problems = []
    if files != CORPUS_FILES:
        problems.append("%d corpus files, batch_suite.py states %d" % (files, CORPUS_FILES))
    if stamped < CORPUS_STAMPED or not stamped:
        problems.append("batch stamped %d corpus files, below the floor of %d" % (stamped, CORPUS_STAMPED))
    return problems


def corpus_mismatches(entries, res, singles):
    """Where batch (res: line -> result) and `pith stamp` on each file alone (singles: (exit,
    stderr, exit of pith verify on its output or None), or None for a file not compared) disagree. A file whose single output does
    not verify must be failed by batch as output.unverifiable: batch checks its outputs."""
    mismatches = []
    for i, (e, single) in enumerate(zip(entries, singles), 1):
        if single is None:  # not compared (a sample)
            continue
        rc, err, verified = single
        got = res[i]
        if rc == 0 and verified not in (0, 4):
            if got["status"] != "failed" or got.get("error_code") != "output.unverifiable":
                mismatches.append("%s: batch %s [%s], but pith stamp's output does not verify (exit %s): wanted "
                                  "failed [output.unverifiable]" % (e["input"], got["status"], got.get("error_code"), verified))
            continue
        want = "stamped" if rc == 0 else "failed"
        if got["status"] != want:
            mismatches.append("%s: batch %s (%s), pith stamp exit %d" % (e["input"], got["status"], got.get("error"), rc))
        elif want == "failed":
            line = err.strip().splitlines()[-1] if err.strip() else ""
            if line != "pith: %s  [%s]" % (got["error"], got["error_code"]):
                mismatches.append("%s: batch says %r [%s], pith stamp %r" % (e["input"], got["error"], got["error_code"], line))
            if ("damaged PDF" in line) != (got["error_code"] == "pdf.damaged"):
                mismatches.append("%s: error_code %s for %r" % (e["input"], got["error_code"], line))
    return mismatches


def independent_problems(e, out):
    """What tools other than pith find wrong with a stamped output: it must begin with every byte of
    the input (pith appends an update) and open in poppler's pdfinfo whenever the input does."""
    with open(e["input"], "rb") as f:
        original = f.read()
    with open(out, "rb") as f:
        if f.read(len(original)) != original:
            return ["%s: the output does not begin with the input's bytes" % e["input"]]
    pw = ["-upw", e["password"]] if "password" in e else []
    opens = lambda path: subprocess.run(["pdfinfo"] + pw + [path], capture_output=True, timeout=120).returncode == 0  # noqa: E731
    if opens(e["input"]) and not opens(out):
        return ["%s: pdfinfo opens the input but not the stamped output" % e["input"]]
    return []


def case_corpus_selftest(d):
    """The corpus comparison and floor on made-up answers (planted faults must fail; no corpus)."""
    e = [{"input": "in/%d.pdf" % i} for i in range(3)]
    ok = {"status": "stamped"}
    refused = {"status": "failed", "error": "in/1.pdf: damaged PDF", "error_code": "pdf.damaged"}
    err = "pith: in/1.pdf: damaged PDF  [pdf.damaged]\n"
    good = ({1: ok, 2: refused, 3: {"status": "failed", "error_code": "output.unverifiable", "error": "x"}},
            [(0, "", 4), (2, err, None), (0, "", 1)])
    cases = [("batch and pith stamp agree", good[0], good[1], True),
             ("batch stamps a file whose single output does not verify", {**good[0], 3: ok}, good[1], False),
             ("batch stamps a file pith stamp refuses", {**good[0], 2: ok}, good[1], False),
             ("batch refuses a file pith stamp stamps", {**good[0], 1: refused}, good[1], False),
             ("batch fails it with another code", {**good[0], 2: dict(refused, error_code="pdf.syntax")}, good[1], False)]
    bad = [what for what, res, singles, agree in cases if (not corpus_mismatches(e, res, singles)) != agree]
    floors = [("the corpus at its floor", CORPUS_FILES, CORPUS_STAMPED, True),
              ("one file fewer stamped", CORPUS_FILES, CORPUS_STAMPED - 1, False),
              ("nothing stamped", CORPUS_FILES, 0, False),
              ("a corpus file dropped", CORPUS_FILES - 1, CORPUS_STAMPED, False)]
    bad += [what for what, files, stamped, fine in floors if (not corpus_count_problems(files, stamped)) != fine]
    # the independent check on a planted bad output: one that does not begin with the input's bytes
    if not shutil.which("pdfinfo"):
        print("pdfinfo not installed; skipping")
        return SKIP
    with open(os.path.join(d, "in.pdf"), "wb") as f:
        f.write(tiny_pdf())
    if independent_problems({"input": os.path.join(d, "in.pdf")}, os.path.join(d, "in.pdf")):
        bad.append("the input as its own output")
    with open(os.path.join(d, "cut.pdf"), "wb") as f:
        f.write(tiny_pdf()[:-40])
    if not independent_problems({"input": os.path.join(d, "in.pdf")}, os.path.join(d, "cut.pdf")):
        bad.append("an output that lost the input's end")
    print("%d cases: %s" % (len(cases) + len(floors) + 2, "WRONG: %s" % bad if bad else "every planted fault fails"))
    check(not bad, "the corpus comparison passes planted faults: %s" % bad)


def case_corpus(d):
    corpus = os.path.join(ARGS.shared, "corpus")
    if not os.path.exists(os.path.join(corpus, "MANIFEST.tsv")):
        print("corpus not found at %s; skipping corpus tests" % corpus)
        return SKIP
    rows = list(csv.DictReader(open(os.path.join(corpus, "MANIFEST.tsv")), delimiter="\t"))
    entries = []
    os.makedirs(os.path.join(d, "records"))
    for i, row in enumerate(rows):
        # a record per file whose title is the first line of page 1 (as tests/corpus/stamp_suite.py does)
        title = None
        cmd = ["pdftotext", "-q", "-f", "1", "-l", "1"] + (["-upw", row["password"]] if row["password"] else []) + \
              [os.path.join(corpus, row["file"]), "-"]
        try:
            q = subprocess.run(cmd, capture_output=True, timeout=60)
            if q.returncode == 0:
                for line in q.stdout.decode("utf-8", "replace").split("\n"):
                    if line.strip():
                        title = line.rstrip("\f")
                        break
        except subprocess.TimeoutExpired:
            pass
        rec = os.path.join(d, "records", "%03d.json" % i)
        with open(rec, "w", encoding="utf-8") as f:
            json.dump(tiny_record(title, row["file"]), f)
        e = {"input": os.path.join(corpus, row["file"]), "record": rec, "output": "out/%s" % row["file"]}
        if row["password"]:
            e["password"] = row["password"]
        entries.append(e)
    check(len(entries) == len(glob.glob(os.path.join(corpus, "*", "*.pdf"))), "MANIFEST.tsv does not list every corpus PDF")
    write_manifest(d, entries)
    p = run(d, "batch", "manifest.jsonl", "-j", "2", "--timeout", "120", "--report", "r.jsonl", "--json", "--progress", "lines",
            "--progress-interval", "5", check_rc=[0, 1], timeout=1800)
    summary = json.loads(p.stdout)
    _, rs = read_report(os.path.join(d, "r.jsonl"))
    check(len(rs) == len(entries), "%d results for %d corpus files" % (len(rs), len(entries)))
    res = by_line(rs)
    # the right status: what `pith stamp` says about the same file on its own (every third file by
    # the manifest's order, or each with --full: batch runs the same stamp in its workers)
    singles = []
    for i, e in enumerate(entries):
        if not ARGS.full and i % 3:
            singles.append(None)
            continue
        args = ["stamp", e["input"], "--record", e["record"], "-o", os.path.join(d, "single.pdf")]
        if "password" in e:
            args += ["--password", e["password"]]
        q = run(d, *args, timeout=300)
        v = None
        if q.returncode == 0:
            v = run(d, "verify", os.path.join(d, "single.pdf"), *(["--password", e["password"]] if "password" in e else [])).returncode
        singles.append((q.returncode, q.stderr, v))
    mismatches = corpus_mismatches(entries, res, singles)
    # and what tools other than pith say: a stamped output keeps the input's bytes as its start
    # (an incremental update) and poppler opens it whenever it opens the input
    mismatches += [m for i, e in enumerate(entries, 1) if res[i]["status"] == "stamped"
                   for m in independent_problems(e, os.path.join(d, e["output"]))]
    stamped = sum(1 for r in rs if r["status"] == "stamped")
    mismatches += corpus_count_problems(len(entries), stamped)
    check(not mismatches, "\n".join(mismatches))
    check_outputs_verify(d, rs, {e["output"]: e["password"] for e in entries if "password" in e})
    check(not temporaries(d), "temporary files left")
    # a rerun does no work
    p = run(d, "batch", "manifest.jsonl", "-j", "2", "--report", "r2.jsonl", "--json", "-q", check_rc=[0, 1], timeout=1800)
    s2 = json.loads(p.stdout)
    check(s2["stamped"] == 0 and s2["skipped"] == summary["stamped"], "rerun: %r after %r" % (s2, summary))
    counts = {}
    for r in rs:
        counts[r["input"].split("/")[-2] + ":" + r["status"]] = counts.get(r["input"].split("/")[-2] + ":" + r["status"], 0) + 1
    print("corpus: %r; %.1f files/s" % (dict(sorted(counts.items())), summary["files_per_second"]))


def parse_args(cases=None):
    """`--pith PITH --source SRC [--shared DIR] CASE` (CASE one of `cases` when given), kept in ARGS."""
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--shared", default=os.environ.get("PITH_SHARED", ""))
    ap.add_argument("--full", action="store_true", help="corpus: compare every file with pith stamp alone, not every third")
    ap.add_argument("case", choices=cases)
    ARGS = ap.parse_args()
    ARGS.pith = os.path.abspath(ARGS.pith)
    ARGS.source = os.path.abspath(ARGS.source)
    if os.environ.get("PITH_SHARED"):
        ARGS.shared = os.environ["PITH_SHARED"]
    ARGS.shared = os.path.abspath(ARGS.shared or os.path.join(ARGS.source, "..", "shared"))
    return ARGS


def run_case(fn, prefix):
    """fn(d) in a fresh directory `d` that is also HOME, without pith's keyring or batch test
    hooks from the caller's environment; exits 77 when fn returns SKIP."""
    d = tempfile.mkdtemp(prefix=prefix)
    os.environ["HOME"] = d
    os.environ.pop("PITH_KEYRING", None)
    for k in list(os.environ):
        if k.startswith("PITH_BATCH_TEST_"):
            del os.environ[k]
    try:
        rc = fn(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if rc == SKIP:
        sys.exit(SKIP)
    print("ok " + ARGS.case)


def main():
    parse_args()
    fn = globals().get("case_" + ARGS.case)
    if not fn:
        fail("unknown case " + ARGS.case)
    run_case(fn, "pith-batch-")


if __name__ == "__main__":
    main()
