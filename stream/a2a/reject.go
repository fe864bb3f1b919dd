package a2a

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Reasons a request is rejected, as RejectObserver and the log report them.
// The HTTP-level ones match the reason label values of package
// stream/metrics (DefaultRejectReasons); the JSON-RPC ones are this
// endpoint's own.
const (
	RejectUnauthorized     = "unauthorized"       // 401: no or a wrong bearer token
	RejectMethodNotAllowed = "method_not_allowed" // 405: a JSON-RPC request not POSTed
	RejectBodyTooLarge     = "body_too_large"     // 413: a body over WithMaxBodyBytes
	RejectReadTimeout      = "read_timeout"       // 400: the body did not arrive before the read deadline
	RejectBadRequest       = "bad_request"        // 400: the body could not be read (bad chunked encoding)
	RejectParseError       = "parse_error"        // -32700
	RejectInvalidRequest   = "invalid_request"    // -32600
	RejectMethodNotFound   = "method_not_found"   // -32601
	RejectInvalidParams    = "invalid_params"     // -32602
	RejectVersion          = "version_not_supported"
	RejectUnsupported      = "unsupported_method" // a task, push-notification or extended-card method
)

// RejectReasons lists every reason a RejectObserver may be called with.
var RejectReasons = []string{
	RejectUnauthorized, RejectMethodNotAllowed, RejectBodyTooLarge, RejectReadTimeout, RejectBadRequest,
	RejectParseError, RejectInvalidRequest, RejectMethodNotFound, RejectInvalidParams, RejectVersion, RejectUnsupported,
}

// Defaults of the rejected-request log (see WithRejectLogLimit).
const (
	// DefaultRejectLogEvery is the pace at which rejected requests are
	// logged once the burst is spent: one line per second.
	DefaultRejectLogEvery = time.Second
	// DefaultRejectLogBurst is how many rejected requests are logged at
	// once before the pace applies.
	DefaultRejectLogBurst = 10
)

// rejectLog logs rejected requests at Info, rate-limited so that a flood
// cannot fill the disk, and hands each to the observer (which is not
// rate-limited). A line logged after others were dropped says how many
// ("suppressed"). It is safe for concurrent use.
type rejectLog struct {
	log        *slog.Logger
	lim        *rate.Limiter
	suppressed atomic.Int64
	observe    func(reason string)
}

func newRejectLog(log *slog.Logger, every time.Duration, burst int, observe func(string)) *rejectLog {
	return &rejectLog{log: log, lim: rate.NewLimiter(rate.Every(every), burst), observe: observe}
}

// reject records a rejected request: reason (one of RejectReasons), the
// HTTP status, the JSON-RPC error (nil for an HTTP-level rejection), the
// JSON-RPC method when known, and the cause when there is one.
func (l *rejectLog) reject(r *http.Request, reason string, status int, e *RPCError, method string, cause error) {
	if l.observe != nil {
		l.observe(reason)
	}
	if !l.log.Enabled(r.Context(), slog.LevelInfo) {
		return
	}
	if !l.lim.Allow() {
		l.suppressed.Add(1)
		return
	}
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs, slog.String("reason", reason), slog.String("remote", r.RemoteAddr), slog.Int("status", status))
	if e != nil {
		attrs = append(attrs, slog.Int("code", e.Code), slog.String("error", e.Message))
	}
	if method != "" {
		attrs = append(attrs, slog.String("method", truncate(method, 64)))
	}
	if cause != nil {
		attrs = append(attrs, slog.String("cause", cause.Error()))
	}
	if n := l.suppressed.Swap(0); n > 0 {
		attrs = append(attrs, slog.Int64("suppressed", n))
	}
	l.log.LogAttrs(r.Context(), slog.LevelInfo, "a2a: request rejected", attrs...)
}

// rpcReason maps a JSON-RPC error code to its reject reason.
func rpcReason(code int) string {
	switch code {
	case CodeParseError:
		return RejectParseError
	case CodeInvalidRequest:
		return RejectInvalidRequest
	case CodeMethodNotFound:
		return RejectMethodNotFound
	case CodeInvalidParams:
		return RejectInvalidParams
	case CodeVersionNotSupported:
		return RejectVersion
	}
	return RejectUnsupported
}

// bodyReason maps a failed body read to its reject reason.
func bodyReason(err error) string {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return RejectReadTimeout
	}
	return RejectBadRequest
}

// truncate cuts s to at most n bytes (a client's method name is logged,
// and may be long).
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// cutTurns holds the contexts whose turn is being ended after its client
// went away: what the pipeline logs for them meanwhile (the block the
// disconnect left unfinished, dropped) is a consequence of the disconnect,
// not a problem of the model's output, and goes to Debug.
type cutTurns struct {
	mu  sync.Mutex
	ids map[string]int
}

func (c *cutTurns) add(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ids == nil {
		c.ids = map[string]int{}
	}
	c.ids[id]++
}

func (c *cutTurns) remove(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ids[id]--; c.ids[id] <= 0 {
		delete(c.ids, id)
	}
}

func (c *cutTurns) has(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ids[id] > 0
}

// demoteHandler is the pipeline's log handler: it passes records on to
// next, but a Warn or Info record whose "session" attribute names a cut
// turn (see cutTurns) is passed on at Debug.
type demoteHandler struct {
	next slog.Handler
	cut  *cutTurns
}

func (h *demoteHandler) Enabled(ctx context.Context, level slog.Level) bool {
	// A record that may be demoted must reach Handle even when next drops
	// its level but not Debug; Handle checks again.
	return h.next.Enabled(ctx, level) || (level < slog.LevelError && h.next.Enabled(ctx, slog.LevelDebug))
}

func (h *demoteHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelError && r.Level > slog.LevelDebug && h.cutSession(r) {
		r.Level = slog.LevelDebug
	}
	if !h.next.Enabled(ctx, r.Level) {
		return nil
	}
	return h.next.Handle(ctx, r)
}

func (h *demoteHandler) cutSession(r slog.Record) bool {
	cut := false
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "session" {
			cut = h.cut.has(a.Value.String())
			return false
		}
		return true
	})
	return cut
}

func (h *demoteHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &demoteHandler{next: h.next.WithAttrs(attrs), cut: h.cut}
}

func (h *demoteHandler) WithGroup(name string) slog.Handler {
	return &demoteHandler{next: h.next.WithGroup(name), cut: h.cut}
}
