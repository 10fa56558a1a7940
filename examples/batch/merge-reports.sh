#!/bin/sh
# Merge the JSON Lines reports of `pith batch` shards (and their reruns) into one result per
# manifest entry, and refuse, naming them, the gaps a scheduler can leave.
#
#   examples/batch/merge-reports.sh [--manifest MANIFEST] REPORT.jsonl... > merged.jsonl
#
# Keeps the "file" events, one per manifest line (the last one when a shard ran more than once
# with --append), in manifest order, and prints a summary on standard error. Every run's start
# line names its shard I/N and the manifest's SHA-256; the merge fails (exit 3), saying what
# and where, when
#   - a report's last run did not end (interrupted or killed: run that shard again),
#   - the reports ran against different manifests (or, with --manifest, not against MANIFEST),
#   - they split it differently (two values of N), a shard I/N has no report, or two reports
#     hold the same shard,
#   - a manifest entry has no result (named by its line with --manifest, counted per shard
#     without).
# Exit status: 0 every entry has a result and every result is ok; 1 complete, but some files
# are not ok (failed, or not trusted with --verify): see merged.jsonl; 2 usage; 3 incomplete.
# Needs jq and sha256sum.
set -eu
usage() { echo "usage: $0 [--manifest MANIFEST] REPORT.jsonl... > merged.jsonl" >&2; exit 2; }
manifest=
if [ "${1:-}" = "--manifest" ]; then
    [ "$#" -ge 2 ] || usage
    manifest=$2
    shift 2
