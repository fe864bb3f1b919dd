#!/usr/bin/env bash
# Measures the parser against the reference streaming parser, the official
# Python SDK's A2uiStreamParser (github.com/google/A2UI,
# agent_sdks/python/src/a2ui/parser/streaming.py, or
# agent_sdks/python/src/a2ui/core/parser/streaming.py in older layouts:
# both are accepted), in one run, on the
# same bytes: for each corpus, the reference's MB/s and ours in progressive
# mode (the mode the reference implements), the same chunk size, and their
# ratio, with the number of A2UI messages each yielded.
#
# The reference is thousands of times slower, so only a prefix of each
# corpus is measured: its first TURNS turns, cut with the byte offsets in
# ../shared/corpus/stream_v0{9,8}.turns.json. The reference runs with the
# basic catalog of the corpus's version (bench/reference_python/parserate.py
# builds it from the specification files), which it needs to pick its v0.9
# or v0.8 parser and validates every yield against; ours
# (bench/cmd/parserate) runs without a catalog. Both time process CPU time;
# the reference takes the median of $REF_ROUNDS rounds (default 3), ours
# the median of 9.
#
# A second row per corpus ("novalid") runs the reference with its
# validator switched off (parserate.py --no-validate), to show how much of
# its time is the JSON Schema validation of each yield.
#
# Message counts differ by design (ours de-duplicates and differs where
# the reference is wrong; see parser/progressive.go); they are printed,
# not compared. If the reference raises, the error is counted and printed.
#
# Needs a checkout of github.com/google/A2UI (the reference is imported
# from CHECKOUT/agent_sdks/python/src), python3 >= 3.10 with jsonschema, go.
#
# usage: bash bench/parser_vs_reference.sh CHECKOUT [turns] [chunk]
#        (defaults: 5 turns, 16-byte chunks)
set -euo pipefail
if [[ $# -lt 1 || $# -gt 3 ]]; then
  echo "usage: bash bench/parser_vs_reference.sh PATH_TO_A2UI_CHECKOUT [turns] [chunk]" >&2
  exit 2
fi
checkout="$(cd "$1" && pwd)"
turns="${2:-5}"
chunk="${3:-16}"
ref_rounds="${REF_ROUNDS:-3}"
cd "$(dirname "$0")/.."
src="$checkout/agent_sdks/python/src"
shared="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
# The SDK's package: a2ui/parser and a2ui/schema in current checkouts,
# a2ui/core/parser and a2ui/core/schema in older ones.
if [[ ! -f "$src/a2ui/parser/streaming.py" && ! -f "$src/a2ui/core/parser/streaming.py" ]]; then
  echo "parser_vs_reference: neither $src/a2ui/parser/streaming.py nor $src/a2ui/core/parser/streaming.py found (give the root of a google/A2UI checkout)" >&2
  exit 1
fi
for f in stream_v09.txt stream_v09.turns.json stream_v08.txt stream_v08.turns.json; do
  if [[ ! -e "$shared/corpus/$f" ]]; then
    echo "parser_vs_reference: $shared/corpus/$f not found (set A2UI_SHARED to the shared directory)" >&2
    exit 1
  fi
done
for tool in python3 go; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "parser_vs_reference: $tool not found on PATH" >&2
    exit 1
  fi
done
if ! [[ "$turns" =~ ^[1-9][0-9]*$ && "$chunk" =~ ^[1-9][0-9]*$ ]]; then
  echo "parser_vs_reference: turns and chunk must be positive integers" >&2
  exit 2
fi
export A2UI_SHARED="$shared"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/parserate" ./bench/cmd/parserate

# prefix CORPUS OUT: writes the first $turns turns of CORPUS to OUT and
# prints their size in bytes.
prefix() {
  python3 - "$shared/corpus/$1.txt" "$shared/corpus/$1.turns.json" "$turns" "$2" <<'PY'
import json, sys
text, turns_file, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
offsets = json.load(open(turns_file))["offsets"]
if n > len(offsets):
    sys.exit(f"parser_vs_reference: {turns_file} has only {len(offsets)} turns")
data = open(text, "rb").read()[offsets[0][0]:offsets[n - 1][1]]
open(out, "wb").write(data)
print(len(data))
PY
}

echo "$(python3 --version), $(go version | awk '{print $3}'), reference from $src"
echo "first $turns turns of each corpus, $chunk-byte chunks; reference: median of $ref_rounds, ours (progressive): median of 9"
printf '%-11s %-10s %8s %12s %10s %9s %9s %9s\n' corpus reference bytes ref-MB/s our-MB/s ratio ref-msgs our-msgs
notes=()
for corpus in stream_v09:0.9 stream_v08:0.8; do
  name="${corpus%%:*}"
  version="${corpus##*:}"
  file="$tmp/$name.txt"
  bytes=$(prefix "$name" "$file")
  ours=$("$tmp/parserate" -mode progressive -chunk "$chunk" "$file")
  o=$(awk '{print $1}' <<<"$ours")
  om=$(sed -n 's/.*, \([0-9]*\) messages,.*/\1/p' <<<"$ours")
  for kind in validating novalid; do
    flags=()
    if [[ $kind == novalid ]]; then flags=(--no-validate); fi
    ref=$(python3 bench/reference_python/parserate.py --src "$src" --version "$version" \
      --chunk "$chunk" --rounds "$ref_rounds" "${flags[@]}" "$file")
    # Both print "<rate> MB/s (chunk N, ..., M messages, median of R...)...".
    r=$(awk '{print $1}' <<<"$ref")
    rm_=$(sed -n 's/.*, \([0-9]*\) messages,.*/\1/p' <<<"$ref")
    ratio=$(awk -v a="$o" -v b="$r" 'BEGIN{printf "%.0fx", a/b}')
    printf '%-11s %-10s %8s %12s %10s %9s %9s %9s\n' "$name" "$kind" "$bytes" "$r" "$o" "$ratio" "$rm_" "$om"
    if [[ "$ref" == *"; "* ]]; then
      notes+=("  reference $name $kind: ${ref#*; }")
    fi
  done
done
if [[ ${#notes[@]} -gt 0 ]]; then
  printf '%s\n' "${notes[@]}"
else
  echo "  the reference raised no error"
fi
