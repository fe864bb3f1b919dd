#!/usr/bin/env bash
# Shows how much of the parser's CPU time goes to the garbage collector, and
# to which part of it, on one pass over a corpus: the gctrace CPU times of
# every collection, summed by phase (stop-the-world, assists, background
# workers, idle-priority workers), with the pass's throughput, at
# GOMAXPROCS=2 (this machine's default) and at GOMAXPROCS=1 (no idle core
# for idle-priority mark workers to run on).
#
# usage: bash bench/gcshare.sh [mode] [chunk] [corpus]
#        (default: progressive 16 stream_v09.txt)
# PARSERATE=/path/to/parserate measures that binary (say, one built from a
# patched tree) instead of building bench/cmd/parserate. BORROW=1 parses
# with parser.WithBorrowedOutput (parserate -borrow).
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
mode="${1:-progressive}"
chunk="${2:-16}"
corpus="${3:-stream_v09.txt}"
tmp="$(mktemp -d)"
parserate="${PARSERATE:-$tmp/parserate}"
[ -n "${PARSERATE:-}" ] || go build -o "$parserate" ./bench/cmd/parserate
for procs in 2 1; do
  # shellcheck disable=SC2046 # one flag or none
  GOMAXPROCS=$procs GODEBUG=gctrace=1 "$parserate" $([ -n "${BORROW:-}" ] && echo -borrow) -rounds 1 -chunk "$chunk" -mode "$mode" "$shared/corpus/$corpus" 2>&1 |
    awk -v procs="$procs" '
      /^gc / {
        n++
        # "... ms clock, A+B/C/D+E ms cpu, ...": A and E stop the world;
        # B assists, C background workers, D idle-priority workers.
        split($0, f, " ms cpu")
        k = split(f[1], w, " ")
        split(w[k], t, "+")
        split(t[2], m, "/")
        stw += t[1] + t[3]; assist += m[1]; bg += m[2]; idle += m[3]
      }
      /MB\/s/ { rate = $0 }
      END {
        printf "GOMAXPROCS=%s: %d collections, GC CPU %.1f ms (stop-the-world %.1f, assists %.1f, background %.1f, idle-priority %.1f); %s\n",
          procs, n, stw + assist + bg + idle, stw, assist, bg, idle, rate
      }'
done
