package sinks

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// hangGuard bounds a wait that should end on its own.
const hangGuard = 30 * time.Second

// newSSEServer serves a new SSE sink; the sink closes (ending the
// streams) before the server.
func newSSEServer(t *testing.T, opts ...SSEOption) (*SSE, *httptest.Server) {
	t.Helper()
	s, err := NewSSE(opts...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { s.Close(context.Background()) })
	return s, srv
}

// follow opens the stream of session on srv with an optional
// Last-Event-ID. It returns once the response headers are in: the
// client is registered by then.
func follow(t *testing.T, srv *httptest.Server, session, lastID string) (*http.Response, *bufio.Reader) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/sessions/"+session+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp, bufio.NewReader(resp.Body)
}

// expect reads the next messages from r, skipping heartbeats, and
// compares them with want.
func expect(t *testing.T, r *bufio.Reader, want ...Event) {
	t.Helper()
	for _, e := range want {
		var m sseMsg
		var err error
		for m.id == "" && err == nil {
			m, err = readSSE(r)
		}
		if err != nil {
			t.Fatalf("reading event %d: %v", e.Seq, err)
		}
		if m != msgOf(e) {
			t.Fatalf("got %+v, want %+v", m, msgOf(e))
		}
	}
}

// expectEnd checks that the stream ends after what was read.
func expectEnd(t *testing.T, r *bufio.Reader) {
	t.Helper()
	rest, err := io.ReadAll(r)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("reading to the end: %v", err)
	}
	if strings.Contains(string(rest), "id: ") {
		t.Fatalf("more events after the end: %q", rest)
	}
}

