package httpserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

func TestMaxConnsHoldsTheThirdConnection(t *testing.T) {
	var closedOne atomic.Bool
	r := start(t, Config{
		MaxConns: 2,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, strconv.FormatBool(closedOne.Load()))
		}),
	})
	// Two connections, each served once and then held open, idle.
	c1, c2 := dial(t, r.addr), dial(t, r.addr)
	for _, c := range []*rawConn{c1, c2} {
		if got := c.get(t, "/"); got != "false" {
			t.Fatalf("held connection: got %q, want false", got)
		}
	}
	// A third connection sends its request at once.
	c3 := dial(t, r.addr)
	if err := c3.send("/"); err != nil {
		t.Fatalf("send on the third connection: %v", err)
	}
	third := make(chan string, 1)
	go func() {
		body, err := c3.receive()
		if err != nil {
			body = "error: " + err.Error()
		}
		third <- body
	}()
	// A server without the cap would have served it by the time one more
	// round trip on a held connection completes.
	if got := c2.get(t, "/"); got != "false" {
		t.Fatalf("held connection again: got %q, want false", got)
	}
	// Closing one held connection frees a slot: only now may the third
	// be served, so its handler sees closedOne set.
	closedOne.Store(true)
	c1.Close()
	select {
	case got := <-third:
		if got != "true" {
			t.Fatalf("third connection: got %q, want true (served only after a held connection closed)", got)
		}
	case <-time.After(hangGuard):
		t.Fatal("the third connection was not served after a held one closed")
	}
}

func TestIdleTimeoutClosesKeepAliveConnection(t *testing.T) {
	r := start(t, Config{
		IdleTimeout: 50 * time.Millisecond,
		Handler:     http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") }),
	})
	c := dial(t, r.addr)
	if got := c.get(t, "/"); got != "ok" {
		t.Fatalf("got %q, want ok", got)
	}
	// The connection is kept alive, then idles: the server must close it.
	if err := readToEnd(t, c); !errors.Is(err, io.EOF) {
		t.Fatalf("read on the idle connection ended with %v, want EOF", err)
	}
}

func TestShutdownWaitsForRequestInFlight(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	r := start(t, Config{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			close(started)
			<-release
			fmt.Fprint(w, "finished")
		}),
	})
	c := dial(t, r.addr)
	if err := c.send("/"); err != nil {
		t.Fatal(err)
	}
	reply := make(chan string, 1)
	go func() {
		body, err := c.receive()
		if err != nil {
			body = "error: " + err.Error()
		}
		reply <- body
	}()
	waitFor(t, started, "the handler to start")
	r.stop()
	// The listener closes at once: wait until new connections are refused.
	deadline := time.Now().Add(hangGuard)
	for {
		nc, err := net.Dial("tcp", r.addr)
		if err != nil {
			break
		}
		nc.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener still accepts after ctx was cancelled")
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case err := <-r.served:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	close(release)
	if got := <-reply; got != "finished" {
		t.Fatalf("request in flight: got %q, want finished", got)
	}
	if err := r.wait(t); err != nil {
		t.Fatalf("Serve: %v, want nil", err)
	}
}

func TestDrainTimeoutCancelsRequests(t *testing.T) {
	started := make(chan struct{})
	sawCancel := make(chan bool, 1)
	r := start(t, Config{
		DrainTimeout: 20 * time.Millisecond,
		CancelGrace:  hangGuard,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			close(started)
			select {
			case <-req.Context().Done():
				sawCancel <- true
			case <-time.After(hangGuard):
				sawCancel <- false
			}
		}),
	})
	c := dial(t, r.addr)
	if err := c.send("/"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, started, "the handler to start")
	r.stop()
	if !<-sawCancel {
		t.Fatal("the handler's context was not cancelled after the drain timeout")
	}
	if err := r.wait(t); err != nil {
		t.Fatalf("Serve: %v, want nil (the handler returned once cancelled)", err)
	}
}

func TestForcedCloseIsReported(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	r := start(t, Config{
		DrainTimeout: 10 * time.Millisecond,
		CancelGrace:  10 * time.Millisecond,
		Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			close(started)
			<-release // ignores its context
		}),
	})
	c := dial(t, r.addr)
	if err := c.send("/"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, started, "the handler to start")
	r.stop()
	err := r.wait(t)
	var e *Error
	if !errors.Is(err, ErrForcedClose) || !errors.As(err, &e) || e.Op != "shutdown" {
		t.Fatalf("Serve: %v, want a shutdown *Error matching ErrForcedClose", err)
	}
}

func TestServeErrors(t *testing.T) {
	h := http.NotFoundHandler()
	tests := []struct {
		name string
		run  func(t *testing.T) error
		want error
		op   string
	}{
		{"nil listener", func(t *testing.T) error {
			s, _ := New(Config{Handler: h})
			return s.Serve(context.Background(), nil)
		}, ErrNilListener, "serve"},
		{"served twice", func(t *testing.T) error {
			s := servedOnce(t, h)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			return s.Serve(context.Background(), ln)
		}, ErrServed, "serve"},
		{"listen and serve after serve", func(t *testing.T) error {
			return servedOnce(t, h).ListenAndServe(context.Background())
		}, ErrServed, "serve"},
		{"listener fails", func(t *testing.T) error {
			s, _ := New(Config{Handler: h})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ln.Close()
			return s.Serve(context.Background(), ln)
		}, net.ErrClosed, "serve"},
		{"address in use", func(t *testing.T) error {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			s, _ := New(Config{Addr: ln.Addr().String(), Handler: h})
			return s.ListenAndServe(context.Background())
		}, nil, "listen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run(t)
			var e *Error
			if !errors.As(err, &e) || e.Op != tt.op {
				t.Fatalf("got %v, want an *Error of op %q", err, tt.op)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want it to match %v", err, tt.want)
			}
		})
	}
}

func TestAddrReportsBoundPort(t *testing.T) {
	s, err := New(Config{Addr: "127.0.0.1:0", Handler: http.NotFoundHandler()})
	if err != nil {
		t.Fatal(err)
	}
	if a := s.Addr(); a != nil {
		t.Fatalf("Addr before serving: %v, want nil", a)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ListenAndServe(ctx) }()
	deadline := time.Now().Add(hangGuard)
	for s.Addr() == nil {
		if time.Now().After(deadline) {
			t.Fatal("Addr stayed nil")
		}
		time.Sleep(time.Millisecond)
	}
	_, port, _ := net.SplitHostPort(s.Addr().String())
	if port == "0" || port == "" {
		t.Fatalf("Addr %v has no bound port", s.Addr())
	}
	resp, err := http.Get("http://" + s.Addr().String() + "/")
	if err != nil {
		t.Fatalf("GET on the bound address: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("status %d, want 404", resp.StatusCode)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatalf("ListenAndServe: %v", err)
	}
}

// servedOnce returns a Server whose Serve has run and returned.
func servedOnce(t *testing.T, h http.Handler) *Server {
	t.Helper()
	s, err := New(Config{Handler: h})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Serve(done, ln); err != nil {
		t.Fatalf("first Serve: %v", err)
	}
	return s
}

func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(hangGuard):
		t.Fatalf("timed out waiting for %s", what)
	}
}
