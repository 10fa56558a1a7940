#!/bin/sh
# Stamp a manifest in N shards with GNU parallel, then merge the shard reports.
#
#   examples/batch/gnu-parallel.sh MANIFEST [SHARDS] [REPORT_DIR]
#
# On one machine each shard gets JOBS_PER_SHARD workers (default 1; pith batch -j N alone is
# usually simpler there). Across machines, give GNU parallel its usual remote options, for
# example PARALLEL_OPTS="--sshlogin 8/host1,8/host2 --workdir ." with the manifest, records,
# inputs and outputs on a shared file system. Rerunning the same command resumes: finished
# outputs are verified and skipped; reports are appended to, and merge-reports.sh keeps the
# last result per file. Set PITH to the pith binary (default: pith on PATH).
set -eu
MANIFEST=${1:?usage: gnu-parallel.sh MANIFEST [SHARDS] [REPORT_DIR]}
SHARDS=${2:-4}
REPORTS=${3:-reports}
PITH=${PITH:-pith}
JOBS_PER_SHARD=${JOBS_PER_SHARD:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$REPORTS"

# Exit status of parallel = number of shards that exited non-zero (1: some files failed).
status=0
# shellcheck disable=SC2086
seq 0 $((SHARDS - 1)) | parallel --will-cite --line-buffer ${PARALLEL_OPTS:-} \
    "$PITH" batch "$MANIFEST" --shard "{}/$SHARDS" -j "$JOBS_PER_SHARD" --progress lines \
    --append --report "$REPORTS/report-{}.jsonl" || status=$?

"$HERE/merge-reports.sh" --manifest "$MANIFEST" "$REPORTS"/report-*.jsonl >"$REPORTS/merged.jsonl" || status=1
echo "merged report: $REPORTS/merged.jsonl" >&2
exit "$status"
