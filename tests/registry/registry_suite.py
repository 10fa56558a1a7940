#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of the registry client (pith fetch, keys, badge, --number/--arxiv, verify --online, batch
manifests by number) against a local registry on 127.0.0.1 that the test starts itself
(registry_server.py). One ctest per case (tests/registry.cmake).

usage: registry_suite.py --pith PITH --source SRC CASE
Every case runs in its own temporary directory, with HOME and XDG_CACHE_HOME there, no proxy
variables and NO_PROXY=*, so nothing reaches beyond the loopback address. Exit 0 pass, 1 fail
(a missing tool too: .ci/deps installs openssl, xmllint and mutool), 77 skipped (badge_chromium
without Chromium)."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, HERE)
from pdfwriter import minimal_pdf  # noqa: E402
from pithrun import Failure, case_main, check, chromium, isolated_env, offline_chromium, run_pith  # noqa: E402
import registry_server  # noqa: E402

SEED_000 = "pith:2025:23QNCODH577IUWDFZU4YX4M5NI"
SEED_004 = "pith:2023:GZ3OEI4JYPZPS66UULEGJKFYJU"
SEED_002 = "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3"
TEST_KEY = "test-registry-2026"


class Ctx:
    def __init__(self, args, tmp):
        self.pith, self.src, self.tmp = os.path.abspath(args.pith), os.path.abspath(args.source), tmp
        self.home = self.mkdir("home")
        self.cache = self.mkdir("cache")
        vectors = os.path.join(self.src, "tests", "vectors")
        self.seed_text = {}
        for name in sorted(os.listdir(vectors)):
            with open(os.path.join(vectors, name), encoding="utf-8") as f:
                self.seed_text[name] = f.read()
        self.reg = registry_server.Registry()
        self.reg.add_record(self.seed_text["seed-000-pith_number_record.json"])
        self.reg.add_record(self.seed_text["seed-004-pith_number_record.json"])
        state = self.seed_text["seed-002-open_graph_state.json"]
        self.reg.add_bundle(state)
        self.server, self.base = registry_server.start(self.reg)

    def mkdir(self, name):
        path = os.path.join(self.tmp, name)
        os.makedirs(path, exist_ok=True)
        return path

    def path(self, name):
        return os.path.join(self.tmp, name)

    def url(self, mode="good"):
        return self.base + "/" + mode

    def env(self):
        env = isolated_env(self.home, XDG_CACHE_HOME=self.cache, NO_PROXY="*", no_proxy="*")
        for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "PITH_REGISTRY"):
            env.pop(k, None)
        return env

    def run(self, args, timeout=120):
        return run_pith(self.pith, args, self.env(), timeout=timeout, cwd=self.tmp)

    def ok(self, args):
        rc, out, err = self.run(args)
        check(rc == 0, "pith %s: exit %d: %s" % (" ".join(args), rc, err.strip()))
        return out

    def refused(self, args, status, pattern):
        rc, out, err = self.run(args)
        check(rc == status, "pith %s: exit %d, expected %d: %s" % (" ".join(args), rc, status, err.strip()))
        lines = err.strip().splitlines()
        check(len(lines) == 1, "pith %s: the error is not one line: %r" % (" ".join(args), err))
        check(re.search(pattern, lines[0]), "pith %s: error %r does not match %r" % (" ".join(args), lines[0], pattern))
        return lines[0]

    def write(self, name, text):
        with open(self.path(name), "w", encoding="utf-8") as f:
            f.write(text)
        return self.path(name)

    def read(self, name):
        with open(self.path(name), encoding="utf-8") as f:
            return f.read()


def body(number):
    return number.split(":")[-1]


# ---------------------------------------------------------------- fetching

