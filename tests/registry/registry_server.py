# SPDX-License-Identifier: MIT
"""A local Pith registry for the tests: serves records in the registry's shapes on 127.0.0.1, and
hostile answers. The first path segment picks the behaviour, so one server plays many registries:
http://127.0.0.1:PORT/good is an honest registry, .../wrong answers another paper's record, etc.

Addresses (as pith-formats.md gives them, below the mode):
  /pith/<BODY or SHORT>.json                     the record
  /api/pith-number/<BODY>/graph.json             the bundle's merged state
  /api/pith-number/resolve?arxiv=<ID>&json=true  the record of an arXiv id
  /keys/<NAME>                                   a key file
Every request is counted in `requests` ((mode, path) tuples)."""
import base64
import hashlib
import http.server
import json
import ssl
import threading
import time
import urllib.parse

MODES = ("good", "wrong", "tampered", "nonjson", "huge", "huge-chunked", "silent", "loop", "e404", "e429", "e500",
         "flaky", "pointer", "wrongarxiv", "badstate")


def body_of(canonical_record):
    data = json.dumps(canonical_record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.b32encode(hashlib.sha256(data).digest()).decode()[:26]


def canonical_of(doc):
    if "canonical_record" in doc:
        return doc["canonical_record"]
    return doc["current"]["canonical_record"]


class Registry:
    def __init__(self):
        self.records = {}   # BODY -> text
        self.bundles = {}   # BODY -> text
        self.keys = {}      # name -> text
        self.requests = []
        self.headers = []   # (User-Agent, Accept, Host) of each request
        self.lock = threading.Lock()

    def add_record(self, text):
        doc = json.loads(text)
        body = body_of(canonical_of(doc))
        self.records[body] = text
        return body

    def add_bundle(self, text):
        body = body_of(canonical_of(json.loads(text)))
        self.bundles[body] = text
        return body

    def count(self, mode=None, prefix=""):
        with self.lock:
            return sum(1 for m, p in self.requests if (mode is None or m == mode) and p.startswith(prefix))

    # ---- honest answers: (status, content type, bytes) ----
    def honest(self, path, query):
        if path.startswith("/pith/") and path.endswith(".json"):
            key = path[len("/pith/"):-len(".json")]
            for body, text in self.records.items():
                if body == key or (len(key) in (8, 12, 16) and body.startswith(key)):
                    return 200, "application/json", text.encode()
        elif path.startswith("/api/pith-number/") and path.endswith("/graph.json"):
            text = self.bundles.get(path.split("/")[3])
            if text:
                return 200, "application/json", text.encode()
        elif path == "/api/pith-number/resolve":
            wanted = query.get("arxiv", [""])[0]
            for text in self.records.values():
                source = canonical_of(json.loads(text)).get("source", {})
                ident = "%s" % source.get("id")
                if wanted in (ident, "%sv%s" % (ident, source.get("version"))):
                    return 200, "application/json", text.encode()
        elif path.startswith("/keys/") and path[len("/keys/"):] in self.keys:
            return 200, "application/json", self.keys[path[len("/keys/"):]].encode()
        return 404, "text/plain", b"not found\n"


def tampered(text):
    doc = json.loads(text)
    canonical_of(doc)["metadata"]["license"] = "changed-by-the-server"
    return json.dumps(doc).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, ctype, data, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        reg = self.server.registry
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.split("/", 2)
        mode, path = parts[1], "/" + (parts[2] if len(parts) > 2 else "")
        query = urllib.parse.parse_qs(url.query)
        with reg.lock:
            reg.requests.append((mode, path))
            reg.headers.append((self.headers.get("User-Agent"), self.headers.get("Accept"), self.headers.get("Host")))
            seen = sum(1 for m, p in reg.requests if m == mode and p == path)
        try:
            self.answer(reg, mode, path, query, seen)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def answer(self, reg, mode, path, query, seen):
        status, ctype, data = reg.honest(path, query)
        if mode == "wrong" and path.startswith("/pith/"):
            others = [t for b, t in sorted(reg.records.items()) if not path.startswith("/pith/" + b[:8])]
            return self.send(200, "application/json", others[0].encode())
        if mode == "wrongarxiv" and path == "/api/pith-number/resolve":
            wanted = query.get("arxiv", [""])[0]
            others = [t for t in reg.records.values() if wanted not in t]
            return self.send(200, "application/json", others[0].encode())
        if mode == "tampered" and status == 200:
            return self.send(200, "application/json", tampered(data.decode()))
        if mode == "badstate" and status == 200 and "/graph.json" in path:
            doc = json.loads(data)
            doc["event_count"] += 1
            return self.send(200, "application/json", json.dumps(doc).encode())
        if mode == "pointer" and path == "/api/pith-number/resolve" and status == 200:
            number = json.loads(data).get("pith_number")
            return self.send(200, "application/json", json.dumps({"pith_number": number}).encode())
        if mode == "nonjson":
            return self.send(200, "text/html", b"<!doctype html><title>Down for maintenance</title><p>Back soon.\n")
        if mode in ("huge", "huge-chunked"):
            total, chunk = 100 << 20, b" " * (1 << 20)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if mode == "huge":
                self.send_header("Content-Length", str(total))
            else:
                self.send_header("Connection", "close")  # length given by closing: no limit announced
                self.close_connection = True
            self.end_headers()
            for _ in range(total // len(chunk)):
                self.wfile.write(chunk)
            return
        if mode == "silent":
            time.sleep(60)
            return
        if mode == "loop":
            return self.send(302, "text/plain", b"", [("Location", "/loop" + path)])
        if mode in ("e404", "e429", "e500"):
            extra = [("Retry-After", "0")] if mode == "e429" else []
            return self.send(int(mode[1:]), "text/plain", b"no\n", extra)
        if mode == "flaky" and seen <= 2:
            return self.send(503, "text/plain", b"busy\n")
        return self.send(status, ctype, data)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def start(registry, tls=None):
    """Serves `registry` on 127.0.0.1 (a free port) from a daemon thread; `tls` is (certfile, keyfile).
    Returns (server, base URL without the mode)."""
    server = Server(("127.0.0.1", 0), Handler)
    server.registry = registry
    scheme = "http"
    if tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(*tls)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "%s://127.0.0.1:%d" % (scheme, server.server_address[1])
