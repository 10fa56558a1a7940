# SPDX-License-Identifier: MIT
"""Reading the greyscale renders (pdftoppm -gray, mutool draw -c gray) the suites compare."""
import re

TOKEN = re.compile(rb"\s*(#[^\n]*\n\s*)*(\S+)")


def read_pgm(path):
    """(width, height, pixel bytes) of a binary PGM (P5, one byte a pixel); comments allowed."""
    with open(path, "rb") as f:
        data = f.read()
    tokens, pos = [], 0
    while len(tokens) < 4:
        m = TOKEN.match(data, pos)
        tokens.append(m.group(2))
        pos = m.end()
    assert tokens[0] == b"P5" and int(tokens[3]) < 256, "%s is not a one-byte binary PGM" % path
    w, h = int(tokens[1]), int(tokens[2])
    return w, h, data[pos + 1:pos + 1 + w * h]
