package sinks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

// Publisher publishes a message on a subject. *nats.Conn satisfies it.
type Publisher interface {
	Publish(subject string, data []byte) error
}

// flusher is the optional flush of a Publisher (*nats.Conn has it).
type flusher interface {
	FlushWithContext(ctx context.Context) error
}

// NATS publishes each batch as JSON on a subject.
type NATS struct {
	pub     Publisher
	subject string

	mu     sync.Mutex
	closed bool
}

// NewNATS returns a sink publishing on subject through pub. Close flushes
// pub when it can (FlushWithContext) and does not close it: the caller owns
// the connection.
func NewNATS(pub Publisher, subject string) (*NATS, error) {
	if pub == nil {
		return nil, errors.New("sinks: nats: nil publisher")
	}
	if subject == "" {
		return nil, errors.New("sinks: nats: empty subject")
	}
	return &NATS{pub: pub, subject: subject}, nil
}

// Emit publishes b.
func (s *NATS) Emit(ctx context.Context, b processor.Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return ErrClosed
	}
	data, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("sinks: nats: %w", err)
	}
	if err := s.pub.Publish(s.subject, data); err != nil {
		return fmt.Errorf("sinks: nats: publish on %q: %w", s.subject, err)
	}
	return nil
}

// Close flushes the publisher, if it can flush, within ctx.
func (s *NATS) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.closed = true
	s.mu.Unlock()
	if f, ok := s.pub.(flusher); ok {
		if err := f.FlushWithContext(ctx); err != nil {
			return fmt.Errorf("sinks: nats: flush: %w", err)
		}
	}
	return nil
}
