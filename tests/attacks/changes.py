# SPDX-License-Identifier: MIT
"""Attack class `changes` (issue 29 classes 3 and 4): what changes after the stamp.

Class 3 (the change analysis must compare every object): a revision appended after the stamp
that redefines an object stream changes every object inside it, though its xref section lists
only the stream; an annotation whose /Rect pith cannot read. Class 4 (a closed list of what may
change after the stamp): links, actions and scripts anywhere, annotations that are not comments,
comments whose appearance draws text, a hidden annotation revealed, a signature widget that
paints, /NeedAppearances, the title, author and subject viewers show, DocMDP. Several are signed
by a publisher first (`pith stamp --sign-cert`): pdfsig then says "not total document signed",
and pith must not say trusted (signed_agreement.py checks pith against pdfsig on every one).

Controls (must stay trusted): a highlight saved incrementally by MuPDF (`mutool run`), an XMP
rights statement added by exiftool, both also after a signed stamp, and a countersignature made
here with `openssl cms` (poppler 22's `pdfsig -add-signature` writes a signature whose digest
does not match), which pdfsig checks.

build(b, a) is called by build_attacks.py main(); CHECKS are this module's named proof steps
(["py", name, args]), each run with poppler and MuPDF, never pith.
"""
import os
import re
import subprocess

import build_attacks as ba
import pdfedit
import pdfgen
import pdfwriter
from pdfgen import pdf_string, stream, text_lines

ABSTRACT = [66, 560, 560, 642]  # the abstract and body lines under the authors
FORGED = "Abstract. We retract every result of this paper; see the corrected version."
SIGNED_BY = "CN=Attack Test Publisher"


# ---------------------------------------------------------------------------------------------
# tools

