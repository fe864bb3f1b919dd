package consumer

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
)

func TestSessionOf(t *testing.T) {
	for _, tc := range []struct {
		name, subject, want string
		bad                 bool
	}{
		{name: "plain", subject: "a2ui.in.abc", want: "abc"},
		{name: "dash and underscore", subject: "a2ui.in.A-b_9", want: "A-b_9"},
		{name: "longest", subject: "a2ui.in." + strings.Repeat("x", MaxSessionLen), want: strings.Repeat("x", MaxSessionLen)},
		{name: "too long", subject: "a2ui.in." + strings.Repeat("x", MaxSessionLen+1), bad: true},
		{name: "two tokens", subject: "a2ui.in.a.b", bad: true},
		{name: "empty token", subject: "a2ui.in.", bad: true},
		{name: "colon", subject: "a2ui.in.a:b", bad: true},
		{name: "dollar", subject: "a2ui.in.a$b", bad: true},
		{name: "non-ASCII", subject: "a2ui.in.é", bad: true},
		{name: "other prefix", subject: "a2ui.inx.abc", bad: true},
		{name: "prefix only", subject: "a2ui.in", bad: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sessionOf("a2ui.in", tc.subject)
			if tc.bad {
				if !errors.Is(err, ErrBadSubject) {
					t.Fatalf("sessionOf(%q) = %q, %v; want ErrBadSubject", tc.subject, got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("sessionOf(%q) = %q, %v; want %q", tc.subject, got, err, tc.want)
			}
		})
	}
}

func TestSourceSeq(t *testing.T) {
	for _, tc := range []struct {
		name, header string
		want         uint64
	}{
		{name: "server format", header: "A2UI_IN 42 a2ui.in.> {{Partition(8)}}.a2ui.in.>", want: 42},
		{name: "two fields", header: "A2UI_IN 7", want: 7},
		{name: "missing", header: ""},
		{name: "other stream", header: "OTHER 42 > >"},
		{name: "not a number", header: "A2UI_IN x > >"},
		{name: "zero", header: "A2UI_IN 0 > >"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := nats.Header{}
			if tc.header != "" {
				h.Set(sourceHeader, tc.header)
			}
			got, err := sourceSeq(h, "A2UI_IN")
			if tc.want == 0 {
				if !errors.Is(err, ErrSource) {
					t.Fatalf("sourceSeq(%q) = %d, %v; want ErrSource", tc.header, got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("sourceSeq(%q) = %d, %v; want %d", tc.header, got, err, tc.want)
			}
		})
	}
}

func TestLRUEvictsLeastRecentlyUsed(t *testing.T) {
	l := newLRU[int](2)
	l.put("a", 1)
	l.put("b", 2)
	if _, ok := l.get("a"); !ok { // a is now the most recent
		t.Fatal("a missing")
	}
	evicted, ok := l.put("c", 3)
	if !ok || evicted != "b" {
		t.Fatalf("put c evicted %q, %v; want b", evicted, ok)
	}
	if _, ok := l.get("b"); ok {
		t.Fatal("b still there")
	}
	if v, ok := l.get("c"); !ok || v != 3 {
		t.Fatalf("c = %d, %v", v, ok)
	}
	l.remove("a")
	if l.len() != 1 {
		t.Fatalf("len = %d, want 1", l.len())
	}
}

func TestShardOfIsStableAndInRange(t *testing.T) {
	for _, s := range []string{"a", "b", "session-123", strings.Repeat("z", 128)} {
		got := shardOf(s, 7)
		if got < 0 || got >= 7 {
			t.Fatalf("shardOf(%q, 7) = %d", s, got)
		}
		if again := shardOf(s, 7); again != got {
			t.Fatalf("shardOf(%q) not stable: %d then %d", s, got, again)
		}
	}
}

func TestPoolFinishesQueueAndRefusesAfterStop(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	var mu sync.Mutex
	var done []int
	p := newPool(1, 1, func(_ int, j int) {
		if j == 1 {
			close(started)
			<-release
		}
		mu.Lock()
		done = append(done, j)
		mu.Unlock()
	})
	if !p.enqueue(0, 1) {
		t.Fatal("enqueue 1 refused")
	}
	<-started // the worker holds job 1
	if !p.enqueue(0, 2) {
		t.Fatal("enqueue 2 refused") // fills the queue of 1
	}
	blocked := make(chan bool)
	go func() { blocked <- p.enqueue(0, 3) }() // full queue: blocks until stop
	p.stop()
	if <-blocked {
		t.Fatal("enqueue 3 accepted after stop")
	}
	if p.enqueue(0, 4) {
		t.Fatal("enqueue 4 accepted after stop")
	}
	close(release)
	p.wait()
	if len(done) != 2 || done[0] != 1 || done[1] != 2 {
		t.Fatalf("handled %v, want [1 2]", done)
	}
}

// The group's work-queue stream is named as pcgroups names it: leave and
// Ready depend on it.
func TestGroupStreamName(t *testing.T) {
	s, err := natsembed.Start(natsembed.WithStoreDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	nc, err := nats.Connect(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	j, err := NewJetStream(nc, nopHandler{}, WithStream("IN"), WithGroup("g1"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := EnsureInputStream(ctx, j.js, InputStreamConfig{Name: "IN"}); err != nil {
		t.Fatal(err)
	}
	if err := j.createGroup(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := j.js.Stream(ctx, j.groupStream()); err != nil {
		t.Fatalf("stream %s: %v", j.groupStream(), err)
	}
	// Same config again: fine. Another partition count: a *ConfigError.
	if err := j.createGroup(ctx); err != nil {
		t.Fatalf("second createGroup: %v", err)
	}
	j2, err := NewJetStream(nc, nopHandler{}, WithStream("IN"), WithGroup("g1"), WithPartitions(3))
	if err != nil {
		t.Fatal(err)
	}
	var ce *ConfigError
	if err := j2.createGroup(ctx); !errors.As(err, &ce) {
		t.Fatalf("createGroup with other partitions = %v, want *ConfigError", err)
	}
}

type nopHandler struct{}

func (nopHandler) Feed(context.Context, string, []byte) error { return nil }
func (nopHandler) End(context.Context, string) error          { return nil }
func (nopHandler) Reset(string)                               {}
