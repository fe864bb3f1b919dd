package consumer_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/a2ui-stream/a2ui-stream/stream/consumer"
)

const (
	numSessions = 50
	sessionSize = 4096
	chunkSize   = 16 // core NATS
	jsChunkSize = 64 // JetStream: fewer chunks keep the -race runs short
)

func endMsg(subject string, body []byte) *nats.Msg {
	m := nats.NewMsg(subject)
	m.Header.Set(consumer.EndHeader, "true")
	m.Data = body
	return m
}

// publishInterleaved publishes chunks from to to (exclusive) of the
// sessions, size bytes each, round-robin: one chunk per session in turn.
func publishInterleaved(t *testing.T, sessions []string, size, from, to int, withEnd bool, publish func(*nats.Msg) error) {
	t.Helper()
	all := make([][][]byte, len(sessions))
	for i, s := range sessions {
		all[i] = chunks(content(s, sessionSize), size)
	}
	for k := from; k < to; k++ {
		for i, s := range sessions {
			if k >= len(all[i]) {
				continue
			}
			if err := publish(&nats.Msg{Subject: consumer.DefaultPrefix + "." + s, Data: all[i][k]}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if withEnd {
		for _, s := range sessions {
			if err := publish(endMsg(consumer.DefaultPrefix+"."+s, nil)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func sessionsN(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = sessionName(i)
	}
	return s
}

func TestCoreConcurrentSessionsInOrder(t *testing.T) {
	srv := startServer(t)
	nc, pub := connect(t, srv), connect(t, srv)
	rec := newRecorder(nil)
	errs := newErrorSink()
	c, err := consumer.NewCore(nc, rec, consumer.WithWorkers(8), consumer.WithQueueSize(16),
		consumer.WithOnError(errs.onError), consumer.WithLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	if c.Ready() == nil {
		t.Fatal("ready before Run")
	}
	rn := run(t, c)
	waitReady(t, c)
	if err := nc.Flush(); err != nil { // the subscription is registered
		t.Fatal(err)
	}

	sessions := sessionsN(numSessions)
	publishInterleaved(t, sessions, chunkSize, 0, sessionSize/chunkSize, true, pub.PublishMsg)
	waitEnds(t, numSessions, rec)

	ended := rec.endedCopy()
	for _, s := range sessions {
		got := ended[s]
		if len(got) != 1 {
			t.Fatalf("session %s ended %d times, want 1", s, len(got))
		}
		if want := content(s, sessionSize); !bytes.Equal(got[0], want) {
			t.Fatalf("session %s: got %d bytes %.40q..., want %d bytes %.40q...", s, len(got[0]), got[0], len(want), want)
		}
	}
	if e := errs.all(); len(e) != 0 {
		t.Fatalf("errors reported: %v", e)
	}
	if err := rn.stop(t); err != nil {
		t.Fatalf("Run returned %v after cancel, want nil", err)
	}
	if !errors.Is(c.Ready(), consumer.ErrNotReady) {
		t.Fatalf("Ready after Run returned = %v, want ErrNotReady", c.Ready())
	}
	if err := c.Run(context.Background()); !errors.Is(err, consumer.ErrRunning) {
		t.Fatalf("second Run = %v, want ErrRunning", err)
	}
}

func TestCoreMalformedInput(t *testing.T) {
	srv := startServer(t)
	nc, pub := connect(t, srv), connect(t, srv)
	rec := newRecorder(nil)
	errs := newErrorSink()
	c, err := consumer.NewCore(nc, rec, consumer.WithMaxChunk(64),
		consumer.WithOnError(errs.onError), consumer.WithLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	run(t, c)
	waitReady(t, c)
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	p := consumer.DefaultPrefix + "."
	for _, m := range []*nats.Msg{
		{Subject: p + "good", Data: []byte("hello ")},
		{Subject: p + "a.b", Data: []byte("too many tokens")},
		{Subject: p + "bad$token", Data: []byte("bad token")},
		endMsg(p+"nobody", nil),
		{Subject: p + "good", Data: bytes.Repeat([]byte("x"), 65)},
		{Subject: p + "good", Data: []byte("world")},
		endMsg(p+"good", nil),
	} {
		if err := pub.PublishMsg(m); err != nil {
			t.Fatal(err)
		}
	}
	waitEnds(t, 1, rec)
	if got := rec.endedCopy()["good"]; len(got) != 1 || string(got[0]) != "hello world" {
		t.Fatalf("session good ended with %q, want one end with \"hello world\"", got)
	}
	// The errors were reported before the good session's end was handled
	// (the bad subjects and the oversized chunk on dispatch, the unknown
	// end on the same or an earlier worker turn).
	checkBadInputErrors(t, errs, time.After(hangGuard))
}

// blockingHandler blocks every Feed until released.
type blockingHandler struct{ release chan struct{} }

func (b *blockingHandler) Feed(ctx context.Context, _ string, _ []byte) error {
	select {
	case <-b.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
func (b *blockingHandler) End(context.Context, string) error { return nil }
func (b *blockingHandler) Reset(string)                      {}

func TestCoreSlowConsumerReported(t *testing.T) {
	srv := startServer(t)
	nc, pub := connect(t, srv), connect(t, srv)
	h := &blockingHandler{release: make(chan struct{})}
	obs := newObserver()
	errs := newErrorSink()
	c, err := consumer.NewCore(nc, h, consumer.WithWorkers(1), consumer.WithQueueSize(1),
		consumer.WithPendingLimits(4, 1<<20), consumer.WithStatsInterval(20*time.Millisecond),
		consumer.WithObserver(obs), consumer.WithOnError(errs.onError), consumer.WithLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	rn := run(t, c)
	waitReady(t, c)
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if err := pub.Publish(consumer.DefaultPrefix+".slow", []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := pub.Flush(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-obs.slowCh:
	case <-time.After(hangGuard):
		t.Fatal("hang guard: no slow consumer reported")
	}
	close(h.release)
	if err := rn.stop(t); err != nil {
		t.Fatalf("Run = %v, want nil", err)
	}
	_, _, slow, _ := obs.counts()
	if slow < 1 {
		t.Fatalf("slow consumer drops counted: %d, want > 0", slow)
	}
	if countIs(errs.all(), consumer.ErrSlowConsumer) < 1 {
		t.Fatalf("ErrSlowConsumer not reported: %v", errs.all())
	}
}

func TestCoreRunFailsWhenConnectionCloses(t *testing.T) {
	srv := startServer(t)
	nc := connect(t, srv)
	c, err := consumer.NewCore(nc, newRecorder(nil), consumer.WithLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	rn := run(t, c)
	waitReady(t, c)
	nc.Close()
	var ce *consumer.ConfigError
	if err := rn.wait(t); !errors.As(err, &ce) {
		t.Fatalf("Run = %v, want a *ConfigError", err)
	}
}
