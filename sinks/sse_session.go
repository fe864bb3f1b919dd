package sinks

import (
	"container/list"
	"strconv"
)

// frame is one event encoded as an SSE message. Its bytes never change
// once made, so the replay buffer and every client queue share them.
type frame struct {
	seq  uint64
	end  bool
	data []byte
}

// newFrame encodes e as "id: <seq>\nevent: <kind>\ndata: <line>\n\n".
func newFrame(e Event) *frame {
	b := make([]byte, 0, len(e.Line)+len(e.Kind)+40)
	b = append(b, "id: "...)
	b = strconv.AppendUint(b, e.Seq, 10)
	b = append(b, "\nevent: "...)
	b = append(b, e.Kind...)
	b = append(b, "\ndata: "...)
	b = append(b, e.Line...)
	b = append(b, "\n\n"...)
	return &frame{seq: e.Seq, end: e.Kind == KindEnd, data: b}
}

// ring holds a session's latest frames, bounded in count and in bytes.
type ring struct {
	buf   []*frame // grows up to the count bound
	head  int      // index of the oldest frame
	n     int
	bytes int
}

// push appends f, dropping the oldest frames to stay within maxN frames
// and maxBytes bytes. A frame larger than maxBytes empties the ring and
// is not kept, so the ring always holds a run of consecutive frames.
func (r *ring) push(f *frame, maxN, maxBytes int) {
	if maxN == 0 {
		return
	}
	if len(f.data) > maxBytes {
		r.reset()
		return
	}
	for r.n > 0 && (r.n == maxN || r.bytes+len(f.data) > maxBytes) {
		r.bytes -= len(r.buf[r.head].data)
		r.buf[r.head] = nil
		r.head = (r.head + 1) % len(r.buf)
		r.n--
	}
	if r.n == len(r.buf) { // grow, oldest first
		grown := make([]*frame, min(max(2*len(r.buf), 8), maxN))
		for i := range r.n {
			grown[i] = r.buf[(r.head+i)%len(r.buf)]
		}
		r.buf, r.head = grown, 0
	}
	r.buf[(r.head+r.n)%len(r.buf)] = f
	r.n++
	r.bytes += len(f.data)
}

// after returns the frames with a sequence number above seq, oldest
// first, in a new slice.
func (r *ring) after(seq uint64) []*frame {
	var out []*frame
	for i := range r.n {
		if f := r.buf[(r.head+i)%len(r.buf)]; f.seq > seq {
			out = append(out, f)
		}
	}
	return out
}

func (r *ring) reset() { *r = ring{} }

// session is what the SSE sink holds for one session id: its replay
// buffer and its clients. A session no event has reached yet exists
// while clients wait for it.
type session struct {
	id      string
	ring    ring
	lastSeq uint64 // 0 until the first event
	ended   bool
	clients map[*sseClient]struct{}
	elem    *list.Element // in SSE.live or SSE.ended
}

// awaited reports whether s exists only for clients waiting for it.
func (s *session) awaited() bool { return s.lastSeq == 0 && !s.ended }

// getSession returns the session id, making it when absent: for an event
// (forEvent) or for a client waiting for it. At the bound on sessions, a
// new session replaces the least recently used ended one; failing that,
// for an event only, the least recently active live session without
// clients, and then an awaited session, whose clients are dropped (they
// are returned, to be told outside the lock). Otherwise the result is a
// *LimitError. s.mu is held.
func (s *SSE) getSession(id string, forEvent bool) (*session, []*sseClient, error) {
	if ss, ok := s.sessions[id]; ok {
		return ss, nil, nil
	}
	var dropped []*sseClient
	if len(s.sessions) >= s.cfg.maxSessions {
		victim := s.evictable(forEvent)
		if victim == nil {
			return nil, nil, &LimitError{What: "sessions", Limit: s.cfg.maxSessions}
		}
		for c := range victim.clients {
			dropped = append(dropped, c)
		}
		s.removeSession(victim)
	}
	ss := &session{id: id, clients: make(map[*sseClient]struct{})}
	ss.elem = s.live.PushFront(ss)
	s.sessions[id] = ss
	return ss, dropped, nil
}

// evictable picks the session to make room for a new one, or nil.
func (s *SSE) evictable(forEvent bool) *session {
	if e := s.ended.Back(); e != nil {
		return e.Value.(*session)
	}
	if !forEvent {
		return nil
	}
	var awaited *session
	for e := s.live.Back(); e != nil; e = e.Prev() {
		ss := e.Value.(*session)
		if ss.awaited() {
			if awaited == nil {
				awaited = ss
			}
			continue
		}
		if len(ss.clients) == 0 {
			return ss
		}
	}
	return awaited
}

// removeSession forgets ss. Its clients, if any, are the caller's to
// drop or to let finish. s.mu is held.
func (s *SSE) removeSession(ss *session) {
	if ss.ended {
		s.ended.Remove(ss.elem)
	} else {
		s.live.Remove(ss.elem)
	}
	delete(s.sessions, ss.id)
}

// end marks ss ended and keeps it among the ended sessions, dropping the
// least recently used beyond the bound. Their clients have the end event
// queued already and finish on their own. s.mu is held.
func (s *SSE) end(ss *session) {
	s.live.Remove(ss.elem)
	ss.ended = true
	ss.elem = s.ended.PushFront(ss)
	for s.ended.Len() > s.cfg.endedSessions {
		s.removeSession(s.ended.Back().Value.(*session))
	}
}

// restart turns the ended session ss live again, empty, for a new run
// of events under the same id. s.mu is held.
func (s *SSE) restart(ss *session) {
	s.ended.Remove(ss.elem)
	ss.ended = false
	ss.lastSeq = 0
	ss.ring.reset()
	ss.elem = s.live.PushFront(ss)
}
