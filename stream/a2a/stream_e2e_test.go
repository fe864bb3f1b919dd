package a2a

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// sseReader reads the events of a server-sent event stream.
type sseReader struct{ r *bufio.Reader }

// next returns the data of the next event, or io.EOF at the end.
func (s *sseReader) next() ([]byte, error) {
	var data []byte
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && len(data) > 0 {
				return data, nil
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			if len(data) > 0 {
				return data, nil
			}
		case strings.HasPrefix(line, "data:"):
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")...)
		}
	}
}

// trackedRunner wraps a Runner and records when Run returns and with what.
type trackedRunner struct {
	Runner
	done chan struct{}
	err  error
}

func (r *trackedRunner) Run(ctx context.Context, req *Request, yield func([]byte) error) error {
	defer close(r.done)
	r.err = r.Runner.Run(ctx, req, yield)
	return r.err
}

func finished(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// streamedAnswer has two A2UI blocks so that data parts arrive throughout.
const streamedAnswer = "Here is the form.\n<a2ui-json>[" +
	`{"version":"v0.9.1","createSurface":{"surfaceId":"form","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},` +
	`{"version":"v0.9.1","updateComponents":{"surfaceId":"form","components":[{"id":"root","component":"Text","text":"Name"}]}}` +
	"]</a2ui-json>\nAnd the data:\n<a2ui-json>[" +
	`{"version":"v0.9.1","updateDataModel":{"surfaceId":"form","path":"/name","value":"Ada"}}` +
	"]</a2ui-json>\nDone."

// readEvents decodes the events of a streamed reply until it ends, calling
// each (when not nil) on every event as it arrives.
func readEvents(t *testing.T, resp *http.Response, d Dialect, id string, each func(streamEvent)) []streamEvent {
	t.Helper()
	sse := &sseReader{r: bufio.NewReader(resp.Body)}
	var events []streamEvent
	for {
		b, err := sse.next()
		if errors.Is(err, io.EOF) {
			return events
		}
		if err != nil {
			t.Fatal(err)
		}
		ev := decodeEvent(t, d, id, b)
		events = append(events, ev)
		if each != nil {
			each(ev)
		}
	}
}

// streamedMessages are the messages of streamedAnswer, in order.
var streamedMessages = []string{
	`{"version":"v0.9.1","createSurface":{"surfaceId":"form","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}`,
	`{"version":"v0.9.1","updateComponents":{"surfaceId":"form","components":[{"id":"root","component":"Text","text":"Name"}]}}`,
	`{"version":"v0.9.1","updateDataModel":{"surfaceId":"form","path":"/name","value":"Ada"}}`,
}

// sameJSON reports whether got and want encode the same JSON value.
func sameJSON(t *testing.T, got json.RawMessage, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("message %s: %v", got, err)
		return false
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	return reflect.DeepEqual(g, w)
}

// streamEvent is a decoded SSE event in dialect-neutral form.
type streamEvent struct {
	kind  string // task, status, artifact
	state string
	final bool
	parts []Part
}

func decodeEvent(t *testing.T, d Dialect, id string, b []byte) streamEvent {
	t.Helper()
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  map[string]json.RawMessage
		Error   *RPCError
	}
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("event %s: %v", b, err)
	}
	if env.JSONRPC != "2.0" || string(env.ID) != id || env.Error != nil {
		t.Fatalf("event envelope %s (want id %s)", b, id)
	}
	body := env.Result
	var ev streamEvent
	if d == A2A10 {
		if len(body) != 1 {
			t.Fatalf("1.0 result is not wrapped in one key: %s", b)
		}
		var inner map[string]json.RawMessage
		for k, v := range body {
			ev.kind = map[string]string{"task": "task", "statusUpdate": "status", "artifactUpdate": "artifact", "message": "message"}[k]
			if err := json.Unmarshal(v, &inner); err != nil {
				t.Fatal(err)
			}
		}
		body = inner
	} else {
		var kind string
		_ = json.Unmarshal(body["kind"], &kind)
		ev.kind = map[string]string{"task": "task", "status-update": "status", "artifact-update": "artifact", "message": "message"}[kind]
		_ = json.Unmarshal(body["final"], &ev.final)
	}
	if ev.kind == "" {
		t.Fatalf("unknown event %s", b)
	}
	var st struct {
		State   string `json:"state"`
		Message *struct {
			Role  string `json:"role"`
			Parts []Part `json:"parts"`
		} `json:"message"`
	}
	if s, ok := body["status"]; ok {
		if err := json.Unmarshal(s, &st); err != nil {
			t.Fatal(err)
		}
		ev.state = st.State
		if st.Message != nil {
			ev.parts = st.Message.Parts
			wantRole := map[Dialect]string{A2A10: "ROLE_AGENT", A2A03: "agent"}[d]
			if st.Message.Role != wantRole {
				t.Errorf("role %q, want %q", st.Message.Role, wantRole)
			}
		}
	}
	if a, ok := body["artifact"]; ok {
		var art struct {
			Parts []Part `json:"parts"`
		}
		if err := json.Unmarshal(a, &art); err != nil {
			t.Fatal(err)
		}
		ev.parts = art.Parts
	}
	for _, p := range ev.parts {
		if p.Shape != d.Shape() {
			t.Errorf("part in shape %v, want %v", p.Shape, d.Shape())
		}
	}
	return ev
}

