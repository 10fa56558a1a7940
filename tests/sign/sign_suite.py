#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Publisher-signed stamps (pith stamp --sign-*, pith verify --trust): registered one case per
ctest in tests/sign.cmake.

usage: sign_suite.py --pith PITH --source SRC --work DIR [--corpus DIR] CASE

`setup` (a ctest fixture) makes, with `openssl` in the work directory: a test root CA (RSA
3072), signers with RSA 3072 and ECDSA P-256 keys, an expired signer, a signer under a CA the
reader does not trust and a signer without digitalSignature key usage; an NSS database holding
the test CA (certutil) for pdfsig; a registry test key and receipt. Each other case stamps with
a signature and checks it with independent tools -- pdfsig (poppler + NSS), `openssl cms
-verify` over the /ByteRange bytes, `qpdf --check` -- and with `pith verify`.

Exit 0 pass, 1 fail (a missing tool, corpus or corpus file too: .ci/deps installs every tool,
tests/corpus/counts.tsv holds the corpus's files).
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))
import manifest  # noqa: E402
import pdfedit  # noqa: E402
from pithrun import DAMAGED_CORPUS_FILES, Failure, case_main, check, isolated_env, run_pith  # noqa: E402

SIGNERS = {  # name: (key algorithm, CA, key usage, validity)
    "rsa": ("rsa:3072", "ca", "digitalSignature,nonRepudiation", None),
    "ec": ("ec", "ca", "digitalSignature", None),
    "expired": ("rsa:3072", "ca", "digitalSignature", ("20200101000000Z", "20210101000000Z")),
    "untrusted": ("ec", "otherca", "digitalSignature", None),
    "noku": ("ec", "ca", "keyEncipherment", None),
}
SUBJECT = {"rsa": "CN=Journal X", "ec": "CN=Journal EC", "expired": "CN=Journal Expired", "untrusted": "CN=Journal Elsewhere",
           "noku": "CN=Journal NoKU"}


class Ctx:
    def __init__(self, args):
        self.pith, self.src, self.work, self.corpus = args.pith, args.source, args.work, args.corpus
        self.home = os.path.join(self.work, "home")
        self.article = os.path.join(self.src, "examples", "article.pdf")

    def path(self, *names):
        return os.path.join(self.work, *names)

    def run(self, args, env=None, timeout=300):
        return run_pith(self.pith, args, env or isolated_env(self.home), timeout=timeout)

    def stamp(self, src, out, signer="rsa", extra=(), expect_ok=True):
        args = ["stamp", src, "--record", self.path("signed.json"), "-o", out]
        if signer:
            args += ["--sign-cert", self.path("pki", signer + ".pem"), "--sign-key", self.path("pki", signer + ".key")]
        rc, o, e = self.run(args + list(extra))
        if expect_ok:
            check(rc == 0, "pith %s: exit %d: %s" % (" ".join(args), rc, e.strip()))
        return rc, o, e

    def verify(self, path, trust=True, extra=()):
        args = ["verify", path, "--json", "--keyring", self.path("ring.json")] + (["--trust", self.path("pki", "ca.pem")] if trust else [])
        rc, out, err = self.run(args + list(extra))
        check(rc in (0, 1, 4), "pith verify %s: exit %d: %s" % (path, rc, err.strip()))
        return rc, json.loads(out)


def sh(args, **kw):
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    check(p.returncode == 0, "%s: exit %d: %s" % (" ".join(args), p.returncode, (p.stderr or p.stdout)[-1500:]))
    return p.stdout


def codes(report, section):
    return [f["code"] for f in report[section]]


def explanation(report, code):
    for section in ("success", "informational", "failure"):
        for f in report[section]:
            if f["code"] == code:
                return f["explanation"]
    return ""


# ---------------------------------------------------------------- independent checkers

def pdfsig(ctx, path, password=None):
    """pdfsig's signatures, in order: [{'valid': ..., 'total': ..., 'trusted': ..., 'text': ...}]."""
    args = ["pdfsig", "-nssdir", "sql:" + ctx.path("nssdb")] + (["-upw", password] if password else []) + [path]
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    out = p.stdout
    sigs = []
    for block in re.split(r"\nSignature #\d+:\n", out)[1:]:
        sigs.append({"valid": "Signature Validation: Signature is Valid." in block,
                     "total": "Total document signed" in block,
                     "trusted": "Certificate is Trusted." in block,
                     "validation": (re.search(r"Signature Validation: (.*)", block) or [None, ""])[1],
                     "text": block})
    return sigs


def der_length(data):
    """The length of the DER element at the start of `data` (the rest is /Contents padding)."""
    n = data[1]
    if n < 0x80:
        return 2 + n
    k = n & 0x7F
    return 2 + k + int.from_bytes(data[2:2 + k], "big")


def signatures_in(data):
    """Every (ByteRange, DER) in the file's bytes."""
    out = []
    for m in re.finditer(rb"/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]", data):
        a, b, c, e = map(int, m.groups())
        try:  # another tool's signature may space its hex digits, or be no signature at all
            raw = bytes.fromhex(re.sub(rb"\s", b"", data[a + b + 1:c - 1]).decode())
            out.append(((a, b, c, e), raw[:der_length(raw)]))
        except (ValueError, IndexError):
            continue
    return out


