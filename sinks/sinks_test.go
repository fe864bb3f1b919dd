package sinks

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

func TestJSONLWritesLines(t *testing.T) {
	tests := []struct {
		name   string
		events []Event
		want   string
	}{
		{"no events", nil, ""},
		{"one line per event, as given", []Event{ev(1), evOf("s1", 2, KindEnd)},
			`{"event":"text","session":"s1","seq":1}` + "\n" + `{"event":"end","session":"s1","seq":2}` + "\n"},
		{"sessions interleave", []Event{evOf("a", 1, KindText), evOf("b", 1, KindBatch)},
			`{"event":"text","session":"a","seq":1}` + "\n" + `{"event":"batch","session":"b","seq":1}` + "\n"},
		{"bytes are not re-encoded", []Event{{Session: "s", Seq: 1, Kind: KindText, Line: []byte(`{"text":"<b>&é\u00e9"}`)}},
			`{"text":"<b>&é\u00e9"}` + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			s := NewJSONL(&out)
			for _, e := range tc.events {
				if err := s.Emit(context.Background(), e); err != nil {
					t.Fatal(err)
				}
				e.Line[0] = 'X' // the line is lent: reusing it after Emit changes nothing written
			}
			if err := s.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("wrote %q, want %q", got, tc.want)
			}
		})
	}
}

func TestJSONLFlushesEachEvent(t *testing.T) {
	var out bytes.Buffer
	s := NewJSONL(&out)
	if err := s.Emit(context.Background(), ev(1)); err != nil {
		t.Fatal(err)
	}
	if want := `{"event":"text","session":"s1","seq":1}` + "\n"; out.String() != want {
		t.Errorf("before Close the writer has %q, want %q", out.String(), want)
	}
}

func TestLineErrors(t *testing.T) {
	tests := []struct {
		name string
		line string
	}{
		{"empty line", ""},
		{"newline in line", "{\n}"},
		{"carriage return in line", "{\r}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := ev(1)
			e.Line = []byte(tc.line)
			var out bytes.Buffer
			pub := &fakePublisher{}
			n, err := NewNATS(pub, "a2ui.out")
			if err != nil {
				t.Fatal(err)
			}
			sse, err := NewSSE()
			if err != nil {
				t.Fatal(err)
			}
			for name, s := range map[string]Sink{"jsonl": NewJSONL(&out), "nats": n, "sse": sse} {
				err := s.Emit(context.Background(), e)
				var ee *EventError
				if !errors.As(err, &ee) || ee.Field != "line" || !errors.Is(err, ErrBadEvent) {
					t.Errorf("%s: Emit = %v, want an *EventError on the line", name, err)
				}
			}
			if out.Len() != 0 || pub.count() != 0 {
				t.Errorf("a bad line was delivered: %q, %d published", out.String(), pub.count())
			}
		})
	}
}

func TestFunc(t *testing.T) {
	failure := errors.New("callback failed")
	tests := []struct {
		name    string
		err     error
		wantErr error
	}{
		{"calls back with each event in order", nil, nil},
		{"returns the callback's error", failure, failure},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []Event
			s := NewFunc(func(_ context.Context, e Event) error {
				got = append(got, e)
				return tc.err
			})
			want := []Event{ev(1), evOf("s1", 2, KindEnd)}
			for _, e := range want {
				if err := s.Emit(context.Background(), e); !errors.Is(err, tc.wantErr) {
					t.Fatalf("Emit = %v, want %v", err, tc.wantErr)
				}
			}
			if len(got) != len(want) {
				t.Fatalf("called %d times, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i].Seq != want[i].Seq || got[i].Kind != want[i].Kind || string(got[i].Line) != string(want[i].Line) {
					t.Errorf("call %d got %+v, want %+v", i, got[i], want[i])
				}
			}
		})
	}
}

// sinksUnderTest makes one sink of each kind.
func sinksUnderTest(t *testing.T) map[string]Sink {
	t.Helper()
	n, err := NewNATS(&fakePublisher{}, "a2ui.out")
	if err != nil {
		t.Fatal(err)
	}
	sse, err := NewSSE()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]Sink{
		"jsonl": NewJSONL(&bytes.Buffer{}),
		"func":  NewFunc(func(context.Context, Event) error { return nil }),
		"nats":  n,
		"sse":   sse,
	}
}

func TestClosedSinksRefuse(t *testing.T) {
	ctx := context.Background()
	for name, s := range sinksUnderTest(t) {
		t.Run(name, func(t *testing.T) {
			if err := s.Emit(ctx, ev(1)); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(ctx); err != nil {
				t.Fatal(err)
			}
			if err := s.Emit(ctx, ev(2)); !errors.Is(err, ErrClosed) {
				t.Errorf("Emit after Close = %v, want ErrClosed", err)
			}
			if err := s.Close(ctx); !errors.Is(err, ErrClosed) {
				t.Errorf("second Close = %v, want ErrClosed", err)
			}
		})
	}
}

func TestEmitHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, s := range sinksUnderTest(t) {
		t.Run(name, func(t *testing.T) {
			if err := s.Emit(ctx, ev(1)); !errors.Is(err, context.Canceled) {
				t.Errorf("Emit with a cancelled context = %v, want context.Canceled", err)
			}
		})
	}
}

// TestJSONLBuffered: a buffered sink writes nothing until Flush, then
// every line; a failing writer's error comes back from a later Emit or
// Flush.
func TestJSONLBuffered(t *testing.T) {
	var out bytes.Buffer
	s := NewJSONL(&out, JSONLBuffered())
	ctx := context.Background()
	for i := range 3 {
		if err := s.Emit(ctx, Event{Session: "a", Seq: uint64(i + 1), Kind: KindText, Line: []byte(`{"n":1}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if out.Len() != 0 {
		t.Fatalf("buffered sink wrote %q before Flush", out.String())
	}
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), strings.Repeat("{\"n\":1}\n", 3); got != want {
		t.Fatalf("after Flush: %q, want %q", got, want)
	}
	bad := NewJSONL(failingWriter{}, JSONLBuffered())
	var err error
	for i := 0; i < 100000 && err == nil; i++ {
		err = bad.Emit(ctx, Event{Session: "a", Seq: 1, Kind: KindText, Line: []byte(`{"n":1}`)})
	}
	if err == nil {
		if err = bad.Flush(ctx); err == nil {
			t.Fatal("no error from a failing writer")
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
