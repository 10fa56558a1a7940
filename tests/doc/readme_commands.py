#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs every command the README shows, against the built pith, in a scratch folder.

The README's contract with this test (say so in README.md if it changes):
- Every fenced block names its language. ```sh blocks hold commands, one per line (a line
  ending in a backslash continues); ```console blocks hold `$ ` commands, each followed by the
  output it prints; other blocks (latex, json, text) are not run.
- A command must exit 0 unless its trailing comment, or the comment lines just above it, say
  "exit status N".
- In a console block each output line shown must appear in the command's output, in order;
  `…` stands for any text, and lines the README leaves out may come in between.
- The set-up commands (the lines that start with `.ci/deps`) are not run here: their set-up
  steps (.ci/deps, cmake, ctest) must be the steps `.ci/run` takes, in the same order, and the
  pith commands after them run in the scratch folder, with `build/pith` the pith under test.
- Commands run in order in one scratch folder holding a copy of examples/, with pith on the
  PATH, an empty HOME, no PITH_KEYRING and a registry address that refuses connections, so
  nothing reads the user's keys or the network.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

SETUP_STEP = re.compile(r"^(\.ci/deps|cmake |ctest )")
EXIT_NOTE = re.compile(r"exit status (\d+)")
README_MAX_LINES = 200


class Command:
    def __init__(self, text, line, expected_exit, output=None):
        self.text, self.line, self.expected_exit = text, line, expected_exit
        self.output = output  # the lines a console block shows, or None


def trailing_comment(command):
    m = re.search(r"\s#\s(.*)$", command)
    return m.group(1) if m else ""


def expected_exit(comments, command):
    m = EXIT_NOTE.search(" ".join(comments + [trailing_comment(command)]))
    return int(m.group(1)) if m else 0


def sh_commands(lines, first_line):
    """Commands of a ```sh block: comment lines annotate the command that follows them."""
    commands, comments, pending, start = [], [], "", None
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if not pending and not line.strip():
            comments = []
            continue
        if not pending and line.lstrip().startswith("#"):
            comments.append(line.lstrip("# "))
            continue
        if start is None:
            start = first_line + i
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        text = pending + line
        commands.append(Command(text, start, expected_exit(comments, text)))
        pending, comments, start = "", [], None
    if pending:
        raise SystemExit(f"README.md:{start}: a command ends in a backslash at the end of its block")
    return commands


def console_commands(lines, first_line):
    commands = []
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if line.startswith("$ "):
            text = line[2:]
            commands.append(Command(text, first_line + i, expected_exit([], text), []))
        elif commands:
            commands[-1].output.append(line)
        elif line:
            raise SystemExit(f"README.md:{first_line + i}: console block output before any `$ ` command")
    return commands


def readme_commands(readme):
    """Every command of the README's sh and console blocks, in order."""
    lines = readme.split("\n")
    commands, i = [], 0
    while i < len(lines):
        fence = re.match(r"^```(.*)$", lines[i])
        if not fence:
            i += 1
            continue
        lang = fence.group(1).strip()
        end = i + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        if end == len(lines):
            raise SystemExit(f"README.md:{i + 1}: a code block is not closed")
        if not lang:
            raise SystemExit(f"README.md:{i + 1}: a code block without a language: mark it sh, console or text")
        body = lines[i + 1:end]
        if lang == "sh":
            commands += sh_commands(body, i + 2)
        elif lang == "console":
            commands += console_commands(body, i + 2)
        i = end + 1
    return commands


def ci_setup_steps(source):
    """The steps .ci/run takes up to its first ctest, written as the README writes them."""
    run = open(os.path.join(source, ".ci/run"), encoding="utf-8").read()
    top = open(os.path.join(source, "CMakeLists.txt"), encoding="utf-8").read()
    default_type = re.search(r"if\(NOT CMAKE_BUILD_TYPE\)\s*set\(CMAKE_BUILD_TYPE (\w+)\)", top)
    if not re.search(r'^jobs="\$\(nproc\)"$', run, re.M):
        raise SystemExit('.ci/run: expected jobs="$(nproc)": the comparison below relies on it')
    steps = []
    for line in run.split("\n"):
        line = line.split(" #")[0].strip()
        if not SETUP_STEP.match(line):
            continue
        line = line.replace('"$jobs"', '"$(nproc)"')
        if default_type:  # the README leaves out what CMakeLists.txt chooses by default
            line = line.replace(f" -DCMAKE_BUILD_TYPE={default_type.group(1)}", "")
        steps.append(line)
        if line.startswith("ctest "):
            return steps
    raise SystemExit(".ci/run: no ctest step")


