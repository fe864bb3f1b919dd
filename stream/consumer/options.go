package consumer

import (
	"errors"
	"fmt"
	"github.com/a2ui-stream/a2ui-stream/internal/natssubj"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"
)

// Defaults of the options.
const (
	DefaultPrefix        = "a2ui.in"
	DefaultWorkers       = 16
	DefaultQueueSize     = 64
	DefaultMaxChunk      = 1 << 20 // 1 MiB
	DefaultMaxSessions   = 100_000
	DefaultDrainTimeout  = 30 * time.Second
	DefaultPendingMsgs   = 65_536
	DefaultPendingBytes  = 64 << 20
	DefaultStatsInterval = time.Second

	DefaultStream        = "A2UI_IN"
	DefaultGroup         = "a2ui"
	DefaultPartitions    = 16
	DefaultAckWait       = 5 * time.Second
	DefaultMaxAckPending = 1000
	DefaultMaxAge        = 24 * time.Hour
	DefaultRetryDelay    = time.Second
	DefaultReplicas      = 1
)

// ErrOption is wrapped by the errors of invalid options.
var ErrOption = errors.New("consumer: invalid option")

type kind uint8

const (
	both kind = iota
	coreOnly
	jsOnly
)

type config struct {
	prefix        string
	workers       int
	queueSize     int
	maxChunk      int
	maxSessions   int
	drainTimeout  time.Duration
	onError       func(session string, err error)
	observer      Observer
	logger        *slog.Logger
	pendingMsgs   int
	pendingBytes  int
	statsInterval time.Duration

	stream          string
	group           string
	partitions      int
	member          string
	ackWait         time.Duration
	maxAckPending   int
	maxAge          time.Duration
	retryDelay      time.Duration
	memberInterval  time.Duration
	replicas        int
	maxBufferedMsgs int64
}

// report hands a chunk's error to the observer and to the error callback.
func (c *config) report(err *ChunkError) {
	c.observer.Error(err)
	c.onError(err.Session, err)
}

// Option configures NewCore or NewJetStream. Options named for one of them
// are rejected by the other.
type Option struct {
	name  string
	kind  kind
	apply func(*config) error
}

func opt(name string, k kind, f func(*config) error) Option {
	return Option{name: name, kind: k, apply: f}
}

func optErr(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrOption}, a...)...)
}

func defaultConfig() config {
	return config{
		prefix:        DefaultPrefix,
		workers:       DefaultWorkers,
		queueSize:     DefaultQueueSize,
		maxChunk:      DefaultMaxChunk,
		maxSessions:   DefaultMaxSessions,
		drainTimeout:  DefaultDrainTimeout,
		observer:      NopObserver{},
		logger:        slog.Default(),
		pendingMsgs:   DefaultPendingMsgs,
		pendingBytes:  DefaultPendingBytes,
		statsInterval: DefaultStatsInterval,
		stream:        DefaultStream,
		group:         DefaultGroup,
		partitions:    DefaultPartitions,
		member:        DefaultMember(),
		ackWait:       DefaultAckWait,
		maxAckPending: DefaultMaxAckPending,
		maxAge:        DefaultMaxAge,
		retryDelay:    DefaultRetryDelay,
		replicas:      DefaultReplicas,
	}
}

func newConfig(k kind, opts []Option) (config, error) {
	c := defaultConfig()
	for _, o := range opts {
		if o.apply == nil {
			return c, optErr("zero Option")
		}
		if o.kind != both && o.kind != k {
			return c, optErr("%s does not apply to this consumer", o.name)
		}
		if err := o.apply(&c); err != nil {
			return c, err
		}
	}
	if c.memberInterval == 0 {
		c.memberInterval = c.ackWait
	}
	if c.onError == nil {
		logger := c.logger
		c.onError = func(session string, err error) {
			logger.Warn("consumer: chunk not processed", "session", session, "err", err)
		}
	}
	return c, nil
}

// DefaultMember is the default member name: <hostname>-<pid>, with the
// characters a consumer name cannot hold replaced by '_'.
func DefaultMember() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		h = "a2ui"
	}
	return sanitizeName(h + "-" + strconv.Itoa(os.Getpid()))
}

func sanitizeName(s string) string {
	return strings.Map(func(r rune) rune {
		if validNameRune(r) {
			return r
		}
		return '_'
	}, s)
}

func validNameRune(r rune) bool {
	return r == '-' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !validNameRune(r) {
			return false
		}
	}
	return true
}

