#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The honest corpus (issue 28): papers typeset with TeX Live's journal and conference
classes, stamped with a signed record of their own title, must verify trusted.

usage: run_honest.py --pith PITH --work DIR [--sample | --full] [--class C] [--form F]
                     [--engine E] [--failed-in REPORT] [--jobs N] [--report FILE] [--list] [--keep]
       run_honest.py --selftest

For each paper (corpus.py: class x title form x engine) this script
  compile  writes the paper's source and compiles it once (pdflatex or lualatex); a TeX error
           fails the paper with the end of the log;
  record   signs a record with a test key (`pith keygen`, `pith sign`, as
           tests/corpus/stamp_suite.py does) whose paper.title is the title as an arXiv record
           writes it (TeX kept, footnote mark dropped) and title_canon_sha256 the SHA-256 of
           Python's str.lower() of it;
  stamp    `pith stamp PAPER --record R --json`, no override flag: must exit 0;
  verify   `pith verify --json --keyring ring.json`: must say trusted (exit 0).
It writes a JSON report of every paper (class, engine, form, titles, stamp exit + code and
message, verify state + codes, and for a failure the page-1 lines pdftotext -bbox-layout
shows) and prints the failures grouped by cause. Exit 0 only when every paper is trusted and
the run held the number of papers corpus.py states for it (SAMPLE_PAPERS, FULL_PAPERS: a class,
form or engine dropped fails; not checked when --class, --form or --failed-in narrow the run).
No list of allowed failures: a refused or untrusted paper fails the run.
--selftest checks that count on planted faults (no TeX, no pith).

--sample (the default) is the CI sample (corpus.sample()): every class with each engine once
and every form with each engine at least once. --full is the whole product.
Python standard library only.
"""
import argparse
import collections
import html
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "corpus"))
import corpus  # noqa: E402
import stamp_suite  # noqa: E402  (keys, records, stamp and verify runs: one place)

TEX_TIMEOUT = 300
TEX_ENV = {"SOURCE_DATE_EPOCH": "1721418545", "FORCE_SOURCE_DATE": "1"}


def compile_paper(engine, work):
    """(ok, tail of the log). TeX runs with the caller's HOME: LuaLaTeX's font cache lives there."""
    env = dict(os.environ, **TEX_ENV)
    try:
        p = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=work,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TEX_TIMEOUT, env=env)
        out = p.stdout.decode("utf-8", "replace")
        ok = p.returncode == 0 and os.path.exists(os.path.join(work, "paper.pdf"))
    except subprocess.TimeoutExpired:
        out, ok = "no answer within %d s" % TEX_TIMEOUT, False
    return ok, "\n".join(out.strip().splitlines()[-15:])


def error_code(err):
    """The [code] that ends pith's one-line error (doc/errors.md), or None."""
    m = re.search(r"\[([a-z_]+\.[a-z_.]+)\]\s*$", err.strip())
    return m.group(1) if m else None


def message_kind(err):
    """pith's message without the file, the titles it quotes and what the page shows: the
    reason, to group failures by."""
    msg = err.strip().splitlines()[-1] if err.strip() else ""
    msg = re.sub(r"^pith: .*?\.pdf: ", "", msg)
    msg = re.sub(r'title ".*" \(it shows .*\); ', 'title "..." (it shows ...); ', msg)
    return re.sub(r"\s*\[[a-z_.]+\]$", "", msg)


