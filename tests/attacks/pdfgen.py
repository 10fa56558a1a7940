# SPDX-License-Identifier: MIT
"""Small PDF writers for the attack suite: papers built object by object (classic xref),
and edits of a stamped file's newest revision that keep every xref offset right.

Built on tests/lib/pdfwriter.py; tests/lib/pdfedit.py does the appended updates."""

import re

from pdfwriter import ID_ENTRY, classic, pdf_string, stream  # noqa: F401 (pdf_string, stream: for the attack modules)


class Doc:
    """Objects numbered in the order they are added; write() makes a one-revision PDF."""

    def __init__(self):
        self.objects = {}

    def add(self, body):
        num = len(self.objects) + 1
        self.objects[num] = body
        return num

    def set(self, num, body):
        self.objects[num] = body

    def write(self, root, info=None):
        return classic(self.objects, root, (b" /Info %d 0 R" % info if info else b"") + ID_ENTRY)


def text_lines(font, size, x, y, lines, leading=None):
    """Content operators showing `lines` downwards from (x, y)."""
    leading = leading or size * 1.25
    ops = ["BT", "/%s %g Tf" % (font, size), "%g TL" % leading, "%g %g Td" % (x, y)]
    for line in lines:
        ops.append(pdf_string(line) + " Tj T*")
    ops.append("ET")
    return "\n".join(ops) + "\n"


def gray_image(seed):
    """An 8x8 DeviceGray image (a diagonal pattern; `seed` shifts it)."""
    pixels = bytes(((x + y + seed) * 32) % 256 for y in range(8) for x in range(8))
    return stream("/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8",
                  pixels)


def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xmp_packet(dc_title=None):
    """An XMP packet with dc:title (the declared title) and a creator tool."""
    title = ""
    if dc_title is not None:
        title = ("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">%s</rdf:li></rdf:Alt></dc:title>"
                 % xml_escape(dc_title))
    return ("<?xpacket begin=\"\xef\xbb\xbf\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
            "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\">%s<xmp:CreatorTool>attack-suite</xmp:CreatorTool>"
            "</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>" % title).encode("latin-1")


# ---------------------------------------------------------------------------------------------
# editing the newest revision of a file whose last xref section is a classic table

def last_table(data):
    """(start of the xref table, {num: (row offset in file, object offset)})."""
    m = list(re.finditer(rb"startxref\s+(\d+)", data))
    return table_at(data, int(m[-1].group(1)))


def table_at(data, at):
    """(at, {num: (row offset, object offset)}) of the classic xref table at `at`."""
    assert data[at:at + 4] == b"xref", "the xref section at %d is not a table" % at
    rows = {}
    pos = at + 4
    while True:
        sub = re.compile(rb"\s*(\d+) (\d+)\s*?\r?\n").match(data, pos)
        if not sub:
            break
        first, count = int(sub.group(1)), int(sub.group(2))
        pos = sub.end()
        for i in range(count):
            row = data[pos:pos + 20]
            if row[17:18] == b"n":
                rows[first + i] = (pos, int(row[:10]))
            pos += 20
    return at, rows


def rewrite_object(data, num, body):
    """Replace object `num` as defined in the newest revision (classic table) by `body`,
    moving what follows and fixing that table's offsets and startxref: the file reads as if
    it had been written so."""
    if isinstance(body, str):
        body = body.encode("latin-1")
    xref_at, rows = last_table(data)
    assert num in rows, "object %d is not in the newest revision" % num
    start = rows[num][1]
    assert data.startswith(b"%d 0 obj" % num, start)
    end = data.index(b"endobj", start)
    new = b"%d 0 obj\n" % num + body + b"\n"
    delta = len(new) - (end - start)
    out = bytearray(data[:start] + new + data[end:])
    row_shift = delta  # the table itself moved by delta
    for n, (row, off) in rows.items():
        if off > start:
            r = row + row_shift
            out[r:r + 10] = b"%010d" % (off + delta)
    tail = out.rindex(b"startxref")
    out = out[:tail] + b"startxref\n%d\n%%%%EOF\n" % (xref_at + delta)
    return bytes(out)


def object_body(data, num):
    """Body text of object `num` in the newest revision (classic table)."""
    xref_at, rows = last_table(data)
    start = rows[num][1]
    head = data.index(b"obj", start) + 3
    return data[head:data.index(b"endobj", head)].strip()