func emit(t *testing.T, s *SSE, events ...Event) {
	t.Helper()
	for _, e := range events {
		if err := s.Emit(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSSELiveFollow(t *testing.T) {
	s, srv := newSSEServer(t)
	resp, r := follow(t, srv, "s1", "") // before the session starts: it waits
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := []Event{ev(1), evOf("s1", 2, KindBatch), evOf("other", 1, KindText), evOf("s1", 3, KindEnd)}
	for _, e := range events {
		emit(t, s, e)
		if e.Session == "s1" {
			expect(t, r, e) // each arrives before the next is emitted
		}
	}
	expectEnd(t, r)
}

func TestSSEReplay(t *testing.T) {
	live := []Event{ev(1), evOf("s1", 2, KindBatch), ev(3)}
	ended := append(live[:3:3], evOf("s1", 4, KindEnd))
	tests := []struct {
		name    string
		opts    []SSEOption
		emitted []Event
		lastID  string
		status  int
		replay  []Event
		ends    bool // the stream ends after the replay
	}{
		{"late join gets all", nil, live, "", 200, live, false},
		{"Last-Event-ID skips what was seen", nil, live, "2", 200, live[2:], false},
		{"Last-Event-ID at the latest", nil, live, "3", 200, nil, false},
		{"replay keeps the latest events", []SSEOption{WithReplay(2)}, live, "", 200, live[1:], false},
		{"no replay", []SSEOption{WithReplay(0)}, live, "", 200, nil, false},
		{"replay bytes keep the latest events", []SSEOption{WithReplayBytes(2*len(newFrame(ev(1)).data) + 10)}, live, "", 200, live[1:], false},
		{"an ended session replays to its end", nil, ended, "", 200, ended, true},
		{"an ended session after Last-Event-ID", nil, ended, "3", 200, ended[3:], true},
		{"an ended session seen to its end", nil, ended, "4", http.StatusNoContent, nil, true},
		{"an ended session whose buffer is dropped", []SSEOption{WithEndedSessions(0)}, ended, "", 200, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newSSEServer(t, tc.opts...)
			emit(t, s, tc.emitted...)
			resp, r := follow(t, srv, "s1", tc.lastID)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			expect(t, r, tc.replay...)
			if tc.ends {
				expectEnd(t, r)
				return
			}
			next := Event{Session: "s1", Seq: 5, Kind: KindText, Line: []byte(`{"next":true}`)}
			emit(t, s, next)
			expect(t, r, next) // nothing else came before it
		})
	}
}

func TestSSEDuplicatesAndRestart(t *testing.T) {
	s, srv := newSSEServer(t)
	_, r := follow(t, srv, "s1", "")
	emit(t, s, ev(1), ev(2), ev(2), ev(1), evOf("s1", 3, KindEnd))
	expect(t, r, ev(1), ev(2), evOf("s1", 3, KindEnd))
	expectEnd(t, r)
	restarted := Event{Session: "s1", Seq: 1, Kind: KindText, Line: []byte(`{"run":2}`)}
	emit(t, s, restarted)
	_, r = follow(t, srv, "s1", "")
	expect(t, r, restarted) // the old run's events are gone
	emit(t, s, ev(2))
	expect(t, r, ev(2))
}

func TestSSEEscapedSessionID(t *testing.T) {
	s, srv := newSSEServer(t)
	e := evOf("a/b c", 1, KindText)
	emit(t, s, e)
	_, r := follow(t, srv, "a%2Fb%20c", "")
	expect(t, r, e)
}

func TestSSEBadRequests(t *testing.T) {
	_, srv := newSSEServer(t)
	tests := []struct {
		name, method, path, lastID string
		status                     int
	}{
		{"root", "GET", "/", "", 404},
		{"no session", "GET", "/sessions/", "", 404},
		{"empty session", "GET", "/sessions//events", "", 404},
		{"two segments", "GET", "/sessions/a/b/events", "", 404},
		{"wrong tail", "GET", "/sessions/a/event", "", 404},
		{"trailing slash", "GET", "/sessions/a/events/", "", 404},
		{"escaped empty session", "GET", "/sessions/%20/events/x", "", 404},
		{"wrong head", "GET", "/session/a/events", "", 404},
		{"POST", "POST", "/sessions/a/events", "", 405},
		{"HEAD", "HEAD", "/sessions/a/events", "", 405},
		{"DELETE", "DELETE", "/sessions/a/events", "", 405},
		{"bad Last-Event-ID", "GET", "/sessions/a/events", "x", 400},
		{"negative Last-Event-ID", "GET", "/sessions/a/events", "-1", 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.lastID != "" {
				req.Header.Set("Last-Event-ID", tc.lastID)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status == 405 && resp.Header.Get("Allow") != "GET" {
				t.Errorf("Allow %q, want GET", resp.Header.Get("Allow"))
			}
		})
	}
}

func TestSessionFromPath(t *testing.T) {
	tests := []struct {
		name, path, id string
		ok             bool
	}{
		{"plain", "/sessions/s1/events", "s1", true},
		{"escaped slash", "/sessions/a%2Fb/events", "a/b", true},
		{"escaped space", "/sessions/a%20b/events", "a b", true},
		{"bad escape", "/sessions/%zz/events", "", false},
		{"empty", "/sessions//events", "", false},
		{"escaped nothing", "/sessions/%/events", "", false},
		{"extra segment", "/sessions/a/b/events", "", false},
		{"prefix only", "/sessions/events", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, ok := sessionFromPath(tc.path)
			if id != tc.id || ok != tc.ok {
				t.Errorf("sessionFromPath(%q) = %q, %v; want %q, %v", tc.path, id, ok, tc.id, tc.ok)
			}
		})
	}
}

// TestSSESlowClientDropped: a client that never reads fills its queue
// and is dropped, its connection closed, while a client that reads gets
// every event.
func TestSSESlowClientDropped(t *testing.T) {
	drops := make(chan string, 16)
	s, srv := newSSEServer(t, WithClientQueue(2), WithHeartbeat(0), WithOnDrop(func(id string) { drops <- id }))

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := fmt.Fprint(conn, "GET /sessions/s1/events HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(hangGuard))
	slow := bufio.NewReader(conn)
	resp, err := http.ReadResponse(slow, nil) // the headers; then it reads no more
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("slow client: %v, %v", resp, err)
	}

	_, fast := follow(t, srv, "s1", "")
	pad := strings.Repeat("x", 256<<10)
	big := func(seq uint64) Event {
		return Event{Session: "s1", Seq: seq, Kind: KindText, Line: []byte(fmt.Sprintf(`{"seq":%d,"pad":"%s"}`, seq, pad))}
	}
	seq := uint64(0)
	for dropped := false; !dropped; {
		seq++
		if seq > 100_000 { // a hang guard: loopback buffers are far smaller
			t.Fatal("the slow client was never dropped")
		}
		emit(t, s, big(seq))
		expect(t, fast, big(seq)) // so the fast client's queue never holds two
		select {
		case id := <-drops:
			if id != "s1" {
				t.Fatalf("dropped a client of %q", id)
			}
			dropped = true
		default:
		}
	}
	for range 3 { // the fast client keeps receiving
		seq++
		emit(t, s, big(seq))
		expect(t, fast, big(seq))
	}
	end := evOf("s1", seq+1, KindEnd)
	emit(t, s, end)
	expect(t, fast, end)
	expectEnd(t, fast)
	if len(drops) != 0 {
		t.Errorf("%d more clients dropped", len(drops))
	}

	// The slow client's connection is closed: reading it to the end
	// finishes (at EOF or a reset) before the hang guard.
	_, err = io.Copy(io.Discard, slow)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the slow client's connection stayed open")
	}
}

