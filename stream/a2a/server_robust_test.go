package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// bareWriter is a ResponseWriter with no Flush, SetWriteDeadline or Unwrap,
// as some middleware wraps the writer.
type bareWriter struct{ w http.ResponseWriter }

func (b bareWriter) Header() http.Header         { return b.w.Header() }
func (b bareWriter) Write(p []byte) (int, error) { return b.w.Write(p) }
func (b bareWriter) WriteHeader(code int)        { b.w.WriteHeader(code) }

// deadlineWriter records the writes and write deadlines of a reply.
type deadlineWriter struct {
	*httptest.ResponseRecorder
	ops []string // "deadline", "clear" or "write"
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	d.ops = append(d.ops, "write")
	return d.ResponseRecorder.Write(p)
}

func (d *deadlineWriter) SetWriteDeadline(t time.Time) error {
	if t.IsZero() {
		d.ops = append(d.ops, "clear")
	} else {
		d.ops = append(d.ops, "deadline")
	}
	return nil
}

func rpcBody(d Dialect, stream bool) string {
	method := map[Dialect]map[bool]string{
		A2A10: {false: "SendMessage", true: "SendStreamingMessage"},
		A2A03: {false: "message/send", true: "message/stream"},
	}[d][stream]
	return `{"jsonrpc":"2.0","id":"r","method":"` + method + `","params":{"message":{"parts":[{"text":"x"}]}}}`
}

// sseEvents decodes every event of a recorded streamed reply.
func sseEvents(t *testing.T, body []byte, d Dialect) []streamEvent {
	t.Helper()
	return readEvents(t, &http.Response{Body: io.NopCloser(bytes.NewReader(body))}, d, `"r"`, nil)
}

// eventParts is the parts of events, in order.
func eventParts(events []streamEvent) []Part {
	var parts []Part
	for _, ev := range events {
		parts = append(parts, ev.parts...)
	}
	return parts
}

// TestStreamWithoutFlusher streams through a ResponseWriter that cannot
// flush (a middleware that wraps it): every event must still be written,
// only without the per-event flush.
func TestStreamWithoutFlusher(t *testing.T) {
	s := newServer(t, StaticRunner(streamedAnswer))
	for _, d := range []Dialect{A2A10, A2A03} {
		t.Run(d.String(), func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.ServeHTTP(bareWriter{rec}, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(rpcBody(d, true))))
			events := sseEvents(t, rec.Body.Bytes(), d)
			msgs, _ := Messages(eventParts(events))
			if len(events) < 2 || len(msgs) != len(streamedMessages) {
				t.Fatalf("%d events carrying %d messages, want every message:\n%s", len(events), len(msgs), rec.Body.String())
			}
			want := map[Dialect]string{A2A10: "TASK_STATE_COMPLETED", A2A03: "completed"}[d]
			if last := events[len(events)-1]; last.state != want {
				t.Errorf("last event %+v, want state %s", last, want)
			}
		})
	}
}

// TestServerCanceledReply cancels a request's context while the client is
// still there (the server shutting down) and checks that the client gets a
// well-formed end: a terminal status event for a stream (an A2A stream must
// end in a terminal state), a JSON-RPC error for a plain send.
func TestServerCanceledReply(t *testing.T) {
	for _, d := range []Dialect{A2A10, A2A03} {
		for _, stream := range []bool{true, false} {
			name := d.String() + map[bool]string{true: " stream", false: " send"}[stream]
			t.Run(name, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				s := newServer(t, RunnerFunc(func(ctx context.Context, _ *Request, yield func([]byte) error) error {
					if err := yield([]byte("Part of the answer ")); err != nil {
						return err
					}
					cancel() // the server shuts down mid-answer
					<-ctx.Done()
					return ctx.Err()
				}))
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(rpcBody(d, stream))).WithContext(ctx)
				s.ServeHTTP(rec, req)
				if !stream {
					var r rpcReply
					if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
						t.Fatalf("reply %q is not JSON-RPC: %v", rec.Body.String(), err)
					}
					if r.Error == nil || r.Error.Code != CodeInternalError || string(r.ID) != `"r"` {
						t.Errorf("reply %s, want an internal error for id \"r\"", rec.Body.String())
					}
					return
				}
				events := sseEvents(t, rec.Body.Bytes(), d)
				want := map[Dialect]string{A2A10: "TASK_STATE_CANCELED", A2A03: "canceled"}[d]
				last := events[len(events)-1]
				if last.kind != "status" || last.state != want || (d == A2A03 && !last.final) {
					t.Errorf("last event %+v, want a final %s status:\n%s", last, want, rec.Body.String())
				}
			})
		}
	}
}

// errReader fails every read, as a broken request body does.
type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("malformed chunked encoding") }

// TestBodyReadError checks that a body that cannot be read is answered with
// a 400 and a JSON-RPC error, not an empty 200.
func TestBodyReadError(t *testing.T) {
	s := newServer(t, StaticRunner("hi"))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", errReader{}))
	var r rpcReply
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatalf("reply %q: %v", rec.Body.String(), err)
	}
	if rec.Code != http.StatusBadRequest || r.Error == nil || r.Error.Code != CodeParseError {
		t.Errorf("status %d reply %s, want 400 with a parse error", rec.Code, rec.Body.String())
	}
}

