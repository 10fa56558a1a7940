# SPDX-License-Identifier: MIT
"""Bounded work on hostile input (issue 15, section 1): every shape make_bombs.py writes must
leave `pith verify`, `pith extract` and `pith stamp` within a time and resident-memory bound, with
a clear one-line error or a state that is not trusted; decompression and parse bombs must be
refused as pdf.too_large; and `pith verify BOMB good.pdf` must still verify good.pdf.

    bomb_suite.py --pith PITH --work DIR [--seconds 10] [--mib 512] [--report] SHAPE...

Time is CPU time (user + system) and memory the peak resident set, both of the pith process and
the children it waited for (os.wait4): the work a run does, which a loaded machine does not
stretch as it stretches wall-clock time. The wall-clock time is printed beside it, and a run that
takes longer than --timeout (6 x --seconds) is killed as a hang. --report prints the figures without judging them (for the before/after table in
doc/limits.md), killing a run after 60 s."""
import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_bombs  # noqa: E402

# The runs of each shape that must refuse it as pdf.too_large with the default limits. The
# ToUnicode and form bombs only matter where a reader lays the page out: verify of a stamped paper.
EVERY = {"verify", "extract", "stamp", "verify-two"}
STAMPED = {"stamp", "verify-stamped", "verify-two"}
TOO_LARGE = {"tounicode_shared": STAMPED, "contents_repeated": EVERY, "names_40m": EVERY, "xmp_flate_lzw": EVERY,
             "objstm_4x480": EVERY, "revisions_12k": EVERY, "recursive_forms": STAMPED, "deep_nesting": set()}  # nesting past 256: damaged (exit 2)


class Failure(Exception):
    pass


def run(argv, env, timeout):
    """(exit status or None on timeout, stdout, stderr, CPU seconds, peak RSS in MiB, wall seconds) of one run."""
    start = time.monotonic()
    with open(os.devnull, "rb") as stdin:
        p = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                             start_new_session=True)
    # Read both pipes on threads so that wait4 is ours (and so the rusage is this child's).
    chunks = {"out": [], "err": []}

    def drain(stream, key):
        for block in iter(lambda: stream.read(65536), b""):
            chunks[key].append(block)

    readers = [threading.Thread(target=drain, args=(p.stdout, "out")), threading.Thread(target=drain, args=(p.stderr, "err"))]
    for t in readers:
        t.start()
    timed_out = False
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - start > timeout:
            os.killpg(p.pid, signal.SIGKILL)
            timed_out = True
            pid, status, usage = os.wait4(p.pid, 0)
            break
        time.sleep(0.02)
    wall = time.monotonic() - start
    for t in readers:
        t.join()
    p.returncode = os.waitstatus_to_exitcode(status)  # keep Popen from reaping again
    rc = None if timed_out else p.returncode
    return (rc, b"".join(chunks["out"]).decode("utf-8", "replace"), b"".join(chunks["err"]).decode("utf-8", "replace"),
            usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, wall)


def check(condition, message):
    if not condition:
        raise Failure(message)


def one_line_error(err):
    lines = [line for line in err.splitlines() if line.startswith("pith: ") and "warning" not in line]
    return lines


def judge(shape, what, result, limits, expect_too_large):
    rc, out, err, seconds, mib, wall = result
    label = "%s %s" % (what, shape)
    check(rc is not None, "%s: no answer within %.0f s (wall clock)" % (label, wall))
    check(rc >= 0, "%s: killed by signal %d" % (label, -rc))
    check("internal error" not in err and "AddressSanitizer" not in err, "%s: %s" % (label, err.strip()[:500]))
    check(seconds < limits.seconds, "%s: %.1f s of CPU (limit %d s; %.1f s wall clock)" % (label, seconds, limits.seconds, wall))
    check(mib < limits.mib, "%s: %.0f MiB resident (limit %d MiB)" % (label, mib, limits.mib))
    if expect_too_large:
        check(rc != 0 and "pdf.too_large" in err, "%s: exit %d, no pdf.too_large error: %s" % (label, rc, err.strip()[:500]))
    if rc == 2:
        check(len(one_line_error(err)) == 1, "%s: not one error line: %r" % (label, err[:500]))


def env_for(work):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PITH_")}
    env["HOME"] = work
    return env


