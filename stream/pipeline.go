package stream

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2ui-stream/a2ui-stream/sinks"
)

// ErrClosed reports a call on a closed Pipeline.
var ErrClosed = errors.New("stream: pipeline is closed")

// ErrSessionID reports an empty session id.
var ErrSessionID = errors.New("stream: empty session id")

// Pipeline runs sessions: for each, one parser and one processor. A
// session's chunks go in with Feed; its events come out, in order, to the
// sinks (see package doc).
//
// A Pipeline is safe for concurrent use: sessions are independent, and
// calls for different sessions run in parallel. Calls for one session are
// serialised; feed one session from one goroutine to keep its chunks in
// order.
type Pipeline struct {
	cfg config

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool

	stop chan struct{} // closed by Close: stops the idle sweep
	done chan struct{} // closed when the idle sweep has returned

	// clock is the pipeline's logical clock, so that a session's last use
	// costs no clock read: it ticks when a Feed is for another session
	// than the last Feed's (and when a session starts), which orders
	// sessions by last use, and at each mark of the idle sweep, so that a
	// session fed since a mark is seen as such. A Feed for the same session
	// as the last stores the clock as it is.
	// marks map it to time: the clock's value before each sweep's tick
	// (under mu, oldest first).
	clock atomic.Uint64
	marks []clockMark

	// last is the session of the last Feed: a stream fed chunk after
	// chunk finds its session without the lock and the map.
	last atomic.Pointer[session]
}

// clockMark is the logical clock's value at a time.
type clockMark struct {
	at   time.Time
	tick uint64
}

// NewPipeline returns a Pipeline configured by opts. With an idle timeout
// (the default), it starts a goroutine that ends idle sessions; Close stops
// it.
func NewPipeline(opts ...Option) (*Pipeline, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	cfg.batching = cfg.effectivePolicy()
	pl := &Pipeline{cfg: cfg, sessions: make(map[string]*session), stop: make(chan struct{}), done: make(chan struct{})}
	// Check the parser and processor options once, so that a session
	// never fails to start.
	if _, err := pl.newSession("check"); err != nil {
		return nil, err
	}
	if cfg.idleTimeout > 0 {
		go pl.sweepIdle()
	} else {
		close(pl.done)
	}
	return pl, nil
}

// Feed parses the next chunk of a session, starting the session if it is
// not open, and emits the events it completes. It returns once every sink
// took them; a sink that failed after its retries makes it return a
// *SinkError (the chunk was parsed all the same). Bad input is never an
// error here: it becomes error events, and the session goes on.
func (pl *Pipeline) Feed(ctx context.Context, session string, chunk []byte) error {
	for {
		s := pl.last.Load()
		if s != nil && s.id == session {
			s.used.Store(pl.clock.Load())
		} else {
			var err error
			if s, err = pl.open(ctx, session); err != nil {
				return err
			}
			s.used.Store(pl.clock.Add(1))
			pl.last.Store(s)
		}
		s.mu.Lock()
		if s.ended { // ended (idle, evicted, reset, closed) since the lookup
			s.mu.Unlock()
			pl.last.CompareAndSwap(s, nil)
			continue
		}
		err := s.feed(ctx, chunk)
		s.mu.Unlock()
		return err
	}
}

// End closes a session: what the parser still held is released and
// applied, and its end event goes out (reason EndClosed). Ending a session
// that is not open emits an error event for it (reason
// "unknown_session").
func (pl *Pipeline) End(ctx context.Context, session string) error {
	s, err := pl.find(session, true)
	if err != nil {
		return err
	}
	if s == nil {
		return pl.unknownEnd(ctx, session)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return pl.unknownEnd(ctx, session)
	}
	return s.end(ctx, EndClosed)
}

