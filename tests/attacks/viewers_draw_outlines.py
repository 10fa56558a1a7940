# SPDX-License-Identifier: MIT
"""Attack files: paper B, its title drawn as filled outlines (no text), then a block that covers it
in white and draws A's title as text, opened by an empty clipping path (`W n`, `W* n`, `h W n`
with no current path: MuPDF clips everything) or a text clip mode set in a text object that shows
no glyph (`BT 7 Tr ET`, modes 4 to 7: Ghostscript clips everything). poppler, and pith with it,
draws the block (A's title); MuPDF or Ghostscript does not (B's title). Stamped with A's record.
The text layer holds A's title only, so only the closed list catches them (a clip with no path,
a text clipping mode that shows no glyph: `unverified`, pith.construct.unlisted). Built by
viewers_draw.build_clip_outlines(); the same attacks with B's title as text are `viewers-clip-*`."""
import viewers_draw

CHECKS = viewers_draw.CHECKS


def build(b, a):
    viewers_draw.build_clip_outlines(b)
