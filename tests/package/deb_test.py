#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Debian package, as a reader gets it: built by cpack from this build, installed with dpkg,
used from its installed path, then removed, leaving nothing behind.

usage: deb_test.py --build BUILD --source SRC --work DIR

Checks: the package declares the shared libraries pith links (dpkg-shlibdeps) and Tesseract's
English data; `dpkg -i` installs it; /usr/bin/pith stamps and verifies the bundled example (exit
4, unverified: the seed records' key is not published) with the title read from its pixels, so
both modules are found where the package puts them; `man -w pith` and `kpsewhich pith.sty` find
the man page and the LaTeX package; `dpkg --purge` removes it and every file it installed is
gone. Needs root (exit 77 without it) and a machine where no package called pith is installed.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("skipped: installing a Debian package needs root")
        return 77
    if run(["dpkg-query", "-W", "-f=${Status}", "pith"]).stdout.startswith("install"):
        print("FAIL: a package called pith is installed already; remove it first (dpkg --purge pith)")
        return 1
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    p = run(["cpack", "--config", os.path.join(a.build, "CPackConfig.cmake"), "-B", a.work])
    debs = glob.glob(os.path.join(a.work, "pith_*.deb"))
    if p.returncode != 0 or len(debs) != 1:
        print("FAIL: cpack made %s: %s" % (debs, p.stdout[-800:] + p.stderr[-800:]))
        return 1
    deb = debs[0]
    problems = []
    control = run(["dpkg-deb", "-f", deb, "Depends"]).stdout
    for need in ("libpodofo", "libpoppler", "libtesseract", "libsodium", "libqrencode", "tesseract-ocr-eng"):
        if need not in control:
            problems.append("Depends lacks %s: %s" % (need, control.strip()))
    files = [l.split()[-1].lstrip(".") for l in run(["dpkg-deb", "-c", deb]).stdout.splitlines() if not l.startswith("d")]
    print("%s: %d files, %.1f MB" % (os.path.basename(deb), len(files), os.path.getsize(deb) / 1e6))
    try:
        p = run(["dpkg", "-i", deb])
        if p.returncode != 0:
            problems.append("dpkg -i failed: " + p.stderr[-800:])
            return report(problems)
        problems += use_installed(a)
    finally:
        p = run(["dpkg", "--purge", "pith"])
        if p.returncode != 0:
            problems.append("dpkg --purge failed: " + p.stderr[-800:])
    left = [f for f in files if os.path.lexists(f)]
    if left:
        problems.append("files left after dpkg --purge: %s" % left[:10])
    if run(["dpkg-query", "-W", "-f=${Status}", "pith"]).stdout.startswith("install"):
        problems.append("dpkg still lists pith as installed")
    if run(["kpsewhich", "pith.sty"]).stdout.strip().startswith("/usr/share/texmf/"):
        problems.append("TeX still finds the removed pith.sty")
    return report(problems)


def use_installed(a):
    """The installed pith on the bundled example, its man page and pith.sty."""
    problems = []
    env = dict(os.environ, HOME=a.work, PATH="/usr/bin:/bin")
    env.pop("PITH_KEYRING", None)
    out = os.path.join(a.work, "article-stamped.pdf")
    p = run(["/usr/bin/pith", "stamp", os.path.join(a.source, "examples", "article.pdf"),
             "--record", os.path.join(a.source, "examples", "record.json"), "-o", out], env=env)
    if p.returncode != 0:
        return ["installed pith stamp: exit %d %s" % (p.returncode, p.stderr[-500:])]
    p = run(["/usr/bin/pith", "verify", "--json", out], env=env)
    report = json.loads(p.stdout) if p.stdout.strip() else {}
    success = [f["code"] for f in report.get("success", [])]
    if p.returncode != 4 or report.get("state") != "unverified":
        problems.append("installed pith verify: want unverified/4, got %s/%d" % (report.get("state"), p.returncode))
    for code in ("pith.title.match", "pith.title.pixels.match", "pith.badge.text.match"):
        if code not in success:
            problems.append("installed pith verify: no %s (modules not found?) in %s" % (code, success))
    if not run(["man", "-w", "pith"], env=env).stdout.strip().startswith("/usr/share/man/man1/pith.1"):
        problems.append("man -w pith does not find /usr/share/man/man1/pith.1")
    where = run(["kpsewhich", "pith.sty"], env=env).stdout.strip()
    if where != "/usr/share/texmf/tex/latex/pith/pith.sty":
        problems.append("kpsewhich pith.sty: %r" % where)
    print("installed: stamp and verify (%s), man page, pith.sty at %s" % (report.get("state"), where))
    return problems


def report(problems):
    for p in problems:
        print("FAIL: " + p)
    print("deb: %s" % ("installed, used and removed" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
