package sinks

import (
	"errors"
	"fmt"
	"strconv"
)

// Sentinels the typed errors of this package unwrap to (test them with
// errors.Is).
var (
	// ErrBadEvent is the cause of an *EventError.
	ErrBadEvent = errors.New("sinks: bad event")
	// ErrBadSubject is the cause of a *SubjectError.
	ErrBadSubject = errors.New("sinks: bad NATS subject")
	// ErrBadOption is the cause of an *OptionError.
	ErrBadOption = errors.New("sinks: bad option")
	// ErrLimit is the cause of a *LimitError.
	ErrLimit = errors.New("sinks: limit reached")
	// ErrSlowClient ends the stream of an SSE client whose queue was full.
	ErrSlowClient = errors.New("sinks: sse: slow client dropped")
)

// EventError reports an event a sink cannot deliver as it is: an empty
// Line or one holding a line break, an empty Kind or one holding control
// bytes, an empty Session, or a zero Seq.
type EventError struct {
	Sink    string // "jsonl", "nats" or "sse"
	Session string
	Seq     uint64
	Field   string // "line", "kind", "session" or "seq"
	Reason  string
}

func (e *EventError) Error() string {
	return "sinks: " + e.Sink + ": event " + strconv.Quote(e.Session) + " #" +
		strconv.FormatUint(e.Seq, 10) + ": " + e.Field + " " + e.Reason
}

// Unwrap returns ErrBadEvent.
func (e *EventError) Unwrap() error { return ErrBadEvent }

// SubjectError reports a subject prefix, or a session id, that does not
// make a valid NATS subject: the prefix must be one or more non-empty
// tokens separated by '.', and a session id one token; neither may hold
// spaces, control bytes or the wildcards '*' and '>'.
type SubjectError struct {
	Part   string // "prefix" or "session"
	Value  string
	Reason string
}

func (e *SubjectError) Error() string {
	return "sinks: nats: invalid " + e.Part + " " + strconv.Quote(e.Value) + ": " + e.Reason
}

// Unwrap returns ErrBadSubject.
func (e *SubjectError) Unwrap() error { return ErrBadSubject }

// OptionError reports an option given an unusable value.
type OptionError struct {
	Option string
	Reason string
}

func (e *OptionError) Error() string { return "sinks: option " + e.Option + ": " + e.Reason }

// Unwrap returns ErrBadOption.
func (e *OptionError) Unwrap() error { return ErrBadOption }

// LimitError reports a bound of the SSE sink that an event or a client
// would exceed.
type LimitError struct {
	What  string // "sessions" or "clients"
	Limit int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("sinks: sse: too many %s (limit %d)", e.What, e.Limit)
}

// Unwrap returns ErrLimit.
func (e *LimitError) Unwrap() error { return ErrLimit }

// PublishError reports a NATS publish that failed.
type PublishError struct {
	Subject string
	Seq     uint64
	Err     error
}

func (e *PublishError) Error() string {
	return "sinks: nats: publish #" + strconv.FormatUint(e.Seq, 10) + " on " + strconv.Quote(e.Subject) + ": " + e.Err.Error()
}

// Unwrap returns the publisher's error.
func (e *PublishError) Unwrap() error { return e.Err }
