# SPDX-License-Identifier: MIT
"""Running the pith CLI from the Python test suites: one environment, one crash check."""
import argparse
import os
import shutil
import subprocess
import tempfile


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def isolated_env(home, **extra):
    """The caller's environment without pith's keyring and colour settings, with HOME
    pointing at `home` (an empty directory: no default keyring file can interfere)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PITH_KEYRING", "XDG_CONFIG_HOME", "NO_COLOR")}
    env["HOME"] = home
    env.update(extra)
    return env


def run_pith(pith, args, env, stdin=None, timeout=120, cwd=None):
    """(exit status, stdout, stderr) of `pith ARGS`; a crash, a sanitizer report,
    an internal error or a hang is a Failure."""
    try:
        p = subprocess.run([pith] + args, capture_output=True, timeout=timeout, env=env, input=stdin, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise Failure("pith %s: no answer within %d s" % (" ".join(args), timeout))
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    check(p.returncode >= 0, "pith %s: killed by signal %d (crash)\n%s" % (" ".join(args), -p.returncode, err[-2000:]))
    check("internal error" not in err and "AddressSanitizer" not in err and "runtime error:" not in err,
          "pith %s: %s" % (" ".join(args), err.strip()[:2000]))
    return p.returncode, out, err


class Folder:
    """The folder a test writes its files in: path(), write() (bytes or text), read() (bytes)."""

    def __init__(self, where):
        self.where = where

    def path(self, name):
        return os.path.join(self.where, name)

    def write(self, name, data):
        with open(self.path(name), "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        return self.path(name)

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()


class Workdir(Folder):
    """A test's temporary directory `tmp` with an empty HOME inside it; pith (args.pith) and the
    source tree's examples (args.source); pith run there with run_pith."""

    def __init__(self, args, tmp):
        super().__init__(tmp)
        self.pith, self.src, self.tmp = args.pith, args.source, tmp
        self.home = os.path.join(tmp, "home")
        os.makedirs(self.home)
        self.article = os.path.join(self.src, "examples", "article.pdf")
        self.record = os.path.join(self.src, "examples", "record.json")

    def env(self, **extra):
        return isolated_env(self.home, **extra)

    def run(self, args, stdin=None, timeout=120, env=None):
        return run_pith(self.pith, args, self.env(**(env or {})), stdin=stdin, timeout=timeout, cwd=self.tmp)

    def raw(self, args, stdin=None):
        """(exit, stdout bytes, stderr text), for binary output."""
        p = subprocess.run([self.pith] + args, input=stdin, capture_output=True, env=self.env(), cwd=self.tmp, timeout=120)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def case_main(cases, make_ctx, prefix="pith-test-", work=False, corpus=False, ready=None):
    """`SCRIPT --pith PITH --source SRC [--work DIR] [--corpus DIR] CASE`: runs
    cases["case_" + CASE](ctx). Without `work` the case gets a fresh temporary directory,
    ctx = make_ctx(args, tmp), removed afterwards; with `work` the cases share DIR (a `setup`
    case fills it for the others), ctx = make_ctx(args), and ready(ctx), if given, may stop any
    other case first with (exit status, message). Exit 0 pass, 1 fail (a Failure), 2 unknown
    case, 77 skipped (the case returned 77)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--pith", required=True)
    ap.add_argument("--source", required=True)
    if work:
        ap.add_argument("--work", required=True)
    if corpus:
        ap.add_argument("--corpus")
    ap.add_argument("case")
    args = ap.parse_args()
    fn = cases.get("case_" + args.case.replace("-", "_"))
    if not fn:
        print("unknown case " + args.case)
        return 2
    tmp = None if work else tempfile.mkdtemp(prefix=prefix)
    try:
        ctx = make_ctx(args) if work else make_ctx(args, tmp)
        stop = ready(ctx) if ready and args.case != "setup" else None
        if stop:
            print(stop[1])
            return stop[0]
        if fn(ctx) == 77:
            return 77
    except Failure as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    print("PASS")
    return 0


def chromium():
    """Debian's Chromium (or another build of it on the PATH), None when there is none."""
    return next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)


def offline_chromium(profile, headless="--headless=new"):
    """The start of a headless Chromium command that reaches nothing beyond this machine: every
    host name resolves to nothing, any request goes to a proxy on 127.0.0.1:9 where nobody
    listens, nothing is fetched in the background; its profile in the folder `profile`."""
    return [chromium(), headless, "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--proxy-server=http://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + profile]


# Corpus files outside malformed/ that are damaged the way malformed/ files are (qpdf --check
# warns about each too): pith refuses them like every malformed file and stamps or reads them
# with --allow-damaged. doc/hostile-files.md, "Damaged PDFs".
DAMAGED_CORPUS_FILES = {
    "valid/ctm_cm.pdf": "startxref and every object offset are wrong (qpdf: xref damaged, reconstructs)",
    "large/all-twemojis.pdf": "trailer /Size 11216 does not cover object 29705 (qpdf warns the same)",
    "large/unreadablemetadata.pdf": "startxref is wrong, a stream /Length is wrong, the catalog has no /Pages",
}

