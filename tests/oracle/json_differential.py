#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Differential test: pith's canonical JSON against CPython's json module.

CPython is the reference the registry uses:
    json.dumps(obj, sort_keys=True, separators=(',', ':'), ensure_ascii=False)
This script generates random JSON documents (deep nesting, floats over the whole
double range, integers beyond 2**64, every escape, astral and combining
characters), writes them in varied but valid spellings, feeds them to
json_canon_filter and compares every output byte for byte. It also checks that
pith refuses what Python would accept but a canonical record must not hold.
"""
import argparse
import json
import math
import random
import struct
import subprocess
import sys


def rand_double(rng):
    kind = rng.randrange(10)
    if kind == 0:  # any finite bit pattern, subnormals included
        while True:
            x = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
            if math.isfinite(x):
                return x
    if kind == 1:  # subnormal
        return struct.unpack("<d", rng.getrandbits(52).to_bytes(8, "little"))[0] * rng.choice([1, -1])
    if kind == 2:  # powers of ten and their neighbours, around the layout switches 1e16 and 1e-4
        e = rng.choice([-5, -4, -3, 15, 16, 17, rng.randrange(-324, 309)])
        x = float("1e%d" % e) * rng.choice([1, 2, 5, 9.999999999999999, 1.0000000000000002])
        return rng.choice([x, math.nextafter(x, math.inf), math.nextafter(x, -math.inf)]) if math.isfinite(x) else 1.0
    if kind == 3:
        return rng.choice([0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                           9007199254740993.0, 1e15, 1e16, 1e17, 0.0001, 0.00001, 123456789012345678.0])
    if kind in (4, 5):  # short "human" decimals
        return round(rng.uniform(-1e6, 1e6), rng.randrange(0, 8))
    if kind == 6:
        return rng.randrange(-10**17, 10**17) / 10 ** rng.randrange(0, 20)
    return rng.uniform(-1, 1) * 10 ** rng.randrange(-30, 30)


def rand_int(rng):
    kind = rng.randrange(5)
    if kind == 0:
        return rng.randrange(-100, 100)
    if kind == 1:
        return rng.choice([2**63 - 1, -2**63, 2**63, 2**64 - 1, 2**64, -2**63 - 1, -2**64 - 1, 0])
    if kind == 2:
        return rng.randrange(-2**64, 2**64)
    if kind == 3 and rng.random() < 0.1:  # beyond the double range, up to Python's 4300-digit limit
        digits = rng.randrange(300, 4300)
        return rng.randrange(-10**digits, 10**digits)
    return rng.randrange(-10**rng.randrange(20, 120), 10**rng.randrange(20, 120))


ALPHABETS = [
    [chr(c) for c in range(0x20)] + ['"', '\\', '/', '\x7f', '\u2028', '\u2029', '\ufeff'],
    list("abcdefghijklmnopqrstuvwxyz ABC_-.:"),
    list("éèüßçøåÆŒΩαβγЖжक़中文日本語한국어\u0301\u0308\u0327\u20dd"),  # combining marks included
    ["😀", "𝔘", "𐍈", "🇩🇪", "👩\u200d💻", "\U0010fffd", "\uff61", "\ufffd"],  # astral and a key-order trap
]


def rand_string(rng, max_len=12):
    out = []
    for _ in range(rng.randrange(0, max_len)):
        if rng.random() < 0.02:
            out.append(chr(rng.choice([c for c in range(0x80, 0x3000) if not 0xD800 <= c <= 0xDFFF])))
        else:
            out.append(rng.choice(rng.choice(ALPHABETS)))
    return "".join(out)


def rand_value(rng, depth):
    r = rng.random()
    if depth > 0 and r < 0.35:
        if rng.random() < 0.5:
            return [rand_value(rng, depth - 1) for _ in range(rng.randrange(0, 6))]
        return {rand_string(rng, 6): rand_value(rng, depth - 1) for _ in range(rng.randrange(0, 6))}
    return rng.choice([None, True, False, rand_int(rng), rand_double(rng), rand_double(rng), rand_string(rng)])


def spell_float(rng, x):
    """A valid JSON spelling of x that Python reads back as exactly x."""
    style = rng.randrange(4)
    if style == 0:
        return repr(x)
    if style == 1:
        return "%.17g" % x if ("e" in "%.17g" % x or "." in "%.17g" % x) else "%.17g.0" % x
    if style == 2:
        return ("%.20E" % x)
    return "%.25e" % x


def spell(rng, v):
    """Serialise with random whitespace, escaping and number spellings (valid JSON, one line)."""
    ws = lambda: rng.choice(["", "", " ", "\t", "  "])
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return spell_float(rng, v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=rng.random() < 0.3)
    if isinstance(v, list):
        return "[" + ws() + ("," + ws()).join(spell(rng, x) for x in v) + ws() + "]"
    items = list(v.items())
    rng.shuffle(items)
    return "{" + ws() + ",".join(ws() + spell(rng, k) + ws() + ":" + ws() + spell(rng, x) for k, x in items) + ws() + "}"


def canonical(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


REFUSED = [  # Python accepts these; a canonical record must not hold them
    ('{"a":NaN}', "NaN"), ('[Infinity]', "Infinity"), ('{"a":-Infinity}', "Infinity"),
    ('{"a":1,"a":2}', "duplicate key"), ('{"x":{"y":[1,{"k":1,"k":1}]}}', "$.x.y[1].k"),
    ('[1e400]', "range"), ('{"a":{"b":[NaN]}}', "$.a.b[0]"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=20261130)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    inputs, expected = [], []
    for i in range(args.count):
        value = rand_value(rng, rng.randrange(1, 7))
        text = spell(rng, value)
        assert "\n" not in text
        inputs.append(text)
        expected.append(canonical(json.loads(text)))
    inputs += [t for t, _ in REFUSED]

    data = ("\n".join(inputs) + "\n").encode("utf-8")
    proc = subprocess.run([args.tool], input=data, stdout=subprocess.PIPE, timeout=600, check=True)
    lines = proc.stdout.decode("utf-8").split("\n")[:-1]
    if len(lines) != len(inputs):
        print(f"FAIL: {len(inputs)} inputs but {len(lines)} output lines")
        return 1

    mismatches = 0
    for i, (text, want) in enumerate(zip(inputs, expected)):
        if lines[i] != want:
            mismatches += 1
            if mismatches <= 10:
                print(f"MISMATCH {i}:\n  input  {text!r}\n  python {want!r}\n  pith   {lines[i]!r}")
    refusals_ok = 0
    for (text, needle), got in zip(REFUSED, lines[len(expected):]):
        if got.startswith("ERROR") and needle in got:
            refusals_ok += 1
        else:
            print(f"NOT REFUSED as expected ({needle!r}): {text!r} -> {got!r}")
    floats = sum(t.count("e") + t.count("E") + t.count(".") for t in inputs[:args.count])
    print(f"{args.count} generated values (~{floats} float lexemes), {mismatches} mismatches; "
          f"{refusals_ok}/{len(REFUSED)} refusals correct")
    failed = mismatches + len(REFUSED) - refusals_ok
    print(f"{args.count + len(REFUSED) - failed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
