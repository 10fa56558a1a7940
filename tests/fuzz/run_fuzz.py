#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds a fuzz target of tests/fuzz with clang (libFuzzer, ASan, UBSan), then replays its
regression corpus (ctest) or fuzzes it open-ended (a campaign). See doc/fuzzing.md.

  run_fuzz.py --source SRC --work DIR --replay TARGET [--build BUILD] [--oracle TOOL] [--runs N]
      Deterministic (ctest): every input of tests/fuzz/corpus/TARGET and tests/fuzz/seeds/TARGET
      once, in name order; record_reader with --oracle: CPython's canonical form of each.
      --runs N then also makes N mutations from the fixed seed 1 (not in ctest: see replay()).
  run_fuzz.py --source SRC --work DIR --campaign TARGET --minutes M [--build BUILD]
      Open-ended: fuzzes M minutes (niced), keeps going after a finding, then copies every
      crash, timeout and out-of-memory input into tests/fuzz/corpus/TARGET (and, with
      --keep-coverage, a minimised set of the inputs that reached new code); record_reader with
      --oracle also runs the CPython oracle over all the campaign kept, adding what differs.

Targets:
  content_lexer  pith::pdf::ContentLexer (src/pdf/content.cpp) on any bytes
  object_lexer   pith::pdf::Lexer against PoDoFo's tokenizer (Debian's libpodofo, pkg-config)
  reader         the PDF reader on whole files (open, revisions, page 1, its check and text)
  record_reader  JSON and records (src/core): canonical form stable; --oracle compares it with CPython
  xmp            the XMP reader and merger (src/xmp): a merge reads back as set
  stamp_verify   a PDF stamped then verified (src/stamp, src/verify): neither crashes
