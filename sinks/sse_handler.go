package sinks

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// heartbeat is the comment line an idle stream gets.
var heartbeat = []byte(": heartbeat\n\n")

// sessionFromPath returns the session id of an escaped path
// /sessions/<id>/events. The path is parsed here rather than by an
// http.ServeMux pattern, which would redirect unclean paths (such as
// /sessions//events) instead of answering 404 and would serve HEAD.
func sessionFromPath(escaped string) (string, bool) {
	rest, ok := strings.CutPrefix(escaped, "/sessions/")
	if !ok {
		return "", false
	}
	seg, ok := strings.CutSuffix(rest, "/events")
	if !ok || seg == "" || strings.Contains(seg, "/") {
		return "", false
	}
	id, err := url.PathUnescape(seg)
	if err != nil || id == "" {
		return "", false
	}
	return id, true
}

// ServeHTTP serves GET /sessions/<id>/events as an event stream: the
// buffered events after the Last-Event-ID header, then each new event,
// until the session's end event, the client leaving or being dropped, or
// Close. A Last-Event-ID that is not a decimal number is 400.
func (s *SSE) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionFromPath(r.URL.EscapedPath())
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "sinks: sse: method not allowed", http.StatusMethodNotAllowed)
		return
	}
	var last uint64
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			http.Error(w, "sinks: sse: Last-Event-ID "+strconv.Quote(v)+" is not an event id", http.StatusBadRequest)
			return
		}
		last = n
	}
	if err := s.g.enter(); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer s.g.leave()
	c, replay, ended, status, err := s.join(r.Context(), id, last)
	if err != nil {
		http.Error(w, err.Error(), status)
		return
	}
	if c == nil {
		w.WriteHeader(status)
		return
	}
	defer s.leave(c)

	// Dropping the client or closing the sink cuts a write that waits on a
	// client which does not read, so that the handler returns and the
	// server closes the connection. A stream that ends normally stops the
	// cut first (or waits until it has happened).
	rc := http.NewResponseController(w)
	cut := make(chan struct{})
	stop := context.AfterFunc(c.ctx, func() {
		rc.SetWriteDeadline(time.Unix(1, 0)) // in the past; not supported: the write runs on
		close(cut)
	})
	defer func() {
		if !stop() {
			<-cut
		}
	}()

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	for _, f := range replay {
		if _, err := w.Write(f.data); err != nil {
			return
		}
	}
	if err := rc.Flush(); err != nil || ended {
		return
	}
	s.follow(w, rc, c)
}

// follow writes the client's queued events as they come, and heartbeats,
// until the end event, a failed write or the client's end.
func (s *SSE) follow(w http.ResponseWriter, rc *http.ResponseController, c *sseClient) {
	var tick <-chan time.Time
	if s.cfg.heartbeat > 0 {
		t := time.NewTicker(s.cfg.heartbeat)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case f := <-c.ch:
			end, err := writeQueued(w, c, f)
			if err != nil {
				return
			}
			if err := rc.Flush(); err != nil || end {
				return
			}
		case <-tick:
			if _, err := w.Write(heartbeat); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
		case <-c.ctx.Done():
			return
		}
	}
}

// writeQueued writes f and what else is queued now, up to the end event,
// so that one flush sends them together. It reports whether it wrote the
// end event.
func writeQueued(w http.ResponseWriter, c *sseClient, f *frame) (bool, error) {
	for {
		if _, err := w.Write(f.data); err != nil {
			return false, err
		}
		if f.end {
			return true, nil
		}
		select {
		case f = <-c.ch:
		default:
			return false, nil
		}
	}
}

// join registers a client of session id that has seen the events up to
// last, and returns it with the buffered events it missed and whether
// the session has ended (then the replay is all it gets). Without a
// client it returns the status to answer: 204 when the session has ended
// and nothing is left to replay (the client has seen the end event), 503
// with an error when the sink is closed or full.
func (s *SSE) join(ctx context.Context, id string, last uint64) (c *sseClient, replay []*frame, ended bool, status int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, false, http.StatusServiceUnavailable, ErrClosed
	}
	if len(s.clients) >= s.cfg.maxClients {
		return nil, nil, false, http.StatusServiceUnavailable, &LimitError{What: "clients", Limit: s.cfg.maxClients}
	}
	ss, _, err := s.getSession(id, false) // drops no client when not for an event
	if err != nil {
		return nil, nil, false, http.StatusServiceUnavailable, err
	}
	replay = ss.ring.after(last)
	if ss.ended {
		if len(replay) == 0 { // seen the end, or nothing left to replay
			return nil, nil, false, http.StatusNoContent, nil
		}
		s.ended.MoveToFront(ss.elem)
	}
	c = &sseClient{sess: ss, ch: make(chan *frame, s.cfg.clientQueue)}
	c.ctx, c.cancel = context.WithCancelCause(ctx)
	s.clients[c] = struct{}{}
	if !ss.ended {
		ss.clients[c] = struct{}{}
	}
	return c, replay, ss.ended, 0, nil
}

// leave unregisters c, forgetting its session when it was only awaited
// and no other client waits for it.
func (s *SSE) leave(c *sseClient) {
	s.mu.Lock()
	delete(s.clients, c)
	ss := c.sess
	delete(ss.clients, c)
	if s.sessions[ss.id] == ss && ss.awaited() && len(ss.clients) == 0 {
		s.removeSession(ss)
	}
	s.mu.Unlock()
	c.cancel(nil)
}
