#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pith:priorSha256 describes exactly the bytes pith stamp copied (issue 15, 2.3), even when
another process rewrites the input while pith stamps it.

The race is taken on purpose, not left to timing: the test hook PITH_TEST_STOP_AT_COPY
(doc/test-hooks.md) stops pith just before or just after it copies the input to the output,
this test (the writer) rewrites bytes inside a stream nobody uses, then lets pith go on. Each
branch must be taken, and checked:

  before  the input changes after pith parsed it, before the copy: stamped; the output holds the
          new bytes, its first priorLength bytes hash to priorSha256, and `pith verify` says of
          it what it says of the file stamped at rest (no pith.prior.mismatch);
  after   the input changes after the copy: refused, exit 2, "changed while pith was stamping
          it  [input.changed]", no output file and no temporary one;
  rest    nothing changes: stamped, as `before`.

usage: input_changing.py --pith PITH --source SRC   (a pith built with PITH_TEST_HOOKS=ON)"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pdfedit  # noqa: E402

PAD = 1 << 20  # the unused stream's length: big enough that a change in it is not the xref's
SPAN = 4096  # bytes the writer rewrites


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def stamp(a, src, out, stop_at=None, change=None):
    """`pith stamp SRC -o OUT`; with `stop_at`, pith stops there (SIGSTOP), `change()` rewrites the
    input, then pith goes on. (exit status, stderr)."""
    env = dict(os.environ)
    env.pop("PITH_TEST_STOP_AT_COPY", None)
    if stop_at:
        env["PITH_TEST_STOP_AT_COPY"] = stop_at
    p = subprocess.Popen([a.pith, "stamp", src, "--record", a.record, "-o", out, "--no-badge"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    if stop_at:
        _, status = os.waitpid(p.pid, os.WUNTRACED)
        if not os.WIFSTOPPED(status):  # it ended: Popen must not wait for it again
            p.returncode = os.waitstatus_to_exitcode(status)
            raise Failure("%s: pith did not stop at the copy (exit %d; built without PITH_TEST_HOOKS?): %s"
                          % (stop_at, p.returncode, p.stderr.read().decode(errors="replace")[-300:]))
        change()
        os.kill(p.pid, signal.SIGCONT)
    _, err = p.communicate(timeout=300)
    return p.returncode, err.decode(errors="replace")


def verify_state(a, path):
    r = subprocess.run([a.pith, "verify", "--json", path], capture_output=True, timeout=300)
    j = json.loads(r.stdout)
    return r.returncode, j["state"], sorted(f["code"] for f in j.get("failure", [])), \
        sorted(f["code"] for f in j.get("informational", []))


def check_stamped(a, label, out, want_bytes, at_rest):
    """The output holds `want_bytes` in its prior part, priorSha256 describes that part, and it
    verifies as the file stamped at rest does."""
    x = subprocess.run([a.pith, "extract", out, "--json"], capture_output=True, timeout=300)
    pith = json.loads(x.stdout)["xmp"]["pith"]
    with open(out, "rb") as f:
        stamped = f.read()
    n = int(pith["priorLength"])
    check(hashlib.sha256(stamped[:n]).hexdigest() == pith["priorSha256"],
          "%s: priorSha256 does not describe the %d bytes written" % (label, n))
    check(want_bytes in stamped[:n], "%s: the output does not hold the input's bytes of the moment of the copy" % label)
    got = verify_state(a, out)
    check("pith.prior.mismatch" not in got[2], "%s: pith.prior.mismatch" % label)
    if at_rest is not None:
        check(got == at_rest, "%s: verify says %r, of the file stamped at rest %r" % (label, got, at_rest))
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    a.record = os.path.join(a.source, "examples", "record.json")
    tmp = tempfile.mkdtemp(prefix="pith-changing-")
    try:
        src = os.path.join(tmp, "in.pdf")
        with open(os.path.join(a.source, "examples", "article.pdf"), "rb") as f:
            data = f.read()
        _, trailer, _ = pdfedit.last_trailer(data)
        padded = pdfedit.append_update(data, {int(pdfedit.trailer_entry(trailer, "Size")): pdfedit.stream("", b"A" * PAD)})
        start = padded.index(b"A" * SPAN) + PAD // 2
        with open(src, "wb") as f:
            f.write(padded)

        def rewrite(byte):
            def change():
                with open(src, "r+b") as f:
                    f.seek(start)
                    f.write(byte * SPAN)
            return change

        rc, err = stamp(a, src, os.path.join(tmp, "rest.pdf"))
        check(rc == 0, "at rest: exit %d: %s" % (rc, err[-300:]))
        at_rest = check_stamped(a, "at rest", os.path.join(tmp, "rest.pdf"), b"A" * SPAN, None)
        print("at rest:               stamped, priorSha256 exact, verify %s %s" % (at_rest[1], at_rest[2] + at_rest[3]))

        out = os.path.join(tmp, "before.pdf")
        rc, err = stamp(a, src, out, "before", rewrite(b"B"))
        check(rc == 0, "changed before the copy: exit %d: %s" % (rc, err[-300:]))
        check_stamped(a, "changed before the copy", out, b"B" * SPAN, at_rest)
        print("changed before copy:   stamped with the new bytes, priorSha256 exact, verify as at rest")

        out = os.path.join(tmp, "after.pdf")
        rc, err = stamp(a, src, out, "after", rewrite(b"C"))
        check(rc == 2 and "changed while pith was stamping it" in err and err.strip().endswith("[input.changed]")
              and len(err.strip().splitlines()) == 1, "changed after the copy: exit %d: %r" % (rc, err[-300:]))
        left = sorted(n for n in os.listdir(tmp) if n.startswith("after") or ".pith-" in n)
        check(not left, "changed after the copy: refused but left %s" % left)
        print("changed after copy:    refused [input.changed], no output")
    except Failure as e:
        print("FAIL " + str(e))
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("all three branches taken")
    return 0


if __name__ == "__main__":
    sys.exit(main())
