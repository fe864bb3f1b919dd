#!/usr/bin/env bash
# Measures the processor against the reference renderer core,
# @a2ui/web_core 0.11's v0.9 MessageProcessor (bench/reference/), in one run:
# for each row, the reference's messages/s and ours on the 200 lists of
# ../shared/corpus/stream_v09.txt (same method: process CPU time, median of
# rounds, a fresh processor per pass), alternating the two, and their ratio.
#
# Two inputs per row: "text" starts from each list's JSON text (the reference
# runs JSON.parse then processMessages; ours runs processor.SplitList then
# ProcessList, which reads the raw messages); "decoded" times only
# processMessages on parsed lists and only ProcessList on split lists.
#
# Rows (reference mode / our mode):
#   none  / structural  no component property checks / envelope checks only
#   none  / topology    no component property checks / + topology (default)
#   basic / schema      basic catalog Zod schemas / + basic catalog JSON Schema
#
# Needs node and npm; installs @a2ui/web_core into bench/reference/node_modules
# on first use (no lockfile is written).
#
# usage: bash bench/processor_vs_reference.sh [-rounds N]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=9
if [[ $# -gt 0 ]]; then
  if [[ $# -ne 2 || "$1" != "-rounds" ]]; then
    echo "usage: bash bench/processor_vs_reference.sh [-rounds N]" >&2
    exit 2
  fi
  rounds="$2"
fi
shared="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
corpus="$shared/corpus/stream_v09.txt"
spec="$shared/a2ui/specification/v0_9_1"
for f in "$corpus" "$spec/catalogs/basic/catalog.json"; do
  if [[ ! -e "$f" ]]; then
    echo "processor_vs_reference: $f not found (set A2UI_SHARED to the shared directory)" >&2
    exit 1
  fi
done
for tool in node npm go; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "processor_vs_reference: $tool not found on PATH; the reference side needs Node.js (>= 20.10: web_core imports JSON modules) and npm" >&2
    exit 1
  fi
done
if [[ ! -e bench/reference/node_modules/@a2ui/web_core/package.json ]]; then
  echo "processor_vs_reference: installing @a2ui/web_core into bench/reference/node_modules" >&2
  npm install --prefix bench/reference --no-package-lock --no-audit --no-fund >&2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/procrate" ./bench/cmd/procrate

echo "node $(node --version), @a2ui/web_core $(node -p "require('./bench/reference/node_modules/@a2ui/web_core/package.json').version"), $(go version | awk '{print $3}'), rounds $rounds"
printf '%-18s %-8s %12s %12s %7s\n' "ref/ours" input reference ours ratio
for row in none:structural none:topology basic:schema; do
  ref_mode="${row%%:*}"
  our_mode="${row##*:}"
  ref=$(node bench/reference/webcore_processor.mjs -mode "$ref_mode" -rounds "$rounds" "$corpus")
  ours=$("$tmp/procrate" -mode "$our_mode" -rounds "$rounds" -spec "$spec" "$corpus")
  # Both print "<text rate> msgs/s ...; <decoded rate> msgs/s ...; ...".
  ref_text=$(awk '{print $1}' <<<"$ref")
  ref_dec=$(awk -F'; ' '{split($2, a, " "); print a[1]}' <<<"$ref")
  our_text=$(awk '{print $1}' <<<"$ours")
  our_dec=$(awk -F'; ' '{split($2, a, " "); print a[1]}' <<<"$ours")
  for input in text decoded; do
    if [[ $input == text ]]; then r=$ref_text; o=$our_text; else r=$ref_dec; o=$our_dec; fi
    ratio=$(awk -v a="$o" -v b="$r" 'BEGIN{printf "%.2fx", a/b}')
    printf '%-18s %-8s %12s %12s %7s\n' "$ref_mode/$our_mode" "$input" "$r" "$o" "$ratio"
  done
  # Anything else the reference reported (failed messages, stopped lists).
  grep -v 'msgs/s' <<<"$ref" | sed "s/^/  reference $ref_mode: /" || true
  if ! grep -q ' 0 failed alone, 0 lists stopped early' <<<"$ref"; then
    echo "  reference $ref_mode: $(sed -n 's/.*mode [a-z]*, //p' <<<"$ref" | head -1)"
  fi
  if ! grep -q ' 0 failed,' <<<"$ours"; then
    echo "  ours $our_mode: $(sed -n 's/.*mode [a-z]*, //p' <<<"$ours")"
  fi
done
