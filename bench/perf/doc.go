// Package perf is the machinery of "a2ui-stream bench": it measures the
// parser, the processor and stream.Pipeline on a user's own model output,
// cell by cell (stage × parser mode × chunk size), with the speed limit
// measured beside each cell.
//
// # Method
//
// Every rate is bytes of input over process CPU time (getrusage: all
// threads, user and system), as ../shared/tools/scanlimit measures: a round
// repeats passes over the input until WithMinRound of CPU time went into
// it, and a cell reports the median and range over its rounds
// (WithRounds, or WithDuration). CPU time, not wall time, so that a
// figure does not count the time other processes took the CPU; the
// machine's speed still drifts under load, so each round of a cell is
// followed by a round of the floor at the same chunk size, and the cell's
// "% of floor" is the median of those per-round ratios: the figure to
// compare between machines and runs.
//
// The floor is Scanner: a bare JSON boundary scan that finds where each
// top-level message of every <a2ui-json> block starts and ends, fed the
// same bytes in the same chunks, and nothing else. It needs no reference
// material, so the command works on any file anywhere.
//
// Besides the timed rounds, each cell runs two untimed passes: one with a
// probe that times each call (the latency from a message's closing brace,
// found by the Scanner, to the first yield or batch that follows it, in
// bytes and µs; for the pipeline also from the start of a call to each
// batch it emitted), and one that samples the live heap (runtime/metrics,
// after a collection) after some turns and after the sessions ended.
// Allocations per MB and the collector's share of the CPU come from
// runtime/metrics over the timed rounds.
//
// Counts (messages, blocks, latencies in bytes) are deterministic; the
// rest are measurements. Result is the outcome; WriteTable, WritePlots and
// its JSON encoding (schema: Schema, result.schema.json) present it.
//
// # Concurrency
//
// A Runner's Run measures one thing at a time and must not run
// concurrently with another measurement (it would disturb it); the
// pipeline stage itself runs WithSessions sessions on as many goroutines,
// which Run starts and waits for. Percentile, Summarize, SpreadOf,
// ScanBoundaries and ParseTurns are safe for concurrent use; a Scanner is
// not.
package perf
