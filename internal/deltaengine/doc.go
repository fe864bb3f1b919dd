// Package deltaengine is the engine issue 15 asks for, built for deltas:
// it reads A2UI blocks chunk by chunk and yields what the parser's delta
// mode yields, or, with Options.Progressive, what its progressive mode
// yields, as a writer that folds the same changes into snapshots. On both
// corpora its output is the parser's byte for byte, call by call, at every
// chunk size tested (bench/cmd/deltaproto's TestSameAsParser), at 1.5 to
// 2.2 times the parser's speed (bench/README.md).
//
// It reads each block once: a scanner keeps the block without the spaces
// outside strings and checks its grammar (grammar.go); per surface, an
// entry for each component id points at the entries of its children,
// recorded as the scanner reads them (entries.go); reachability from the
// root is kept as components arrive; at the end of each chunk the open
// component or data model message is healed from the bytes already read,
// and what changed is written (yield.go, data.go).
//
// It is not yet the parser's engine: the parser runs it only in its tests
// (parser/engine_deltafirst.go), where it passes the golden hashes of both
// corpora in every framing (TestDeltaFirstGoldenCorpora). It omits
// catalogs, limits, the parser's error messages, messages before their
// surface begins, deleteSurface, cycles and other cases the streaming
// conformance suite exercises (bench/cmd/deltaproto -suite measures how
// many of its cases it agrees on; go test ./parser -deltafirst, how many
// of the parser's tests pass on it), and a stream on it holds a little
// more memory between blocks than on the parser's engine (bench/README.md). Framing is the caller's: Begin, Data
// and End take a block's content, its markers removed (Options.Lines: a
// JSONL line); Flush ends a chunk; Messages takes what End yielded; Abort
// drops a block its caller failed.
//
// An Engine is not safe for concurrent use. The messages Flush returns are
// lent until the next call on the engine.
package deltaengine
