#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Generate src/badge/badge_font_data.cpp: glyph outlines for the badge's Type 3 font.

Usage: tools/gen_badge_font.py [/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf] > src/badge/badge_font_data.cpp

Requires python3-fonttools (Debian). The outlines come from DejaVu Sans
(Bitstream Vera licence + DejaVu changes, public domain; redistributable,
modified or not, provided the names "Bitstream"/"Vera"/"DejaVu" are not used
for a modified font). Only printable ASCII (0x20-0x7E) is emitted; the badge
embeds only the glyphs its label uses.

Output: for each character, its glyph name, advance width, bounding box and a
PDF path ("x y m", "x y l", "x1 y1 x2 y2 x3 y3 c", "h") in a 1000-unit glyph
space (FontMatrix [0.001 0 0 0.001 0 0]); TrueType quadratic splines are
converted to cubic Beziers and all numbers rounded to integers. The output is
deterministic for a given font file.
"""
import hashlib
import os
import sys

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont

DEFAULT_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
UNITS = 1000

LICENCE = """
Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved.
Bitstream Vera is a trademark of Bitstream, Inc.
DejaVu changes are in public domain.

Permission is hereby granted, free of charge, to any person obtaining a copy
of the fonts accompanying this license ("Fonts") and associated
documentation files (the "Font Software"), to reproduce and distribute the
Font Software, including without limitation the rights to use, copy, merge,
publish, distribute, and/or sell copies of the Font Software, and to permit
persons to whom the Font Software is furnished to do so, subject to the
following conditions:

The above copyright and trademark notices and this permission notice shall
be included in all copies of one or more of the Font Software typefaces.

The Font Software may be modified, altered, or added to, and in particular
the designs of glyphs or characters in the Fonts may be modified and
additional glyphs or characters may be added to the Fonts, only if the fonts
are renamed to names not containing either the words "Bitstream" or the word
"Vera".

This License becomes null and void to the extent applicable to Fonts or Font
Software that has been modified and is distributed under the "Bitstream
Vera" names.

The Font Software may be sold as part of a larger software package but no
copy of one or more of the Font Software typefaces may be sold by itself.

THE FONT SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS
OR IMPLIED, INCLUDING BUT NOT LIMITED TO ANY WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT OF COPYRIGHT, PATENT,
TRADEMARK, OR OTHER RIGHT. IN NO EVENT SHALL BITSTREAM OR THE GNOME
FOUNDATION BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, INCLUDING
ANY GENERAL, SPECIAL, INDIRECT, INCIDENTAL, OR CONSEQUENTIAL DAMAGES,
WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF
THE USE OR INABILITY TO USE THE FONT SOFTWARE OR FROM OTHER DEALINGS IN THE
FONT SOFTWARE.

Except as contained in this notice, the names of Gnome, the Gnome
Foundation, and Bitstream Inc., shall not be used in advertising or
otherwise to promote the sale, use or other dealings in this Font Software
without prior written authorization from the Gnome Foundation or Bitstream
Inc., respectively. For further information, contact: fonts at gnome dot
org.
"""


class PdfPathPen(BasePen):
    def __init__(self, glyphset, scale):
        super().__init__(glyphset)
        self.scale = scale
        self.ops = []
        self.points = []

    def _n(self, v):
        return str(int(round(v * self.scale)))

    def _pt(self, p):
        self.points.append((round(p[0] * self.scale), round(p[1] * self.scale)))
        return self._n(p[0]) + " " + self._n(p[1])

    def _moveTo(self, p):
        self.ops.append(self._pt(p) + " m")

    def _lineTo(self, p):
        self.ops.append(self._pt(p) + " l")

    def _curveToOne(self, p1, p2, p3):
        self.ops.append(" ".join([self._pt(p1), self._pt(p2), self._pt(p3)]) + " c")

    def _closePath(self):
        self.ops.append("h")

    def _endPath(self):
        pass


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_FONT
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    font = TTFont(path)
    upem = font["head"].unitsPerEm
    scale = UNITS / upem
    cmap = font.getBestCmap()
    glyphset = font.getGlyphSet()
    hmtx = font["hmtx"]
    name = font["name"].getDebugName(4)
    version = font["name"].getDebugName(5)

    rows = []
    for code in range(0x20, 0x7F):
        gname = cmap[code]
        pen = PdfPathPen(glyphset, scale)
        glyphset[gname].draw(pen)
        adv = int(round(hmtx[gname][0] * scale))
        if pen.points:
            xs = [p[0] for p in pen.points]
            ys = [p[1] for p in pen.points]
            bbox = (min(xs), min(ys), max(xs), max(ys))
        else:
            bbox = (0, 0, 0, 0)
        rows.append((code, gname, adv, bbox, " ".join(pen.ops)))

    out = sys.stdout
    out.write("// GENERATED by tools/gen_badge_font.py - do not edit.\n")
    out.write("// Source font: %s (%s), %s\n" % (name, version, os.path.basename(path)))
    out.write("// sha256 %s\n" % digest)
    out.write("//\n")
    out.write("// The glyph outlines below are derived from DejaVu Sans (converted to cubic\n")
    out.write("// Bezier paths, rescaled, rounded). The badge embeds them as an unnamed\n")
    out.write("// Type 3 font, i.e. the modified font is not distributed under the\n")
    out.write("// \"Bitstream\" or \"Vera\" names. Licence of the source font:\n//\n")
    for line in LICENCE.strip("\n").split("\n"):
        out.write(("// " + line).rstrip() + "\n")
    out.write('#include "badge/badge_font.hpp"\n\n')
    out.write("namespace pith::badge::font {\n\n")
    out.write("const Glyph kGlyphs[] = {\n")
    for code, gname, adv, bbox, ops in rows:
        out.write("    {%d, \"%s\", %d, {%d, %d, %d, %d},\n     \"%s\"},\n"
                  % (code, gname, adv, bbox[0], bbox[1], bbox[2], bbox[3], ops))
    out.write("};\n")
    out.write("const std::size_t kGlyphCount = sizeof(kGlyphs) / sizeof(kGlyphs[0]);\n\n")
    out.write("}  // namespace pith::badge::font\n")


if __name__ == "__main__":
    main()
