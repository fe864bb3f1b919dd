// Package deltaengine is the engine of the parser's progressive and delta
// modes, built for deltas (issue 15): it reads A2UI blocks chunk by chunk
// and yields changes (delta mode) or, with Options.Progressive, a writer
// that folds the same changes into the snapshots the reference yields. It
// replaced the parser's progressive engine in session 24: on both corpora
// its output is that engine's byte for byte, call by call, at every chunk
// size the golden hashes pin; where it reads otherwise (odd, adversarial
// or broken input) bench/README.md lists what and why.
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
// judges what it yields (catalog.go). A block that fails says why (Err):
// a Fault with complete mode's verdict and offset on its bytes (fault.go),
// or the protocol's error.
//
// Framing is the caller's (parser/engine_incremental.go): Begin, Data and
// End take a block's content, its markers removed (Options.Lines: a JSONL
// line); Flush ends a chunk; Messages takes what End yielded; Abort drops
// a block its caller failed.
//
// An Engine is not safe for concurrent use. The messages Flush returns are
// lent until the next call on the engine; those Messages returns after a
// block ended, until Release (the engine's storage then goes to a pool for
// the next block of any stream). With UseOutput the engine appends its
// messages to the caller's buffer instead, and never touches what that
// buffer held: the parser's borrowed output hands them out with no copy.
// Between blocks an engine holds its surfaces and no scratch: the block's
// buffer, lists and output storage wait in pools for the next block of
// any stream.
package deltaengine
