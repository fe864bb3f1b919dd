// Package sinks holds the destinations of a session's events.
//
// An Event (see event.go) is one event of a session, as a stream.Pipeline
// produces it: its Session, Seq (from 1), Kind (text, batch, error, end),
// Line (the event as one JSON object, no newline, the same bytes wherever
// the same input is processed) and, for a batch event, the processor's
// Batch. A Sink receives each event with Emit, which may keep it only by
// copying (the event is lent), and is flushed and released with Close.
//
// Provided:
//
//   - JSONL writes each event's Line and a newline on an io.Writer (such
//     as stdout), flushed after every event.
//   - Func calls a function with each event.
//   - NATS publishes each event as one message on <prefix>.<session>,
//     with the Line as data and the headers Nats-Msg-Id (session:seq, so
//     that JetStream drops a re-published event), A2UI-Event, A2UI-Seq and
//     A2UI-Time (wall-clock time appears only there). It publishes through
//     a one-method Publisher: CorePublisher (core NATS, at most once) or
//     JetStreamPublisher (Emit returns once the stream has stored the
//     event). A session id must be one subject token.
//   - SSE keeps a bounded replay buffer per session and serves
//     GET /sessions/<id>/events as Server-Sent Events, for browsers and
//     `curl -N`; slow clients are dropped, never waited for.
//
// An event a sink cannot write as it is (an empty line or one holding a
// line break, for instance) is an *EventError, and a session id unfit for
// a NATS subject a *SubjectError; retrying them does not help. The typed
// errors unwrap to sentinels (ErrBadEvent, ErrBadSubject, ErrLimit,
// ErrBadOption) for errors.Is.
//
// All sinks here are safe for concurrent use (an SSE also by any number
// of requests at once). Close refuses further Emits (they return
// ErrClosed), waits for the Emits in flight (for SSE: the streams, which
// it ends) and flushes; when its context ends first it returns an error
// wrapping the context's (test it with errors.Is), and the Emits in flight
// finish on their own. A second Close returns ErrClosed.
package sinks
