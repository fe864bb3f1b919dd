#!/usr/bin/env bash
# Compares two builds of bench/cmd/parserate (e.g. one built from an older
# tree, which needs this tree's bench/cmd/parserate/main.go for -catalog)
# against scanlimit, alternating round by round: complete mode at 16 and
# 256 bytes, progressive and delta with borrowed output at 16 bytes, and
# both with the specification's catalog (v0.9 basic on the v0.9 corpus,
# v0.8 standard on the v0.8 corpus). Prints, per corpus and cell, the
# median ratio to the scanlimit run of the same round and its range.
#
# usage: bash bench/before_after.sh OLD_PARSERATE NEW_PARSERATE [rounds]  (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bash bench/before_after.sh OLD_PARSERATE NEW_PARSERATE [rounds]" >&2
  exit 2
fi
old="$1" new="$2" rounds="${3:-5}"
shared="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
shared="$(cd "$shared" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$shared/tools/scanlimit" && go build -o "$tmp/scanlimit" .)
. bench/spec_catalogs.sh
rate() { "$@" | awk '{print $1}'; }
for r in $(seq "$rounds"); do
  for c in v09 v08; do
    f="$shared/corpus/stream_$c.txt"
    l16=$(rate "$tmp/scanlimit" -chunk 16 "$f")
    l256=$(rate "$tmp/scanlimit" -chunk 256 "$f")
    for b in old new; do
      p="$old"
      if [ "$b" = new ]; then p="$new"; fi
      {
        echo "$c complete-16 $b $(rate "$p" -rounds 3 -chunk 16 -mode complete "$f") $l16"
        echo "$c complete-256 $b $(rate "$p" -rounds 3 -chunk 256 -mode complete "$f") $l256"
        echo "$c progressive $b $(rate "$p" -borrow -rounds 3 -chunk 16 -mode progressive "$f") $l16"
        echo "$c delta $b $(rate "$p" -borrow -rounds 3 -chunk 16 -mode delta "$f") $l16"
        echo "$c progressive+catalog $b $(rate "$p" -borrow -rounds 1 -chunk 16 -mode progressive -catalog "$tmp/$c.yaml" "$f") $l16"
        echo "$c delta+catalog $b $(rate "$p" -borrow -rounds 1 -chunk 16 -mode delta -catalog "$tmp/$c.yaml" "$f") $l16"
      } >>"$tmp/rows"
    done
  done
done
# corpus cell build ratio%, then the median and range of each group.
awk '{printf "%s %s %s %.2f\n", $1, $2, $3, 100*$4/$5}' "$tmp/rows" | sort -k1,1 -k2,2 -k3,3 -k4,4g | awk -f bench/medians.awk