def sh(args, **kw):
    r = subprocess.run(args, capture_output=True, timeout=120, **kw)
    if r.returncode != 0:
        raise SystemExit("%s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.decode(errors="replace")))
    return r.stdout


def pki(b):
    """A test CA and a publisher's signing key (ECDSA P-256) under DIR/pki: ca.pem, signer.pem, signer.key."""
    d = b.path("pki")
    if os.path.exists(os.path.join(d, "signer.pem")):
        return d
    os.makedirs(d, exist_ok=True)
    p = lambda n: os.path.join(d, n)  # noqa: E731
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    sh(["openssl", "req", "-x509"] + ec + ["-keyout", p("ca.key"), "-out", p("ca.pem"), "-days", "3650",
        "-subj", "/CN=Attack Test CA/O=Pith Tests", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    for name, cn in (("signer", "Attack Test Publisher"), ("reviewer", "Attack Test Reviewer")):
        sh(["openssl", "req", "-new"] + ec + ["-keyout", p(name + ".key"), "-out", p(name + ".csr"),
            "-subj", "/CN=%s/O=Pith Tests" % cn])
        with open(p(name + ".ext"), "w") as f:
            f.write("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\n")
        sh(["openssl", "x509", "-req", "-in", p(name + ".csr"), "-CA", p("ca.pem"), "-CAkey", p("ca.key"),
            "-CAcreateserial", "-days", "3650", "-extfile", p(name + ".ext"), "-out", p(name + ".pem")])
        os.chmod(p(name + ".key"), 0o600)
    return d


def stamp_signed(b, data, record, name, certify=False):
    """`data` stamped with records/RECORD.signed.json and signed by the test publisher."""
    d = pki(b)
    src = b.write("work/src-" + os.path.basename(name), data)
    args = ["stamp", src, "--record", b.path("records/%s.signed.json" % record), "-o", b.path(name), "--no-title-check",
            "--sign-cert", os.path.join(d, "signer.pem"), "--sign-key", os.path.join(d, "signer.key")]
    b.run(args + (["--certify"] if certify else []))
    return b.read(name)


def mupdf_highlight(b, data, name, quad):
    """`data` with a Highlight over `quad` (x0, y0, x1, y1 in PDF points) saved incrementally by MuPDF."""
    src = b.write("work/hl-src-" + os.path.basename(name), data)
    script = b.write("work/highlight.js", (
        "var doc = new PDFDocument(scriptArgs[0]);\n"
        "var page = doc.loadPage(0);\n"
        "var h = page.bound()[3];\n"
        "var x0 = +scriptArgs[2], y0 = h - scriptArgs[3], x1 = +scriptArgs[4], y1 = h - scriptArgs[5];\n"
        "var annot = page.createAnnotation('Highlight');\n"
        "annot.setQuadPoints([[x0, y1, x1, y1, x0, y0, x1, y0]]);\n"
        "annot.setColor([1, 1, 0]);\n"
        "annot.update();\n"
        "doc.save(scriptArgs[1], 'incremental');\n").encode())
    out = b.path("work/hl-out-" + os.path.basename(name))
    sh(["mutool", "run", script, src, out] + ["%g" % v for v in quad])
    with open(out, "rb") as f:
        return f.read()


def exiftool_rights(b, data, name):
    """`data` with an XMP rights statement added by exiftool (its own incremental update)."""
    src = b.write("work/exif-src-" + os.path.basename(name), data)
    out = b.path("work/exif-out-" + os.path.basename(name))
    if os.path.exists(out):
        os.unlink(out)
    sh(["exiftool", "-q", "-XMP-xmpRights:UsageTerms=Licensed under CC BY 4.0", "-XMP-xmpRights:Marked=True", "-o", out, src])
    with open(out, "rb") as f:
        return f.read()


def countersign(b, data, page_num, page_body):
    """`data` with a second, invisible signature appended as a reader's signing tool does it: a
    signature field (zero rectangle) in the form and the page's /Annots, its CMS made by
    `openssl cms` over the file's bytes but /Contents."""
    d = pki(b)
    kind, tr, prev = pdfedit.last_trailer(data)
    size = int(pdfedit.trailer_entry(tr, "Size"))
    cat = pdfedit.show_object(b.write("work/cs-in.pdf", data), ba.CATALOG)
    form = re.search(r"/AcroForm (\d+) 0 R", cat)
    field, sig = size, size + 1
    placeholder = b"<" + b"0" * 8192 + b">"
    objs = {field: "<< /Type /Annot /Subtype /Widget /FT /Sig /T (Reviewer) /Rect [ 0 0 0 0 ] /F 132 /P %d 0 R /V %d 0 R >>"
                   % (page_num, sig),
            sig: ("<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /M (D:20260601120000Z) "
                  "/ByteRange [ 0000000000 0000000000 0000000000 0000000000 ] /Contents ").encode() + placeholder + b" >>",
            page_num: ba.with_annot(page_body, field)}
    if form:  # the publisher's form: one more field
        fnum = int(form.group(1))
        fbody = pdfedit.show_object(b.path("work/cs-in.pdf"), fnum)
        objs[fnum] = re.sub(r"/Fields \[ ([^\]]*)\]", lambda m: "/Fields [ %s%d 0 R ]" % (m.group(1), field), fbody)
    else:
        inline = re.search(r"/Fields \[ ([^\]]*)\]", cat)
        objs[ba.CATALOG] = re.sub(r"/Fields \[ ([^\]]*)\]", lambda m: "/Fields [ %s%d 0 R ]" % (m.group(1), field), cat) \
            if inline else cat[:-2] + " /AcroForm << /Fields [ %d 0 R ] /SigFlags 3 >> >>" % field
    out = bytearray(pdfedit.append_update(data, objs))
    at = out.rindex(placeholder)
    r = [0, at, at + len(placeholder), len(out) - at - len(placeholder)]
    br = out.index(b"/ByteRange [ 0000000000", out.rindex(b"%d 0 obj" % sig))
    out[br:br + 56] = b"/ByteRange [ %010d %010d %010d %010d" % tuple(r)
    signed = b.write("work/cs-tbs.bin", bytes(out[:r[1]] + out[r[2]:]))
    der = sh(["openssl", "cms", "-sign", "-binary", "-outform", "DER", "-md", "sha256", "-in", signed,
              "-signer", os.path.join(d, "reviewer.pem"), "-inkey", os.path.join(d, "reviewer.key"),
              "-certfile", os.path.join(d, "ca.pem")])
    hexed = der.hex().encode()
    assert len(hexed) <= 8192
    out[r[1] + 1:r[1] + 1 + len(hexed)] = hexed
    return bytes(out)


# ---------------------------------------------------------------------------------------------
# an object-stream paper

def objstm_paper(data, packed):
    """`data` (one classic revision, from paper()) written again with the objects `packed` inside
    one object stream and a cross-reference stream, as many PDF writers do."""
    _, rows = pdfgen.last_table(data)
    nums = sorted(rows)
    body = {n: pdfgen.object_body(data, n) for n in nums}
    tr = pdfedit.last_trailer(data)[1]
    size = max(nums) + 1
    stm, xref = size, size + 1
    out = bytearray(pdfwriter.header())
    offsets = {}
    for n in nums:
        if n not in packed:
            offsets[n] = len(out)
            out += pdfwriter.indirect(n, body[n])
    offsets[stm] = len(out)
    out += pdfwriter.indirect(stm, objstm(packed, body))
    offsets[xref] = len(out)
    rows = pdfwriter.xref_row(0, 0, 0xffff)
    for n in range(1, xref + 1):
        rows += pdfwriter.xref_row(2, stm, packed.index(n)) if n in packed else pdfwriter.xref_row(1, offsets[n], 0)
    info = pdfedit.trailer_entry(tr, "Info")
    out += pdfwriter.indirect(xref, stream(b"/Type /XRef /Size %d /W [ 1 4 2 ] /Root %d 0 R%s /ID %s"
                                           % (xref + 1, ba.CATALOG, (" /Info " + info).encode() if info else b"",
                                              pdfedit.trailer_entry(tr, "ID").encode()), rows))
    out += pdfwriter.startxref(offsets[xref])
    return bytes(out), stm


def objstm(packed, body):
    """An object stream body holding `packed` (their bodies from `body`)."""
    head, data = [], b""
    for n in packed:
        head.append(b"%d %d" % (n, len(data)))
        data += body[n] + b"\n"
    head = b" ".join(head) + b"\n"
    return stream("/Type /ObjStm /N %d /First %d" % (len(packed), len(head)), head + data)


PACKED = [ba.CATALOG, ba.PAGES, ba.PAGE, ba.F1, ba.F2, ba.F3]


def paper_objects():
    data = ba.paper()
    _, rows = pdfgen.last_table(data)
    return data, {n: pdfgen.object_body(data, n) for n in rows}


# ---------------------------------------------------------------------------------------------
# proofs (poppler and MuPDF, never pith)

def tool(p, args):
    return p.tool(args)[1]


def check_js(p, name, args):
    """poppler (pdfinfo -js) and MuPDF (mutool show js, or its objects) both read the script."""
    pop = tool(p, ["pdfinfo", "-js", p.path(name)])
    mu = tool(p, ["mutool", "show", p.path(name), "js"]) + tool(p, ["mutool", "show", "-g", p.path(name), "grep"])
    missing = [t for t, out in (("poppler", pop), ("mupdf", mu)) if args[0] not in out]
    return "%s do not read the script %r" % (" and ".join(missing), args[0]) if missing else None


def check_url(p, name, args):
    """poppler (pdfinfo -url) and MuPDF (its objects) read a link to args[0]."""
    pop = tool(p, ["pdfinfo", "-url", p.path(name)])
    mu = tool(p, ["mutool", "show", "-g", p.path(name), "grep"])
    missing = [t for t, out in (("poppler", pop), ("mupdf", mu)) if args[0] not in out]
    return "%s read no link to %r" % (" and ".join(missing), args[0]) if missing else None


def check_info(p, name, args):
    """poppler (pdfinfo) and MuPDF (mutool show trailer/Info) read Info /KEY = value."""
    key, value = args
    pop = re.search(r"^%s:\s+(.*)$" % key, tool(p, ["pdfinfo", p.path(name)]), re.M)
    mu = tool(p, ["mutool", "show", p.path(name), "trailer/Info/" + key])
    if not pop or pop.group(1).strip() != value:
        return "pdfinfo reads %s %r" % (key, pop and pop.group(1))
    return None if value in mu else "mutool reads %s %r" % (key, mu.strip())


def check_object(p, name, args):
    """MuPDF reads `args[1]` at path `args[0]` (mutool show) and poppler's metadata (pdfinfo -meta)
    matches args[2], a regex (None: poppler's tools do not show the object)."""
    path, want, pop_re = args
    mu = tool(p, ["mutool", "show", p.path(name), path]).replace("\n", "")  # mutool wraps long lines
    if want not in mu:
        return "mutool show %s: %r lacks %r" % (path, mu[:200], want)
    if pop_re is None:  # poppler's tools do not show it (open actions)
        return None
    pop = tool(p, ["pdfinfo", "-meta", p.path(name)])
    return None if re.search(pop_re, pop) else "pdfinfo -meta does not match %r" % pop_re


def region_diff(p, name, other, rect):
    mine, theirs = p.renders(name), p.renders(other)
    return {t: ba.region(mine[t], rect) != ba.region(theirs[t], rect) for t in ("poppler", "mupdf")}


def check_region(p, name, args):
    """args = [other, rect, renderers]: the renderers named ("both", "mupdf") draw `rect` otherwise
    than in `other`; with "mupdf" poppler draws it as in `other` (the viewers read it differently)."""
    other, rect, which = args
    d = region_diff(p, name, other, rect)
    if which == "both":
        return None if all(d.values()) else "%s: the region renders as in %s" % ([t for t in d if not d[t]], other)
    if which in ("mupdf", "poppler"):  # one viewer shows it; the other is noted
        other_tool = "poppler" if which == "mupdf" else "mupdf"
        p.note.append("%s draws it %s" % (other_tool, "too" if d[other_tool] else "not"))
        return None if d[which] else "%s: the region renders as in %s" % (which, other)
    raise ValueError(which)


def check_outline(p, name, args):
    """poppler (pdftohtml -xml) and MuPDF (mutool show outline) list the bookmark args[0]; MuPDF
    reads args[2] at path args[1]."""
    title, path, want = args
    pop = tool(p, ["pdftohtml", "-xml", "-stdout", "-i", "-q", p.path(name)])
    mu = tool(p, ["mutool", "show", p.path(name), "outline"])
    missing = [t for t, out in (("poppler", pop), ("mupdf", mu)) if title not in out]
    if missing:
        return "%s list no bookmark %r" % (" and ".join(missing), title)
    return None if want in tool(p, ["mutool", "show", p.path(name), path]) else "mutool: no %r at %s" % (want, path)


def check_pdfsig(p, name, args):
    """pdfsig: the first signature holds for what it covers and is (args[0] False) not total."""
    out = tool(p, ["pdfsig", "-nocert", p.path(name)])
    first = out.split("Signature #2")[0]
    if "Signature #1" not in first or "Signature is Valid" not in first:
        return "pdfsig: %r" % first[-300:]
    total = "Total document signed" in first
    return None if total == args[0] else "pdfsig: the publisher's signature %s the whole file" % ("covers" if total else "does not cover")


def check_pages(p, name, args):
    pop = re.search(r"^Pages:\s+(\d+)", tool(p, ["pdfinfo", p.path(name)]), re.M)
    mu = re.search(r"Pages: (\d+)", tool(p, ["mutool", "info", p.path(name)]))
    got = (pop and int(pop.group(1)), mu and int(mu.group(1)))
    return None if got == (args[0], args[0]) else "pages (poppler, mupdf): %r" % (got,)


CHECKS = {"r2c_js": check_js, "r2c_url": check_url, "r2c_info": check_info, "r2c_object": check_object,
          "r2c_region": check_region, "r2c_pdfsig": check_pdfsig, "r2c_pages": check_pages,
          "r2c_outline": check_outline}


# ---------------------------------------------------------------------------------------------
# the files

def add(b, name, data, cls, desc, code, claim, proof, signed=False, alt=None):
    b.add(name, data, cls, desc, ("invalid", code), claim, proof, alt=alt)
    if signed:
        b.entries[-1]["trust"] = "pki/ca.pem"


def control(b, name, data, desc, claim, proof, signed=False):
    b.add(name, data, "control", desc, None, claim, proof, control=True)
    if signed:
        b.entries[-1]["trust"] = "pki/ca.pem"


def forged_ap(w, h):
    """A white box with the forged abstract on it: what a reader takes for the paper's abstract."""
    return stream("/Type /XObject /Subtype /Form /BBox [ 0 0 %g %g ] /Resources << /Font << /F2 %d 0 R >> >>" % (w, h, ba.F2),
                  "1 g 0 0 %g %g re f 0 g BT /F2 10 Tf 6 %g Td %s Tj ET\n" % (w, h, h - 16, pdf_string(FORGED)))


def build_objstm(b):
    """Class 3: a paper written with an object stream, stamped; later the stream is redefined."""
    data, stm = objstm_paper(ba.paper(), PACKED)
    base = b.stamp(data, "A", "control-objstm.pdf")
    control(b, "control-objstm.pdf", base, "paper A written with its catalog, pages and fonts in an object stream, stamped",
            "A's title shows", [["text_has", ba.TITLE_A, "both"]])
    _, body = paper_objects()
    size = int(pdfedit.trailer_entry(pdfedit.last_trailer(base)[1], "Size"))
    cls, n = "changes-compare", size

    def redefined(changes):
        return {stm: objstm(PACKED, {**body, **{k: v.encode() for k, v in changes.items()}})}

    font = {ba.F3: "<< /Type /Font /Subtype /Type1 /BaseFont /Courier-Oblique /Encoding /WinAnsiEncoding >>"}
    add(b, "objstm-font.pdf", pdfedit.append_update(base, redefined(font)), cls,
        "A with its objects in an object stream, stamped, then a revision redefining the object stream (the only object "
        "its xref lists) with the title's font changed to Courier-Oblique", "pith.changed.resource",
        "the title renders in another font in both renderers", [["py", "r2c_region", ["control-objstm.pdf", ba.TITLE_RECT, "both"]]])
    swapped = {ba.F2: "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /Type /Encoding /BaseEncoding "
                      "/WinAnsiEncoding /Differences [ 101 /o 111 /e ] >> >>"}
    add(b, "objstm-body-glyphs.pdf", pdfedit.append_update(base, redefined(swapped)), cls,
        "the same, the object stream redefined with the body font drawing 'o' for 'e' and 'e' for 'o' (the text layer "
        "unchanged)", "pith.changed.resource", "the abstract renders differently in both renderers",
        [["py", "r2c_region", ["control-objstm.pdf", ABSTRACT, "both"]]])
    broken = {ba.F3: "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding [ ( >>"}
    add(b, "objstm-unreadable.pdf", pdfedit.append_update(base, redefined(broken)), cls,
        "the same, the object stream redefined with the title's font object left unterminated (an open array and "
        "string): pith cannot parse it, viewers repair it their own way (pith refuses the file, exit 2, when it "
        "reads the font for page 1 before the change analysis does: today it does, pdf.syntax)", "pith.changed.unreadable",
        "the title renders differently from the stamped file in both renderers",
        [["py", "r2c_region", ["control-objstm.pdf", ba.TITLE_RECT, "both"]]], alt={"exit": 2, "error_code": "pdf.syntax"})
    page_b = ("<< /Type /Page /Parent %d 0 R /MediaBox [ 0 0 612 792 ] /Resources << /Font << /F3 %d 0 R >> >> "
              "/Contents %d 0 R >>" % (ba.PAGES, ba.F3, n + 1))
    pages = {ba.PAGES: "<< /Type /Pages /Kids [ %d 0 R %d 0 R ] /Count 2 >>" % (ba.PAGE, n)}
    objs = {**redefined(pages), n: page_b, n + 1: stream("", text_lines("F3", 18, 72, 700, ["Erratum: " + ba.TITLE_B]))}
    add(b, "objstm-page-added.pdf", pdfedit.append_update(base, objs), cls,
        "the same, the object stream redefined with a second page in /Pages (the page and its content new objects)",
        "pith.changed.page_tree", "poppler and MuPDF read two pages", [["py", "r2c_pages", [2]]])
    signed = stamp_signed(b, data, "A", "work/objstm-signed.pdf")
    ssize = int(pdfedit.trailer_entry(pdfedit.last_trailer(signed)[1], "Size"))
    objs = {ssize: page_b.replace("%d 0 R >>" % (n + 1), "%d 0 R >>" % (ssize + 1)),
            ssize + 1: stream("", text_lines("F3", 18, 72, 700, ["Erratum: " + ba.TITLE_B]))}
    objs[stm] = objstm(PACKED, {**body, ba.PAGES: ("<< /Type /Pages /Kids [ %d 0 R %d 0 R ] /Count 2 >>" % (ba.PAGE, ssize)).encode()})
    add(b, "objstm-signed-page-added.pdf", pdfedit.append_update(signed, objs), "changes-signed",
        "the object-stream paper stamped and signed by a publisher, then a revision redefining the object stream with a "
        "second page", "stamp.changed_after_signing",
        "pdfsig: the publisher's signature holds but does not cover the whole file; poppler and MuPDF read two pages",
        [["py", "r2c_pdfsig", [False]], ["py", "r2c_pages", [2]]], signed=True)


def build_list(b, a):
    """Class 4: what is not on the list of what may change after the stamp."""
    f, ctl, cls = b.facts, "control-honest.pdf", "changes-list"
    page, n = f["page"], f["size"]
    x0, y0, x1, y1 = ABSTRACT
    w, h = x1 - x0, y1 - y0
    cat = ba.show(b.path(ctl), ba.CATALOG)
    js = "app.alert\\(\"This paper was retracted\"\\);"

    def appended(name, objs, desc, code, claim, proof, **kw):
        add(b, name, pdfedit.append_update(a, objs, **kw), cls, "honest A stamped, then one appended revision that " + desc,
            code, claim, proof)

    widget = ("<< /Type /Annot /Subtype /Widget /FT /Tx /T (note) /Rect [ 400 300 540 320 ] /F 4 /P %d 0 R "
              "/DA (/Helv 10 Tf 0 g) %%s >>" % ba.PAGE)
    form = cat[:-2] + " /AcroForm << /Fields [ %d 0 R ] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv %d 0 R >> >> >> >>" % (n, ba.F1)
    appended("list-widget-open-js.pdf",
             {n: widget % ("/AA << /PO << /S /JavaScript /JS (%s) >> >>" % js), ba.PAGE: ba.with_annot(page, n), ba.CATALOG: form},
             "adds a form field whose widget runs JavaScript when the page opens (/AA /PO)", "pith.changed.action",
             "pdfinfo -js and MuPDF read the page-open script", [["py", "r2c_js", ["This paper was retracted"]]])
    appended("list-field-js.pdf",
             {n: widget % ("/AA << /K << /S /JavaScript /JS (%s) >> >>" % js), ba.PAGE: ba.with_annot(page, n), ba.CATALOG: form},
             "adds a form field with a keystroke script (/AA /K)", "pith.changed.action",
             "pdfinfo -js and MuPDF read the field's script", [["py", "r2c_js", ["This paper was retracted"]]])
    appended("list-document-js.pdf",
             {ba.CATALOG: cat[:-2] + " /Names << /JavaScript << /Names [ (open) << /S /JavaScript /JS (%s) >> ] >> >> >>" % js},
             "gives the catalog a document-level script (the /Names /JavaScript tree, run when the file opens)",
             "pith.changed.action", "pdfinfo -js and MuPDF read the script", [["py", "r2c_js", ["This paper was retracted"]]])
    appended("list-openaction-js.pdf", {ba.CATALOG: cat[:-2] + " /OpenAction << /S /JavaScript /JS (%s) >> >>" % js},
             "gives the catalog an /OpenAction script", "pith.changed.action",
             "MuPDF and qpdf read the catalog's /OpenAction script (pdfinfo -js does not list open actions)",
             [["py", "r2c_object", ["trailer/Root/OpenAction/JS", "retracted", None]],
              ["qpdf", ba.CATALOG, "/OpenAction"]])
    outline = n
    appended("list-outline-js.pdf",
             {outline: "<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count 1 >>" % (n + 1, n + 1),
              n + 1: "<< /Title (Corrected version) /Parent %d 0 R /A << /S /JavaScript /JS (%s) >> >>" % (outline, js),
              ba.CATALOG: cat[:-2] + " /Outlines %d 0 R >>" % outline},
             "adds a bookmark (outline item) whose action is a script", "pith.changed.action",
             "poppler (pdftohtml -xml) and MuPDF list the bookmark; MuPDF reads its script",
             [["py", "r2c_outline", ["Corrected version", "%d/A/JS" % (n + 1), "retracted"]]])
    appended("list-link-body.pdf",
             {n: "<< /Type /Annot /Subtype /Link /Rect [ 60 80 560 690 ] /Border [ 0 0 0 ] /F 4 /A << /S /URI "
                 "/URI (https://evil.example/corrected) >> >>", ba.PAGE: ba.with_annot(page, n)},
             "adds an invisible link over the whole body, away from the badge", "pith.changed.action",
             "poppler (pdfinfo -url) and MuPDF read the link", [["py", "r2c_url", ["https://evil.example/corrected"]]])
    real = ba.short(b.numbers["A"])
    fake_ap = stream("/Type /XObject /Subtype /Form /BBox [ 0 0 60 12 ] /Resources << /Font << /F1 %d 0 R >> >>" % ba.F1,
                     "0.17 0.24 0.31 rg 0 0 60 12 re f 1 g BT /F1 8 Tf 3 3 Td (%s) Tj ET\n" % real)
    appended("list-lookalike-badge.pdf",
             {n: fake_ap, n + 1: "<< /Type /Annot /Subtype /Stamp /Rect [ 480 40 540 52 ] /F 4 /AP << /N %d 0 R >> >>" % n,
              n + 2: "<< /Type /Annot /Subtype /Link /Rect [ 480 40 540 52 ] /Border [ 0 0 0 ] /F 4 /A << /S /URI "
                     "/URI (https://p1th.science/pith/verify) >> >>",
              ba.PAGE: ba.with_annot(ba.with_annot(page, n + 1), n + 2)},
             "adds a second, look-alike badge at the foot of the page (a Stamp annotation) linking to a look-alike host",
             "pith.changed.annotation", "both renderers draw the second badge; both read the look-alike link",
             [["py", "r2c_region", [ctl, [480, 40, 540, 52], "both"]], ["py", "r2c_url", ["https://p1th.science/"]]])
    for key, subtype, extra in (("freetext", "FreeText", "/DA (/Helv 10 Tf 0 g)"), ("stamp", "Stamp", ""),
                                ("square", "Square", "/C [ 1 1 1 ] /IC [ 1 1 1 ]")):
        appended("list-%s-body.pdf" % key,
                 {n: forged_ap(w, h), n + 1: "<< /Type /Annot /Subtype /%s /Rect %s /F 4 %s /AP << /N %d 0 R >> >>"
                                              % (subtype, ba.rect_text(ABSTRACT), extra, n), ba.PAGE: ba.with_annot(page, n + 1)},
                 "adds a %s annotation over the abstract (clear of title and badge) showing a forged abstract" % subtype,
                 "pith.changed.annotation", "both renderers draw the forged abstract over the real one",
                 [["py", "r2c_region", [ctl, ABSTRACT, "both"]], ["text_has", ba.TITLE_A, "both"]])
    appended("list-highlight-draws-text.pdf",
             {n: forged_ap(w, h), n + 1: "<< /Type /Annot /Subtype /Highlight /Rect %s /F 4 /QuadPoints [ %g %g %g %g %g %g %g %g ] "
                                          "/AP << /N %d 0 R >> >>" % (ba.rect_text(ABSTRACT), x0, y1, x1, y1, x0, y0, x1, y0, n),
              ba.PAGE: ba.with_annot(page, n + 1)},
             "adds a Highlight over the abstract whose appearance paints a white box and a forged abstract",
             "pith.changed.annotation", "both renderers draw the forged abstract", [["py", "r2c_region", [ctl, ABSTRACT, "both"]]])
    sig_ap = forged_ap(w, h)
    appended("list-signature-paints.pdf",
             {n: sig_ap, n + 1: "<< /Type /Annot /Subtype /Widget /FT /Sig /T (Reviewer) /Rect %s /F 4 /P %d 0 R /AP << /N %d 0 R >> >>"
                                % (ba.rect_text(ABSTRACT), ba.PAGE, n), ba.PAGE: ba.with_annot(page, n + 1),
              ba.CATALOG: cat[:-2] + " /AcroForm << /Fields [ %d 0 R ] /SigFlags 3 >> >>" % (n + 1)},
             "adds a second signature field whose widget paints a forged abstract over the real one",
             "pith.changed.annotation", "both renderers draw the forged abstract", [["py", "r2c_region", [ctl, ABSTRACT, "both"]]])
    info = ba.show(b.path(ctl), f["info"])
    appended("list-info-title.pdf",
             {f["info"]: info[:-2] + " /Title %s >>" % pdf_string(ba.TITLE_B),
              ba.CATALOG: cat[:-2] + " /ViewerPreferences << /DisplayDocTitle true >> >>"},
             "sets Info /Title to paper B's title and /DisplayDocTitle, so viewers put B's title in the window bar",
             "pith.changed.metadata", "poppler and MuPDF read B's title as the document's title",
             [["py", "r2c_info", ["Title", ba.TITLE_B]]])
    appended("list-info-author.pdf", {f["info"]: info[:-2] + " /Author (A. Impostor) /Subject (Retracted) >>"},
             "sets Info /Author and /Subject", "pith.changed.metadata",
             "poppler and MuPDF read the new author", [["py", "r2c_info", ["Author", "A. Impostor"]]])
    xmp = ba.xmp_text(a, f["xmp"])
    dc = "xmlns:dc=\"http://purl.org/dc/elements/1.1/\""
    title = "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">%s</rdf:li></rdf:Alt></dc:title>" % ba.TITLE_B
    changed = xmp.replace("</rdf:RDF>", "<rdf:Description rdf:about=\"\" %s>%s</rdf:Description></rdf:RDF>" % (dc, title))
    assert changed != xmp
    appended("list-xmp-title.pdf", {f["xmp"]: ba.xmp_object(changed)}, "adds dc:title = paper B's title to the XMP",
             "pith.changed.metadata", "exiftool and poppler (pdfinfo -meta) read B's title as dc:title; MuPDF reads the stream",
             [["exif", "XMP-dc:Title", ba.TITLE_B], ["py", "r2c_object", ["trailer/Root/Metadata", ba.TITLE_B, re.escape(ba.TITLE_B)]]])


def build_revealed(b):
    """An annotation prepared Hidden before the stamp, shown by a later revision."""
    def hook(d):
        ap = d.add(forged_ap(ABSTRACT[2] - ABSTRACT[0], ABSTRACT[3] - ABSTRACT[1]))
        return {"annots": [d.add("<< /Type /Annot /Subtype /Stamp /Rect %s /F 6 /AP << /N %d 0 R >> >>"
                                 % (ba.rect_text(ABSTRACT), ap))]}
    base = b.stamp(ba.paper(hook=hook), "A", "control-hidden-annotation.pdf")
    control(b, "control-hidden-annotation.pdf", base, "paper A carrying a Stamp annotation flagged Hidden (a forged "
            "abstract nobody sees), stamped", "A's title shows; the hidden annotation draws nothing",
            [["text_has", ba.TITLE_A, "both"], ["same_render", "control-honest.pdf"]])
    path = b.path("control-hidden-annotation.pdf")
    num = int(re.search(r"/Annots \[ (\d+) 0 R", ba.show(path, ba.PAGE)).group(1))
    shown = ba.show(path, num).replace("/F 6", "/F 4")
    add(b, "list-hidden-revealed.pdf", pdfedit.append_update(base, {num: shown}), "changes-list",
        "that file, then a revision clearing the annotation's Hidden flag: the forged abstract shows over the real one",
        "pith.changed.annotation", "both renderers draw the forged abstract where the stamped file showed the real one",
        [["py", "r2c_region", ["control-hidden-annotation.pdf", ABSTRACT, "both"]]])


def build_redrawn(b):
    """A comment stamped with the paper whose appearance stream alone is redefined later."""
    x0, y0, x1, y1 = ABSTRACT
    w, h = x1 - x0, y1 - y0

    def hook(d):
        ap = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 %g %g ] /Resources << /ExtGState << /M << /BM /Multiply >> >> >>"
                          % (w, h), "/M gs 1 1 0 rg 0 %g %g 12 re f\n" % (h - 14, w)))
        return {"annots": [d.add("<< /Type /Annot /Subtype /Highlight /Rect %s /F 4 /C [ 1 1 0 ] /QuadPoints [ %g %g %g %g %g %g %g %g ] "
                                 "/AP << /N %d 0 R >> >>" % (ba.rect_text(ABSTRACT), x0, y1, x1, y1, x0, y1 - 14, x1, y1 - 14, ap))]}
    base = b.stamp(ba.paper(hook=hook), "A", "control-highlighted.pdf")
    control(b, "control-highlighted.pdf", base, "paper A carrying a yellow highlight on its abstract's first line, stamped",
            "A's title shows; the highlight is drawn", [["text_has", ba.TITLE_A, "both"],
                                                        ["py", "r2c_region", ["control-honest.pdf", ABSTRACT, "both"]]])
    path = b.path("control-highlighted.pdf")
    annot = int(re.search(r"/Annots \[ (\d+) 0 R", ba.show(path, ba.PAGE)).group(1))
    ap = int(re.search(r"/N (\d+) 0 R", ba.show(path, annot)).group(1))
    add(b, "list-highlight-redrawn.pdf", pdfedit.append_update(base, {ap: forged_ap(w, h)}), "changes-compare",
        "that file, then a revision redefining only the highlight's appearance stream: it now paints a forged abstract "
        "(the annotation's dictionary, and so the page's /Annots, unchanged)", "pith.changed.annotation",
        "both renderers draw the forged abstract where the stamped file showed the highlighted one",
        [["py", "r2c_region", ["control-highlighted.pdf", ABSTRACT, "both"]]])


