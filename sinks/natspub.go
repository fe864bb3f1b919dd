package sinks

import (
	"context"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Publisher publishes one NATS message. m (with its Data) is lent to the
// call: an implementation that keeps it past the call copies it.
// CorePublisher and JetStreamPublisher adapt a connection and a JetStream
// context.
type Publisher interface {
	PublishMsg(ctx context.Context, m *nats.Msg) error
}

// flusher is the optional flush of a Publisher (CorePublisher's).
type flusher interface {
	FlushWithContext(ctx context.Context) error
}

// corePublisher publishes with core NATS: at most once, no ack.
type corePublisher struct{ nc *nats.Conn }

// CorePublisher returns a Publisher that publishes on nc with core NATS
// (nc.PublishMsg: the message is buffered, without an acknowledgement) and
// flushes nc when the sink closes. A nil nc gives a nil Publisher, which
// NewNATS rejects.
func CorePublisher(nc *nats.Conn) Publisher {
	if nc == nil {
		return nil
	}
	return corePublisher{nc: nc}
}

func (p corePublisher) PublishMsg(ctx context.Context, m *nats.Msg) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return p.nc.PublishMsg(m)
}

func (p corePublisher) FlushWithContext(ctx context.Context) error {
	return p.nc.FlushWithContext(ctx)
}

// jetStreamPublisher publishes to a stream and waits for its ack.
type jetStreamPublisher struct{ js jetstream.JetStream }

// JetStreamPublisher returns a Publisher that publishes through js
// (js.PublishMsg) and waits, within the Emit's context, for the stream's
// acknowledgement, so that an Emit returns only once the event is stored.
// A stream that recognises the message id as a duplicate acknowledges it
// too, and that is a success. A subject no stream captures is an error. A
// nil js gives a nil Publisher, which NewNATS rejects.
func JetStreamPublisher(js jetstream.JetStream) Publisher {
	if js == nil {
		return nil
	}
	return jetStreamPublisher{js: js}
}

func (p jetStreamPublisher) PublishMsg(ctx context.Context, m *nats.Msg) error {
	_, err := p.js.PublishMsg(ctx, m) // a duplicate's ack has Duplicate set and no error
	return err
}
