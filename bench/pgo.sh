#!/usr/bin/env bash
# Writes cmd/a2ui-stream/release.pgo, the CPU profile to build the
# a2ui-stream command with for production (profile-guided optimisation):
#
#   go build -pgo=cmd/a2ui-stream/release.pgo ./cmd/a2ui-stream
#
# It is not named default.pgo, which the go command would use for every
# build and test of the command: each would compile the command's whole
# dependency graph again for the profile, which made a first "go test ./..."
# take 126 s instead of 51 (README, "Benchmarks"). The profile is the work
# the command does, on the shared corpora at 16-byte chunks:
#
#   - the parser in complete, progressive and delta mode, both corpora,
#     owned and borrowed output (parser benchmarks "V0[89]Chunk16");
#   - the pipeline of "a2ui-stream run" (stream's BenchmarkPipeline*);
#   - the processor, with and without topology and schema checks
#     (bench's BenchmarkProcessor*).
#
# The go command refuses -cpuprofile for several packages at once, so each
# package writes its own profile, merged by "go tool pprof -proto" (samples
# summed: each workload weighs what its CPU time does).
#
# Run it again after changes to hot paths; a stale profile still builds
# (the compiler ignores what no longer matches), it only helps less.
#
# usage: bash bench/pgo.sh   (needs the shared corpora: $A2UI_SHARED, default ../shared)
set -euo pipefail
cd "$(dirname "$0")/.."
export A2UI_SHARED="${A2UI_SHARED:-$(cd .. && pwd)/shared}"
if [ ! -d "$A2UI_SHARED/corpus" ]; then
  echo "bench/pgo.sh: $A2UI_SHARED/corpus not found (set A2UI_SHARED)" >&2
  exit 1
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prof() { # PACKAGE BENCH-REGEXP BENCHTIME
  local name
  name="$(echo "$1" | tr '/.' '__')"
  if ! go test "$1" -run '^$' -bench "$2" -benchtime "$3" -cpuprofile "$tmp/$name.pprof" -o "$tmp/$name.test" >"$tmp/$name.log" 2>&1; then
    cat "$tmp/$name.log" >&2
    echo "bench/pgo.sh: the benchmarks of $1 failed; the profile is unchanged" >&2
    exit 1
  fi
}
prof ./parser 'V0[89]Chunk16(Borrowed)?$' 100x
prof ./stream 'Pipeline' 100x
prof ./bench 'Processor(V08|Progressive)?$' 100x
# Merged beside the others first: a failed merge leaves the profile as it was.
go tool pprof -proto "$tmp"/*.pprof >"$tmp/merged.pgo"
mv "$tmp/merged.pgo" cmd/a2ui-stream/release.pgo
echo "wrote cmd/a2ui-stream/release.pgo ($(wc -c <cmd/a2ui-stream/release.pgo) bytes)"
