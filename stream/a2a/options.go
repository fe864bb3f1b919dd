package a2a

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// Default limits of the endpoint.
const (
	DefaultMaxBodyBytes     = 1 << 20 // 1 MiB
	DefaultMaxResponseBytes = 8 << 20 // 8 MiB
	// DefaultWriteTimeout bounds each write of a reply (see
	// WithWriteTimeout).
	DefaultWriteTimeout = 30 * time.Second
	// DefaultMaxSessions bounds the contexts whose surfaces the server
	// keeps (see WithMaxSessions).
	DefaultMaxSessions = 1000
	// DefaultSessionIdleTimeout is how long a context's surfaces are kept
	// after its last answer (see WithSessionIdleTimeout).
	DefaultSessionIdleTimeout = 30 * time.Minute
)

// DefaultVersions are the A2UI versions the endpoint advertises when
// WithExtensions is not used.
var DefaultVersions = protocol.KnownVersions()

type config struct {
	name, description, agentVersion string
	publicURL                       string
	extensions                      []AgentExtension
	token                           string
	maxBody                         int64
	maxResponse                     int
	writeTimeout                    time.Duration
	maxSessions                     int
	idleTimeout                     time.Duration
	logger                          *slog.Logger
	group                           bool
	artifacts                       bool
	parserOpts                      []parser.Option
	corsOrigins                     []string
	rejectEvery                     time.Duration
	rejectBurst                     int
	rejectObserver                  func(reason string)
}

// Option configures a Server. Options are validated by NewServer.
type Option func(*config) error

// WithAgentInfo sets the agent card's name, description and agent version
// (defaults "a2ui-stream", a short description, "1.0.0").
func WithAgentInfo(name, description, version string) Option {
	return func(c *config) error {
		if name == "" || version == "" {
			return errors.New("a2a: agent name and version must not be empty")
		}
		c.name, c.description, c.agentVersion = name, description, version
		return nil
	}
}

// WithPublicURL sets the URL the agent card gives for the JSON-RPC endpoint
// (default: derived from each card request's Host, as http://host/).
func WithPublicURL(u string) Option {
	return func(c *config) error {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return fmt.Errorf("a2a: public URL %q is not an absolute http(s) URL", u)
		}
		c.publicURL = u
		return nil
	}
}

// WithExtensions replaces the A2UI extension entries the agent card
// advertises (default: one per DefaultVersions, no params). Negotiation
// activates only advertised versions.
func WithExtensions(exts ...AgentExtension) Option {
	return func(c *config) error {
		for _, e := range exts {
			if !protocol.IsExtensionURI(e.URI) {
				return fmt.Errorf("%w: %q", ErrNotExtensionURI, e.URI)
			}
		}
		c.extensions = append([]AgentExtension(nil), exts...)
		return nil
	}
}

// WithBearerToken requires "Authorization: Bearer <token>" on JSON-RPC
// requests (default: no auth). The agent card stays public. An empty token
// disables auth.
func WithBearerToken(token string) Option {
	return func(c *config) error { c.token = token; return nil }
}

// WithMaxBodyBytes caps request bodies (default DefaultMaxBodyBytes).
func WithMaxBodyBytes(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("a2a: max body bytes must be positive, got %d", n)
		}
		c.maxBody = n
		return nil
	}
}

// WithMaxResponseBytes caps the runner output buffered for a non-streaming
// reply (default DefaultMaxResponseBytes). Streaming replies are not
// buffered.
func WithMaxResponseBytes(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("a2a: max response bytes must be positive, got %d", n)
		}
		c.maxResponse = n
		return nil
	}
}

// WithWriteTimeout bounds each write of a reply to a client: each event of
// a streamed reply, the body of a plain one (default DefaultWriteTimeout; 0
// disables the bound). A client that stops reading without closing its
// connection would otherwise hold the handler and its Runner forever, and
// http.Server's WriteTimeout, which bounds a whole response, cannot serve
// streams. When a streamed event misses the deadline the reply ends and the
// Runner's yield returns the error. The deadline is set through
// http.ResponseController before each write and cleared after it, so the
// pauses between events are not bounded; a ResponseWriter that cannot set
// one writes without it.
func WithWriteTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("a2a: write timeout must not be negative, got %v", d)
		}
		c.writeTimeout = d
		return nil
	}
}

