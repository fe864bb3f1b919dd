#!/usr/bin/env bash
# Measures the a2ui-stream command line against the speed limit in one run:
# "a2ui-stream run --mode complete --chunk 16" and "a2ui-stream parse --mode
# complete --chunk 16" on 20 copies of the v0.9 corpus (17 MB) to /dev/null,
# each as MB/s of the file over the command's CPU time (bench/cmd/clirate,
# median of 5 runs), alternated with scanlimit at 16-byte chunks on the same
# file (median of 9 rounds), PAIRS times. It prints each pair's ratio and the
# medians. Targets (issue: the whole flow as one pipeline): run >= 25%,
# parse >= 35%. The column "run-pgo" is "run" built for production, with
# the profile cmd/a2ui-stream/release.pgo (bench/pgo.sh), in the same pair.
#
# usage: bash bench/cli_ratio.sh [PAIRS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
pairs="${1:-5}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$shared/tools/scanlimit" && go build -o "$tmp/scanlimit" .)
go build -o "$tmp/a2ui-stream" ./cmd/a2ui-stream
go build -pgo=cmd/a2ui-stream/release.pgo -o "$tmp/a2ui-stream-pgo" ./cmd/a2ui-stream
go build -o "$tmp/clirate" ./bench/cmd/clirate
for _ in $(seq 20); do cat "$shared/corpus/stream_v09.txt"; done >"$tmp/corpus20.txt"
printf '%-5s %10s %10s %7s %10s %7s %10s %7s\n' pair scanlimit run ratio parse ratio run-pgo ratio
runs=() parses=() pgos=()
for i in $(seq "$pairs"); do
  limit=$("$tmp/scanlimit" -chunk 16 "$tmp/corpus20.txt" | awk '{print $1}')
  run=$("$tmp/clirate" "$tmp/corpus20.txt" -- "$tmp/a2ui-stream" run --log-level error --mode complete --chunk 16 | awk '{print $1}')
  parse=$("$tmp/clirate" "$tmp/corpus20.txt" -- "$tmp/a2ui-stream" parse --mode complete --chunk 16 | awk '{print $1}')
  pgo=$("$tmp/clirate" "$tmp/corpus20.txt" -- "$tmp/a2ui-stream-pgo" run --log-level error --mode complete --chunk 16 | awk '{print $1}')
  rr=$(awk -v a="$run" -v b="$limit" 'BEGIN{printf "%.1f", 100*a/b}')
  pr=$(awk -v a="$parse" -v b="$limit" 'BEGIN{printf "%.1f", 100*a/b}')
  gr=$(awk -v a="$pgo" -v b="$limit" 'BEGIN{printf "%.1f", 100*a/b}')
  runs+=("$rr") parses+=("$pr") pgos+=("$gr")
  printf '%-5s %10s %10s %6s%% %10s %6s%% %10s %6s%%\n' "$i" "$limit" "$run" "$rr" "$parse" "$pr" "$pgo" "$gr"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
echo "median ratio: run $(median "${runs[@]}")%, parse $(median "${parses[@]}")% (targets 25% and 35%); run built with the release profile $(median "${pgos[@]}")%"
