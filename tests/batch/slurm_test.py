#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cluster recipes of `pith batch` (examples/batch/), run as shipped (python3 standard library).

Usage: slurm_test.py --pith PITH --source REPO --shared SHARED CASE

  shards  the shard arithmetic of slurm-array.sbatch (SLURM_ARRAY_TASK_ID of --array=0-(N-1))
          and k8s-indexed-job.yaml (JOB_COMPLETION_INDEX of N completions): each script is run
          once per index with a `pith` that adds --dry-run; every manifest entry must land in
          exactly one shard. Needs neither Slurm nor Kubernetes.
  signals slurm-array.sbatch run by bash and signalled as scancel does (SIGTERM to every process
          of the task at once), then pith under a stream of SIGTERMs: it must end its report,
          print its summary and exit 130 every time. Needs no Slurm either.
  merge   merge-reports.sh over real shard reports: one result per entry, and exit 3, naming them,
          for a missing shard, a run that did not end, an entry without result, another manifest,
          another split. Needs jq (exits 77 without).
  slurm   starts a one-node Slurm cluster in a scratch folder (munged, slurmctld, slurmd, its own
          slurm.conf on 127.0.0.1; stopped at the end whatever happens), submits
          slurm-array.sbatch with --array=0-3 only, waits for it, merges with merge-reports.sh and compares with
          a local `pith batch -j 2`; then a second submission (no work); tasks stopped mid-run
          with scancel and scancel --batch --signal=TERM, then submitted again; a task requeued
          with scontrol requeue. Exits 77 (skipped), saying why, where the cluster cannot start
          (not root, slurm-wlm or munge or jq missing, a daemon fails). doc/batch-cluster.md.
"""
import csv
import ctypes
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batch_suite as bs  # noqa: E402  (helpers: tiny PDFs and records, reports, checks)
from batch_suite import check, fail, SKIP  # noqa: E402

ARGS = None
EPOCH = "1700000000"  # SOURCE_DATE_EPOCH: the Slurm and the local outputs must be identical


def example(name):
    return os.path.join(ARGS.source, "examples", "batch", name)


# ---------------------------------------------------------------------------------------------
# shards: the arithmetic of both recipes, without a scheduler

def dry_run_pith(d):
    """A directory with a `pith` that runs the real one with --dry-run (prints LINE<TAB>INPUT)."""
    bindir = os.path.join(d, "bin")
    os.makedirs(bindir)
    wrapper = os.path.join(bindir, "pith")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nexec "%s" "$@" --dry-run\n' % ARGS.pith)
    os.chmod(wrapper, 0o755)
    return bindir


def k8s_script():
    """The shell script of the Indexed Job's container, its completions and its SHARDS."""
    text = open(example("k8s-indexed-job.yaml")).read()
    completions = int(re.search(r"^\s*completions:\s*(\d+)", text, re.M).group(1))
    shards = int(re.search(r'name: SHARDS, value: "(\d+)"', text).group(1))
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if l.strip() == "- |") + 1
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = []
    for l in lines[start:]:
        if l.strip() and len(l) - len(l.lstrip()) < indent:
            break
        body.append(l[indent:])
    return "\n".join(body), completions, shards


def shard_lines(stdout):
    return [int(l.split("\t")[0]) for l in stdout.splitlines() if l.strip()]