def openssl_cms_verify(ctx, data, byterange, der, name):
    """`openssl cms -verify` of the signature over the bytes its /ByteRange names; and its attributes."""
    a, b, c, e = byterange
    base = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    content, sig = ctx.path(base + ".signed-bytes"), ctx.path(base + ".p7s")
    with open(content, "wb") as f:
        f.write(data[a:a + b] + data[c:c + e])
    with open(sig, "wb") as f:
        f.write(der)
    p = subprocess.run(["openssl", "cms", "-verify", "-binary", "-inform", "DER", "-in", sig, "-content", content,
                        "-CAfile", ctx.path("pki", "ca.pem"), "-purpose", "any", "-out", "/dev/null"],
                       capture_output=True, text=True)
    printed = sh(["openssl", "cms", "-cmsout", "-print", "-inform", "DER", "-in", sig])
    return p.returncode == 0 and "Verification successful" in p.stderr, printed


def qpdf_check(path, password=None):
    p = subprocess.run(["qpdf", "--check"] + (["--password=" + password] if password else []) + [path], capture_output=True, text=True)
    return p.returncode


def check_signed_output(ctx, path, name, subject, password=None):
    """Ours is the last signature: pdfsig valid, whole file, trusted; openssl agrees; qpdf clean."""
    data = open(path, "rb").read()
    sigs = pdfsig(ctx, path, password)
    check(sigs, "%s: pdfsig finds no signature" % name)
    last = sigs[-1]
    check(last["valid"] and last["total"], "%s: pdfsig on our signature:\n%s" % (name, last["text"]))
    check(subject in last["text"], "%s: pdfsig does not name %s:\n%s" % (name, subject, last["text"]))
    byterange, der = signatures_in(data)[-1]
    check(byterange[2] + byterange[3] == len(data), "%s: /ByteRange does not reach the end of the file" % name)
    ok, printed = openssl_cms_verify(ctx, data, byterange, der, name)
    check(ok, "%s: openssl cms -verify fails over the /ByteRange bytes" % name)
    for attr in ("signingCertificateV2", "signingTime", "messageDigest", "contentType", "sha256"):
        check(attr in printed, "%s: the CMS lacks %s" % (name, attr))
    check("eContent: <ABSENT>" in printed, "%s: the CMS is not detached" % name)
    return sigs


# ---------------------------------------------------------------- setup

