package sinks

import (
	"context"
	"errors"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// Func is a sink that calls a function for each batch, on the emitting
// goroutine. Concurrent Emits call it concurrently.
type Func struct {
	fn func(context.Context, processor.Batch) error
	g  gate
}

// NewFunc returns a sink calling fn for each batch. With a nil fn, every
// Emit fails.
func NewFunc(fn func(context.Context, processor.Batch) error) *Func {
	return &Func{fn: fn}
}

// errNilFunc is Emit's error for a Func made with a nil function.
var errNilFunc = errors.New("sinks: func: nil function")

// Emit calls the function.
func (s *Func) Emit(ctx context.Context, b processor.Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.g.enter(); err != nil {
		return err
	}
	defer s.g.leave()
	if s.fn == nil {
		return errNilFunc
	}
	return s.fn(ctx, b)
}

// Close refuses further Emits and waits for the calls in flight to
// return, or for ctx to be done (then it returns an error wrapping ctx's).
func (s *Func) Close(ctx context.Context) error {
	return s.g.close(ctx)
}
