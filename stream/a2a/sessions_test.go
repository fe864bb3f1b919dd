package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// turnBody is a request in context contextID (none when empty) whose text
// is text.
func turnBody(d Dialect, stream bool, contextID, text string) string {
	method := map[Dialect]map[bool]string{
		A2A10: {false: "SendMessage", true: "SendStreamingMessage"},
		A2A03: {false: "message/send", true: "message/stream"},
	}[d][stream]
	ctx := ""
	if contextID != "" {
		ctx = `"contextId":` + mustJSONString(contextID) + `,`
	}
	return `{"jsonrpc":"2.0","id":"r","method":"` + method + `","params":{"message":{` + ctx + `"parts":[{"text":` + mustJSONString(text) + `}]}}}`
}

// turnParts sends one message and returns the parts of the reply (of its
// events, for a stream).
func turnParts(t *testing.T, s *Server, stream bool, contextID, text string) []Part {
	t.Helper()
	body := serve(t, s, turnBody(A2A10, stream, contextID, text))
	if stream {
		return eventParts(sseEvents(t, body, A2A10))
	}
	var reply rpcReply
	if err := json.Unmarshal(body, &reply); err != nil {
		t.Fatalf("reply %s: %v", body, err)
	}
	return replyParts(t, reply)
}

// formRunner answers "create" with a block creating the form and
// "update" with a block updating it, each after a line of prose.
var formRunner = RunnerFunc(func(ctx context.Context, req *Request, yield func([]byte) error) error {
	switch req.Text {
	case "create":
		return yield([]byte("Created.\n" + block("["+formCreate+"]")))
	case "update":
		return yield([]byte("Updated.\n" + block("["+formUpdate+"]")))
	}
	return yield([]byte("?"))
})

// sentMessages is the messages of parts, as strings.
func sentMessages(t *testing.T, parts []Part) []string {
	t.Helper()
	msgs, _ := partsMessages(t, parts)
	return msgs
}

// logBuffer is a log destination safe for concurrent writes.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// rejected counts the messages the pipeline logged as failed in a context.
func (l *logBuffer) rejected(contextID string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range strings.Split(l.b.String(), "\n") {
		if strings.Contains(line, `msg="stream: message failed"`) && strings.Contains(line, "session="+contextID+" ") {
			n++
		}
	}
	return n
}

// loggedServer is newServer with a logger whose lines the test reads.
func loggedServer(t *testing.T, runner Runner, opts ...Option) (*Server, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	return newServer(t, runner, append(opts, WithLogger(slog.New(slog.NewTextHandler(logs, nil))))...), logs
}

// TestContextKeepsSurfaces checks that a context's surfaces persist from
// one message to the next: an update of a surface created by an earlier
// answer of the context applies, and the same update in another context,
// which never created it, is rejected by its processor (and logged), though
// forwarded all the same, as the reference forwards what the model wrote.
func TestContextKeepsSurfaces(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "send", true: "stream"}[stream], func(t *testing.T) {
			s, logs := loggedServer(t, formRunner)
			if got := sentMessages(t, turnParts(t, s, stream, "ctx-a", "create")); len(got) != 1 || got[0] != formCreate {
				t.Fatalf("create: messages %q", got)
			}
			if got := sentMessages(t, turnParts(t, s, stream, "ctx-a", "update")); len(got) != 1 || got[0] != formUpdate {
				t.Fatalf("update in the same context: messages %q, want the update", got)
			}
			if n := logs.rejected("ctx-a"); n != 0 {
				t.Fatalf("ctx-a: %d messages rejected, want none", n)
			}
			parts := turnParts(t, s, stream, "ctx-b", "update")
			msgs, text := partsMessages(t, parts)
			if len(msgs) != 1 || msgs[0] != formUpdate || !strings.Contains(text, "Updated.") {
				t.Fatalf("update in another context: messages %q text %q, want it forwarded with the prose", msgs, text)
			}
			if n := logs.rejected("ctx-b"); n != 1 {
				t.Fatalf("ctx-b: %d messages rejected, want the update", n)
			}
		})
	}
}

