# SPDX-License-Identifier: MIT
"""The closed list (src/drawing/closed_list.cpp, doc/trust.md#the-closed-list), end to end.

One paper, its title in Helvetica, drawn again with one construct each: constructs off the list
must make `pith stamp` refuse the paper with stamp.construct_unlisted naming the construct, and
with --allow-unlisted the stamped paper must verify `unverified` with pith.construct.unlisted
naming it; constructs on the list (the controls) must stamp without an override and verify
`trusted`. Reached through a form, a pattern, a Type 3 glyph or an annotation's appearance counts
as drawn by the page.

    closed_list.py --pith PITH --source SRC
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.dont_write_bytecode = True
from pdfwriter import classic, stream  # noqa: E402
from pithrun import isolated_env  # noqa: E402

TITLE = "Closed Lists of Drawing Constructs"
BODY = ["What a page may draw with, for every viewer to show it alike.",
        "Each file below adds one construct to this page."]
FN = "<< /FunctionType 2 /Domain [0 1] /C0 [1] /C1 [0] /N 1 >>"


def page(extra_content="", gstates="", xobjects="", extra_objects=(), page_keys="", annots="", shadings="",
         colour_spaces="", fonts="", patterns="", catalog="", properties="", media="[0 0 612 792]"):
    """The paper, with `extra_content` drawn after its text (resource names /G0, /X0, /Sh0,
    /CS0, /T3, /P0 as the cases give them) and `extra_objects` from object 6 on."""
    text = "BT /F1 24 Tf 72 700 Td (%s) Tj ET\n" % TITLE
    text += "".join("BT /F1 11 Tf 72 %d Td (%s) Tj ET\n" % (640 - 16 * i, line) for i, line in enumerate(BODY))
    content = (text + extra_content).encode()
    resources = "/Font << /F1 4 0 R %s >>" % fonts
    for key, value in (("ExtGState", gstates), ("XObject", xobjects), ("Shading", shadings),
                       ("ColorSpace", colour_spaces), ("Pattern", patterns),
                       ("Properties", properties)):
        if value:
            resources += " /%s << %s >>" % (key, value)
    objects = [
        ("<< /Type /Catalog /Pages 2 0 R %s >>" % catalog).encode(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>",
        ("<< /Type /Page /Parent 2 0 R %s /Contents 5 0 R /Resources << %s >> %s %s >>"
         % ("/MediaBox " + media if media else "", resources, page_keys, "/Annots [%s]" % annots if annots else "")).encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        stream("", content),
    ] + [o if isinstance(o, bytes) else o.encode() for o in extra_objects]
    return classic(objects)


def form(content, resources=""):
    return stream("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << %s >>" % resources, content.encode())


# Off the list: (name, what the message must name, page).
UNLISTED = [
    ("clip-without-path", "a clip (W) with no path to clip to", lambda: page("q W n 1 0 0 rg 72 500 200 40 re f Q\n")),
    ("clip-after-close-only", "a clip (W*) with no path to clip to", lambda: page("q h W* n 72 500 200 40 re f Q\n")),
    ("text-clip-no-glyph", "a text object in clipping mode 7 (Tr) that shows no glyph",
     lambda: page("q BT 7 Tr ET 72 500 200 40 re f Q\n")),
    ("text-clip-empty-string", "a text object in clipping mode 4 (Tr) that shows no glyph",
     lambda: page("q BT /F1 12 Tf 4 Tr () Tj ET 72 500 200 40 re f Q\n")),
    ("text-clip-mode-inherited-by-form", "a text object in clipping mode 6 (Tr) that shows no glyph",
     lambda: page("q BT 6 Tr ET Q q BT 6 Tr /F1 12 Tf (x) Tj ET /X0 Do Q\n", xobjects="/X0 6 0 R",
                  extra_objects=[form("BT ET 72 500 200 40 re f")])),
    ("transfer", "graphics state /TR", lambda: page("q /G0 gs 0.5 g 72 500 200 40 re f Q\n", gstates="/G0 << /TR %s >>" % FN)),
    ("black-generation", "graphics state /BG",
     lambda: page("q /G0 gs 0 g 72 500 200 40 re f Q\n", gstates="/G0 << /BG %s /UCR %s >>" % (FN, FN))),
    ("halftone", "graphics state /HT",
     lambda: page("q /G0 gs 0.5 g 72 500 200 40 re f Q\n",
                  gstates="/G0 << /HT << /HalftoneType 1 /Frequency 60 /Angle 45 /SpotFunction /Round >> >>")),
    ("overprint", "graphics state /OP true",
     lambda: page("q /G0 gs 0 0 0 0 k 72 500 200 40 re f Q\n", gstates="/G0 << /OP true /op true /OPM 1 >>")),
    ("unknown-operator", "content operator xq", lambda: page("BX 1 2 xq EX\n")),
    ("odd-number", "the number \"0.0.5\"", lambda: page("q 1 0 0 1 0 0.0.5 cm Q\n")),
    ("postscript-xobject", "XObject /Subtype /PS",
     lambda: page("/X0 Do\n", xobjects="/X0 6 0 R",
                  extra_objects=[stream("/Type /XObject /Subtype /PS", b"0 setgray")])),
    ("screen-annotation", "annotation /Subtype /Screen",
     lambda: page(annots="<< /Type /Annot /Subtype /Screen /Rect [72 400 272 440] >>")),
    ("user-unit", "/UserUnit other than 1", lambda: page(page_keys="/UserUnit 2")),
    ("transfer-in-form", "graphics state /TR",
     lambda: page("/X0 Do\n", xobjects="/X0 6 0 R",
                  extra_objects=[form("q /G0 gs 0.5 g 72 500 200 40 re f Q", "/ExtGState << /G0 << /TR %s >> >>" % FN)])),
    ("transfer-in-appearance", "graphics state /TR",
     lambda: page(annots="<< /Type /Annot /Subtype /Square /Rect [72 400 272 440] /F 4 /AP << /N 6 0 R >> >>",
                  extra_objects=[stream("/BBox [0 0 200 40] /Resources << /ExtGState << /G0 << /TR %s >> >> >>" % FN,
                                        b"/G0 gs 0.5 g 0 0 200 40 re f")])),
    ("overprint-in-type3-glyph", "graphics state /OP true",
     lambda: page("BT /T3 20 Tf 72 500 Td (a) Tj ET\n", fonts="/T3 6 0 R", extra_objects=[
         "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
         "/CharProcs << /a 7 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 "
         "/LastChar 97 /Widths [1000] /Resources << /ExtGState << /G0 << /OP true >> >> >> >>",
         stream("", b"1000 0 0 0 1000 1000 d1 /G0 gs 0 0 1000 1000 re f")])),
    ("document-javascript", "document-level JavaScript",
     lambda: page(catalog="/Names << /JavaScript << /Names [(a) << /S /JavaScript /JS (app.alert(1)) >>] >> >>")),
    ("open-action-script", "open action runs a /JavaScript action",
     lambda: page(catalog="/OpenAction << /S /GoTo /D [3 0 R /Fit] /Next << /S /JavaScript /JS (1) >> >>")),
    ("xfa-form", "an XFA form", lambda: page(catalog="/AcroForm << /Fields [] /XFA [] >>")),
    ("annotation-events", "Link annotation with actions on events (/AA)",
     lambda: page(annots="<< /Type /Annot /Subtype /Link /Rect [72 690 400 730] /AA << /E << /S /JavaScript /JS (1) >> >> >>")),
    ("link-hides", "Link annotation runs a /Hide action",
     lambda: page(annots="<< /Type /Annot /Subtype /Link /Rect [72 690 400 730] /A << /S /Hide /T (x) >> >>")),
    ("rollover-over-title", "Square annotation with a rollover appearance over the title or badge",
     lambda: page(annots="<< /Type /Annot /Subtype /Square /Rect [72 690 400 730] /F 4 /AP << /N 6 0 R /R 7 0 R >> >>",
                  extra_objects=[stream("/BBox [0 0 328 40]", b""),
                                 stream("/BBox [0 0 328 40] /Resources << /Font << /F1 4 0 R >> >>",
                                        b"1 g 0 0 328 40 re f 0 g BT /F1 24 Tf 0 12 Td (Open Lists) Tj ET")])),
    ("note-opened", "Text annotation opened over the page (/Open true)",
     lambda: page(annots="<< /Type /Annot /Subtype /Text /Rect [72 400 92 420] /Open true /Contents (note) >>")),
    ("print-only-over-title", "FreeText annotation over the title or badge shown in print only (NoView)",
     lambda: page(annots="<< /Type /Annot /Subtype /FreeText /Rect [72 690 400 730] /F 36 /DA (/Helv 18 Tf 0 g) "
                         "/AP << /N 6 0 R >> >>", extra_objects=[stream("/BBox [0 0 328 40]", b"")])),
    ("screen-only-over-title", "Square annotation over the title or badge shown on screen only (no Print flag)",
     lambda: page(annots="<< /Type /Annot /Subtype /Square /Rect [72 690 400 730] /AP << /N 6 0 R >> >>",
                  extra_objects=[stream("/BBox [0 0 328 40]", b"")])),
    # What a viewer reads beside an annotation's appearance, held twice in an object of its own:
    # which value counts is the viewer's choice (Ghostscript the first, poppler and MuPDF the last).
    ("widget-colours-key-twice", "object 7 holding /BG twice",
     lambda: page(annots="<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (b) /Rect [72 400 272 440] /F 4 "
                         "/AP << /N 6 0 R >> /MK 7 0 R >>",
                  extra_objects=[stream("/BBox [0 0 200 40]", b""), "<< /BG [1 1 1] /BG [0 0 0] >>"])),
    ("field-parent-key-twice", "object 7 holding /DA twice",
     lambda: page(annots="<< /Type /Annot /Subtype /Widget /Rect [72 400 272 440] /F 4 /AP << /N 6 0 R >> /Parent 7 0 R >>",
                  catalog="/AcroForm << /Fields [7 0 R] >>",
                  extra_objects=[stream("/BBox [0 0 200 40]", b""),
                                 "<< /FT /Tx /T (a) /V (x) /DA (/Helv 12 Tf 0 g) /DA (/Helv 40 Tf 0 g) >>"])),
    ("shading-type-9", "shading type 9",
     lambda: page("/Sh0 sh\n", shadings="/Sh0 << /ShadingType 9 /ColorSpace /DeviceGray >>")),
    # operands other than the operator takes: poppler drops the rest of the stream, skips the
    # operator or takes the last ones; MuPDF takes the first ones or reads a name as 0
    ("operands-too-few", "content operator cm with 4 operands (it takes 6)",
     lambda: page("q 1 0 0 1 cm 72 500 200 40 re f Q\n")),
    ("operands-too-many-in-form", "content operator cm with 7 operands (it takes 6)",
     lambda: page("q /X0 Do Q\n", xobjects="/X0 6 0 R", extra_objects=[form("0 1 0 0 1 0 0 cm 72 500 200 40 re f")])),
    ("operand-not-a-number", "content operator cm with operand 1 of another kind",
     lambda: page("q /a /b /c /d /e /f cm 72 500 200 40 re f Q\n")),
    ("colour-without-operand", "content operator g with 0 operands (it takes 1)", lambda: page("q g 72 500 200 40 re f Q\n")),
    ("text-mode-8", "content operator Tr with a mode other than 0 to 7",
     lambda: page("BT /F1 12 Tf 8 Tr 72 500 Td (eight) Tj ET\n")),
    ("text-mode-not-integer", "content operator Tr with operand 1 of another kind",
     lambda: page("BT /F1 12 Tf 3.5 Tr 72 500 Td (half) Tj ET\n")),
    # a colour's numbers other than its space takes: poppler and cairo skip the operator, MuPDF
    # and Ghostscript take the numbers they need (white type in one, black in the other)
    ("colour-numbers-too-many", "content operator sc with 4 numbers (its colour space takes 3)",
     lambda: page("q /DeviceRGB cs 1 1 1 sc 0 0 0 0 sc 72 500 200 40 re f Q\n")),
    ("colour-numbers-after-g", "content operator sc with 3 numbers (its colour space takes 1)",
     lambda: page("q 1 g 0 0 0 sc 72 500 200 40 re f Q\n")),
    ("colour-numbers-space-restored", "content operator SC with 1 number (its colour space takes 4)",
     lambda: page("q /DeviceCMYK CS q 0 G Q 0 SC 72 500 200 40 re S Q\n")),
    ("colour-numbers-of-a-named-space", "content operator scn with 3 numbers (its colour space takes 1)",
     lambda: page("q /CS0 cs 0 0 0 scn 72 500 200 40 re f Q\n", colour_spaces=(
         "/CS0 [/Separation /Spot /DeviceGray << /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1 >>]"))),
    ("colour-pattern-in-rgb", "content operator scn with a pattern where its colour space takes numbers",
     lambda: page("q /DeviceRGB cs /P0 scn 72 500 200 40 re f Q\n")),
    # a matrix that cannot be inverted: cairo draws on with the matrix it had, the others nothing
    ("singular-cm", "a matrix that cannot be inverted (cm)", lambda: page("q 1 1 1 1 0 0 cm 72 500 200 40 re f Q\n")),
    ("singular-form-matrix", "a form whose /Matrix cannot be inverted",
     lambda: page("/X0 Do\n", xobjects="/X0 6 0 R", extra_objects=[stream(
         "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Matrix [0 0 0 0 0 0]", b"72 500 200 40 re f")])),
    # page boxes: poppler takes Letter for a media box that is not four numbers, MuPDF the first four
    ("media-box-five-numbers", "a /MediaBox that is not four numbers around an area",
     lambda: page(media="[0 0 612 792 5]")),
    ("crop-box-not-numbers", "a /CropBox that is not four numbers", lambda: page(page_keys="/CropBox [0 /x 612 792]")),
    # poppler drops a backdrop with no colour space for it; MuPDF and Ghostscript take it
    ("soft-mask-backdrop-without-space", "a luminosity soft mask's backdrop (/BC) with no group colour space",
     lambda: page("q /G0 gs 72 500 200 40 re f Q\n", gstates="/G0 << /SMask << /S /Luminosity /BC [1] /G 6 0 R >> >>",
                  extra_objects=[stream("/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Group << /S /Transparency >>",
                                        b"")])),
]

# What viewers read differently, which stamp refuses as it refuses what is off the list: (name,
# what the message must name, page, verify's finding, verify's state).
VIEWERS = [
    ("optional-content-undeclared", "the catalog has no /OCProperties",
     lambda: page("/OC /oc BDC 0 g 72 500 200 40 re f EMC\n", properties="/oc 6 0 R",
                  extra_objects=["<< /Type /OCG /Name (Layer 1) >>"]),
     "pith.optional_content.ambiguous", "unverified"),
    ("annotation-rect-five-numbers", "/Rect that is not four numbers",
     lambda: page(annots="<< /Type /Annot /Subtype /Square /Rect [72 400 272 440 0] /C [1 0 0] >>"),
     "pith.annotation.malformed", "invalid"),
]

# On the list: (name, page).
LISTED = [
    ("clips-with-paths-and-glyphs", lambda: page("q 72 500 200 40 re W n 0 0 1 rg 72 500 200 40 re f Q "
                                                 "q 0 0 m 9 9 l h W* n Q q BT /F1 12 Tf 7 Tr 72 520 Td (clip) Tj ET Q "
                                                 "BT 0 Tr ET q BT 4 Tr [(a) 3 (b)] TJ ET Q\n")),
    # Ghostscript 5.50 (dvipdfm's own manual): W before the path it clips to
    ("clip-before-its-path", lambda: page("q W 72 500 m 272 500 l 272 540 l h n 0 0 1 rg 72 500 200 40 re f Q\n")),
    ("plain", lambda: page()),
    ("transparency", lambda: page("q /G0 gs 1 0 0 rg 72 500 200 40 re f Q\n",
                                  gstates="/G0 << /Type /ExtGState /CA 0.5 /ca 0.5 /BM /Multiply /LW 2 /SA true >>")),
    ("distiller-defaults", lambda: page("q /G0 gs 0.5 g 72 500 200 40 re f Q\n", gstates=(
        "/G0 << /Type /ExtGState /SA false /SM 0.02 /OP false /op false /OPM 1 /TR2 /Default /BG2 /Default "
        "/UCR2 /Default /HT /Default /Name /R4 >>"))),
    ("compatibility-section-of-listed", lambda: page("BX q 0 0 1 rg 72 500 200 40 re f Q EX\n")),
    ("separation-colour", lambda: page("q /CS0 cs 0.7 scn 72 500 200 40 re f Q\n", colour_spaces=(
        "/CS0 [/Separation /Spot /DeviceCMYK << /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [0 1 1 0] /N 1 >>]"))),
    ("axial-shading", lambda: page("q 72 500 200 40 re W n /Sh0 sh Q\n", shadings=(
        "/Sh0 << /ShadingType 2 /ColorSpace /DeviceRGB /Coords [72 0 272 0] "
        "/Function << /FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [0 0 1] /N 1 >> >>"))),
    ("links-that-go-somewhere", lambda: page(
        catalog="/OpenAction [3 0 R /Fit]",
        annots="<< /Type /Annot /Subtype /Link /Rect [72 600 400 630] /A << /S /URI /URI (https://example.org/) >> >> "
               "<< /Type /Annot /Subtype /Link /Rect [72 560 400 590] /A << /S /GoTo /D [3 0 R /Fit] >> >>")),
    ("rollover-and-pressed-away-from-title", lambda: page(
        annots="<< /Type /Annot /Subtype /Square /Rect [72 400 272 440] /F 4 /AP << /N 6 0 R /R 6 0 R /D 6 0 R >> >>",
        extra_objects=[stream("/BBox [0 0 200 40]", b"0 0 1 RG 2 w 1 1 198 38 re S")])),
    ("appearance-without-subtype", lambda: page(
        annots="<< /Type /Annot /Subtype /Square /Rect [72 400 272 440] /F 4 /AP << /N 6 0 R >> >>",
        extra_objects=[stream("/BBox [0 0 200 40]", b"0 0 1 RG 2 w 1 1 198 38 re S")])),
    ("operands-as-defined", lambda: page(
        "q 1 0 0 1 0 0 cm 0.5 g 0 0 1 RG [3 1] 0 d 1 j 0 J /CS0 cs 0.7 scn 72 500 200 40 re f Q "
        "BT /F1 12 Tf 2 Tr 72 520 Td 0 -14 (a) \" [(b) 3 (c)] TJ ET q /X0 Do Q\n",
        colour_spaces="/CS0 [/Separation /Spot /DeviceGray << /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1 >>]",
        xobjects="/X0 6 0 R", extra_objects=[stream(
            "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Matrix [0 1 -1 0 612 0]", b"72 500 20 40 re f")])),
    ("colour-numbers-as-their-spaces", lambda: page(
        "q /DeviceRGB cs 0 0 1 sc /DeviceCMYK CS 0 0 0 1 SC /DeviceGray cs 0.5 sc q 1 0 0 rg Q 0.2 sc "
        "/CS0 cs 0.7 scn 72 500 200 40 re B Q\n",
        colour_spaces="/CS0 [/Separation /Spot /DeviceGray << /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1 >>]")),
    ("boxes-inherited-and-turned", lambda: page(media="", page_keys="/CropBox [612 792 0 100] /Rotate -360")),
    ("soft-mask-backdrop-in-its-space", lambda: page(
        "q /G0 gs 72 500 200 40 re f Q\n", gstates="/G0 << /SMask << /S /Luminosity /BC [1] /G 6 0 R >> >>",
        extra_objects=[stream("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Group << /S /Transparency /CS "
                              "/DeviceGray >>", b"1 g 0 0 612 792 re f")])),
    ("annotation-over-title-in-both-views", lambda: page(
        annots="<< /Type /Annot /Subtype /Square /Rect [72 690 400 730] /F 4 /AP << /N 6 0 R >> >>",
        extra_objects=[stream("/BBox [0 0 328 40]", b"")])),
]


class Run:
    def __init__(self, pith, tmp):
        self.pith, self.tmp = pith, tmp
        self.env = isolated_env(os.path.join(tmp, "home"))
        os.makedirs(self.env["HOME"])
        self.failures = 0

    def pith_run(self, *args):
        p = subprocess.run([self.pith] + list(args), capture_output=True, env=self.env, timeout=300)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def check(self, ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        self.failures += 0 if ok else 1
        return ok

    def record(self):
        """A record of TITLE signed by a key of this run, and the keyring that trusts it."""
        secret, keyring = os.path.join(self.tmp, "test.key"), os.path.join(self.tmp, "keyring.json")
        rc, _, err = self.pith_run("keygen", "--key-id", "closed-list-test", "--secret", secret, "--keyring", keyring)
        assert rc == 0, err
        meta = {"submitted_at": "2024-01-01T00:00:00Z",
                "title_canon_sha256": hashlib.sha256(TITLE.lower().encode()).hexdigest()}
        rec = {"record_type": "pith_number_record", "paper": {"title": TITLE},
               "canonical_record": {"metadata": meta, "schema_version": "1.0",
                                    "source": {"id": "closed-list", "kind": "test", "version": 1}}}
        unsigned, signed = os.path.join(self.tmp, "record.json"), os.path.join(self.tmp, "record-signed.json")
        with open(unsigned, "w") as f:
            json.dump(rec, f)
        rc, _, err = self.pith_run("sign", unsigned, "--secret", secret, "-o", signed)
        assert rc == 0, err
        return signed, keyring

    def verify(self, path, keyring):
        rc, out, err = self.pith_run("verify", path, "--json", "--keyring", keyring)
        try:
            return json.loads(out)
        except ValueError:
            return {"state": "no report (%d): %s" % (rc, err.strip()[:200])}


def finding(report, code):
    """What the findings with `code` say, joined."""
    return " ".join(f.get("explanation", "") for f in report.get("informational", []) + report.get("failure", [])
                    if f.get("code") == code)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pith-closed-list-") as tmp:
        run = Run(os.path.abspath(a.pith), tmp)
        record, keyring = run.record()
        off_list = [(name, construct, make, "pith.construct.unlisted", "unverified") for name, construct, make in UNLISTED]
        for name, construct, make, code, state in off_list + VIEWERS:
            src, out = os.path.join(tmp, name + ".pdf"), os.path.join(tmp, name + "-stamped.pdf")
            with open(src, "wb") as f:
                f.write(make())
            rc, _, err = run.pith_run("stamp", src, "--record", record, "-o", out)
            run.check(rc != 0 and "[stamp.construct_unlisted]" in err and construct in err and not os.path.exists(out),
                      "%s: stamp refuses it, naming %s, and writes nothing (%s)" % (name, construct, err.strip()[-160:]))
            rc, _, err = run.pith_run("stamp", src, "--record", record, "-o", out, "--allow-unlisted")
            if not run.check(rc == 0, "%s: --allow-unlisted stamps it (%s)" % (name, err.strip()[-160:])):
                continue
            report = run.verify(out, keyring)
            said = finding(report, code)
            run.check(report.get("state") == state and construct in said,
                      "%s: verify says %s, %s naming %s (%s)" % (name, report.get("state"), code, construct, said[:160]))
        for name, make in LISTED:
            src, out = os.path.join(tmp, name + ".pdf"), os.path.join(tmp, name + "-stamped.pdf")
            with open(src, "wb") as f:
                f.write(make())
            rc, _, err = run.pith_run("stamp", src, "--record", record, "-o", out)
            if not run.check(rc == 0, "control %s: stamp accepts it (%s)" % (name, err.strip()[-200:])):
                continue
            report = run.verify(out, keyring)
            run.check(report.get("state") == "trusted",
                      "control %s: verify says %s %s" % (name, report.get("state"), finding(report, "pith.construct.unlisted")[:160]))
        print("%d unlisted constructs, %d that viewers read differently, %d controls; %d failure(s)"
              % (len(UNLISTED), len(VIEWERS), len(LISTED), run.failures))
        return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