def case_setup(ctx):
    for tool in ("pdfsig", "certutil", "openssl", "qpdf"):
        check(shutil.which(tool), "%s not installed (Debian: poppler-utils, libnss3-tools, openssl, qpdf; .ci/deps)" % tool)
    if os.path.isdir(ctx.work):
        shutil.rmtree(ctx.work)
    os.makedirs(ctx.home)
    pki = ctx.path("pki")
    os.makedirs(pki)
    for ca, cn in (("ca", "Pith Test Root CA"), ("otherca", "Some Other CA")):
        sh(["openssl", "req", "-x509", "-newkey", "rsa:3072", "-nodes", "-keyout", os.path.join(pki, ca + ".key"),
            "-out", os.path.join(pki, ca + ".pem"), "-days", "3650", "-subj", "/CN=" + cn + "/O=Pith Tests",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    for name, (alg, ca, ku, dates) in SIGNERS.items():
        key, csr, ext = (os.path.join(pki, name + s) for s in (".key", ".csr", ".ext"))
        newkey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"] if alg == "ec" else ["-newkey", alg]
        sh(["openssl", "req", "-new"] + newkey + ["-nodes", "-keyout", key, "-out", csr, "-subj", "/" + SUBJECT[name] + "/O=Test Publisher"])
        with open(ext, "w") as f:
            f.write("basicConstraints=CA:FALSE\nkeyUsage=critical,%s\n" % ku)
        if dates:  # openssl ca sets explicit dates (openssl x509 -req cannot in 3.0)
            db = os.path.join(pki, "cadb")
            os.makedirs(db, exist_ok=True)
            open(os.path.join(db, "index.txt"), "w").close()
            with open(os.path.join(db, "ca.cnf"), "w") as f:
                f.write("[ca]\ndefault_ca=d\n[d]\ndatabase=%s/index.txt\nnew_certs_dir=%s\nserial=%s/serial\n"
                        "default_md=sha256\npolicy=p\nunique_subject=no\n[p]\ncommonName=supplied\norganizationName=optional\n"
                        % (db, db, db))
            with open(os.path.join(db, "serial"), "w") as f:
                f.write("1000\n")
            sh(["openssl", "ca", "-batch", "-config", os.path.join(db, "ca.cnf"), "-cert", os.path.join(pki, ca + ".pem"),
                "-keyfile", os.path.join(pki, ca + ".key"), "-in", csr, "-out", os.path.join(pki, name + ".pem"),
                "-startdate", dates[0], "-enddate", dates[1], "-extfile", ext, "-notext"])
        else:
            sh(["openssl", "x509", "-req", "-in", csr, "-CA", os.path.join(pki, ca + ".pem"), "-CAkey", os.path.join(pki, ca + ".key"),
                "-CAcreateserial", "-out", os.path.join(pki, name + ".pem"), "-days", "365", "-extfile", ext])
        os.chmod(key, 0o600)
    # pdfsig's trust store: an NSS database with the test CA only.
    db = ctx.path("nssdb")
    os.makedirs(db)
    sh(["certutil", "-N", "-d", "sql:" + db, "--empty-password"])
    sh(["certutil", "-A", "-d", "sql:" + db, "-n", "Pith Test Root CA", "-t", "CT,C,C", "-i", os.path.join(pki, "ca.pem")])
    # A registry key and receipt, so that a stamp can be trusted.
    rc, o, e = ctx.run(["keygen", "--key-id", "test-key", "--secret", ctx.path("registry.key"), "--keyring", ctx.path("ring.json")])
    check(rc == 0, "keygen: " + e)
    rc, o, e = ctx.run(["sign", os.path.join(ctx.src, "examples", "record.json"), "--secret", ctx.path("registry.key"),
                        "-o", ctx.path("signed.json")])
    check(rc == 0, "sign: " + e)
    ctx.stamp(ctx.article, ctx.path("rsa.pdf"), "rsa")
    check_signed_output(ctx, ctx.path("rsa.pdf"), "setup", "Journal X")


# ---------------------------------------------------------------- signing

def case_rsa_ec(ctx):
    # RSA 3072 and ECDSA P-256: pdfsig, openssl and qpdf agree; pith verify names the signer.
    for name in ("rsa", "ec"):
        out = ctx.path(name + "-signed.pdf")
        ctx.stamp(ctx.article, out, name)
        check_signed_output(ctx, out, name, SUBJECT[name][3:])
        check(qpdf_check(out) == 0, "%s: qpdf --check is not clean" % name)
        check(open(out, "rb").read().startswith(open(ctx.article, "rb").read()), "%s: the input is not a prefix of the output" % name)
        rc, report = ctx.verify(out)
        check(report["state"] == "trusted" and rc == 0, "%s: state %s: %s" % (name, report["state"], report["failure"]))
        check("stamp.signed" in codes(report, "success"), "%s: no stamp.signed: %s" % (name, report))
        check(SUBJECT[name] in explanation(report, "stamp.signed"), "%s: stamp.signed does not name %s" % (name, SUBJECT[name]))
        check("pith.update.match" in codes(report, "success"), "%s: pith's signed update not recognised" % name)
        # --require-signed-stamp: trusted with the anchor, not without it.
        rc, report = ctx.verify(out, extra=["--require-signed-stamp"])
        check(report["state"] == "trusted", "%s: --require-signed-stamp with the anchor: %s" % (name, report["state"]))
        rc, report = ctx.verify(out, trust=False, extra=["--require-signed-stamp"])
        check(report["state"] == "unverified" and rc == 4, "%s: --require-signed-stamp without anchors: %s" % (name, report["state"]))
        check("stamp.signer_unknown" in codes(report, "informational"), "%s: no stamp.signer_unknown without anchors" % name)
    # Anchors from $PITH_TRUST, then from ~/.config/pith/trust.pem (beside the keyring).
    out = ctx.path("rsa.pdf")
    base = ["verify", out, "--json", "--keyring", ctx.path("ring.json")]
    rc, o, e = ctx.run(base, env=isolated_env(ctx.home, PITH_TRUST=ctx.path("pki", "ca.pem")))
    check("stamp.signed" in codes(json.loads(o), "success"), "PITH_TRUST: %s" % o)
    config = os.path.join(ctx.home, ".config", "pith")
    os.makedirs(config, exist_ok=True)
    shutil.copy(ctx.path("pki", "ca.pem"), os.path.join(config, "trust.pem"))
    try:
        rc, o, e = ctx.run(base)
        check("stamp.signed" in codes(json.loads(o), "success"), "~/.config/pith/trust.pem: %s" % o)
    finally:
        os.unlink(os.path.join(config, "trust.pem"))
    rc, o, e = ctx.run(base)
    check("signature.no_anchors" in codes(json.loads(o), "informational"), "no anchors: %s" % o)
    # Without a badge the invisible field is on no page; the update is still pith's own.
    out = ctx.path("nobadge-signed.pdf")
    ctx.stamp(ctx.article, out, "ec", extra=["--no-badge"])
    check_signed_output(ctx, out, "no-badge", "Journal EC")
    rc, report = ctx.verify(out)
    check("stamp.signed" in codes(report, "success") and "pith.update.match" in codes(report, "success"), "no-badge: %s" % report)
    # An unsigned stamp: trusted as before, but not under --require-signed-stamp.
    ctx.stamp(ctx.article, ctx.path("unsigned.pdf"), None)
    rc, report = ctx.verify(ctx.path("unsigned.pdf"))
    check(report["state"] == "trusted" and "stamp.unsigned" in codes(report, "informational"), "unsigned: %s" % report)
    rc, report = ctx.verify(ctx.path("unsigned.pdf"), extra=["--require-signed-stamp"])
    check(report["state"] == "unverified", "unsigned with --require-signed-stamp: %s" % report["state"])


def case_certificates(ctx):
    # Expired, untrusted CA, no digitalSignature key usage: each its own finding, never trusted under the policy.
    want = {"expired": "signature.expired", "untrusted": "signature.untrusted", "noku": "signature.key_usage"}
    for name, code in want.items():
        out = ctx.path(name + ".pdf")
        ctx.stamp(ctx.article, out, name)
        rc, report = ctx.verify(out)
        info = codes(report, "informational")
        check("stamp.signer_unknown" in info and code in info, "%s: want stamp.signer_unknown and %s: %s" % (name, code, info))
        others = set(want.values()) - {code}
        check(not others & set(info), "%s: other certificate findings too: %s" % (name, info))
        check("stamp.signed" not in codes(report, "success"), "%s: reported stamp.signed" % name)
        check(SUBJECT[name] in explanation(report, "stamp.signer_unknown"), "%s: the signer is not named" % name)
        rc, report = ctx.verify(out, extra=["--require-signed-stamp"])
        check(report["state"] == "unverified", "%s under --require-signed-stamp: %s" % (name, report["state"]))
        # The CMS itself is fine: pdfsig still finds the signature valid over the whole file.
        sig = pdfsig(ctx, out)[-1]
        check(sig["valid"] and sig["total"], "%s: pdfsig: %s" % (name, sig["text"]))
        if name == "untrusted":
            check(not sig["trusted"], "untrusted: pdfsig trusts a certificate of an unknown CA")


# ---------------------------------------------------------------- tampering

def case_tamper_byte(ctx):
    data = open(ctx.path("rsa.pdf"), "rb").read()
    (a, b, c, e), _ = signatures_in(data)[-1]
    # One byte in each covered range: the header's binary comment (first range), the /M date (second).
    first = bytearray(data)
    first[11] ^= 0x01
    m = re.search(rb"/M \(D:(\d)", data[c:])
    check(m, "no /M after /Contents")
    second = bytearray(data)
    at = c + m.start(1)
    second[at] = ord("1") if second[at] != ord("1") else ord("2")
    for name, edited in (("byte-first-range", first), ("byte-second-range", second)):
        path = ctx.path(name + ".pdf")
        open(path, "wb").write(bytes(edited))
        sig = pdfsig(ctx, path)[-1]
        check(not sig["valid"], "%s: pdfsig still says valid:\n%s" % (name, sig["text"]))
        rc, report = ctx.verify(path)
        check(report["state"] == "invalid" and "stamp.signature_invalid" in codes(report, "failure"), "%s: %s" % (name, report))
        check("Journal X" in explanation(report, "stamp.signature_invalid"), "%s: the signer is not named" % name)
    # The invisible widget made visible inside pith's update: the signature breaks, and pith's
    # own update no longer passes as what pith stamp writes.
    check(data.count(b"/Rect [ 0 0 0 0 ]") == 1, "no single zero /Rect")
    path = ctx.path("widget-visible.pdf")
    open(path, "wb").write(data.replace(b"/Rect [ 0 0 0 0 ]", b"/Rect [ 9 9 99 9]", 1))
    rc, report = ctx.verify(path)
    fails = codes(report, "failure")
    check("stamp.signature_invalid" in fails and "pith.update.mismatch" in fails, "widget-visible: %s" % fails)
    # The gap moved off /Contents (two hex digits now inside the first range): the byte range is refused.
    m = re.search(rb"/ByteRange \[\s*0 (\d+) (\d+) (\d+)\s*\]", data)
    text = m.group(0)
    moved = b"/ByteRange [0 %d %d %d" % (int(m.group(1)) + 2, int(m.group(2)), int(m.group(3)))
    moved = moved + b" " * (len(text) - len(moved) - 1) + b"]"
    path = ctx.path("byterange-moved.pdf")
    open(path, "wb").write(data.replace(text, moved, 1))
    sig = pdfsig(ctx, path)[-1]
    check(not (sig["valid"] and sig["total"]), "byterange-moved: pdfsig accepts it:\n" + sig["text"])
    rc, report = ctx.verify(path)
    why = explanation(report, "stamp.signature_invalid")
    check("not exactly the hex string /Contents" in why and "CN=Journal X" in why, "byterange-moved: %s" % report["failure"])


def case_tamper_content(ctx):
    # A revision appended after signing that replaces the page's text.
    src = ctx.path("rsa.pdf")
    data = open(src, "rb").read()
    page = pdfedit.show_object(src, 2)
    check(re.search(r"/Contents \[ \d+ 0 R 3 0 R \d+ 0 R \]", page), "unexpected page object: " + page)
    path = ctx.path("content-after-signing.pdf")
    open(path, "wb").write(pdfedit.append_update(data, {3: pdfedit.stream("", b"BT /F36 24 Tf 72 700 Td (Pay 1000000) Tj ET\n")}))
    sig = pdfsig(ctx, path)[-1]
    check(sig["valid"] and not sig["total"], "pdfsig does not report the appended revision:\n" + sig["text"])
    rc, report = ctx.verify(path)
    fails = codes(report, "failure")
    check(report["state"] == "invalid" and "pith.changed.content" in fails and "stamp.changed_after_signing" in fails, str(fails))
    check("changed after CN=Journal X" in explanation(report, "stamp.changed_after_signing"), "signer not named")
    check("stamp.signed" not in codes(report, "success"), "stamp.signed reported for a file changed after signing")


def revised(ctx, src, name, keywords):
    """`src` (setup's signed stamp) with a revision of someone else's after it (Info /Keywords):
    made by each case that needs it, so that no case depends on another having run."""
    data = open(src, "rb").read()
    _, trailer, _ = pdfedit.last_trailer(data)
    info = int(pdfedit.trailer_entry(trailer, "Info").split()[0])
    out = ctx.path(name)
    open(out, "wb").write(pdfedit.append_update(data, {info: pdfedit.show_object(src, info).replace("<<", "<< /Keywords (%s) " % keywords, 1)}))
    return out


def case_tamper_restamp(ctx):
    # Someone else stamps the signed file again: after any appended revision their update follows ours.
    src = ctx.path("rsa.pdf")
    between = revised(ctx, src, "restamp-between.pdf", "edited")
    path = ctx.path("restamped.pdf")
    ctx.stamp(between, path, None)
    sigs = pdfsig(ctx, path)
    check(len(sigs) == 1 and sigs[0]["valid"] and not sigs[0]["total"], "pdfsig: %s" % sigs)
    rc, report = ctx.verify(path)
    check(report["state"] == "invalid" and "stamp.changed_after_signing" in codes(report, "failure"), str(report["failure"]))
    check("after CN=Journal X" in explanation(report, "stamp.changed_after_signing"), "signer not named")


def refused_drop(ctx, src, name, signer=None, extra=()):
    """Stamping `src` again would drop a signature: exit 2, one line naming it, code
    stamp.drops_signatures, no output; the error line (without the code) returned."""
    out = ctx.path(name)
    rc, o, e = ctx.stamp(src, out, signer, extra=extra, expect_ok=False)
    lines = e.strip().splitlines()
    print("%s: exit %d: %s" % (name, rc, e.strip()))
    check(rc == 2 and len(lines) == 1 and lines[0].endswith("  [stamp.drops_signatures]"), "%s: %d %r" % (name, rc, e))
    check("--drop-signatures" in lines[0], "%s: the way out is not named: %s" % (name, lines[0]))
    check(not [n for n in os.listdir(ctx.work) if n.startswith(name)], "%s: output written" % name)
    return lines[0]


def case_restamp_signed(ctx):
    # Restamping the signed file itself would replace pith's update and with it the signature:
    # refused, naming the signature; --drop-signatures does it and says so.
    src = ctx.path("rsa.pdf")
    check(len(pdfsig(ctx, src)) == 1, "setup's rsa.pdf has not one signature")
    line = refused_drop(ctx, src, "restamp-refused.pdf")
    check('1 signature' in line and 'field "PithStamp"' in line, "the signature is not named: " + line)
    check(open(src, "rb").read() == open(ctx.path("rsa.pdf"), "rb").read(), "the input changed")
    path = ctx.path("restamped-replaced.pdf")
    rc, o, e = ctx.stamp(src, path, None, extra=["--drop-signatures"])
    check('warning: replaced the earlier pith stamp and dropped 1 signature made over it (field "PithStamp"' in e,
          "the dropped signature is not reported: " + e)
    check(not pdfsig(ctx, path), "a replaced stamp kept a signature")
    check(qpdf_check(path) == 0, "qpdf --check is not clean")
    original = open(src, "rb").read()
    prior = int(re.search(rb"%PithUpdate prior=(\d+)", original).group(1))
    check(open(path, "rb").read()[:prior] == original[:prior], "the bytes before the old stamp were not kept")
    rc, report = ctx.verify(path, extra=["--require-signed-stamp"])
    check(report["state"] == "unverified" and "stamp.unsigned" in codes(report, "informational"), str(report))
    # Signed again by the replacing stamp: the old signature goes, the new one is valid.
    path = ctx.path("restamped-resigned.pdf")
    ctx.stamp(src, path, "ec", extra=["--drop-signatures"])
    sigs = check_signed_output(ctx, path, "resigned", "Journal EC")
    check(len(sigs) == 1, "resigned: %d signatures" % len(sigs))
    # A signature of someone else's before pith's signed stamp stays: only pith's own is named.
    twice = ctx.path("restamp-twice.pdf")
    ctx.stamp(revised(ctx, src, "restamp-twice-between.pdf", "x"), twice, "ec")
    check(len(pdfsig(ctx, twice)) == 2, "twice: not two signatures")
    line = refused_drop(ctx, twice, "restamp-twice-refused.pdf")
    check('1 signature' in line and 'field "PithStamp2"' in line and 'field "PithStamp"' not in line.replace('"PithStamp2"', ""),
          "not exactly the newest signature named: " + line)
    path = ctx.path("restamp-twice-dropped.pdf")
    ctx.stamp(twice, path, None, extra=["--drop-signatures"])
    sigs = pdfsig(ctx, path)
    check(len(sigs) == 1 and sigs[0]["valid"] and not sigs[0]["total"] and "Journal X" in sigs[0]["text"], "the earlier signature: %s" % sigs)
    check(qpdf_check(path) == 0, "qpdf --check is not clean")


def case_restamp_signed_batch(ctx):
    # pith batch: the same refusal per file (error_code stamp.drops_signatures, no output), and
    # the manifest key "drop_signatures" as the flag.
    src, manifest, report = ctx.path("rsa.pdf"), ctx.path("restamp-batch.jsonl"), ctx.path("restamp-batch-report.jsonl")
    with open(manifest, "w") as f:
        for name, extra in (("refused", {}), ("dropped", {"drop_signatures": True})):
            line = {"input": src, "record": ctx.path("signed.json"), "output": ctx.path("restamp-batch-%s.pdf" % name)}
            f.write(json.dumps(dict(line, **extra)) + "\n")
    rc, o, e = ctx.run(["batch", manifest, "-q", "--keyring", ctx.path("ring.json"), "--report", report])
    files = {os.path.basename(j["output"]): j for j in map(json.loads, open(report)) if j["event"] == "file"}
    refused, dropped = files["restamp-batch-refused.pdf"], files["restamp-batch-dropped.pdf"]
    check(rc != 0 and not refused["ok"] and refused["error_code"] == "stamp.drops_signatures", "refused: %d %s" % (rc, refused))
    check(not os.path.exists(ctx.path("restamp-batch-refused.pdf")), "refused: output written")
    check(dropped["ok"] and any("dropped 1 signature" in w for w in dropped.get("warnings", [])), "dropped: %s" % dropped)
    check(not pdfsig(ctx, ctx.path("restamp-batch-dropped.pdf")), "dropped: a signature is left")


def case_signed_twice(ctx):
    # A signed file signed again (after a revision of someone else's): the first signature stays
    # valid for pdfsig and openssl, covering its revision only; the second covers the whole file.
    src = ctx.path("rsa.pdf")
    between = revised(ctx, src, "twice-between.pdf", "x")
    path = ctx.path("twice.pdf")
    ctx.stamp(between, path, "ec")
    sigs = check_signed_output(ctx, path, "twice", "Journal EC")
    check(len(sigs) == 2 and sigs[0]["valid"] and not sigs[0]["total"], "the first signature: %s" % sigs[0]["text"])
    out = open(path, "rb").read()
    first_range, first_der = signatures_in(out)[0]
    ok, _ = openssl_cms_verify(ctx, out, first_range, first_der, "twice-first")
    check(ok, "openssl: the first signature no longer verifies")
    check(qpdf_check(path) == 0, "qpdf --check is not clean")
    # pith: the new stamp is signed by its signer; the earlier signed stamp was superseded, which it names.
    rc, report = ctx.verify(path)
    check("CN=Journal EC" in explanation(report, "stamp.signed"), "the new signer: %s" % report)
    check("after CN=Journal X" in explanation(report, "stamp.changed_after_signing"), "the earlier signer: %s" % report["failure"])


# ---------------------------------------------------------------- keys and options

def case_keys(ctx):
    pki = ctx.path("pki")
    # A key readable by others is refused, with a one-line reason.
    shared = ctx.path("shared.key")
    shutil.copy(os.path.join(pki, "rsa.key"), shared)
    os.chmod(shared, 0o644)
    rc, o, e = ctx.run(["stamp", ctx.article, "--record", ctx.path("signed.json"), "-o", ctx.path("k.pdf"),
                        "--sign-cert", os.path.join(pki, "rsa.pem"), "--sign-key", shared])
    check(rc == 2 and "chmod 600" in e and len(e.strip().splitlines()) == 1 and not os.path.exists(ctx.path("k.pdf")), "shared key: %d %s" % (rc, e))
    # An encrypted key: passphrase from a file, from the environment; none or a wrong one fails.
    enc = ctx.path("enc.key")
    sh(["openssl", "pkey", "-in", os.path.join(pki, "ec.key"), "-out", enc, "-aes256", "-passout", "pass:s3cret phrase"])
    os.chmod(enc, 0o600)
    with open(ctx.path("pass.txt"), "w") as f:
        f.write("s3cret phrase\n")
    base = ["stamp", ctx.article, "--record", ctx.path("signed.json"), "--sign-cert", os.path.join(pki, "ec.pem"), "--sign-key", enc]
    rc, o, e = ctx.run(base + ["-o", ctx.path("k1.pdf"), "--sign-pass-file", ctx.path("pass.txt")])
    check(rc == 0, "pass file: " + e)
    check_signed_output(ctx, ctx.path("k1.pdf"), "pass-file", "Journal EC")
    rc, o, e = ctx.run(base + ["-o", ctx.path("k2.pdf"), "--sign-pass-env", "PITH_TEST_PASS"],
                       env=isolated_env(ctx.home, PITH_TEST_PASS="s3cret phrase"))
    check(rc == 0, "pass env: " + e)
    rc, o, e = ctx.run(base + ["-o", ctx.path("k3.pdf")])
    check(rc == 2 and "--sign-pass-file" in e and not os.path.exists(ctx.path("k3.pdf")), "no passphrase: %d %s" % (rc, e))
    rc, o, e = ctx.run(base + ["-o", ctx.path("k3.pdf"), "--sign-pass-env", "PITH_TEST_PASS"], env=isolated_env(ctx.home, PITH_TEST_PASS="wrong"))
    check(rc == 2 and "passphrase" in e and not os.path.exists(ctx.path("k3.pdf")), "wrong passphrase: %d %s" % (rc, e))
    # A key that does not belong to the certificate.
    rc, o, e = ctx.run(["stamp", ctx.article, "--record", ctx.path("signed.json"), "-o", ctx.path("k3.pdf"),
                        "--sign-cert", os.path.join(pki, "rsa.pem"), "--sign-key", os.path.join(pki, "ec.key")])
    check(rc == 2 and "does not belong" in e, "mismatched key: %d %s" % (rc, e))
    # PKCS#12 with the chain; its passphrase from the environment.
    p12 = ctx.path("signer.p12")
    sh(["openssl", "pkcs12", "-export", "-inkey", os.path.join(pki, "rsa.key"), "-in", os.path.join(pki, "rsa.pem"),
        "-certfile", os.path.join(pki, "ca.pem"), "-out", p12, "-passout", "pass:p12pass"])
    os.chmod(p12, 0o600)
    rc, o, e = ctx.run(["stamp", ctx.article, "--record", ctx.path("signed.json"), "-o", ctx.path("k4.pdf"), "--sign-p12", p12,
                        "--sign-pass-env", "P12PASS", "--json"], env=isolated_env(ctx.home, P12PASS="p12pass"))
    check(rc == 0 and "Journal X" in json.loads(o)["signed_by"], "p12: %d %s" % (rc, e))
    check_signed_output(ctx, ctx.path("k4.pdf"), "p12", "Journal X")
    # Passphrases never come from argv: no option takes one.
    rc, o, e = ctx.run(["stamp", "--help"])
    check("--sign-pass " not in o and "--sign-password" not in o and "--sign-pass-file" in o, "stamp --help")


def case_certify(ctx):
    out = ctx.path("certified.pdf")
    ctx.stamp(ctx.article, out, "rsa", extra=["--certify"])
    check_signed_output(ctx, out, "certify", "Journal X")
    data = open(out, "rb").read()
    check(re.search(rb"/TransformMethod /DocMDP", data) and re.search(rb"/P 2\b", data), "no DocMDP P=2 reference")
    check(re.search(rb"/Perms <<\s*/DocMDP \d+ 0 R", data), "no /Perms /DocMDP in the catalog")
    rc, report = ctx.verify(out)
    check(report["state"] == "trusted" and "stamp.signed" in codes(report, "success"), str(report))
    # A signed PDF cannot be certified (a revision of someone else's after the signed stamp: kept).
    between = revised(ctx, ctx.path("rsa.pdf"), "certify-between.pdf", "edited")
    rc, o, e = ctx.stamp(between, ctx.path("certify-refused.pdf"), "ec", extra=["--certify"], expect_ok=False)
    check(rc == 2 and "already signed" in e and e.strip().endswith("[sign.already_signed]") and
          not os.path.exists(ctx.path("certify-refused.pdf")), "certify a signed PDF: %d %s" % (rc, e))
    # Certifying setup's signed stamp itself would replace it and drop its signature: refused...
    line = refused_drop(ctx, ctx.path("rsa.pdf"), "certify-replace-refused.pdf", "ec", extra=["--certify"])
    check('field "PithStamp"' in line, "the signature is not named: " + line)
    # ... unless said: then the new stamp is the first signature, and certifies.
    out = ctx.path("certify-replaced.pdf")
    rc, o, e = ctx.stamp(ctx.path("rsa.pdf"), out, "ec", extra=["--certify", "--drop-signatures"])
    check("dropped 1 signature" in e, "the dropped signature is not reported: " + e)
    sigs = check_signed_output(ctx, out, "certify-replaced", "Journal EC")
    check(len(sigs) == 1 and re.search(rb"/TransformMethod /DocMDP", open(out, "rb").read()), "certify-replaced: %s" % sigs)
    check(qpdf_check(out) == 0, "certify-replaced: qpdf --check is not clean")


def case_encrypted(ctx):
    # Encrypted PDFs stay encrypted; the signature's /Contents is not encrypted; pdfsig validates.
    for name, enc in (("rc4", ["128", "--use-aes=n"]), ("aes128", ["128", "--use-aes=y"]), ("aes256", ["256"])):
        src = ctx.path("enc-%s.pdf" % name)
        sh(["qpdf", "--allow-weak-crypto", "--encrypt", "", "owner-pw"] + enc + ["--", ctx.article, src])
        out = ctx.path("enc-%s-signed.pdf" % name)
        ctx.stamp(src, out, "rsa")
        check_signed_output(ctx, out, "encrypted " + name, "Journal X")
        check(qpdf_check(out) == 0, "%s: qpdf --check is not clean" % name)
        shown = subprocess.run(["qpdf", "--show-encryption", out], capture_output=True, text=True).stdout
        check("R = " in shown or "P = " in shown, "%s: no longer encrypted: %s" % (name, shown))
        rc, report = ctx.verify(out)
        check(report["state"] == "trusted" and "stamp.signed" in codes(report, "success"), "%s: %s" % (name, report))


def case_batch(ctx):
    # pith batch signs every file with the key it loaded once; --verify --require-signed-stamp accepts them.
    manifest = ctx.path("batch.jsonl")
    with open(manifest, "w") as f:
        for i in range(3):
            f.write(json.dumps({"input": ctx.article, "record": ctx.path("signed.json"), "output": ctx.path("batch", "%d.pdf" % i)}) + "\n")
    pki = ctx.path("pki")
    rc, o, e = ctx.run(["batch", manifest, "-j", "2", "-q", "--keyring", ctx.path("ring.json"), "--sign-cert", os.path.join(pki, "ec.pem"),
                        "--sign-key", os.path.join(pki, "ec.key"), "--report", ctx.path("batch-report.jsonl")])
    check(rc == 0, "batch: %d %s" % (rc, e))
    for i in range(3):
        check_signed_output(ctx, ctx.path("batch", "%d.pdf" % i), "batch %d" % i, "Journal EC")
    rc, o, e = ctx.run(["batch", "--verify", manifest, "-q", "--keyring", ctx.path("ring.json"), "--trust", os.path.join(pki, "ca.pem"),
                        "--require-signed-stamp", "--json"])
    check(rc == 0 and json.loads(o)["ok"] == 3, "batch --verify: %d %s %s" % (rc, o, e))
    rc, o, e = ctx.run(["batch", "--verify", manifest, "-q", "--keyring", ctx.path("ring.json"), "--require-signed-stamp", "--json"])
    check(rc == 1, "batch --verify --require-signed-stamp without anchors passed")


def case_hostile_form(ctx):
    # A form whose field lists itself 60 times as a kid, 9 levels deep: 60^9 paths, one object.
    # Stamping with a signature and verifying stay quick; the old field is kept.
    data = pdfedit.make_pdf(["A paper with a looping form"])
    kids = " ".join(["7 0 R"] * 60)
    data = pdfedit.append_update(data, {1: "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [ 7 0 R ] >> >>",
                                        7: "<< /FT /Sig /T (Loop) /Kids [ %s ] >>" % kids})
    src = ctx.path("looping-form.pdf")
    open(src, "wb").write(data)
    out = ctx.path("looping-form-signed.pdf")
    ctx.stamp(src, out, "rsa", extra=["--no-title-check"])
    check_signed_output(ctx, out, "looping form", "Journal X")
    rc, report = ctx.verify(out)
    check("stamp.signed" in codes(report, "success"), "looping form: %s" % report["failure"])


# ---------------------------------------------------------------- corpus

# Corpus files pith stamp refuses unsigned as well, so signing is not what refuses them; any other
# refusal, or one of these stamped, fails case_corpus.
REFUSED_UNSIGNED = {
    "encrypted/pyhanko-minimal-pubkey-aes256.pdf": "public-key encryption (/Adobe.PubSec) is not supported",
    "signed/qpdf-acrobat-sign-restricted.pdf": "certified, DocMDP P=1 (stamped with --force only)",
    "signed/certified-with-indirect-refs-in-dir.pdf": "certified, DocMDP P=1",
    "signed/verapdf-a2b-6-1-12-t02-pass-a-signed.pdf": "certified, DocMDP P=2",
    "signed/verapdf-a4-6-1-11-t01-pass-a-signed.pdf": "certified, DocMDP P=2",
}


def case_corpus(ctx):
    corpus = manifest.load(ctx.corpus)  # every file of tests/corpus/counts.tsv, or a failure
    done, skipped, problems = 0, [], []
    for row in corpus.rows("valid", "signed", "pdfa", "encrypted"):
        if row["file"] in DAMAGED_CORPUS_FILES:
            continue
        src = corpus.path(row)
        password = row.get("password") or None
        out = ctx.path("corpus", row["file"].replace("/", "_"))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        # One record for every file: its title is on none of them, past the closed list too
        # (signing is what is tested here).
        extra = ["--no-title-check", "--allow-unlisted"] + (["--password", password] if password else [])
        rc, o, e = ctx.stamp(src, out, "rsa", extra=extra, expect_ok=False)
        if rc != 0:
            # Not signing's doing when pith stamp refuses the file unsigned as well (damaged, certified).
            rc2, o2, e2 = ctx.stamp(src, out + ".unsigned.pdf", None, extra=extra, expect_ok=False)
            if rc2 != 0:
                skipped.append("%s (%s)" % (row["file"], e2.strip()[:120]))
                if row["file"] not in REFUSED_UNSIGNED:
                    problems.append("%s: refused signed and unsigned, not in REFUSED_UNSIGNED: %s" % (row["file"], e2.strip()))
            else:
                problems.append("%s: signed stamp fails where the unsigned one works: %s" % (row["file"], e.strip()))
            continue
        if row["file"] in REFUSED_UNSIGNED:
            problems.append("%s: stamped, but REFUSED_UNSIGNED says it is refused (%s)" % (row["file"], REFUSED_UNSIGNED[row["file"]]))
        done += 1
        try:
            before = pdfsig(ctx, src, password)
            after = check_signed_output(ctx, out, row["file"], "Journal X", password)
            check(len(after) == len(before) + 1, "%d signatures before, %d after" % (len(before), len(after)))
            for i, (b, a) in enumerate(zip(before, after)):
                check(a["validation"] == b["validation"], "earlier signature %d: %r before, %r after" % (i + 1, b["validation"], a["validation"]))
            q_before, q_after = qpdf_check(src, password), qpdf_check(out, password)
            check(q_after == 0 or q_after == q_before, "qpdf --check: %d (input: %d)" % (q_after, q_before))
            rc, report = ctx.verify(out, extra=["--password", password] if password else [])
            check("stamp.signed" in codes(report, "success"), "pith verify: no stamp.signed: %s" % report["failure"])
            check("pith.update.match" in codes(report, "success"), "pith verify: %s" % report["failure"])
        except Failure as x:
            problems.append("%s: %s" % (row["file"], x))
    print("corpus: %d files stamped with a signature and checked; %d skipped (refused unsigned too): %s" % (done, len(skipped), "; ".join(skipped)))
    check(not problems, "%d problems:\n" % len(problems) + "\n".join(problems))


def set_up(ctx):
    """Why a case cannot run: the setup case's signed stamp is missing."""
    if os.path.exists(ctx.path("rsa.pdf")):
        return None
    return 1, "FAIL: the setup case did not produce %s" % ctx.path("rsa.pdf")


def main():
    return case_main(globals(), Ctx, work=True, corpus=True, ready=set_up)


if __name__ == "__main__":
    sys.exit(main())
