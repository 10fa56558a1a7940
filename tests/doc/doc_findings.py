#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""doc/findings.md and src/core/finding_codes.hpp hold the same finding codes, and no code is
spelt out anywhere else in src/.

The header declares each code once (`inline constexpr Code pith_hash_match{"pith.hash.match"};
// meaning`): the constant is the code with '_' for '.', and has a one-line meaning. The emitters
take only these constants (a misspelt constant does not compile); this test closes the rest:
- every constant is documented in a table row of doc/findings.md: in full (`pith.hash.match`), in
  the row's shorthand (`pith.hash.match` / `.mismatch`) or under a wildcard (`signature.*`);
- every code a row documents is a constant, and every wildcard and family covers one;
- no string literal in src/ (but the header and core/error.hpp, whose error codes share the
  namespaces) looks like a finding code: a code written as a string would bypass the constants.
`--self-test` checks the checker on a scratch tree where each of these is broken once.
"""
import argparse
import os
import re
import shutil
import sys

HEADER = os.path.join("src", "core", "finding_codes.hpp")
ERRORS = os.path.join("src", "core", "error.hpp")
CONSTANT = re.compile(r'inline constexpr Code (\w+)\{"([^"]*)"\};(?:\s*//\s*(\S.*))?')
FAMILY = re.compile(r'inline constexpr Family (\w+)\{"([^"]*)"\};')
# A literal that is, or starts, a code in the namespaces of pith's findings.
LITERAL = re.compile(r'"((?:pith|record|receipt|stamp|signature|keyring|registry|pdf)\.[a-z_.]*)"')
FILE_NAMES = (".json", ".pdf", ".pem")  # "keyring.json" is a file, not a code
SOURCES = (".cpp", ".hpp", ".h", ".c", ".inc", ".in")


def header_codes(source):
    text = open(os.path.join(source, HEADER), encoding="utf-8").read()
    constants = CONSTANT.findall(text)
    families = [prefix for _, prefix in FAMILY.findall(text)]
    return constants, families, text.count("inline constexpr Code ")


def documented(source):
    """The codes and wildcards in the first cell of doc/findings.md's table rows."""
    codes, wildcards = set(), set()
    for line in open(os.path.join(source, "doc", "findings.md"), encoding="utf-8"):
        cells = line.split("|")
        if not line.startswith("|") or len(cells) < 3 or set(cells[1].strip()) <= set("-") or cells[1].strip() == "code":
            continue
        last = ""
        for token in re.findall(r"`([^`]+)`", cells[1]):
            if token.endswith(".*"):
                wildcards.add(token[:-1])
            elif token.startswith("."):
                codes.add(last.rpartition(".")[0] + token)
            else:
                codes.add(token)
                last = token
    return codes, wildcards


def stray_literals(source):
    found = []
    skip = {os.path.join(source, HEADER), os.path.join(source, ERRORS)}
    for root, _, files in os.walk(os.path.join(source, "src")):
        for name in sorted(files):
            path = os.path.join(root, name)
            if not name.endswith(SOURCES) or path in skip:
                continue
            for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
                for literal in LITERAL.findall(line):
                    if literal.endswith(FILE_NAMES):
                        continue
                    found.append(f"{os.path.relpath(path, source)}:{n}: \"{literal}\"")
    return found


def check(source):
    constants, families, declared = header_codes(source)
    problems = []
    if declared != len(constants):
        problems.append(f"{HEADER}: {declared - len(constants)} constants not in the form NAME{{\"CODE\"}};  // meaning")
    codes = {code for _, code, _ in constants}
    for name, code, meaning in constants:
        if name != code.replace(".", "_"):
            problems.append(f"{HEADER}: constant {name} is not named after its code {code}")
        if not meaning:
            problems.append(f"{HEADER}: {code} has no one-line meaning")
    doc, wildcards = documented(source)
    for code in sorted(codes):
        if code not in doc and not any(code.startswith(w) for w in wildcards):
            problems.append(f"not in doc/findings.md: {code}")
    for code in sorted(doc - codes):
        problems.append(f"doc/findings.md documents {code}, which is no constant of {HEADER}")
    for prefix in sorted(wildcards | set(families)):
        if not any(c.startswith(prefix) for c in codes):
            problems.append(f"{prefix}* covers no code of {HEADER}")
    for where in stray_literals(source):
        problems.append(f"a finding code as a string outside {HEADER}: {where}")
    return codes, problems


def self_test(scratch):
    shutil.rmtree(scratch, ignore_errors=True)
    for d in ("src/core", "src/verify", "doc"):
        os.makedirs(os.path.join(scratch, d))
    open(os.path.join(scratch, HEADER), "w").write(
        'inline constexpr Code pith_hash_match{"pith.hash.match"};  // recomputes\n'
        'inline constexpr Code pith_hash_mismatch{"pith.hash.mismatch"};  // does not\n'
        'inline constexpr Code signature_other{"signature.other"};  // another signature\n'
        'inline constexpr Code pith_link_host{"pith.link.host"};  // undocumented\n'
        'inline constexpr Code pith_title_gone{"pith.title.none"};  // misnamed\n'
        'inline constexpr Code pith_rewritten{"pith.rewritten"};\n'
        'inline constexpr Code pith_odd("pith.odd");  // another form\n'
        'inline constexpr Family pith_changed{"pith.changed."};\n')
    open(os.path.join(scratch, ERRORS), "w").write('inline constexpr const char* pdf_damaged = "pdf.damaged";\n')
    open(os.path.join(scratch, "src", "verify", "v.cpp"), "w").write(
        'f.ok(finding::pith_hash_match, "the hash (pith.hash.match) recomputes");\n'
        'f.fail("pith.hash.mismatch", "planted");\n')
    open(os.path.join(scratch, "doc", "findings.md"), "w").write(
        "| code | meaning |\n|---|---|\n| `pith.hash.match` / `.mismatch` | x |\n| `signature.*` | y |\n"
        "| `pith.title.none`, `pith.rewritten` | z |\n| `pith.update.none` | not a constant |\n| `pith.xref.*` | w |\n")
    codes, problems = check(scratch)
    expected = [
        f"{HEADER}: 1 constants not in the form NAME{{\"CODE\"}};  // meaning",
        f"{HEADER}: constant pith_title_gone is not named after its code pith.title.none",
        f"{HEADER}: pith.rewritten has no one-line meaning",
        "not in doc/findings.md: pith.link.host",
        f"doc/findings.md documents pith.update.none, which is no constant of {HEADER}",
        f"pith.changed.* covers no code of {HEADER}",
        f"pith.xref.* covers no code of {HEADER}",
        f"a finding code as a string outside {HEADER}: src/verify/v.cpp:2: \"pith.hash.mismatch\"",
    ]
    print(f"self-test: {len(codes)} codes; problems found:")
    for p in problems:
        print("  " + p)
    return 0 if sorted(problems) == sorted(expected) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--self-test", metavar="SCRATCH")
    args = ap.parse_args()
    if args.self_test:
        return self_test(args.self_test)
    codes, problems = check(args.source)
    print(f"{len(codes)} finding codes in {HEADER}; {len(problems)} problems")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
