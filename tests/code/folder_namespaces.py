# SPDX-License-Identifier: MIT
"""A folder of src/ is a namespace: the code of src/F/ is in pith::F or a namespace inside it, and
src/core/ is pith itself (its parts may have namespaces of their own, pith::X). A file may reopen
another module's namespace only to declare a class of it (`namespace pith::pdf { class File; }`).

    folder_namespaces.py SOURCE_DIR            check the tree
    folder_namespaces.py SOURCE_DIR --planted  prove the check fails on a copy of src/ where a
                                               page file is in pith::title and a verify header
                                               defines a function in pith::pdf
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import treecheck  # noqa: E402

OPENING = re.compile(r"^namespace (pith(?:::\w+)*) \{(.*?)^\}", re.M | re.S)
FORWARD = re.compile(r"^\s*(?:class|struct) \w+;\s*$")
SUFFIXES = (".cpp", ".hpp", ".inc", ".cpp.in")


def owner(folder):
    return "pith" if folder == "core" else "pith::" + folder


def problems(root):
    found = []
    for path in sorted((root / "src").rglob("*")):
        if not path.name.endswith(SUFFIXES):
            continue
        folder = path.relative_to(root / "src").parts[0]
        mine = owner(folder)
        for m in OPENING.finditer(path.read_text(encoding="utf-8", errors="replace")):
            name, body = m.group(1), m.group(2)
            if name == mine or name.startswith(mine + "::"):
                continue
            if body.strip() and all(FORWARD.match(line) for line in body.strip().splitlines()):
                continue  # a forward declaration of another module's class
            found.append(f"{path.relative_to(root)}: namespace {name} in src/{folder}/ (want {mine} or one inside it)")
    return found


def planted(root):
    """The check must name a page file in pith::title and a definition in another module's namespace."""
    with treecheck.copy_of(root, "src") as copy:
        title = copy / "src/page/title.hpp"
        title.write_text(title.read_text().replace("namespace pith::page::title {", "namespace pith::title {", 1))
        verify = copy / "src/verify/verify.hpp"
        verify.write_text(verify.read_text().replace("namespace pith::pdf {\nclass File;\n}",
                                                     "namespace pith::pdf {\nclass File;\nint pages(File&);\n}", 1))
        found = problems(copy)
    wanted = ["src/page/title.hpp: namespace pith::title", "src/verify/verify.hpp: namespace pith::pdf"]
    return treecheck.planted_result(found, wanted) or int(len(found) != len(wanted))


def summary(root, found):
    files = [p for p in (root / "src").rglob("*") if p.name.endswith(SUFFIXES)]
    return f"{len(files)} files of src/ read; {len(found)} problems"


if __name__ == "__main__":
    sys.exit(treecheck.main(problems, planted, summary))