func startStream(t *testing.T, ctx context.Context, url string, d Dialect, id string) *http.Response {
	t.Helper()
	method, header := "SendStreamingMessage", HeaderExtensions
	if d == A2A03 {
		method, header = "message/stream", LegacyHeaderExtensions
	}
	body := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{"message":{"messageId":"m","role":"user","parts":[{"text":"show me a form"}]}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(header, uri091)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream response %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if got := resp.Header.Get(header); got != uri091 {
		t.Errorf("activated extension header %q, want %q", got, uri091)
	}
	return resp
}

// TestStreamingIncremental streams a replay over loopback in both dialects
// and checks that the first data part reaches the client while the replay is
// still held mid-answer, that every part arrives in order in its own event,
// and that a final completed event ends the stream.
func TestStreamingIncremental(t *testing.T) {
	firstBlockEnd := strings.Index(streamedAnswer, "</a2ui-json>")
	const chunk = 8
	for _, d := range []Dialect{A2A10, A2A03} {
		for _, artifacts := range []bool{false, true} {
			name := d.String() + map[bool]string{false: " status events", true: " artifact events"}[artifacts]
			t.Run(name, func(t *testing.T) {
				gate := make(chan struct{})
				var mu sync.Mutex
				sent := 1 // chunks yielded so far (Wait runs before every chunk after the first)
				replay := &ReplayRunner{Output: []byte(streamedAnswer), ChunkSize: chunk, Pace: time.Millisecond,
					Wait: func(ctx context.Context) error {
						mu.Lock()
						past := sent*chunk > firstBlockEnd+len("</a2ui-json>")
						sent++
						mu.Unlock()
						if past { // hold the replay once the first block is out
							select {
							case <-gate:
							case <-ctx.Done():
								return ctx.Err()
							}
						}
						return nil
					}}
				runner := &trackedRunner{Runner: replay, done: make(chan struct{})}
				srv := newTestServer(t, runner, WithArtifactEvents(artifacts))
				// Liveness only: a server that holds events back until the
				// answer ends would block this test forever, so after a long
				// bound the replay is released anyway and the arrival check
				// below fails.
				var once sync.Once
				release := func() { once.Do(func() { close(gate) }) }
				firstData := make(chan struct{})
				go func() {
					select {
					case <-firstData:
					case <-time.After(10 * time.Second):
						release()
					}
				}()
				resp := startStream(t, context.Background(), srv.URL+"/", d, `"stream-1"`)
				defer resp.Body.Close()
				released := false
				events := readEvents(t, resp, d, `"stream-1"`, func(ev streamEvent) {
					if !released && len(ev.parts) > 0 && ev.parts[0].IsA2UI() {
						close(firstData)
						if finished(runner.done) {
							t.Fatal("first data part arrived only after the replay ended")
						}
						released = true
						release()
					}
				})
				if !released {
					t.Fatal("no data part arrived")
				}
				if !finished(runner.done) || runner.err != nil {
					t.Errorf("runner done=%v err=%v", finished(runner.done), runner.err)
				}
				if len(events) < 3 || events[0].kind != "task" {
					t.Fatalf("events %+v", events)
				}
				last := events[len(events)-1]
				wantState := map[Dialect]string{A2A10: "TASK_STATE_COMPLETED", A2A03: "completed"}[d]
				if last.kind != "status" || last.state != wantState || len(last.parts) != 0 || (d == A2A03 && !last.final) {
					t.Errorf("final event %+v", last)
				}
				var all []Part
				var text strings.Builder
				for _, ev := range events[1 : len(events)-1] {
					if len(ev.parts) != 1 {
						t.Fatalf("event carries %d parts, want one", len(ev.parts))
					}
					if d == A2A03 && ev.final {
						t.Error("non-final event marked final")
					}
					all = append(all, ev.parts[0])
					text.WriteString(ev.parts[0].Text)
				}
				msgs, err := Messages(all)
				if err != nil || len(msgs) != 3 {
					t.Fatalf("messages %d: %v", len(msgs), err)
				}
				// Exactly the answer's messages and prose.
				for i, want := range streamedMessages {
					if !sameJSON(t, msgs[i], want) {
						t.Errorf("message %d = %s, want %s", i, msgs[i], want)
					}
				}
				if want := "Here is the form.\n\nAnd the data:\n\nDone."; text.String() != want {
					t.Errorf("text %q, want %q", text.String(), want)
				}
			})
		}
	}
}

// TestStreamingWritesLentPartsInTime streams an answer whose every chunk
// completes a message. The server's parser lends its output until the next
// chunk, which overwrites the previous message's bytes: a part written
// after the next chunk was fed would arrive as another message's bytes.
func TestStreamingWritesLentPartsInTime(t *testing.T) {
	chunks := []string{
		"Here is the form.\n<a2ui-json>[" + streamedMessages[0],
		"," + streamedMessages[1],
		"]</a2ui-json>\nAnd the data:\n<a2ui-json>[" + streamedMessages[2],
		"]</a2ui-json>\nDone.",
	}
	srv := newTestServer(t, RunnerFunc(func(ctx context.Context, _ *Request, yield func([]byte) error) error {
		for _, c := range chunks {
			if err := yield([]byte(c)); err != nil {
				return err
			}
		}
		return nil
	}))
	resp := startStream(t, context.Background(), srv.URL+"/", A2A10, `"lent-1"`)
	defer resp.Body.Close()
	var all []Part
	for _, ev := range readEvents(t, resp, A2A10, `"lent-1"`, nil) {
		all = append(all, ev.parts...)
	}
	msgs, err := Messages(all)
	if err != nil || len(msgs) != len(streamedMessages) {
		t.Fatalf("%d messages (%v), want %d", len(msgs), err, len(streamedMessages))
	}
	for i, want := range streamedMessages {
		if !sameJSON(t, msgs[i], want) {
			t.Errorf("message %d = %s, want %s", i, msgs[i], want)
		}
	}
}

// TestStreamingRunnerFailure checks that a failing runner ends the stream
// with a failed status, after the text the parser still held (a possible
// tag prefix) is sent.
func TestStreamingRunnerFailure(t *testing.T) {
	srv := newTestServer(t, RunnerFunc(func(ctx context.Context, _ *Request, yield func([]byte) error) error {
		if err := yield([]byte("partial answer <a2")); err != nil {
			return err
		}
		return errors.New("model crashed")
	}))
	for _, d := range []Dialect{A2A10, A2A03} {
		t.Run(d.String(), func(t *testing.T) {
			resp := startStream(t, context.Background(), srv.URL, d, "7")
			defer resp.Body.Close()
			sse := &sseReader{r: bufio.NewReader(resp.Body)}
			var last streamEvent
			var text strings.Builder
			for {
				b, err := sse.next()
				if err != nil {
					break
				}
				last = decodeEvent(t, d, "7", b)
				if last.state == map[Dialect]string{A2A10: "TASK_STATE_WORKING", A2A03: "working"}[d] {
					for _, p := range last.parts {
						text.WriteString(p.Text)
					}
				}
			}
			want := map[Dialect]string{A2A10: "TASK_STATE_FAILED", A2A03: "failed"}[d]
			if last.state != want || len(last.parts) != 1 {
				t.Errorf("last event %+v, want state %s with a message", last, want)
			}
			if text.String() != "partial answer <a2" {
				t.Errorf("text before the failure %q, want all the runner wrote", text.String())
			}
		})
	}
}

// TestStreamingDisconnect cancels a client mid-stream and checks that the
// runner stops through its context and that no goroutine is left behind.
func TestStreamingDisconnect(t *testing.T) {
	for _, d := range []Dialect{A2A10, A2A03} {
		t.Run(d.String(), func(t *testing.T) {
			// The replay sends its first chunks, then waits for a release that
			// never comes: only the context can end it.
			replay := &ReplayRunner{Output: []byte(streamedAnswer), ChunkSize: 64,
				Wait: func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }}
			runner := &trackedRunner{Runner: replay, done: make(chan struct{})}
			s := newServer(t, runner)
			srv := newLoopback(t, s)
			client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			base := runtime.NumGoroutine()

			ctx, cancel := context.WithCancel(context.Background())
			method := map[Dialect]string{A2A10: "SendStreamingMessage", A2A03: "message/stream"}[d]
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL,
				strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":{"message":{"parts":[{"text":"x"}]}}}`))
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			sse := &sseReader{r: bufio.NewReader(resp.Body)}
			if _, err := sse.next(); err != nil { // the task event: the runner is running
				t.Fatal(err)
			}
			if finished(runner.done) {
				t.Fatal("runner ended before the disconnect")
			}
			cancel()
			resp.Body.Close()
			select {
			case <-runner.done:
			case <-time.After(10 * time.Second):
				t.Fatal("runner still running 10s after the client disconnected")
			}
			if !errors.Is(runner.err, context.Canceled) {
				t.Errorf("runner returned %v, want context.Canceled", runner.err)
			}
			client.CloseIdleConnections()
			n := runtime.NumGoroutine()
			for i := 0; i < 500 && n > base; i++ {
				time.Sleep(10 * time.Millisecond)
				n = runtime.NumGoroutine()
			}
			if n > base {
				buf := make([]byte, 1<<16)
				t.Errorf("%d goroutines after the disconnect, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
			}
		})
	}
}

// newLoopback starts s on a loopback httptest server closed at cleanup.
func newLoopback(t *testing.T, s *Server) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}
