package stream

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2ui-stream/a2ui-stream/sinks"
)

// kinds returns the kinds of a session's events, in order.
func kinds(evs []sinks.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, string(e.Kind))
	}
	return out
}

func TestSessionEnds(t *testing.T) {
	block := `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}]</a2ui-json>`
	tests := []struct {
		name   string
		run    func(t *testing.T, pl *Pipeline)
		id     string
		kinds  []string
		reason string
	}{
		{
			name: "end closes",
			run: func(t *testing.T, pl *Pipeline) {
				mustFeed(t, pl, "a", block)
				mustEnd(t, pl, "a")
			},
			id: "a", kinds: []string{"batch", "end"}, reason: EndClosed,
		},
		{
			name: "close shuts down open sessions, flushing the unclosed block",
			run: func(t *testing.T, pl *Pipeline) {
				mustFeed(t, pl, "a", block[:len(block)-len("</a2ui-json>")])
				if err := pl.Close(context.Background()); err != nil {
					t.Fatal(err)
				}
			},
			id: "a", kinds: []string{"batch", "end"}, reason: EndShutdown,
		},
		{
			name: "eviction at the maximum ends the least recently fed",
			run: func(t *testing.T, pl *Pipeline) {
				mustFeed(t, pl, "old", block)
				mustFeed(t, pl, "a", "x")
				mustFeed(t, pl, "b", "y") // max 2: evicts old
			},
			id: "old", kinds: []string{"batch", "end"}, reason: EndEvicted,
		},
		{
			name: "end of a session that is not open",
			run: func(t *testing.T, pl *Pipeline) {
				mustEnd(t, pl, "ghost")
			},
			id: "ghost", kinds: []string{"error"},
		},
		{
			name: "oversized chunk is reported, the session goes on",
			run: func(t *testing.T, pl *Pipeline) {
				mustFeed(t, pl, "a", strings.Repeat("x", 129))
				mustFeed(t, pl, "a", block[:60])
				mustFeed(t, pl, "a", block[60:])
				mustEnd(t, pl, "a")
			},
			id: "a", kinds: []string{"error", "batch", "end"}, reason: EndClosed,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl, rec := newTestPipeline(t, WithMaxSessions(2), WithMaxChunk(128))
			tc.run(t, pl)
			evs := rec.session(tc.id)
			if got := kinds(evs); !slices.Equal(got, tc.kinds) {
				t.Fatalf("events %v, want %v:\n%s", got, tc.kinds, strings.Join(rec.lines(), "\n"))
			}
			last := decode(t, string(evs[len(evs)-1].Line))
			if tc.reason != "" && last["reason"] != tc.reason {
				t.Errorf("end reason %v, want %q", last["reason"], tc.reason)
			}
			for i, e := range evs {
				if e.Seq != uint64(i+1) {
					t.Errorf("event %d has seq %d", i, e.Seq)
				}
			}
		})
	}
}

func mustFeed(t *testing.T, pl *Pipeline, id, s string) {
	t.Helper()
	if err := pl.Feed(context.Background(), id, []byte(s)); err != nil {
		t.Fatal(err)
	}
}

func mustEnd(t *testing.T, pl *Pipeline, id string) {
	t.Helper()
	if err := pl.End(context.Background(), id); err != nil {
		t.Fatal(err)
	}
}

func TestIdleTimeout(t *testing.T) {
	pl, rec := newTestPipeline(t, WithIdleTimeout(time.Minute))
	t0 := time.Unix(1000, 0)
	mustFeed(t, pl, "a", "hello ")
	mustFeed(t, pl, "b", "hi ")
	if n := pl.endIdle(context.Background(), t0.Add(time.Hour)); n != 0 {
		t.Fatalf("with no sweep marks, endIdle ended %d sessions", n)
	}
	pl.mark(t0)
	mustFeed(t, pl, "b", "again ") // b is fed after the mark
	pl.mark(t0.Add(30 * time.Second))
	if n := pl.endIdle(context.Background(), t0.Add(59*time.Second)); n != 0 {
		t.Fatalf("59 s after the mark, endIdle ended %d sessions", n)
	}
	pl.mark(t0.Add(60 * time.Second))
	if n := pl.endIdle(context.Background(), t0.Add(60*time.Second)); n != 1 {
		t.Fatalf("endIdle ended %d sessions, want 1 (a)", n)
	}
	if got := kinds(rec.session("a")); !slices.Equal(got, []string{"text", "end"}) {
		t.Fatalf("a: %v", got)
	}
	if !strings.Contains(string(rec.session("a")[1].Line), `"reason":"idle"`) {
		t.Errorf("a's end: %s", rec.session("a")[1].Line)
	}
	if pl.Sessions() != 1 {
		t.Errorf("%d sessions open, want 1", pl.Sessions())
	}
	if len(pl.marks) != 3 {
		t.Errorf("%d marks kept, want 3 (the one at the limit and those after)", len(pl.marks))
	}
	// a is started anew by its next chunk.
	mustFeed(t, pl, "a", "back")
	if pl.Sessions() != 2 {
		t.Errorf("%d sessions open, want 2", pl.Sessions())
	}
}