fi
[ "$#" -gt 0 ] || usage
command -v jq >/dev/null 2>&1 || { echo "$0: needs jq (apt-get install jq)" >&2; exit 2; }
for report in "$@"; do
    [ -r "$report" ] || { echo "$0: $report: cannot read it" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The manifest's hash and the lines that are entries (not blank, not # comments), as pith reads it.
want_sha=
if [ -n "$manifest" ]; then
    [ -r "$manifest" ] || { echo "$0: $manifest: cannot read it" >&2; exit 2; }
    want_sha=$(sha256sum <"$manifest" | cut -d' ' -f1)
    awk '{ sub(/\r$/, ""); s = $0; sub(/^[ \t]+/, "", s); if (s != "" && substr(s, 1, 1) != "#") print NR }' "$manifest" >"$work/entries"
else
    : >"$work/entries"
fi

# Each report's runs (split at start lines), each with its start line, how it ended and its results.
jq -n -c '
  reduce (inputs | . + {_report: input_filename}) as $e ({};
    .[$e._report] as $runs
    | if $e.event == "start" or $runs == null then .[$e._report] += [{start: (if $e.event == "start" then $e else null end), last: "start", files: []}] else . end
    | (.[$e._report] | length - 1) as $i
    | if $e.event == "file" then .[$e._report][$i].files += [$e | del(._report)]
      elif $e.event == "start" then .
      else .[$e._report][$i].last = $e.event end)
  | to_entries | map({report: .key, runs: .value})' "$@" >"$work/runs"

jq -r -n --arg want "$want_sha" --arg manifest "$manifest" --slurpfile reports "$work/runs" --slurpfile entries "$work/entries" -f /dev/stdin >"$work/problems" <<'JQ'
def short: if . == null then "none" else .[0:12] + "…" end;
def shard_of: (.start.shard // "0/1") | split("/") | map(tonumber);
($reports[0]) as $R
| ($R | map(. + {last_run: .runs[-1]})) as $R
| (if $want != "" then $want
   else ($R | map(.last_run.start.manifest_sha256) | unique | if length == 1 then .[0] else "" end) end) as $ref  # "": they disagree
| ($R | map(.last_run.start.shard // "0/1" | split("/")[1]) | unique) as $counts
# 1. every report's last run ended
| ( $R[] | select(.last_run.last != "end")
  | "\(.report): its last run did not end (\(if .last_run.last == "interrupted" then "interrupted" else "killed, or still running: no end line" end)): run shard \(.last_run.start.shard // "0/1") again to finish it" ),
# 2. one manifest
( if $ref == "" then
    "the reports ran against different manifests: " + ($R | group_by(.last_run.start.manifest_sha256)
      | map("sha256 \(.[0].last_run.start.manifest_sha256 | short) in \(map(.report) | join(", "))") | join("; "))
  else ($R[] | select(.last_run.start.manifest_sha256 != $ref)
    | "\(.report): shard \(.last_run.start.shard // "?") ran against another manifest (sha256 \(.last_run.start.manifest_sha256 | short), "
      + (if $want != "" then "\($manifest) is \($ref | short))" else "the others \($ref | short))" end)) end ),
# 3. one split, every shard once
( if ($counts | length) > 1 then
    "the reports split the manifest in different numbers of shards: " + ($R | map("\(.report) \(.last_run.start.shard)") | join(", "))
  else ($counts[0] | tonumber) as $n
    | ($R | map(.last_run | shard_of | .[0])) as $have
    | ( [range(0; $n)] - $have | .[] | "shard \(.)/\($n): no report (that task never ran: run it)" ),
      ( $R | group_by(.last_run | shard_of | .[0]) | .[] | select(length > 1)
        | "shard \(.[0].last_run.start.shard): in more than one report (\(map(.report) | join(", ")))" )
  end ),
# 4. every entry has a result: per shard, the results of its runs against this manifest
( $R[] | select($ref == "" or .last_run.start.manifest_sha256 == $ref)
  | ([.runs[] | select($ref == "" or .start.manifest_sha256 == $ref) | .files[].line] | unique | length) as $got
  | select($got < .last_run.start.total)
  | "\(.report): shard \(.last_run.start.shard) has results for \($got) of its \(.last_run.start.total) entries" ),
( if $ref != "" and ($counts | length) == 1 and ($R | length) == ($counts[0] | tonumber)
     and ($R | all(.last_run.start.manifest_sha256 == $ref)) then
    ($R | map(.last_run.start.total) | add) as $sum | ($R[0].last_run.start.manifest_entries) as $all
    | select($sum != $all) | "the shards hold \($sum) entries, the manifest \($all)"
  else empty end ),
( if $want != "" then
    ([$R[].runs[] | select(.start.manifest_sha256 == $ref) | .files[].line] | unique) as $lines
    | ($entries - $lines) as $missing
    | select($missing | length > 0)
    | "\($missing | length) manifest entries have no result: " + ($missing[0:10] | map("\($manifest):\(.)") | join(", "))
      + (if ($missing | length) > 10 then ", …" else "" end)
  else empty end )
JQ

# The results: the last one per manifest line, of the runs against the manifest merged.
jq -c -n --arg want "$want_sha" --slurpfile reports "$work/runs" '
  ($reports[0]) as $R
  | (if $want != "" then $want else ($R | map(.runs[-1].start.manifest_sha256) | unique | .[0]) end) as $ref
  | reduce ($R[].runs[] | select(.start.manifest_sha256 == $ref) | .files[]) as $f ({}; .[$f.line | tostring] = $f)
  | [.[]] | sort_by(.line) | .[]' >"$work/merged"
cat "$work/merged"
jq -s -r '
  "merged: \(length) files; " + (group_by(.status) | map("\(.[0].status) \(length)") | join(", "))
  + "; not ok: \(map(select(.ok | not)) | length)"' "$work/merged" >&2
if [ -s "$work/problems" ]; then
    sed 's/^/merge-reports.sh: /' "$work/problems" >&2
    echo "merge-reports.sh: INCOMPLETE: $(wc -l <"$work/problems") problem(s) above; the merged report lacks work" >&2
    exit 3
fi
bad=$(jq -s 'map(select(.ok | not)) | length' "$work/merged")
[ "$bad" -eq 0 ] || exit 1
