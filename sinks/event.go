package sinks

import "github.com/a2ui-stream/a2ui-stream/processor"

// Kind names what an Event reports. It is the value of the event's "event"
// member.
type Kind string

// The kinds of event a stream.Pipeline produces.
const (
	// KindText carries prose, as the parser releases it.
	KindText Kind = "text"
	// KindBatch carries one list's (or, with the yield policy, one parser
	// yield's) applied messages, their results and the change set: one
	// repaint.
	KindBatch Kind = "batch"
	// KindError reports a dropped block, bad input or a failing sink.
	KindError Kind = "error"
	// KindEnd closes a session, with its counts.
	KindEnd Kind = "end"
)

// Event is one event of a session: the one value that flows from a
// pipeline to its sinks. Line is the event as one JSON object (no
// newline); its bytes depend only on the session's input and the
// pipeline's options, never on wall-clock time or the instance, so the
// same chunks give the same lines everywhere (a NATS sink derives its
// de-duplication id from Session and Seq).
//
// An Event is lent to Emit: a sink that keeps Line or Batch past the call
// copies them (the pipeline may reuse Line's array for its next event).
type Event struct {
	// Session is the session's id.
	Session string
	// Seq numbers the session's events, from 1, in order.
	Seq uint64
	// Kind is what the event reports.
	Kind Kind
	// Line is the event's JSON encoding, without a trailing newline.
	Line []byte
	// Batch is the processor's batch, for KindBatch events; nil otherwise.
	Batch *processor.Batch
}
