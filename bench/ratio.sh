#!/usr/bin/env bash
# Measures the parser against the speed limit in one run: for each corpus,
# chunk size and mode, scanlimit's MB/s and the parser's MB/s (same method:
# CPU time, median of 9 rounds), and their ratio. The last column is the
# ratio of an approximate floor: allocating and copying the messages the
# parser yields and nothing else (parserate -floor), which roughly bounds
# the ratio any parser yielding the same messages can reach. The borrowed
# columns are the same with parser.WithBorrowedOutput (parserate -borrow),
# whose floor copies the output into storage reused from call to call.
#
# usage: bash bench/ratio.sh [modes...]   (default: complete delta progressive)
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
modes=("${@:-complete delta progressive}")
tmp="$(mktemp -d)"
(cd "$shared/tools/scanlimit" && go build -o "$tmp/scanlimit" .)
go build -o "$tmp/parserate" ./bench/cmd/parserate
printf '%-14s %6s %-12s %10s %10s %7s %7s %9s %7s %7s\n' corpus chunk mode scanlimit parser ratio floor borrowed ratio floor
for corpus in stream_v09.txt stream_v08.txt; do
  for chunk in 4 16 256 65536; do
    for mode in ${modes[*]}; do
      limit=$("$tmp/scanlimit" -chunk "$chunk" "$shared/corpus/$corpus" | awk '{print $1}')
      row=("${corpus%.txt}" "$chunk" "$mode" "$limit")
      for borrow in "" -borrow; do
        # shellcheck disable=SC2086 # $borrow is empty or one flag
        ours=$("$tmp/parserate" $borrow -chunk "$chunk" -mode "$mode" "$shared/corpus/$corpus" | awk '{print $1}')
        # shellcheck disable=SC2086
        floor=$("$tmp/parserate" $borrow -floor -chunk "$chunk" -mode "$mode" "$shared/corpus/$corpus" | awk '{print $1}')
        row+=("$ours" "$(awk -v a="$ours" -v b="$limit" 'BEGIN{printf "%.1f%%", 100*a/b}')" \
          "$(awk -v a="$floor" -v b="$limit" 'BEGIN{printf "%.0f%%", 100*a/b}')")
      done
      printf '%-14s %6s %-12s %10s %10s %7s %7s %9s %7s %7s\n' "${row[@]}"
    done
  done
done
