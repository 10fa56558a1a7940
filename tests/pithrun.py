# SPDX-License-Identifier: MIT
"""Running the pith CLI from the Python test suites: one environment, one crash check."""
import os
import subprocess


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


# Corpus files outside malformed/ that are damaged the way malformed/ files are (qpdf --check
# warns about each too): pith refuses them like every malformed file and stamps or reads them
# with --allow-damaged. doc/hostile-files.md, "Damaged PDFs".
DAMAGED_CORPUS_FILES = {
    "valid/ctm_cm.pdf": "startxref and every object offset are wrong (qpdf: xref damaged, reconstructs)",
    "large/all-twemojis.pdf": "trailer /Size 11216 does not cover object 29705 (qpdf warns the same)",
    "large/unreadablemetadata.pdf": "startxref is wrong, a stream /Length is wrong, the catalog has no /Pages",
}
