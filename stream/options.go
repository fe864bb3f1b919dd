package stream

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"github.com/a2ui-stream/a2ui-stream/sinks"
)

// Policy says when a pipeline emits a batch.
type Policy int

const (
	// PolicyDefault is PolicyList in complete mode and PolicyYield in the
	// progressive and delta modes.
	PolicyDefault Policy = iota
	// PolicyList emits one batch per list: a list's messages are applied
	// as they arrive, and its batch goes out once, when the list closes
	// (or fails, or the stream ends inside it). One repaint per list.
	PolicyList
	// PolicyYield emits one batch per parser yield: each call's messages
	// of a list are applied and sent at once.
	PolicyYield
)

// String returns the policy's name as ParsePolicy reads it.
func (p Policy) String() string {
	switch p {
	case PolicyList:
		return "list"
	case PolicyYield:
		return "yield"
	}
	return "default"
}

// ParsePolicy reads a policy name: "list", "yield", or "" and "default"
// for PolicyDefault.
func ParsePolicy(s string) (Policy, error) {
	switch strings.ToLower(s) {
	case "", "default":
		return PolicyDefault, nil
	case "list":
		return PolicyList, nil
	case "yield":
		return PolicyYield, nil
	}
	return PolicyDefault, fmt.Errorf("stream: unknown batch policy %q (want list or yield)", s)
}

// Defaults of the options.
const (
	DefaultMaxSessions = 10000
	DefaultIdleTimeout = 5 * time.Minute
	DefaultMaxChunk    = 1 << 20
	DefaultEmitTimeout = 10 * time.Second
	DefaultRetries     = 3
	DefaultBackoff     = 50 * time.Millisecond
	DefaultMaxBackoff  = 2 * time.Second
)

// Option configures a Pipeline.
type Option func(*config) error

type config struct {
	mode        parser.Mode
	framing     parser.Framing
	catalog     *protocol.Catalog
	parserOpts  []parser.Option
	procOpts    []processor.Option
	policy      Policy
	sinks       []sinks.Sink
	maxSessions int
	idleTimeout time.Duration
	maxChunk    int
	logger      *slog.Logger
	observer    Observer
	emitTimeout time.Duration
	retries     int
	backoff     time.Duration
	maxBackoff  time.Duration
	now         func() time.Time
	timed       bool   // the observer takes timings (it is not NopObserver)
	batching    Policy // the effective policy, set by NewPipeline
}

func defaultConfig() config {
	return config{
		mode:        parser.ModeComplete,
		framing:     parser.FramingTags,
		maxSessions: DefaultMaxSessions,
		idleTimeout: DefaultIdleTimeout,
		maxChunk:    DefaultMaxChunk,
		logger:      slog.New(slog.NewTextHandler(io.Discard, nil)),
		observer:    NopObserver{},
		emitTimeout: DefaultEmitTimeout,
		retries:     DefaultRetries,
		backoff:     DefaultBackoff,
		maxBackoff:  DefaultMaxBackoff,
		now:         time.Now,
	}
}

// WithMode sets the parser's mode (default parser.ModeComplete).
func WithMode(m parser.Mode) Option {
	return func(c *config) error {
		c.mode = m
		return nil
	}
}

// WithFraming sets the parser's framing (default parser.FramingTags).
func WithFraming(f parser.Framing) Option {
	return func(c *config) error {
		c.framing = f
		return nil
	}
}

// WithCatalog validates messages against cat, in the parser (progressive
// and delta modes) and in the processor (every mode).
func WithCatalog(cat *protocol.Catalog) Option {
	return func(c *config) error {
		if cat == nil {
			return errors.New("stream: nil catalog")
		}
		c.catalog = cat
		return nil
	}
}

// WithParserOptions adds options to every session's parser (after the
// pipeline's own: mode, framing, catalog, list ends and borrowed output).
func WithParserOptions(opts ...parser.Option) Option {
	return func(c *config) error {
		c.parserOpts = append(c.parserOpts, opts...)
		return nil
	}
}

// WithProcessorOptions adds options to every session's processor.
func WithProcessorOptions(opts ...processor.Option) Option {
	return func(c *config) error {
		c.procOpts = append(c.procOpts, opts...)
		return nil
	}
}

// WithBatchPolicy sets when batches are emitted (default PolicyDefault).
func WithBatchPolicy(p Policy) Option {
	return func(c *config) error {
		if p < PolicyDefault || p > PolicyYield {
			return fmt.Errorf("stream: unknown batch policy %d", p)
		}
		c.policy = p
		return nil
	}
}

// WithSinks adds sinks. Every event goes to each sink, in the order given.
// Close closes them.
func WithSinks(s ...sinks.Sink) Option {
	return func(c *config) error {
		for _, x := range s {
			if x == nil {
				return errors.New("stream: nil sink")
			}
		}
		c.sinks = append(c.sinks, s...)
		return nil
	}
}

// WithMaxSessions bounds the open sessions (default DefaultMaxSessions).
// A new session beyond it evicts the least recently fed one, which ends
// with reason EndEvicted.
func WithMaxSessions(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("stream: max sessions must be at least 1, got %d", n)
		}
		c.maxSessions = n
		return nil
	}
}

// WithIdleTimeout ends a session that was fed nothing for d, with reason
// EndIdle (default DefaultIdleTimeout; 0 never does).
func WithIdleTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("stream: negative idle timeout %v", d)
		}
		c.idleTimeout = d
		return nil
	}
}

// WithMaxChunk bounds one chunk (default DefaultMaxChunk bytes). A larger
// chunk is not parsed: it is reported in an error event (reason
// "chunk") and the session goes on without it.
func WithMaxChunk(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("stream: max chunk must be at least 1 byte, got %d", n)
		}
		c.maxChunk = n
		return nil
	}
}

// WithLogger sets the logger (default: discard). Failed messages, dropped
// blocks, ended sessions and sink failures are logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return errors.New("stream: nil logger")
		}
		c.logger = l
		return nil
	}
}

// WithObserver sets the observer of the pipeline's work, for metrics
// (default NopObserver).
func WithObserver(o Observer) Option {
	return func(c *config) error {
		if o == nil {
			return errors.New("stream: nil observer")
		}
		c.observer = o
		_, nop := o.(NopObserver)
		c.timed = !nop
		return nil
	}
}

// WithEmitRetry sets how a failing sink is retried: each Emit attempt gets
// timeout (default DefaultEmitTimeout; 0 for none, for sinks that cannot
// be interrupted anyway, such as a JSONL sink on a local writer), and a failed attempt is retried
// up to retries times (default DefaultRetries), after a pause that starts
// at backoff and doubles up to maxBackoff (defaults DefaultBackoff and
// DefaultMaxBackoff).
func WithEmitRetry(timeout time.Duration, retries int, backoff, maxBackoff time.Duration) Option {
	return func(c *config) error {
		switch {
		case timeout < 0:
			return fmt.Errorf("stream: negative emit timeout %v", timeout)
		case retries < 0:
			return fmt.Errorf("stream: negative retry count %d", retries)
		case backoff < 0 || maxBackoff < backoff:
			return fmt.Errorf("stream: backoff %v to %v is not a range", backoff, maxBackoff)
		}
		c.emitTimeout, c.retries, c.backoff, c.maxBackoff = timeout, retries, backoff, maxBackoff
		return nil
	}
}

// policy returns the effective batch policy.
func (c *config) effectivePolicy() Policy {
	if c.policy != PolicyDefault {
		return c.policy
	}
	if c.mode == parser.ModeComplete {
		return PolicyList
	}
	return PolicyYield
}
