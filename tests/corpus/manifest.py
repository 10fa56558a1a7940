# SPDX-License-Identifier: MIT
"""The real-PDF corpus a suite runs on, held to tests/corpus/counts.tsv, so that a file dropped
from the corpus (or a corpus not found) fails the suite instead of shrinking its loop:

    corpus = manifest.load(path)        # SystemExit (exit 1) naming what is wrong
    corpus.kind                         # "shared" (the full corpus) or "committed" (tests/corpus/files)
    corpus.rows(*categories)            # MANIFEST.tsv rows (dicts) of those categories, all without
    corpus.path(row)                    # the file of a row
    corpus.expect("what", n, shared=50, committed=8)  # a loop's own count, stated beside the loop
"""
import csv
import glob
import os

HERE = os.path.dirname(os.path.abspath(__file__))
COMMITTED = os.path.join(HERE, "files")


def counts():
    """{kind: {category: files}} from counts.tsv."""
    with open(os.path.join(HERE, "counts.tsv"), encoding="utf-8") as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#")]
    kinds = lines[0][1:]
    return {kind: {l[0]: int(l[1 + i]) for l in lines[1:]} for i, kind in enumerate(kinds)}


class Corpus:
    def __init__(self, root):
        self.root = os.path.abspath(root)
        manifest = os.path.join(self.root, "MANIFEST.tsv")
        if not os.path.isfile(manifest):
            raise SystemExit("FAIL: no corpus at %s (no MANIFEST.tsv). The suites use ../shared/corpus or "
                             "$PITH_SHARED/corpus, else the committed subset %s" % (self.root, COMMITTED))
        # The committed subset carries its licences; any other corpus is the full shared one.
        self.kind = "committed" if os.path.isfile(os.path.join(self.root, "LICENSES.tsv")) else "shared"
        with open(manifest, newline="", encoding="utf-8") as f:
            self._rows = list(csv.DictReader(f, delimiter="\t"))
        problems = []
        listed = {r["file"] for r in self._rows}
        problems += ["%s is listed in MANIFEST.tsv but missing" % r["file"] for r in self._rows
                     if not os.path.isfile(self.path(r))]
        problems += ["%s is not listed in MANIFEST.tsv" % os.path.relpath(p, self.root)
                     for p in sorted(glob.glob(os.path.join(self.root, "*", "*.pdf")))
                     if os.path.relpath(p, self.root) not in listed]
        want = counts()[self.kind]
        for category in sorted(set(want) | {r["category"] for r in self._rows}):
            have = len(self.rows(category))
            if have != want.get(category, 0):
                problems.append("%d %s files, tests/corpus/counts.tsv says %d for the %s corpus"
                                % (have, category, want.get(category, 0), self.kind))
        if problems:
            raise SystemExit("FAIL: the corpus at %s is not the one the tests expect:\n  %s"
                             % (self.root, "\n  ".join(problems)))

    def rows(self, *categories):
        return [r for r in self._rows if not categories or r["category"] in categories]

    def path(self, row):
        return os.path.join(self.root, row["file"])

    def expect(self, what, got, shared, committed):
        """A loop's count against the one stated beside it for this corpus."""
        want = {"shared": shared, "committed": committed}[self.kind]
        if got != want:
            raise SystemExit("FAIL: %s: %d, expected %d in the %s corpus (%s)" % (what, got, want, self.kind, self.root))
        print("%s: %d, as expected in the %s corpus" % (what, got, self.kind))


def default_root():
    """The corpus tests/CMakeLists.txt picks: $PITH_SHARED/corpus, ../shared/corpus beside the
    checkout, else the committed subset."""
    for root in (os.path.join(os.environ.get("PITH_SHARED") or "/nonexistent", "corpus"),
                 os.path.join(HERE, "..", "..", "..", "shared", "corpus")):
        if os.path.isfile(os.path.join(root, "MANIFEST.tsv")):
            return os.path.abspath(root)
    return COMMITTED


def load(root=None):
    return Corpus(root or default_root())
