package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveProc is an a2ui-stream serve running in-process.
type serveProc struct {
	logs    *syncBuffer
	cancel  context.CancelFunc
	done    chan int
	metrics string // base URL of the metrics listener, when asked for
	sse     string // base URL of the SSE listener, when asked for
}

// startServe runs "a2ui-stream serve args…" against the NATS server at url
// and waits until it is ready (its /readyz answers 200). The test stops it.
func startServe(t *testing.T, url string, args ...string) *serveProc {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &serveProc{logs: &syncBuffer{}, cancel: cancel, done: make(chan int, 1)}
	all := append([]string{"serve", "--nats-url", url, "--log-format", "json", "--metrics", "127.0.0.1:0"}, args...)
	go func() { s.done <- run(ctx, all, strings.NewReader(""), io.Discard, s.logs) }()
	t.Cleanup(func() { s.stop(t) })
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		s.metrics = s.listenAddr("metrics")
		if s.metrics != "" {
			if resp, err := http.Get(s.metrics + "/readyz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					// Read once ready: every listener is logged before the
					// consumer subscribes (read before the probe, the SSE
					// listener could still be missing: a CI failure).
					s.sse = s.listenAddr("sse")
					return s
				}
			}
		}
		select {
		case code := <-s.done:
			t.Fatalf("serve exited with %d:\n%s", code, s.logs.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("serve not ready:\n%s", s.logs.String())
	return nil
}

// listenAddr returns the base URL of the named listener, from the logs.
func (s *serveProc) listenAddr(name string) string {
	sc := bufio.NewScanner(strings.NewReader(s.logs.String()))
	for sc.Scan() {
		var rec struct {
			Msg, Listener, Addr string
		}
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "serve: listening" && rec.Listener == name {
			return "http://" + rec.Addr
		}
	}
	return ""
}

// stop sends the shutdown signal (cancels ctx) and waits for exit 0.
func (s *serveProc) stop(t *testing.T) {
	t.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	select {
	case code := <-s.done:
		if code != 0 {
			t.Errorf("serve exited with %d:\n%s", code, s.logs.String())
		}
	case <-time.After(60 * time.Second):
		t.Errorf("serve did not stop:\n%s", s.logs.String())
	}
}

// collector subscribes to every session's events.
type collector struct {
	mu     sync.Mutex
	events map[string][]*nats.Msg
	ends   map[string]chan struct{}
}

func collect(t *testing.T, nc *nats.Conn, prefix string) *collector {
	t.Helper()
	c := &collector{events: map[string][]*nats.Msg{}, ends: map[string]chan struct{}{}}
	sub, err := nc.Subscribe(prefix+".>", func(m *nats.Msg) {
		session := strings.TrimPrefix(m.Subject, prefix+".")
		c.mu.Lock()
		defer c.mu.Unlock()
		c.events[session] = append(c.events[session], m)
		if m.Header.Get("A2UI-Event") == "end" || bytes.Contains(m.Data, []byte(`"reason":"unknown_session"`)) {
			c.endCh(session)
			close(c.ends[session])
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	return c
}

// endCh returns the channel closed at the session's end; c.mu is held.
func (c *collector) endCh(session string) chan struct{} {
	ch, ok := c.ends[session]
	if !ok {
		ch = make(chan struct{})
		c.ends[session] = ch
	}
	return ch
}

// wait waits for the end of every session named.
func (c *collector) wait(t *testing.T, sessions ...string) {
	t.Helper()
	for _, s := range sessions {
		c.mu.Lock()
		ch := c.endCh(s)
		c.mu.Unlock()
		select {
		case <-ch:
		case <-time.After(60 * time.Second):
			t.Fatalf("no end event for session %s", s)
		}
	}
}

// lines returns a session's event lines, newline-terminated, as run
// prints them.
func (c *collector) lines(session string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, m := range c.events[session] {
		b.Write(m.Data)
		b.WriteByte('\n')
	}
	return b.String()
}

// publish sends input to a session in n-byte chunks, then the end marker.
func publish(t *testing.T, nc *nats.Conn, session string, input []byte, n int) {
	t.Helper()
	for len(input) > 0 {
		k := min(n, len(input))
		if err := nc.Publish("a2ui.in."+session, input[:k]); err != nil {
			t.Error(err)
			return
		}
		input = input[k:]
	}
	end := nats.NewMsg("a2ui.in." + session)
	end.Header.Set("A2UI-End", "true")
	if err := nc.PublishMsg(end); err != nil {
		t.Error(err)
	}
}

func embedded(t *testing.T) (*natsembed.Server, *nats.Conn) {
	t.Helper()
	srv, err := natsembed.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := nats.Connect(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return srv, nc
}

// runOutput is what "a2ui-stream run" prints for input in n-byte chunks.
func runOutput(t *testing.T, input []byte, n int, session string, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	all := append([]string{"run", "--log-level", "error", "--chunk", fmt.Sprint(n), "--session", session}, args...)
	if code := run(context.Background(), all, bytes.NewReader(input), &out, &errOut); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut.String())
	}
	return out.String()
}

// TestServeMatchesRun: a session's chunks in, events out, byte-identical to
// "a2ui-stream run --chunk N" on the same input, in every mode.
func TestServeMatchesRun(t *testing.T) {
	in, err := os.ReadFile("../../examples/weather.txt")
	if err != nil {
		t.Fatal(err)
	}
	srv, nc := embedded(t)
	for _, mode := range []string{"complete", "progressive", "delta"} {
		t.Run(mode, func(t *testing.T) {
			startServe(t, srv.URL(), "--mode", mode)
			c := collect(t, nc, "a2ui.out")
			for _, n := range []int{1, 16, 100} {
				session := fmt.Sprintf("%s-%d", mode, n)
				publish(t, nc, session, in, n)
				c.wait(t, session)
				if got, want := c.lines(session), runOutput(t, in, n, session, "--mode", mode); got != want {
					t.Errorf("chunk %d: serve's events differ from run's:\n%s\nwant\n%s", n, got, want)
				}
				c.mu.Lock()
				for i, m := range c.events[session] {
					if id, want := m.Header.Get("Nats-Msg-Id"), fmt.Sprintf("%s:%d", session, i+1); id != want {
						t.Errorf("event %d: Nats-Msg-Id %q, want %q", i, id, want)
					}
					if _, err := time.Parse(time.RFC3339Nano, m.Header.Get("A2UI-Time")); err != nil {
						t.Errorf("event %d: A2UI-Time %q: %v", i, m.Header.Get("A2UI-Time"), err)
					}
				}
				c.mu.Unlock()
			}
		})
	}
}

// corpusTurns returns the first n turns of the v0.9 corpus.
func corpusTurns(t *testing.T, n int) [][]byte {
	t.Helper()
	dir := shareddata.Dir(t)
	data, err := os.ReadFile(filepath.Join(dir, "corpus", "stream_v09.txt"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "corpus", "stream_v09.turns.json"))
	if err != nil {
		t.Fatal(err)
	}
	var turns struct {
		Offsets [][2]int `json:"offsets"`
	}
	if err := json.Unmarshal(raw, &turns); err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, o := range turns.Offsets[:n] {
		out = append(out, data[o[0]:o[1]])
	}
	return out
}

// TestServeConcurrentSessions: one instance on core NATS, 50 sessions each
// streaming a corpus turn in 16-byte chunks, interleaved: every session's
// events are complete, in order and not duplicated (each equals run's
// output for its turn). Then the metrics are scraped and parsed, and their
// counters match what was sent.
func TestServeConcurrentSessions(t *testing.T) {
	turns := corpusTurns(t, 50)
	srv, nc := embedded(t)
	svc := startServe(t, srv.URL())
	c := collect(t, nc, "a2ui.out")
	var sessions []string
	chunks, bytesSent := 0, 0
	for i := range turns {
		sessions = append(sessions, fmt.Sprintf("s%02d", i))
		chunks += (len(turns[i]) + 15) / 16
		bytesSent += len(turns[i])
	}
	// Interleave: round-robin one chunk of each session at a time.
	for off := 0; ; off += 16 {
		sent := false
		for i, turn := range turns {
			if off < len(turn) {
				if err := nc.Publish("a2ui.in."+sessions[i], turn[off:min(off+16, len(turn))]); err != nil {
					t.Fatal(err)
				}
				sent = true
			}
		}
		if !sent {
			break
		}
	}
	for _, s := range sessions {
		end := nats.NewMsg("a2ui.in." + s)
		end.Header.Set("A2UI-End", "true")
		if err := nc.PublishMsg(end); err != nil {
			t.Fatal(err)
		}
	}
	c.wait(t, sessions...)
	messages := 0
	for i, s := range sessions {
		want := runOutput(t, turns[i], 16, s)
		if got := c.lines(s); got != want {
			t.Fatalf("session %s: events differ from run's:\n%s\nwant\n%s", s, got, want)
		}
		messages += strings.Count(want, `"ok":true`)
	}
	fams := scrape(t, svc.metrics)
	for _, tc := range []struct {
		name string
		want float64
	}{
		{"a2ui_stream_chunks_total", float64(chunks)},
		{"a2ui_stream_bytes_total", float64(bytesSent)},
		{"a2ui_stream_batches_total", 50},
		{"a2ui_stream_sessions_active", 0},
	} {
		if got := sum(fams, tc.name, nil); got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := sum(fams, "a2ui_stream_messages_total", nil); got != float64(messages) {
		t.Errorf("messages_total = %v, want %d", got, messages)
	}
	if got := sum(fams, "a2ui_stream_sessions_ended_total", map[string]string{"reason": "closed"}); got != 50 {
		t.Errorf("sessions_ended_total{reason=closed} = %v, want 50", got)
	}
	if got := sum(fams, "a2ui_stream_events_published_total", map[string]string{"kind": "end"}); got != 50 {
		t.Errorf("events_published_total{kind=end} = %v, want 50", got)
	}
}

// scrape fetches and parses /metrics with the Prometheus text parser.
func scrape(t *testing.T, base string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// sum adds the values of a family's series whose labels include want.
func sum(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
	total := 0.0
series:
	for _, m := range f.GetMetric() {
		for k, v := range want {
			found := false
			for _, l := range m.GetLabel() {
				if l.GetName() == k && l.GetValue() == v {
					found = true
				}
			}
			if !found {
				continue series
			}
		}
		switch {
		case m.Counter != nil:
			total += m.GetCounter().GetValue()
		case m.Gauge != nil:
			total += m.GetGauge().GetValue()
		}
	}
	return total
}

// TestServeBadInput: garbage bytes, an oversized chunk, an end for an
// unknown session and a stream that never ends (until the idle timeout)
// give error events and metrics, and a good session alongside is
// unaffected.
func TestServeBadInput(t *testing.T) {
	in, err := os.ReadFile("../../examples/weather.txt")
	if err != nil {
		t.Fatal(err)
	}
	srv, nc := embedded(t)
	svc := startServe(t, srv.URL(), "--max-chunk", "4096", "--idle-timeout", "200ms")
	c := collect(t, nc, "a2ui.out")
	// Garbage inside a block: the block is dropped with an error event.
	publish(t, nc, "garbage", []byte("hi <a2ui-json>[\x00\xff\xfe{{{]</a2ui-json> bye"), 5)
	// An oversized chunk, then a good one.
	if err := nc.Publish("a2ui.in.big", bytes.Repeat([]byte("x"), 5000)); err != nil {
		t.Fatal(err)
	}
	publish(t, nc, "big", in, 64)
	// An end for a session that never started.
	end := nats.NewMsg("a2ui.in.ghost")
	end.Header.Set("A2UI-End", "true")
	if err := nc.PublishMsg(end); err != nil {
		t.Fatal(err)
	}
	// A session that never ends: the idle timeout ends it.
	if err := nc.Publish("a2ui.in.stalled", []byte("<a2ui-json>[")); err != nil {
		t.Fatal(err)
	}
	publish(t, nc, "good", in, 16)
	c.wait(t, "garbage", "big", "ghost", "stalled", "good")
	for _, tc := range []struct{ session, want string }{
		{"garbage", `"event":"error","session":"garbage","reason":"block"`},
		{"big", `"reason":"chunk"`},
		{"ghost", `"reason":"unknown_session"`},
		{"stalled", `"event":"end","session":"stalled","reason":"idle"`},
	} {
		if got := c.lines(tc.session); !strings.Contains(got, tc.want) {
			t.Errorf("%s: events lack %s:\n%s", tc.session, tc.want, got)
		}
	}
	if got, want := c.lines("good"), runOutput(t, in, 16, "good"); got != want {
		t.Errorf("the good session was affected:\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(c.lines("big"), `"surfacesCreated":["weather"]`) {
		t.Errorf("the session went on badly after its oversized chunk:\n%s", c.lines("big"))
	}
	fams := scrape(t, svc.metrics)
	if got := sum(fams, "a2ui_stream_sessions_ended_total", map[string]string{"reason": "idle"}); got != 1 {
		t.Errorf("sessions_ended_total{reason=idle} = %v, want 1", got)
	}
	if got := sum(fams, "a2ui_stream_events_published_total", map[string]string{"kind": "error"}); got < 3 {
		t.Errorf("events_published_total{kind=error} = %v, want at least 3", got)
	}
}

// TestServeSSE follows a session over the SSE listener, as curl -N does,
// while its chunks are published: the data lines are run's event lines.
func TestServeSSE(t *testing.T) {
	in, err := os.ReadFile("../../examples/weather.txt")
	if err != nil {
		t.Fatal(err)
	}
	srv, nc := embedded(t)
	svc := startServe(t, srv.URL(), "--sse", "127.0.0.1:0")
	if svc.sse == "" {
		t.Fatalf("no SSE listener in the logs:\n%s", svc.logs.String())
	}
	resp, err := http.Get(svc.sse + "/sessions/live/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("Content-Type %q", ct)
	}
	publish(t, nc, "live", in, 16)
	var got strings.Builder
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			got.WriteString(data + "\n")
			if strings.HasPrefix(data, `{"event":"end"`) {
				break
			}
		}
	}
	if want := runOutput(t, in, 16, "live"); got.String() != want {
		t.Fatalf("SSE data lines differ from run's:\n%s\nwant\n%s", got.String(), want)
	}
}

// TestServeMetricsCountEventsOnce: with two sinks (NATS and SSE), each
// event and batch is counted once.
func TestServeMetricsCountEventsOnce(t *testing.T) {
	in, err := os.ReadFile("../../examples/weather.txt")
	if err != nil {
		t.Fatal(err)
	}
	srv, nc := embedded(t)
	svc := startServe(t, srv.URL(), "--sse", "127.0.0.1:0")
	c := collect(t, nc, "a2ui.out")
	publish(t, nc, "once", in, 64)
	c.wait(t, "once")
	fams := scrape(t, svc.metrics)
	if got := sum(fams, "a2ui_stream_batches_total", nil); got != 1 {
		t.Errorf("batches_total = %v, want 1", got)
	}
	events := strings.Count(c.lines("once"), "\n")
	if got := sum(fams, "a2ui_stream_events_published_total", nil); got != float64(events) {
		t.Errorf("events_published_total = %v, want %d", got, events)
	}
}
