# SPDX-License-Identifier: MIT
"""Every #include in src/ follows cmake/modules.cmake, and doc/design.md shows that graph, a line
for every folder of src/, and a glossary whose "in the code" places exist.

    module_graph.py SOURCE_DIR            check the tree
    module_graph.py SOURCE_DIR --planted  prove the check fails: check a copy of the tree with a
                                          back-arrow (core including verify), a stale design.md
                                          graph and a glossary naming a file src/ lacks

A module may include its own headers and those of the modules it DEPENDS on (listed, not
inherited: what a module uses is written down where it is declared). Every folder of src/ is a
declared module. The graph must be acyclic, which modules.cmake already makes so by letting a
module depend only on modules declared before it; this check repeats that rule.
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import treecheck  # noqa: E402

DECLARATION = re.compile(r"^pith_module\((\w+)([^)]*)\)", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)
DOC_BEGIN, DOC_END = "<!-- modules: begin (tests/code/module_graph.py) -->", "<!-- modules: end -->"
GLOSSARY = "## Words pith uses"
FOLDER_LINE = re.compile(r"^src/(\w+)/ ", re.M)


def declared(root):
    """{module: [dependencies]} in declaration order."""
    modules = {}
    for name, rest in DECLARATION.findall((root / "cmake/modules.cmake").read_text()):
        words = rest.split()
        deps = words[words.index("DEPENDS") + 1:] if "DEPENDS" in words else []
        modules[name] = deps
    return modules


def doc_graph(modules):
    """The block doc/design.md must hold between its markers: a module per line, with what it uses."""
    lines = [f"{name:<9} -> {' '.join(deps) if deps else '(nothing)'}" for name, deps in reversed(list(modules.items()))]
    return "```\n" + "\n".join(lines) + "\n```"


def problems(root):
    modules = declared(root)
    found = []
    seen = []
    for name, deps in modules.items():
        found += [f"cmake/modules.cmake: {name} depends on {d}, declared after it or not at all" for d in deps if d not in seen]
        seen.append(name)
    for folder in sorted(p for p in (root / "src").iterdir() if p.is_dir()):
        if folder.name not in modules:
            found.append(f"src/{folder.name}/ is not declared in cmake/modules.cmake")
    for path in sorted((root / "src").rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h", ".inc") or path.parent.parent != root / "src":
            continue
        own = path.parent.name
        allowed = set(modules.get(own, [])) | {own}
        text = path.read_text(errors="replace")
        for match in INCLUDE.finditer(text):
            if match.group(1) not in allowed:
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(root)}:{line}: {own} includes {match.group(1)}/, which "
                             f"cmake/modules.cmake does not let it use ({own} -> {' '.join(sorted(allowed - {own})) or 'nothing'})")
    design = (root / "doc/design.md").read_text()
    if DOC_BEGIN not in design or DOC_END not in design:
        found.append(f"doc/design.md: the module graph's markers are missing ({DOC_BEGIN})")
    else:
        shown = design.split(DOC_BEGIN, 1)[1].split(DOC_END, 1)[0].strip()
        if shown != doc_graph(modules):
            found.append("doc/design.md: the module graph differs from cmake/modules.cmake; it should read:\n" + doc_graph(modules))
        described = set(FOLDER_LINE.findall(design.split(DOC_END, 1)[1].split("\n## ", 1)[0]))
        found += [f"doc/design.md: no line describes src/{m}/" for m in modules if m not in described]
        found += [f"doc/design.md: describes src/{m}/, which is no module" for m in sorted(described - set(modules))]
    found += glossary_problems(root, design)
    return found


def glossary_problems(root, design):
    """Each place the glossary's "in the code" column names (`page/title`, `badge/`) exists in src/."""
    if GLOSSARY not in design:
        return [f"doc/design.md: the glossary ({GLOSSARY}) is missing"]
    found = []
    for row in design.split(GLOSSARY, 1)[1].split("\n## ", 1)[0].splitlines()[4:]:
        cells = row.strip().strip("|").split("|")
        for place in re.findall(r"`([a-z_]+/[a-z_]*)`", cells[-1] if len(cells) > 2 else ""):
            path = root / "src" / place
            exists = path.is_dir() if place.endswith("/") else any(path.with_suffix(s).exists() for s in (".cpp", ".hpp"))
            if not exists:
                found.append(f"doc/design.md: the glossary names {place}, which src/ does not hold")
    return found


def planted(root):
    """The check must name a planted back-arrow and a stale doc graph; 0 when it does."""
    with treecheck.copy_of(root, "src", "cmake") as copy:
        (copy / "doc").mkdir()
        design = (root / "doc/design.md").read_text()
        design = design.replace("page      -> ", "page      -> stamp ", 1)
        (copy / "doc/design.md").write_text(design.replace("`page/title_judgement`", "`page/judgement`", 1))
        hex_cpp = copy / "src/core/hex.cpp"
        hex_cpp.write_text(hex_cpp.read_text() + '\n#include "verify/verify.hpp"\n')
        found = problems(copy)
    wanted = ["src/core/hex.cpp", "doc/design.md: the module graph differs", "glossary names page/judgement"]
    return treecheck.planted_result(found, wanted) or int(len(found) != len(wanted))


def summary(root, found):
    modules = declared(root)
    return f"{len(modules)} modules, {sum(map(len, modules.values()))} declared arrows; {len(found)} problems"


if __name__ == "__main__":
    sys.exit(treecheck.main(problems, planted, summary))
