// Package sinks holds the destinations of processor batches.
//
// A Sink receives each processor.Batch with Emit and is flushed and released
// with Close. Provided: JSONL (one JSON line per batch on an io.Writer, such
// as stdout), Func (a callback) and NATS (a publish per batch on a subject,
// through a one-method Publisher that *nats.Conn satisfies, so this package
// does not depend on a NATS client).
//
// All sinks here are safe for concurrent use. Close refuses further Emits
// (they return ErrClosed), waits for the Emits in flight and flushes; when
// its context ends first it returns an error wrapping the context's (test
// it with errors.Is), and the Emits in flight finish on their own. A
// second Close returns ErrClosed.
package sinks