// WithPrefix sets the subject prefix: chunks arrive on <prefix>.<session>
// (default "a2ui.in").
func WithPrefix(prefix string) Option {
	return opt("WithPrefix", both, func(c *config) error {
		if problem := natssubj.PrefixProblem(prefix); problem != "" {
			return optErr("prefix %q is not a literal NATS subject: %s", prefix, problem)
		}
		c.prefix = prefix
		return nil
	})
}

// WithWorkers sets the number of worker goroutines sessions are sharded onto
// by hash (default 16). A session's chunks are always handled by the same
// worker, in order; different sessions proceed concurrently.
func WithWorkers(n int) Option {
	return opt("WithWorkers", both, func(c *config) error {
		if n < 1 || n > 4096 {
			return optErr("workers %d out of range [1, 4096]", n)
		}
		c.workers = n
		return nil
	})
}

// WithQueueSize bounds each worker's queue (default 64 chunks). A full queue
// blocks the subscription: back-pressure, never an unbounded queue.
func WithQueueSize(n int) Option {
	return opt("WithQueueSize", both, func(c *config) error {
		if n < 1 || n > 1<<20 {
			return optErr("queue size %d out of range [1, %d]", n, 1<<20)
		}
		c.queueSize = n
		return nil
	})
}

// WithMaxChunk sets the largest chunk fed to the handler (default 1 MiB);
// larger ones are reported (ErrTooLarge) and skipped.
func WithMaxChunk(n int) Option {
	return opt("WithMaxChunk", both, func(c *config) error {
		if n < 1 {
			return optErr("max chunk %d must be positive", n)
		}
		c.maxChunk = n
		return nil
	})
}

// WithMaxSessions bounds the sessions the consumer remembers (default
// 100,000), least recently used first out. Core NATS remembers which
// sessions it has seen (to report an end for an unknown one); JetStream
// remembers how far each session was processed, and rebuilds a forgotten
// session by replay when its next chunk arrives (with JetStream the handler
// is Reset when the consumer forgets a session; Core only forgets that it
// saw it, so an end without body for a forgotten session is reported as
// ErrUnknownSession).
func WithMaxSessions(n int) Option {
	return opt("WithMaxSessions", both, func(c *config) error {
		if n < 1 {
			return optErr("max sessions %d must be positive", n)
		}
		c.maxSessions = n
		return nil
	})
}

// WithDrainTimeout bounds how long Run, once its context is done, waits for
// the chunks in flight (default 30 s); after it, the handler's context is
// cancelled.
func WithDrainTimeout(d time.Duration) Option {
	return opt("WithDrainTimeout", both, func(c *config) error {
		if d <= 0 {
			return optErr("drain timeout %v must be positive", d)
		}
		c.drainTimeout = d
		return nil
	})
}

// WithOnError sets the hook told of every chunk or end not processed, with
// a *ChunkError (default: a warning on the logger). It is called from the
// consumer's goroutines, several at once.
func WithOnError(f func(session string, err error)) Option {
	return opt("WithOnError", both, func(c *config) error {
		if f == nil {
			return optErr("nil OnError")
		}
		c.onError = f
		return nil
	})
}

// WithObserver sets the Observer (default NopObserver).
func WithObserver(o Observer) Option {
	return opt("WithObserver", both, func(c *config) error {
		if o == nil {
			return optErr("nil Observer")
		}
		c.observer = o
		return nil
	})
}

// WithLogger sets the logger (default slog.Default()).
func WithLogger(l *slog.Logger) Option {
	return opt("WithLogger", both, func(c *config) error {
		if l == nil {
			return optErr("nil logger")
		}
		c.logger = l
		return nil
	})
}

// WithPendingLimits sets the core NATS subscription's pending limits
// (default 65,536 messages, 64 MiB). Past them the NATS client drops
// messages, which the consumer reports as ErrSlowConsumer.
func WithPendingLimits(msgs, bytes int) Option {
	return opt("WithPendingLimits", coreOnly, func(c *config) error {
		if msgs < 1 || bytes < 1 {
			return optErr("pending limits %d msgs, %d bytes must be positive", msgs, bytes)
		}
		c.pendingMsgs, c.pendingBytes = msgs, bytes
		return nil
	})
}

// WithStatsInterval sets how often the core consumer checks its
// subscription for dropped messages (default 1 s).
func WithStatsInterval(d time.Duration) Option {
	return opt("WithStatsInterval", coreOnly, func(c *config) error {
		if d <= 0 {
			return optErr("stats interval %v must be positive", d)
		}
		c.statsInterval = d
		return nil
	})
}
