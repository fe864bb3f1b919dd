package consumer

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/synadia-io/orbit.go/pcgroups"
)

// Headers the consumer reads on JetStream messages.
const (
	sourceHeader = "Nats-Stream-Source" // set by the server on sourced messages
)

// JetStream consumes chunks from a JetStream input stream through an
// elastic partitioned consumer group (github.com/synadia-io/orbit.go/pcgroups):
// instances with the same stream, group and partitions share the
// partitions; sessions are partitioned by subject, so a session's chunks go
// to one instance at a time, in order. See the package documentation for
// the design.
//
// A JetStream is safe for concurrent use; Run may be called once.
type JetStream struct {
	nc  *nats.Conn
	js  jetstream.JetStream
	h   Handler
	cfg config
	kv  jetstream.KeyValue // heartbeats of the live members

	started atomic.Bool
	ready   atomic.Bool // this member's consumer exists (last check)
	running atomic.Bool

	// Set by Run before consuming starts, read by the workers.
	input  jetstream.Stream
	pool   *pool[jsJob]
	states []*lru[*sessState] // per shard, owned by its worker
}

// jsJob is one delivered message, queued on its session's worker.
type jsJob struct {
	msg     jetstream.Msg
	subject string // <prefix>.<session>
	session string
	seq     uint64 // sequence in the input stream
	end     bool
}

// sessState is how far a session was processed on this instance.
type sessState struct {
	lastSeq uint64 // input stream sequence of the last chunk handled
}

// NewJetStream returns a consumer of the input stream on nc. It takes no
// ownership of nc: the caller closes it after Run returned.
func NewJetStream(nc *nats.Conn, h Handler, opts ...Option) (*JetStream, error) {
	if nc == nil {
		return nil, &ConfigError{What: "jetstream", Err: errors.New("nil connection")}
	}
	if h == nil {
		return nil, &ConfigError{What: "jetstream", Err: errors.New("nil handler")}
	}
	cfg, err := newConfig(jsOnly, opts)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, &ConfigError{What: "jetstream", Err: err}
	}
	return &JetStream{nc: nc, js: js, h: h, cfg: cfg}, nil
}

// Member is this instance's member name in the group.
func (j *JetStream) Member() string { return j.cfg.member }

// Ready returns nil while Run is consuming, the connection is up and this
// member's consumer exists in the group (as of the last membership check).
func (j *JetStream) Ready() error {
	switch {
	case !j.running.Load():
		return fmt.Errorf("%w: not running", ErrNotReady)
	case !j.nc.IsConnected():
		return fmt.Errorf("%w: connection %s", ErrNotReady, j.nc.Status())
	case !j.ready.Load():
		return fmt.Errorf("%w: member %q has no consumer in group %q yet", ErrNotReady, j.cfg.member, j.cfg.group)
	}
	return nil
}

// Run sets up the input stream (if missing) and the consumer group (if
// missing), joins the group and hands chunks to the handler until ctx is
// done. Then it stops fetching, finishes the chunks already queued (the
// handler's context is cancelled after the drain timeout; what is left
// unacknowledged goes to another instance), leaves the group and returns
// nil. It returns an error if the setup fails (unless ctx is done by then)
// or the group stops under it (its config deleted, the connection closed).
func (j *JetStream) Run(ctx context.Context) error {
	if !j.started.CompareAndSwap(false, true) {
		return ErrRunning
	}
	setupErr := func(err error) error {
		if ctx.Err() != nil {
			return nil // cancelled while setting up: nothing to drain
		}
		return err
	}
	input, err := EnsureInputStream(ctx, j.js, InputStreamConfig{
		Name: j.cfg.stream, Prefix: j.cfg.prefix, MaxAge: j.cfg.maxAge, Replicas: j.cfg.replicas,
	})
	if err != nil {
		return setupErr(err)
	}
	j.input = input
	if err := j.createGroup(ctx); err != nil {
		return setupErr(err)
	}
	if err := j.createLiveness(ctx); err != nil {
		return setupErr(err)
	}

	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	j.states = make([]*lru[*sessState], j.cfg.workers)
	for i := range j.states {
		j.states[i] = newLRU[*sessState](perShard(j.cfg.maxSessions, j.cfg.workers))
	}
	j.pool = newPool(j.cfg.workers, j.cfg.queueSize, func(shard int, job jsJob) {
		j.process(workCtx, shard, job)
	})

	cgc, err := pcgroups.ElasticConsume(ctx, j.js, j.cfg.stream, j.cfg.group, j.cfg.member, j.dispatch, jetstream.ConsumerConfig{
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       j.cfg.ackWait,
		MaxAckPending: j.cfg.maxAckPending,
		MaxDeliver:    -1,
	})
	if err != nil {
		j.pool.stop()
		j.pool.wait()
		return setupErr(&ConfigError{What: "join group " + j.cfg.group, Err: err})
	}
	j.running.Store(true)

	loopCtx, stopLoop := context.WithCancel(ctx)
	loopDone := make(chan struct{})
	go func() {
		defer close(loopDone)
		j.memberLoop(loopCtx)
	}()

	var runErr error
	select {
	case <-ctx.Done():
	case err := <-cgc.Done():
		if err == nil {
			err = errors.New("the group's config was deleted")
		}
		runErr = &ConfigError{What: "group " + j.cfg.group, Err: err}
	}

	// Shutdown: stop fetching, finish what is queued, leave the group.
	cgc.Stop()
	stopLoop()
	<-loopDone
	j.running.Store(false)
	j.ready.Store(false)
	stopWork := time.AfterFunc(j.cfg.drainTimeout, cancelWork)
	defer stopWork.Stop()
	j.pool.stop()
	j.pool.wait()
	j.leave()
	return runErr
}

// dispatch is the group's message handler: it validates the message, finds
// its input stream sequence and queues it on its session's worker,
// blocking while that queue is full. Once the pool stops, messages are
// left unacknowledged (redelivered to whoever owns the partition next).
func (j *JetStream) dispatch(msg jetstream.Msg) {
	subject := msg.Subject() // the partition token already stripped
	session, err := sessionOf(j.cfg.prefix, subject)
	if err != nil {
		j.cfg.report(&ChunkError{Subject: subject, Err: err})
		_ = msg.TermWithReason("a2ui: bad session subject")
		return
	}
	seq, err := sourceSeq(msg.Headers(), j.cfg.stream)
	if err != nil {
		j.cfg.report(&ChunkError{Subject: subject, Session: session, Err: err})
		_ = msg.TermWithReason("a2ui: not sourced from the input stream")
		return
	}
	job := jsJob{msg: msg, subject: subject, session: session, seq: seq, end: isEnd(msg.Headers().Get)}
	if !j.pool.enqueue(shardOf(session, j.cfg.workers), job) {
		// Stopping: hand the chunk back at once rather than after the ack
		// wait, so that the next owner gets it.
		j.cfg.logger.Debug("consumer: chunk handed back while stopping", "session", session, "seq", seq)
		_ = msg.Nak()
	}
}

// sourceSeq reads the input stream sequence of a message of the group's
// stream from its Nats-Stream-Source header, "<stream> <seq> ...".
func sourceSeq(h nats.Header, stream string) (uint64, error) {
	f := strings.Fields(h.Get(sourceHeader))
	if len(f) < 2 || f[0] != stream {
		return 0, fmt.Errorf("%w: %s header %q", ErrSource, sourceHeader, h.Get(sourceHeader))
	}
	seq, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil || seq == 0 {
		return 0, fmt.Errorf("%w: %s header %q", ErrSource, sourceHeader, h.Get(sourceHeader))
	}
	return seq, nil
}
