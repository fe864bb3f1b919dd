package consumer

import (
	"context"
	"errors"
	"fmt"
)

// Handler receives the chunks of sessions. *stream.Pipeline implements it.
//
// The consumers call a Handler from several goroutines at once, but never
// for the same session at once: an implementation must be safe for
// concurrent use across sessions.
type Handler interface {
	// Feed hands the next chunk of a session's model output to the
	// handler. It returns once every event the chunk produced is published
	// (and, with JetStream, acknowledged); an error means not all were.
	Feed(ctx context.Context, session string, chunk []byte) error
	// End reports that the session ended (same contract as Feed).
	End(ctx context.Context, session string) error
	// Reset forgets the session's state without publishing anything. The
	// JetStream consumer calls it before replaying a session from its
	// first chunk, and when it drops the state of a session.
	Reset(session string)
}

// Observer is told what a consumer does, for metrics. Its methods are called
// from the consumer's goroutines, several at once: an implementation must be
// safe for concurrent use and quick. NopObserver is the default.
type Observer interface {
	// Redelivery reports a redelivered chunk that had already been
	// processed: it was acknowledged and skipped (JetStream only).
	Redelivery()
	// Replay reports that the state of a session was rebuilt by replaying
	// its earlier chunks from the input stream (JetStream only).
	Replay(session string)
	// SlowConsumer reports n messages the NATS client dropped because the
	// subscription's pending limits were hit (core NATS only).
	SlowConsumer(n int)
	// Error reports a chunk or an end that was not processed; err is
	// the same error the OnError hook receives.
	Error(err error)
}

// NopObserver observes nothing.
type NopObserver struct{}

func (NopObserver) Redelivery()      {}
func (NopObserver) Replay(string)    {}
func (NopObserver) SlowConsumer(int) {}
func (NopObserver) Error(error)      {}

// Errors the consumers report through the OnError hook, wrapped in a
// *ChunkError (test them with errors.Is).
var (
	// ErrBadSubject: the subject is not <prefix>.<session> with a valid
	// session token (see ValidSession). The message is dropped.
	ErrBadSubject = errors.New("consumer: bad session subject")
	// ErrTooLarge: the chunk is larger than the maximum chunk size. It is
	// not fed; the session goes on without it.
	ErrTooLarge = errors.New("consumer: chunk too large")
	// ErrUnknownSession: an end marker without a body for a session that
	// has no chunks. Nothing is fed or ended.
	ErrUnknownSession = errors.New("consumer: end for unknown session")
	// ErrHandler: Handler.Feed or Handler.End failed. With JetStream the
	// chunk is redelivered later; with core NATS it is lost.
	ErrHandler = errors.New("consumer: handler failed")
	// ErrSlowConsumer: the NATS client dropped messages because the
	// subscription's pending limits were hit (core NATS only).
	ErrSlowConsumer = errors.New("consumer: slow consumer, messages dropped")
	// ErrStream: looking up earlier chunks in the input stream failed
	// (JetStream only). The chunk is redelivered later.
	ErrStream = errors.New("consumer: input stream lookup failed")
	// ErrSource: a JetStream message without a usable Nats-Stream-Source
	// header (the consumer group's stream was not sourced from the input
	// stream). The message is terminated.
	ErrSource = errors.New("consumer: message not sourced from the input stream")
)

// ChunkError is what the OnError hook receives: which message failed and
// why. Err is one of the Err* values above, possibly wrapping the cause.
type ChunkError struct {
	Subject string // the NATS subject the chunk arrived on
	Session string // "" when the subject holds no valid session
	Seq     uint64 // input stream sequence (JetStream), 0 on core NATS
	Err     error
}

func (e *ChunkError) Error() string {
	if e.Session == "" {
		return fmt.Sprintf("%v (subject %q)", e.Err, e.Subject)
	}
	if e.Seq != 0 {
		return fmt.Sprintf("%v (session %q, seq %d)", e.Err, e.Session, e.Seq)
	}
	return fmt.Sprintf("%v (session %q)", e.Err, e.Session)
}

// Unwrap returns the reason.
func (e *ChunkError) Unwrap() error { return e.Err }

// handlerError wraps a Handler failure so that errors.Is matches both
// ErrHandler and the handler's own error.
type handlerError struct {
	op  string // "feed", "end" or "replay"
	err error
}

func (e *handlerError) Error() string {
	return fmt.Sprintf("%v: %s: %v", ErrHandler, e.op, e.err)
}

func (e *handlerError) Unwrap() []error { return []error{ErrHandler, e.err} }

// ConfigError reports an invalid option or a stream or consumer group that
// could not be set up.
type ConfigError struct {
	What string
	Err  error
}

func (e *ConfigError) Error() string { return "consumer: " + e.What + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *ConfigError) Unwrap() error { return e.Err }

// ErrNotReady is returned by Ready before the consumer is bound, after it
// stopped, or while its connection is down.
var ErrNotReady = errors.New("consumer: not ready")
