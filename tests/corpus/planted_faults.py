#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Planted faults that must fail the suites, not shrink or skip them (doc/tests.md, "Skips, and
the corpus counts"), each on a copy of the committed corpus or a PATH without one tool:

- manifest.py: a file gone, a file and its MANIFEST.tsv row gone, an unlisted PDF, no corpus;
- the Catch2 corpus cases (pith_tests '[corpus]') on a copy without a file they name;
- a Python corpus suite (placement_corpus) on a copy without a file;
- the Catch2 qpdf cases (pith_tests '[pdf]') and registry_badge_svg's xmllint check on a PATH
  without qpdf, without xmllint.

usage: planted_faults.py --pith PITH --tests PITH_TESTS --source SRC --work DIR
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import manifest  # noqa: E402


def copy_corpus(work, name):
    dest = os.path.join(work, name)
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(manifest.COMMITTED, dest)
    return dest


def drop_row(corpus, rel):
    path = os.path.join(corpus, "MANIFEST.tsv")
    lines = open(path, encoding="utf-8").read().splitlines(keepends=True)
    open(path, "w", encoding="utf-8").writelines(l for l in lines if not l.startswith(rel + "\t"))


def path_without(work, tool):
    """A PATH with every command of this one but `tool` (symbolic links in one folder)."""
    d = os.path.join(work, "path-without-" + tool)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for folder in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            target = os.path.join(d, name)
            if name != tool and not os.path.lexists(target):
                os.symlink(os.path.join(folder, name), target)
    return d


def load_fails(corpus, words):
    """None when manifest.load(corpus) fails naming `words`, else what went wrong."""
    try:
        manifest.load(corpus)
    except SystemExit as e:
        return None if words in str(e) else "failed without naming %r: %s" % (words, e)
    return "loaded without a failure"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--tests", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    problems = []

    def expect_failure(label, cmd, words, env=None):
        p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **(env or {})), timeout=600)
        out = p.stdout + p.stderr
        if p.returncode in (0, 77) or words not in out:
            problems.append("%s: want a failure naming %r, got exit %d:\n%s" % (label, words, p.returncode, out[-1500:]))
        else:
            print("%s: fails (exit %d), naming %r" % (label, p.returncode, words))

    intact = copy_corpus(a.work, "intact")
    if manifest.load(intact).kind != "committed":
        problems.append("a copy of the committed corpus is not taken for it")
    missing = copy_corpus(a.work, "missing-file")
    os.remove(os.path.join(missing, "valid", "minimal-document.pdf"))
    dropped = copy_corpus(a.work, "dropped-row")
    os.remove(os.path.join(dropped, "valid", "congress.pdf"))
    drop_row(dropped, "valid/congress.pdf")
    extra = copy_corpus(a.work, "unlisted-file")
    shutil.copy(os.path.join(extra, "valid", "congress.pdf"), os.path.join(extra, "valid", "unlisted.pdf"))
    for label, corpus, words in (("a file gone", missing, "valid/minimal-document.pdf is listed in MANIFEST.tsv but missing"),
                                 ("a file and its row gone", dropped, "7 valid files, tests/corpus/counts.tsv says 8"),
                                 ("an unlisted PDF", extra, "valid/unlisted.pdf is not listed"),
                                 ("no corpus", os.path.join(a.work, "nowhere"), "no corpus at")):
        why = load_fails(corpus, words)
        if why:
            problems.append("manifest.py, %s: %s" % (label, why))
        else:
            print("manifest.py, %s: fails" % label)

    expect_failure("pith_tests '[corpus]', a file gone", [a.tests, "[corpus]"], "corpus file missing",
                   env={"PITH_TEST_CORPUS": missing})
    expect_failure("pith_tests '[corpus]', a file and its row gone", [a.tests, "[corpus]"], "files == corpus::expected",
                   env={"PITH_TEST_CORPUS": dropped})
    expect_failure("placement_corpus, a file gone",
                   [sys.executable, os.path.join(a.source, "tests", "stamp", "placement_corpus.py"), "--pith", a.pith,
                    "--corpus", missing, "--no-qr"], "valid/minimal-document.pdf is listed in MANIFEST.tsv but missing")
    expect_failure("pith_tests '[pdf]' without qpdf", [a.tests, "[pdf]"], "qpdf not installed",
                   env={"PATH": path_without(a.work, "qpdf")})
    expect_failure("registry_badge_svg without xmllint",
                   [sys.executable, os.path.join(a.source, "tests", "registry", "registry_suite.py"), "--pith", a.pith,
                    "--source", a.source, "badge_svg"], "xmllint not installed",
                   env={"PATH": path_without(a.work, "xmllint")})

    for p in problems:
        print("FAIL: " + p)
    print("planted faults: %s" % ("each fails" if not problems else "%d did not fail" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