reader and stamp_verify also start from the corpus files under 24 KB where ../shared/corpus is.
Exit 0 when nothing was found, 1 otherwise (the input is saved in DIR), 77 where clang or its
libFuzzer runtime is missing (Debian: clang-14, libclang-rt-14-dev).
"""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

TARGETS = ["content_lexer", "object_lexer", "reader", "record_reader", "xmp", "stamp_verify"]
PDF_TARGETS = ("reader", "stamp_verify")
# For --runs: libFuzzer's comparison tracing adds the operands it sees to its dictionary, some of
# them heap addresses, which ASLR changes from run to run, and it reloads its corpus on a timer.
DETERMINISTIC = ["-use_cmp=0", "-use_memmem=0", "-use_value_profile=0", "-reload=0"]


def linked_modules(src, roots):
    """The modules of `roots` and every module they depend on, read from cmake/modules.cmake (the
    one statement of pith's layering), without the LOADED ones pith opens at run time."""
    declared = {}
    with open(os.path.join(src, "cmake", "modules.cmake")) as f:
        for m in re.finditer(r"^pith_module\((\w+)([^)]*)\)", f.read(), re.M):
            words = m.group(2).split()
            declared[m.group(1)] = ("LOADED" in words, words[words.index("DEPENDS") + 1:] if "DEPENDS" in words else [])
    found, todo = [], list(roots)
    while todo:
        name = todo.pop()
        if name not in found and not declared[name][0]:
            found.append(name)
            todo += declared[name][1]
    return sorted(found)


def sources_and_flags(src, target, build):
    """The C++ sources and linker flags of `target`, or a string saying what is missing."""
    sources = [os.path.join(src, "tests", "fuzz", target + "_fuzz.cpp")]

    def lib(folder, names=None):
        names = names or sorted(n for n in os.listdir(os.path.join(src, "src", folder)) if n.endswith(".cpp"))
        return [os.path.join(src, "src", folder, n) for n in names]

    packages = []
    if target == "content_lexer":
        sources += lib("pdf", ["content.cpp"]) + lib("core", ["hex.cpp"])
    elif target == "object_lexer":
        sources += lib("pdf", ["budget.cpp"])  # the Lexer charges values to a Budget
        packages = ["libpodofo"]
    elif target == "reader":
        sources += lib("pdf") + lib("core", ["cpus.cpp", "files.cpp", "crypto.cpp", "hex.cpp", "platform.cpp", "trace.cpp",
                                             "unicode.cpp"])
        packages = ["libpodofo", "libsodium", "icu-uc", "zlib", "libcrypto", "nlohmann_json"]
    elif target == "record_reader":
        sources += lib("core")
        packages = ["libsodium", "icu-uc", "libcrypto", "nlohmann_json"]
    elif target in ("xmp", "stamp_verify"):
        schema = os.path.join(build or "", "generated", "schema_data.cpp")
        if not build or not os.path.exists(schema):
            return "needs --build: a configured build directory (its generated/schema_data.cpp)"
        modules = linked_modules(src, ["stamp", "verify"] if target == "stamp_verify" else ["xmp"])
        sources += [f for m in modules for f in lib(m)] + [schema]
        packages = ["libsodium", "icu-uc", "libcrypto", "pugixml", "nlohmann_json"]
        if target == "stamp_verify":
            packages += ["libpodofo", "zlib", "libqrencode"]
    flags = []
    for kind in ("--cflags", "--libs"):
        found = subprocess.run(["pkg-config", kind, *packages], capture_output=True, text=True) if packages else None
        if found and found.returncode != 0:
            return "pkg-config: " + found.stderr.strip()
        flags.append(found.stdout.split() if found else [])
    return sources, flags[0], flags[1] + ["-lpthread", "-ldl"]


def libfuzzer_options(target):
    if target in PDF_TARGETS:
        # PoDoFo leaks a few bytes on some errors (not pith's to fix); PDFs are larger than lexer inputs.
        return ["-max_len=65536", "-detect_leaks=0", "-timeout=30", "-rss_limit_mb=4096"]
    return ["-max_len=4096", "-timeout=10"]


def newest_mtime(paths):
    return max(os.path.getmtime(p) for p in paths)


def build(args, target, work):
    """Path of the built fuzz target; exits 77 or 1 when it cannot be built."""
    clang = shutil.which("clang++") or shutil.which("clang++-14")
    if not clang:
        print("SKIP: no clang++ (Debian: clang-14, libclang-rt-14-dev)")
        sys.exit(77)
    got = sources_and_flags(args.source, target, args.build)
    if isinstance(got, str):
        print("FAIL: " + got)
        sys.exit(1)
    sources, cflags, libs = got
    binary = os.path.join(work, target + "_fuzz")
    headers = glob.glob(os.path.join(args.source, "src", "*", "*.hpp")) + glob.glob(os.path.join(args.source, "tests", "unit", "*.hpp"))
    if os.path.exists(binary) and os.path.getmtime(binary) > newest_mtime(sources + headers):
        return binary  # up to date (a campaign and a replay share nothing else)
    objects = compile_all(clang, args, sources, cflags, newest_mtime(headers))
    if isinstance(objects, str):
        print("FAIL: building the fuzz target:\n" + objects)
        sys.exit(1)
    made = subprocess.run([clang, "-fsanitize=fuzzer,address,undefined", *objects, *libs, "-o", binary + ".tmp"],
                          capture_output=True, text=True)
    if made.returncode != 0:
        if "clang_rt.fuzzer" in made.stderr or "cannot find -l" in made.stderr and "fuzzer" in made.stderr:
            print("SKIP: clang has no libFuzzer runtime (Debian: libclang-rt-14-dev)\n" + made.stderr[-1000:])
            sys.exit(77)
        print("FAIL: linking the fuzz target:\n" + made.stderr[-3000:])
        sys.exit(1)
    os.replace(binary + ".tmp", binary)
    return binary


def compile_all(clang, args, sources, cflags, headers_mtime):
    """Object files of `sources`, compiled on every CPU into one folder that all targets share (the
    PDF layer and src/core are in most of them): each source is compiled once per change, not once
    per target. A string with the compiler's message when one fails."""
    folder = os.path.join(args.build or args.work, "fuzz-objects")
    os.makedirs(folder, exist_ok=True)
    # A campaign runs millions of inputs, optimised as libFuzzer advises; a replay (ctest) runs a
    # few hundred, and unoptimised code compiles in half the time (the sanitizers check it alike).
    optimise = "-O1" if args.campaign else "-O0"
    cmd = [clang, "-std=c++17", optimise, "-g", "-fsanitize=fuzzer-no-link,address,undefined", "-fno-sanitize-recover=undefined",
           "-I" + os.path.join(args.source, "src"), '-DPITH_VERSION="fuzz"', '-DPITH_TEXT_MODULE_FROM_BINDIR="pith-text.so"',
           '-DPITH_SOURCE_DIR="%s"' % args.source, *cflags]

    def one(source):
        key = hashlib.sha256("\0".join(cmd + [source]).encode()).hexdigest()[:16]
        obj = os.path.join(folder, "%s-%s.o" % (os.path.basename(source), key))
        if os.path.exists(obj) and os.path.getmtime(obj) > max(os.path.getmtime(source), headers_mtime):
            return obj, None
        tmp = "%s.%d.tmp" % (obj, os.getpid())  # two targets may compile it at once: the last rename wins
        made = subprocess.run(["nice", "-n", "10", *cmd, "-c", source, "-o", tmp], capture_output=True, text=True)
        if made.returncode != 0:
            if os.path.exists(tmp):
                os.remove(tmp)
            return obj, made.stderr[-3000:]
        os.replace(tmp, obj)
        return obj, None

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        done = list(pool.map(one, sources))
    failed = [why for _, why in done if why]
    return failed[0] if failed else [obj for obj, _ in done]


def fill(corpus, args, target, with_regression=True):
    """Copies the seeds, the regression corpus and (PDF targets) small shared-corpus files into `corpus`."""
    os.makedirs(corpus, exist_ok=True)
    folders = [os.path.join(args.source, "tests", "fuzz", "seeds", target)]
    if with_regression:
        folders.append(regression_dir(args, target))
    for folder in folders:
        if os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):
                shutil.copy(os.path.join(folder, name), corpus)
    shared = os.path.join(os.environ.get("PITH_SHARED", os.path.join(args.source, "..", "shared")), "corpus")
    if target in PDF_TARGETS and os.path.isdir(shared):
        for folder, _, names in sorted(os.walk(shared)):
            for name in sorted(names):
                path = os.path.join(folder, name)
                if name.endswith(".pdf") and os.path.getsize(path) < 24 << 10:
                    shutil.copy(path, os.path.join(corpus, os.path.basename(folder) + "-" + name))


