#!/usr/bin/env bash
# Measures the progressive and delta modes with and without a catalog
# against the speed limit, alternating scanlimit and the parser round by
# round (16-byte chunks, borrowed output): v0.9 corpus with the
# specification's v0.9 basic catalog, v0.8 corpus with its standard
# catalog. Each line is one round; the ratio is to the scanlimit run just
# before it. PARSERATE=path uses another parserate binary (e.g. one built
# from an older tree) in place of this tree's.
#
# usage: bash bench/catalog_ratio.sh [rounds]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
shared="$(cd "$shared" && pwd)"
rounds="${1:-5}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$shared/tools/scanlimit" && go build -o "$tmp/scanlimit" .)
parserate="${PARSERATE:-}"
if [ -z "$parserate" ]; then
  go build -o "$tmp/parserate" ./bench/cmd/parserate
  parserate="$tmp/parserate"
fi
. bench/spec_catalogs.sh
printf '%-6s %-10s %-12s %-8s %10s %8s %7s\n' round corpus mode catalog scanlimit parser ratio
for r in $(seq "$rounds"); do
  for corpus in v09 v08; do
    file="$shared/corpus/stream_$corpus.txt"
    for mode in progressive delta; do
      for cat in none basic; do
        limit=$("$tmp/scanlimit" -chunk 16 "$file" | awk '{print $1}')
        args=(-borrow -rounds 3 -chunk 16 -mode "$mode")
        if [ "$cat" = basic ]; then args+=(-catalog "$tmp/$corpus.yaml"); fi
        ours=$("$parserate" "${args[@]}" "$file" | awk '{print $1}')
        printf '%-6s %-10s %-12s %-8s %10s %8s %7s\n' "$r" "stream_$corpus" "$mode" "$cat" "$limit" "$ours" \
          "$(awk -v a="$ours" -v b="$limit" 'BEGIN{printf "%.2f%%", 100*a/b}')"
      done
    done
  done
done
