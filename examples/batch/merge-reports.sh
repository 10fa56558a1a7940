#!/bin/sh
# Merge the JSON Lines reports of `pith batch` runs (shards, reruns) into one result per file.
#
#   examples/batch/merge-reports.sh reports/report-*.jsonl > merged.jsonl
#
# Keeps the "file" events; when a file appears more than once (a resumed or requeued run with
# --append, or reports given oldest first), the last one wins. Files are keyed by input and
# output (the checked file with --verify). Prints a summary on standard error: files per
# status, and the reports that have no "end" event (a shard that was interrupted or killed:
# run that shard again). Exit status 0 when every file is ok and every report ended, else 1.
# Needs jq. Without reruns, `cat reports/*.jsonl | jq -c 'select(.event=="file")'` is enough.
set -eu
if [ "$#" -eq 0 ]; then
    echo "usage: $0 REPORT.jsonl... > merged.jsonl" >&2
    exit 2
fi
command -v jq >/dev/null 2>&1 || { echo "$0: needs jq (apt-get install jq)" >&2; exit 2; }

unended=0
for report in "$@"; do
    last=$(jq -r 'select(.event=="start" or .event=="end" or .event=="interrupted") | .event' "$report" | tail -n 1)
    if [ "$last" != "end" ]; then
        echo "$report: did not end (${last:-no events}); run that shard again to finish it" >&2
        unended=1
    fi
done

merged=$(mktemp)
trap 'rm -f "$merged"' EXIT
jq -n -c '
  reduce (inputs | select(.event == "file")) as $r ({}; .[[$r.input, ($r.output // $r.file // "")] | tostring] = $r)
  | .[]' "$@" >"$merged"
cat "$merged"
jq -s -r '
  "merged: \(length) files; " + (group_by(.status) | map("\(.[0].status) \(length)") | join(", "))
  + "; not ok: \(map(select(.ok | not)) | length)"' "$merged" >&2
bad=$(jq -s 'map(select(.ok | not)) | length' "$merged")
[ "$bad" -eq 0 ] && [ "$unended" -eq 0 ]