def case_shards(d):
    n_entries = 1000
    bs.write_manifest(d, [{"input": "in/%s/p%04d.pdf" % ("abc"[i % 3], i), "record": "r.json", "output": "out/%04d.pdf" % i}
                          for i in range(n_entries)])
    bindir = dry_run_pith(d)
    sbatch = open(example("slurm-array.sbatch")).read()
    default_array = int(re.search(r"^#SBATCH --array=0-(\d+)$", sbatch, re.M).group(1)) + 1
    check(not re.search(r"^SHARDS=\$\{2:-\d+\}", sbatch, re.M), "slurm-array.sbatch: a fixed default SHARDS again")
    script, completions, k8s_shards = k8s_script()
    check(completions == k8s_shards, "k8s-indexed-job.yaml: completions %d but SHARDS %d" % (completions, k8s_shards))
    check("merge-reports.sh --manifest" in open(example("k8s-indexed-job.yaml")).read(), "the k8s recipe does not merge with merge-reports.sh")

    def slurm_task(i, array, *extra):
        """Task i of an array given as Slurm gives it to the task: its count, lowest and highest index."""
        env = dict(os.environ, PITH=os.path.join(bindir, "pith"), SLURM_ARRAY_TASK_ID=str(i), SLURM_CPUS_PER_TASK="1",
                   SLURM_ARRAY_TASK_COUNT=str(len(array)), SLURM_ARRAY_TASK_MIN=str(min(array)), SLURM_ARRAY_TASK_MAX=str(max(array)))
        return subprocess.run(["bash", example("slurm-array.sbatch"), "manifest.jsonl"] + list(extra), cwd=d, env=env,
                              capture_output=True, text=True, timeout=60)

    def k8s_pod(i, shards):
        env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], JOB_COMPLETION_INDEX=str(i), SHARDS=str(shards))
        return subprocess.run(["sh", "-c", script], cwd=d, env=env, capture_output=True, text=True, timeout=60)

    conventions = [("slurm, the script's own --array=0-%d" % (default_array - 1), default_array, lambda i: slurm_task(i, range(default_array))),
                   ("slurm --array=0-4 on the command line", 5, lambda i: slurm_task(i, range(5))),
                   ("slurm --array=I (each alone) with SHARDS=5", 5, lambda i: slurm_task(i, [i], "5")),
                   ("k8s", k8s_shards, lambda i: k8s_pod(i, k8s_shards)),
                   ("k8s SHARDS=3", 3, lambda i: k8s_pod(i, 3))]
    for name, n, task in conventions:
        owner = {}
        for i in range(n):
            p = task(i)
            check(p.returncode == 0, "%s: index %d exited %d: %s" % (name, i, p.returncode, p.stderr))
            check("%d in this shard" % len(shard_lines(p.stdout)) in p.stderr, "%s: index %d: %s" % (name, i, p.stderr))
            for line in shard_lines(p.stdout):
                check(line not in owner, "%s: line %d in shards %d and %d" % (name, line, owner.get(line, -1), i))
                owner[line] = i
        check(sorted(owner) == list(range(1, n_entries + 1)), "%s: %d of %d entries in a shard" % (name, len(owner), n_entries))
        sizes = [list(owner.values()).count(i) for i in range(n)]
        check(min(sizes) > 0, "%s: an empty shard: %r" % (name, sizes))
        print("%s: %d shards of %s entries" % (name, n, sizes))
    # the same N gives the same shards whichever recipe runs them
    a = {l: i for i in range(3) for l in shard_lines(k8s_pod(i, 3).stdout)}
    b = {l: i for i in range(3) for l in shard_lines(slurm_task(i, range(3)).stdout)}
    check(a == b, "slurm and k8s shards differ for N=3")
    # what cannot give every shard once is refused, with the fix, before pith runs
    refusals = [("--array=3 without SHARDS", slurm_task(3, [3]), "give the number of shards"),
                ("--array=1-4 without SHARDS", slurm_task(4, range(1, 5)), "is not 0..N-1"),
                ("task 5 with SHARDS=4", slurm_task(5, range(6), "4"), "--array=0-3"),
                ("k8s index 3 with SHARDS=3", k8s_pod(3, 3), "SHARDS=3")]
    os.makedirs(os.path.join(d, "reports"), exist_ok=True)  # the recipe made it
    with open(os.path.join(d, "reports", "report-1.jsonl"), "w") as f:  # the start line pith writes for shard 1/3
        f.write(json.dumps({"event": "start", "manifest": "manifest.jsonl", "shard": "1/3"}, separators=(",", ":")) + "\n")
    refusals += [("a rerun of task 1 as --array=0-1 after shard 1/3", slurm_task(1, range(2)), "holds shard 1/3"),
                 ("k8s index 1 with SHARDS=2 after shard 1/3", k8s_pod(1, 2), "holds shard 1/3")]
    for name, p, says in refusals:
        check(p.returncode == 2 and says in p.stderr and not p.stdout, "%s: exit %d, %r" % (name, p.returncode, p.stderr))
        print("refused: %s: %s" % (name, p.stderr.strip()))
    check(slurm_task(1, range(3)).returncode == 0, "the rerun of shard 1/3 as --array=0-2 was refused")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
    p = subprocess.run(["bash", example("slurm-array.sbatch"), "manifest.jsonl"], cwd=d, env=env, capture_output=True, text=True)
    check(p.returncode != 0 and "sbatch --array" in p.stderr and not p.stdout, "no array task: %r" % p)