def case_fetch_good(c):
    seed0 = c.seed_text["seed-000-pith_number_record.json"]
    c.ok(["fetch", SEED_000, "--registry", c.url(), "-o", "a.json"])
    check(c.read("a.json") == seed0, "the fetched record is not the document served")
    check(c.reg.count("good", "/pith/") == 1, "one request expected")
    # a short alias, lower case, and a resolver URL: the same record
    for typed in ("pith:23QNCODH", "pith:23qncodh577iuwdf", "https://pith.science/pith/23QNCODH577IUWDFZU4YX4M5NI"):
        out = c.ok(["fetch", typed, "--registry", c.url(), "--json"])
        check(json.loads(out)["number"] == SEED_000, "%s: wrong number %s" % (typed, out))
    # arXiv, with and without version; the version must be the record's
    out = json.loads(c.ok(["fetch", "arxiv:2311.03687v2", "--registry", c.url(), "--json"]))
    check(out["number"] == SEED_004 and not out["from_cache"], "arxiv fetch: %s" % out)
    c.ok(["fetch", "arxiv:2504.09307", "--registry", c.url(), "-o", "b.json"])
    check(json.loads(c.read("b.json"))["pith_number"] == SEED_000, "arxiv:2504.09307 gave another record")
    c.refused(["fetch", "arxiv:2311.03687v1", "--registry", c.url()], 2, r"does not know it \(HTTP 404")
    # the resolver answering with a pointer {"pith_number": ...}
    out = json.loads(c.ok(["fetch", "arxiv:2311.03687", "--registry", c.url("pointer"), "--json", "--refresh"]))
    check(out["number"] == SEED_004, "pointer resolver: %s" % out)
    # the bundle: state_sha256 recomputed
    c.ok(["fetch", body(SEED_002), "--bundle", "--registry", c.url(), "-o", "state.json"])
    check(json.loads(c.read("state.json"))["state_sha256"].startswith("223f50"), "bundle state not fetched")
    rc, out, err = c.run(["record", "state.json"])
    check(rc == 0 and "record.state.match" in out, "pith record does not accept the fetched bundle: %s" % out)


