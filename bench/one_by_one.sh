#!/usr/bin/env bash
# Output of the progressive modes on one adversarial shape: a root listing
# N children, each of which then arrives in an updateComponents message of
# its own (every arrival changes the root's processed form). Writes the
# block to a temporary file and prints, per mode, the input and output
# bytes and the time of `a2ui-stream parse --chunk 16`.
#
# usage: bash bench/one_by_one.sh [N]   (default 8000; needs python3)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-8000}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/a2ui-stream" ./cmd/a2ui-stream
python3 - "$n" "$tmp/in.txt" <<'PY'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
msgs = [{"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Column", "children": ["m%d" % i for i in range(n)]}]}}]
msgs += [{"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
    {"id": "m%d" % i, "component": "Text", "text": "item %d" % i}]}} for i in range(n)]
open(path, "w").write("<a2ui-json>[" + ",".join(json.dumps(m) for m in msgs) + "]</a2ui-json>")
PY
in=$(wc -c <"$tmp/in.txt")
for mode in delta progressive; do
  start=$(date +%s.%N)
  out=$("$tmp/a2ui-stream" parse --mode "$mode" --chunk 16 "$tmp/in.txt" | wc -c)
  end=$(date +%s.%N)
  echo "$mode: $n children, input $in B, output $out B, $(echo "$end - $start" | bc) s"
done