def build_needappearances(b):
    """A form field whose value changes without its appearance, and /NeedAppearances: viewers draw the value."""
    def field(d):
        ap = d.add(stream("/Type /XObject /Subtype /Form /BBox [ 0 0 400 20 ]", "/Tx BMC EMC\n"))
        wdg = d.add("<< /Type /Annot /Subtype /Widget /FT /Tx /T (status) /Rect [ 72 200 472 220 ] /F 4 /P %d 0 R "
                    "/DA (/Helv 12 Tf 0 g) /AP << /N %d 0 R >> >>" % (ba.PAGE, ap))
        return {"annots": [wdg], "catalog": "/AcroForm << /Fields [ %d 0 R ] /DA (/Helv 0 Tf 0 g) "
                                            "/DR << /Font << /Helv %d 0 R >> >> >>" % (wdg, ba.F1)}
    base = b.stamp(ba.paper(hook=field), "A", "work/needappearances-base.pdf")
    path = b.path("work/needappearances-base.pdf")
    wnum = int(re.search(r"/Annots \[ (\d+) 0 R", ba.show(path, ba.PAGE)).group(1))
    cat = ba.show(path, ba.CATALOG)
    wdict = ba.show(path, wnum)[:-2] + " /V (Retracted by the editors) >>"
    form = re.sub(r"/AcroForm << ", "/AcroForm << /NeedAppearances true ", cat)
    assert form != cat
    add(b, "list-needappearances.pdf", pdfedit.append_update(base, {wnum: wdict, ba.CATALOG: form}), "changes-list",
        "paper A with an empty text field, stamped, then a revision giving the field a value without an appearance and "
        "setting /NeedAppearances: viewers that honour it (poppler, Acrobat) draw the value themselves", "pith.changed.form",
        "poppler draws the field's new value; MuPDF keeps the stamped (empty) appearance: the viewers disagree",
        [["py", "r2c_region", ["work/needappearances-base.pdf", [72, 200, 472, 220], "poppler"]]])


