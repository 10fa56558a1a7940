# SPDX-License-Identifier: MIT
"""Only src/pdf names PoDoFo; the rest of pith calls only the member functions doc/dev/podofo.md
lists, the ones PoDoFo 0.9.8 and 0.10 both declare with the same meaning.

    podofo_boundary.py SOURCE_DIR            check the tree
    podofo_boundary.py SOURCE_DIR --planted  prove the check fails on a copy of the tree with a
                                             PoDoFo type, an unlisted member call and an Array's
                                             push_back planted in src/stamp/stamp.cpp

Outside src/pdf, in code (comments and string literals are left out):
  - no PoDoFo name: `PoDoFo`, a `Pdf...` type, a <podofo/...> include;
  - in the modules that use pdf (cmake/modules.cmake), a capitalised member call (`.GetKeys(`,
    `->IsString(`) is one the doc's table lists: pith's own functions are snake_case, so a
    capitalised one there is PoDoFo's;
  - no `push_back`/`emplace_back` on a variable declared as an Array (PoDoFo 0.10 has `Add`).
"""
import pathlib
import re
import shutil
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import treecheck  # noqa: E402

DOC = "doc/dev/podofo.md"
TABLE_BEGIN, TABLE_END = "<!-- podofo-members: begin -->", "<!-- podofo-members: end -->"
PODOFO_NAME = re.compile(r"\bPoDoFo\b|\bPdf[A-Z]\w*|<podofo/")
MEMBER_CALL = re.compile(r"(?:\.|->)\s*([A-Z]\w*)\s*\(")
ARRAY_DECL = re.compile(r"\b(?:pdf::)?Array\s+(\w+)\s*[;=({]")
CODE_NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|R"(\w*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def allowed_members(root):
    text = (root / DOC).read_text()
    if TABLE_BEGIN not in text or TABLE_END not in text:
        sys.exit(f"{DOC}: the member table's markers are missing")
    table = text.split(TABLE_BEGIN, 1)[1].split(TABLE_END, 1)[0]
    names = set()
    for row in table.splitlines()[2:]:  # after the header and its rule
        first_cell = row.strip("|").split("|")[0]
        names |= set(re.findall(r"`(\w+)`", first_cell))
    return names


def modules_using_pdf(root):
    text = (root / "cmake/modules.cmake").read_text()
    return {name for name, rest in re.findall(r"^pith_module\((\w+)([^)]*)\)", text, re.M)
            if "pdf" in rest.split("DEPENDS", 1)[-1].split()}


def code_only(text):
    """The text with comments and string literals blanked (newlines kept, so lines still count)."""
    return CODE_NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def problems(root):
    allowed = allowed_members(root)
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
            if m.group(1) not in allowed:
                found.append(f"{where(m.start())}: calls {m.group(1)}(), which {DOC} does not list as the same in "
                             "PoDoFo 0.9.8 and 0.10; use a function of src/pdf/objects.hpp")
        for name in set(ARRAY_DECL.findall(code)):
            for m in re.finditer(r"\b%s\s*\.\s*(push_back|emplace_back)\s*\(" % re.escape(name), code):
                found.append(f"{where(m.start())}: {name}.{m.group(1)}() on an Array; use pdf::append")
    return found


def planted(root):
    """Each planted line must be named; 0 when all three are."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp)
        for part in ("src", "cmake", "doc"):
            shutil.copytree(root / part, copy / part)
        stamp = copy / "src/stamp/stamp.cpp"
        stamp.write_text(stamp.read_text() + "\n// planted\nnamespace pith::stamp {\n"
                         "std::size_t planted_keys(const pdf::Object& o) { return o.GetDictionary().GetKeys().size(); }\n"
                         "PoDoFo::PdfString planted_string() { return {}; }\n"
                         "void planted_append() { pdf::Array items; items.push_back(pdf::null_value()); }\n}\n")
        found = problems(copy)
    wanted = ["calls GetKeys()", "names PoDoFo (PoDoFo)", "items.push_back() on an Array"]
    return treecheck.planted_result(found, wanted) or int(not all("src/stamp/stamp.cpp" in f for f in found))


def summary(root, found):
    return f"{len(allowed_members(root))} member functions allowed outside src/pdf; {len(found)} problems"


if __name__ == "__main__":
    sys.exit(treecheck.main(problems, planted, summary))
