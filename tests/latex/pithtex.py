# SPDX-License-Identifier: MIT
"""Reference implementation of the text `pith tex RECORD.json` prints.

This is the executable form of the syntax documented in latex/pith.tex
(section "The full receipt"). The C++ `pith tex` must print the same
bytes for the same record; tests/latex uses this module to build the
\\pithnumber lines it compiles.

Python standard library only.
"""
import base64
import hashlib
import json

HEX_WRAP = 64  # hex digits per line; pith.sty ignores white space in hex


def canonical_json(obj):
    """Canonical form: what the registry hashes (CPython is the reference)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)


def body_of(sha256_hex):
    raw = bytes.fromhex(sha256_hex)
    return base64.b32encode(raw).decode("ascii")[:26]


def _hex_block(text, indent="    "):
    h = text.encode("utf-8").hex()
    lines = [h[i:i + HEX_WRAP] for i in range(0, len(h), HEX_WRAP)] or [""]
    return "\n".join(indent + line for line in lines)


def pith_tex(record, receipt=None, title=None):
    """Return the exact text `pith tex` prints for a canonical record.

    record  -- the canonical record (a dict)
    receipt -- the registry receipt dict (key_id, algorithm, signature_b64,
               public_key_fingerprint, signed_at, canonical_sha256) or None
    title   -- the paper's plain title as registered, or None
    """
    canon = canonical_json(record)
    digest = hashlib.sha256(canon.encode("utf-8")).hexdigest()
    year = record["metadata"]["submitted_at"][:4]
    number = "pith:%s:%s" % (year, body_of(digest))
    if receipt is not None and receipt.get("canonical_sha256", digest) != digest:
        raise ValueError("receipt hash does not match the record")
    out = []
    out.append("%% Pith number %s -- printed by `pith tex`." % number)
    out.append("% Paste after \\usepackage{pith}; do not edit the hex.")
    out.append("\\pithnumber[")
    out.append("  year={%s}," % year)
    out.append("  hash={%s}," % digest)
    if receipt is not None:
        out.append("  algorithm={%s}," % receipt["algorithm"])
        out.append("  keyid={%s}," % receipt["key_id"])
        out.append("  signature={%s}," % receipt["signature_b64"])
        out.append("  fingerprint={%s}," % receipt["public_key_fingerprint"])
        out.append("  signedat={%s}," % receipt["signed_at"])
    if title is not None:
        out.append("  title={")
        out.append(_hex_block(title) + "},")
    out.append("  record={")
    out.append(_hex_block(canon) + "},")
    out.append("]{%s}" % number)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    import sys
    fx = json.load(open(sys.argv[1], encoding="utf-8"))
    sys.stdout.write(pith_tex(fx["canonical_record"], fx.get("receipt"),
                              fx.get("title")))
