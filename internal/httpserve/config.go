package httpserve

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// Defaults for the zero fields of a Config.
const (
	// DefaultMaxConns caps the connections served at once.
	DefaultMaxConns = 1024
	// DefaultReadHeaderTimeout bounds reading a request's headers.
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultReadTimeout bounds reading a request's body.
	DefaultReadTimeout = 30 * time.Second
	// DefaultIdleTimeout closes a keep-alive connection idle that long.
	DefaultIdleTimeout = 60 * time.Second
	// DefaultWriteTimeout is 0: no bound on writing a response, which
	// long-lived event streams (SSE) need.
	DefaultWriteTimeout = 0
	// DefaultMaxHeaderBytes bounds the request line and headers.
	DefaultMaxHeaderBytes = 64 << 10
	// DefaultDrainTimeout is how long a shutdown waits for the requests in
	// flight to finish before it cancels them.
	DefaultDrainTimeout = 10 * time.Second
	// DefaultCancelGrace is how long cancelled requests get to write their
	// last bytes before the connections are closed.
	DefaultCancelGrace = 2 * time.Second
)

// ErrInvalidConfig matches every *ConfigError.
var ErrInvalidConfig = errors.New("httpserve: invalid config")

// ConfigError reports one unusable Config field.
type ConfigError struct {
	// Field is the Config field's name, e.g. "MaxConns".
	Field string
	// Value is the rejected value.
	Value any
	// Reason says what is wrong, e.g. "must not be negative".
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("httpserve: %s %s, got %v", e.Field, e.Reason, e.Value)
}

// Unwrap returns ErrInvalidConfig.
func (e *ConfigError) Unwrap() error { return ErrInvalidConfig }

// Config describes one HTTP listener. Every zero field takes its default
// (the Default* constants), so a Config filled from command line flags
// whose defaults are 0 is usable as it is; negative values are rejected
// by Validate.
type Config struct {
	// Addr is the TCP address ListenAndServe and Listen bind, e.g.
	// "127.0.0.1:8080" or ":0" for a free port (default ":http").
	Addr string
	// Handler serves the requests. Required.
	Handler http.Handler
	// MaxConns caps the connections open at once
	// (golang.org/x/net/netutil.LimitListener). A connection beyond the
	// cap is not refused: it waits in the listen backlog until an open
	// one closes.
	MaxConns int
	// ReadHeaderTimeout bounds reading a request's line and headers.
	ReadHeaderTimeout time.Duration
	// ReadTimeout is a body-read deadline: it bounds reading a request,
	// headers and body, counted from the request's first byte
	// (http.Server's ReadTimeout). A body still arriving then fails to read
	// with an error matching os.ErrDeadlineExceeded, and the connection is
	// closed after the response. net/http lifts the deadline once the body
	// has been read to its end (at once for a request without a body), so
	// it never bounds the response: an event stream may run for hours.
	// A handler that answers without reading the body to its end keeps the
	// deadline on its later body reads.
	ReadTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that carries no request
	// for that long.
	IdleTimeout time.Duration
	// WriteTimeout bounds writing a whole response (http.Server's
	// WriteTimeout). The default, 0, means no bound: a server-sent event
	// stream lives as long as its session, so listeners that serve one
	// must leave it 0 and bound each write in the handler instead (as
	// package stream/a2a does with http.ResponseController).
	WriteTimeout time.Duration
	// MaxHeaderBytes bounds the request line and headers.
	MaxHeaderBytes int
	// DrainTimeout is how long a shutdown waits for requests in flight to
	// finish. Those still running then have their contexts cancelled and
	// get CancelGrace to finish before the connections are closed.
	DrainTimeout time.Duration
	// CancelGrace: see DrainTimeout.
	CancelGrace time.Duration
	// Logger receives the server's errors and shutdown notes (default:
	// discard).
	Logger *slog.Logger
}

// Validate reports the first unusable field as a *ConfigError: a negative
// duration or cap. It does not require Handler, so that flag values can be
// checked before a handler exists; New does.
func (c Config) Validate() error {
	durations := []struct {
		name string
		d    time.Duration
	}{
		{"ReadHeaderTimeout", c.ReadHeaderTimeout},
		{"ReadTimeout", c.ReadTimeout},
		{"IdleTimeout", c.IdleTimeout},
		{"WriteTimeout", c.WriteTimeout},
		{"DrainTimeout", c.DrainTimeout},
		{"CancelGrace", c.CancelGrace},
	}
	for _, f := range durations {
		if f.d < 0 {
			return &ConfigError{Field: f.name, Value: f.d, Reason: "must not be negative"}
		}
	}
	if c.MaxConns < 0 {
		return &ConfigError{Field: "MaxConns", Value: c.MaxConns, Reason: "must not be negative"}
	}
	if c.MaxHeaderBytes < 0 {
		return &ConfigError{Field: "MaxHeaderBytes", Value: c.MaxHeaderBytes, Reason: "must not be negative"}
	}
	return nil
}

// withDefaults returns c with every zero field set to its default.
func (c Config) withDefaults() Config {
	if c.MaxConns == 0 {
		c.MaxConns = DefaultMaxConns
	}
	if c.ReadHeaderTimeout == 0 {
		c.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if c.ReadTimeout == 0 {
		c.ReadTimeout = DefaultReadTimeout
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.MaxHeaderBytes == 0 {
		c.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if c.DrainTimeout == 0 {
		c.DrainTimeout = DefaultDrainTimeout
	}
	if c.CancelGrace == 0 {
		c.CancelGrace = DefaultCancelGrace
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}
