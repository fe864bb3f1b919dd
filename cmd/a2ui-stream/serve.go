package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2ui-stream/a2ui-stream/internal/httpserve"
	"github.com/a2ui-stream/a2ui-stream/internal/natsembed"
	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
	"github.com/a2ui-stream/a2ui-stream/stream/consumer"
	"github.com/a2ui-stream/a2ui-stream/stream/metrics"
)

// serveUsage is the help of "a2ui-stream serve".
const serveUsage = `usage: a2ui-stream serve [--nats-url URL | --store DIR] [--jetstream]
                         [--in-prefix a2ui.in] [--out-prefix a2ui.out]
                         [--mode …] [--batch …] [--framing …] [--catalog FILE]
                         [--metrics ADDR] [--sse ADDR] [flags]

Runs the NATS consumer service. Each NATS message on <in-prefix>.<session> is
one chunk of a session's model output, in publish order; a message with
header "A2UI-End: true" ends the session (its body, if any, is the last
chunk). Each session's events go to <out-prefix>.<session>, one NATS message
per event line, with the bytes "a2ui-stream run" prints for the same chunks,
and headers Nats-Msg-Id (session:seq), A2UI-Event, A2UI-Seq and A2UI-Time.

With no --nats-url it starts an embedded NATS server (JetStream on, in
--store or a temporary directory) and logs the URL to publish to, so it
works on a bare machine.

Core NATS (the default) runs one instance, with neither scale-out nor
persistence: core NATS promises neither. --jetstream consumes an input
stream (created when missing) through a partitioned consumer group:
instances started with the same flags share the partitions, a session's
chunks go to one instance at a time and in order, and when an instance dies
another takes its partitions over and rebuilds its sessions by replaying
them from the stream (events re-published with the same Nats-Msg-Id are
dropped by the output stream's duplicate window). A chunk is acknowledged
only once every event it produced is stored.

Every flag can also be set by an environment variable: A2UI_STREAM_ and the
flag's name in capitals, dashes as underscores (A2UI_STREAM_NATS_URL). A
flag on the command line wins.

With --jetstream, --idle-timeout defaults to 0 and must otherwise exceed
--duplicates: a session ended idle and fed again counts its events from 1,
which the duplicate window would drop. Reuse a session id only after its
end and that window.

SIGINT or SIGTERM drains: fetching stops, in-flight chunks finish (with
--jetstream, open sessions are handed back to the stream for another
instance; with core NATS they are ended and flushed), sinks are flushed, and
the command exits 0.

Exit status: 0 after a clean shutdown; 1 when the service fails; 2 for usage
errors and an unusable catalog.
`

// serveFlags holds the flags of "a2ui-stream serve".
type serveFlags struct {
	natsURL, store, inPrefix, outPrefix string
	js                                  bool
	mode, batch, framing, catalog       string
	repair                              bool
	maxSessions, maxChunk, workers      int
	idleTimeout                         time.Duration
	stream, outStream, group, member    string
	partitions, maxAckPending           int
	ackWait, duplicates, maxAge         time.Duration
	metricsAddr, sseAddr                string
	httpMaxConns                        int
	httpIdle, httpRead                  time.Duration
	user, password, token, creds, nkey  string
	tlsCA, tlsCert, tlsKey              string
	drain                               time.Duration
	log                                 logFlags

	// consumerOpts are added to the consumer's options (tests tune the
	// membership checks with them).
	consumerOpts []consumer.Option
}