def shape_runs(args, shape, path, good, env):
    """Every command on the shape: name -> result. When pith can stamp the shape, the stamped
    file is verified too: verify reads a stamped paper's text, title and changes in depth."""
    out = os.path.join(args.work, shape + "-stamped.pdf")
    if os.path.exists(out):
        os.unlink(out)
    wanted = lambda name: not args.commands or name in args.commands
    runs = {}
    for name, argv in (("verify", [args.pith, "verify", "--json", "--allow-damaged", path]),
                       ("extract", [args.pith, "extract", "--json", "--allow-damaged", path]),
                       ("stamp", [args.pith, "stamp", path, "--record", args.record, "--allow-unverified", "-o", out])):
        if wanted(name):
            runs[name] = run(argv, env, args.timeout)
    stamped = out
    if not os.path.exists(out) and wanted("verify-stamped"):
        # Stamped without reading page 1 (pith stamp checks the title there and looks for free
        # space for the badge, both with poppler): a stamped bomb for verify to read in depth.
        stamped = os.path.join(args.work, shape + "-stamped-untitled.pdf")
        if os.path.exists(stamped):
            os.unlink(stamped)
        runs["stamp-no-title"] = run([args.pith, "stamp", path, "--record", args.record, "--allow-unverified",
                                      "--no-title-check", "--no-badge", "-o", stamped], env, args.timeout)
    target = stamped if os.path.exists(stamped) else path
    if os.path.exists(stamped) and wanted("verify-stamped"):
        runs["verify-stamped"] = run([args.pith, "verify", "--json", "--allow-damaged", stamped], env, args.timeout)
    if wanted("verify-two"):
        runs["verify-two"] = run([args.pith, "verify", "--json", target, good], env, args.timeout)
    return runs, out


def check_shape(args, shape, path, good, env):
    results, stamped = shape_runs(args, shape, path, good, env)
    for name, result in results.items():
        print("%-18s %-15s exit %-4s %6.2f s CPU %6.2f s wall %7.1f MiB" % (shape, name, result[0], result[3], result[5], result[4]),
              flush=True)
    if args.report:
        return
    expected = TOO_LARGE.get(shape, set())
    check(expected <= set(results), "%s: no %s run (pith could not stamp it?)" % (shape, sorted(expected - set(results))))
    for name, result in results.items():
        judge(shape, name, result, args, name in expected)
        rc, out, err = result[:3]
        if name.startswith("verify") and rc == 0:
            raise Failure("%s %s: trusted" % (name, shape))
    # a refused stamp leaves no output file (and no temporary one)
    if results["stamp"][0] != 0:
        check(not os.path.exists(stamped), "stamp %s failed but wrote %s" % (shape, stamped))
        leftovers = [n for n in os.listdir(args.work) if n.startswith(shape + "-stamped.pdf") or ".pith-tmp" in n]
        check(not leftovers, "stamp %s left %s" % (shape, leftovers))
    # verify BOMB good.pdf: good.pdf gets its own verdict
    rc, out, err = results["verify-two"][:3]
    reports = [json.loads(line) for line in out.splitlines() if line.strip()]  # JSON Lines: one object per file
    check(len(reports) == 2, "verify %s good.pdf: %d reports" % (shape, len(reports)))
    check(reports[1]["file"] == good and reports[1]["state"] == "absent",
          "verify %s good.pdf: good.pdf gave %r" % (shape, reports[1].get("state")))
    check(reports[0]["state"] != "trusted", "verify %s: trusted" % shape)
    if "verify-two" in expected:
        check(reports[0]["state"] == "unreadable" and reports[0].get("error_code") == "pdf.too_large" and
              "doc/limits.md" in reports[0].get("error", ""),
              "verify %s good.pdf: the bomb gave %r" % (shape, reports[0]))


def check_limits_option(args, env):
    """The documented way to raise a limit lifts exactly that refusal; a malformed spec is a
    usage error naming it."""
    path = os.path.join(args.work, "revisions_12k.pdf")
    raised = [args.pith, "--limits", "revisions=30000", "verify", "--json", path]
    rc, out, err, seconds, mib, wall = run(raised, env, args.timeout)
    print("%-18s %-15s exit %-4s %6.2f s CPU %6.2f s wall %7.1f MiB" % ("revisions_12k", "--limits raised", rc, seconds, wall, mib))
    check(rc == 3 and json.loads(out)["state"] == "absent", "--limits revisions=30000: exit %s %s" % (rc, err.strip()))
    check(seconds < args.seconds and mib < args.mib, "--limits revisions=30000: %.1f s of CPU, %.0f MiB" % (seconds, mib))
    env2 = dict(env, PITH_LIMITS="revisions=30000")
    rc, out, err, seconds, mib, wall = run([args.pith, "verify", "--json", path], env2, args.timeout)
    check(rc == 3, "PITH_LIMITS=revisions=30000: exit %s %s" % (rc, err.strip()))
    for spec in ("revisions", "revisions=0", "pages=3", "decoded=12Q"):
        rc, out, err, seconds, mib, wall = run([args.pith, "--limits", spec, "verify", path], env, args.timeout)
        check(rc == 2 and err.startswith("pith: limits: ") and len(err.splitlines()) == 1,
              "--limits %s: exit %s, %r" % (spec, rc, err))