// TestSessionBounds checks that a context whose session was evicted (the
// session limit) or ended idle has lost its surfaces: its update is
// rejected.
func TestSessionBounds(t *testing.T) {
	t.Run("evicted", func(t *testing.T) {
		s, logs := loggedServer(t, formRunner, WithMaxSessions(1))
		turnParts(t, s, false, "ctx-a", "create")
		turnParts(t, s, false, "ctx-b", "create") // evicts ctx-a
		turnParts(t, s, false, "ctx-b", "update")
		if n := logs.rejected("ctx-b"); n != 0 {
			t.Fatalf("update in the kept context: %d rejected, want none", n)
		}
		turnParts(t, s, false, "ctx-a", "update")
		if n := logs.rejected("ctx-a"); n != 1 {
			t.Fatalf("update after eviction: %d rejected, want 1", n)
		}
	})
	t.Run("idle", func(t *testing.T) {
		s, logs := loggedServer(t, formRunner, WithSessionIdleTimeout(time.Millisecond))
		turnParts(t, s, true, "ctx-a", "create")
		// Hang guard only: the idle sweep ends the session soon after.
		for deadline := time.Now().Add(10 * time.Second); s.pl.Sessions() > 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the idle session was never ended")
			}
		}
		turnParts(t, s, true, "ctx-a", "update")
		if n := logs.rejected("ctx-a"); n != 1 {
			t.Fatalf("update after the idle end: %d rejected, want 1", n)
		}
	})
}

// TestContextTurnsRunOneAtATime sends a second message to a context while
// the answer to the first is half-way through a block: the second turn
// runs only once the first ended, so that neither answer's chunks land in
// the other's block, and the second applies to the surface the first
// created.
func TestContextTurnsRunOneAtATime(t *testing.T) {
	waiting, gate := make(chan struct{}), make(chan struct{})
	var firstDone, secondSawFirstDone atomic.Bool
	s := newServer(t, RunnerFunc(func(ctx context.Context, req *Request, yield func([]byte) error) error {
		if req.Text == "second" {
			secondSawFirstDone.Store(firstDone.Load())
			return yield([]byte(block("[" + formUpdate + "]")))
		}
		if err := yield([]byte("First <a2ui-json>[" + formCreate)); err != nil {
			return err
		}
		close(waiting)
		select {
		case <-gate:
		case <-ctx.Done():
			return ctx.Err()
		}
		err := yield([]byte("]</a2ui-json> done"))
		firstDone.Store(true)
		return err
	}))
	var wg sync.WaitGroup
	bodies := make([][]byte, 2)
	for i, text := range []string{"first", "second"} {
		if i == 1 {
			<-waiting
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(turnBody(A2A10, true, "ctx", text))))
			bodies[i] = rec.Body.Bytes()
		}()
	}
	// Hang guard only: wait until the second turn waits for the first.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s.turnsMu.Lock()
		refs := 0
		if sl := s.turns["ctx"]; sl != nil {
			refs = sl.refs
		}
		s.turnsMu.Unlock()
		if refs == 2 {
			break
		}
		if time.Now().After(deadline) {
			close(gate)
			wg.Wait()
			t.Fatal("the second request never waited for its turn")
		}
	}
	close(gate)
	wg.Wait()
	if !secondSawFirstDone.Load() {
		t.Error("the second turn ran before the first ended")
	}
	for i, want := range []string{formCreate, formUpdate} {
		if got := sentMessages(t, eventParts(sseEvents(t, bodies[i], A2A10))); len(got) != 1 || got[0] != want {
			t.Errorf("turn %d: messages %q, want %s", i, got, want)
		}
	}
	s.turnsMu.Lock()
	left := len(s.turns)
	s.turnsMu.Unlock()
	if left != 0 {
		t.Errorf("%d turn slots left after the turns ended", left)
	}
}

// TestServerClose checks that a closed server answers with an internal
// error (a failed status for a stream) and that a second Close reports
// ErrServerClosed.
func TestServerClose(t *testing.T) {
	s, err := NewServer(formRunner)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); !errors.Is(err, ErrServerClosed) {
		t.Errorf("second close: %v, want ErrServerClosed", err)
	}
	var reply rpcReply
	if err := json.Unmarshal(serve(t, s, turnBody(A2A10, false, "", "create")), &reply); err != nil {
		t.Fatal(err)
	}
	if reply.Error == nil || reply.Error.Code != CodeInternalError {
		t.Errorf("send after close: %+v, want an internal error", reply)
	}
	events := sseEvents(t, serve(t, s, turnBody(A2A10, true, "", "create")), A2A10)
	if last := events[len(events)-1]; last.state != "TASK_STATE_FAILED" {
		t.Errorf("stream after close ends with %+v, want a failed status", last)
	}
}