def regression_dir(args, target):
    return os.path.join(args.source, "tests", "fuzz", "corpus", target)


def environment(target, work):
    env = dict(os.environ)
    if target in PDF_TARGETS:  # -detect_leaks=0 stops libFuzzer's checks, not LeakSanitizer's at exit
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS", ""), "detect_leaks=0"]))
    env["PITH_FUZZ_TMP"] = work  # stamp_verify writes its files there
    return env


def replay(args, target, work):
    binary = build(args, target, work)
    corpus = os.path.join(work, "replay")
    shutil.rmtree(corpus, ignore_errors=True)
    fill(corpus, args, target)
    inputs = [os.path.join(corpus, n) for n in sorted(os.listdir(corpus))]
    env = environment(target, work)
    # Each input once, given as files: libFuzzer runs them whole, in this order, and mutates none.
    run = subprocess.run([binary, *libfuzzer_options(target), "-artifact_prefix=" + work + "/", *inputs],
                         capture_output=True, text=True, timeout=3000, env=env)
    if run.returncode != 0:
        print("FAIL: %s under libFuzzer (input saved in %s):\n%s" % (target, work, run.stderr[-4000:]))
        return 1
    print("%s: %d regression inputs and seeds replayed: no crash, no sanitizer report" % (target, len(inputs)))
    if args.runs:
        # Optional, not in ctest: the targets' coverage is not bit-for-bit the same from run to
        # run (two runs over the same 540 record_reader inputs covered 1534 and 1533 edges), so
        # even with a fixed seed libFuzzer explores differently and could find a crash only sometimes.
        explore = os.path.join(work, "explore")
        shutil.rmtree(explore, ignore_errors=True)
        shutil.copytree(corpus, explore)
        run = subprocess.run([binary, "-seed=1", "-runs=%d" % args.runs, *DETERMINISTIC, *libfuzzer_options(target),
                              "-artifact_prefix=" + work + "/", explore],
                             capture_output=True, text=True, timeout=3000, env=env)
        if run.returncode != 0:
            print("FAIL: %s under libFuzzer, mutating (input saved in %s):\n%s" % (target, work, run.stderr[-4000:]))
            return 1
        print("%s: then %d mutations from seed 1: no crash, no sanitizer report" % (target, args.runs))
    if target == "record_reader" and args.oracle:
        return json_oracle(args.oracle, inputs)
    return 0


