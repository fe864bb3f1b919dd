package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/a2ui-stream/a2ui-stream/stream/a2a"
)

// a2aTokenEnv names the environment variable that supplies the bearer token
// when --token is not given.
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
const a2aUsage = `usage: a2ui-stream a2a --replay FILE [--listen ADDR] [--pace D] [--token T]

Serves an A2A JSON-RPC endpoint (A2A 1.0 and 0.3) that answers every
message by replaying the model output in FILE, parsed into text and A2UI
parts and streamed part by part, with the agent card at
/.well-known/agent-card.json.

It serves until SIGINT or SIGTERM, then shuts down gracefully: new
connections are refused and streams in flight get 5s to finish before they
are canceled (a second signal ends the process at once).

Exit status: 0 after a clean shutdown; 1 when serving fails; 2 for usage
errors and an unreadable FILE.
`

// a2aFlags holds the flags of "a2ui-stream a2a".
type a2aFlags struct {
	listen, replay, token, publicURL, cors string
	pace                                   time.Duration
	chunk                                  int
	group, artifacts, verbose              bool
	maxBody                                int64
}

func (f *a2aFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8080", "listen on `ADDR` (host:port)")
	fs.StringVar(&f.replay, "replay", "", "answer every message by replaying the model output in `FILE` (required)")
	fs.DurationVar(&f.pace, "pace", 20*time.Millisecond, "delay between replayed chunks")
	fs.IntVar(&f.chunk, "chunk", a2a.DefaultReplayChunkSize, "replayed chunk size in bytes")
	fs.StringVar(&f.token, "token", "", "require this bearer token on JSON-RPC requests (default $"+a2aTokenEnv+"; the agent card stays public)")
	fs.StringVar(&f.publicURL, "public-url", "", "endpoint URL to publish in the agent card (default: from the request's Host)")
	fs.BoolVar(&f.group, "group", false, "put the messages of one A2UI block in one data part (a list) instead of one part per message (not under the v0.8 extension)")
	fs.BoolVar(&f.artifacts, "artifacts", false, "stream parts as artifact updates instead of status updates")
	fs.Int64Var(&f.maxBody, "max-body", a2a.DefaultMaxBodyBytes, "maximum request body size in bytes")
	fs.StringVar(&f.cors, "cors", "", "let browser pages from `ORIGIN` call the endpoint (\"*\": any origin)")
	fs.BoolVar(&f.verbose, "v", false, "log requests' problems to stderr")
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
	if f.replay == "" {
		return usageFail(stderr, "a2a", "--replay FILE is required")
	}
	if f.token == "" {
		f.token = os.Getenv(a2aTokenEnv)
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
	opts := []a2a.Option{
		a2a.WithBearerToken(f.token),
		a2a.WithGroupedMessages(f.group),
		a2a.WithArtifactEvents(f.artifacts),
		a2a.WithMaxBodyBytes(f.maxBody),
		a2a.WithLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))),
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
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		return 1
	}
	return serveA2A(ctx, ln, handler, a2aShutdownGrace, stdout, stderr)
}

// serveA2A serves handler on ln until ctx is done, then shuts down: the
// requests in flight get grace to finish, then they are cancelled and get
// a2aCancelGrace to write their final status before the connections close.
func serveA2A(ctx context.Context, ln net.Listener, handler http.Handler, grace time.Duration, stdout, stderr io.Writer) int {
	base, cancelStreams := context.WithCancel(context.Background())
	defer cancelStreams()
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "a2ui-stream a2a: listening on http://%s/ (agent card at http://%s%s)\n", ln.Addr(), ln.Addr(), a2a.AgentCardPath)

	select {
	case err := <-served:
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	graceCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(graceCtx); err != nil {
		// Requests still running after the grace period: cancel them. A
		// cancelled stream still writes its canceled status, and a plain
		// request its error reply, so the connections are closed only
		// once they have (or a2aCancelGrace has passed).
		cancelStreams()
		last, cancelLast := context.WithTimeout(context.Background(), a2aCancelGrace)
		defer cancelLast()
		if err := srv.Shutdown(last); err != nil {
			_ = srv.Close()
		}
	}
	<-served // Serve has returned ErrServerClosed
	fmt.Fprintln(stdout, "a2ui-stream a2a: shut down")
	return 0
}
