package sinks

import (
	"context"
	"sync/atomic"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// Func is a sink that calls a function for each batch, on the emitting
// goroutine.
type Func struct {
	fn     func(context.Context, processor.Batch) error
	closed atomic.Bool
}

// NewFunc returns a sink calling fn for each batch.
func NewFunc(fn func(context.Context, processor.Batch) error) *Func {
	return &Func{fn: fn}
}

// Emit calls the function.
func (s *Func) Emit(ctx context.Context, b processor.Batch) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.fn(ctx, b)
}

// Close marks the sink closed; there is nothing to flush.
func (s *Func) Close(context.Context) error {
	if s.closed.Swap(true) {
		return ErrClosed
	}
	return nil
}
