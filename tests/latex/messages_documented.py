#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every message pith.sty defines is in the manual's Messages section with the kind pith.sty
gives it, and the section names no message pith.sty lacks.

usage: messages_documented.py LATEX_DIR

pith.sty: the names of `\\msg_new:nn(n)n {pith} {NAME}`, and the kinds (error, warning, info)
of the `\\msg_KIND:nn... {pith} {NAME}` calls. pith.tex: the `\\item[\\texttt{NAME}, ... (KIND)]`
lines of `\\section{Messages}`. A message defined but never given is a failure too.
Exit 0 pass, 1 fail.
"""
import os
import re
import sys


def main():
    latex = sys.argv[1]
    sty = open(os.path.join(latex, "pith.sty"), encoding="utf-8").read()
    tex = open(os.path.join(latex, "pith.tex"), encoding="utf-8").read()
    defined = set(re.findall(r"\\msg_new:nnnn? \{ pith \} \{ ([a-z-]+) \}", sty))
    given = {}
    for kind, name in re.findall(r"\\msg_(error|warning|info):n[nxVo]* \{ pith \} \{ ([a-z-]+) \}", sty):
        given.setdefault(name, set()).add(kind)
    section = tex.split("\\section{Messages}", 1)[1].split("\\section{", 1)[0]
    documented = {}
    for names, kind in re.findall(r"\\item\[((?:\\texttt\{[a-z-]+\}(?:, )?)+) \((error|warning|info)\)\]", section):
        for name in re.findall(r"\\texttt\{([a-z-]+)\}", names):
            documented[name] = kind
    failures = []
    for name in sorted(defined):
        if name not in given:
            failures.append("pith.sty defines %s but never gives it" % name)
        elif name not in documented:
            failures.append("the manual's Messages section lacks %s" % name)
        elif given[name] != {documented[name]}:
            failures.append("%s: pith.sty gives it as %s, the manual says %s" %
                            (name, "/".join(sorted(given[name])), documented[name]))
    for name in sorted(set(documented) - defined):
        failures.append("the manual documents %s, which pith.sty does not define" % name)
    for f in failures:
        print("FAIL: " + f)
    print("%d messages defined, %d documented; %d failed" % (len(defined), len(documented), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
