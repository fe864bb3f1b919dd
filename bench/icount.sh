#!/usr/bin/env bash
# Instructions per corpus parse of a bench/cmd/parserate build, by
# cachegrind: the parse run 5 times minus the parse run once, divided by 4
# (so that start-up and the file read cancel out), for delta and
# progressive mode on both corpora, at 16-byte chunks with borrowed output.
# Exact where time figures are noisy; GOMAXPROCS=1 puts the collector's
# work in the same count. With --nogc (GOGC=off) the count is the parse's
# own work only: the collector's pace follows the live heap and wall-clock
# time, so counts with it move by a few percent from run to run.
#
# usage: bash bench/icount.sh [--nogc] PARSERATE   (needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
gogc=100
if [ "${1:-}" = --nogc ]; then
  gogc=off
  shift
fi
if [ $# -ne 1 ]; then
  echo "usage: bash bench/icount.sh [--nogc] PARSERATE" >&2
  exit 2
fi
p="$1"
shared="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
refs() {
  GOGC=$gogc GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$p" -borrow -chunk 16 "$@" 2>&1 | awk '/I *refs/ { gsub(",", "", $4); print $4 }'
}
for c in v09 v08; do
  for m in delta progressive; do
    f="$shared/corpus/stream_$c.txt"
    one=$(refs -rounds 1 -mode "$m" "$f")
    five=$(refs -rounds 5 -mode "$m" "$f")
    echo "$c $m $(((five - one) / 4))"
  done
done
