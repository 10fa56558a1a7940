#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Which Linux- or glibc-only calls the built pith binary imports (nm -D, binutils).

usage: platform_symbols.py --pith PITH --portable ON|OFF
A PITH_PORTABLE build must import none of them: each has a POSIX fallback (src/core/platform.hpp,
core/cpus.hpp, core/files.cpp, pdf/crypt.cpp). A default build on Linux with glibc 2.32 or later
must import every one: a feature check in cmake/platform.cmake that fails unnoticed (as a
missing header once made copy_file_range's) would silently drop a fast path.
Exit 0 pass, 1 fail, 77 skip (no nm, or not Linux/glibc for the default build).
"""
import argparse
import platform
import shutil
import subprocess
import sys

FAST_PATHS = {
    "sched_setaffinity": "CPU affinity (core/cpus.cpp)",
    "sched_getcpu": "CPU affinity (core/cpus.cpp)",
    "pthread_attr_setaffinity_np": "CPU affinity of the hash thread (core/cpus.cpp)",
    "copy_file_range": "in-kernel copy (AtomicFile::copy_from)",
    "madvise": "MADV_POPULATE_WRITE (platform::populate_for_write)",
    "prctl": "PR_SET_PDEATHSIG (platform::die_with_parent)",
    "pipe2": "platform::make_pipe",
    "sigabbrev_np": "platform::signal_name",
    "fdatasync": "platform::sync_data",
    "MD5": "OpenSSL's deprecated one-call MD5 (pdf/crypt.cpp)",
    "AES_cbc_encrypt": "OpenSSL's deprecated low-level AES (pdf/crypt.cpp)",
}


def imported(pith):
    out = subprocess.run(["nm", "-D", "--undefined-only", pith], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--portable", required=True)
    args = ap.parse_args()
    if shutil.which("nm") is None:
        print("nm not installed: skipped")
        return 77
    symbols = imported(args.pith)
    if not symbols:
        print("%s imports nothing (linked statically?): skipped" % args.pith)
        return 77
    portable = args.portable.upper() in ("ON", "1", "TRUE", "YES")
    if portable:
        bad = sorted(s for s in FAST_PATHS if s in symbols)
        for s in bad:
            print("FAIL: the portable build imports %s: %s" % (s, FAST_PATHS[s]))
        print("portable build: %d of %d Linux-only calls imported" % (len(bad), len(FAST_PATHS)))
        return 1 if bad else 0
    libc = platform.libc_ver()
    if platform.system() != "Linux" or libc[0] != "glibc" or tuple(map(int, libc[1].split(".")[:2])) < (2, 32):
        print("not Linux with glibc 2.32 or later (%s %s): fast paths not expected; skipped" % (platform.system(), libc))
        return 77
    missing = sorted(s for s in FAST_PATHS if s not in symbols)
    for s in missing:
        print("FAIL: the default build does not import %s: %s (see CMakeFiles/CMakeError.log)" % (s, FAST_PATHS[s]))
    print("default build: %d of %d fast paths present" % (len(FAST_PATHS) - len(missing), len(FAST_PATHS)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
