package sinks

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/a2ui-stream/a2ui-stream/internal/natssubj"
	"github.com/nats-io/nats.go"
)

// The headers of each message the NATS sink publishes.
const (
	// HeaderMsgID is session + ":" + seq: JetStream drops a re-published
	// event within the stream's duplicate window.
	HeaderMsgID = "Nats-Msg-Id"
	// HeaderEvent is the event's kind.
	HeaderEvent = "A2UI-Event"
	// HeaderSeq is the event's sequence number, in decimal.
	HeaderSeq = "A2UI-Seq"
	// HeaderTime is when the event was published (RFC 3339 with
	// nanoseconds, UTC). Wall-clock time lives only here, never in Data.
	HeaderTime = "A2UI-Time"
)

// defaultFlushTimeout bounds the flush of NATS.Close when its context has
// no deadline (*nats.Conn flushes only within a deadline).
const defaultFlushTimeout = 10 * time.Second

// NATS publishes each event as one message on <prefix>.<session>, with
// the event's Line as data.
type NATS struct {
	pub    Publisher
	prefix string // with its trailing '.'
	now    func() time.Time
	g      gate
}

// NATSOption configures a NATS sink.
type NATSOption func(*NATS) error

// WithClock sets the clock that stamps HeaderTime (default time.Now).
func WithClock(now func() time.Time) NATSOption {
	return func(s *NATS) error {
		if now == nil {
			return &OptionError{Option: "WithClock", Reason: "nil clock"}
		}
		s.now = now
		return nil
	}
}

// NewNATS returns a sink publishing through pub on subjects
// prefix + "." + session (prefix such as "a2ui.out": one or more tokens;
// a bad one is a *SubjectError). Close flushes pub when it can
// (CorePublisher's FlushWithContext; within 10 seconds when ctx has no
// deadline, as *nats.Conn flushes only within one) and does not close the
// connection: the caller owns it.
func NewNATS(pub Publisher, prefix string, opts ...NATSOption) (*NATS, error) {
	if pub == nil {
		return nil, errors.New("sinks: nats: nil publisher")
	}
	if err := checkPrefix(prefix); err != nil {
		return nil, err
	}
	s := &NATS{pub: pub, prefix: prefix + ".", now: time.Now}
	for _, o := range opts {
		if err := o(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkPrefix checks that prefix is one or more valid tokens joined by '.'.
func checkPrefix(prefix string) error {
	if p := natssubj.PrefixProblem(prefix); p != "" {
		return &SubjectError{Part: "prefix", Value: prefix, Reason: p}
	}
	return nil
}

// Emit publishes e on the session's subject, with data e.Line and the
// headers HeaderMsgID, HeaderEvent, HeaderSeq and HeaderTime. A session
// id that is not one subject token is a *SubjectError; an empty Line or
// Kind, or a zero Seq, an *EventError; a failed publish a *PublishError.
func (s *NATS) Emit(ctx context.Context, e Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if p := natssubj.TokenProblem(e.Session); p != "" {
		return &SubjectError{Part: "session", Value: e.Session, Reason: p}
	}
	if err := checkEvent("nats", e); err != nil {
		return err
	}
	if err := s.g.enter(); err != nil {
		return err
	}
	defer s.g.leave()
	seq := strconv.FormatUint(e.Seq, 10)
	m := &nats.Msg{
		Subject: s.prefix + e.Session,
		Data:    e.Line,
		Header: nats.Header{
			HeaderMsgID: {e.Session + ":" + seq},
			HeaderEvent: {string(e.Kind)},
			HeaderSeq:   {seq},
			HeaderTime:  {s.now().UTC().Format(time.RFC3339Nano)},
		},
	}
	if err := s.pub.PublishMsg(ctx, m); err != nil {
		return &PublishError{Subject: m.Subject, Seq: e.Seq, Err: err}
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
