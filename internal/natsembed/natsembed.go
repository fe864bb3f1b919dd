// Package natsembed runs a NATS server (github.com/nats-io/nats-server/v2)
// inside the current process, with JetStream on, listening on 127.0.0.1 and
// a random free port by default. `a2ui-stream serve` starts one when it is
// given no --nats-url, and tests across the repository use it instead of an
// external server.
//
// Start returns once the server accepts connections; Shutdown stops it,
// waits until it has stopped and removes the JetStream store directory when
// Start created it (a temporary one). A *Server is safe for concurrent use.
package natsembed

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Defaults of the options.
const (
	// DefaultHost is the interface the server listens on.
	DefaultHost = "127.0.0.1"
	// DefaultPort (-1) picks a random free port.
	DefaultPort = -1
	// DefaultStartTimeout bounds how long Start waits for the server to
	// accept connections.
	DefaultStartTimeout = 10 * time.Second
)

// ErrOption is wrapped by the errors of invalid options.
var ErrOption = errors.New("natsembed: invalid option")

// StartError reports a server that could not be started.
type StartError struct {
	Err error
}

func (e *StartError) Error() string { return "natsembed: start: " + e.Err.Error() }

// Unwrap returns the cause.
func (e *StartError) Unwrap() error { return e.Err }

type config struct {
	host         string
	port         int
	jetStream    bool
	storeDir     string
	serverName   string
	startTimeout time.Duration
	logging      bool
}

// Option configures Start.
type Option func(*config) error

// WithHost sets the interface to listen on (default 127.0.0.1).
func WithHost(host string) Option {
	return func(c *config) error {
		if strings.TrimSpace(host) == "" {
			return fmt.Errorf("%w: empty host", ErrOption)
		}
		c.host = host
		return nil
	}
}

// WithPort sets the client port: -1 (the default) picks a random free one.
func WithPort(port int) Option {
	return func(c *config) error {
		if port < -1 || port > 65535 {
			return fmt.Errorf("%w: port %d out of range [-1, 65535]", ErrOption, port)
		}
		c.port = port
		return nil
	}
}

// WithStoreDir keeps JetStream's data in dir (created if missing), which
// Shutdown leaves in place. Without it, Start creates a temporary directory
// that Shutdown removes.
func WithStoreDir(dir string) Option {
	return func(c *config) error {
		if strings.TrimSpace(dir) == "" {
			return fmt.Errorf("%w: empty store dir", ErrOption)
		}
		c.storeDir = dir
		return nil
	}
}

// WithoutJetStream runs core NATS only.
func WithoutJetStream() Option {
	return func(c *config) error {
		c.jetStream = false
		return nil
	}
}

// WithServerName names the server (default: one the server generates).
func WithServerName(name string) Option {
	return func(c *config) error {
		if strings.TrimSpace(name) == "" || strings.ContainsAny(name, " \t\r\n") {
			return fmt.Errorf("%w: server name %q", ErrOption, name)
		}
		c.serverName = name
		return nil
	}
}

// WithStartTimeout bounds how long Start waits for the server to accept
// connections (default 10 seconds).
func WithStartTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("%w: start timeout %v must be positive", ErrOption, d)
		}
		c.startTimeout = d
		return nil
	}
}

// WithLogging sends the server's own log to stderr (off by default).
func WithLogging() Option {
	return func(c *config) error {
		c.logging = true
		return nil
	}
}

// Server is a running embedded NATS server.
type Server struct {
	ns       *server.Server
	storeDir string
	tempDir  string // removed on Shutdown; "" when the caller gave the dir
	once     sync.Once
}

// Start starts a server and returns once it accepts connections.
func Start(opts ...Option) (*Server, error) {
	c := config{
		host:         DefaultHost,
		port:         DefaultPort,
		jetStream:    true,
		startTimeout: DefaultStartTimeout,
	}
	for _, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: nil option", ErrOption)
		}
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	sopts := &server.Options{
		Host:       c.host,
		Port:       c.port,
		ServerName: c.serverName,
		NoSigs:     true,
		NoLog:      !c.logging,
		JetStream:  c.jetStream,
	}
	var tempDir string
	if c.jetStream {
		if c.storeDir == "" {
			d, err := os.MkdirTemp("", "natsembed-*")
			if err != nil {
				return nil, &StartError{Err: err}
			}
			tempDir, c.storeDir = d, d
		} else if err := os.MkdirAll(c.storeDir, 0o750); err != nil {
			return nil, &StartError{Err: err}
		}
		sopts.StoreDir = c.storeDir
	}
	cleanup := func() {
		if tempDir != "" {
			_ = os.RemoveAll(tempDir)
		}
	}
	ns, err := server.NewServer(sopts)
	if err != nil {
		cleanup()
		return nil, &StartError{Err: err}
	}
	if c.logging {
		ns.ConfigureLogger()
	}
	ns.Start()
	if !ns.ReadyForConnections(c.startTimeout) {
		ns.Shutdown()
		ns.WaitForShutdown()
		cleanup()
		return nil, &StartError{Err: fmt.Errorf("not ready for connections within %v", c.startTimeout)}
	}
	return &Server{ns: ns, storeDir: c.storeDir, tempDir: tempDir}, nil
}

// URL is the client URL, nats://host:port.
func (s *Server) URL() string { return s.ns.ClientURL() }

// Addr is the address the server listens on for clients.
func (s *Server) Addr() net.Addr { return s.ns.Addr() }

// Server returns the underlying nats-server, for tests that inspect it.
func (s *Server) Server() *server.Server { return s.ns }

// Shutdown stops the server, waits until it has stopped and removes the
// temporary store directory, if Start created one (best effort). It is
// idempotent and safe to call from several goroutines.
func (s *Server) Shutdown() {
	s.once.Do(func() {
		s.ns.Shutdown()
		s.ns.WaitForShutdown()
		if s.tempDir != "" {
			_ = os.RemoveAll(s.tempDir)
		}
	})
}

// StoreDir is the JetStream store directory ("" without JetStream).
func (s *Server) StoreDir() string { return s.storeDir }
