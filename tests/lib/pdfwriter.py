# SPDX-License-Identifier: MIT
"""The one PDF writer of the Python suites: a one-revision file written object by object with a
classic xref table (classic()), and the pieces it is made of (header, indirect object, xref
rows, trailer, startxref) for suites that write something else on purpose: cross-reference
streams, object streams, bytes before the header, unlisted objects (tests/attacks,
tests/bombs), appended updates (pdfedit.py). Only the standard library."""

import zlib

BINARY_COMMENT = b"%\xe2\xe3\xcf\xd3\n"  # the second line that marks a file as binary
FILE_ID = b"<00112233445566778899aabbccddeeff>"
ID_ENTRY = b" /ID [ " + FILE_ID + b" " + FILE_ID + b" ]"  # a fixed /ID, for trailer extras


def as_bytes(text):
    return text.encode("latin-1") if isinstance(text, str) else text


def pdf_string(text):
    """A PDF literal string (latin-1 text; octal escapes outside printable ASCII)."""
    out = []
    for ch in text:
        o = ord(ch)
        if ch in "\\()":
            out.append("\\" + ch)
        elif 32 <= o < 127:
            out.append(ch)
        else:
            out.append("\\%03o" % o)
    return "(" + "".join(out) + ")"


def stream(entries, payload, compress=False):
    """A stream object's body: `entries` (dictionary entries without << >> and /Length; may be
    empty), `payload` Flate-encoded when `compress`."""
    entries, payload = as_bytes(entries), as_bytes(payload)
    if compress:
        payload = zlib.compress(payload)
        entries = (entries + b" /Filter /FlateDecode").strip()
    return b"<< " + (entries + b" " if entries else b"") + b"/Length %d >>\nstream\n" % len(payload) + payload + b"\nendstream"


def header(version="1.7", binary=True):
    """`%PDF-1.x`, with the binary comment line unless `binary` is False."""
    return b"%PDF-" + version.encode() + b"\n" + (BINARY_COMMENT if binary else b"")


def indirect(num, body):
    """`num 0 obj ... endobj` around `body` (bytes or latin-1 text)."""
    return b"%d 0 obj\n" % num + as_bytes(body) + b"\nendobj\n"


def xref_table(offsets, size):
    """A classic xref table of one subsection, objects 0 to size-1: `offsets` {num: offset}
    (every number below `size` present)."""
    rows = b"".join(b"%010d 00000 n \n" % offsets[num] for num in range(1, size))
    return b"xref\n0 %d\n0000000000 65535 f \n" % size + rows


def xref_row(kind, second, third, widths=(1, 4, 2)):
    """One row of a cross-reference stream with /W `widths` (type 0 free, 1 offset, 2 packed)."""
    return kind.to_bytes(widths[0], "big") + second.to_bytes(widths[1], "big") + third.to_bytes(widths[2], "big")


def trailer(size, root, extra=b""):
    """The trailer dictionary of a classic table; `extra`: more entries (e.g. b" /Info 4 0 R")."""
    return b"trailer\n<< /Size %d /Root %d 0 R" % (size, root) + as_bytes(extra) + b" >>\n"


def startxref(at):
    return b"startxref\n%d\n%%%%EOF\n" % at


def classic(objects, root=1, extra=b"", version="1.7", binary=True):
    """A one-revision PDF: `objects` a list (object i+1 is objects[i]) or {num: body} numbered
    from 1 without gaps; bodies bytes or latin-1 text; classic xref; `extra` more trailer entries."""
    if not isinstance(objects, dict):
        objects = dict(enumerate(objects, 1))
    out, offsets = bytearray(header(version, binary)), {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += indirect(num, objects[num])
    size, xref_at = max(objects) + 1, len(out)
    out += xref_table(offsets, size) + trailer(size, root, extra) + startxref(xref_at)
    return bytes(out)


def minimal_pdf():
    """A one-page PDF that shows nothing (300 x 200 pt, no content)."""
    return classic([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] >>"], binary=False)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path