// find returns the open session id (nil when it is not open), removing it
// from the open sessions with remove.
func (pl *Pipeline) find(id string, remove bool) (*session, error) {
	if id == "" {
		return nil, ErrSessionID
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.closed {
		return nil, ErrClosed
	}
	s := pl.sessions[id]
	if remove {
		delete(pl.sessions, id)
	}
	return s, nil
}

// EndTurn ends the current turn of a session, which stays open: what the
// parser held is released and applied (an unclosed block is parsed, as at
// End), and the next chunk starts a new parse, while the session keeps its
// surfaces, its numbering of batches and lists, and its byte offsets. An
// agent that streams one answer per turn into a long-lived session (an A2A
// contextId) calls it at the end of each answer. EndTurn on a session that
// is not open does nothing.
func (pl *Pipeline) EndTurn(ctx context.Context, session string) error {
	s, err := pl.find(session, false)
	if err != nil || s == nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return nil
	}
	return s.endTurn(ctx)
}

// unknownEnd reports an End for a session that is not open, as the one
// event of a session of its own.
func (pl *Pipeline) unknownEnd(ctx context.Context, session string) error {
	pl.cfg.logger.Info("stream: end of a session that is not open", "session", session)
	return pl.detachedError(ctx, session, errorInfo{reason: ReasonUnknownSession, list: -1, offset: -1,
		msg: fmt.Sprintf("stream: end of session %q, which is not open", session)})
}

// detachedError emits an error event for a session that is not open, as
// the one event of a session of its own (sequence number 1).
func (pl *Pipeline) detachedError(ctx context.Context, id string, info errorInfo) error {
	s := &session{id: id, pl: pl, ended: true} // no parser or processor: one event
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emitError(ctx, info)
}

// Reset forgets a session without emitting anything, as if it never
// started: what a consumer calls before it replays the session's input
// from the start (the events are emitted again, identical), or to hand
// the session to another instance. Resetting a session that is not open
// does nothing.
func (pl *Pipeline) Reset(session string) {
	pl.mu.Lock()
	s := pl.sessions[session]
	delete(pl.sessions, session)
	pl.mu.Unlock()
	if s == nil {
		return
	}
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	pl.last.CompareAndSwap(s, nil)
	pl.cfg.observer.SessionEnd(EndReset)
}

// ReportError emits an error event for a session with the given reason
// (for input that never reached the pipeline: a consumer's oversized or
// malformed message). The event joins the session's sequence when it is
// open; otherwise it is the one event of a session of its own, as for an
// End of a session that is not open.
func (pl *Pipeline) ReportError(ctx context.Context, session, reason string, err error) error {
	s, ferr := pl.find(session, false)
	if ferr != nil {
		return ferr
	}
	msg := reason
	if err != nil {
		msg = err.Error()
	}
	info := errorInfo{reason: reason, list: -1, offset: -1, msg: msg}
	if s != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.ended {
			return s.emitError(ctx, info)
		}
	}
	return pl.detachedError(ctx, session, info)
}

// Sessions returns the number of open sessions.
func (pl *Pipeline) Sessions() int {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return len(pl.sessions)
}

// SessionIDs returns the ids of the open sessions, in no order.
func (pl *Pipeline) SessionIDs() []string {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	ids := make([]string, 0, len(pl.sessions))
	for id := range pl.sessions {
		ids = append(ids, id)
	}
	return ids
}

// open returns the open session id, starting it (and evicting the least
// recently fed session when the maximum is reached) if needed.
func (pl *Pipeline) open(ctx context.Context, id string) (*session, error) {
	if id == "" {
		return nil, ErrSessionID
	}
	pl.mu.Lock()
	if pl.closed {
		pl.mu.Unlock()
		return nil, ErrClosed
	}
	if s := pl.sessions[id]; s != nil {
		pl.mu.Unlock()
		return s, nil
	}
	var victim *session
	if len(pl.sessions) >= pl.cfg.maxSessions {
		for _, s := range pl.sessions {
			if victim == nil || s.used.Load() < victim.used.Load() {
				victim = s
			}
		}
		delete(pl.sessions, victim.id)
	}
	s, err := pl.newSession(id)
	if err != nil {
		pl.mu.Unlock()
		return nil, err
	}
	pl.sessions[id] = s
	pl.mu.Unlock()
	pl.cfg.observer.SessionStart()
	if victim != nil {
		pl.cfg.logger.Warn("stream: session evicted", "session", victim.id, "maxSessions", pl.cfg.maxSessions)
		pl.endDetached(ctx, victim, EndEvicted)
	}
	return s, nil
}