def check_child_address_space(args, env):
    """Issue 15: poppler's child inherits pith's address space, and under a fixed 2 GiB limit it
    could not load pith-text.so when pith had mapped a large file. A stamped paper followed by a
    2.5 GiB hole (sparse: 16 KB on disk) and its startxref again: verify must read its page text."""
    good = os.path.join(args.work, "good.pdf")
    stamped = os.path.join(args.work, "big-stamped.pdf")
    rc, out, err, seconds, mib, wall = run([args.pith, "stamp", good, "--record", args.record, "--allow-unverified",
                                      "--no-title-check", "--no-badge", "-o", stamped], env, args.timeout)
    check(rc == 0, "stamp good.pdf: exit %s %s" % (rc, err.strip()))
    with open(stamped, "r+b") as f:
        data = f.read()
        f.truncate(len(data) + (5 << 29))
        f.seek(len(data) + (5 << 29))
        f.write(b"\n" + data[data.rindex(b"startxref"):])
    rc, out, err, seconds, mib, wall = run([args.pith, "verify", "--json", "--allow-damaged", stamped], env, args.timeout)
    print("%-18s %-15s exit %-4s %6.2f s CPU %6.2f s wall %7.1f MiB" % ("child_address_space", "verify", rc, seconds, wall, mib))
    # Every byte of the 2.5 GiB is read (hashed, and searched for definitions no cross-reference
    # lists: doc/trust.md), seconds of work that a loaded machine stretches past --seconds; what
    # this shape tests is that the page text is read at all, within run()'s timeout.
    check(rc is not None, "verify of a 2.5 GiB file: no answer within %.1f s" % wall)
    report = json.loads(out)
    failures = [f["code"] + ": " + f["explanation"] for f in report["failure"]]
    check(report["state"] == "unverified" and not failures, "verify of a 2.5 GiB file: %s %s" % (report["state"], failures))
    os.unlink(stamped)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--record", required=True)
    ap.add_argument("--seconds", type=float, default=10, help="CPU seconds a run may take")
    ap.add_argument("--mib", type=float, default=512)
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--timeout", type=float, default=60, help="with --report: kill a run after this long")
    ap.add_argument("--commands", nargs="*", help="with --report: only these runs (verify, verify-damaged, extract, stamp, verify-two)")
    ap.add_argument("--listed", nargs="*", help="the shapes ctest runs: must be every shape make_bombs.py writes, then exit")
    ap.add_argument("shapes", nargs="*")
    args = ap.parse_args()
    if args.listed is not None:  # a shape dropped from tests/bombs.cmake, or one added without its ctest, fails
        want = sorted([s for s in make_bombs.SHAPES if s != "good"] + ["child_address_space"])
        print("ctest runs %s\nmake_bombs.py writes %s" % (sorted(args.listed), want))
        sys.exit(0 if sorted(args.listed) == want else 1)
    if not args.report:
        args.timeout, args.commands = args.seconds * 6, None
    os.makedirs(args.work, exist_ok=True)
    shapes = args.shapes or [s for s in make_bombs.SHAPES if s != "good"] + ["child_address_space"]
    special = "child_address_space" in shapes
    shapes = [s for s in shapes if s != "child_address_space"]
    # In a child: this process stays small, and the peak RSS a run inherits from it (fork, then
    # exec) is this process's, a few MiB.
    subprocess.run([sys.executable, make_bombs.__file__, args.work, "good"] + shapes, check=True)
    env = env_for(args.work)
    good = os.path.join(args.work, "good.pdf")
    failures = []
    for shape in shapes:
        try:
            check_shape(args, shape, os.path.join(args.work, shape + ".pdf"), good, env)
        except Failure as f:
            failures.append(str(f))
            print("FAIL: %s" % f)
    if special and not args.report:
        try:
            check_child_address_space(args, env)
        except Failure as f:
            failures.append(str(f))
            print("FAIL: %s" % f)
    if not args.report and "revisions_12k" in shapes:
        try:
            check_limits_option(args, env)
        except Failure as f:
            failures.append(str(f))
            print("FAIL: %s" % f)
    if failures:
        sys.exit(1)
    print("all %d shapes bounded%s" % (len(shapes), ", poppler's child reads a page of a 2.5 GiB file" if special else ""))


if __name__ == "__main__":
    main()
