#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Shows that readme_commands.py fails when the README and pith disagree.

Each case breaks one thing in a copy of README.md and expects readme_commands.py to exit 1
naming that thing; the unbroken copy must pass. So the doc test can fail, and fails for the
right reason.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, old text, new text, what the failure must say)
CASES = [
    ("output", "article-signed.pdf: trusted  pith:2024", "article-signed.pdf: invalid  pith:2024",
     "line not in the output: 'article-signed.pdf: invalid"),
    ("exit_note", "          # exit status 4: unverified, the key is not in a keyring", "",
     "exit status 4, the README says 0"),
    ("failing_command", "pith extract article-signed.pdf\n", "pith extract article-signed.pdf\npith verify missing.pdf\n",
     "exit status 2, the README says 0"),
    ("unknown_option", "--style boxed --qr", "--style boxed --qr --colour red", "exit status"),
    ("no_language", "```latex", "```", "a code block without a language"),
    ("setup_not_ci", 'cmake -S . -B build && cmake --build build -j"$(nproc)" && ctest',
     'cmake -S . -B build -G Ninja && cmake --build build -j"$(nproc)" && ctest', "are not those of .ci/run"),
    ("setup_count", ".ci/deps && cmake -S . -B build && cmake --build build -j\"$(nproc)\" && ctest",
     "cmake -S . -B build && cmake --build build -j\"$(nproc)\" && ctest", "set-up commands, not 2"),
    ("too_long", "## More\n", "## More\n" + "\n" * 200, "not under 200"),
]


def run(args, readme_path, scratch, *extra):
    return subprocess.run([sys.executable, os.path.join(HERE, "readme_commands.py"), "--pith", args.pith,
                           "--source", args.source, "--scratch", scratch, "--readme", readme_path, *extra],
                          capture_output=True, text=True, timeout=900)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--scratch", required=True)
    args = ap.parse_args()
    os.makedirs(args.scratch, exist_ok=True)
    readme = open(os.path.join(args.source, "README.md"), encoding="utf-8").read()
    failures = []

    path = os.path.join(args.scratch, "README-unbroken.md")
    open(path, "w", encoding="utf-8").write(readme)
    p = run(args, path, os.path.join(args.scratch, "run"))
    print(f"unbroken: exit {p.returncode}")
    if p.returncode != 0:
        failures.append("the unbroken README fails:\n" + p.stdout + p.stderr)

    for name, old, new, says in CASES:
        if readme.count(old) != 1:
            failures.append(f"{name}: the text to break is not in README.md exactly once: {old!r}")
            continue
        path = os.path.join(args.scratch, f"README-{name}.md")
        broken = readme.replace(old, new)
        open(path, "w", encoding="utf-8").write(broken)
        p = run(args, path, os.path.join(args.scratch, "run"), "--first-problem")
        found = says in p.stdout + p.stderr
        print(f"{name}: exit {p.returncode}, {'names' if found else 'does NOT name'} {says!r}")
        if p.returncode != 1 or not found:
            failures.append(f"{name}: expected exit 1 naming {says!r}, got {p.returncode}:\n{p.stdout}{p.stderr}")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
