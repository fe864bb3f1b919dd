package sinks

import (
	"context"
	"errors"
)

// ErrClosed reports an Emit or Close on a closed sink.
var ErrClosed = errors.New("sinks: sink is closed")

// Sink is a destination for a session's events.
type Sink interface {
	// Emit delivers one event. It may block until the event is handed
	// over or ctx is done. The event is lent: a sink that keeps its Line
	// or Batch past the call copies them.
	Emit(ctx context.Context, e Event) error
	// Close flushes what is buffered and releases the sink. It returns
	// when done or when ctx is done.
	Close(ctx context.Context) error
}