func TestReset(t *testing.T) {
	pl, rec := newTestPipeline(t)
	mustFeed(t, pl, "a", "<a2ui-json>[")
	pl.Reset("a")
	if pl.Sessions() != 0 {
		t.Fatal("Reset left the session open")
	}
	pl.Reset("a") // not open: nothing happens
	in := `text<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"a","catalogId":"c"}}]</a2ui-json>`
	mustFeed(t, pl, "a", in)
	mustEnd(t, pl, "a")
	// The replay starts from seq 1, as if the first chunk never came.
	if got := kinds(rec.session("a")); !slices.Equal(got, []string{"text", "batch", "end"}) {
		t.Fatalf("events %v", got)
	}
	if rec.session("a")[0].Seq != 1 {
		t.Errorf("replay starts at seq %d", rec.session("a")[0].Seq)
	}
}

func TestClosedAndBadIDs(t *testing.T) {
	pl, _ := newTestPipeline(t)
	ctx := context.Background()
	if err := pl.Feed(ctx, "", []byte("x")); !errors.Is(err, ErrSessionID) {
		t.Errorf("Feed with empty id: %v", err)
	}
	if err := pl.End(ctx, ""); !errors.Is(err, ErrSessionID) {
		t.Errorf("End with empty id: %v", err)
	}
	if err := pl.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := pl.Feed(ctx, "a", []byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Feed after Close: %v", err)
	}
	if err := pl.End(ctx, "a"); !errors.Is(err, ErrClosed) {
		t.Errorf("End after Close: %v", err)
	}
	if err := pl.Close(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
}

func TestOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		opt  Option
		want string
	}{
		{"zero max sessions", WithMaxSessions(0), "max sessions"},
		{"negative idle timeout", WithIdleTimeout(-time.Second), "negative idle timeout"},
		{"zero max chunk", WithMaxChunk(0), "max chunk"},
		{"nil logger", WithLogger(nil), "nil logger"},
		{"nil observer", WithObserver(nil), "nil observer"},
		{"nil sink", WithSinks(nil), "nil sink"},
		{"nil catalog", WithCatalog(nil), "nil catalog"},
		{"bad policy", WithBatchPolicy(Policy(9)), "unknown batch policy"},
		{"negative emit timeout", WithEmitRetry(-1, 1, 0, 0), "emit timeout"},
		{"backoff not a range", WithEmitRetry(time.Second, 1, time.Second, time.Millisecond), "not a range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewPipeline(tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "stream: ") {
				t.Fatalf("NewPipeline: %v, want an error about %q", err, tc.want)
			}
		})
	}
}

// flaky fails its first n Emits.
type flaky struct {
	recorder
	n     int
	calls int
}

func (f *flaky) Emit(ctx context.Context, e sinks.Event) error {
	f.mu.Lock()
	f.calls++
	fail := f.calls <= f.n
	f.mu.Unlock()
	if fail {
		return fmt.Errorf("flaky: failure %d", f.calls)
	}
	return f.recorder.Emit(ctx, e)
}

// countingObserver counts retries and failures.
type countingObserver struct {
	NopObserver
	mu                sync.Mutex
	retries, failures int
}

func (o *countingObserver) SinkRetry() { o.mu.Lock(); o.retries++; o.mu.Unlock() }
func (o *countingObserver) SinkFailure() {
	o.mu.Lock()
	o.failures++
	o.mu.Unlock()
}

