#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The build's options, seen from outside (tests/cli.cmake).

usage: build_options.py --pith PITH --source SRC --static ON|OFF
- The default build links the system's shared libraries: `ldd pith` lists PoDoFo, libcrypto,
  ICU and zlib as shared objects of the system; a PITH_STATIC build lists none of them.
- PITH_STATIC=ON never downloads: configured without PITH_PODOFO_TARBALL, or with a file whose
  SHA-256 is not Debian's, cmake stops with a one-line reason (configure only, in a temporary
  directory; nothing is built).
Exit 0 pass, 1 fail, 77 skip (no ldd).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

SHARED = ("libpodofo.so", "libcrypto.so", "libicuuc.so", "libz.so", "libsodium.so", "libpugixml.so")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def configure(source, *options):
    with tempfile.TemporaryDirectory(prefix="pith-configure-") as build:
        p = subprocess.run(["cmake", "-S", source, "-B", build, "-DBUILD_TESTING=OFF"] + list(options),
                           capture_output=True, text=True, timeout=300)
        return p.returncode, " ".join((p.stdout + p.stderr).split())  # cmake wraps its messages


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--static", required=True)
    args = ap.parse_args()
    static = args.static.upper() in ("ON", "1", "TRUE", "YES")
    if shutil.which("ldd") is None:
        print("ldd not installed: skipped")
        return 77
    libs = subprocess.run(["ldd", args.pith], capture_output=True, text=True).stdout
    found = [name for name in SHARED if name in libs]
    print("ldd %s: %s" % (args.pith, ", ".join(found) or "none of " + ", ".join(SHARED)))
    if static and found:
        fail("a PITH_STATIC build links shared %s" % found)
    if not static:
        for name in SHARED:
            line = next((l for l in libs.splitlines() if name in l), "")
            if "=> /" not in line or "not found" in line:
                fail("the default build does not link the system's %s: %r" % (name, line))

    rc, out = configure(args.source, "-DPITH_STATIC=ON")
    print("PITH_STATIC=ON without a tarball: exit %d" % rc)
    if rc == 0 or "PITH_PODOFO_TARBALL" not in out or "nothing is downloaded" not in out:
        fail("configure without a tarball did not stop with the reason:\n" + out[-1500:])
    with tempfile.NamedTemporaryFile(suffix=".tar.xz") as fake:
        fake.write(b"not PoDoFo\n")
        fake.flush()
        rc, out = configure(args.source, "-DPITH_STATIC=ON", "-DPITH_PODOFO_TARBALL=" + fake.name)
        print("PITH_STATIC=ON with a wrong tarball: exit %d" % rc)
        if rc == 0 or "SHA-256" not in out:
            fail("configure with a wrong tarball did not refuse it:\n" + out[-1500:])
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