func (f *serveFlags) register(fs interface {
	StringVar(p *string, name, value, usage string)
	IntVar(p *int, name string, value int, usage string)
	BoolVar(p *bool, name string, value bool, usage string)
	DurationVar(p *time.Duration, name string, value time.Duration, usage string)
}) {
	fs.StringVar(&f.natsURL, "nats-url", "", "NATS server `URL`s, comma-separated (default: start an embedded server); user:password@ in a URL authenticates")
	fs.StringVar(&f.store, "store", "", "JetStream store `DIR` of the embedded server (default: a temporary directory)")
	fs.BoolVar(&f.js, "jetstream", false, "consume a JetStream input stream through a partitioned consumer group (scale-out, crash safety)")
	fs.StringVar(&f.inPrefix, "in-prefix", consumer.DefaultPrefix, "subject `PREFIX` of the input: chunks arrive on PREFIX.<session>")
	fs.StringVar(&f.outPrefix, "out-prefix", consumer.DefaultOutPrefix, "subject `PREFIX` of the output: events go to PREFIX.<session>")
	fs.StringVar(&f.mode, "mode", "complete", "yield `MODE`: complete, progressive or delta")
	fs.StringVar(&f.batch, "batch", "", "batch `POLICY`: list or yield (default: list in complete mode, yield otherwise)")
	fs.StringVar(&f.framing, "framing", "tags", "block `FRAMING`: tags, fences or jsonl")
	fs.StringVar(&f.catalog, "catalog", "", "validate messages against the catalog in `FILE` (JSON or YAML)")
	fs.BoolVar(&f.repair, "repair", false, "repair typographic quotes and trailing commas in blocks as they arrive")
	fs.IntVar(&f.maxSessions, "max-sessions", stream.DefaultMaxSessions, "open sessions at most; a new one evicts the least recently fed")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", stream.DefaultIdleTimeout, "end a session fed nothing for this long (0: never; with --jetstream the default is 0, see below)")
	fs.IntVar(&f.maxChunk, "max-chunk", stream.DefaultMaxChunk, "largest chunk in bytes; a larger one is reported in an error event and skipped")
	fs.IntVar(&f.workers, "workers", consumer.DefaultWorkers, "sessions processed in parallel (each session stays in order)")
	fs.StringVar(&f.stream, "stream", consumer.DefaultStream, "--jetstream: the input stream's `NAME`")
	fs.StringVar(&f.outStream, "out-stream", consumer.DefaultOutStream, "--jetstream: the output stream's `NAME` (created when missing)")
	fs.StringVar(&f.group, "group", consumer.DefaultGroup, "--jetstream: the consumer group's `NAME`")
	fs.StringVar(&f.member, "member", consumer.DefaultMember(), "--jetstream: this instance's member `NAME` in the group (unique per instance)")
	fs.IntVar(&f.partitions, "partitions", consumer.DefaultPartitions, "--jetstream: partitions of the group (the most instances that share the work)")
	fs.DurationVar(&f.ackWait, "ack-wait", consumer.DefaultAckWait, "--jetstream: ack wait, and how soon a dead instance's partitions move")
	fs.IntVar(&f.maxAckPending, "max-ack-pending", consumer.DefaultMaxAckPending, "--jetstream: unacknowledged chunks per partition")
	fs.DurationVar(&f.duplicates, "duplicates", consumer.DefaultDuplicates, "--jetstream: the output stream's duplicate window (longer than a replay)")
	fs.DurationVar(&f.maxAge, "max-age", consumer.DefaultMaxAge, "--jetstream: how long chunks and events are kept at most")
	fs.StringVar(&f.metricsAddr, "metrics", "", "serve Prometheus /metrics, /healthz and /readyz on `ADDR` (e.g. 127.0.0.1:9090)")
	fs.StringVar(&f.sseAddr, "sse", "", "serve each session's events as Server-Sent Events at /sessions/<id>/events on `ADDR`")
	fs.IntVar(&f.httpMaxConns, "http-max-conns", httpserve.DefaultMaxConns, "concurrent connections per HTTP listener at most")
	fs.DurationVar(&f.httpIdle, "http-idle-timeout", httpserve.DefaultIdleTimeout, "close an idle HTTP keep-alive connection after this long")
	fs.DurationVar(&f.httpRead, "http-read-timeout", httpserve.DefaultReadTimeout, "deadline to read an HTTP request, headers and body")
	fs.StringVar(&f.user, "user", "", "NATS user `NAME` (with --password)")
	fs.StringVar(&f.password, "password", "", "NATS `PASSWORD` (prefer $A2UI_STREAM_PASSWORD: flags show in ps)")
	fs.StringVar(&f.token, "token", "", "NATS auth `TOKEN` (prefer $A2UI_STREAM_TOKEN)")
	fs.StringVar(&f.creds, "creds", "", "NATS credentials `FILE` (JWT and nkey seed)")
	fs.StringVar(&f.nkey, "nkey", "", "NATS nkey seed `FILE`")
	fs.StringVar(&f.tlsCA, "tls-ca", "", "CA certificate `FILE` to verify the NATS server")
	fs.StringVar(&f.tlsCert, "tls-cert", "", "client certificate `FILE` for NATS (with --tls-key)")
	fs.StringVar(&f.tlsKey, "tls-key", "", "client key `FILE` for NATS (with --tls-cert)")
	fs.DurationVar(&f.drain, "drain-timeout", consumer.DefaultDrainTimeout, "on shutdown, how long in-flight chunks may take")
	f.log.register(fs)
}