def case_cache(c):
    c.ok(["fetch", SEED_000, "--registry", c.url()])
    c.ok(["fetch", "arxiv:2311.03687", "--registry", c.url()])
    before = c.reg.count()
    # served from the cache: no request, also with the registry gone (--offline)
    out = json.loads(c.ok(["fetch", SEED_000, "--registry", c.url(), "--json"]))
    check(out["from_cache"] and c.reg.count() == before, "second fetch was not served from the cache")
    dead = "http://127.0.0.1:9/none"
    for q in (SEED_000, "pith:23QNCODH", "arxiv:2311.03687", "arxiv:2311.03687v2"):
        out = json.loads(c.ok(["fetch", q, "--offline", "--registry", dead, "--json"]))
        check(out["from_cache"], "%s --offline not from the cache" % q)
    c.refused(["fetch", SEED_004.replace("GZ3O", "GZ3P"), "--offline"], 2, r"not in the cache .* --offline")
    check(c.reg.count() == before, "--offline made requests")
    # a cached copy that was changed is refused offline, and replaced online
    cached = os.path.join(c.cache, "pith", "records", body(SEED_000) + ".json")
    check(os.path.exists(cached), "cache file %s missing" % cached)
    with open(cached, encoding="utf-8") as f:
        doc = json.load(f)
    doc["canonical_record"]["metadata"]["license"] = "edited in the cache"
    with open(cached, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    c.refused(["fetch", SEED_000, "--offline"], 1, r"cached copy refused: .*does not recompute")
    c.ok(["fetch", SEED_000, "--registry", c.url(), "-o", "again.json"])
    check(c.read("again.json") == c.seed_text["seed-000-pith_number_record.json"], "the damaged cache was not replaced")
    c.ok(["fetch", SEED_000, "--offline"])


def case_hostile(c):
    out = c.path("out.json")
    cases = [
        ("wrong", [SEED_000], 1, r"answers pith:2023:GZ3OEI4J\w+, not the .* asked for; refused"),
        ("wrong", ["pith:23QNCODH"], 1, r"does not start with 23QNCODH; refused"),
        ("wrongarxiv", ["arxiv:2504.09307"], 1, r"source.id 2311.03687, not arXiv 2504.09307; refused"),
        ("tampered", [SEED_000], 1, r"stated canonical_sha256 d6e0d138\w+ does not recompute"),
        ("badstate", [body(SEED_002), "--bundle"], 1, r"stated state_sha256 223f50\w+ does not recompute"),
        ("nonjson", [SEED_000], 1, r"the answer is not JSON \(text/html\)"),
        ("huge", [SEED_000], 2, r"answer larger than 32 MiB; refused"),
        ("huge-chunked", [SEED_000], 2, r"answer larger than 32 MiB; refused"),
        ("loop", [SEED_000], 2, r"more than 5 redirects"),
        ("e404", [SEED_000], 2, r"does not know it \(HTTP 404 at http://127.0.0.1:\d+/e404/pith/23QNCODH\w+\.json\)"),
        ("e429", [SEED_000, "--retries", "2"], 2, r"HTTP 429 too many requests \(after 3 attempts\)"),
        ("e500", [SEED_000, "--retries", "2"], 2, r"HTTP 500 \(after 3 attempts\)"),
    ]
    for mode, args, status, pattern in cases:
        before = c.reg.count(mode)
        start = time.monotonic()
        c.refused(["fetch"] + args + ["--registry", c.url(mode), "-o", out], status, pattern)
        check(not os.path.exists(out), "%s: an output file was written" % mode)
        check(time.monotonic() - start < 30, "%s: took %.1f s" % (mode, time.monotonic() - start))
        if mode in ("e429", "e500"):
            check(c.reg.count(mode) - before == 3, "%s: %d requests, expected 3 (retries 2)" % (mode, c.reg.count(mode) - before))
    check(not os.listdir(os.path.join(c.cache, "pith", "records")) if os.path.isdir(os.path.join(c.cache, "pith", "records")) else True,
          "a refused answer was cached")
    # retries that succeed: 503 twice, then the record
    c.ok(["fetch", SEED_000, "--registry", c.url("flaky")])
    check(c.reg.count("flaky") == 3, "flaky: %d requests" % c.reg.count("flaky"))
    # a server that never answers: the time-out, one line
    start = time.monotonic()
    c.refused(["fetch", SEED_004, "--registry", c.url("silent"), "--timeout", "2", "--retries", "0"], 2,
              r"no complete answer within 2 s")
    check(time.monotonic() - start < 10, "the time-out took %.1f s" % (time.monotonic() - start))
    # nobody listening (offline)
    c.refused(["fetch", SEED_004, "--registry", "http://127.0.0.1:9/x"], 2, r"cannot connect")
    # no network address other than http(s)
    c.refused(["fetch", SEED_004, "--registry", "file:///etc"], 2, r"not an http:// or https:// URL")


def case_proxy(c):
    """Proxies come from the environment: the local server is the proxy, for a registry whose name is
    never resolved (the proxy is asked for the absolute URL). Requests name pith and its version."""
    old = c.env

    def env():
        e = old()
        for k in ("NO_PROXY", "no_proxy"):
            e.pop(k)
        e["http_proxy"] = c.base
        return e
    c.env = env
    c.ok(["fetch", SEED_000, "--registry", "http://registry.invalid/good", "-o", "p.json"])
    check(c.read("p.json") == c.seed_text["seed-000-pith_number_record.json"], "fetch through the proxy gave another document")
    agent, accept, host = c.reg.headers[-1]
    check(host == "registry.invalid", "the proxy was not asked for the registry's URL (Host %s)" % host)
    version = c.ok(["--version"]).split()[-1]
    check(agent == "pith/" + version and accept == "application/json", "User-Agent %r, Accept %r" % (agent, accept))


def openssl(*args, cwd):
    subprocess.run(["openssl"] + list(args), cwd=cwd, check=True, capture_output=True)


def case_tls(c):
    check(shutil.which("openssl"), "openssl not installed (Debian: openssl; .ci/deps)")
    d = c.mkdir("tls")
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=pith test CA", cwd=d)
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1", cwd=d)
    with open(os.path.join(d, "san.cnf"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem",
            "-days", "2", "-extfile", "san.cnf", cwd=d)
    server, base = registry_server.start(c.reg, tls=(os.path.join(d, "server.pem"), os.path.join(d, "server.key")))
    try:
        c.refused(["fetch", SEED_000, "--registry", base + "/good"], 2, r"TLS failed: .*certificate")
        c.ok(["fetch", SEED_000, "--registry", base + "/good", "--cacert", os.path.join(d, "ca.pem"), "-o", "tls.json"])
        check(c.read("tls.json") == c.seed_text["seed-000-pith_number_record.json"], "TLS fetch gave another document")
        c.refused(["fetch", SEED_004, "--registry", base + "/good", "--cacert", os.path.join(d, "server.key")], 2, r"TLS failed")
    finally:
        server.shutdown()


# ---------------------------------------------------------------- keys, stamp, verify

def make_test_registry(c):
    """A test registry key, and seed 002's record signed by it served at /good."""
    c.ok(["keygen", "--key-id", TEST_KEY, "--secret", "test.key", "--keyring", "served-keyring.json"])
    c.ok(["sign", os.path.join(c.src, "examples", "record.json"), "--secret", "test.key", "-o", "signed.json"])
    c.reg.add_record(c.read("signed.json"))
    c.reg.keys["test.json"] = c.read("served-keyring.json")
    return json.loads(c.read("served-keyring.json"))["keys"][0]["fingerprint"]


def verify_json(c, args):
    rc, out, err = c.run(["verify", "--json"] + args)
    try:
        return rc, json.loads(out)
    except ValueError:
        raise Failure("verify %s: not JSON (exit %d): %s %s" % (args, rc, out[:300], err[:300]))


def codes(doc):
    return {f["code"] for s in ("success", "informational", "failure") for f in doc[s]}


def case_new_user(c):
    fingerprint = make_test_registry(c)
    key_url = c.url() + "/keys/test.json"
    user_ring = os.path.join(c.home, ".config", "pith", "keyring.json")
    c.ok(["fetch", SEED_002, "--registry", c.url(), "-o", "fetched.json"])
    # a key whose fingerprint is not the pinned one never enters the keyring
    c.refused(["keys", "add", key_url, "--key-id", TEST_KEY, "--fingerprint", "00" * 16], 2,
              r"key fingerprint %s does not match 0+ \(pinned by --fingerprint\); not added" % fingerprint)
    check(not os.path.exists(user_ring), "a refused key created the keyring")
    # pinned by the receipts of the records fetched
    out = c.ok(["keys", "add", key_url, "--key-id", TEST_KEY])
    check("pinned by the cached receipts" in out and os.path.exists(user_ring), "keys add: %s" % out)
    check(fingerprint in c.ok(["keys", "list"]), "keys list does not show the key")
    requests = c.reg.count()
    c.ok(["stamp", os.path.join(c.src, "examples", "article.pdf"), "--number", SEED_002, "--registry", c.url(), "-o", "paper.pdf"])
    check(c.reg.count() == requests, "stamp --number asked the registry although the record is cached")
    rc, doc = verify_json(c, ["paper.pdf"])
    check(rc == 0 and doc["state"] == "trusted" and "receipt.valid" in codes(doc), "new user: not trusted: %s" % doc)
    rc, doc = verify_json(c, ["paper.pdf", "--online", "--registry", c.url(), "--refresh"])
    check(rc == 0 and {"registry.known", "pith.record.expected.match"} <= codes(doc), "verify --online: %s" % doc)
    check(c.reg.count() == requests + 1, "verify --online --refresh made %d requests" % (c.reg.count() - requests))
    # a registry that does not know the number; one that cannot be reached
    rc, doc = verify_json(c, ["paper.pdf", "--online", "--registry", c.url("e404"), "--refresh"])
    check(rc == 1 and "registry.unknown" in codes(doc), "unknown number online: %s" % doc)
    rc, doc = verify_json(c, ["paper.pdf", "--online", "--registry", "http://127.0.0.1:9/x", "--refresh"])
    check(rc == 4 and "registry.unreachable" in codes(doc), "unreachable registry: %s" % doc)
    # another key under the same id: verify names the fingerprint disagreement
    c.ok(["keygen", "--key-id", TEST_KEY, "--secret", "other.key", "--keyring", "other-ring.json"])
    rc, doc = verify_json(c, ["paper.pdf", "--keyring", "other-ring.json"])
    why = [f["explanation"] for f in doc["failure"] if f["code"] == "receipt.invalid"]
    check(rc == 1 and why and "public_key_fingerprint %s disagrees with the keyring's key" % fingerprint in why[0],
          "fingerprint disagreement not reported: %s" % doc)
    # revoked: no longer trusted
    c.ok(["keys", "revoke", TEST_KEY])
    rc, doc = verify_json(c, ["paper.pdf"])
    check(rc == 4 and "receipt.key_revoked" in codes(doc), "revoked key still trusted: %s" % doc)
    # pith tex --number prints the \pithnumber line from the cached record
    out = c.ok(["tex", "--number", SEED_002, "--offline"])
    direct = c.ok(["tex", "signed.json"])
    check(out == direct and "]{pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3}" in out, "tex --number differs from tex FILE: %s" % out[:300])


def case_seeds_key_unknown(c):
    """The seed records, fetched and stamped by number: their real key is not available."""
    make_test_registry(c)
    c.ok(["keys", "add", c.url() + "/keys/test.json", "--key-id", TEST_KEY, "--fingerprint",
          json.loads(c.read("served-keyring.json"))["keys"][0]["fingerprint"]])
    c.reg.records.pop(body(SEED_002))  # the seed's own record (its receipt is in the state) instead of the test-signed one
    c.reg.add_record(c.seed_text["seed-002-open_graph_state.json"])
    article = os.path.join(c.src, "examples", "article.pdf")
    c.ok(["stamp", article, "--arxiv", "2407.14645v1", "--registry", c.url(), "-o", "seed.pdf"])
    # seed 000 is another paper than the example: only its key matters here
    c.ok(["stamp", article, "--number", SEED_000, "--registry", c.url(), "-o", "seed0.pdf", "--no-title-check"])
    rc, doc = verify_json(c, ["seed.pdf"])
    check(rc == 4 and doc["state"] == "unverified" and doc["number"] == SEED_002 and "receipt.key_unknown" in codes(doc),
          "seed 002: %s" % doc)
    # seed 000 is another paper than examples/article.pdf: its title is not on page 1 (invalid), and its key unknown
    rc, doc = verify_json(c, ["seed0.pdf"])
    check(rc == 1 and {"receipt.key_unknown", "pith.title.differs"} <= codes(doc), "seed 000: %s" % doc)
    c.refused(["keys", "add", c.url() + "/keys/test.json", "--key-id", "pith-v1-2026-05"], 2, r"holds no key with id")


def case_no_network(c):
    """Commands not asked to go online never do, whatever PITH_REGISTRY says."""
    env_registry = c.url("good")
    article = os.path.join(c.src, "examples", "article.pdf")
    record = os.path.join(c.src, "examples", "record.json")
    old = c.env

    def env():
        e = old()
        e["PITH_REGISTRY"] = env_registry
        return e
    c.env = env
    c.ok(["stamp", article, "--record", record, "-o", "s.pdf"])
    c.run(["verify", "s.pdf"])
    c.ok(["record", record])
    c.ok(["tex", record])
    c.ok(["badge", SEED_002, "--svg"])
    c.refused(["fetch", SEED_000, "--offline"], 2, r"not in the cache")
    check(c.reg.count() == 0, "%d requests without being asked" % c.reg.count())
    c.ok(["fetch", SEED_000])  # PITH_REGISTRY names the registry
    check(c.reg.count() == 1, "PITH_REGISTRY was not used")


def case_batch_1000(c):
    """1,000 manifest lines naming 25 numbers: each record is fetched once."""
    c.ok(["keygen", "--key-id", TEST_KEY, "--secret", "test.key", "--keyring", "ring.json"])
    numbers = []
    for i in range(25):
        canonical = {"schema_version": "1.0", "source": {"id": "2501.%05d" % i, "kind": "arxiv", "version": 1},
                     "metadata": {"submitted_at": "2025-01-%02dT00:00:00Z" % (i % 28 + 1), "license": "test"}}
        c.write("r%d.json" % i, json.dumps(canonical))
        c.ok(["sign", "r%d.json" % i, "--secret", "test.key", "-o", "s%d.json" % i])
        c.reg.add_record(c.read("s%d.json" % i))
        numbers.append(json.loads(c.read("s%d.json" % i))["pith_number"])
    with open(c.path("in.pdf"), "wb") as f:
        f.write(minimal_pdf())
    with open(c.path("manifest.jsonl"), "w") as f:
        for i in range(1000):
            f.write(json.dumps({"input": "in.pdf", "output": "out/%04d.pdf" % i, "number": numbers[(i * 7) % 25],
                                "no_title_check": True}) + "\n")  # a blank page: no title to check
    start = time.monotonic()
    out = c.ok(["batch", "manifest.jsonl", "--registry", c.url(), "--no-check", "-j", "2", "-q", "--json",
                "--report", "report.jsonl", "--fetch-parallel", "4"])
    seconds = time.monotonic() - start
    summary = json.loads(out)
    check(summary["stamped"] == 1000 and summary["failed"] == 0, "batch: %s" % summary)
    fetched = c.reg.count("good", "/pith/")
    check(fetched == 25, "%d record requests for 25 distinct numbers" % fetched)
    with open(c.path("report.jsonl")) as f:
        lines = [json.loads(l) for l in f if l.strip()]
    got = {l.get("number") for l in lines if l.get("status") == "stamped"}
    check(got == set(numbers), "the report's numbers are not the manifest's")
    print("batch of 1000 by number: %.1f s, %d registry requests" % (seconds, c.reg.count()))
    # a manifest line naming a number the registry does not know fails that line only
    with open(c.path("m2.jsonl"), "w") as f:
        for line in ({"output": "x/a.pdf", "number": numbers[0]}, {"output": "x/b.pdf", "number": SEED_004.replace("GZ3O", "GZ3P")},
                     {"output": "x/c.pdf", "arxiv": "2501.00003"}):
            f.write(json.dumps(dict(line, input="in.pdf", no_title_check=True)) + "\n")
    rc, out, err = c.run(["batch", "m2.jsonl", "--registry", c.url(), "--no-check", "-q", "--json"])
    summary = json.loads(out)
    check(rc != 0 and summary["stamped"] == 2 and summary["failed"] == 1 and "does not know it" in err,
          "unknown number in a batch: exit %d %s %s" % (rc, summary, err))
    bad = c.write("m3.jsonl", json.dumps({"input": "in.pdf", "output": "y.pdf", "number": numbers[0], "record": "s0.json"}) + "\n")
    c.refused(["batch", bad, "--dry-run"], 2, r"m3.jsonl:1: give one of \"record\", \"number\" and \"arxiv\"")


# ---------------------------------------------------------------- the web badge

def png_size(data):
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    return struct.unpack(">II", data[16:24])


def png_pixels(data):
    """(width, height, rows of RGB(A) tuples) of an 8-bit RGB/RGBA non-interlaced PNG."""
    w, h = png_size(data)
    depth, ctype, interlace = data[24], data[25], data[28]
    check(depth == 8 and ctype in (2, 6) and interlace == 0, "unexpected PNG format %d/%d/%d" % (depth, ctype, interlace))
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw, bpp = zlib.decompress(idat), 3 if ctype == 2 else 4
    rows, prev, stride = [], bytearray(w * bpp), w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, cc = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - cc
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else cc)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def check_svg(text, label):
    root = ET.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    check(root.tag == ns + "svg", "root is %s" % root.tag)
    allowed = {ns + t for t in ("svg", "title", "g", "path", "rect")}
    for el in root.iter():
        check(el.tag in allowed, "unexpected element %s" % el.tag)
        for attr in el.attrib:
            check("href" not in attr and not attr.startswith("on"), "unexpected attribute %s" % attr)
    glyphs = [p for g in root.iter(ns + "g") for p in g.iter(ns + "path")]
    check(len(glyphs) == len(label.replace(" ", "")), "%d glyph paths for %r" % (len(glyphs), label))
    return float(root.get("width")), float(root.get("height"))


def case_badge_svg(c):
    link = "https://pith.science/pith/" + body(SEED_002)
    for extra in ([], ["--style", "boxed"], ["--qr"]):
        svg = c.ok(["badge", SEED_002, "--svg"] + extra)
        w, h = check_svg(svg, "pith:YRUNQITD")
        check(10 < h < 200 and (w > 4 * h if extra != ["--qr"] else w > h), "badge %s: size %gx%g" % (extra, w, h))
        check(shutil.which("xmllint"), "xmllint not installed (Debian: libxml2-utils; .ci/deps)")
        p = subprocess.run(["xmllint", "--noout", "-"], input=svg.encode(), capture_output=True)
        check(p.returncode == 0, "xmllint: %s" % p.stderr.decode())
    html = c.ok(["badge", body(SEED_002), "--html"])
    check(html.startswith('<a href="%s"' % link), "html: %s" % html[:200])
    md = c.ok(["badge", SEED_002, "--markdown", "--image", "https://example.org/b.svg"])
    check(md == "[![pith:YRUNQITD](https://example.org/b.svg)](%s)\n" % link, "markdown: %r" % md)
    c.refused(["badge", "pith:YRUNQITD", "--svg"], 2, r"give the whole number")
    c.refused(["badge", SEED_002, "--svg", "--png"], 2, r"exactly one of")
    check(shutil.which("mutool"), "mutool not installed (Debian: mupdf-tools; .ci/deps)")  # pith badge --png renders with it
    c.ok(["badge", SEED_002, "--png", "--scale", "1", "-o", "b.png"])
    with open(c.path("b.png"), "rb") as f:
        pw, ph = png_size(f.read())
    w, h = check_svg(c.ok(["badge", SEED_002, "--svg"]), "pith:YRUNQITD")
    check(abs(pw - w) <= 1 and abs(ph - h) <= 1, "PNG %dx%d for an SVG of %gx%g" % (pw, ph, w, h))


def chromium_run(c, args):
    base = offline_chromium(c.mkdir("chrome-profile")) + [
        "--disable-default-apps", "--no-default-browser-check", "--metrics-recording-only",
        "--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=400,200"]
    p = subprocess.run(base + args, capture_output=True, timeout=120, env=c.env())
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def case_badge_chromium(c):
    if not chromium():  # the one tool a machine may well lack: this entry alone skips
        print("SKIP: chromium not installed")
        sys.exit(77)
    html = c.ok(["badge", SEED_002, "--html", "--style", "boxed"])
    w, h = check_svg(c.ok(["badge", SEED_002, "--svg", "--style", "boxed"]), "pith:YRUNQITD")
    page = c.write("page.html", "<!doctype html><html><head><meta charset=utf-8><style>body{margin:20px;background:#fff}"
                   "</style></head><body>" + html + "<script>const a=document.querySelector('a');"
                   "const r=a.querySelector('svg').getBoundingClientRect();document.title=JSON.stringify({href:a.href,"
                   "x:r.x,y:r.y,w:r.width,h:r.height});</script></body></html>")
    rc, out, err = chromium_run(c, ["--dump-dom", "file://" + page])
    m = re.search(r"<title>(.*?)</title>", out)
    check(rc == 0 and m, "chromium --dump-dom: exit %d %s" % (rc, err[-500:]))
    info = json.loads(m.group(1).replace("&quot;", '"'))
    check(info["href"] == "https://pith.science/pith/" + body(SEED_002), "link target %s" % info["href"])
    check(abs(info["w"] - w) < 0.5 and abs(info["h"] - h) < 0.5, "laid out %gx%g, SVG says %gx%g" % (info["w"], info["h"], w, h))
    rc, out, err = chromium_run(c, ["--screenshot=" + c.path("shot.png"), "file://" + page])
    check(rc == 0 and os.path.exists(c.path("shot.png")), "chromium --screenshot: exit %d %s" % (rc, err[-500:]))
    with open(c.path("shot.png"), "rb") as f:
        pw, ph, rows = png_pixels(f.read())
    check((pw, ph) == (400, 200), "screenshot is %dx%d" % (pw, ph))
    dark = [(x, y) for y in range(ph) for x in range(pw) if sum(rows[y][x]) < 600]  # anti-aliased edges included
    check(dark, "nothing dark in the screenshot: the badge was not drawn")
    xs, ys = [x for x, _ in dark], [y for _, y in dark]
    box = (min(xs), min(ys), max(xs) + 1, max(ys) + 1)
    check(abs(box[0] - info["x"]) <= 2 and abs(box[1] - info["y"]) <= 2 and abs(box[2] - (info["x"] + w)) <= 2 and
          abs(box[3] - (info["y"] + h)) <= 2, "the ink %s is not the badge's box %s" % (box, info))
    check(len(dark) > 0.05 * w * h, "too little ink (%d pixels) for the label" % len(dark))
    print("badge %gx%g px; %d dark pixels in %s" % (w, h, len(dark), box))


if __name__ == "__main__":
    sys.exit(case_main(globals(), Ctx, "pith-registry-"))
