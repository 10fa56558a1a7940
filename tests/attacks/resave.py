# SPDX-License-Identifier: MIT
"""Attacks that hide a forgery behind a re-save (issue 30). A file rewritten after stamping (qpdf
here, as a repository or a viewer's "Save As" does) loses pith's incremental update, so `pith
verify` can no longer see what changed after the stamp: it says at best `unverified`
(pith.rewritten), and `invalid` wherever the page still contradicts the record. Removing only the
marker comment of pith's update, or changing the bytes before it, is no rewrite: still invalid."""
import subprocess

import pdfedit
from build_attacks import F1, LOGO, TITLE_A, TITLE_B, paper_b, stream


def rewritten(b, name, data):
    """`data` as qpdf rewrites it (no incremental update left)."""
    src, out = b.write("work/pre-" + name, data), b.path("work/rw-" + name)
    subprocess.run(["qpdf", src, out], check=True, capture_output=True)
    with open(out, "rb") as f:
        data = f.read()
    assert b"%PithUpdate" not in data and data.count(b"%%EOF") == 1, name
    return data


def blank_marker(data):
    """pith's update without its marker comment: the same bytes, the comment turned to spaces."""
    at = data.index(b"%PithUpdate prior=")
    end = data.index(b"\n", at)
    return data[:at] + b" " * (end - at) + data[end:]


def build(b, a):
    ctl = "control-honest.pdf"
    # B stamped with A's record, the revisions then folded by qpdf: the title still differs.
    data = rewritten(b, "b-with-a.pdf", b.stamp(paper_b(), "A", "work/b-with-a.pdf"))
    b.add("rewritten-title-differs.pdf", data, "rewritten", "paper B stamped with A's record, then rewritten by qpdf so "
          "no revision is left to compare", ("invalid", "pith.title.differs"), "page 1 shows B's title, not A's",
          [["text_has", TITLE_B, "both"], ["text_lacks", TITLE_A, "both"]])

    # Honest A, then a revision redrawing page 1's logo as a retraction notice, folded by qpdf.
    retracted = {LOGO: stream("/Type /XObject /Subtype /Form /BBox [ 0 0 400 20 ] /Resources << /Font << /F1 %d 0 R >> >>" % F1,
                              "BT /F1 9 Tf 0 4 Td (Retracted: see another paper) Tj ET\n")}
    changed = pdfedit.append_update(a, retracted)
    b.add("rewritten-later-change.pdf", rewritten(b, "later-change.pdf", changed), "rewritten",
          "honest A stamped, then a revision redrawing the logo as 'Retracted: see another paper', then rewritten by "
          "qpdf to fold the revision in", ("unverified", "pith.rewritten"),
          "page 1 shows 'Retracted: see another paper' instead of the logo",
          [["differs", ctl], ["text_has", "Retracted: see another paper", "both"]])

    # The same change appended, and only pith's marker comment blanked: no rewrite, still invalid.
    b.add("marker-blanked-later-change.pdf", blank_marker(changed), "rewritten",
          "honest A stamped, then a revision redrawing the logo, and pith's %PithUpdate comment blanked so the file "
          "looks rewritten", ("invalid", "pith.changed.resource"), "page 1 shows 'Retracted: see another paper'",
          [["differs", ctl], ["text_has", "Retracted: see another paper", "both"]])

    # A byte before pith's update changed (the abstract) and the marker blanked: the revision
    # structure is still there, so the prior bytes must match.
    at = a.index(b"We describe a method")
    edited = blank_marker(a[:at] + b"We fabricate  method" + a[at + 20:])
    b.add("marker-blanked-prior-edited.pdf", edited, "rewritten",
          "honest A stamped, then the abstract edited in place before pith's update ('We fabricate  method') and "
          "pith's %PithUpdate comment blanked", ("invalid", "pith.prior.mismatch"),
          "pdftotext and mutool show the edited abstract", [["text_has", "We fabricate", "both"]])