func TestSSECloseEndsStreams(t *testing.T) {
	s, srv := newSSEServer(t)
	emit(t, s, ev(1))
	_, live := follow(t, srv, "s1", "")
	expect(t, live, ev(1))
	_, waiting := follow(t, srv, "not-yet", "")
	if err := s.Close(context.Background()); err != nil { // returns once the streams have ended
		t.Fatal(err)
	}
	expectEnd(t, live)
	expectEnd(t, waiting)
	resp, _ := follow(t, srv, "s1", "")
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a client after Close: status %d, want 503", resp.StatusCode)
	}
	if err := s.Emit(context.Background(), ev(2)); !errors.Is(err, ErrClosed) {
		t.Errorf("Emit after Close = %v, want ErrClosed", err)
	}
}

func TestSSEHeartbeat(t *testing.T) {
	_, srv := newSSEServer(t, WithHeartbeat(time.Millisecond))
	_, r := follow(t, srv, "quiet", "")
	m, err := readSSE(r) // arrives however long it takes; the request's context is the hang guard
	if err != nil {
		t.Fatal(err)
	}
	if m != (sseMsg{comment: "heartbeat"}) {
		t.Errorf("got %+v, want a heartbeat comment", m)
	}
}

func TestSSELimits(t *testing.T) {
	t.Run("a session beyond the bound is refused while the others are followed", func(t *testing.T) {
		s, srv := newSSEServer(t, WithMaxSessions(1))
		emit(t, s, evOf("a", 1, KindText))
		_, r := follow(t, srv, "a", "")
		expect(t, r, evOf("a", 1, KindText))
		err := s.Emit(context.Background(), evOf("b", 1, KindText))
		var le *LimitError
		if !errors.As(err, &le) || le.What != "sessions" || !errors.Is(err, ErrLimit) {
			t.Errorf("Emit of a new session = %v, want a *LimitError", err)
		}
		if resp, _ := follow(t, srv, "c", ""); resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("a client of an unknown session: status %d, want 503", resp.StatusCode)
		}
	})
	t.Run("a new session takes an ended one's place", func(t *testing.T) {
		s, srv := newSSEServer(t, WithMaxSessions(1))
		emit(t, s, evOf("a", 1, KindEnd), evOf("b", 1, KindText))
		_, r := follow(t, srv, "b", "")
		expect(t, r, evOf("b", 1, KindText))
		if resp, _ := follow(t, srv, "a", ""); resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("a client of the dropped session: status %d, want 503 (b is live)", resp.StatusCode)
		}
	})
	t.Run("an event's session takes the place of one only awaited", func(t *testing.T) {
		s, srv := newSSEServer(t, WithMaxSessions(1))
		_, waiting := follow(t, srv, "a", "")
		emit(t, s, evOf("b", 1, KindText))
		expectEnd(t, waiting)
	})
	t.Run("clients beyond the bound get 503", func(t *testing.T) {
		_, srv := newSSEServer(t, WithMaxClients(1))
		if resp, _ := follow(t, srv, "a", ""); resp.StatusCode != 200 {
			t.Fatalf("first client: status %d", resp.StatusCode)
		}
		if resp, _ := follow(t, srv, "a", ""); resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("second client: status %d, want 503", resp.StatusCode)
		}
	})
}

func TestSSEEventErrors(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Event)
		field string
	}{
		{"empty session", func(e *Event) { e.Session = "" }, "session"},
		{"zero seq", func(e *Event) { e.Seq = 0 }, "seq"},
		{"empty kind", func(e *Event) { e.Kind = "" }, "kind"},
		{"kind with a newline", func(e *Event) { e.Kind = "text\ndata: x" }, "kind"},
		{"line with a newline", func(e *Event) { e.Line = []byte("{}\n\ndata: x") }, "line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSSE()
			if err != nil {
				t.Fatal(err)
			}
			e := ev(1)
			tc.edit(&e)
			err = s.Emit(context.Background(), e)
			var ee *EventError
			if !errors.As(err, &ee) || ee.Field != tc.field || !errors.Is(err, ErrBadEvent) {
				t.Errorf("Emit = %v, want an *EventError on the %s", err, tc.field)
			}
			if len(s.sessions) != 0 {
				t.Errorf("a bad event made a session")
			}
		})
	}
}

func TestSSEOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		opt  SSEOption
	}{
		{"negative replay", WithReplay(-1)},
		{"zero replay bytes", WithReplayBytes(0)},
		{"negative ended sessions", WithEndedSessions(-1)},
		{"zero sessions", WithMaxSessions(0)},
		{"zero client queue", WithClientQueue(0)},
		{"zero clients", WithMaxClients(0)},
		{"negative heartbeat", WithHeartbeat(-time.Second)},
		{"nil drop hook", WithOnDrop(nil)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSSE(tc.opt)
			var oe *OptionError
			if s != nil || !errors.As(err, &oe) || !errors.Is(err, ErrBadOption) {
				t.Errorf("NewSSE = %v, %v; want an *OptionError", s, err)
			}
		})
	}
}