def build_rect(b, a):
    """Class 3: an annotation whose /Rect pith cannot read (five numbers) over the title."""
    f, ctl = b.facts, "control-honest.pdf"
    n, r = f["size"], ba.TITLE_RECT
    ap = stream("/Type /XObject /Subtype /Form /BBox [ 0 0 %g %g ] /Resources << /Font << /F3 %d 0 R >> >>" % (r[2] - r[0], r[3] - r[1], ba.F3),
                "1 g 0 0 %g %g re f\n" % (r[2] - r[0], r[3] - r[1]))
    annot = "<< /Type /Annot /Subtype /Highlight /Rect [ %g %g %g %g 0 ] /F 4 /AP << /N %d 0 R >> >>" % (r[0], r[1], r[2], r[3], n)
    add(b, "rect-five-numbers.pdf", pdfedit.append_update(a, {n: ap, n + 1: annot, ba.PAGE: ba.with_annot(f["page"], n + 1)}),
        "changes-compare", "honest A stamped, then a revision adding a Highlight over the title whose /Rect has five numbers "
        "and whose appearance paints it white", "pith.changed.annotation",
        "MuPDF reads the first four numbers and paints the title white; poppler drops the annotation",
        [["py", "r2c_region", [ctl, ba.TITLE_RECT, "mupdf"]]])


