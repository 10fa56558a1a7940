#!/bin/sh
# SPDX-License-Identifier: MIT
# Times open + page 1 + small incremental update (pdf_update_probe) against cp.
# usage: bench/pdf_bench.sh PROBE FILE... ; prints best-of-5 wall time and peak RSS.
probe=$1; shift
out=$(mktemp -d)
best() { # cmd... -> "secs rss_kb" (best of 5)
  b=""; r=""
  for i in 1 2 3 4 5; do
    /usr/bin/time -f "%e %M" -o "$out/t" "$@" >/dev/null 2>&1
    read t m < "$out/t"
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; r=$m; fi
  done
  echo "$b $r"
}
printf "%-45s %9s %8s | %9s %8s | %s\n" file cp_s cp_kB probe_s probe_kB added_bytes
for f in "$@"; do
  c=$(best cp "$f" "$out/cp.pdf")
  p=$(best "$probe" "$f" "$out/o.pdf" --first-page-only --quiet)
  added=$(( $(stat -c %s "$out/o.pdf") - $(stat -c %s "$f") ))
  printf "%-45s %9s %8s | %9s %8s | %s\n" "$(basename "$f")" $c $p "$added"
done
rm -rf "$out"
