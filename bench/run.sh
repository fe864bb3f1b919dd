#!/usr/bin/env bash
# Runs "a2ui-stream bench" on the shared corpus (../shared/corpus/*.txt,
# one parse per turn with the corpus's *.turns.json) and refreshes what
# bench/README.md shows:
#   bench/results/DATE.json  the results (schema: bench/perf/result.schema.json)
#   bench/results/DATE.txt   their table
#   bench/plots/*.svg        the plots (throughput, heap per session, scaling)
#   bench/README.md          the table between its "bench:table" markers
# DATE is today's UTC date. Extra arguments go to the command (say,
# --rounds 5). The command itself needs none of this: it runs on any file.
#
# usage: bash bench/run.sh [bench flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
if ! compgen -G "$shared/corpus/*.txt" >/dev/null; then
  echo "run.sh: no $shared/corpus/*.txt (set A2UI_SHARED to the shared directory)" >&2
  exit 1
fi
date="$(date -u +%Y-%m-%d)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/a2ui-stream" ./cmd/a2ui-stream
mkdir -p bench/results bench/plots
json="bench/results/$date.json"
"$tmp/a2ui-stream" bench --json --turns auto --scaling "$@" "$shared"/corpus/*.txt >"$tmp/results.json"
mv "$tmp/results.json" "$json"
rm -f bench/plots/*.svg
"$tmp/a2ui-stream" bench --from "$json" --plot bench/plots >"bench/results/$date.txt"

# The table in bench/README.md, between the markers, with its date,
# machine load and command.
{
  echo "Run on $(date -u '+%Y-%m-%d %H:%M') UTC, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) at the end,"
  echo "with \`bash bench/run.sh${*:+ $*}\` (results: \`$json\`):"
  echo
  echo '```text'
  cat "bench/results/$date.txt"
  echo '```'
} >"$tmp/table.md"
awk -v table="$tmp/table.md" '
  /<!-- bench:table:start -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
  /<!-- bench:table:end -->/ { skip = 0 }
  !skip { print }
' bench/README.md >"$tmp/README.md"
mv "$tmp/README.md" bench/README.md
echo "run.sh: wrote $json, bench/results/$date.txt, bench/plots/*.svg and the table in bench/README.md" >&2
