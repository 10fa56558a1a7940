# SPDX-License-Identifier: MIT
"""Which lines of C++ the compiler accepts: the tests that prove a mistake does not compile
(tests/code/finding_codes_typed.py, tests/code/xmp_properties.py) write one statement a line
into one unit and read the compiler's errors by line."""
import os
import re
import subprocess


def verdicts(cxx, source, scratch, header, function, statements):
    """[(statement, compiles)] for each statement, compiled (syntax only) in `function`'s body
    after `#include header`, with src/ on the include path; and the compiler's messages."""
    os.makedirs(scratch, exist_ok=True)
    unit = os.path.join(scratch, "unit.cpp")
    with open(unit, "w") as f:
        f.write('#include "%s"\n%s {\n' % (header, function))
        f.writelines("    %s;\n" % s for s in statements)
        f.write("}\n")
    r = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", "-I", os.path.join(source, "src"), unit],
                       capture_output=True, text=True, timeout=300)
    rejected = {int(n) for n in re.findall(r"unit\.cpp:(\d+):\d+: error", r.stderr)}
    return [(s, 3 + i not in rejected) for i, s in enumerate(statements)], r.stderr
