// Package stream is a2ui-stream's front door: a Pipeline that takes a
// session's model output, chunk by chunk, parses it (package parser),
// applies its A2UI messages to the session's surfaces (package processor)
// and sends the outcome, as events, to sinks (package sinks).
//
// # Sessions
//
// Sessions are keyed by id (an A2A contextId maps onto one). Each has its
// own parser and processor; Feed starts a session, End closes it. At most
// WithMaxSessions are open: a new one evicts the least recently fed. A
// session fed nothing for WithIdleTimeout ends. Every ending emits the
// session's end event, is logged and is counted (Observer.SessionEnd).
// Close ends every open session and closes the sinks.
//
// # Events
//
// Each event is one JSON object on one line (sinks.Event.Line), whose
// "event" member names its kind; event.schema.json in this directory is
// its JSON Schema:
//
//	{"event":"text","session":S,"text":T}
//	{"event":"batch","session":S,"batch":N,"list":L,"listEnd":B,"applied":A,"failed":F,
//	 "messages":[…],"results":[…],"changes":{…},"error":{"offset":O,"message":M}}
//	{"event":"error","session":S,"reason":R,"list":L,"offset":O,"error":M}
//	{"event":"end","session":S,"reason":R,"bytes":N,"lists":N,"batches":N,"messages":N,"failed":N,"errors":N}
//
// text is prose as the parser releases it. batch is one repaint: N numbers
// the session's batches from 1; L is the list (block) its messages came
// from, counted from 0; messages are the messages that applied, each
// verbatim but for insignificant whitespace (so that the line stays one
// line), ready for a remote renderer to apply; results hold one result per
// message, a failure with the protocol's agent-facing report
// (VALIDATION_FAILED and the other codes) and the message itself (so that
// a relay can still forward it, or an agent be shown it); changes is the processor's
// change set; error is present when a dropped block cut the list short.
// error reports a dropped block (reason "block", with its list and stream
// offset), a chunk over WithMaxChunk ("chunk"), the end of a session that
// is not open ("unknown_session"), a sink that failed ("sink") or a
// message a consumer could not read as a chunk ("input", see
// Pipeline.ReportError). end
// closes the session with its counts and the reason (closed, idle,
// evicted, shutdown).
//
// Events are deterministic: the same chunks give the same event bytes on
// any instance (sinks.Event.Seq numbers them; a NATS sink puts the session
// and Seq in the Nats-Msg-Id header, and wall-clock time only in headers).
// In complete mode with the list policy, the batch and end events do not
// depend on the chunking at all (for chunks within WithMaxChunk); only the way prose is split into text
// events does. The one exception is a sink failure, which adds an error
// event for the sinks that took the failed one.
//
// # Batching
//
// PolicyList (the default in complete mode) applies a list's messages as
// they arrive but emits the list's batch once, when the list closes: one
// repaint per list, whatever the chunking. A list cut off by a failure or
// by the end of the stream still produces its batch, with the error.
// PolicyYield (the default in the progressive and delta modes, whose
// every yield is a new view of a surface) emits one batch per parser
// yield; the last batch of a list has listEnd true (a batch of no
// messages when the list's end arrives after its last yield).
//
// Every failed message is reported in its batch and logged with log/slog
// (session, list, message index, surface, reason); it never aborts the
// list.
//
// # Sinks
//
// Every event goes to every sink in order. A failing Emit is retried with
// capped exponential backoff (WithEmitRetry); a sink that still fails is
// logged, counted (Observer.SinkFailure), reported in an error event to
// the sinks that did take the event, and Feed returns a *SinkError, so a
// consumer that acknowledges input only after Feed returned nil never
// loses an event.
//
// # Concurrency
//
// A Pipeline is safe for concurrent use. Calls for different sessions run
// in parallel; calls for one session are serialised, and its events reach
// each sink in order. Feed one session from one goroutine to keep its
// chunks in order. The idle sweep is the pipeline's one goroutine; Close
// stops it.
package stream