// jsIdleError explains why, with --jetstream, a session may not end idle
// within the output stream's duplicate window: its next chunks would open
// a new session whose events count from 1 again, and the window would
// drop them as duplicates of the ended session's.
const jsIdleError = "with --jetstream, --idle-timeout must be 0 (the default there) or longer than --duplicates: " +
	"a session that ended idle and is fed again counts its events from 1, and the duplicate window would drop them"

// check reports the first usage error of the flags.
func (f *serveFlags) check() error {
	switch {
	case f.natsURL != "" && f.store != "":
		return flagValueError{"--store is the embedded server's; it does not go with --nats-url"}
	case (f.user == "") != (f.password == ""):
		return flagValueError{"--user and --password go together"}
	case (f.tlsCert == "") != (f.tlsKey == ""):
		return flagValueError{"--tls-cert and --tls-key go together"}
	case f.maxSessions < 1:
		return flagValueError{fmt.Sprintf("--max-sessions must be at least 1, got %d", f.maxSessions)}
	case f.maxChunk < 1:
		return flagValueError{fmt.Sprintf("--max-chunk must be at least 1, got %d", f.maxChunk)}
	case f.js && f.idleTimeout > 0 && f.idleTimeout <= f.duplicates:
		return flagValueError{jsIdleError}
	case f.idleTimeout < 0 || f.ackWait <= 0 || f.duplicates <= 0 || f.maxAge <= 0 || f.drain <= 0:
		return flagValueError{"durations must be positive (--idle-timeout may be 0)"}
	}
	return nil
}

