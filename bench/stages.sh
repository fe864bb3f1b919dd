#!/usr/bin/env bash
# Instructions per corpus pass of a command, by stage, with cachegrind: the
# command run with "-rounds 3" less the command with "-rounds 1", halved,
# each function's count put in the first stage whose pattern its file and
# name match (GOGC=off, GOMAXPROCS=1, as bench/icount.sh counts). It says
# where a build's instructions go, beside another's: the stages are those
# of the progressive modes (the first deltaproto, 0e00a2a, has its framing
# in its scanner).
#
# usage: bash bench/stages.sh COMMAND ARGS...   (ARGS without -rounds, which goes first)
# e.g.   bash bench/stages.sh /tmp/parserate -borrow -chunk 16 -mode delta ../shared/corpus/stream_v09.txt
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: bash bench/stages.sh COMMAND ARGS..." >&2
  exit 2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for r in 1 3; do
  GOGC=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$tmp/cg$r" "$1" -rounds "$r" "${@:2}" >/dev/null 2>&1
done
cg_diff "$tmp/cg1" "$tmp/cg3" >"$tmp/diff" 2>/dev/null
cg_annotate --auto=no --threshold=0 "$tmp/diff" | awk '
function stage(f) {
  if (f ~ /\/parser\/|frame\/|parserate|floor\.go|weak\//) return "framing and the parser'"'"'s calls"
  if (f ~ /scan\.go|grammar\.go|jsonwire|indexbyte|IndexByte|escapedID|outside|\.feed$|stringEnd|\(\*engine\)\.(open|close)$/) return "scan: grammar, strings, keys"
  if (f ~ /heal\.go|data\.go|data08\.go|record\.go|canonical\.go|walk\.go|contents\.go|\(\*engine\)\.(endOfChunk|healEnd|heal|data[A-Za-z]*)$/) return "heal: the open component, data"
  if (f ~ /entries\.go|topology|ids\.go|\(\*engine\)\.(component|update|reach|take|newEntry)/) return "entries: references, reachability"
  if (f ~ /yield\.go|flush|sort|maphash|Messages|Flush|UseOutput|compare/) return "yield: write, sort, hash"
  if (f ~ /malloc|mbitmap|mcache|mcentral|mheap|msize|slice\.go|mgc|mspan|string\.go|runtime1|mbarrier/) return "allocation"
  if (f ~ /maps|aeshash|strhash|memhash/) return "maps"
  if (f ~ /memmove|equal_amd64|memclr/) return "memmove, memequal"
  return "other"
}
/^ *[0-9,]+ +\( *[0-9.]+%\) +[^ <]/ && !/PROGRAM TOTALS/ && !/>$/ {
  n = $1; gsub(",", "", n); name = $NF; s[stage(name)] += n; t += n
}
END {
  for (k in s) printf "%7.1f M  %s\n", s[k] / 2e6, k
  printf "%7.1f M  total\n", t / 2e6
}' | sort -rn
