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
# With --bound (implies --nogc) it counts instead what bounds the
# progressive modes from below, in the same units: the boundary scanner
# ../shared/tools/scanlimit, complete mode (framing and the grammar every
# mode runs), the parser's delta and progressive modes, and
# bench/cmd/deltaproto in both modes (internal/deltaengine, the engine of
# those modes, with tags framing and no more), each with its ratio to
# scanlimit.
#
# With --bound and FIRST=COMMIT in the environment it also counts, on the
# v0.9 corpus, the first deltaproto built at COMMIT (0e00a2a: the measuring
# stick the issue's delta target came from; bench/first_proto.sh).
#
# With --catalog (implies --nogc) it counts the four cells with the
# specification's catalogs (bench/spec_catalogs.sh: v0.9 basic, v0.8
# standard), as bench/catalog_ratio.sh times them.
#
# usage: bash bench/icount.sh [--nogc | --bound | --catalog] PARSERATE   (needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
gogc=100
bound=
catalog=
case "${1:-}" in
--nogc) gogc=off; shift ;;
--bound) gogc=off; bound=1; shift ;;
--catalog) gogc=off; catalog=1; shift ;;
esac
if [ $# -ne 1 ]; then
  echo "usage: bash bench/icount.sh [--nogc | --bound | --catalog] PARSERATE" >&2
  exit 2
fi
p="$1"
shared="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
shared="$(cd "$shared" && pwd)"
# count BIN ARGS...: instructions per round of BIN.
count() {
  local bin="$1"
  shift
  local one five
  one=$(refs "$bin" -rounds 1 "$@")
  five=$(refs "$bin" -rounds 5 "$@")
  echo $(((five - one) / 4))
}
refs() {
  GOGC=$gogc GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$@" 2>&1 | awk '/I *refs/ { gsub(",", "", $4); print $4 }'
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$bound" ]; then
  . bench/spec_catalogs.sh
  for c in v09 v08; do
    cat=()
    if [ -n "$catalog" ]; then cat=(-catalog "$tmp/$c.yaml"); fi
    for m in delta progressive; do
      echo "$c $m${catalog:+ +catalog} $(count "$p" -borrow -chunk 16 -mode "$m" "${cat[@]}" "$shared/corpus/stream_$c.txt")"
    done
  done
  exit 0
fi
(cd "$shared/tools/scanlimit" && go build -o "$tmp/scanlimit" .)
go build -o "$tmp/deltaproto" ./bench/cmd/deltaproto
. bench/first_proto.sh
for c in v09 v08; do
  f="$shared/corpus/stream_$c.txt"
  limit=$(count "$tmp/scanlimit" -chunk 16 "$f")
  echo "$c scanlimit $limit"
  cells=("complete:$p -borrow -mode complete" "delta:$p -borrow -mode delta" "progressive:$p -borrow -mode progressive"
    "deltaproto:$tmp/deltaproto" "deltaproto-progressive:$tmp/deltaproto -progressive")
  if [ -n "${FIRST:-}" ] && [ "$c" = v09 ]; then
    cells+=("first-deltaproto:$tmp/deltaproto-first")
  fi
  for cell in "${cells[@]}"; do
    # shellcheck disable=SC2086 # the command's words
    n=$(count ${cell#*:} -chunk 16 "$f")
    awk -v c="$c" -v m="${cell%%:*}" -v n="$n" -v l="$limit" 'BEGIN { printf "%s %s %d (scanlimit/this: %.1f%%)\n", c, m, n, 100 * l / n }'
  done
done