// natsOptions returns the connection options the flags ask for.
func (f *serveFlags) natsOptions(log *slog.Logger) ([]nats.Option, error) {
	opts := []nats.Option{
		nats.Name("a2ui-stream serve"),
		nats.MaxReconnects(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil { // nil: the service closed the connection itself
				log.Warn("serve: NATS disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { log.Info("serve: NATS reconnected", "url", nc.ConnectedUrlRedacted()) }),
	}
	if f.user != "" {
		opts = append(opts, nats.UserInfo(f.user, f.password))
	}
	if f.token != "" {
		opts = append(opts, nats.Token(f.token))
	}
	if f.creds != "" {
		opts = append(opts, nats.UserCredentials(f.creds))
	}
	if f.nkey != "" {
		o, err := nats.NkeyOptionFromSeed(f.nkey)
		if err != nil {
			return nil, fmt.Errorf("--nkey: %w", err)
		}
		opts = append(opts, o)
	}
	if f.tlsCA != "" {
		opts = append(opts, nats.RootCAs(f.tlsCA))
	}
	if f.tlsCert != "" {
		opts = append(opts, nats.ClientCert(f.tlsCert, f.tlsKey))
	}
	return opts, nil
}

// runServe implements "a2ui-stream serve" (see serveUsage).
func runServe(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	var f serveFlags
	fs := newFlagSet("serve")
	f.register(fs)
	if code, done := parseArgs(fs, args, stdout, stderr); done {
		return code
	}
	if err := applyEnv(fs, os.Getenv); err != nil {
		return usageFail(stderr, "serve", "%v", err)
	}
	if fs.NArg() > 0 {
		return usageFail(stderr, "serve", "no arguments expected, got %q", fs.Arg(0))
	}
	idleSet := false
	fs.Visit(func(fl *flag.Flag) { idleSet = idleSet || fl.Name == "idle-timeout" })
	if f.js && !idleSet { // (applyEnv sets flags with fs.Set: Visit sees them)
		f.idleTimeout = 0 // see jsIdleError
	}
	if err := f.check(); err != nil {
		return usageFail(stderr, "serve", "%v", err)
	}
	log, err := f.log.logger(stderr)
	if err != nil {
		return usageFail(stderr, "serve", "%v", err)
	}
	popts, err := pipelineOptions(f.mode, f.batch, f.framing, f.catalog, f.repair)
	if err != nil {
		var fe flagValueError
		if errors.As(err, &fe) {
			return usageFail(stderr, "serve", "%v", err)
		}
		fmt.Fprintf(stderr, "a2ui-stream serve: %v\n", err)
		return 2
	}
	if err := serve(ctx, &f, popts, log); err != nil {
		log.Error("serve: failed", "err", err)
		return 1
	}
	return 0
}

// serve runs the service until ctx is done.
func serve(ctx context.Context, f *serveFlags, popts []stream.Option, log *slog.Logger) error {
	url := f.natsURL
	if url == "" {
		eopts := []natsembed.Option{}
		if f.store != "" {
			eopts = append(eopts, natsembed.WithStoreDir(f.store))
		}
		srv, err := natsembed.Start(eopts...)
		if err != nil {
			return err
		}
		defer srv.Shutdown()
		url = srv.URL()
		log.Info("serve: embedded NATS server started; publish chunks to it", "url", url,
			"in", f.inPrefix+".<session>", "out", f.outPrefix+".<session>", "store", srv.StoreDir())
	}
	nopts, err := f.natsOptions(log)
	if err != nil {
		return err
	}
	nc, err := nats.Connect(url, nopts...)
	if err != nil {
		return fmt.Errorf("connecting to NATS at %s: %w", url, err)
	}
	defer nc.Close()
	log.Info("serve: connected to NATS", "url", nc.ConnectedUrlRedacted(), "jetstream", f.js)

	svc, err := newService(ctx, f, nc, popts, log)
	if err != nil {
		return err
	}
	// The HTTP listeners stop with the service.
	httpCtx, stopHTTP := context.WithCancel(context.Background())
	defer stopHTTP()
	httpErr := make(chan error, 2)
	listeners := 0
	listen := func(name, addr string, h http.Handler) error {
		srv, err := httpserve.New(httpserve.Config{
			Addr: addr, Handler: h, MaxConns: f.httpMaxConns, IdleTimeout: f.httpIdle,
			ReadTimeout: f.httpRead, Logger: log,
		})
		if err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
		ln, err := srv.Listen(httpCtx)
		if err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
		log.Info("serve: listening", "listener", name, "addr", ln.Addr().String())
		listeners++
		go func() { httpErr <- srv.Serve(httpCtx, ln) }()
		return nil
	}
	if f.metricsAddr != "" {
		if err := listen("metrics", f.metricsAddr, metrics.Handler(svc.reg, svc.consumer.Ready)); err != nil {
			return errors.Join(err, svc.pl.Close(ctx))
		}
	}
	if svc.sse != nil {
		if err := listen("sse", f.sseAddr, svc.sse); err != nil {
			return errors.Join(err, svc.pl.Close(ctx))
		}
	}
	err = svc.run(ctx)
	stopHTTP()
	for range listeners {
		if herr := <-httpErr; herr != nil {
			log.Warn("serve: HTTP listener", "err", herr)
		}
	}
	if ferr := nc.FlushTimeout(f.drain); ferr != nil && !errors.Is(ferr, nats.ErrConnectionClosed) {
		log.Warn("serve: flushing NATS", "err", ferr)
	}
	log.Info("serve: stopped")
	return err
}

// service is one instance of the NATS service on a connection: the
// pipeline, its sinks and metrics, and the consumer that feeds it.
type service struct {
	f        *serveFlags
	log      *slog.Logger
	reg      *prometheus.Registry
	pl       *stream.Pipeline
	sse      *sinks.SSE // nil without --sse
	consumer interface {
		Run(context.Context) error
		Ready() error
	}
}

// newService builds the service on nc (which the caller owns) as the
// flags say.
func newService(ctx context.Context, f *serveFlags, nc *nats.Conn, popts []stream.Option, log *slog.Logger) (*service, error) {
	svc := &service{f: f, log: log}
	reg, m, err := newMetrics()
	svc.reg = reg
	if err != nil {
		return nil, err
	}
	var pub sinks.Publisher
	if f.js {
		js, err := jetstream.New(nc)
		if err != nil {
			return nil, err
		}
		if _, err := consumer.EnsureOutputStream(ctx, js, consumer.OutputStreamConfig{
			Name: f.outStream, Prefix: f.outPrefix, Duplicates: f.duplicates, MaxAge: f.maxAge,
		}); err != nil {
			return nil, err
		}
		pub = sinks.JetStreamPublisher(js)
	} else {
		pub = sinks.CorePublisher(nc)
	}
	out, err := sinks.NewNATS(pub, f.outPrefix)
	if err != nil {
		return nil, err
	}
	allSinks := []sinks.Sink{out}
	if f.sseAddr != "" {
		if svc.sse, err = sinks.NewSSE(); err != nil {
			return nil, err
		}
		allSinks = append(allSinks, svc.sse)
	}
	svc.pl, err = stream.NewPipeline(append(popts,
		stream.WithSinks(allSinks...),
		stream.WithLogger(log),
		stream.WithObserver(m),
		stream.WithMaxSessions(f.maxSessions),
		stream.WithIdleTimeout(f.idleTimeout),
		stream.WithMaxChunk(f.maxChunk))...)
	if err != nil {
		return nil, err
	}
	pl := svc.pl
	copts := []consumer.Option{
		consumer.WithPrefix(f.inPrefix),
		consumer.WithWorkers(f.workers),
		// The pipeline bounds chunks and reports them in error events.
		consumer.WithMaxChunk(max(f.maxChunk, consumer.DefaultMaxChunk) * 2),
		consumer.WithMaxSessions(f.maxSessions),
		consumer.WithDrainTimeout(f.drain),
		consumer.WithLogger(log),
		consumer.WithObserver(consumerObserver{m}),
		consumer.WithOnError(func(session string, err error) {
			reportConsumerError(pl, log, session, err)
		}),
	}
	if f.js {
		copts = append(copts,
			consumer.WithStream(f.stream), consumer.WithGroup(f.group), consumer.WithMember(f.member),
			consumer.WithPartitions(f.partitions), consumer.WithAckWait(f.ackWait),
			consumer.WithMaxAckPending(f.maxAckPending), consumer.WithMaxAge(f.maxAge))
		svc.consumer, err = consumer.NewJetStream(nc, pl, append(copts, f.consumerOpts...)...)
	} else {
		svc.consumer, err = consumer.NewCore(nc, pl, append(copts, f.consumerOpts...)...)
	}
	if err != nil {
		return nil, errors.Join(err, pl.Close(ctx))
	}
	return svc, nil
}

// run consumes until ctx is done, then drains: the consumer stops fetching
// and finishes its chunks; with JetStream the open sessions are handed back
// (their chunks stay in the input stream, and whichever instance gets them
// next replays them), with core NATS they are ended and flushed; then the
// sinks are closed.
func (svc *service) run(ctx context.Context) error {
	runErr := svc.consumer.Run(ctx)
	shutdown, cancel := context.WithTimeout(context.Background(), svc.f.drain)
	defer cancel()
	if svc.f.js {
		for _, id := range svc.pl.SessionIDs() {
			svc.pl.Reset(id)
		}
	}
	return errors.Join(runErr, svc.pl.Close(shutdown))
}

// consumerObserver counts the consumer's redeliveries on the metrics.
type consumerObserver struct{ m *metrics.Metrics }

func (o consumerObserver) Redelivery()      { o.m.Redelivery() }
func (o consumerObserver) Replay(string)    {}
func (o consumerObserver) SlowConsumer(int) {}
func (o consumerObserver) Error(error)      {}

// reportConsumerError turns what the consumer could not hand to the
// pipeline into an error event of the session (the consumer logs it).
func reportConsumerError(pl *stream.Pipeline, log *slog.Logger, session string, err error) {
	reason := stream.ReasonInput
	switch {
	case errors.Is(err, consumer.ErrTooLarge):
		reason = stream.ReasonChunk
	case errors.Is(err, consumer.ErrUnknownSession):
		reason = stream.ReasonUnknownSession
	case errors.Is(err, consumer.ErrHandler), errors.Is(err, consumer.ErrStream), session == "":
		log.Warn("serve: chunk not processed", "session", session, "err", err)
		return
	}
	log.Warn("serve: bad input", "session", session, "reason", reason, "err", err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if rerr := pl.ReportError(ctx, session, reason, err); rerr != nil {
		log.Warn("serve: reporting bad input", "session", session, "err", rerr)
	}
}
