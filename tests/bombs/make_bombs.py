# SPDX-License-Identifier: MIT
"""Hostile PDFs for the budget tests (issue 15, section 1): each is small on disk and asks a reader
for gigabytes or hours. Made on the fly (nothing big is committed); only the standard library.

    python3 make_bombs.py OUTDIR [NAME...]      writes OUTDIR/NAME.pdf for each shape (all by default)
"""
import os
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pdfwriter import FILE_ID, header, indirect, startxref, stream, trailer, xref_row  # noqa: E402

MiB = 1 << 20
TITLE = b"BT /F1 24 Tf 72 700 Td (A Study of Bounded Readers) Tj ET\n"


def deflate_repeated(byte, size):
    """zlib data of `size` copies of `byte`, made a MiB at a time (never all in memory)."""
    z = zlib.compressobj(9)
    chunk = byte * MiB
    out = [z.compress(chunk) for _ in range(size // MiB)]
    out.append(z.compress(byte * (size % MiB)))
    out.append(z.flush())
    return b"".join(out)


def lzw_spaces(size):
    """PDF LZW data (EarlyChange 1) for about `size` spaces: codes for runs of 1, 2, 3, ... spaces,
    each one the code the decoder is about to define (the KwKwK case), a Clear when the table fills."""
    codes, width_of = [], []
    total, width = 0, 9
    while total < size:
        codes.append(256), width_of.append(width)  # Clear, at the width in use; then 9 again
        nxt, width, run = 258, 9, 1
        codes.append(32), width_of.append(9)
        total += 1
        while nxt < 4000 and total < size:
            run += 1
            codes.append(nxt), width_of.append(width)
            total += run
            nxt += 1  # the decoder defines a code for each code after the first
            if nxt + 1 >= (1 << width) and width < 12:
                width += 1
    codes.append(257), width_of.append(width)  # EOD
    acc, bits, out = 0, 0, bytearray()
    for code, width in zip(codes, width_of):
        acc = (acc << width) | code
        bits += width
        while bits >= 8:
            bits -= 8
            out.append((acc >> bits) & 0xFF)
        acc &= (1 << bits) - 1
    if bits:
        out.append((acc << (8 - bits)) & 0xFF)
    return bytes(out)


def lzw_decode(data):
    """A plain PDF LZW decoder (EarlyChange 1), to check lzw_spaces on small sizes."""
    acc = bits = 0
    width, table, prev, out = 9, None, None, bytearray()
    pos = 0
    while True:
        while bits < width and pos < len(data):
            acc = (acc << 8) | data[pos]
            pos += 1
            bits += 8
        if bits < width:
            return bytes(out)
        bits -= width
        code = (acc >> bits) & ((1 << width) - 1)
        acc &= (1 << bits) - 1
        if code == 256:
            table, prev, width = [bytes([i]) for i in range(256)] + [b"", b""], None, 9
            continue
        if code == 257:
            return bytes(out)
        if table is None:
            table = [bytes([i]) for i in range(256)] + [b"", b""]
        if prev is None:
            entry = table[code]
        else:
            entry = table[code] if code < len(table) else table[prev] + table[prev][:1]
            table.append(table[prev] + entry[:1])
            if len(table) + 1 >= (1 << width) and width < 12:
                width += 1
        out += entry
        prev = code


class Pdf:
    """Objects (bytes bodies), some of them inside object streams; written with an xref stream."""

    def __init__(self):
        self.bodies = {}
        self.packed = {}  # num -> (object stream number, index)

    def add(self, num, body):
        self.bodies[num] = body if isinstance(body, bytes) else body.encode("latin-1")

    def add_objstm(self, num, members, padding=0):
        """Object stream `num` holding {num: body}, then `padding` spaces (all Flate encoded)."""
        header, parts, offset = [], [], 0
        for i, (m, body) in enumerate(members.items()):
            header.append(b"%d %d" % (m, offset))
            parts.append(body)
            offset += len(body) + 1
            self.packed[m] = (num, i)
        head = b" ".join(header) + b"\n"
        plain = head + b" ".join(parts) + b" "
        z = zlib.compressobj(9)
        data = z.compress(plain)
        for _ in range(padding // MiB):
            data += z.compress(b" " * MiB)
        data += z.flush()
        self.add(num, stream(b"/Type /ObjStm /N %d /First %d /Filter /FlateDecode" % (len(members), len(head)), data))

    def write(self, path, root=1, info=None):
        out = bytearray(header())
        offsets = {}
        for num in sorted(self.bodies):
            offsets[num] = len(out)
            out += indirect(num, self.bodies[num])
        xref_num = max(list(self.bodies) + list(self.packed)) + 1
        offsets[xref_num] = len(out)
        w = (1, 4, 1)
        rows = bytearray(xref_row(0, 0xff, 0xff, w))
        for n in range(1, xref_num + 1):
            if n in offsets:
                rows += xref_row(1, offsets[n], 0, w)
            elif n in self.packed:
                rows += xref_row(2, self.packed[n][0], self.packed[n][1], w)
            else:
                rows += xref_row(0, 0, 0, w)
        extra = b" /Info %d 0 R" % info if info else b""
        out += indirect(xref_num, stream(b"/Type /XRef /Size %d /W [1 4 1] /Root %d 0 R%s /ID [%s %s]"
                                         % (xref_num + 1, root, extra, FILE_ID, FILE_ID), bytes(rows)))
        out += startxref(offsets[xref_num])
        with open(path + ".tmp", "wb") as f:
            f.write(out)
        os.replace(path + ".tmp", path)


def paper(page_extra=b"", resources=b"/Font << /F1 4 0 R >>", contents=b"5 0 R", catalog_extra=b""):
    """A one-page paper (objects 1-5) whose page, resources or catalog the caller extends."""
    p = Pdf()
    p.add(1, b"<< /Type /Catalog /Pages 2 0 R " + catalog_extra + b" >>")
    p.add(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    p.add(3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << " + resources +
          b" >> /Contents " + contents + b" " + page_extra + b" >>")
    p.add(4, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    p.add(5, stream(b"", TITLE))
    return p


# ---------------------------------------------------------------------------------------------
# the shapes: name -> function(path)

def good(path):
    paper().write(path)


def tounicode_shared(path):
    """300 fonts share one ToUnicode map that inflates to 500 MiB; the page uses every font."""
    fonts = b" ".join(b"/T%d %d 0 R" % (i, 100 + i) for i in range(300))
    show = b"".join(b"BT /T%d 10 Tf 72 %d Td (x) Tj ET\n" % (i, 100 + i) for i in range(300))
    p = paper(resources=b"/Font << /F1 4 0 R " + fonts + b" >>", contents=b"[5 0 R 6 0 R]")
    p.add(6, stream(b"", show))
    p.add(7, stream(b"/Filter /FlateDecode", deflate_repeated(b" ", 500 * MiB)))
    for i in range(300):
        p.add(100 + i, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 7 0 R >>")
    p.write(path)


def contents_repeated(path):
    """The page's /Contents lists one 500 MiB Flate bomb four times."""
    p = paper(contents=b"[5 0 R 6 0 R 6 0 R 6 0 R 6 0 R]")
    p.add(6, stream(b"/Filter /FlateDecode", deflate_repeated(b" ", 500 * MiB)))
    p.write(path)


def names_40m(path):
    """An object stream holds an array of 40 million names (the page's /Annots)."""
    p = paper(page_extra=b"/Annots 6 0 R")
    z = zlib.compressobj(9)
    head = b"6 0\n"
    data = z.compress(head + b"[")
    chunk = b"/a " * (MiB // 3)
    for _ in range(40 * 1000 * 1000 // (MiB // 3) + 1):
        data += z.compress(chunk)
    data += z.compress(b"]") + z.flush()
    p.add(7, stream(b"/Type /ObjStm /N 1 /First %d /Filter /FlateDecode" % len(head), data))
    p.packed[6] = (7, 0)
    p.write(path)


def xmp_flate_lzw(path):
    """The XMP metadata stream is Flate over LZW, 500 MiB decoded (issue: LZW went through PoDoFo)."""
    p = paper(catalog_extra=b"/Metadata 6 0 R")
    data = zlib.compress(lzw_spaces(500 * MiB), 9)
    p.add(6, stream(b"/Type /Metadata /Subtype /XML /Filter [/FlateDecode /LZWDecode]", data))
    p.write(path)


def objstm_4x480(path):
    """Four object streams of 480 MiB each, one small object at the start of each (page /Annots)."""
    p = paper(page_extra=b"/Annots [10 0 R 11 0 R 12 0 R 13 0 R]")
    for i in range(4):
        p.add_objstm(20 + i, {10 + i: b"<< /Type /Annot /Subtype /Text /Rect [0 0 1 1] >>"}, padding=480 * MiB)
    p.write(path)


def revisions_12k(path):
    """12,000 incremental updates, each replacing the Info dictionary (classic xref tables)."""
    p = paper()
    p.add(6, b"<< /Title (Revision 0) >>")
    p.write(path, info=6)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    prev = int(data[data.rindex(b"startxref") + 10:].split()[0])
    size = 9
    for r in range(1, 12001):
        at = len(data)
        data += indirect(6, b"<< /Title (Revision %d) >>" % r)
        xref = len(data)
        data += b"xref\n0 1\n0000000000 65535 f \n6 1\n%010d 00000 n \n" % at
        data += trailer(size, 1, b" /Info 6 0 R /Prev %d" % prev) + startxref(xref)
        prev = xref
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def recursive_forms(path):
    """Form XObjects drawing themselves (X1 -> X1), each other (X1 <-> X2) and fanning out
    (X3 draws X4 sixteen times, ... X10: 16^7 draws of the last one)."""
    xobjects = b"/XObject << " + b" ".join(b"/X%d %d 0 R" % (i, 10 + i) for i in range(1, 11)) + b" >>"
    p = paper(resources=b"/Font << /F1 4 0 R >> " + xobjects, contents=b"[5 0 R 6 0 R]")
    p.add(6, stream(b"", b"q /X1 Do Q q /X3 Do Q\n"))
    form = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> " + xobjects + b" >>"
    p.add(11, stream(form, b"/X1 Do /X2 Do BT /F1 9 Tf (one) Tj ET\n"))
    p.add(12, stream(form, b"/X1 Do BT /F1 9 Tf (two) Tj ET\n"))
    for i in range(3, 10):
        p.add(10 + i, stream(form, b"q /X%d Do Q\n" % (i + 1) * 16))
    p.add(20, stream(form, b"BT /F1 9 Tf 72 72 Td (leaf) Tj ET\n"))
    p.write(path)


def deep_nesting(path):
    """Arrays and dictionaries nested 100,000 deep: the page's /Annots, a resource dictionary, the
    Info dictionary, and the page content (arrays and a marked-content property list)."""
    depth = 100000
    p = paper(page_extra=b"/Annots 6 0 R", resources=b"/Font << /F1 4 0 R >> /Properties 7 0 R",
              contents=b"[5 0 R 8 0 R]")
    p.add(6, b"[" * depth + b"]" * depth)
    p.add(7, b"<< /A " * depth + b"1" + b" >>" * depth)
    p.add(8, stream(b"/Filter /FlateDecode", zlib.compress(
        b"/P <<" + b"/A <<" * depth + b">>" * depth + b">> BDC " + b"[" * depth + b"]" * depth + b" pop EMC\n")))
    p.add(9, b"<< /Title " + b"[" * depth + b"]" * depth + b" >>")
    p.write(path, info=9)


SHAPES = {f.__name__: f for f in (good, tounicode_shared, contents_repeated, names_40m, xmp_flate_lzw,
                                   objstm_4x480, revisions_12k, recursive_forms, deep_nesting)}


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for name in argv[2:] or list(SHAPES):
        path = os.path.join(out, name + ".pdf")
        if not os.path.exists(path):
            SHAPES[name](path)
    # The LZW writer against the plain decoder (the bomb must be what it claims to be).
    sample = lzw_decode(lzw_spaces(20 * 1000 * 1000))
    assert sample == b" " * len(sample) and len(sample) >= 20 * 1000 * 1000, "lzw_spaces is wrong"


if __name__ == "__main__":
    main(sys.argv)
