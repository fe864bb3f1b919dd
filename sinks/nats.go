package sinks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

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

// defaultFlushTimeout bounds the flush of NATS.Close when its context has
// no deadline (*nats.Conn flushes only within a deadline).
const defaultFlushTimeout = 10 * time.Second

// NATS publishes each batch as JSON on a subject.
type NATS struct {
	pub     Publisher
	subject string
	g       gate
}

// NewNATS returns a sink publishing on subject through pub. Close flushes
// pub when it can (FlushWithContext; within 10 seconds when ctx has no
// deadline, as *nats.Conn flushes only within one) and does not close it:
// the caller owns the connection.
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
	if err := s.g.enter(); err != nil {
		return err
	}
	defer s.g.leave()
	data, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("sinks: nats: %w", err)
	}
	if err := s.pub.Publish(s.subject, data); err != nil {
		return fmt.Errorf("sinks: nats: publish on %q: %w", s.subject, err)
	}
	return nil
}

// Close refuses further Emits, waits for the publishes in flight and
// flushes the publisher, if it can flush, all within ctx.
func (s *NATS) Close(ctx context.Context) error {
	if err := s.g.close(ctx); err != nil {
		return err
	}
	if f, ok := s.pub.(flusher); ok {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, defaultFlushTimeout)
			defer cancel()
		}
		if err := f.FlushWithContext(ctx); err != nil {
			return fmt.Errorf("sinks: nats: flush: %w", err)
		}
	}
	return nil
}
