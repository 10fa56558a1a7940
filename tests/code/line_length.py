#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Lines in src/ stay within 120 characters: a ratchet on the code that has longer ones.

    line_length.py SOURCE_DIR            check the tree against tests/code/line-length-allow.txt
    line_length.py SOURCE_DIR --counts   print the allowance file the tree has now
    line_length.py SOURCE_DIR --planted  prove the check fails on a copy of the tree with a long
                                         line planted in a file the list does not name, and one
                                         in a file it does

The allowance file holds "PATH COUNT" lines: how many lines over the limit each file still
has. A file not listed may have none; a listed file may have no more than its count, and a file
that has fewer must have its count lowered (or its line deleted), so the list only shrinks.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import treecheck  # noqa: E402

LIMIT = 120
ALLOW = "tests/code/line-length-allow.txt"


def counts(root):
    """{path: lines over LIMIT} of the C and C++ files of src/."""
    out = {}
    for path in sorted((root / "src").rglob("*")):
        if path.suffix in (".cpp", ".hpp", ".h", ".in") and path.is_file():
            n = sum(1 for line in path.read_text(errors="replace").splitlines() if len(line) > LIMIT)
            if n:
                out[path.relative_to(root).as_posix()] = n
    return out


def allowed(root):
    out = {}
    for line in (root / ALLOW).read_text().splitlines():
        line = line.split("#", 1)[0].split()
        if line:
            out[line[0]] = int(line[1])
    return out


def problems(root):
    have, allow = counts(root), allowed(root)
    found = []
    for path, n in have.items():
        if n > allow.get(path, 0):
            found.append(f"{path}: {n} lines over {LIMIT} characters, {allow.get(path, 0)} allowed ({ALLOW})")
    for path, n in allow.items():
        if have.get(path, 0) < n:
            found.append(f"{path}: {have.get(path, 0)} lines over {LIMIT} characters now: lower its count in {ALLOW} to match")
    return found


def planted(root):
    """A long line in an unlisted file and one more in a listed file must each be named."""
    listed = next(iter(allowed(root)))
    with treecheck.copy_of(root, "src", ALLOW) as copy:
        long_line = "// " + "x" * LIMIT + "\n"
        (copy / "src/page/title_judgement.hpp").write_text((root / "src/page/title_judgement.hpp").read_text() + long_line)
        (copy / listed).write_text((root / listed).read_text() + long_line)
        found = problems(copy)
    return treecheck.planted_result(found, ["src/page/title_judgement.hpp: 1 lines", listed + ":"])


def summary(root, found):
    have = counts(root)
    return f"{sum(have.values())} lines over {LIMIT} characters in {len(have)} files of src/; {len(found)} problems"


if __name__ == "__main__":
    if "--counts" in sys.argv:
        root = pathlib.Path(sys.argv[1])
        print("# Files of src/ with lines over %d characters, and how many (tests/code/line_length.py)." % LIMIT)
        print("# Wrap them when you touch a file and lower its count: the list only shrinks.")
        for path, n in counts(root).items():
            print(path, n)
        sys.exit(0)
    sys.exit(treecheck.main(problems, planted, summary))
