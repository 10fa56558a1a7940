# SPDX-License-Identifier: MIT
"""Only src/pdf names PoDoFo or calls a member function of its classes: the rest of pith reads and
changes PDF values with pith's functions (src/pdf/types.hpp, src/pdf/objects.hpp), so that a port
to PoDoFo 0.10 or another library rewrites src/pdf alone (doc/dev/podofo.md).

    podofo_boundary.py SOURCE_DIR            check the tree
    podofo_boundary.py SOURCE_DIR --planted  prove the check fails on a copy of the tree with a
                                             PoDoFo type, a member call and an Array's
                                             push_back planted in src/stamp/stamp.cpp

Outside src/pdf, in code (comments and string literals are left out):
  - no PoDoFo name: `PoDoFo`, a `Pdf...` type, a <podofo/...> include;
  - in the modules that use pdf (cmake/modules.cmake), no capitalised member call (`.GetKey(`,
    `->IsDictionary(`): pith's own functions are snake_case, so a capitalised one there is
    PoDoFo's;
  - no `push_back`/`emplace_back` on a variable declared as an Array (PoDoFo 0.10 has `Add`).
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import treecheck  # noqa: E402

PODOFO_NAME = re.compile(r"\bPoDoFo\b|\bPdf[A-Z]\w*|<podofo/")
MEMBER_CALL = re.compile(r"(?:\.|->)\s*([A-Z]\w*)\s*\(")
ARRAY_DECL = re.compile(r"\b(?:pdf::)?Array\s+(\w+)\s*[;=({]")
CODE_NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|R"(\w*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def modules_using_pdf(root):
    text = (root / "cmake/modules.cmake").read_text()
    return {name for name, rest in re.findall(r"^pith_module\((\w+)([^)]*)\)", text, re.M)
            if "pdf" in rest.split("DEPENDS", 1)[-1].split()}


def code_only(text):
    """The text with comments and string literals blanked (newlines kept, so lines still count)."""
    return CODE_NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def problems(root):
    using_pdf = modules_using_pdf(root)
    found = []
    for path in sorted((root / "src").rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h") or path.parent == root / "src" or path.parts[-2] == "pdf":
            continue
        code = code_only(path.read_text(errors="replace"))
        where = lambda pos: f"{path.relative_to(root)}:{code.count(chr(10), 0, pos) + 1}"
        for m in PODOFO_NAME.finditer(code):
            found.append(f"{where(m.start())}: names PoDoFo ({m.group(0)}); use pith's names of src/pdf/types.hpp")
        if path.parent.name not in using_pdf:
            continue
        for m in MEMBER_CALL.finditer(code):
            found.append(f"{where(m.start())}: calls PoDoFo's {m.group(1)}(); use pith's functions of "
                         "src/pdf/types.hpp and src/pdf/objects.hpp")
        for name in set(ARRAY_DECL.findall(code)):
            for m in re.finditer(r"\b%s\s*\.\s*(push_back|emplace_back)\s*\(" % re.escape(name), code):
                found.append(f"{where(m.start())}: {name}.{m.group(1)}() on an Array; use pdf::append")
    return found


def planted(root):
    """Each planted line must be named; 0 when all three are."""
    with treecheck.copy_of(root, "src", "cmake") as copy:
        stamp = copy / "src/stamp/stamp.cpp"
        stamp.write_text(stamp.read_text() + "\n// planted\nnamespace pith::stamp {\n"
                         "bool planted_has(const pdf::Object& o) { return o.IsDictionary(); }\n"
                         "PoDoFo::PdfString planted_string() { return {}; }\n"
                         "void planted_append() { pdf::Array items; items.push_back(pdf::null_value()); }\n}\n")
        found = problems(copy)
    wanted = ["calls PoDoFo's IsDictionary()", "names PoDoFo (PoDoFo)", "items.push_back() on an Array"]
    return treecheck.planted_result(found, wanted) or int(not all("src/stamp/stamp.cpp" in f for f in found))


def summary(root, found):
    member_calls = sum("calls PoDoFo's" in f for f in found)
    return f"{member_calls} PoDoFo member calls outside src/pdf; {len(found)} problems"


if __name__ == "__main__":
    sys.exit(treecheck.main(problems, planted, summary))
