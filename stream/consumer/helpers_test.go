package consumer_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
	"github.com/a2ui-stream/a2ui-stream/stream/consumer"
)

// hangGuard bounds every wait in these tests; it is never an assertion on
// speed, only a way not to hang forever when something is broken.
const hangGuard = 60 * time.Second

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func startServer(t *testing.T) *natsembed.Server {
	t.Helper()
	s, err := natsembed.Start(natsembed.WithStoreDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

func connect(t *testing.T, s *natsembed.Server) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(s.URL(), nats.MaxReconnects(-1),
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// content is a session's deterministic model output.
func content(session string, n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%s-%d;", session, i)
	}
	return b.Bytes()[:n]
}

func chunks(b []byte, size int) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		n := min(size, len(b))
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

func sessionName(i int) string { return "s" + strconv.Itoa(i) }

// recorder is a fake Handler: it keeps each session's chunks (as a
// pipeline keeps state), and optionally publishes one output message per
// chunk and one per end to a JetStream output stream, with Nats-Msg-Id
// "<session>:<n>" (n counting from 1 since the last Reset), as the real
// pipeline does.
type recorder struct {
	js        jetstream.JetStream // nil: publish nothing
	outPrefix string
	failOnce  func(session string, n int) bool // fail the n-th chunk's Feed once

	mu     sync.Mutex
	bufs   map[string][]byte
	seqs   map[string]int
	ended  map[string][][]byte // the session's content at each End
	failed map[string]bool
	feeds  int
	endCh  chan string
}

func newRecorder(js jetstream.JetStream) *recorder {
	return &recorder{
		js: js, outPrefix: consumer.DefaultOutPrefix,
		bufs: map[string][]byte{}, seqs: map[string]int{}, ended: map[string][][]byte{},
		failed: map[string]bool{}, endCh: make(chan string, 10_000),
	}
}

var errInjected = errors.New("injected failure")

func (r *recorder) Feed(ctx context.Context, session string, chunk []byte) error {
	r.mu.Lock()
	n := r.seqs[session] + 1
	if r.failOnce != nil && r.failOnce(session, n) && !r.failed[fmt.Sprint(session, n)] {
		r.failed[fmt.Sprint(session, n)] = true
		r.mu.Unlock()
		return errInjected
	}
	r.mu.Unlock()
	if err := r.publish(ctx, session, n, chunk); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seqs[session] = n
	r.bufs[session] = append(r.bufs[session], chunk...)
	r.feeds++
	return nil
}

func (r *recorder) End(ctx context.Context, session string) error {
	r.mu.Lock()
	n := r.seqs[session] + 1
	r.mu.Unlock()
	if err := r.publish(ctx, session, n, []byte("END")); err != nil {
		return err
	}
	r.mu.Lock()
	r.ended[session] = append(r.ended[session], r.bufs[session])
	delete(r.bufs, session)
	delete(r.seqs, session)
	r.mu.Unlock()
	r.endCh <- session
	return nil
}

func (r *recorder) Reset(session string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.bufs, session)
	delete(r.seqs, session)
}

func (r *recorder) publish(ctx context.Context, session string, n int, data []byte) error {
	if r.js == nil {
		return nil
	}
	_, err := r.js.Publish(ctx, r.outPrefix+"."+session, data, jetstream.WithMsgID(session+":"+strconv.Itoa(n)))
	return err
}

func (r *recorder) feedCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.feeds
}

func (r *recorder) endedCopy() map[string][][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string][][]byte, len(r.ended))
	for k, v := range r.ended {
		out[k] = append([][]byte(nil), v...)
	}
	return out
}

// observer counts what the consumer reports.
type observer struct {
	mu          sync.Mutex
	redelivered int
	replays     map[string]int
	slow        int
	errs        []error
	slowCh      chan struct{}
	redeliverCh chan struct{}
}

func newObserver() *observer {
	return &observer{replays: map[string]int{}, slowCh: make(chan struct{}, 1), redeliverCh: make(chan struct{}, 1)}
}

