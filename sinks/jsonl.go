package sinks

import (
	"bufio"
	"context"
	"fmt"
	"io"
)

// JSONL writes each event's Line, then a newline. Lines are flushed after
// every event so that a reader sees each one as soon as it is emitted,
// unless JSONLBuffered says otherwise.
type JSONL struct {
	g        gate
	turn     chan struct{} // held by the one write in progress
	w        *bufio.Writer
	buffered bool
}

// JSONLOption configures a JSONL sink.
type JSONLOption func(*JSONL)

// JSONLBuffered makes the sink flush only when its buffer is full, at
// Flush and at Close, instead of after every event: a write per buffer
// rather than per event, for a caller that flushes at points of its own
// (the a2ui-stream run command flushes after each read of its input, so a
// live stream is still echoed as it arrives).
func JSONLBuffered() JSONLOption { return func(s *JSONL) { s.buffered = true } }

// NewJSONL returns a sink writing to w. Close does not close w.
func NewJSONL(w io.Writer, opts ...JSONLOption) *JSONL {
	s := &JSONL{turn: make(chan struct{}, 1), w: bufio.NewWriterSize(w, 64<<10)}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Flush writes what the sink buffers, waiting for the write in progress
// (or for ctx to be done).
func (s *JSONL) Flush(ctx context.Context) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.unlock()
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("sinks: jsonl: %w", err)
	}
	return nil
}

// lock waits for the turn to write, or for ctx to be done.
func (s *JSONL) lock(ctx context.Context) error {
	select {
	case s.turn <- struct{}{}: // free: taken whatever ctx says
		return nil
	default:
	}
	select {
	case s.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *JSONL) unlock() { <-s.turn }

// Emit writes e.Line and a newline. A Line that is empty or holds a line
// break is an *EventError (it would not be one JSONL record). Waiting for
// an earlier Emit's write honours ctx; the write itself runs until the
// writer returns.
func (s *JSONL) Emit(ctx context.Context, e Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkLine("jsonl", e); err != nil {
		return err
	}
	if err := s.g.enter(); err != nil {
		return err
	}
	defer s.g.leave()
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.unlock()
	// A write error sticks in the bufio.Writer: the next writes return it.
	_, err := s.w.Write(e.Line)
	if err == nil {
		err = s.w.WriteByte('\n')
	}
	if err == nil && !s.buffered {
		err = s.w.Flush()
	}
	if err != nil {
		return fmt.Errorf("sinks: jsonl: %w", err)
	}
	return nil
}

// Close refuses further Emits, waits for the writes in flight and flushes
// the writer, or returns an error wrapping ctx's when ctx is done first (a
// writer blocked on a slow reader keeps its Emit until the write returns).
// Once no Emit is in flight none holds the writer (each releases it before
// it leaves the gate), so the flush needs no turn of its own.
func (s *JSONL) Close(ctx context.Context) error {
	if err := s.g.close(ctx); err != nil {
		return err
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("sinks: jsonl: %w", err)
	}
	return nil
}
