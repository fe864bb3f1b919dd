package sinks

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// JSONL writes each batch as one JSON line. Lines are flushed after every
// batch so that a reader sees each list as soon as it is applied.
type JSONL struct {
	mu     sync.Mutex
	w      *bufio.Writer
	enc    *json.Encoder
	closed bool
}

// NewJSONL returns a sink writing to w. Close does not close w.
func NewJSONL(w io.Writer) *JSONL {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &JSONL{w: bw, enc: enc}
}

// Emit writes b as one line.
func (s *JSONL) Emit(ctx context.Context, b processor.Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if err := s.enc.Encode(b); err != nil {
		return fmt.Errorf("sinks: jsonl: %w", err)
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("sinks: jsonl: %w", err)
	}
	return nil
}

// Close flushes the writer.
func (s *JSONL) Close(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.closed = true
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("sinks: jsonl: %w", err)
	}
	return nil
}
