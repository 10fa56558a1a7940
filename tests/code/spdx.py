#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every source file of pith names its licence in an SPDX-License-Identifier line among its
first three lines: MIT for the code, LPPL-1.3c for the LaTeX package (LICENSE, latex/LICENSE).

    tests/code/spdx.py SOURCE_DIR          check (exit 1 listing the files without one)
    tests/code/spdx.py SOURCE_DIR --fix    add the line where it is missing (after a #! line)

Files: what git tracks (every file under SOURCE_DIR without git), of the kinds below; test
inputs (PDFs, fuzz corpora, vectors, example papers) are data, not code, and carry none.
"""
import os
import subprocess
import sys

DATA = ("tests/corpus/files/", "tests/fuzz/corpus/", "tests/fuzz/seeds/", "tests/vectors/", "LICENSES/", "examples/")


def licence_line(path):
    """The line `path` must carry, or None when it needs none."""
    base = os.path.basename(path)
    if path.startswith(DATA) or path.startswith("tests/") and path.endswith(".tex"):
        return None
    if path.startswith("latex/") and path.endswith((".sty", ".tex")):
        return "% SPDX-License-Identifier: LPPL-1.3c"
    if path.endswith((".cpp", ".hpp", ".h", ".cpp.in")):
        return "// SPDX-License-Identifier: MIT"
    if base == "CMakeLists.txt" or path.endswith((".py", ".cmake", ".sh", ".sbatch")):
        return "# SPDX-License-Identifier: MIT"
    if path.startswith((".ci/", "tools/", "bench/")) and "." not in base:
        return "# SPDX-License-Identifier: MIT"
    return None


def files(root):
    listed = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout:
        return listed.stdout.split()
    out = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(("build", ".git"))]
        out += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return out


def main():
    root, fix = sys.argv[1], "--fix" in sys.argv[2:]
    missing = []
    for rel in sorted(files(root)):
        line = licence_line(rel)
        path = os.path.join(root, rel)
        if not line or not os.path.isfile(path):
            continue
        text = open(path, encoding="utf-8").read()
        lines = text.split("\n")
        if any("SPDX-License-Identifier:" in l for l in lines[:3]):
            continue
        if not fix:
            missing.append(rel)
            continue
        lines.insert(1 if lines[0].startswith("#!") else 0, line)
        open(path, "w", encoding="utf-8").write("\n".join(lines))
    for rel in missing:
        print("no SPDX-License-Identifier line: " + rel)
    print("%d file(s) without an SPDX-License-Identifier line" % len(missing))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
