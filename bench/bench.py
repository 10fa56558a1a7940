#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Side-by-side timings: pith stamp / pith verify against the tools pipelines use today.

Stamping:  cp (the floor), pith stamp, exiftool (XMP only), qpdf --overlay (badge only),
           pikepdf (XMP + overlay, full rewrite).
Verifying: pith verify, pdfinfo -meta, exiftool -XMP:all, pdfsig (checks a file's signatures, the
nearest peer of a verifier). For pith verify each file is
stamped with a record of its own title and a bench key, so verify makes every check (the
receipt, the title on page 1, the badge text, the bytes before pith's update) and says trusted.

Each command runs --runs times, in rounds of one run of every tool on the file (a slow spell
on a shared machine then falls on all of them alike); the best wall time and that run's peak
RSS are shown, with the peer's time as a multiple of pith's. Usage:
    bench/bench.py --pith build/pith [PDF ...]
Without PDFs it uses a selection of ../shared/corpus plus one large file it builds from the
corpus with qpdf (all of large/ concatenated); with --all, every PDF of the corpus (passwords
from its MANIFEST.tsv), and the verify table ends with a count of the files where pith verify
is faster than each peer. With --compare PITH, another build's `pith verify` is timed in the same
rounds on the same stamped files (its own column, its state beside pith's), and the table ends
with the median verify time of each build over the files and their ratio: the cost of a change.
"""
import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "examples" / "record.json"

PIKEPDF_SCRIPT = r"""
import sys, pikepdf
src, stamp, out = sys.argv[1:4]
with pikepdf.open(src) as pdf, pikepdf.open(stamp) as badge:
    with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
        meta["dc:description"] = "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3"
    page = pdf.pages[0]
    page.add_overlay(pdf.copy_foreign(badge.pages[0].as_form_xobject()), pikepdf.Rectangle(500, 800, 580, 830))
    pdf.save(out)
"""


def run(cmd, runs, ok_codes=(0,), fresh=None):
    """Best wall time (s), the peak RSS (MB) and the CPU time (s, user + system, children included)
    of that run; None if the command failed.
    `fresh`: a path removed before each run, so every tool writes a new file (replacing an
    existing one costs more on ext4, which flushes a file renamed over another)."""
    best = None
    for _ in range(runs):
        if fresh is not None and fresh.exists():
            fresh.unlink()
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) not in ok_codes:
            return None
        if best is None or elapsed < best[0]:
            best = (elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)
    return best


def run_rounds(commands, runs):
    """{name: best result} for {name: (cmd, ok_codes, fresh)}: `runs` rounds, each running
    every command once; None for a command that failed."""
    best = {}
    for _ in range(runs):
        for name, (cmd, ok_codes, fresh) in commands.items():
            if name in best and best[name] is None:
                continue
            result = run(cmd, 1, ok_codes, fresh)
            if result is None or best.get(name) is None or result[0] < best[name][0]:
                best[name] = result
    return best


def cell(result, ref):
    if result is None:
        return f"{'failed':>20}"
    t, mb = result[:2]
    ratio = f"{t / ref[0]:5.1f}x" if ref and ref[0] > 0 else "     "
    return f"{t:7.3f}s {mb:6.0f}MB {ratio}"


CORPUS = Path(os.environ.get("PITH_SHARED", ROOT.parent / "shared")) / "corpus"


def corpus_passwords():
    """{path: password} for the corpus files MANIFEST.tsv gives a password."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        return {}
    rows = [line.split("\t") for line in manifest.read_text(encoding="utf-8").splitlines()[1:]]
    return {CORPUS / row[0]: row[7] for row in rows if len(row) > 7}


def default_files(work):
    corpus = CORPUS
    if not corpus.is_dir():
        sys.exit(f"no PDFs given and no corpus at {corpus}")
    picks = sorted((corpus / "valid").glob("*.pdf"))[:6] + sorted((corpus / "large").glob("*.pdf"))
    big = work / "combined-large.pdf"  # unreadablemetadata.pdf has no page tree: qpdf cannot take its pages
    parts = [p for p in sorted((corpus / "large").glob("*.pdf")) if p.name != "unreadablemetadata.pdf"]
    subprocess.run(["qpdf", "--empty", "--pages", *map(str, parts), "--", str(big)], check=False, timeout=600,
                   stderr=subprocess.DEVNULL)
    return picks + ([big] if big.exists() else [])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pith", default=str(ROOT / "build" / "pith"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--verify-only", action="store_true", help="leave out the stamping table")
    ap.add_argument("--all", action="store_true", help="every PDF of the corpus, and a count of where pith is faster")
    ap.add_argument("--compare", metavar="PITH", help="another build's pith, whose verify is timed in the same rounds")
    ap.add_argument("pdfs", nargs="*")
    args = ap.parse_args()
    have = {tool: shutil.which(tool) for tool in ("exiftool", "qpdf", "pdfinfo", "pdfsig")}
    # Debian's python3-pikepdf belongs to the system interpreter, which may not be the first python3.
    system_python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    have["pikepdf"] = subprocess.run([system_python, "-c", "import pikepdf"], capture_output=True).returncode == 0
    missing = [t for t, ok in have.items() if not ok]
    if missing:
        print(f"note: not installed, columns left out: {', '.join(missing)}")

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        passwords = corpus_passwords()
        files = [Path(p) for p in args.pdfs] or (sorted(passwords) if args.all else default_files(work))
        stamp_pdf = work / "badge.pdf"  # a one-page PDF for qpdf/pikepdf to overlay
        subprocess.run([args.pith, "stamp", str(ROOT / "examples" / "article.pdf"), "--record", str(RECORD), "-o", str(stamp_pdf)],
                       check=True, stdout=subprocess.DEVNULL)
        script = work / "pikepdf_stamp.py"
        script.write_text(PIKEPDF_SCRIPT)

        # Each file is stamped with a record carrying its own title (pdftotext's first line of
        # page 1) and signed by a bench key: stamp makes its title check and verify every check,
        # as for a genuine paper.
        keyring = work / "ring.json"
        subprocess.run([args.pith, "keygen", "--key-id", "bench", "--secret", str(work / "bench.key"), "--keyring", str(keyring)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        if not args.verify_only:
            print("\nSTAMP (best of %d; peer time as a multiple of pith's; pith stamp with its title check, and without it)" % args.runs)
            print(f"{'file':34} {'MB':>6} | {'cp':>20} | {'pith stamp':>20} | {'--no-title-check':>20} | {'exiftool (XMP)':>20} | {'qpdf --overlay':>20} | {'pikepdf':>20}")
        for f in files if not args.verify_only else []:
            out = work / "out.pdf"
            # --allow-damaged: the peers read damaged files too; this measures cost, not policy.
            pw = ["--password", passwords[f]] if passwords.get(f) else []
            record = own_record(args.pith, f, work, passwords.get(f, ""))
            pith = [args.pith, "stamp", str(f), "--record", str(record), "-o", str(out), "--allow-damaged", *pw]
            # exit 2: page 1 shows its first line only where it cannot bind a title (a drawing's label)
            commands = {"cp": (["cp", str(f), str(out)], (0,), out), "pith": (pith, (0, 2), None),
                        "pith-no-title": (pith + ["--no-title-check"], (0,), out)}
            if have["exiftool"]:
                commands["exiftool"] = (["exiftool", "-q", "-XMP-dc:Description=pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3", "-o", "-", str(f)], (0,), None)
            if have["qpdf"]:
                commands["qpdf"] = (["qpdf", str(f), "--overlay", str(stamp_pdf), "--to=1", "--", str(out)], (0,), out)
            if have["pikepdf"]:
                commands["pikepdf"] = ([system_python, str(script), str(f), str(stamp_pdf), str(out)], (0,), out)
            best = run_rounds(commands, args.runs)
            pith = best["pith"]
            cells = [cell(best["cp"], None), cell(pith, None), cell(best["pith-no-title"], pith)] + \
                [cell(best.get(t), pith) for t in ("exiftool", "qpdf", "pikepdf")]
            print(f"{f.name[:34]:34} {f.stat().st_size / 1e6:6.2f} | " + " | ".join(cells))

        print("\nVERIFY / READ METADATA (best of %d; pith: each file stamped with a record of its own title, signed)" % args.runs)
        print(f"{'file':34} {'MB':>6} | {'pith verify':>20} | {'pdfinfo -meta':>20} | {'exiftool -XMP:all':>20} | {'pdfsig':>20} | state"
              + (f" | {'--compare verify':>20} | its state" if args.compare else ""))
        slower = {"pdfinfo -meta": [], "exiftool -XMP:all": [], "pdfsig": []}
        verify_times = {"pith": [], "compare": []}
        for f in files:
            stamped = work / "stamped.pdf"
            pw = passwords.get(f, "")
            record = own_record(args.pith, f, work, pw)
            pith_pw = ["--password", pw] if pw else []
            stamp = [args.pith, "stamp", str(f), "--record", str(record), "-o", str(stamped), "--allow-damaged", *pith_pw]
            # a first line that cannot bind a title is refused by stamp's check: verify still judges it
            if run(stamp, 1) is None and run(stamp + ["--no-title-check"], 1) is None:
                stamped = f
            state = verify_state(args.pith, stamped, keyring, pith_pw)
            # Every state is a result, and so is "unreadable" (exit 2): the peers' failures are timed too.
            verify = ["verify", str(stamped), "--allow-damaged", "--keyring", str(keyring), *pith_pw]
            commands = {"pith": ([args.pith, *verify], (0, 1, 2, 3, 4), None)}
            if args.compare:
                commands["compare"] = ([args.compare, *verify], (0, 1, 2, 3, 4), None)
            if have["pdfinfo"]:
                commands["pdfinfo -meta"] = (["pdfinfo", "-meta", *(["-upw", pw] if pw else []), str(stamped)], range(256), None)
            if have["exiftool"]:
                commands["exiftool -XMP:all"] = (["exiftool", "-XMP:all", *(["-Password", pw] if pw else []), str(stamped)], range(256), None)
            if have["pdfsig"]:
                commands["pdfsig"] = (["pdfsig", *(["-upw", pw] if pw else []), str(stamped)], range(256), None)
            best = run_rounds(commands, args.runs)
            pith = best["pith"]
            peers = {tool: best.get(tool) for tool in ("pdfinfo -meta", "exiftool -XMP:all", "pdfsig")}
            for tool, result in peers.items():
                if result and pith and result[0] <= pith[0]:
                    slower[tool].append(f"{f.parent.name}/{f.name} ({pith[0] * 1e3:.1f} vs {result[0] * 1e3:.1f} ms)")
            row = [cell(pith, None)] + [cell(result, pith) if have[tool.split()[0]] else "" for tool, result in peers.items()]
            row.append(state)
            if args.compare:
                row += [cell(best.get("compare"), pith), verify_state(args.compare, stamped, keyring, pith_pw)]
                if pith and best.get("compare"):  # both timed: the medians are of the same files
                    verify_times["pith"].append(pith[0])
                    verify_times["compare"].append(best["compare"][0])
            print(f"{f.name[:34]:34} {f.stat().st_size / 1e6:6.2f} | " + " | ".join(row))
        if args.compare and verify_times["pith"] and verify_times["compare"]:
            mine, theirs = statistics.median(verify_times["pith"]), statistics.median(verify_times["compare"])
            print(f"\nmedian pith verify over {len(verify_times['pith'])} files: {mine * 1e3:.1f} ms; --compare: "
                  f"{theirs * 1e3:.1f} ms; pith / --compare {mine / theirs:.2f}")
        if args.all:
            for tool, files_slower in slower.items():
                print(f"\npith verify is faster than {tool} on {len(files) - len(files_slower)} of {len(files)} files" +
                      (": not on " + ", ".join(files_slower) if files_slower else ""))


def verify_state(pith, pdf, keyring, password_flags):
    """The state `pith verify --json` gives `pdf`, or "unreadable"."""
    out = subprocess.run([pith, "verify", str(pdf), "--allow-damaged", "--keyring", str(keyring), "--json", *password_flags],
                         capture_output=True, text=True).stdout
    return json.loads(out)["state"] if out.startswith("{") else "unreadable"


sys.path.insert(0, str(ROOT / "tests" / "corpus"))
from stamp_suite import TITLE_SHOWN  # noqa: E402  corpus files whose first line is not their title


def own_record(pith, pdf, work, password=""):
    """A record whose title is the first line pdftotext shows on page 1 of `pdf` (TITLE_SHOWN's where
    that line is not the title; none if it shows no text), signed with the bench key."""
    text = subprocess.run(["pdftotext", "-q", "-l", "1", *(["-upw", password] if password else []), str(pdf), "-"],
                          capture_output=True, timeout=120).stdout
    lines = [l.strip() for l in text.decode("utf-8", "replace").split("\n") if l.strip("\f ")]
    meta = {"submitted_at": "2024-01-01T00:00:00Z"}
    record = {"record_type": "pith_number_record",
              "canonical_record": {"metadata": meta, "schema_version": "1.0",
                                   "source": {"id": pdf.name, "kind": "bench", "version": 1}}}
    if lines:  # a page without text: a record without a title
        title = TITLE_SHOWN.get("%s/%s" % (pdf.parent.name, pdf.name), (lines[0].strip("\f "),))[0]
        meta["title_canon_sha256"] = hashlib.sha256(title.lower().encode("utf-8")).hexdigest()
        record["paper"] = {"title": title}
    unsigned, signed = work / "record.json", work / "record-signed.json"
    unsigned.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    subprocess.run([pith, "sign", str(unsigned), "--secret", str(work / "bench.key"), "-o", str(signed)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return signed


if __name__ == "__main__":
    main()