func (o *observer) Redelivery() {
	o.mu.Lock()
	o.redelivered++
	o.mu.Unlock()
	select {
	case o.redeliverCh <- struct{}{}:
	default:
	}
}
func (o *observer) Replay(s string) {
	o.mu.Lock()
	o.replays[s]++
	o.mu.Unlock()
}
func (o *observer) SlowConsumer(n int) {
	o.mu.Lock()
	o.slow += n
	o.mu.Unlock()
	select {
	case o.slowCh <- struct{}{}:
	default:
	}
}
func (o *observer) Error(err error) { o.mu.Lock(); o.errs = append(o.errs, err); o.mu.Unlock() }

func (o *observer) counts() (redelivered, replays, slow int, errs []error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, n := range o.replays {
		replays += n
	}
	return o.redelivered, replays, o.slow, append([]error(nil), o.errs...)
}

// errorSink collects the OnError hook's calls.
type errorSink struct {
	mu   sync.Mutex
	errs []error
	ch   chan error
}

func newErrorSink() *errorSink { return &errorSink{ch: make(chan error, 1000)} }

func (e *errorSink) onError(_ string, err error) {
	e.mu.Lock()
	e.errs = append(e.errs, err)
	e.mu.Unlock()
	select {
	case e.ch <- err:
	default:
	}
}

func (e *errorSink) all() []error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]error(nil), e.errs...)
}

func countIs(errs []error, target error) int {
	n := 0
	for _, err := range errs {
		if errors.Is(err, target) {
			n++
		}
	}
	return n
}

// waitEnds waits for n distinct sessions to end on any of the recorders.
func waitEnds(t *testing.T, n int, recs ...*recorder) {
	t.Helper()
	seen := map[string]bool{}
	timeout := time.After(hangGuard)
	agg := make(chan string)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, r := range recs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case s := <-r.endCh:
					select {
					case agg <- s:
					case <-stop:
						return
					}
				case <-stop:
					return
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	for len(seen) < n {
		select {
		case s := <-agg:
			seen[s] = true
		case <-timeout:
			t.Fatalf("hang guard: %d of %d sessions ended", len(seen), n)
		}
	}
}

// runner runs a consumer's Run in a goroutine owned by the test.
type runner struct {
	cancel context.CancelFunc
	done   chan error
}

func run(t *testing.T, r interface{ Run(context.Context) error }) *runner {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	rn := &runner{cancel: cancel, done: make(chan error, 1)}
	go func() { rn.done <- r.Run(ctx) }()
	t.Cleanup(func() { rn.stop(t) })
	return rn
}

// stop cancels Run and returns its error (once; later calls return nil).
func (rn *runner) stop(t *testing.T) error {
	t.Helper()
	rn.cancel()
	return rn.wait(t)
}

// wait waits for Run to return by itself and returns its error.
func (rn *runner) wait(t *testing.T) error {
	t.Helper()
	select {
	case err, ok := <-rn.done:
		if !ok {
			return nil
		}
		close(rn.done)
		return err
	case <-time.After(hangGuard):
		t.Fatal("hang guard: Run did not return")
		return nil
	}
}

// waitReady polls Ready (a wait, not an assertion on time).
func waitReady(t *testing.T, rs ...interface{ Ready() error }) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for _, r := range rs {
		for r.Ready() != nil {
			if time.Now().After(deadline) {
				t.Fatalf("hang guard: not ready: %v", r.Ready())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// checkBadInputErrors waits (until stop) for the four errors of the bad
// input the error tests feed, checks their classes (two bad subjects, an
// end for an unknown session, an oversized chunk) and that each is a
// *consumer.ChunkError, and returns them.
func checkBadInputErrors[T any](t *testing.T, errs *errorSink, stop <-chan T) []error {
	t.Helper()
	for len(errs.all()) < 4 {
		select {
		case <-errs.ch:
		case <-stop:
			t.Fatalf("hang guard: errors %v", errs.all())
		}
	}
	all := errs.all()
	for _, tc := range []struct {
		name string
		want error
		n    int
	}{
		{"bad subjects", consumer.ErrBadSubject, 2},
		{"end for unknown session", consumer.ErrUnknownSession, 1},
		{"oversized chunk", consumer.ErrTooLarge, 1},
	} {
		if got := countIs(all, tc.want); got != tc.n {
			t.Errorf("%s: %d errors matching %v, want %d (all: %v)", tc.name, got, tc.want, tc.n, all)
		}
	}
	for _, err := range all {
		var ce *consumer.ChunkError
		if !errors.As(err, &ce) {
			t.Fatalf("error %v is not a *ChunkError", err)
		}
	}
	return all
}
