package sinks

import (
	"context"
	"errors"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// ErrClosed reports an Emit or Close on a closed sink.
var ErrClosed = errors.New("sinks: sink is closed")

// Sink is a destination for batches.
type Sink interface {
	// Emit delivers one batch. It may block until the batch is handed over
	// or ctx is done.
	Emit(ctx context.Context, b processor.Batch) error
	// Close flushes what is buffered and releases the sink. It returns
	// when done or when ctx is done.
	Close(ctx context.Context) error
}
