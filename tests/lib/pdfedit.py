# SPDX-License-Identifier: MIT
"""Small, dependency-free helpers to build and tamper with PDFs for the `pith verify` tests.

Everything here works on raw bytes:
  * make_pdf()        writes a small one-page PDF (classic xref) showing some lines of text;
  * replace_same_length() edits bytes without moving anything (xref offsets stay right);
  * append_update()   appends a hand-written incremental update (new/replaced objects, an xref
                      section of the same kind as the file's last one, and a trailer with /Prev);
  * show_object()     the newest version of an object as PDF syntax, via `qpdf --show-object`.
"""

import re
import subprocess

from pdfwriter import ID_ENTRY, classic, indirect, pdf_string, startxref, stream, xref_row  # noqa: F401 (pdf_string, stream: for the suites)


def make_pdf(lines, metadata=None, info=None, font_size=10, page_size=(612, 792)):
    """A one-page PDF with `lines` of Helvetica text from the top left. `metadata`: optional XMP
    packet (bytes) attached as the catalog's /Metadata stream, uncompressed. `info`: optional
    dict of Info entries (already PDF syntax values)."""
    w, h = page_size
    content = ["BT", "/F1 %d Tf" % font_size, "%d TL" % int(font_size * 1.4), "50 %d Td" % (h - 72)]
    for line in lines:
        content.append(pdf_string(line) + " Tj T*")
    content.append("ET")
    content = "\n".join(content) + "\n"

    objects = {}
    objects[1] = b"<< /Type /Catalog /Pages 2 0 R" + (b" /Metadata 6 0 R" if metadata is not None else b"") + b" >>"
    objects[2] = b"<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>"
    objects[3] = ("<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 %d %d ] /Resources << /Font << /F1 4 0 R >> >> "
                  "/Contents 5 0 R >>" % (w, h)).encode()
    objects[4] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    objects[5] = stream("", content)
    if metadata is not None:
        objects[6] = stream("/Type /Metadata /Subtype /XML", metadata)
    info_num = None
    if info:
        info_num = max(objects) + 1
        objects[info_num] = ("<< " + " ".join("/%s %s" % (k, v) for k, v in info.items()) + " >>").encode("latin-1")

    return classic(objects, extra=(b" /Info %d 0 R" % info_num if info_num else b"") + ID_ENTRY)


def replace_same_length(data, old, new, start=0, count=1):
    """Replace `old` by `new` (same length) at or after byte `start`; asserts exactly `count`
    occurrences there so a test never edits something it did not mean to."""
    if isinstance(old, str):
        old = old.encode()
    if isinstance(new, str):
        new = new.encode()
    assert len(old) == len(new), "same-length edit needed: %r -> %r" % (old, new)
    head, tail = data[:start], data[start:]
    found = tail.count(old)
    assert found == count, "expected %d occurrence(s) of %r after byte %d, found %d" % (count, old, start, found)
    return head + tail.replace(old, new)


def last_trailer(data):
    """(kind, dict_text, offset) of the newest xref section: kind is 'table' or 'stream'."""
    m = list(re.finditer(rb"startxref\s+(\d+)", data))
    assert m, "no startxref"
    offset = int(m[-1].group(1))
    at = data[offset:offset + 20]
    if at.startswith(b"xref"):
        t = data.find(b"trailer", offset)
        end = data.find(b"startxref", t)
        return "table", data[t + 7:end], offset
    head = data[offset:data.find(b"stream", offset)]
    return "stream", head, offset


def trailer_entry(dict_text, key):
    """Raw value of /key in a trailer or xref-stream dictionary (references, numbers, /ID arrays)."""
    m = re.search(rb"/" + key.encode() + rb"\s*(\d+\s+\d+\s+R|\d+|\[[^\]]*\])", dict_text)
    return m.group(1).decode("latin-1") if m else None


def append_update(data, objects, info=None, root=None, xref_kind=None, comment=None):
    """Append an incremental update. `objects`: {number: body bytes} (the text between
    "N 0 obj" and "endobj"), new or replacing older versions. The xref section is of the same
    kind as the file's newest one unless `xref_kind` ('table' or 'stream') says otherwise.
    `info` / `root`: override those trailer entries ("12 0 R")."""
    kind, dict_text, prev = last_trailer(data)
    kind = xref_kind or kind
    size = int(trailer_entry(dict_text, "Size"))
    root = root or trailer_entry(dict_text, "Root")
    info = info if info is not None else trailer_entry(dict_text, "Info")
    ident = trailer_entry(dict_text, "ID")

    out = bytearray(data)
    if not out.endswith(b"\n"):
        out += b"\n"
    if comment:
        out += comment.encode() + b"\n"
    offsets = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += indirect(num, objects[num])
    size = max([size] + [n + 1 for n in objects])

    trailer = "/Size %d /Root %s /Prev %d" % (size if kind == "table" else size + 1, root, prev)
    if info:
        trailer += " /Info " + info
    if ident:
        trailer += " /ID " + ident

    if kind == "table":
        xref_at = len(out)
        out += b"xref\n"
        for num in sorted(offsets):  # one subsection per object: always valid
            out += b"%d 1\n%010d 00000 n \n" % (num, offsets[num])
        out += b"trailer\n<< " + trailer.encode("latin-1") + b" >>\n"
    else:
        xref_num = size
        xref_at = len(out)
        offsets[xref_num] = xref_at
        rows = b"".join(xref_row(1, offsets[n], 0) for n in sorted(offsets))
        index = " ".join("%d 1" % n for n in sorted(offsets))
        out += (b"%d 0 obj\n<< /Type /XRef /W [ 1 4 2 ] /Index [ %s ] %s /Length %d >>\nstream\n"
                % (xref_num, index.encode(), trailer.encode("latin-1"), len(rows)))
        out += rows + b"\nendstream\nendobj\n"
    out += startxref(xref_at)
    return bytes(out)


def show_object(path, num, qpdf="qpdf"):
    """The newest version of object `num` in PDF syntax (a stream's dictionary only)."""
    r = subprocess.run([qpdf, "--show-object=%d" % num, str(path)], capture_output=True, timeout=120)
    text = r.stdout.decode("latin-1").strip()
    assert text, "qpdf --show-object=%d %s printed nothing: %s" % (num, path, r.stderr.decode(errors="replace"))
    return text

