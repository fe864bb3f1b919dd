// Package deltaengine is the engine issue 15 asks for, built for deltas:
// it reads A2UI blocks chunk by chunk and yields what the parser's delta
// mode yields, or, with Options.Progressive, what its progressive mode
// yields, as a writer that folds the same changes into snapshots. On both
// corpora its output is the parser's byte for byte, call by call, at every
// chunk size tested (bench/cmd/deltaproto's TestSameAsParser), in about
// half the parser's time, holding at most 4x a turn per stream (bench/README.md).
//
// It reads each block once: a scanner keeps the block without the spaces
// outside strings and checks its grammar (scan.go, grammar.go), reading a
// block that lost count of its brackets as the reference does (lost.go);
// per surface, an entry for each component id points at the entries of
// its children, recorded as the scanner reads them (entries.go), or, for
// a component of an odd shape, found by the reference's placeholder walk
// on its canonical form (walk.go); reachability from the root is kept as
// components arrive, and checked for cycles where a change may have made
// one (topology.go); at the end of each chunk the open component or data
// model message is healed from the bytes already read, and what changed
// is written (yield.go; data.go for v0.9 data model values, data08.go
// and contents.go for v0.8 data model messages, read against the
// stream's record of yielded data as the reference reads them); each
// message's end does what its kind asks (messages.go). With a catalog it
// judges what it yields as the parser does (catalog.go). A block that fails says why (Err): a Fault
// with complete mode's verdict and offset on its bytes (fault.go), or the
// protocol's error.
//
// It is not yet the parser's engine: the parser runs it only in its tests
// (parser/engine_deltafirst.go), where it passes the golden hashes of both
// corpora in every framing (TestDeltaFirstGoldenCorpora) and the streaming
// conformance suite with its catalogs (TestDeltaFirstConformance), every
// yield passing the case's catalog (TestYieldsPassTheCatalog). What it
// still reads otherwise than the parser (go test ./parser -deltafirst
// lists the tests; bench/cmd/deltaproto -same shows a difference call by
// call) is listed in bench/README.md. Framing is the caller's: Begin, Data
// and End take a block's content, its markers removed (Options.Lines: a
// JSONL line); Flush ends a chunk; Messages takes what End yielded; Abort
// drops a block its caller failed.
//
// An Engine is not safe for concurrent use. The messages Flush returns are
// lent until the next call on the engine.
package deltaengine
