package sinks

import (
	"context"
	"errors"
)

// Func is a sink that calls a function for each event, on the emitting
// goroutine. Concurrent Emits call it concurrently.
type Func struct {
	fn func(context.Context, Event) error
	g  gate
}

// NewFunc returns a sink calling fn for each event. The event is lent to
// fn as to Emit: fn copies its Line or Batch to keep them. With a nil fn,
// every Emit fails.
func NewFunc(fn func(context.Context, Event) error) *Func {
	return &Func{fn: fn}
}

// errNilFunc is Emit's error for a Func made with a nil function.
var errNilFunc = errors.New("sinks: func: nil function")

// Emit calls the function.
func (s *Func) Emit(ctx context.Context, e Event) error {
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
	return s.fn(ctx, e)
}

// Close refuses further Emits and waits for the calls in flight to
// return, or for ctx to be done (then it returns an error wrapping ctx's).
func (s *Func) Close(ctx context.Context) error {
	return s.g.close(ctx)
}
