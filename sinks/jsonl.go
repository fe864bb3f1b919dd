package sinks

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// JSONL writes each batch as one JSON line. Lines are flushed after every
// batch so that a reader sees each list as soon as it is applied.
type JSONL struct {
	g    gate
	turn chan struct{} // held by the one write in progress
	w    *bufio.Writer
	enc  *json.Encoder
}

// NewJSONL returns a sink writing to w. Close does not close w.
func NewJSONL(w io.Writer) *JSONL {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &JSONL{turn: make(chan struct{}, 1), w: bw, enc: enc}
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

// Emit writes b as one line. Waiting for an earlier Emit's write honours
// ctx; the write itself runs until the writer returns.
func (s *JSONL) Emit(ctx context.Context, b processor.Batch) error {
	if err := ctx.Err(); err != nil {
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
	if err := s.enc.Encode(b); err != nil {
		return fmt.Errorf("sinks: jsonl: %w", err)
	}
	if err := s.w.Flush(); err != nil {
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