def page_lines(pdf, limit=12):
    """The first lines of page 1 as pdftotext -bbox-layout sets them: text, and the words
    smaller than the line's median word (raised marks, sub/superscripts) with their heights."""
    p = subprocess.run(["pdftotext", "-q", "-bbox-layout", "-f", "1", "-l", "1", pdf, "-"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60)
    doc = p.stdout.decode("utf-8", "replace")
    out = []
    for line in re.findall(r"<line [^>]*>(.*?)</line>", doc, re.S):
        words = [(float(y1) - float(y0), html.unescape(w)) for y0, y1, w in
                 re.findall(r'<word xMin="[^"]*" yMin="([^"]*)" xMax="[^"]*" yMax="([^"]*)">([^<]*)</word>', line)]
        if not words:
            continue
        top = sorted(h for h, _ in words)[len(words) // 2]  # the line's usual word height
        small = ["%s (%.1f of %.1f)" % (w, h, top) for h, w in words if h < 0.8 * top]
        out.append({"text": " ".join(w for _, w in words), "height": round(top, 1), "small": small})
        if len(out) >= limit:
            break
    return out


def title_lines(lines, title):
    """The page's lines from the first one sharing a word of 4 letters or more with the
    record's title (running heads come before it in some classes), at most 3."""
    words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", title)}
    for i, line in enumerate(lines):
        if words & {w.lower() for w in re.findall(r"[A-Za-z]{4,}", line["text"])}:
            return lines[i:i + 3]
    return lines[:3]


def keep_only(work, name, report, rc, password=""):
    """Leaves in `work` only stamped.pdf and kept.json (the name, verify's JSON report and exit
    status): what tests/differential/renderers.py compares across renderers."""
    for entry in os.listdir(work):
        if entry != "stamped.pdf":
            path = os.path.join(work, entry)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    with open(os.path.join(work, "kept.json"), "w", encoding="utf-8") as f:
        json.dump({"name": name, "password": password, "verify": report, "exit": rc}, f, ensure_ascii=False)


def run_paper(ctx, work_root, cls, form, engine, keep=False):
    name = corpus.label(cls, form, engine)
    work = os.path.join(work_root, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    res = {"paper": name, "class": cls, "form": form, "engine": engine,
           "tex_title": corpus.FORMS[form][0], "record_title": corpus.record_title(form)}
    with open(os.path.join(work, "paper.tex"), "w", encoding="utf-8") as f:
        f.write(corpus.source(cls, form))
    t0 = time.time()
    ok, tail = compile_paper(engine, work)
    res["compile_s"] = round(time.time() - t0, 1)
    if not ok:
        res.update(result="FAIL", cause="compile: the paper does not compile", log=tail)
        return res
    pdf = os.path.join(work, "paper.pdf")
    signed, number, err = ctx.make_record(work, name, corpus.record_title(form))
    if err:
        res.update(result="FAIL", cause=err)
        return res
    out = os.path.join(work, "stamped.pdf")
    r, summary = stamp_suite.stamp(ctx, pdf, signed, out, "")
    res["stamp"] = {"exit": r.rc, "code": error_code(r.err), "message": r.err.strip(),
                    "title": (summary or {}).get("title")}
    if r.rc != 0:
        res.update(result="FAIL", cause="stamp refused: [%s] %s" % (res["stamp"]["code"], message_kind(r.err)),
                   page=page_lines(pdf))
        return res
    rv, j = stamp_suite.verify_json(ctx, out, "", ctx.keyring)
    j = j or {}
    res["verify"] = {"exit": rv.rc, "state": j.get("state"),
                     "failure": [(x.get("code"), x.get("message")) for x in j.get("failure", [])],
                     "informational": stamp_suite.codes(j, "informational")}
    if rv.rc != 0 or j.get("state") != "trusted":
        res.update(result="FAIL", page=page_lines(pdf),
                   cause="stamp accepted%s, verify %s: %s" % (
                       " with a warning" if "warning" in r.err else "", j.get("state"),
                       " ".join(c for c, _ in res["verify"]["failure"]) or " ".join(res["verify"]["informational"])))
        return res
    res["result"] = "PASS"
    if keep:
        keep_only(work, name, j, rv.rc)
    else:
        shutil.rmtree(work)  # keep the build dir small: failures stay for a look
    return res


def expected_papers(args):
    """How many papers the run must hold (corpus.py's stated counts), or None where --class,
    --form or --failed-in narrow it to a size nothing states."""
    if args.classes or args.forms or args.failed_in:
        return None
    stated = corpus.FULL_PAPERS if args.full else corpus.SAMPLE_PAPERS
    return sum(n for engine, n in stated.items() if not args.engines or engine in args.engines)


def count_problem(want, papers, results):
    """None when the run held and answered exactly the stated number of papers (and at least one)."""
    if not papers:
        return "no papers to run"
    if want is not None and len(papers) != want:
        return "%d papers selected, corpus.py states %d" % (len(papers), want)
    if len(results) != len(papers):
        return "%d results for %d papers" % (len(results), len(papers))
    return None


def selftest():
    """count_problem() on planted faults: a dropped class, an empty run, a lost result."""
    ns = argparse.Namespace(classes=None, forms=None, failed_in=None, full=False, engines=["pdflatex"])
    want = expected_papers(ns)
    papers = [p for p in corpus.sample() if p[2] == "pdflatex"]
    first = papers[0][0]
    cases = [("the CI sample", want, papers, papers, True),
             ("a class dropped", want, [p for p in papers if p[0] != first], [p for p in papers if p[0] != first], False),
             ("an empty run", want, [], [], False),
             ("a result lost", want, papers, papers[1:], False),
             ("--class narrows it", expected_papers(argparse.Namespace(**dict(vars(ns), classes=[first]))),
              papers[:1], papers[:1], True)]
    full = argparse.Namespace(**dict(vars(ns), full=True, engines=None))
    cases.append(("the full product", expected_papers(full), corpus.product(), corpus.product(), True))
    bad = [what for what, w, ps, rs, ok in cases if (count_problem(w, ps, rs) is None) != ok]
    print("run_honest selftest: %d cases, %s" % (len(cases), "WRONG: %s" % bad if bad else "all right"))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pith", required=True)
    ap.add_argument("--work", required=True, help="output folder (in the build dir)")
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(HERE)))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--sample", action="store_true", help="the CI sample (default)")
    g.add_argument("--full", action="store_true", help="every class x form x engine")
    ap.add_argument("--class", dest="classes", action="append", choices=list(corpus.CLASSES))
    ap.add_argument("--form", dest="forms", action="append", choices=list(corpus.FORMS))
    ap.add_argument("--engine", dest="engines", action="append", choices=corpus.ENGINES)
    ap.add_argument("--failed-in", metavar="REPORT", help="only the papers that failed in an earlier report")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--report", help="JSON report (default WORK/report.json)")
    ap.add_argument("--list", action="store_true", help="list the papers and exit")
    ap.add_argument("--keep", action="store_true",
                    help="keep each trusted paper's stamped.pdf and verify report (tests/differential/renderers.py)")
    ap.add_argument("--selftest", action="store_true", help="check the count check on planted faults, then exit")
    if "--selftest" in sys.argv[1:]:
        return selftest()
    args = ap.parse_args()

    papers = corpus.product() if args.full else corpus.sample()
    papers = [p for p in papers if (not args.classes or p[0] in args.classes)
              and (not args.forms or p[1] in args.forms) and (not args.engines or p[2] in args.engines)]
    if args.failed_in:
        with open(args.failed_in, encoding="utf-8") as f:
            failed = {r["paper"] for r in json.load(f)["results"] if r["result"] != "PASS"}
        papers = [p for p in corpus.product() if corpus.label(*p) in failed]
    if args.list:
        for p in papers:
            print(corpus.label(*p))
        return 0
    want = expected_papers(args)
    problem = count_problem(want, papers, papers)
    if problem:
        print("FAIL: " + problem)
        return 1
    for tool in corpus.ENGINES + ["pdftotext"]:
        if shutil.which(tool) is None:
            print("%s not installed: install the packages in .ci/packages-latex.txt" % tool)
            return 1
    t0 = time.time()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    # stamp_suite's context: a test key and keyring in WORK, pith run with an empty HOME
    ctx = stamp_suite.Ctx(argparse.Namespace(pith=args.pith, corpus=None, out=args.work, repo=args.repo))
    results = [res for _, res in stamp_suite.run_pool(args.jobs, lambda p: run_paper(ctx, args.work, *p, keep=args.keep), papers)]
    results.sort(key=lambda r: r["paper"])
    elapsed = time.time() - t0
    fails = [r for r in results if r["result"] != "PASS"]
    counted = count_problem(want, papers, results)
    report = {"papers": len(results), "passed": len(results) - len(fails), "failed": len(fails),
              "classes": sorted({r["class"] for r in results}), "forms": sorted({r["form"] for r in results}),
              "engines": sorted({r["engine"] for r in results}), "seconds": round(elapsed, 1),
              "results": results}
    with open(args.report or os.path.join(args.work, "report.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
    for r in results:
        print("%-4s %s" % (r["result"], r["paper"]))
    by_cause = collections.defaultdict(list)
    for r in fails:
        by_cause[r["cause"]].append(r)
    for cause, rs in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
        print("\n%d paper(s): %s" % (len(rs), cause))
        for r in rs:
            msg = r.get("log") or (r.get("stamp") or {}).get("message") or \
                "; ".join("[%s] %s" % cm for cm in r["verify"]["failure"])
            print("  %s  record title %r\n      pith: %s" % (r["paper"], r["record_title"], msg))
            for line in title_lines(r.get("page", []), r["record_title"]):
                print("      page: %r%s" % (line["text"], ("  small: " + ", ".join(line["small"])) if line["small"] else ""))
    print("\n%d papers (%d classes, %d forms, %d engines): %d trusted, %d failing; %.1f s; report %s"
          % (len(results), len(report["classes"]), len(report["forms"]), len(report["engines"]),
             report["passed"], len(fails), elapsed, args.report or os.path.join(args.work, "report.json")))
    print("count: " + (counted or ("%d papers, as corpus.py states" % want if want is not None
                                   else "not checked (--class, --form or --failed-in narrow the run)")))
    return 1 if fails or counted else 0


if __name__ == "__main__":
    sys.exit(main())