def build_signed(b, a):
    """A publisher's signed stamp, then revisions: allowed ones stay trusted, the rest are refused."""
    base = stamp_signed(b, ba.paper(), "A", "control-signed.pdf")
    control(b, "control-signed.pdf", base, "paper A stamped and signed by a publisher (pith stamp --sign-cert)",
            "pdfsig: the signature covers the whole file", [["py", "r2c_pdfsig", [True]]], signed=True)
    path = b.path("control-signed.pdf")
    page = ba.show(path, ba.PAGE)
    quad = (72, 626, 400, 640)  # an abstract line, clear of title and badge
    control(b, "control-signed-highlight-mupdf.pdf", mupdf_highlight(b, base, "control-signed-highlight-mupdf.pdf", quad),
            "the signed stamp, then a highlight in the abstract saved incrementally by MuPDF", "pdfsig: the publisher's "
            "signature holds for its revision, not the whole file; both renderers draw the highlight",
            [["py", "r2c_pdfsig", [False]], ["py", "r2c_region", ["control-signed.pdf", list(quad), "both"]]],
            signed=True)
    control(b, "control-signed-xmp-rights.pdf", exiftool_rights(b, base, "control-signed-xmp-rights.pdf"),
            "the signed stamp, then an XMP rights statement added by exiftool", "pdfsig: not the whole file; exiftool reads "
            "the rights statement", [["py", "r2c_pdfsig", [False]], ["exif", "XMP-pith:Number", b.numbers["A"]]], signed=True)
    control(b, "control-signed-countersigned.pdf", countersign(b, base, ba.PAGE, page),
            "the signed stamp, then a reviewer's invisible countersignature (a second signature field, openssl cms)",
            "pdfsig: both signatures hold; the publisher's does not cover the whole file",
            [["py", "r2c_pdfsig", [False]], ["text_has", ba.TITLE_A, "both"]], signed=True)
    control(b, "control-highlight-mupdf.pdf", mupdf_highlight(b, a, "control-highlight-mupdf.pdf", (72, 620, 400, 640)),
            "honest A stamped, then a highlight in the abstract saved incrementally by MuPDF", "both renderers draw it",
            [["py", "r2c_region", ["control-honest.pdf", [72, 620, 400, 640], "both"]]])
    control(b, "control-xmp-rights.pdf", exiftool_rights(b, a, "control-xmp-rights.pdf"),
            "honest A stamped, then an XMP rights statement added by exiftool", "exiftool reads the pith number as before",
            [["exif", "XMP-pith:Number", b.numbers["A"]]])
    n = int(pdfedit.trailer_entry(pdfedit.last_trailer(base)[1], "Size"))
    link = ("<< /Type /Annot /Subtype /Link /Rect [ 60 80 560 690 ] /Border [ 0 0 0 ] /F 4 /A << /S /URI "
            "/URI (https://evil.example/corrected) >> >>")
    add(b, "signed-link-body.pdf", pdfedit.append_update(base, {n: link, ba.PAGE: ba.with_annot(page, n)}), "changes-signed",
        "the signed stamp, then a revision adding a link over the whole body", "stamp.changed_after_signing",
        "pdfsig: not the whole file; poppler and MuPDF read the link",
        [["py", "r2c_pdfsig", [False]], ["py", "r2c_url", ["https://evil.example/corrected"]]], signed=True)
    w, h = ABSTRACT[2] - ABSTRACT[0], ABSTRACT[3] - ABSTRACT[1]
    add(b, "signed-freetext-body.pdf",
        pdfedit.append_update(base, {n: forged_ap(w, h), n + 1: "<< /Type /Annot /Subtype /FreeText /Rect %s /F 4 /DA (/Helv 10 Tf 0 g) "
                                     "/AP << /N %d 0 R >> >>" % (ba.rect_text(ABSTRACT), n), ba.PAGE: ba.with_annot(page, n + 1)}),
        "changes-signed", "the signed stamp, then a FreeText annotation painting a forged abstract",
        "stamp.changed_after_signing", "pdfsig: not the whole file; both renderers draw the forged abstract",
        [["py", "r2c_pdfsig", [False]], ["py", "r2c_region", ["control-signed.pdf", ABSTRACT, "both"]]], signed=True)
    cert = stamp_signed(b, ba.paper(), "A", "control-certified.pdf", certify=True)
    control(b, "control-certified.pdf", cert, "paper A stamped and certified by a publisher (DocMDP P=2)",
            "pdfsig: the signature covers the whole file", [["py", "r2c_pdfsig", [True]], ["qpdf", ba.CATALOG, "/Perms"]],
            signed=True)
    add(b, "docmdp-p2-highlight.pdf", mupdf_highlight(b, cert, "docmdp-p2-highlight.pdf", quad), "changes-signed",
        "paper A stamped and certified with DocMDP P=2 (form filling and signing only), then a highlight saved by MuPDF",
        "pith.changed.docmdp", "pdfsig: not the whole file; both renderers draw the highlight",
        [["py", "r2c_pdfsig", [False]], ["py", "r2c_region", ["control-certified.pdf", list(quad), "both"]]],
        signed=True)


def build(b, a):
    build_objstm(b)
    build_rect(b, a)
    build_list(b, a)
    build_revealed(b)
    build_redrawn(b)
    build_needappearances(b)
    build_signed(b, a)
