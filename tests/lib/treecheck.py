# SPDX-License-Identifier: MIT
"""The command line of the checks of the source tree (tests/code): `SCRIPT SOURCE_DIR` checks the
tree, `SCRIPT SOURCE_DIR --planted` proves the check catches what a copy of the tree has planted."""
import contextlib
import pathlib
import shutil
import sys
import tempfile


@contextlib.contextmanager
def copy_of(root, *parts):
    """A temporary copy of these parts of the tree (folders or files), to plant a broken rule in."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp)
        for part in parts:
            (copy / part).parent.mkdir(parents=True, exist_ok=True)
            if (root / part).is_dir():
                shutil.copytree(root / part, copy / part)
            else:
                shutil.copy(root / part, copy / part)
        yield copy


def planted_result(found, wanted):
    """Prints what was caught and what was not; 0 when every `wanted` text is in a finding."""
    missed = [w for w in wanted if not any(w in f for f in found)]
    for f in found:
        print("caught:", f.splitlines()[0])
    if missed:
        print("not caught:", ", ".join(missed))
    return 1 if missed else 0


def main(problems, planted, summary):
    """problems(root) -> [text]; planted(root) -> exit status; summary(root, found) -> last line."""
    root = pathlib.Path(sys.argv[1])
    if "--planted" in sys.argv:
        return planted(root)
    found = problems(root)
    for f in found:
        print(f)
    print(summary(root, found))
    return 1 if found else 0
