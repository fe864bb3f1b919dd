package sinks

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// blocker blocks the call that reaches it until released, telling the
// test when it has been reached.
type blocker struct {
	reached chan struct{}
	release chan struct{}
}

func newBlocker() *blocker {
	return &blocker{reached: make(chan struct{}), release: make(chan struct{})}
}

func (b *blocker) block() {
	close(b.reached)
	<-b.release
}

// blockingWriter is an io.Writer stuck on a slow or vanished reader.
type blockingWriter struct{ *blocker }

func (w blockingWriter) Write(p []byte) (int, error) {
	w.block()
	return len(p), nil
}

// blockingPublisher is a Publisher stuck in PublishMsg.
type blockingPublisher struct {
	*blocker
	fakePublisher
}

func (p *blockingPublisher) PublishMsg(ctx context.Context, m *nats.Msg) error {
	p.block()
	return p.fakePublisher.PublishMsg(ctx, m)
}

// TestCloseWaitsForEmitInFlight holds Close to its contract while an Emit
// is still running (a slow callback, publisher or writer): Close does not
// report a finished close while that Emit can still deliver, it returns
// when its context ends, and the Emit still completes.
func TestCloseWaitsForEmitInFlight(t *testing.T) {
	tests := []struct {
		name string
		make func(b *blocker) Sink
	}{
		{"func", func(b *blocker) Sink {
			return NewFunc(func(context.Context, Event) error { b.block(); return nil })
		}},
		{"nats", func(b *blocker) Sink {
			s, err := NewNATS(&blockingPublisher{blocker: b}, "s")
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
		{"jsonl", func(b *blocker) Sink { return NewJSONL(blockingWriter{b}) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBlocker()
			s := tc.make(b)
			emitted := make(chan error, 1)
			go func() { emitted <- s.Emit(context.Background(), ev(1)) }()
			<-b.reached
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := s.Close(ctx); !errors.Is(err, context.Canceled) {
				t.Errorf("Close with an Emit in flight and a cancelled context = %v, want context.Canceled", err)
			}
			if err := s.Emit(context.Background(), ev(2)); !errors.Is(err, ErrClosed) {
				t.Errorf("Emit after Close = %v, want ErrClosed", err)
			}
			close(b.release)
			if err := <-emitted; err != nil {
				t.Errorf("the Emit in flight failed: %v", err)
			}
		})
	}
}

// deadlinePublisher flushes as *nats.Conn does: FlushWithContext fails
// for a context without a deadline.
type deadlinePublisher struct {
	fakePublisher
}

func (p *deadlinePublisher) FlushWithContext(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		return errors.New("nats: context requires a deadline")
	}
	return p.fakePublisher.FlushWithContext(ctx)
}

func TestNATSCloseWithoutDeadlineFlushes(t *testing.T) {
	pub := &deadlinePublisher{}
	s, err := NewNATS(pub, "s")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Emit(context.Background(), ev(1)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatalf("Close(context.Background()) = %v", err)
	}
	if pub.flushed != 1 {
		t.Fatalf("flushed %d times, want 1", pub.flushed)
	}
}

func TestNilFuncIsAnError(t *testing.T) {
	s := NewFunc(nil)
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Emit panicked: %v", r)
			}
		}()
		err = s.Emit(context.Background(), ev(1))
	}()
	if err == nil {
		t.Fatal("Emit with a nil function succeeded")
	}
}

// TestConcurrentEmitAndClose runs Emits and a Close at once (also for
// -race): every Emit either delivers or returns ErrClosed, and a Close that
// returned nil left no callback running.
func TestConcurrentEmitAndClose(t *testing.T) {
	var mu sync.Mutex
	active := 0
	started := make(chan struct{})
	var once sync.Once
	s := NewFunc(func(context.Context, Event) error {
		mu.Lock()
		active++
		mu.Unlock()
		once.Do(func() { close(started) })
		time.Sleep(50 * time.Microsecond) // a callback that takes a while
		mu.Lock()
		active--
		mu.Unlock()
		return nil
	})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				if err := s.Emit(context.Background(), ev(uint64(i*50+j+1))); err != nil && !errors.Is(err, ErrClosed) {
					t.Errorf("Emit: %v", err)
				}
			}
		})
	}
	<-started // Close while callbacks run
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	running := active
	mu.Unlock()
	wg.Wait()
	if running != 0 {
		t.Errorf("%d callbacks still running when Close returned", running)
	}
}

// waitingCtx is a cancellable context that tells the test when a call
// starts waiting on it (its first Done).
type waitingCtx struct {
	context.Context
	waiting chan struct{}
	once    sync.Once
}

func (c *waitingCtx) Done() <-chan struct{} {
	c.once.Do(func() { close(c.waiting) })
	return c.Context.Done()
}

// TestJSONLEmitWaitingHonoursContext: an Emit queued behind a write stuck
// on a slow or vanished reader returns when its context ends.
func TestJSONLEmitWaitingHonoursContext(t *testing.T) {
	b := newBlocker()
	s := NewJSONL(blockingWriter{b})
	first := make(chan error, 1)
	go func() { first <- s.Emit(context.Background(), ev(1)) }()
	<-b.reached
	ctx, cancel := context.WithCancel(context.Background())
	wctx := &waitingCtx{Context: ctx, waiting: make(chan struct{})}
	second := make(chan error, 1)
	go func() { second <- s.Emit(wctx, ev(2)) }()
	<-wctx.waiting
	cancel()
	if err := <-second; !errors.Is(err, context.Canceled) {
		t.Errorf("queued Emit after its context ended = %v, want context.Canceled", err)
	}
	close(b.release)
	if err := <-first; err != nil {
		t.Errorf("first Emit: %v", err)
	}
}

// TestCloseIdleWithEndedContext: with nothing in flight, Close flushes
// and succeeds even when its context has already ended (a random choice
// between two ready cases would fail some of the rounds).
func TestCloseIdleWithEndedContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 50 {
		var out strings.Builder
		sse, err := NewSSE()
		if err != nil {
			t.Fatal(err)
		}
		sinks := map[string]Sink{
			"jsonl": NewJSONL(&out),
			"func":  NewFunc(func(context.Context, Event) error { return nil }),
			"sse":   sse,
		}
		for name, s := range sinks {
			if err := s.Close(ctx); err != nil {
				t.Fatalf("%s: Close = %v", name, err)
			}
		}
	}
}
