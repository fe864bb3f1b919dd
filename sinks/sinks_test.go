package sinks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/processor"
)

type fakePublisher struct {
	mu       sync.Mutex
	subjects []string
	data     [][]byte
	flushed  int
	err      error
}

func (f *fakePublisher) Publish(subject string, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	f.subjects = append(f.subjects, subject)
	f.data = append(f.data, data)
	return nil
}

func (f *fakePublisher) FlushWithContext(context.Context) error {
	f.flushed++
	return nil
}

func batch(seq uint64) processor.Batch {
	return processor.Batch{Seq: seq, Applied: 1, Results: []processor.Result{{Index: 0, Type: "deleteSurface", SurfaceID: "s", OK: true}}}
}

func TestSinks(t *testing.T) {
	ctx := context.Background()
	var buf bytes.Buffer
	var got []uint64
	pub := &fakePublisher{}
	nats, err := NewNATS(pub, "a2ui.batches")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		sink  Sink
		check func(t *testing.T)
	}{
		{"jsonl writes one line per batch", NewJSONL(&buf), func(t *testing.T) {
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if len(lines) != 2 {
				t.Fatalf("lines = %q", lines)
			}
			var b processor.Batch
			if err := json.Unmarshal([]byte(lines[1]), &b); err != nil || b.Seq != 2 {
				t.Fatalf("second line %q: %v", lines[1], err)
			}
		}},
		{"func calls back in order", NewFunc(func(_ context.Context, b processor.Batch) error {
			got = append(got, b.Seq)
			return nil
		}), func(t *testing.T) {
			if len(got) != 2 || got[0] != 1 || got[1] != 2 {
				t.Fatalf("got %v", got)
			}
		}},
		{"nats publishes and flushes on close", nats, func(t *testing.T) {
			if len(pub.data) != 2 || pub.subjects[0] != "a2ui.batches" || pub.flushed != 1 {
				t.Fatalf("published %d on %v, flushed %d", len(pub.data), pub.subjects, pub.flushed)
			}
			var b processor.Batch
			if err := json.Unmarshal(pub.data[0], &b); err != nil || b.Seq != 1 || !b.Results[0].OK {
				t.Fatalf("payload %s: %v", pub.data[0], err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for seq := uint64(1); seq <= 2; seq++ {
				if err := tc.sink.Emit(ctx, batch(seq)); err != nil {
					t.Fatal(err)
				}
			}
			if err := tc.sink.Close(ctx); err != nil {
				t.Fatal(err)
			}
			tc.check(t)
			if err := tc.sink.Emit(ctx, batch(3)); !errors.Is(err, ErrClosed) {
				t.Fatalf("Emit after Close: %v", err)
			}
			if err := tc.sink.Close(ctx); !errors.Is(err, ErrClosed) {
				t.Fatalf("second Close: %v", err)
			}
		})
	}
}

func TestEmitHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pub := &fakePublisher{}
	n, _ := NewNATS(pub, "s")
	for name, s := range map[string]Sink{"jsonl": NewJSONL(&bytes.Buffer{}), "func": NewFunc(func(context.Context, processor.Batch) error { return nil }), "nats": n} {
		if err := s.Emit(ctx, batch(1)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Emit with a cancelled context: %v", name, err)
		}
	}
}

func TestNATSErrors(t *testing.T) {
	if _, err := NewNATS(nil, "s"); err == nil {
		t.Error("nil publisher accepted")
	}
	if _, err := NewNATS(&fakePublisher{}, ""); err == nil {
		t.Error("empty subject accepted")
	}
	pub := &fakePublisher{err: errors.New("connection closed")}
	n, _ := NewNATS(pub, "s")
	err := n.Emit(context.Background(), batch(1))
	if err == nil || !strings.HasPrefix(err.Error(), "sinks: nats: publish") {
		t.Fatalf("Emit with a failing publisher: %v", err)
	}
}
