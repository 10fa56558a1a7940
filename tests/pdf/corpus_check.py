#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Corpus test for src/pdf: open, read pages, write an incremental update, check it.

usage: corpus_check.py PROBE [--corpus DIR] [--only SUBSTR] [--no-qpdf] [--jobs N]

For each PDF in valid/, signed/, pdfa/, large/ and encrypted/: run PROBE (open,
catalog, every page's geometry, update adding one object + replacing Info),
then check: input is a byte prefix of output; `qpdf --check` shows no new
errors/warnings; pdfsig signature validity unchanged. encrypted/ files that
cannot be opened must fail with a clean error (exit 2). For malformed/: exit 0
or 2 only (never a crash, hang or sanitizer report); if 0, the output must be
a prefix-extension of the input too.
Exit status 0 if everything passed, 1 otherwise (a missing corpus or corpus file too, and a
number of encrypted files refused other than REFUSED_ENCRYPTED's).
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))
import manifest  # noqa: E402

# encrypted/ files the probe refuses cleanly (a public-key or unsupported handler), as measured
# on each corpus: one more refused is a file no longer read, so the count is held.
REFUSED_ENCRYPTED = {"shared": 1, "committed": 0}  # pyhanko-minimal-pubkey-aes256.pdf: public-key handler

# Differences examined by hand and explained (file -> substring of the qpdf line).
KNOWN = {
    # Damaged, linearized input: qpdf checks it through the linearization path and
    # never decodes object 78, whose /Length is wrong. Any incremental update ends
    # linearization, so qpdf then reads every stream and reports the old damage.
    "large/unreadablemetadata.pdf": "recovered stream length",
}

def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", "", ""

def qpdf_lines(path, password, timeout=60):
    cmd = ["qpdf", "--check"]
    if password:
        cmd.append("--password=" + password)
    cmd.append(path)
    rc, out, err = run(cmd, timeout)
    if rc == "timeout" or (isinstance(rc, int) and rc < 0):
        return rc, None
    lines = set()
    for l in (out + err).splitlines():
        l = l.replace(path, "FILE")
        if l.startswith("WARNING") or l.startswith("ERROR") or "error" in l.lower():
            if ("may still contain" in l or "No syntax or stream encoding errors" in l
                    or "errors that qpdf cannot detect" in l):
                continue
            lines.add(l)
    return rc, lines

def pdfsig_valid(path, timeout=60):
    rc, out, err = run(["pdfsig", path], timeout)
    if rc == "timeout":
        return None
    return [l.strip() for l in out.splitlines() if "Signature Validation:" in l]

def check(probe, corpus, rel, password, tmpdir, use_qpdf):
    path = os.path.join(corpus, rel)
    folder = rel.split("/")[0]
    out = os.path.join(tmpdir, rel.replace("/", "__"))
    cmd = [probe, path, out, "--quiet"]
    if password:
        cmd += ["--password", password]
    rc, so, se = run(cmd, 120)
    problems = []
    if rc == "timeout":
        return rel, "FAIL", "probe timed out (>120 s)"
    if "ERROR: AddressSanitizer" in se or "runtime error:" in se:
        return rel, "FAIL", "sanitizer: " + se.strip().splitlines()[0]
    if rc not in (0, 2):
        return rel, "FAIL", "probe crashed (exit %s) %s" % (rc, se.strip()[:200])
    if rc == 2:
        msg = se.strip().replace("error: ", "", 1)
        if folder == "malformed":
            return rel, "ERROR-OK", msg
        if folder == "encrypted" and ("not supported" in msg or "password" in msg):
            return rel, "REFUSED", msg
        return rel, "FAIL", msg
    data_in = open(path, "rb").read()
    data_out = open(out, "rb").read()
    if not data_out.startswith(data_in):
        problems.append("input is not a byte prefix of output")
    if len(data_out) - len(data_in) > 64 * 1024 and folder != "malformed":
        problems.append("update is %d bytes" % (len(data_out) - len(data_in)))
    # Re-open the output with our own reader.
    rc2, so2, se2 = run([probe, out, "--quiet"] + (["--password", password] if password else []), 120)
    if rc2 != 0:
        problems.append("re-open of output failed: " + se2.strip()[:200])
    note = ""
    if use_qpdf and folder != "malformed":
        qi_rc, qi = qpdf_lines(path, password)
        qo_rc, qo = qpdf_lines(out, password)
        if qo is None:
            problems.append("qpdf on output: %s" % qo_rc)
        elif qi is not None:
            new = sorted(l for l in qo - qi if not (rel in KNOWN and KNOWN[rel] in l))
            if len(new) < len(qo - qi):
                note += "known qpdf difference: " + KNOWN[rel] + ";"
            if new:
                problems.append("qpdf new: " + " | ".join(new)[:400])
            if qo_rc != 0 and qi_rc == 0:
                problems.append("qpdf exit %s (input 0)" % qo_rc)
    if use_qpdf and folder == "malformed":
        qo_rc, qo = qpdf_lines(out, password, 30)
        note = "qpdf on output: exit %s" % qo_rc
    if folder == "signed" or b"/ByteRange" in data_in[:]:
        si = pdfsig_valid(path)
        sout = pdfsig_valid(out)
        if si is not None and sout is not None:
            vi = [l for l in si if "Signature is Valid" in l]
            vo = [l for l in sout if "Signature is Valid" in l]
            if len(vo) < len(vi):
                problems.append("pdfsig: %d valid before, %d after" % (len(vi), len(vo)))
            note += " pdfsig valid %d->%d" % (len(vi), len(vo))
    os.unlink(out)
    if problems:
        return rel, "FAIL", "; ".join(problems)
    return rel, "OK", note.strip()

def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 64
    probe = os.path.abspath(args[0])
    corpus = os.environ.get("PITH_SHARED", "")
    corpus = os.path.join(corpus, "corpus") if corpus else ""
    only = None
    use_qpdf = True
    jobs = 2
    i = 1
    while i < len(args):
        if args[i] == "--corpus":
            corpus = args[i + 1]; i += 1
        elif args[i] == "--only":
            only = args[i + 1]; i += 1
        elif args[i] == "--no-qpdf":
            use_qpdf = False
        elif args[i] == "--jobs":
            jobs = int(args[i + 1]); i += 1
        i += 1
    if os.environ.get("PITH_SHARED"):  # the environment overrides the built-in default
        corpus = os.path.join(os.environ["PITH_SHARED"], "corpus")
    held = manifest.load(corpus)  # a missing corpus or corpus file fails
    rows = [(r["file"], r.get("password", "") or "") for r in held.rows()]
    if only:
        rows = [r for r in rows if only in r[0]]
    results = []
    with tempfile.TemporaryDirectory(prefix="pith-corpus-") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            futs = [ex.submit(check, probe, corpus, rel, pw, tmp, use_qpdf) for rel, pw in rows]
            for fu in futs:
                results.append(fu.result())
    counts = {}
    failed = 0
    for rel, status, msg in sorted(results):
        folder = rel.split("/")[0]
        counts.setdefault(folder, {}).setdefault(status, 0)
        counts[folder][status] += 1
        if status == "FAIL":
            failed += 1
        print("%-8s %s %s" % (status, rel, msg))
    print()
    for folder in sorted(counts):
        print("%-10s %s" % (folder, ", ".join("%s=%d" % kv for kv in sorted(counts[folder].items()))))
    if not only:
        held.expect("encrypted files refused", counts.get("encrypted", {}).get("REFUSED", 0), **REFUSED_ENCRYPTED)
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