// TestWriteDeadline checks that every write of a reply (each event of a
// stream, the body of a plain reply) runs under a write deadline, so that a
// client that stops reading cannot hold the handler and its runner forever,
// and that the deadline is cleared after each write (neither the pause
// before the next event nor a kept-alive connection must inherit it).
func TestWriteDeadline(t *testing.T) {
	tests := []struct {
		name      string
		stream    bool
		opts      []Option
		deadlines bool
	}{
		{name: "stream, default timeout", stream: true, deadlines: true},
		{name: "stream, custom timeout", stream: true, opts: []Option{WithWriteTimeout(time.Minute)}, deadlines: true},
		{name: "stream, disabled", stream: true, opts: []Option{WithWriteTimeout(0)}, deadlines: false},
		{name: "send, default timeout", stream: false, deadlines: true},
		{name: "send, disabled", stream: false, opts: []Option{WithWriteTimeout(0)}, deadlines: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, StaticRunner(streamedAnswer), tt.opts...)
			w := &deadlineWriter{ResponseRecorder: httptest.NewRecorder()}
			s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(rpcBody(A2A10, tt.stream))))
			if tt.stream {
				if n := len(sseEvents(t, w.Body.Bytes(), A2A10)); n < 3 {
					t.Fatalf("%d events", n)
				}
			} else if r := (rpcReply{}); json.Unmarshal(w.Body.Bytes(), &r) != nil || r.Result == nil {
				t.Fatalf("reply %s", w.Body.String())
			}
			if !tt.deadlines {
				for _, op := range w.ops {
					if op != "write" {
						t.Fatalf("ops %v, want writes only", w.ops)
					}
				}
				return
			}
			// Each write: a deadline, the write, then the deadline cleared,
			// so that no deadline runs while the runner thinks between
			// events (under HTTP/2 a deadline is a timer that resets the
			// stream when it fires, write or no write).
			ops := w.ops
			if len(ops) == 0 || len(ops)%3 != 0 {
				t.Fatalf("ops %v, want (deadline, write, clear) per write", ops)
			}
			for i := 0; i < len(ops); i += 3 {
				if ops[i] != "deadline" || ops[i+1] != "write" || ops[i+2] != "clear" {
					t.Fatalf("ops %v: write %d is %v, want deadline, write, clear", ops, i/3, ops[i:i+3])
				}
			}
		})
	}
}

func TestWriteTimeoutOption(t *testing.T) {
	if _, err := NewServer(StaticRunner(""), WithWriteTimeout(-time.Second)); err == nil {
		t.Error("negative write timeout accepted")
	}
}

// TestStatusTimestamps checks that task status timestamps are UTC with
// millisecond precision, the form A2A 1.0 specifies
// (YYYY-MM-DDTHH:mm:ss.sssZ).
func TestStatusTimestamps(t *testing.T) {
	s := newServer(t, StaticRunner(streamedAnswer))
	for _, d := range []Dialect{A2A10, A2A03} {
		t.Run(d.String(), func(t *testing.T) {
			body := serve(t, s, rpcBody(d, true))
			stamps := regexp.MustCompile(`"timestamp":"([^"]*)"`).FindAllSubmatch(body, -1)
			if len(stamps) < 3 {
				t.Fatalf("%d timestamps in %s", len(stamps), body)
			}
			form := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`)
			for _, m := range stamps {
				if !form.Match(m[1]) {
					t.Errorf("timestamp %q, want YYYY-MM-DDTHH:mm:ss.sssZ", m[1])
				}
			}
		})
	}
}

// TestStalledClient connects a client that sends a request and then never
// reads: once the socket buffers are full the reply's write blocks, misses
// its deadline, and the handler returns (for a stream, after stopping the
// runner through yield).
func TestStalledClient(t *testing.T) {
	chunk := bytes.Repeat([]byte("All work and no play makes Jack a dull boy. "), 1500)
	tests := []struct {
		name   string
		stream bool
		runner Runner
	}{
		{name: "stream: endless answer", stream: true, runner: RunnerFunc(func(ctx context.Context, _ *Request, yield func([]byte) error) error {
			for {
				if err := yield(chunk); err != nil {
					return err
				}
			}
		})},
		// 8 MiB of answer outgrows the socket buffers of a client that
		// reads nothing (Linux caps the send buffer at 4 MiB by default).
		{name: "send: answer larger than the socket buffers", runner: RunnerFunc(func(ctx context.Context, _ *Request, yield func([]byte) error) error {
			for range (8 << 20) / len(chunk) {
				if err := yield(chunk); err != nil {
					return err
				}
			}
			return nil
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runner := &trackedRunner{done: make(chan struct{}), Runner: tt.runner}
			s := newServer(t, runner, WithWriteTimeout(100*time.Millisecond), WithMaxResponseBytes(8<<20))
			handled := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer close(handled)
				s.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			body := rpcBody(A2A10, tt.stream)
			if _, err := fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body); err != nil {
				t.Fatal(err)
			}
			// The client reads nothing. Liveness only: without the deadline
			// the handler would block in a write for ever.
			select {
			case <-handled:
			case <-time.After(20 * time.Second):
				t.Fatal("handler still blocked 20s after the client stopped reading")
			}
			if tt.stream && (runner.err == nil || errors.Is(runner.err, context.Canceled)) {
				t.Errorf("runner returned %v, want the write error from yield", runner.err)
			}
		})
	}
}
