package consumer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// ErrRunning is returned by Run when it is called a second time.
var ErrRunning = errors.New("consumer: Run called twice")

// Core consumes chunks from core NATS: one instance subscribing <prefix>.>.
// Core NATS neither persists nor shares out messages, so Core neither
// survives a crash (chunks in flight are lost) nor scales out (every
// instance subscribed would handle every chunk). Use JetStream for both.
//
// A Core is safe for concurrent use; Run may be called once.
type Core struct {
	nc  *nats.Conn
	h   Handler
	cfg config

	started atomic.Bool
	mu      sync.Mutex
	sub     *nats.Subscription // set while Run subscribes
	done    bool
}

type coreJob struct {
	session string
	data    []byte
	end     bool
	feed    bool // data is a chunk to feed (false for an end without body)
}

// NewCore returns a consumer of <prefix>.> on nc. It takes no ownership of
// nc: the caller closes it after Run returned.
func NewCore(nc *nats.Conn, h Handler, opts ...Option) (*Core, error) {
	if nc == nil {
		return nil, &ConfigError{What: "core", Err: errors.New("nil connection")}
	}
	if h == nil {
		return nil, &ConfigError{What: "core", Err: errors.New("nil handler")}
	}
	cfg, err := newConfig(coreOnly, opts)
	if err != nil {
		return nil, err
	}
	return &Core{nc: nc, h: h, cfg: cfg}, nil
}

// Ready returns nil while Run is subscribed and the connection is up.
func (c *Core) Ready() error {
	c.mu.Lock()
	sub, done := c.sub, c.done
	c.mu.Unlock()
	switch {
	case sub == nil || done:
		return fmt.Errorf("%w: not subscribed", ErrNotReady)
	case !c.nc.IsConnected():
		return fmt.Errorf("%w: connection %s", ErrNotReady, c.nc.Status())
	case !sub.IsValid():
		return fmt.Errorf("%w: subscription closed", ErrNotReady)
	}
	return nil
}

// Run subscribes and hands chunks to the handler until ctx is done; then it
// drains: unsubscribes, hands on the messages already received and waits
// for the handler (the handler's context is cancelled after the drain
// timeout), and returns nil. It returns an error if it cannot subscribe or
// the subscription is closed under it (the connection was closed).
func (c *Core) Run(ctx context.Context) error {
	if !c.started.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer func() {
		c.mu.Lock()
		c.done = true
		c.mu.Unlock()
	}()
	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()

	known := make([]*lru[struct{}], c.cfg.workers)
	for i := range known {
		known[i] = newLRU[struct{}](perShard(c.cfg.maxSessions, c.cfg.workers))
	}
	p := newPool(c.cfg.workers, c.cfg.queueSize, func(shard int, j coreJob) {
		c.handle(workCtx, known[shard], j)
	})
	stopPool := func() {
		p.stop()
		p.wait()
	}

	sub, err := c.nc.Subscribe(c.cfg.prefix+".>", func(m *nats.Msg) { c.dispatch(p, m) })
	if err != nil {
		stopPool()
		return &ConfigError{What: "core: subscribe", Err: err}
	}
	// The closed handler runs when the subscription's delivery goroutine
	// exits: after a drain, an unsubscribe or the connection's close.
	closed := make(chan struct{})
	var closeOnce sync.Once
	sub.SetClosedHandler(func(string) { closeOnce.Do(func() { close(closed) }) })
	if !sub.IsValid() { // closed before the handler was set
		closeOnce.Do(func() { close(closed) })
	}
	if err := sub.SetPendingLimits(c.cfg.pendingMsgs, c.cfg.pendingBytes); err != nil {
		_ = sub.Unsubscribe()
		stopPool()
		return &ConfigError{What: "core: pending limits", Err: err}
	}
	c.mu.Lock()
	c.sub = sub
	c.mu.Unlock()

	ticker := time.NewTicker(c.cfg.statsInterval)
	defer ticker.Stop()
	var dropped int
	checkDropped := func() {
		n, err := sub.Dropped()
		if err != nil || n <= dropped {
			return
		}
		delta := n - dropped
		dropped = n
		c.cfg.observer.SlowConsumer(delta)
		c.cfg.logger.Error("consumer: slow consumer, NATS client dropped messages", "subject", sub.Subject, "dropped", delta)
		c.cfg.report(&ChunkError{Subject: sub.Subject, Err: fmt.Errorf("%w: %d messages", ErrSlowConsumer, delta)})
	}

loop:
	for {
		select {
		case <-ticker.C:
			checkDropped()
		case <-closed:
			checkDropped()
			// Bounded as a drain is: the handler's context ends after the
			// drain timeout.
			stop := time.AfterFunc(c.cfg.drainTimeout, cancelWork)
			stopPool()
			stop.Stop()
			return &ConfigError{What: "core", Err: errors.New("subscription closed (connection closed?)")}
		case <-ctx.Done():
			break loop
		}
	}

	// Drain: no new messages, the pending ones are handed on.
	stopWork := time.AfterFunc(c.cfg.drainTimeout, cancelWork)
	defer stopWork.Stop()
	if err := sub.Drain(); err == nil {
		select {
		case <-closed:
		case <-workCtx.Done():
			_ = sub.Unsubscribe()
		}
	} else {
		_ = sub.Unsubscribe()
	}
	checkDropped()
	stopPool()
	return nil
}

// dispatch runs on the subscription's goroutine: it validates the message
// and queues it on its session's worker, blocking while that queue is full.
func (c *Core) dispatch(p *pool[coreJob], m *nats.Msg) {
	session, err := sessionOf(c.cfg.prefix, m.Subject)
	if err != nil {
		c.cfg.report(&ChunkError{Subject: m.Subject, Err: err})
		return
	}
	j := coreJob{session: session, data: m.Data, end: m.Header != nil && isEnd(m.Header.Get)}
	j.feed = !j.end || len(m.Data) > 0
	if len(m.Data) > c.cfg.maxChunk {
		c.cfg.report(&ChunkError{Subject: m.Subject, Session: session,
			Err: fmt.Errorf("%w: %d bytes (max %d)", ErrTooLarge, len(m.Data), c.cfg.maxChunk)})
		if !j.end {
			return
		}
		j.data, j.feed = nil, false
	}
	if !p.enqueue(shardOf(session, len(p.queues)), j) {
		c.cfg.logger.Warn("consumer: chunk dropped at shutdown", "session", session)
	}
}

// handle runs on the session's worker.
func (c *Core) handle(ctx context.Context, known *lru[struct{}], j coreJob) {
	subject := c.cfg.prefix + "." + j.session
	if j.feed {
		known.put(j.session, struct{}{})
		if err := c.h.Feed(ctx, j.session, j.data); err != nil {
			c.cfg.report(&ChunkError{Subject: subject, Session: j.session, Err: &handlerError{op: "feed", err: err}})
		}
	}
	if !j.end {
		return
	}
	if _, ok := known.get(j.session); !ok {
		c.cfg.report(&ChunkError{Subject: subject, Session: j.session, Err: ErrUnknownSession})
		return
	}
	known.remove(j.session)
	if err := c.h.End(ctx, j.session); err != nil {
		c.cfg.report(&ChunkError{Subject: subject, Session: j.session, Err: &handlerError{op: "end", err: err}})
	}
}
