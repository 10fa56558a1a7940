#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every relative link in README.md, doc/*.md and doc/dev/*.md points to a file that exists.

A link `[text](path#anchor)` outside code blocks and inline code must name an existing file
or directory, relative to the Markdown file; an anchor into a Markdown file (or `#anchor`
alone, into the same file) must be one of its headings, slugged as GitHub does. Links with a
scheme (https:, mailto:) are not followed: the tests use no network.
`--self-test` checks the checker on a scratch folder with known good and bad links.
"""
import argparse
import glob
import os
import re
import shutil
import sys

LINK = re.compile(r"(?<!!)\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def prose_lines(text):
    """(line number, line) outside fenced code blocks, with inline code removed."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, re.sub(r"`[^`]*`", "``", line)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text.replace("`", ""))
    return text.replace(" ", "-")


def anchors(path):
    seen, result = {}, set()
    for _, line in prose_lines_raw(path):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f"{base}-{n}")
    return result


def prose_lines_raw(path):
    fenced = False
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            yield number, line


def check_file(path):
    problems, count = [], 0
    for number, line in prose_lines(open(path, encoding="utf-8").read()):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not followed
                continue
            count += 1
            file_part, _, anchor = target.partition("#")
            where = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if not os.path.exists(where):
                problems.append(f"{path}:{number}: {target}: no such file")
            elif anchor and where.endswith(".md") and anchor not in anchors(where):
                problems.append(f"{path}:{number}: {target}: no heading with anchor #{anchor} in {where}")
    return problems, count


def check_tree(source):
    files = [os.path.join(source, "README.md")] + sorted(glob.glob(os.path.join(source, "doc", "*.md")))
    files += sorted(glob.glob(os.path.join(source, "doc", "dev", "*.md")))
    problems, count = [], 0
    for f in files:
        p, n = check_file(f)
        problems += p
        count += n
    return files, problems, count


def self_test(scratch):
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.join(scratch, "doc"), exist_ok=True)
    open(os.path.join(scratch, "doc", "a.md"), "w").write(
        "# A\n\n## What `trusted` means\n\n## Cost\n\n## Cost\n\n```sh\n[not a link](nowhere.md)\n```\n"
        "See [b](b.md#the-b), [self](#cost-1), [web](https://example.org/x), `[code](nowhere.md)`.\n")
    open(os.path.join(scratch, "doc", "b.md"), "w").write("# The B\n\n[a](a.md#what-trusted-means) [up](../README.md)\n")
    open(os.path.join(scratch, "README.md"), "w").write("[a](doc/a.md) [missing](doc/c.md) [bad](doc/b.md#nope)\n")
    _, problems, count = check_tree(scratch)
    want = {"doc/c.md: no such file", "doc/b.md#nope: no heading"}
    found = {w for w in want if any(w in p for p in problems)}
    ok = found == want and len(problems) == 2 and count == 7
    print(f"self-test: {count} links, problems: {problems}")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--self-test", metavar="SCRATCH")
    args = ap.parse_args()
    if args.self_test:
        return self_test(args.self_test)
    files, problems, count = check_tree(args.source)
    print(f"{count} relative links in {len(files)} files checked")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
