package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/httpserve"
	"github.com/a2ui-stream/a2ui-stream/stream/a2a"
	"github.com/a2ui-stream/a2ui-stream/stream/metrics"
)

// a2aTokenEnv names the environment variable that supplies the bearer token
// when neither --token nor --token-file is given.
const a2aTokenEnv = "A2UI_STREAM_TOKEN"

// a2aShutdownGrace is how long a2a waits for streams in flight to finish after
// a signal before cancelling them; a2aCancelGrace is how long the cancelled
// ones then have to write their final (canceled) status before their
// connections are closed.
const (
	a2aShutdownGrace = 5 * time.Second
	a2aCancelGrace   = time.Second
)

// a2aUsage is the help of "a2ui-stream a2a".
const a2aUsage = `usage: a2ui-stream a2a --replay FILE [--listen ADDR] [--pace D]
                       [--token T | --token-file FILE] [--max-conns N]
                       [--idle-timeout D] [--read-timeout D] [--v]

Serves an A2A JSON-RPC endpoint (A2A 1.0 and 0.3) that answers every
message by replaying the model output in FILE, parsed into text and A2UI
parts and streamed part by part, with the agent card at
/.well-known/agent-card.json.

JSON-RPC requests need "Authorization: Bearer T" when a token is set: from
--token, else from --token-file (its one trailing newline is dropped), else
from $A2UI_STREAM_TOKEN. A token holding whitespace or control characters is
refused at startup. The agent card stays public.

The listener is hardened: at most --max-conns connections at once (more wait
in the listen backlog), headers within 10s, the whole request, body included,
within --read-timeout, idle keep-alive connections closed after
--idle-timeout, bodies up to --max-body. Streams are not bounded in length;
each write to a client must finish within 30s. With --v, rejected requests
(wrong token, 413, JSON-RPC errors) are logged at info, with their reason
and remote address, at most 10 at once and then one a second; disconnects at
debug. --metrics ADDR serves Prometheus /metrics on a second listener,
with rejected requests counted by reason (a2ui_stream_http_rejected_total).
Each A2A context keeps its surfaces for --session-idle, --max-sessions
contexts at most.

It serves until SIGINT or SIGTERM, then shuts down gracefully: new
connections are refused and streams in flight get 5s to finish before they
are canceled (a second signal ends the process at once).

Exit status: 0 after a clean shutdown; 1 when serving fails; 2 for usage
errors, an unusable token and an unreadable FILE.
`

// a2aFlags holds the flags of "a2ui-stream a2a".
type a2aFlags struct {
	listen, replay, token, tokenFile, publicURL, cors string
	pace                                              time.Duration
	chunk                                             int
	group, artifacts, verbose                         bool
	maxBody                                           int64
	maxConns, maxSessions                             int
	idleTimeout, readTimeout, sessionIdle             time.Duration
	metricsAddr                                       string
}

func (f *a2aFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8080", "listen on `ADDR` (host:port)")
	fs.StringVar(&f.replay, "replay", "", "answer every message by replaying the model output in `FILE` (required)")
	fs.DurationVar(&f.pace, "pace", 20*time.Millisecond, "delay between replayed chunks")
	fs.IntVar(&f.chunk, "chunk", a2a.DefaultReplayChunkSize, "replayed chunk size in bytes")
	fs.StringVar(&f.token, "token", "", "require this bearer token on JSON-RPC requests (prefer --token-file or $"+a2aTokenEnv+": flags show in ps; the agent card stays public)")
	fs.StringVar(&f.tokenFile, "token-file", "", "read the bearer token from `FILE` (one trailing newline is dropped)")
	fs.StringVar(&f.publicURL, "public-url", "", "endpoint URL to publish in the agent card (default: from the request's Host)")
	fs.BoolVar(&f.group, "group", false, "put the messages of one A2UI block in one data part (a list) instead of one part per message (not under the v0.8 extension)")
	fs.BoolVar(&f.artifacts, "artifacts", false, "stream parts as artifact updates instead of status updates")
	fs.Int64Var(&f.maxBody, "max-body", a2a.DefaultMaxBodyBytes, "maximum request body size in bytes")
	fs.IntVar(&f.maxConns, "max-conns", httpserve.DefaultMaxConns, "concurrent connections at most (more wait in the listen backlog)")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", httpserve.DefaultIdleTimeout, "close a keep-alive connection idle this long")
	fs.DurationVar(&f.readTimeout, "read-timeout", httpserve.DefaultReadTimeout, "deadline to read a request, headers and body (a reply is not bounded)")
	fs.IntVar(&f.maxSessions, "max-sessions", a2a.DefaultMaxSessions, "contexts whose surfaces are kept at most; a new one ends the least recently used")
	fs.DurationVar(&f.sessionIdle, "session-idle", a2a.DefaultSessionIdleTimeout, "forget a context's surfaces after this long without a message (0: never)")
	fs.StringVar(&f.metricsAddr, "metrics", "", "serve Prometheus /metrics (rejected requests by reason, Go runtime) and /healthz on `ADDR`")
	fs.StringVar(&f.cors, "cors", "", "let browser pages from `ORIGIN` call the endpoint (\"*\": any origin)")
	fs.BoolVar(&f.verbose, "v", false, "log requests' problems to stderr")
}

