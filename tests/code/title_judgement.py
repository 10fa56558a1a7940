# SPDX-License-Identifier: MIT
"""pith stamp and pith verify reach the title's verdict by one judgement, src/page/title_judgement.cpp:
what stamp accepts without --no-title-check is then what verify's title check calls trusted, by
construction (honest_property_corpus checks the same on real files).

    title_judgement.py SOURCE_DIR            check the tree
    title_judgement.py SOURCE_DIR --planted  prove the check fails on copies of the tree with a
                                             title rule called from stamp, a title finding made
                                             in verify, and stamp's pixel judgement dropped

In code (comments and string literals left out):
  - outside src/page, nothing calls the title rules the judgement is made of (RULES below);
  - outside src/page/title_judgement.cpp, nothing makes a title finding (pith.title.*);
  - src/stamp and src/verify each call both halves of the judgement (judge_text, judge_pixels).
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import treecheck  # noqa: E402

JUDGEMENT = "src/page/title_judgement.cpp"
RULES = re.compile(r"\b(?:title::(?:on_page|title_block|compare)|pixels::(?:judge|not_front_matter|title_words|region_for))\s*\(")
TITLE_FINDING = re.compile(r"\.\s*(?:ok|info|fail)\s*\(\s*(?:pith::)?finding::pith_title_\w*")
CALLERS = {"src/stamp": ("title::judge_text", "title::judge_pixels"), "src/verify": ("title::judge_text", "title::judge_pixels")}
CODE_NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|R"(\w*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"', re.S)


def code_only(text):
    """Comments and string literals blanked, line breaks kept (so line numbers stay)."""
    return CODE_NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def problems(root):
    found, calls = [], {folder: "" for folder in CALLERS}
    for path in sorted((root / "src").rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".inc"):
            continue
        rel = path.relative_to(root).as_posix()
        code = code_only(path.read_text(errors="replace"))
        where = lambda pos: f"{rel}:{code.count(chr(10), 0, pos) + 1}"
        if not rel.startswith("src/page/"):
            for m in RULES.finditer(code):
                found.append(f"{where(m.start())}: calls {m.group(0).rstrip('( ')}, a rule of the title judgement; "
                             f"call title::judge_text / judge_pixels ({JUDGEMENT})")
        if rel != JUDGEMENT:
            for m in TITLE_FINDING.finditer(code):
                found.append(f"{where(m.start())}: makes a title finding outside {JUDGEMENT}")
        folder = rel.rsplit("/", 1)[0]
        if folder in calls:
            calls[folder] += code
    for folder, wanted in CALLERS.items():
        for name in wanted:
            if not re.search(re.escape(name) + r"\s*\(", calls[folder]):
                found.append(f"{folder}: never calls {name}: its title verdict is not the shared judgement's")
    return found


def planted(root):
    """Each planted fault, in its own copy of the tree, must be named; 0 when all are."""
    faults = {
        "calls title::on_page": ("src/stamp/stamp.cpp", lambda s: s + "\nnamespace pith::stamp { void planted() { "
                                 "(void)title::on_page(\"\", \"\", std::nullopt); } }\n"),
        "makes a title finding": ("src/verify/verify.cpp", lambda s: s + "\nnamespace pith::verify { void planted(Findings& f) { "
                                  "f.ok(finding::pith_title_match, \"x\"); } }\n"),
        "never calls title::judge_pixels": ("src/stamp/stamp.cpp", lambda s: s.replace("title::judge_pixels(", "planted_judge_pixels(")),
    }
    found = []
    for wanted, (rel, plant) in faults.items():
        with treecheck.copy_of(root, "src") as copy:
            target = copy / rel
            target.write_text(plant(target.read_text()))
            found += [f for f in problems(copy) if wanted in f]
    return treecheck.planted_result(found, list(faults))


def summary(root, found):
    return f"title verdicts: stamp and verify through {JUDGEMENT}; {len(found)} problems"


if __name__ == "__main__":
    sys.exit(treecheck.main(problems, planted, summary))
