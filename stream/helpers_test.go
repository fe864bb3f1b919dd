package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/sinks"
)

// recorder is a sink that keeps a copy of every event.
type recorder struct {
	mu     sync.Mutex
	events []sinks.Event
	closed bool
}

func (r *recorder) Emit(_ context.Context, e sinks.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.Line = append([]byte(nil), e.Line...)
	e.Batch = nil
	r.events = append(r.events, e)
	return nil
}

func (r *recorder) Close(context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	return nil
}

// lines returns the recorded lines, optionally only those of one kind.
func (r *recorder) lines(kinds ...sinks.Kind) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		if len(kinds) == 0 || containsKind(kinds, e.Kind) {
			out = append(out, string(e.Line))
		}
	}
	return out
}

// session returns the recorded events of one session.
func (r *recorder) session(id string) []sinks.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []sinks.Event
	for _, e := range r.events {
		if e.Session == id {
			out = append(out, e)
		}
	}
	return out
}

func containsKind(ks []sinks.Kind, k sinks.Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// newTestPipeline returns a pipeline recording into a new recorder; the
// test closes it.
func newTestPipeline(t *testing.T, opts ...Option) (*Pipeline, *recorder) {
	t.Helper()
	rec := &recorder{}
	pl, err := NewPipeline(append([]Option{WithSinks(rec), WithIdleTimeout(0)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pl.Close(context.Background()) })
	return pl, rec
}

// feedChunks feeds input to a session in chunks of n bytes (all at once
// for n <= 0) and ends it.
func feedChunks(t *testing.T, pl *Pipeline, id string, input []byte, n int) {
	t.Helper()
	ctx := context.Background()
	if n <= 0 {
		n = len(input)
	}
	for len(input) > 0 {
		k := min(n, len(input))
		if err := pl.Feed(ctx, id, input[:k]); err != nil {
			t.Fatalf("Feed: %v", err)
		}
		input = input[k:]
	}
	if err := pl.End(ctx, id); err != nil {
		t.Fatalf("End: %v", err)
	}
}

// sample reads the repository's sample model answer.
func sample(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "examples", "weather.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decode parses an event line.
func decode(t testing.TB, line string) map[string]any {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("event %q is not JSON: %v", line, err)
	}
	return v
}

func newTextLogger(w *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, nil))
}