func TestSinkRetry(t *testing.T) {
	t.Run("recovers within the retries", func(t *testing.T) {
		f := &flaky{n: 2}
		obs := &countingObserver{}
		pl, err := NewPipeline(WithSinks(f), WithIdleTimeout(0), WithObserver(obs),
			WithEmitRetry(time.Second, 3, time.Millisecond, 2*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		mustFeed(t, pl, "a", "hello")
		mustEnd(t, pl, "a")
		if got := kinds(f.session("a")); !slices.Equal(got, []string{"text", "end"}) {
			t.Fatalf("events %v", got)
		}
		if obs.retries != 2 || obs.failures != 0 {
			t.Errorf("retries %d, failures %d; want 2 and 0", obs.retries, obs.failures)
		}
	})
	t.Run("gives up, reports to the other sinks", func(t *testing.T) {
		bad := &flaky{n: 1 << 30}
		good := &recorder{}
		obs := &countingObserver{}
		pl, err := NewPipeline(WithSinks(bad, good), WithIdleTimeout(0), WithObserver(obs),
			WithEmitRetry(time.Second, 1, time.Millisecond, time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		err = pl.Feed(context.Background(), "a", []byte("hello"))
		var se *SinkError
		if !errors.As(err, &se) || se.Sink != 0 || se.Seq != 1 || se.Session != "a" {
			t.Fatalf("Feed: %v, want a *SinkError for sink 0, event 1", err)
		}
		if got := kinds(good.session("a")); !slices.Equal(got, []string{"text", "error"}) {
			t.Fatalf("good sink got %v", got)
		}
		if !strings.Contains(string(good.session("a")[1].Line), `"reason":"sink"`) {
			t.Errorf("error event: %s", good.session("a")[1].Line)
		}
		if obs.retries != 1 || obs.failures != 1 {
			t.Errorf("retries %d, failures %d; want 1 and 1", obs.retries, obs.failures)
		}
	})
}

// TestConcurrentSessions feeds many sessions from parallel goroutines:
// each session's events are complete and in order.
func TestConcurrentSessions(t *testing.T) {
	in := sample(t)
	pl, rec := newTestPipeline(t)
	ref, refRec := newTestPipeline(t)
	feedChunks(t, ref, "ref", in, 0)
	want := refRec.lines(sinks.KindBatch, sinks.KindEnd)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			id := fmt.Sprintf("s%d", i)
			for off := 0; off < len(in); off += 16 {
				if err := pl.Feed(context.Background(), id, in[off:min(off+16, len(in))]); err != nil {
					t.Error(err)
					return
				}
			}
			if err := pl.End(context.Background(), id); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i := range 20 {
		id := fmt.Sprintf("s%d", i)
		var got []string
		for _, e := range rec.session(id) {
			if e.Kind == sinks.KindBatch || e.Kind == sinks.KindEnd {
				got = append(got, strings.Replace(string(e.Line), `"session":"`+id+`"`, `"session":"ref"`, 1))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: events differ:\n got %q\nwant %q", id, got, want)
		}
	}
}

func TestReportError(t *testing.T) {
	pl, rec := newTestPipeline(t)
	mustFeed(t, pl, "a", "hello")
	if err := pl.ReportError(context.Background(), "a", ReasonInput, errors.New("consumer: bad")); err != nil {
		t.Fatal(err)
	}
	if err := pl.ReportError(context.Background(), "b", ReasonChunk, errors.New("consumer: too large")); err != nil {
		t.Fatal(err)
	}
	if got := kinds(rec.session("a")); !slices.Equal(got, []string{"text", "error"}) {
		t.Fatalf("a: %v", got)
	}
	if e := rec.session("a")[1]; e.Seq != 2 || !strings.Contains(string(e.Line), `"reason":"input","error":"consumer: bad"`) {
		t.Fatalf("a's error: seq %d %s", e.Seq, e.Line)
	}
	if e := rec.session("b"); len(e) != 1 || e[0].Seq != 1 || !strings.Contains(string(e[0].Line), `"reason":"chunk"`) {
		t.Fatalf("b: %+v", e)
	}
	if pl.Sessions() != 1 {
		t.Fatalf("ReportError opened a session: %d open", pl.Sessions())
	}
}

// TestEndedSessionNotKept: once a session ended or was reset, the pipeline
// keeps no reference to it (its surfaces can be collected).
func TestEndedSessionNotKept(t *testing.T) {
	pl, _ := newTestPipeline(t)
	mustFeed(t, pl, "a", "x")
	if pl.last.Load() == nil {
		t.Fatal("the fed session is not remembered as the last")
	}
	mustEnd(t, pl, "a")
	if s := pl.last.Load(); s != nil {
		t.Fatalf("the pipeline still holds ended session %q", s.id)
	}
	mustFeed(t, pl, "b", "x")
	pl.Reset("b")
	if s := pl.last.Load(); s != nil {
		t.Fatalf("the pipeline still holds reset session %q", s.id)
	}
}