// endDetached ends a session already removed from the map.
func (pl *Pipeline) endDetached(ctx context.Context, s *session, reason string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return nil
	}
	return s.end(ctx, reason)
}

// sweepIdle ends idle sessions until Close.
func (pl *Pipeline) sweepIdle() {
	defer close(pl.done)
	every := max(pl.cfg.idleTimeout/4, 10*time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-pl.stop:
			return
		case <-t.C:
			now := pl.cfg.now()
			pl.mark(now)
			pl.endIdle(context.Background(), now)
		}
	}
}

// mark records the logical clock's value at now, and drops the marks
// that no sweep needs any more.
func (pl *Pipeline) mark(now time.Time) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.marks = append(pl.marks, clockMark{at: now, tick: pl.clock.Add(1) - 1})
	limit := now.Add(-pl.cfg.idleTimeout)
	// Keep the newest mark at or before the limit, and those after it.
	i := 0
	for i+1 < len(pl.marks) && !pl.marks[i+1].at.After(limit) {
		i++
	}
	pl.marks = append(pl.marks[:0], pl.marks[i:]...)
}

// endIdle ends the sessions not fed since now minus the idle timeout (as
// far as the marks tell: a session is idle when its last Feed came before
// a mark at least that old), and returns how many.
func (pl *Pipeline) endIdle(ctx context.Context, now time.Time) int {
	limit := now.Add(-pl.cfg.idleTimeout)
	var idle []*session
	pl.mu.Lock()
	var tick uint64
	found := false
	for _, m := range pl.marks {
		if m.at.After(limit) {
			break
		}
		tick, found = m.tick, true
	}
	if found {
		for id, s := range pl.sessions {
			if s.used.Load() <= tick {
				idle = append(idle, s)
				delete(pl.sessions, id)
			}
		}
	}
	pl.mu.Unlock()
	for _, s := range idle {
		pl.cfg.logger.Info("stream: session idle", "session", s.id, "idleTimeout", pl.cfg.idleTimeout)
		pl.endDetached(ctx, s, EndIdle)
	}
	return len(idle)
}

// Close ends every open session (reason EndShutdown: what their parsers
// held is released and applied, and their end events go out), then closes
// every sink, all within ctx. Reset sessions first to hand them to
// another instance instead. Further calls return ErrClosed.
func (pl *Pipeline) Close(ctx context.Context) error {
	pl.mu.Lock()
	if pl.closed {
		pl.mu.Unlock()
		return ErrClosed
	}
	pl.closed = true
	open := make([]*session, 0, len(pl.sessions))
	for _, s := range pl.sessions {
		open = append(open, s)
	}
	clear(pl.sessions)
	pl.mu.Unlock()
	close(pl.stop)
	<-pl.done
	var errs []error
	for _, s := range open {
		errs = append(errs, pl.endDetached(ctx, s, EndShutdown))
	}
	for _, sk := range pl.cfg.sinks {
		if err := sk.Close(ctx); err != nil {
			errs = append(errs, fmt.Errorf("stream: closing a sink: %w", err))
		}
	}
	return errors.Join(errs...)
}

// emitTo hands ev to sk, retrying as WithEmitRetry says.
func (pl *Pipeline) emitTo(ctx context.Context, sk sinks.Sink, ev sinks.Event) error {
	c := &pl.cfg
	pause := c.backoff
	for attempt := 0; ; attempt++ {
		var err error
		if c.emitTimeout > 0 {
			actx, cancel := context.WithTimeout(ctx, c.emitTimeout)
			err = sk.Emit(actx, ev)
			cancel()
		} else {
			err = sk.Emit(ctx, ev)
		}
		if err == nil {
			return nil
		}
		if attempt >= c.retries || ctx.Err() != nil || permanent(err) {
			return err
		}
		c.observer.SinkRetry()
		c.logger.Warn("stream: sink failed, retrying", "session", ev.Session, "seq", ev.Seq,
			"attempt", attempt+1, "pause", pause, "error", err)
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		pause = min(2*pause, c.maxBackoff)
	}
}

// permanent reports a sink error that a retry cannot mend.
func permanent(err error) bool {
	for _, e := range []error{sinks.ErrClosed, sinks.ErrBadEvent, sinks.ErrBadSubject, sinks.ErrLimit} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
