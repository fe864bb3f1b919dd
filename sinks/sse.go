package sinks

import (
	"container/list"
	"context"
	"sync"
)

// SSE is a sink that is also an http.Handler: it serves each session's
// events as Server-Sent Events on GET /sessions/<id>/events (the id
// path-escaped), so that a browser's EventSource or `curl -N` can follow a
// session live. Each event is one SSE message:
//
//	id: <seq>
//	event: <kind>
//	data: <line>
//
// A session keeps its latest events (WithReplay, WithReplayBytes), so a
// client that joins late first gets what it missed: the buffered events
// after its Last-Event-ID header (all of them without one). The first
// replayed id tells a client whether older events were lost. A client may
// ask for a session no event has reached yet, and waits for it. A stream
// ends after the session's end event; a client that has seen the end
// event and reconnects gets 204 No Content, which stops an EventSource.
// After its end event a session's buffer stays for late joiners among
// the most recently used ended sessions (WithEndedSessions). The sessions
// held at once are bounded (WithMaxSessions): a new one takes the place of
// the least recently used ended session, or, for an event, of the least
// recently active session no client follows, or else of a session only
// awaited by clients (who are disconnected); otherwise Emit returns a
// *LimitError and a client waiting for an unknown session gets 503.
//
// Emit never waits for a client: each client has a queue
// (WithClientQueue), and a client whose queue is full is dropped, its
// connection closed, while the others go on. Idle streams get a comment
// line every WithHeartbeat. Other paths get 404 and other methods 405.
// Close ends every stream and refuses further Emits and clients (503).
//
// Events of a session are expected in increasing Seq: an event whose Seq
// is not above the session's last is a re-emitted duplicate and ignored,
// except that Seq 1 after the end event starts the session over.
//
// An SSE is safe for concurrent use, by Emit, Close and any number of
// requests.
type SSE struct {
	cfg sseConfig
	g   gate // the requests being served

	mu       sync.Mutex
	closed   bool
	sessions map[string]*session
	live     *list.List // live and awaited sessions, most recently active first
	ended    *list.List // ended sessions, most recently used first
	clients  map[*sseClient]struct{}
}

// sseClient is one connected stream.
type sseClient struct {
	sess   *session
	ch     chan *frame // the client's queue
	ctx    context.Context
	cancel context.CancelCauseFunc // ends the stream, closing the connection
}

// NewSSE returns an SSE sink with the options' bounds.
func NewSSE(opts ...SSEOption) (*SSE, error) {
	cfg := sseConfig{
		replay:        DefaultReplay,
		replayBytes:   DefaultReplayBytes,
		endedSessions: DefaultEndedSessions,
		maxSessions:   DefaultMaxSessions,
		clientQueue:   DefaultClientQueue,
		maxClients:    DefaultMaxClients,
		heartbeat:     DefaultHeartbeat,
	}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	return &SSE{
		cfg:      cfg,
		sessions: make(map[string]*session),
		live:     list.New(),
		ended:    list.New(),
		clients:  make(map[*sseClient]struct{}),
	}, nil
}

// Emit keeps e in its session's replay buffer and queues it for the
// session's clients, dropping those whose queue is full. It does not
// block on any client. An event with an empty Session, Line or Kind, a
// line break in its Line or a zero Seq is an *EventError; a new session
// beyond the bound on sessions a *LimitError.
func (s *SSE) Emit(ctx context.Context, e Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if e.Session == "" {
		return &EventError{Sink: "sse", Session: e.Session, Seq: e.Seq, Field: "session", Reason: "is empty"}
	}
	if err := checkEvent("sse", e); err != nil {
		return err
	}
	f := newFrame(e)
	var slow, evicted []*sseClient
	err := func() error {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.closed {
			return ErrClosed
		}
		ss, dropped, err := s.getSession(e.Session, true)
		evicted = dropped
		if err != nil {
			return err
		}
		switch {
		case ss.ended && e.Seq == 1:
			s.restart(ss)
		case e.Seq <= ss.lastSeq:
			return nil // a duplicate
		case ss.ended: // more after the end: live again
			s.ended.Remove(ss.elem)
			ss.ended = false
			ss.elem = s.live.PushFront(ss)
		default:
			s.live.MoveToFront(ss.elem)
		}
		ss.lastSeq = e.Seq
		ss.ring.push(f, s.cfg.replay, s.cfg.replayBytes)
		for c := range ss.clients {
			select {
			case c.ch <- f:
			default:
				delete(ss.clients, c)
				slow = append(slow, c)
			}
		}
		if f.end {
			clear(ss.clients) // each has the end event queued, or was dropped
			s.end(ss)
		}
		return nil
	}()
	for _, c := range evicted {
		c.cancel(&LimitError{What: "sessions", Limit: s.cfg.maxSessions})
	}
	for _, c := range slow {
		c.cancel(ErrSlowClient)
		if s.cfg.onDrop != nil {
			s.cfg.onDrop(e.Session)
		}
	}
	return err
}

// Close refuses further Emits and clients, ends every stream, forgets
// the sessions and waits for the requests being served to return, or
// for ctx to be done (then it returns an error wrapping ctx's).
func (s *SSE) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.closed = true
	clients := s.clients
	s.clients = make(map[*sseClient]struct{})
	s.sessions = make(map[string]*session)
	s.live.Init()
	s.ended.Init()
	s.mu.Unlock()
	for c := range clients {
		c.cancel(ErrClosed)
	}
	return s.g.close(ctx)
}
