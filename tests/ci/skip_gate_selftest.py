#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The skip gate (.ci/skip-gate) on a real ctest run: a scratch project (no compiler) whose tests
pass, skip (exit 77 with SKIP_RETURN_CODE) and are disabled. The gate must fail naming the
planted skip and the disabled test, pass when an allowed list names them, pass after a run
without a skip; CI's own list (.ci/allowed-skips) allows nothing, and .ci/run clears ctest's
record before each ctest run and gates after it.

usage: skip_gate_selftest.py SOURCE_DIR WORK_DIR"""
import os
import re
import shutil
import subprocess
import sys

PROJECT = """cmake_minimum_required(VERSION 3.20)
project(gate NONE)
enable_testing()
add_test(NAME passes COMMAND sh -c "exit 0")
add_test(NAME planted_skip COMMAND sh -c "echo tool missing; exit 77")
set_tests_properties(planted_skip PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME planted_disabled COMMAND sh -c "exit 0")
set_tests_properties(planted_disabled PROPERTIES DISABLED TRUE)
"""


def main():
    source, work = sys.argv[1], sys.argv[2]
    gate = os.path.join(source, ".ci", "skip-gate")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with open(os.path.join(work, "CMakeLists.txt"), "w") as f:
        f.write(PROJECT)
    build = os.path.join(work, "build")
    subprocess.run(["cmake", "-S", work, "-B", build], check=True, capture_output=True)
    problems = []

    def ctest(*args):
        shutil.rmtree(os.path.join(build, "Testing"), ignore_errors=True)  # as .ci/run clears it
        subprocess.run(["ctest", "--test-dir", build] + list(args), capture_output=True)

    def gate_run(allowed):
        path = os.path.join(work, "allowed")
        with open(path, "w") as f:
            f.write(allowed)
        p = subprocess.run([sys.executable, gate, build, path], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    ctest()
    rc, out = gate_run("# nothing allowed\n")
    if rc != 1 or "planted_skip" not in out or "planted_disabled" not in out or "passes" in out:
        problems.append("a planted skip and a disabled test, nothing allowed: want exit 1 naming both, got %d:\n%s" % (rc, out))
    rc, out = gate_run("planted_skip a tool this machine lacks\nplanted_disabled off here\n")
    if rc != 0:
        problems.append("both allowed: want exit 0, got %d:\n%s" % (rc, out))
    rc, out = gate_run("planted_skip a tool this machine lacks\n")
    if rc != 1 or "planted_disabled" not in out:
        problems.append("the skip allowed, the disabled test not: want exit 1 naming it, got %d:\n%s" % (rc, out))
    rc, out = gate_run("planted_skip\n")
    if rc == 0:
        problems.append("an allowed entry without a reason: want a failure, got exit 0")
    ctest("-R", "^passes$")
    rc, out = gate_run("")
    if rc != 0:
        problems.append("a run without a skip: want exit 0, got %d:\n%s" % (rc, out))

    ci_allowed = [l for l in open(os.path.join(source, ".ci", "allowed-skips"), encoding="utf-8")
                  if l.split("#")[0].strip()]
    if ci_allowed:
        problems.append(".ci/allowed-skips must be empty for CI, it names: %s" % "".join(ci_allowed))
    run = open(os.path.join(source, ".ci", "run"), encoding="utf-8").read()
    for m in re.finditer(r"^ctest --test-dir (\S+) .*$", run, re.M):
        d = m.group(1)
        before, after = run[:m.start()].rstrip().split("\n")[-1], run[m.end():].lstrip().split("\n")[0]
        if before != "rm -f %s/Testing/Temporary/LastTestsDisabled.log" % d and not before.startswith(
                "rm -f %s/Testing/Temporary/LastTestsDisabled.log " % d):
            problems.append(".ci/run does not clear %s's record of skipped tests just before: %s" % (d, m.group(0)))
        if not after.startswith(".ci/skip-gate %s" % d):
            problems.append(".ci/run does not gate just after: %s" % m.group(0))
    if not re.search(r"^ctest ", run, re.M):
        problems.append(".ci/run runs no ctest")

    for p in problems:
        print("FAIL: " + p)
    print("skip gate: %s" % ("PASS" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
