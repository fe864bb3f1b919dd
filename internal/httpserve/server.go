package httpserve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/net/netutil"
)

// Sentinel errors, matched with errors.Is through *Error.
var (
	// ErrNoHandler: New was given a Config without a Handler.
	ErrNoHandler = errors.New("httpserve: no handler")
	// ErrNilListener: Serve was given a nil listener.
	ErrNilListener = errors.New("httpserve: nil listener")
	// ErrServed: Serve or ListenAndServe was called a second time; a
	// Server serves once.
	ErrServed = errors.New("httpserve: server already served")
	// ErrForcedClose: at shutdown, requests were still running after
	// DrainTimeout and, once cancelled, after CancelGrace; their
	// connections were closed under them.
	ErrForcedClose = errors.New("httpserve: connections closed with requests still running")
)

// Error is a failure of one step of a Server's life.
type Error struct {
	// Op is the step: "new", "listen", "serve" or "shutdown".
	Op string
	// Addr is the address involved ("" when none).
	Addr string
	// Err is the cause.
	Err error
}

func (e *Error) Error() string {
	if e.Addr == "" {
		return fmt.Sprintf("httpserve: %s: %s", e.Op, trimPrefix(e.Err))
	}
	return fmt.Sprintf("httpserve: %s %s: %s", e.Op, e.Addr, trimPrefix(e.Err))
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// trimPrefix drops this package's prefix from a cause so it is not repeated.
func trimPrefix(err error) string {
	return strings.TrimPrefix(err.Error(), "httpserve: ")
}

// Server runs one HTTP listener. Its methods are safe for concurrent use;
// it serves once (Serve or ListenAndServe, a single call).
type Server struct {
	cfg     Config
	started atomic.Bool

	mu   sync.Mutex
	addr net.Addr
}

// New validates cfg (see Config.Validate), requires a Handler and applies
// the defaults.
func New(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Handler == nil {
		return nil, &Error{Op: "new", Err: ErrNoHandler}
	}
	return &Server{cfg: cfg.withDefaults()}, nil
}

// Listen binds the Config's Addr over TCP. Pass the listener to Serve; its
// Addr tells the port bound for an Addr with port 0.
func (s *Server) Listen(ctx context.Context) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", s.cfg.Addr)
	if err != nil {
		return nil, &Error{Op: "listen", Addr: s.cfg.Addr, Err: err}
	}
	return ln, nil
}

// ListenAndServe binds the Config's Addr (see Listen) and serves on it
// (see Serve). Addr reports the bound address once it is listening.
func (s *Server) ListenAndServe(ctx context.Context) error {
	if s.started.Load() {
		return &Error{Op: "serve", Addr: s.cfg.Addr, Err: ErrServed}
	}
	ln, err := s.Listen(ctx)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Addr is the address of the listener being served, or nil before Serve.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Serve serves ln, at most MaxConns connections at once, until ctx is done,
// then shuts down: it stops accepting, closes idle connections and waits up
// to DrainTimeout for the requests in flight. Requests still running then
// have their contexts cancelled (every request context derives from one
// the shutdown cancels; it carries ctx's values but not its cancellation)
// and get CancelGrace to return before their connections are closed.
//
// Serve returns nil once every request has returned, whether it finished
// during the drain or after its cancellation; an *Error matching
// ErrForcedClose when connections had to be closed under running
// requests (whose handlers may then still be running); and an *Error with
// the cause when ln fails before ctx is done (after shutting down the same
// way). Serve takes ln over: it is closed when Serve returns.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if ln == nil {
		return &Error{Op: "serve", Err: ErrNilListener}
	}
	if !s.started.CompareAndSwap(false, true) {
		_ = ln.Close()
		return &Error{Op: "serve", Addr: ln.Addr().String(), Err: ErrServed}
	}
	s.mu.Lock()
	s.addr = ln.Addr()
	s.mu.Unlock()
	addr := ln.Addr().String()
	log := s.cfg.Logger.With("addr", addr)

	base, cancelRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRequests()
	srv := &http.Server{
		Handler:           s.cfg.Handler,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		MaxHeaderBytes:    s.cfg.MaxHeaderBytes,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(netutil.LimitListener(ln, s.cfg.MaxConns)) }()

	select {
	case err := <-served:
		// The listener failed: nothing is accepted any more, but the
		// connections already open are shut down like at ctx's end.
		served <- err
		_ = s.shutdown(srv, served, cancelRequests, log)
		return &Error{Op: "serve", Addr: addr, Err: err}
	case <-ctx.Done():
	}
	return s.shutdown(srv, served, cancelRequests, log)
}

// shutdown drains srv, then cancels and finally closes what is left, and
// waits for srv.Serve to have returned.
func (s *Server) shutdown(srv *http.Server, served chan error, cancelRequests context.CancelFunc, log *slog.Logger) error {
	defer func() { <-served }()
	drain, cancelDrain := context.WithTimeout(context.Background(), s.cfg.DrainTimeout)
	defer cancelDrain()
	err := srv.Shutdown(drain)
	if !errors.Is(err, context.DeadlineExceeded) {
		log.Debug("httpserve: shut down")
		return nil
	}
	log.Info("httpserve: drain timeout passed, cancelling the requests still running", "drain", s.cfg.DrainTimeout)
	cancelRequests()
	grace, cancelGrace := context.WithTimeout(context.Background(), s.cfg.CancelGrace)
	defer cancelGrace()
	if err := srv.Shutdown(grace); errors.Is(err, context.DeadlineExceeded) {
		_ = srv.Close()
		log.Warn("httpserve: closed connections with requests still running", "grace", s.cfg.CancelGrace)
		return &Error{Op: "shutdown", Addr: s.Addr().String(), Err: ErrForcedClose}
	}
	log.Debug("httpserve: shut down after cancelling requests")
	return nil
}