def case_signals(d):
    """What scancel does, without Slurm: SIGTERM to every process of the task at once (the batch
    shell, pith, its workers), so pith gets one signal directly and one from the script's trap.
    pith must still end its report with "interrupted", print its summary and exit 130, every time
    (the second signal used to kill it while it wrote them)."""
    n = 12
    os.makedirs(os.path.join(d, "in"))
    entries = []
    for i in range(n):
        with open(os.path.join(d, "in", "t-%02d.pdf" % i), "wb") as f:
            f.write(bs.tiny_pdf(bs.tiny_title(i)))
        entries.append({"input": "in/t-%02d.pdf" % i, "record": bs.tiny_record(bs.tiny_title(i), "t-%d" % i), "output": "out/t-%02d.pdf" % i})
    bs.write_manifest(d, entries)
    env = dict(os.environ, PITH=ARGS.pith, SLURM_ARRAY_TASK_ID="0", SLURM_CPUS_PER_TASK="2", PITH_BATCH_TEST_SLEEP="in/t-=0.2")
    report = os.path.join(d, "reports", "report-0.jsonl")
    for attempt in range(10):
        shutil.rmtree(os.path.join(d, "out"), ignore_errors=True)
        before = len(open(report).readlines()) if os.path.exists(report) else 0
        proc = subprocess.Popen(["bash", example("slurm-array.sbatch"), "manifest.jsonl", "1"], cwd=d, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        def files_done():
            return sum('"file"' in l for l in open(report).readlines()[before:]) if os.path.exists(report) else 0
        deadline = time.time() + 30
        while time.time() < deadline and files_done() < 2:
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        last = json.loads(open(report).readlines()[-1])
        check(proc.returncode == 130 and last["event"] == "interrupted" and "interrupted by SIGTERM" in out,
              "attempt %d: exit %d, report ends %r, stdout %r, stderr %s" % (attempt, proc.returncode, last, out, err[-500:]))
        check(not bs.temporaries(d), "temporary files left: %r" % bs.temporaries(d))
    print("%d runs signalled like scancel: each ended its report and exited 130" % (attempt + 1))
    # the same, made certain: SIGTERM after SIGTERM, as fast as they can be sent, until pith exits
    for attempt in range(3):
        shutil.rmtree(os.path.join(d, "out"), ignore_errors=True)
        before = len(open(report).readlines())
        proc = subprocess.Popen([ARGS.pith, "batch", "manifest.jsonl", "-j", "2", "--append", "--report", report], cwd=d, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 30
        while time.time() < deadline and files_done() < 2:
            time.sleep(0.02)
        sent = 0
        while proc.poll() is None and time.time() < deadline:
            os.kill(proc.pid, signal.SIGTERM)
            sent += 1
        out, err = proc.communicate(timeout=60)
        last = json.loads(open(report).readlines()[-1])
        check(proc.returncode == 130 and last["event"] == "interrupted" and "interrupted by SIGTERM" in out,
              "%d SIGTERMs: exit %d, report ends %r, stdout %r" % (sent, proc.returncode, last, out))
    print("%d SIGTERMs in a row: pith ended its report and exited 130" % sent)


def case_merge(d):
    """merge-reports.sh over real shard reports: one result per entry when every shard ran to its
    end; otherwise exit 3 naming what is missing: a shard without a report, a report whose last
    run did not end, a shard run against another manifest, another split, an entry without result."""
    if not shutil.which("jq"):
        print("jq is not installed; skipping")
        return SKIP
    os.makedirs(os.path.join(d, "in"))
    entries = []
    for i in range(6):
        with open(os.path.join(d, "in", "m-%d.pdf" % i), "wb") as f:
            f.write(bs.tiny_pdf(bs.tiny_title(i)))
        entries.append({"input": "in/m-%d.pdf" % i, "record": bs.tiny_record(bs.tiny_title(i), "m-%d" % i), "output": "out/m-%d.pdf" % i})
    with open(os.path.join(d, "manifest.jsonl"), "w") as f:  # comments and blank lines are not entries
        f.write("# six papers\n\n" + "".join(json.dumps(e) + "\n" for e in entries))
    lines = {e["input"]: i + 3 for i, e in enumerate(entries)}
    rdir = os.path.join(d, "reports")
    os.makedirs(rdir)
    rep = lambda i, n=3: os.path.join(rdir, "report-%d-of-%d.jsonl" % (i, n))
    for i in range(3):
        bs.run(d, "batch", "manifest.jsonl", "--shard", "%d/3" % i, "-j", "2", "--append", "--report", rep(i), "-q", check_rc=0)
    full = [rep(i) for i in range(3)]

    def merge_of(reports, manifest="manifest.jsonl"):
        argv = [example("merge-reports.sh")] + (["--manifest", manifest] if manifest else []) + reports
        p = subprocess.run(argv, cwd=d, capture_output=True, text=True, timeout=60)
        return p, [json.loads(l) for l in p.stdout.splitlines()]

    sha = bs.sha256_file(os.path.join(d, "manifest.jsonl"))
    for r in full:
        start = bs.read_report(r)[0][0]
        check(start["manifest_sha256"] == sha and re.fullmatch(r"\d/3", start["shard"]) and start["manifest_entries"] == 6,
              "start line: %r" % start)
    for manifest in ("manifest.jsonl", None):
        p, merged = merge_of(full, manifest)
        check(p.returncode == 0 and "merge-reports.sh:" not in p.stderr, "complete shards, --manifest %s: exit %d %s" % (manifest, p.returncode, p.stderr))
        check(sorted(r["line"] for r in merged) == sorted(lines.values()), "merged lines %r" % [r["line"] for r in merged])
    print("3 shards of 6 entries merged: " + p.stderr.strip())

    def refused(what, reports, says, manifest="manifest.jsonl"):
        p, _ = merge_of(reports, manifest)
        check(p.returncode == 3 and all(x in p.stderr for x in says), "%s: exit %d, stderr:\n%s" % (what, p.returncode, p.stderr))
        print("refused, %s:\n  %s" % (what, "\n  ".join(l for l in p.stderr.splitlines() if l.startswith("merge-reports.sh:"))))

    biggest = max(range(3), key=lambda i: len(bs.read_report(rep(i))[1]))  # the shard with the most entries
    rest = [rep(i) for i in range(3) if i != biggest]
    missing = bs.read_report(rep(biggest))[1]
    refused("shard %d never ran" % biggest, rest,
            ["shard %d/3: no report" % biggest] + ["manifest.jsonl:%d" % r["line"] for r in missing])
    refused("shard %d never ran, without --manifest" % biggest, rest, ["shard %d/3: no report" % biggest], manifest=None)
    # a report whose last run stopped midway (a copy without its end line)
    cut = os.path.join(d, "cut.jsonl")
    with open(rep(0)) as f:
        kept = f.readlines()[:-1]
    open(cut, "w").writelines(kept)
    refused("a run that did not end", [cut, rep(1), rep(2)], ["cut.jsonl: its last run did not end"])
    # an entry without a result (a file line lost)
    lost = missing[0]
    gap = os.path.join(d, "gap.jsonl")
    open(gap, "w").writelines(l for l in open(rep(biggest)) if '"line":%d,' % lost["line"] not in l)
    others = rest
    refused("an entry without result", [gap] + others, ["gap.jsonl: shard", "manifest.jsonl:%d" % lost["line"]])
    refused("an entry without result, without --manifest", [gap] + others, ["gap.jsonl: shard"], manifest=None)
    # shard 2 run again after the manifest gained a line: another manifest
    with open(os.path.join(d, "manifest.jsonl")) as f:
        text = f.read()
    with open(os.path.join(d, "manifest-2.jsonl"), "w") as f:
        f.write(text + json.dumps({"input": "in/m-0.pdf", "record": entries[0]["record"], "output": "out/extra.pdf"}) + "\n")
    other = os.path.join(d, "other.jsonl")
    shutil.copy(rep(2), other)
    bs.run(d, "batch", "manifest-2.jsonl", "--shard", "2/3", "-j", "2", "--append", "--report", other, "-q", check_rc=0)
    refused("shard 2 against another manifest", [rep(0), rep(1), other], ["other.jsonl: shard 2/3 ran against another manifest"])
    refused("shard 2 against another manifest, without --manifest", [rep(0), rep(1), other],
            ["the reports ran against different manifests", "other.jsonl"], manifest=None)
    # the same manifest split in two: the reports disagree on N
    bs.run(d, "batch", "manifest.jsonl", "--shard", "0/2", "-j", "2", "--report", rep(0, 2), "-q", check_rc=0)
    refused("two splits", [rep(0, 2), rep(1), rep(2)], ["different numbers of shards", "report-0-of-2.jsonl 0/2"])
    p = subprocess.run([example("merge-reports.sh")], capture_output=True, text=True)
    check(p.returncode == 2 and "usage" in p.stderr, "no reports: %r" % p)


# ---------------------------------------------------------------------------------------------
# slurm: a one-node cluster in a scratch folder

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def die_with_parent():
    """preexec_fn: the daemon gets SIGTERM when this test dies, even by SIGKILL (ctest timeout)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def tail(path, n=8):
    try:
        return "".join(open(path, errors="replace").readlines()[-n:])
    except OSError:
        return "(no %s)\n" % path


class Cluster:
    """munged + slurmctld + slurmd for one node, localhost, all state in `root`."""

    def __init__(self, root):
        self.root = root
        self.procs = []
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
        self.env["SLURM_CONF"] = os.path.join(root, "slurm.conf")

    def cannot(self):
        """Why the cluster cannot start here, or None."""
        if os.geteuid() != 0:
            return "not root (slurmd must run as root to start jobs)"
        missing = [b for b in ("munged", "munge", "slurmctld", "slurmd", "sbatch", "scancel", "squeue", "sinfo", "jq")
                   if not shutil.which(b)]
        if missing:
            return "not installed: %s (apt-get install slurmctld slurmd slurm-client munge jq)" % " ".join(missing)
        return None

    def spawn(self, name, argv):
        log = open(os.path.join(self.root, "log", name + ".out"), "w")
        p = subprocess.Popen(argv, env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                             preexec_fn=die_with_parent)
        self.procs.append((name, p))
        return p

    def start(self):
        """Starts the daemons; returns None, or why they did not start."""
        r = self.root
        os.chmod(r, 0o755)  # munged wants every directory above its socket searchable by all
        for sub, mode in (("munge", 0o700), ("munge-run", 0o755), ("state", 0o755), ("spool", 0o755), ("log", 0o755)):
            os.makedirs(os.path.join(r, sub), mode=mode)
            os.chmod(os.path.join(r, sub), mode)
        key = os.path.join(r, "munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        sock = os.path.join(r, "munge-run", "munge.socket")
        self.spawn("munged", ["munged", "-F", "--force", "--socket=" + sock, "--key-file=" + key,
                              "--log-file=" + os.path.join(r, "log", "munged.log"), "--pid-file=" + os.path.join(r, "munge-run", "munged.pid"),
                              "--seed-file=" + os.path.join(r, "munge", "munged.seed")])
        if not self.wait_for(lambda: subprocess.run(["munge", "-S", sock, "-n"], capture_output=True).returncode == 0, 15):
            return "munged did not start:\n" + tail(os.path.join(r, "log", "munged.log")) + tail(os.path.join(r, "log", "munged.out"))
        node = subprocess.run(["slurmd", "-C"], capture_output=True, text=True).stdout.split("\n")[0]
        hw = " ".join(w for w in node.split() if not w.startswith("NodeName=")) or "CPUs=%d" % os.cpu_count()
        self.cpus = int(re.search(r"CPUs=(\d+)", hw).group(1))
        conf = {
            "ClusterName": "pithtest", "SlurmctldHost": "localhost(127.0.0.1)", "SlurmUser": "root", "SlurmdUser": "root",
            "SlurmctldPort": free_port(), "SlurmdPort": free_port(), "AuthType": "auth/munge", "CredType": "cred/munge",
            # cred_expire: also how long Slurm holds a requeued job (default 120 s; see requeue())
            "AuthInfo": "socket=%s,cred_expire=10" % sock, "StateSaveLocation": r + "/state", "SlurmdSpoolDir": r + "/spool",
            "SlurmctldPidFile": r + "/slurmctld.pid", "SlurmdPidFile": r + "/slurmd.pid",
            "SlurmctldLogFile": r + "/log/slurmctld.log", "SlurmdLogFile": r + "/log/slurmd.log",
            "ProctrackType": "proctrack/linuxproc", "TaskPlugin": "task/none", "JobAcctGatherType": "jobacct_gather/none",
            "AccountingStorageType": "accounting_storage/none", "JobCompType": "jobcomp/none", "MpiDefault": "none",
            "SelectType": "select/cons_tres", "SelectTypeParameters": "CR_Core_Memory", "SchedulerType": "sched/backfill",
            "SchedulerParameters": "sched_interval=2,bf_interval=2",  # a requeued job starts soon after its hold
            "ReturnToService": 2, "KillWait": 10, "SlurmdTimeout": 60, "InactiveLimit": 0,
        }
        with open(self.env["SLURM_CONF"], "w") as f:
            f.write("".join("%s=%s\n" % kv for kv in conf.items()))
            f.write("NodeName=localhost NodeAddr=127.0.0.1 %s State=UNKNOWN\n" % hw)
            f.write("PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n")
        self.spawn("slurmctld", ["slurmctld", "-D", "-i"])
        self.spawn("slurmd", ["slurmd", "-D", "-N", "localhost"])
        if not self.wait_for(lambda: self.slurm("sinfo", "-h", "-n", "localhost", "-o", "%T").stdout.strip() == "idle", 30):
            return "the node did not come up (sinfo: %r):\n%s%s%s%s" % (
                self.slurm("sinfo").stdout, tail(r + "/log/slurmctld.log"), tail(r + "/log/slurmctld.out"),
                tail(r + "/log/slurmd.log"), tail(r + "/log/slurmd.out"))
        return None

    def wait_for(self, cond, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if any(p.poll() is not None for _, p in self.procs):
                return False
            if cond():
                return True
            time.sleep(0.3)
        return False

    def slurm(self, *argv, cwd=None, timeout=60, env=None):
        return subprocess.run(list(argv), cwd=cwd, env=dict(self.env, **(env or {})), capture_output=True, text=True, timeout=timeout)

    def stop(self):
        """Cancels every job (their processes run under slurmstepd, not slurmd), then the daemons."""
        if any(name == "slurmctld" and p.poll() is None for name, p in self.procs):
            self.slurm("scancel", "--user=root", timeout=30)
            self.wait_for(lambda: not self.slurm("squeue", "-h").stdout.strip(), 30)
        for name, p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        self.procs = []


# ---------------------------------------------------------------------------------------------

def corpus_entries():
    """Every corpus PDF (record without a title: the number is what is compared), or None."""
    corpus = os.path.join(ARGS.shared, "corpus")
    if not os.path.exists(os.path.join(corpus, "MANIFEST.tsv")):
        return None
    entries = []
    for row in csv.DictReader(open(os.path.join(corpus, "MANIFEST.tsv")), delimiter="\t"):
        e = {"input": os.path.join(corpus, row["file"]), "record": bs.tiny_record(None, row["file"]), "output": "out/corpus/" + row["file"]}
        if row["password"]:
            e["password"] = row["password"]
        entries.append(e)
    return entries


def sbatch(cluster, d, shards, *extra, wait=True, env=None, timeout=240):
    """Submits the shipped recipe from d with --array=0-(shards-1) (or the options in extra) and
    nothing else: the number of shards follows the array. With wait, returns once every task has
    ended, with the highest exit status of the tasks, as `sbatch --wait` does; polled here
    because sbatch --wait polls at growing intervals and took 42 s for 4 s of work."""
    argv = ["sbatch", "--parsable", "--cpus-per-task=1", "--mem-per-cpu=256M"]
    argv += list(extra) or ["--array=0-%d" % (shards - 1)]
    argv += [example("slurm-array.sbatch"), "manifest.jsonl"]
    env = dict({"PITH": ARGS.pith, "SOURCE_DATE_EPOCH": EPOCH, "HOME": d}, **(env or {}))
    t = time.time()
    p = cluster.slurm(*argv, cwd=d, env=env)
    if not wait or p.returncode != 0:
        return p, time.time() - t
    job = p.stdout.strip().split(";")[0]
    if not cluster.wait_for(lambda: not cluster.slurm("squeue", "-h", "-j", job).stdout.strip(), timeout):
        fail("sbatch %s did not finish in %d s:\n%s" % (" ".join(argv), timeout, cluster.slurm("squeue").stdout))
    info = cluster.slurm("scontrol", "show", "job", job).stdout  # every task, kept MinJobAge (300 s) after its end
    codes = [int(a) or (128 + int(b) if int(b) else 0) for a, b in re.findall(r"\bExitCode=(\d+):(\d+)", info)]
    check(codes, "no exit status for job %s:\n%s" % (job, info))
    return subprocess.CompletedProcess(argv, max(codes), p.stdout, p.stderr + info), time.time() - t


def merge(d, reports=None):
    reports = reports or sorted(glob.glob(os.path.join(d, "reports", "report-*.jsonl")))
    p = subprocess.run([example("merge-reports.sh"), "--manifest", "manifest.jsonl"] + reports, cwd=d, capture_output=True, text=True, timeout=60)
    merged = [json.loads(l) for l in p.stdout.splitlines()]
    return p, merged


def segments(path):
    """A report appended to by several runs, split at its start lines."""
    out = []
    for line in open(path):
        j = json.loads(line)
        if j["event"] == "start":
            out.append([])
        out[-1].append(j)
    return out


def check_merged(merged, n_entries, what):
    lines = [r["line"] for r in merged]
    check(len(lines) == len(set(lines)) == n_entries and sorted(lines) == list(range(1, n_entries + 1)),
          "%s: merged report has %d results for %d entries (%d distinct lines)" % (what, len(lines), n_entries, len(set(lines))))
    return {r["line"]: r for r in merged}


def run_and_compare(cluster, d, entries, shards):
    """First submission vs. a local run; then a second submission that must do no work."""
    local = os.path.join(d, "local")
    sl = os.path.join(d, "slurm")
    for w in (local, sl):
        os.makedirs(w)
        os.symlink(os.path.join(d, "in"), os.path.join(w, "in"))
        bs.write_manifest(w, entries)
    t = time.time()
    bs.run(local, "batch", "manifest.jsonl", "-j", "2", "--report", "local.jsonl", "-q", env={"SOURCE_DATE_EPOCH": EPOCH}, check_rc=[0, 1])
    t_local = time.time() - t
    _, local_results = bs.read_report(os.path.join(local, "local.jsonl"))
    want = bs.by_line(local_results)

    p, t_slurm = sbatch(cluster, sl, shards)
    job = p.stdout.strip().split(";")[0]
    check(p.returncode == 0, "the tasks exited %d: %s" % (p.returncode, p.stderr))
    for i in range(shards):
        log = os.path.join(sl, "pith-batch-%s_%d.out" % (job, i))
        check(os.path.exists(log) and "pith batch: " in open(log).read(), "task %d: no summary in its log %s" % (i, log))
    m, merged = merge(sl)
    failed = sum(not r["ok"] for r in want.values())
    check(m.returncode == (1 if failed else 0) and "merge-reports.sh:" not in m.stderr, "merge-reports.sh exited %d: %s" % (m.returncode, m.stderr))
    starts = [segments(os.path.join(sl, "reports", "report-%d.jsonl" % i))[0][0] for i in range(shards)]
    check([s["shard"] for s in starts] == ["%d/%d" % (i, shards) for i in range(shards)], "--array=0-%d ran shards %r" % (shards - 1, [s["shard"] for s in starts]))
    got = check_merged(merged, len(entries), "first submission")
    diff = []
    for line, w in want.items():
        g = got[line]
        for k in ("input", "output", "status", "error_code", "sha256"):
            if g.get(k) != w.get(k):
                diff.append("line %d %s: slurm %r, local %r" % (line, k, g.get(k), w.get(k)))
    check(not diff, "Slurm and local runs differ:\n" + "\n".join(diff[:20]))
    stamped = sum(r["status"] == "stamped" for r in merged)
    check(stamped > 0, "nothing stamped")
    check(not bs.temporaries(sl), "temporary files left: %r" % bs.temporaries(sl))
    task_s = [segments(os.path.join(sl, "reports", "report-%d.jsonl" % i))[0][-1]["seconds"] for i in range(shards)]
    print("first submission: %d entries (%d stamped, %d failed) in %d shards; submission to end %.1f s (pith in the tasks: %s s), "
          "local pith batch -j 2 %.1f s" % (len(entries), stamped, failed, shards, t_slurm, " + ".join("%.1f" % s for s in task_s), t_local))
    print("  merge-reports.sh: " + m.stderr.strip().split("\n")[-1])

    # again: every task skips what it did, and says so in its report's last run
    stats = {r["output"]: os.stat(os.path.join(sl, r["output"])) for r in merged if r["status"] == "stamped"}
    p, t_again = sbatch(cluster, sl, shards)
    check(p.returncode == 0, "second submission: the tasks exited %d: %s" % (p.returncode, p.stderr))
    for i in range(shards):
        runs = segments(os.path.join(sl, "reports", "report-%d.jsonl" % i))
        check(len(runs) == 2, "report-%d.jsonl holds %d runs, wanted 2" % (i, len(runs)))
        first_end, end = runs[0][-1], runs[1][-1]
        check(end["event"] == "end" and end["stamped"] == 0 and end["skipped"] == first_end["stamped"],
              "second submission, task %d did work: %r after %r" % (i, end, first_end))
    _, merged2 = merge(sl)
    got2 = check_merged(merged2, len(entries), "second submission")
    for line, w in want.items():
        g = got2[line]
        check(g["status"] == ("skipped" if w["status"] == "stamped" else w["status"]) and g["sha256"] == w["sha256"],
              "second submission, line %d: %r, first %r" % (line, g, w))
    for out, st in stats.items():
        st2 = os.stat(os.path.join(sl, out))
        check((st.st_ino, st.st_mtime_ns) == (st2.st_ino, st2.st_mtime_ns), out + " was rewritten by the second submission")
    print("second submission: no work (%d skipped); submission to end %.1f s" % (stamped, t_again))


def cancel_and_resubmit(cluster, d):
    """Submitted as --array=0-2%2: task 2 cancelled while it waits (it never runs: no report), task 0
    cancelled midway (`scancel`: SIGTERM to all its processes), task 1 sent SIGTERM on its batch
    shell only (`scancel --batch`, what --signal=B:TERM does before the time limit; the recipe's
    trap passes it on). The merge must refuse, naming all three; then the same array again."""
    w = os.path.join(d, "cancel")
    os.makedirs(os.path.join(w, "in"))
    n, shards = 32, 3
    entries = []
    for i in range(n):
        with open(os.path.join(w, "in", "slow-%02d.pdf" % i), "wb") as f:
            f.write(bs.tiny_pdf(bs.tiny_title(i)))
        entries.append({"input": "in/slow-%02d.pdf" % i, "record": bs.tiny_record(bs.tiny_title(i), "slow-%d" % i), "output": "out/slow-%02d.pdf" % i})
    bs.write_manifest(w, entries)
    slow = {"PITH_BATCH_TEST_SLEEP": "in/slow-=0.5"}  # documented test hook: each file takes 0.5 s
    p, _ = sbatch(cluster, w, shards, "--array=0-2%2", wait=False, env=slow)
    check(p.returncode == 0, "sbatch: " + p.stderr)
    job = p.stdout.strip().split(";")[0]
    c = cluster.slurm("scancel", "%s_2" % job)  # at most 2 tasks at once: task 2 waits for one of them
    check(c.returncode == 0, "scancel %s_2: %s" % (job, c.stderr))
    reports = [os.path.join(w, "reports", "report-%d.jsonl" % i) for i in range(shards)]
    started = lambda r: os.path.exists(r) and len(bs.read_report(r)[1]) >= 3
    # one task after the other, as on a one-CPU node task 1 starts only when task 0 has ended
    for report, argv in zip(reports, (["scancel", "%s_0" % job], ["scancel", "--batch", "--signal=TERM", "%s_1" % job])):
        check(cluster.wait_for(lambda: started(report), 90), "%s did not start:\n%s" % (report, cluster.slurm("squeue").stdout))
        c = cluster.slurm(*argv)
        check(c.returncode == 0, " ".join(argv) + ": " + c.stderr)
    check(cluster.wait_for(lambda: not cluster.slurm("squeue", "-h", "-j", job).stdout.strip(), 90), "job %s did not end after scancel" % job)
    check(not os.path.exists(reports[2]), "task 2 ran although it was cancelled while pending")
    done = set()
    for i, report in enumerate(reports[:2]):
        lines, results = bs.read_report(report)
        last = lines[-1]
        check(last["event"] == "interrupted" and last["signal"] == "SIGTERM" and last["remaining"] > 0,
              "task %d was not interrupted midway: %r" % (i, last))
        log = open(os.path.join(w, "pith-batch-%s_%d.out" % (job, i))).read()
        check("interrupted by SIGTERM" in log, "task %d's log does not say it was interrupted:\n%s" % (i, log[-2000:]))
        done |= {r["output"] for r in results if r["status"] == "stamped"}
        print("task %d: %s after %d of %d files" % (i, "scancel" if i == 0 else "scancel --batch --signal=TERM", last["done"], last["total"]))
    check(not bs.temporaries(w), "temporary files left after scancel: %r" % bs.temporaries(w))
    m, _ = merge(w)
    named = ["report-0.jsonl: its last run did not end", "report-1.jsonl: its last run did not end", "shard 2/3: no report",
             "manifest entries have no result"]
    check(m.returncode == 3 and all(x in m.stderr for x in named), "merge-reports.sh after scancel: exit %d, %s" % (m.returncode, m.stderr))
    print("merge-reports.sh refused (exit 3):\n  " + "\n  ".join(l for l in m.stderr.splitlines() if l.startswith("merge-reports.sh:")))
    for e in entries:  # an output not in the report yet was renamed into place whole
        out = os.path.join(w, e["output"])
        if os.path.exists(out) and e["output"] not in done:
            check(bs.run(w, "verify", out).returncode in (0, 4), "half-written output " + out)

    p, t = sbatch(cluster, w, shards, "--array=0-2")  # not slowed down: nothing is stopped this time
    check(p.returncode == 0, "resubmitted tasks exited %d: %s" % (p.returncode, p.stderr))
    m, merged = merge(w)
    check(m.returncode == 0, "merge-reports.sh after the resubmission: " + m.stderr)
    check_merged(merged, n, "after scancel and resubmission")
    check(all(r["ok"] for r in merged), "not every file done: %r" % [r for r in merged if not r["ok"]])
    reruns = [r for rep in reports for r in segments(rep)[-1] if r["event"] == "file"]
    for r in reruns:
        check(r["status"] == ("skipped" if r["output"] in done else "stamped"), "resubmission: %r (done before: %s)" % (r, r["output"] in done))
    check(not bs.temporaries(w), "temporary files left: %r" % bs.temporaries(w))
    bs.check_outputs_verify(w, merged)
    print("resubmitted: %d skipped, %d stamped, every file once in the merged report; submission to end %.1f s"
          % (sum(r["status"] == "skipped" for r in reruns), sum(r["status"] == "stamped" for r in reruns), t))


def requeue(cluster, d):
    """--requeue: a running task requeued (`scontrol requeue`, what preemption does) runs again by
    itself, appends to the same report and log, and redoes nothing it had finished."""
    w = os.path.join(d, "requeue")
    os.makedirs(os.path.join(w, "in"))
    n = 12
    entries = []
    for i in range(n):
        with open(os.path.join(w, "in", "slow-%02d.pdf" % i), "wb") as f:
            f.write(bs.tiny_pdf(bs.tiny_title(i)))
        entries.append({"input": "in/slow-%02d.pdf" % i, "record": bs.tiny_record(bs.tiny_title(i), "r-%d" % i), "output": "out/slow-%02d.pdf" % i})
    bs.write_manifest(w, entries)
    t = time.time()
    p, _ = sbatch(cluster, w, 1, wait=False, env={"PITH_BATCH_TEST_SLEEP": "in/slow-=0.5"})
    check(p.returncode == 0, "sbatch: " + p.stderr)
    job = p.stdout.strip().split(";")[0] + "_0"
    report = os.path.join(w, "reports", "report-0.jsonl")
    check(cluster.wait_for(lambda: os.path.exists(report) and len(bs.read_report(report)[1]) >= 3, 90), "the task did not start")
    q = cluster.slurm("scontrol", "requeue", job)
    check(q.returncode == 0, "scontrol requeue %s: %s" % (job, q.stderr))
    # Slurm holds a requeued job for the credential lifetime, cred_expire (10 s in this
    # slurm.conf): its old credential is revoked until then. (Polled here: sbatch --wait
    # noticed the end of a requeued job only 20 s late.)
    check(cluster.wait_for(lambda: not cluster.slurm("squeue", "-h", "-j", job).stdout.strip(), 120), "the requeued task did not finish")
    info = cluster.slurm("scontrol", "show", "job", job).stdout
    check("JobState=COMPLETED" in info and "Restarts=1" in info and "ExitCode=0:0" in info, "after the requeue:\n" + info)
    runs = segments(report)
    check(len(runs) == 2 and runs[0][-1]["event"] == "interrupted" and runs[1][-1]["event"] == "end",
          "report after requeue: %r" % [[l["event"] for l in r] for r in runs])
    done = {r["output"] for r in runs[0] if r["event"] == "file" and r["status"] == "stamped"}
    again = [r for r in runs[1] if r["event"] == "file"]
    check(len(again) == n and all(r["status"] == ("skipped" if r["output"] in done else "stamped") for r in again),
          "the requeued run: %r" % again)
    log = open(os.path.join(w, "pith-batch-%s.out" % job)).read()
    check("interrupted by SIGTERM" in log and log.count("pith batch: %d/%d files" % (n, n)) == 1,
          "the log does not hold both runs (--open-mode=append):\n" + log[-3000:])
    check(not bs.temporaries(w), "temporary files left: %r" % bs.temporaries(w))
    bs.check_outputs_verify(w, again)
    print("requeue: interrupted after %d of %d files, ran again by itself: %d skipped, %d stamped; %.1f s"
          % (len(done), n, len(done), n - len(done), time.time() - t))


def case_slurm(d):
    cluster = Cluster(os.path.join(d, "cluster"))
    os.makedirs(cluster.root)
    why = cluster.cannot()
    if why:
        print("Slurm cannot run here: " + why + "; skipping")
        return SKIP
    # ctest's timeout and Ctrl-C end the test through `finally` (and the daemons die with it).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated"))
    try:
        t = time.time()
        why = cluster.start()
        if why:
            print("Slurm did not start: " + why + "\nskipping")
            return SKIP
        print("cluster up in %.1f s (%d CPUs, slurm.conf %s)" % (time.time() - t, cluster.cpus, cluster.env["SLURM_CONF"]))
        entries = corpus_entries()
        generated = bs.make_inputs(d, n_article=4, n_tiny=8 if entries else 16)  # writes d/in; junk lines fail
        print("manifest: %s" % ("the corpus (%d PDFs) and %d generated files" % (len(entries), len(generated)) if entries
                                else "%d generated files (no corpus at %s)" % (len(generated), ARGS.shared)))
        entries = (entries or []) + [e for e, _ in generated]
        run_and_compare(cluster, d, entries, shards=4)
        cancel_and_resubmit(cluster, d)
        requeue(cluster, d)
    finally:
        cluster.stop()


def main():
    global ARGS
    ARGS = bs.parse_args(["shards", "signals", "merge", "slurm"])
    bs.run_case(globals()["case_" + ARGS.case], "pith-cluster-")


if __name__ == "__main__":
    main()
