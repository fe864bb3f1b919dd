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

// runA2A implements `a2ui-stream a2a --listen ADDR --replay FILE [--pace D]
// [--token T]`: an A2A JSON-RPC endpoint (A2A 1.0 and 0.3) that answers every
// message by replaying a file of model output, parsed into text and A2UI
// parts and streamed part by part.
//
// It serves until ctx is done, then shuts down gracefully: new connections
// are refused, streams in flight get a2aShutdownGrace to finish and are then
// cancelled, ending with a canceled status. Exit status: 0 after a clean shutdown, 1 when serving fails,
// 2 for usage errors.
func runA2A(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("a2a", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8080", "listen on `ADDR` (host:port)")
	replay := fs.String("replay", "", "answer every message by replaying the model output in `FILE` (required)")
	pace := fs.Duration("pace", 20*time.Millisecond, "delay between replayed chunks")
	chunk := fs.Int("chunk", a2a.DefaultReplayChunkSize, "replayed chunk size in bytes")
	token := fs.String("token", "", "require this bearer token on JSON-RPC requests (default $"+a2aTokenEnv+"; the agent card stays public)")
	publicURL := fs.String("public-url", "", "endpoint URL to publish in the agent card (default: from the request's Host)")
	group := fs.Bool("group", false, "put the messages of one A2UI block in one data part (a list) instead of one part per message (not under the v0.8 extension)")
	artifacts := fs.Bool("artifacts", false, "stream parts as artifact updates instead of status updates")
	maxBody := fs.Int64("max-body", a2a.DefaultMaxBodyBytes, "maximum request body size in bytes")
	cors := fs.String("cors", "", "let browser pages from `ORIGIN` call the endpoint (\"*\": any origin)")
	verbose := fs.Bool("v", false, "log requests' problems to stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: a2ui-stream a2a --listen ADDR --replay FILE [--pace D] [--token T]")
		fmt.Fprintln(stderr, "Serves an A2A JSON-RPC endpoint (A2A 1.0 and 0.3) that streams a replayed model answer as A2UI parts.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || *replay == "" {
		fmt.Fprintln(stderr, "a2ui-stream a2a: --replay FILE is required and takes no arguments")
		fs.Usage()
		return 2
	}
	if *token == "" {
		*token = os.Getenv(a2aTokenEnv)
	}
	runner, err := a2a.NewReplayRunner(*replay, *chunk, *pace)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		return 2
	}
	level := slog.LevelError
	if *verbose {
		level = slog.LevelDebug
	}
	opts := []a2a.Option{
		a2a.WithBearerToken(*token),
		a2a.WithGroupedMessages(*group),
		a2a.WithArtifactEvents(*artifacts),
		a2a.WithMaxBodyBytes(*maxBody),
		a2a.WithLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))),
	}
	if *cors != "" {
		opts = append(opts, a2a.WithCORS(*cors))
	}
	if *publicURL != "" {
		opts = append(opts, a2a.WithPublicURL(*publicURL))
	}
	handler, err := a2a.NewServer(runner, opts...)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream a2a: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", *listen)
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