// check reports the first unusable flag value (a usage error).
func (f *a2aFlags) check() error {
	switch {
	case f.replay == "":
		return flagValueError{"--replay FILE is required"}
	case f.token != "" && f.tokenFile != "":
		return flagValueError{"--token and --token-file cannot be used together"}
	case f.maxConns < 1:
		return flagValueError{fmt.Sprintf("--max-conns must be at least 1, got %d", f.maxConns)}
	case f.idleTimeout <= 0 || f.readTimeout <= 0:
		return flagValueError{"--idle-timeout and --read-timeout must be positive"}
	case f.maxSessions < 1:
		return flagValueError{fmt.Sprintf("--max-sessions must be at least 1, got %d", f.maxSessions)}
	case f.sessionIdle < 0:
		return flagValueError{"--session-idle must not be negative"}
	}
	return nil
}

// tokenError is a bearer token that cannot work: empty when read from a
// file, or holding a character no client sends in an Authorization header.
type tokenError struct {
	// Source names where the token came from: "--token",
	// "--token-file FILE" or "$A2UI_STREAM_TOKEN".
	Source string
	// Reason says what is wrong.
	Reason string
	// Err is the cause of a token file that could not be read.
	Err error
}

func (e *tokenError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Source, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Source, e.Reason)
}

func (e *tokenError) Unwrap() error { return e.Err }

// bearerToken returns the token the flags and the environment give (see
// a2aUsage for the order), "" for none. A token with whitespace or a
// control character (a newline pasted with it, say) would lock every
// client out, since clients trim their header values: it is a
// *tokenError, as is an empty or unreadable token file.
func (f *a2aFlags) bearerToken(getenv func(string) string) (string, error) {
	tok, source := f.token, "--token"
	switch {
	case f.tokenFile != "":
		source = "--token-file " + f.tokenFile
		b, err := os.ReadFile(f.tokenFile)
		if err != nil {
			return "", &tokenError{Source: "--token-file", Err: err}
		}
		tok = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
		if tok == "" {
			return "", &tokenError{Source: source, Reason: "the file holds no token"}
		}
	case tok == "":
		tok, source = getenv(a2aTokenEnv), "$"+a2aTokenEnv
	}
	for i, r := range tok {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return "", &tokenError{Source: source, Reason: fmt.Sprintf("the token holds %s at byte %d; a bearer token cannot hold whitespace or control characters", describeRune(r), i)}
		}
	}
	if !utf8.ValidString(tok) {
		return "", &tokenError{Source: source, Reason: "the token is not valid UTF-8"}
	}
	return tok, nil
}

// describeRune names a whitespace or control character for an error.
func describeRune(r rune) string {
	switch r {
	case '\n':
		return "a newline"
	case '\r':
		return "a carriage return"
	case '\t':
		return "a tab"
	case ' ':
		return "a space"
	}
	return fmt.Sprintf("%U", r)
}

