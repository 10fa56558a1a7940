#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fail when latex/pith.sty and templates/pith-xmp.json drift.

templates/pith-xmp.json is the one definition of pith's XMP schema.
pith.sty mirrors it: its namespace and prefix constants, and the property
names it can emit (every one goes through \\__pith_xmp_prop:nn {name}).

Checks:
  * namespace URI and prefix are identical;
  * every property pith.sty can emit is defined in the JSON;
  * every JSON property is either emitted by pith.sty or listed in
    NOT_FROM_TEX below with the reason (so a new property in the JSON
    fails this test until someone decides what pith.sty does with it);
  * the version pith.sty writes as stampToolVersion is its package version.

Usage: schema_sync.py [REPO_ROOT]
"""
import json
import os
import re
import sys

# JSON properties pith.sty deliberately never writes, and why.
NOT_FROM_TEX = {
    "unverified": "pith.sty cannot recompute SHA-256; `pith tex` refuses "
                  "records that do not recompute instead",
    "stampedAt": "a date would make the output non-reproducible",
    "badge": "pith.sty's badge is text of the page, which verify reads as text; only "
             "pith stamp's drawn badge is drawn again and compared",
    "priorLength": "only meaningful for pith stamp's incremental update",
    "priorSha256": "only meaningful for pith stamp's incremental update",
}


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "templates", "pith-xmp.json"),
              encoding="utf-8") as f:
        schema = json.load(f)
    with open(os.path.join(root, "latex", "pith.sty"), encoding="utf-8") as f:
        sty = f.read()
    # drop comments so that commented-out code does not count
    code = "\n".join(re.sub(r"(?<!\\)%.*", "", line)
                     for line in sty.splitlines())

    errors = []

    def const(name):
        m = re.search(r"\\str_const:Nn\s*\\%s\s*\{\s*([^}]*?)\s*\}" % name,
                      code)
        return m.group(1) if m else None

    ns, prefix = const("c__pith_ns_str"), const("c__pith_prefix_str")
    if ns != schema["namespace"]:
        errors.append("namespace: pith.sty %r, JSON %r"
                      % (ns, schema["namespace"]))
    if prefix != schema["prefix"]:
        errors.append("prefix: pith.sty %r, JSON %r"
                      % (prefix, schema["prefix"]))
    if schema["namespace"] in code.replace(
            "\\str_const:Nn \\c__pith_ns_str      { %s }" % ns, ""):
        errors.append("namespace URI hard-coded outside \\c__pith_ns_str")

    emitted = re.findall(r"\\__pith_xmp_prop:nn\s*\{\s*([A-Za-z0-9]+)\s*\}",
                         code)
    json_names = [p["name"] for p in schema["properties"]]
    if not emitted:
        errors.append("no \\__pith_xmp_prop:nn calls found in pith.sty")
    dup = sorted(set(n for n in emitted if emitted.count(n) > 1))
    if dup:
        errors.append("emitted twice: %s" % dup)
    unknown = sorted(set(emitted) - set(json_names))
    if unknown:
        errors.append("pith.sty emits properties the JSON does not define: %s"
                      % unknown)
    missing = sorted(set(json_names) - set(emitted) - set(NOT_FROM_TEX))
    if missing:
        errors.append("JSON properties pith.sty neither emits nor lists in "
                      "NOT_FROM_TEX: %s" % missing)
    stale = sorted(set(NOT_FROM_TEX) - set(json_names))
    if stale:
        errors.append("NOT_FROM_TEX names properties the JSON no longer "
                      "has: %s" % stale)
    both = sorted(set(NOT_FROM_TEX) & set(emitted))
    if both:
        errors.append("listed in NOT_FROM_TEX but emitted: %s" % both)

    # The PDF/A extension schema pith.sty declares under \DocumentMetadata
    # (issue 32): one \__pith_schema_prop:nnn {name} {valueType} {description}
    # per emitted property, equal to the JSON's ("~" is a space in expl3).
    declared = {}
    for name, vtype, desc in re.findall(
            r"\\__pith_schema_prop:nnn\s*\{\s*([A-Za-z0-9]+)\s*\}\s*"
            r"\{\s*([A-Za-z]+)\s*\}\s*\{\s*((?:[^{}]|\{[^{}]*\})*?)\s*\}", code):
        text = re.sub(r"\s+", "", desc).replace("~", " ")
        text = text.replace("\\c_underscore_str", "_")
        declared[name] = (vtype, text)
    by_name = {p["name"]: p for p in schema["properties"]}
    if sorted(declared) != sorted(emitted):
        errors.append("extension schema declares %s, pith.sty emits %s"
                      % (sorted(declared), sorted(emitted)))
    for name, (vtype, text) in sorted(declared.items()):
        want = by_name.get(name, {})
        if (vtype, text) != (want.get("valueType"), want.get("description")):
            errors.append("extension schema for %s: pith.sty %r, JSON %r"
                          % (name, (vtype, text),
                             (want.get("valueType"), want.get("description"))))

    m = re.search(r"\\ProvidesExplPackage\{pith\}\{[^}]*\}\{([^}]*)\}", code)
    version = const("c__pith_version_str")
    if not m or m.group(1) != version:
        errors.append("stampToolVersion %r is not the package version %r"
                      % (version, m and m.group(1)))
    if const("c__pith_tool_str") != "pith.sty":
        errors.append("stampTool must be 'pith.sty'")

    if errors:
        for e in errors:
            print("DRIFT: " + e)
        return 1
    print("pith.sty and templates/pith-xmp.json agree: namespace %s, "
          "prefix %s, %d of %d properties emitted (%s not from TeX)"
          % (ns, prefix, len(emitted), len(json_names),
             ", ".join(sorted(NOT_FROM_TEX))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