def split_setup(command, ci_steps):
    """The pith commands after a set-up command's build; checks its set-up steps against .ci/run."""
    parts = [p.strip() for p in command.text.split(" && ")]
    setup = [p for p in parts if SETUP_STEP.match(p)]
    rest = parts[len(setup):]
    if any(SETUP_STEP.match(p) for p in rest):
        raise SystemExit(f"README.md:{command.line}: set-up steps after a pith command")
    if setup != ci_steps[:len(setup)]:
        raise SystemExit(f"README.md:{command.line}: set-up steps {setup}\n  are not those of .ci/run: {ci_steps}")
    return setup, " && ".join(rest)


def output_matches(shown, actual):
    """Each shown line (… for any text) matches a line of `actual`, in order."""
    at = 0
    for want in shown:
        if want.strip() in ("", "…"):
            continue
        pattern = re.compile(".*".join(re.escape(part) for part in want.split("…")) + r"\s*$")
        while at < len(actual) and not pattern.match(actual[at]):
            at += 1
        if at == len(actual):
            return f"line not in the output: {want!r}"
        at += 1
    return None


def prepare_scratch(scratch, source, pith):
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.join(scratch, "build"))
    os.makedirs(os.path.join(scratch, "home"))
    shutil.copytree(os.path.join(source, "examples"), os.path.join(scratch, "examples"))
    bin_dir = os.path.dirname(os.path.realpath(pith))
    for name in ("pith", "pith-text.so"):  # the module beside pith, however pith finds its directory
        if os.path.exists(os.path.join(bin_dir, name)):
            os.symlink(os.path.join(bin_dir, name), os.path.join(scratch, "build", name))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PITH_") and not k.startswith("XDG_")}
    env.update(HOME=os.path.join(scratch, "home"), NO_COLOR="1", LC_ALL="C.UTF-8",
               PATH=os.path.join(scratch, "build") + os.pathsep + env.get("PATH", "/usr/bin:/bin"),
               PITH_REGISTRY="http://127.0.0.1:9")  # port 9 refuses: no command may go online
    return env


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("--readme", help="another README to check (the self-test's broken copies)")
    ap.add_argument("--first-problem", action="store_true",
                    help="stop at the first problem (the self-test: each copy is broken once)")
    args = ap.parse_args()

    readme = open(args.readme or os.path.join(args.source, "README.md"), encoding="utf-8").read()
    problems = []
    line_count = readme.count("\n")
    if line_count >= README_MAX_LINES:
        problems.append(f"README.md has {line_count} lines, not under {README_MAX_LINES}")
    commands = readme_commands(readme)
    ci_steps = ci_setup_steps(args.source)
    setup_commands = [c for c in commands if c.text.startswith(".ci/deps")]
    if len(setup_commands) != 2:
        problems.append(f"README.md shows {len(setup_commands)} set-up commands, not 2")
    if not any(split_setup(c, ci_steps)[0] == ci_steps for c in setup_commands):
        problems.append("no set-up command takes all of .ci/run's steps (build and run every test)")

    env = prepare_scratch(args.scratch, args.source, args.pith)
    ran = 0
    for c in commands:
        if problems and args.first_problem:
            break
        text = c.text
        if c in setup_commands:
            setup, text = split_setup(c, ci_steps)
            print(f"README.md:{c.line}: set-up steps as in .ci/run, not run here: {' && '.join(setup)}")
            if not text:
                continue
        try:
            p = subprocess.run(["bash", "-o", "pipefail", "-c", text], cwd=args.scratch, env=env,
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
        except subprocess.TimeoutExpired:
            problems.append(f"README.md:{c.line}: timed out: {text}")
            continue
        ran += 1
        out = (p.stdout + p.stderr).decode("utf-8", "replace")
        why = None
        if p.returncode != c.expected_exit:
            why = f"exit status {p.returncode}, the README says {c.expected_exit}"
        elif c.output is not None:
            why = output_matches(c.output, p.stdout.decode("utf-8", "replace").split("\n") +
                                 p.stderr.decode("utf-8", "replace").split("\n"))
        print(f"README.md:{c.line}: {'FAIL' if why else 'ok'} (exit {p.returncode}) {text}")
        if why:
            problems.append(f"README.md:{c.line}: {text}\n  {why}\n  output:\n    " +
                            "\n    ".join(out.rstrip().split("\n")[-30:]))
    print(f"{ran} commands run, {len(setup_commands)} set-up commands checked against .ci/run, "
          f"README.md {line_count} lines")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