// runA2A implements "a2ui-stream a2a" (see a2aUsage): an A2A JSON-RPC
// endpoint that answers every message by replaying a file of model output.
// It serves until ctx is done, then shuts down gracefully (see serveA2A).
func runA2A(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	var f a2aFlags
	fs := newFlagSet("a2a")
	f.register(fs)
	if code, done := parseArgs(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return usageFail(stderr, "a2a", "takes no arguments, got %d", fs.NArg())
	}
	if err := f.check(); err != nil {
		return usageFail(stderr, "a2a", "%v", err)
	}
	token, err := f.bearerToken(os.Getenv)
	if err != nil {
		// One line: the token's problem, never the token.
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		return 2
	}
	runner, err := a2a.NewReplayRunner(f.replay, f.chunk, f.pace)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		return 2
	}
	level := slog.LevelError
	if f.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	opts := []a2a.Option{
		a2a.WithBearerToken(token),
		a2a.WithGroupedMessages(f.group),
		a2a.WithArtifactEvents(f.artifacts),
		a2a.WithMaxBodyBytes(f.maxBody),
		a2a.WithLogger(log),
		a2a.WithMaxSessions(f.maxSessions),
		a2a.WithSessionIdleTimeout(f.sessionIdle),
	}
	if f.metricsAddr != "" {
		// Every reason the endpoint reports is a known label value (the
		// JSON-RPC ones would count as "other").
		reg, m, err := newMetrics(metrics.WithRejectReasons(a2a.RejectReasons...))
		if err != nil {
			fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
			return 2
		}
		opts = append(opts, a2a.WithRejectObserver(func(reason string) { m.Rejected("a2a", reason) }))
		stop, err := serveMetrics(ctx, &f, metrics.Handler(reg, nil), log, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "a2ui-stream a2a: --metrics: %v\n", err)
			return 1
		}
		defer stop()
	}
	if f.cors != "" {
		opts = append(opts, a2a.WithCORS(f.cors))
	}
	if f.publicURL != "" {
		opts = append(opts, a2a.WithPublicURL(f.publicURL))
	}
	handler, err := a2a.NewServer(runner, opts...)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		return 2
	}
	// The server's sessions (one per A2A context) end with it; by then
	// serveA2A has let the requests in flight finish.
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), a2aCancelGrace)
		defer cancel()
		if err := handler.Close(closeCtx); err != nil {
			fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		}
	}()
	cfg := a2aHTTPConfig(&f, handler, log)
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		return 1
	}
	return serveA2A(ctx, ln, cfg, stdout, stderr)
}

// serveMetrics serves h on f.metricsAddr through the same hardened
// listener as the endpoint, until stop is called.
func serveMetrics(ctx context.Context, f *a2aFlags, h http.Handler, log *slog.Logger, stdout io.Writer) (stop func(), err error) {
	cfg := a2aHTTPConfig(f, h, log)
	cfg.Addr = f.metricsAddr
	srv, err := httpserve.New(cfg)
	if err != nil {
		return nil, err
	}
	mctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	ln, err := srv.Listen(mctx)
	if err != nil {
		cancel()
		return nil, err
	}
	fmt.Fprintf(stdout, "a2ui-stream a2a: metrics on http://%s/metrics\n", ln.Addr())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(mctx, ln)
	}()
	return func() { cancel(); <-done }, nil
}

// a2aHTTPConfig is the hardened listener of the endpoint (see
// internal/httpserve): the flags' connection cap and timeouts, no bound on
// a whole response (streams are long; the handler bounds each write), and
// the shutdown's grace periods.
func a2aHTTPConfig(f *a2aFlags, h http.Handler, log *slog.Logger) httpserve.Config {
	return httpserve.Config{
		Addr:         f.listen,
		Handler:      h,
		MaxConns:     f.maxConns,
		ReadTimeout:  f.readTimeout,
		IdleTimeout:  f.idleTimeout,
		DrainTimeout: a2aShutdownGrace,
		CancelGrace:  a2aCancelGrace,
		Logger:       log,
	}
}

// serveA2A serves cfg's handler on ln through internal/httpserve until ctx
// is done, then shuts down: the requests in flight get cfg.DrainTimeout to
// finish, then they are cancelled and get cfg.CancelGrace to write their
// final status before the connections close.
func serveA2A(ctx context.Context, ln net.Listener, cfg httpserve.Config, stdout, stderr io.Writer) int {
	srv, err := httpserve.New(cfg)
	if err != nil {
		_ = ln.Close()
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "a2ui-stream a2a: listening on http://%s/ (agent card at http://%s%s)\n", ln.Addr(), ln.Addr(), a2a.AgentCardPath)
	err = srv.Serve(ctx, ln)
	switch {
	case errors.Is(err, httpserve.ErrForcedClose):
		// Requests outlived the grace periods; the shutdown still happened.
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
	case err != nil:
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, "a2ui-stream a2a: shut down")
	return 0
}