// WithMaxSessions bounds the contexts (A2A contextIds) whose sessions the
// server keeps open: each holds the surfaces its answers built (default
// DefaultMaxSessions). A new context beyond it ends the session fed least
// recently, whose next message starts with no surface.
func WithMaxSessions(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("a2a: max sessions must be at least 1, got %d", n)
		}
		c.maxSessions = n
		return nil
	}
}

// WithSessionIdleTimeout ends the session of a context that was fed no
// answer for d, forgetting its surfaces (default DefaultSessionIdleTimeout;
// 0 keeps sessions until WithMaxSessions evicts them or the server is
// closed).
func WithSessionIdleTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("a2a: session idle timeout must not be negative, got %v", d)
		}
		c.idleTimeout = d
		return nil
	}
}

// WithLogger sets the logger for dropped blocks, messages the processor
// rejected, runner failures, sessions and disconnects (default: discard).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return errors.New("a2a: nil logger")
		}
		c.logger = l
		return nil
	}
}

// WithGroupedMessages puts the messages of one A2UI block in one data part
// holding their list (default: one data part per message), except under
// the v0.8 extension, which carries one message per part; see
// PartOptions.GroupMessages.
func WithGroupedMessages(group bool) Option {
	return func(c *config) error { c.group = group; return nil }
}

// WithArtifactEvents streams each part as an artifact update (artifactUpdate,
// artifact-update) of one artifact instead of as a status update carrying an
// agent message (the default, which A2UI sample clients read).
func WithArtifactEvents(on bool) Option {
	return func(c *config) error { c.artifacts = on; return nil }
}

// WithParserOptions sets the options of the parser that reads runner output
// (framing, limits), passed to every session's parser through
// stream.WithParserOptions. Without them, the parser repairs common payload
// defects as the output arrives (parser.WithPayloadRepair: typographic
// quotes, trailing commas, see parser.FixPayload); with them, it repairs
// nothing unless they include parser.WithPayloadRepair. Streaming and
// non-streaming replies go through the same parser, so both carry the same
// messages.
func WithParserOptions(opts ...parser.Option) Option {
	return func(c *config) error {
		if _, err := parser.New(opts...); err != nil {
			return fmt.Errorf("a2a: parser options: %w", err)
		}
		c.parserOpts = append([]parser.Option(nil), opts...)
		return nil
	}
}

// WithCORS lets browser pages from the given origins call the endpoint and
// read the agent card ("*" allows any origin; default: none, no CORS
// headers). Preflight requests are answered, and the extension response
// headers are exposed.
func WithCORS(origins ...string) Option {
	return func(c *config) error {
		for _, o := range origins {
			if o == "" {
				return errors.New("a2a: empty CORS origin")
			}
		}
		c.corsOrigins = append([]string(nil), origins...)
		return nil
	}
}

// WithRejectLogLimit paces the Info lines that log rejected requests (a
// wrong or missing token, a body over the limit, a body that could not be
// read, a JSON-RPC error): burst lines at once, then one per every
// (defaults DefaultRejectLogBurst and DefaultRejectLogEvery). The lines
// dropped meanwhile are counted in the next line's "suppressed" attribute,
// so a flood of bad requests cannot fill the disk.
func WithRejectLogLimit(every time.Duration, burst int) Option {
	return func(c *config) error {
		if every <= 0 || burst < 1 {
			return fmt.Errorf("a2a: reject log limit wants a positive interval and a burst of at least 1, got %v and %d", every, burst)
		}
		c.rejectEvery, c.rejectBurst = every, burst
		return nil
	}
}

// WithRejectObserver calls fn with the reason (one of RejectReasons) of
// every rejected request, whether or not it is logged: a hook for metrics
// such as stream/metrics' Rejected. fn is called on the request's
// goroutine and must be safe for concurrent use.
func WithRejectObserver(fn func(reason string)) Option {
	return func(c *config) error {
		if fn == nil {
			return errors.New("a2a: nil reject observer")
		}
		c.rejectObserver = fn
		return nil
	}
}