def python_canonical(raw):
    """CPython's canonical form of `raw`, or None where CPython refuses it."""
    try:
        text = raw.decode("utf-8")
        value = json.loads(text)
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def json_oracle(tool, paths, keep=None):
    """Where pith accepts an input, its canonical form must be CPython's (tests/oracle/). The
    inputs where it is not are copied into `keep` when given."""
    raws = [open(p, "rb").read() for p in paths]
    # json_canon_filter reads one text per line: a newline in JSON is only ever whitespace outside
    # strings (inside one it is an error either way), so a space stands for it.
    lines = b"".join(r.replace(b"\n", b" ") + b"\n" for r in raws)
    out = subprocess.run([tool], input=lines, capture_output=True, timeout=600).stdout.split(b"\n")
    accepted = differ = 0
    for path, raw, got in zip(paths, raws, out):
        if got.startswith(b"ERROR"):
            continue
        accepted += 1
        want = python_canonical(raw.replace(b"\n", b" "))
        if want is None or got.decode("utf-8", "replace") != want:
            differ += 1
            print("FAIL: %s: pith gives %r, CPython %r" % (os.path.basename(path), got[:200], want and want[:200]))
            if keep:
                shutil.copy(path, os.path.join(keep, "oracle-" + hashlib.sha1(raw).hexdigest()[:16]))
    print("CPython oracle: %d inputs, pith accepts %d, %d differ" % (len(paths), accepted, differ))
    return 1 if differ else 0


def campaign(args, target, work):
    binary = build(args, target, work)
    corpus = os.path.join(work, "campaign")  # kept between campaigns
    fill(corpus, args, target)
    artifacts = os.path.join(work, "artifacts")
    os.makedirs(artifacts, exist_ok=True)
    before = set(os.listdir(artifacts))
    options = [o for o in libfuzzer_options(target)]
    subprocess.run(["nice", "-n", "15", binary, "-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1",
                    "-max_total_time=%d" % (args.minutes * 60), *options, "-artifact_prefix=" + artifacts + "/", corpus],
                   stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "campaign.log"), "a"),
                   env=environment(target, work))
    found = sorted(set(os.listdir(artifacts)) - before)
    keep = regression_dir(args, target)
    os.makedirs(keep, exist_ok=True)
    for name in found:
        data = open(os.path.join(artifacts, name), "rb").read()
        kind = name.split("-")[0]
        shutil.copy(os.path.join(artifacts, name), os.path.join(keep, "%s-%s" % (kind, hashlib.sha1(data).hexdigest()[:16])))
    if args.keep_coverage:  # the inputs that reach code the regression corpus does not yet
        subprocess.run([binary, "-merge=1", *options, keep, corpus], capture_output=True, env=environment(target, work))
    differ = 0
    if target == "record_reader" and args.oracle:  # CPython over everything the campaign kept
        differ = json_oracle(args.oracle, [os.path.join(corpus, n) for n in sorted(os.listdir(corpus))], keep)
    log = open(os.path.join(work, "campaign.log"), errors="replace").read()
    execs = re.findall(r"#(\d+)", log)
    print("%s: %d minutes, %s executions, %d findings added to %s: %s"
          % (target, args.minutes, execs[-1] if execs else "?", len(found), keep, ", ".join(found) or "none"))
    return 1 if found or differ else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--build", help="a configured build directory (xmp, stamp_verify)")
    ap.add_argument("--replay", choices=TARGETS)
    ap.add_argument("--campaign", choices=TARGETS)
    ap.add_argument("--runs", type=int, default=0)
    ap.add_argument("--minutes", type=int, default=10)
    ap.add_argument("--oracle", help="json_canon_filter (record_reader replay: CPython differential)")
    ap.add_argument("--keep-coverage", action="store_true")
    args = ap.parse_args()
    args.source = os.path.abspath(args.source)
    target = args.replay or args.campaign
    if not target or (args.replay and args.campaign):
        ap.error("give one of --replay TARGET or --campaign TARGET")
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    if args.build:
        args.build = os.path.abspath(args.build)
    if args.build and target == "stamp_verify":  # verify loads pith-text.so beside the executable
        module, link = os.path.join(args.build, "pith-text.so"), os.path.join(work, "pith-text.so")
        if os.path.lexists(link):
            os.remove(link)
        if os.path.exists(module):
            os.symlink(module, link)
    return replay(args, target, work) if args.replay else campaign(args, target, work)


if __name__ == "__main__":
    sys.exit(main())
