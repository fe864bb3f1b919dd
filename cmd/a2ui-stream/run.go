package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/protocol"
	"github.com/a2ui-stream/a2ui-stream/sinks"
	"github.com/a2ui-stream/a2ui-stream/stream"
)

// runUsage is the help of "a2ui-stream run".
const runUsage = `usage: a2ui-stream run [--mode complete|progressive|delta] [--batch list|yield]
                       [--framing tags|fences|jsonl] [--catalog FILE] [--repair]
                       [--chunk N] [--session ID] [FILE]

Runs the whole flow in-process: reads model output from FILE (or stdin when
absent or "-"), parses it, applies its A2UI messages to the session's
surfaces and writes one event per line on stdout (text, batch, error and
end events; see the README and stream/event.schema.json). No services are
needed. Failed messages and dropped blocks are reported in the events and
logged on stderr.

--batch list (the default in complete mode) writes one batch per list,
when the list closes: one repaint per list, whatever the chunking. --batch
yield (the default in the progressive modes) writes one batch per parser
yield. --chunk N feeds the input N bytes at a time, as a model streams it
(the input is still read in large buffers); the events are the same bytes
that "a2ui-stream serve" publishes for the same chunks.

Exit status: 0 when the input was read to the end (failed messages and
blocks included); 1 when the output could not be written; 2 for usage
errors, an unusable catalog and I/O errors.
`

// runFlags holds the flags of "a2ui-stream run".
type runFlags struct {
	mode, batch, framing, catalog, session string
	chunk                                  int
	repair                                 bool
	log                                    logFlags
}

func (f *runFlags) register(fs interface {
	StringVar(p *string, name, value, usage string)
	IntVar(p *int, name string, value int, usage string)
	BoolVar(p *bool, name string, value bool, usage string)
}) {
	fs.StringVar(&f.mode, "mode", "complete", "yield `MODE`: complete, progressive or delta")
	fs.StringVar(&f.batch, "batch", "", "batch `POLICY`: list or yield (default: list in complete mode, yield otherwise)")
	fs.StringVar(&f.framing, "framing", "tags", "block `FRAMING`: tags, fences or jsonl")
	fs.StringVar(&f.catalog, "catalog", "", "validate messages against the catalog in `FILE` (JSON or YAML)")
	fs.BoolVar(&f.repair, "repair", false, "repair typographic quotes and trailing commas in blocks as they arrive")
	fs.IntVar(&f.chunk, "chunk", 0, "feed the input in chunks of `N` bytes (0: as read)")
	fs.StringVar(&f.session, "session", "run", "the session `ID` in the events")
	f.log.register(fs)
}

// pipelineOptions turns the flags shared by run and serve into pipeline
// options. Bad values are flagValueErrors; an unreadable catalog is
// returned as is.
func pipelineOptions(mode, batch, framing, catalogFile string, repair bool) ([]stream.Option, error) {
	m, err := parser.ParseMode(mode)
	if err != nil {
		return nil, flagValueError{err.Error()}
	}
	f, err := parser.ParseFraming(framing)
	if err != nil {
		return nil, flagValueError{err.Error()}
	}
	pol, err := stream.ParsePolicy(batch)
	if err != nil {
		return nil, flagValueError{err.Error()}
	}
	opts := []stream.Option{stream.WithMode(m), stream.WithFraming(f), stream.WithBatchPolicy(pol)}
	if repair {
		opts = append(opts, stream.WithParserOptions(parser.WithPayloadRepair()))
	}
	if catalogFile != "" {
		cat, err := protocol.LoadCatalogFile(catalogFile)
		if err != nil {
			return nil, err
		}
		opts = append(opts, stream.WithCatalog(cat))
	}
	return opts, nil
}

// runRun implements "a2ui-stream run" (see runUsage).
func runRun(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f runFlags
	fs := newFlagSet("run")
	f.register(fs)
	if code, done := parseArgs(fs, args, stdout, stderr); done {
		return code
	}
	switch {
	case fs.NArg() > 1:
		return usageFail(stderr, "run", "at most one FILE, got %d arguments", fs.NArg())
	case f.chunk < 0:
		return usageFail(stderr, "run", "--chunk must be 0 or more, got %d", f.chunk)
	case f.session == "":
		return usageFail(stderr, "run", "--session must not be empty")
	}
	log, err := f.log.logger(stderr)
	if err != nil {
		return usageFail(stderr, "run", "%v", err)
	}
	opts, err := pipelineOptions(f.mode, f.batch, f.framing, f.catalog, f.repair)
	if err != nil {
		var fe flagValueError
		if errors.As(err, &fe) {
			return usageFail(stderr, "run", "%v", err)
		}
		fmt.Fprintf(stderr, "a2ui-stream run: %v\n", err)
		return 2
	}
	in, err := openInput(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream run: %v\n", err)
		return 2
	}
	defer in.Close()
	out := sinks.NewJSONL(stdout, sinks.JSONLBuffered())
	// One session, fed to its end: no idle timeout, and input of any
	// chunk size (--chunk 0 feeds each read whole).
	pl, err := stream.NewPipeline(append(opts, stream.WithSinks(out), stream.WithLogger(log),
		stream.WithIdleTimeout(0), stream.WithEmitRetry(0, 0, 0, 0), stream.WithMaxChunk(max(readBufferSize, f.chunk)))...)
	if err != nil {
		return usageFail(stderr, "run", "%v", err)
	}
	rerr := readChunks(in, f.chunk,
		func() error { return out.Flush(ctx) },
		func(chunk []byte) error { return pl.Feed(ctx, f.session, chunk) })
	if rerr == nil {
		rerr = pl.End(ctx, f.session)
	}
	cerr := pl.Close(ctx)
	var se *stream.SinkError
	switch {
	case errors.As(rerr, &se):
		fmt.Fprintf(stderr, "a2ui-stream run: writing the events: %v\n", rerr)
		return 1
	case rerr != nil:
		fmt.Fprintf(stderr, "a2ui-stream run: %v\n", rerr)
		return 2
	case cerr != nil:
		fmt.Fprintf(stderr, "a2ui-stream run: writing the events: %v\n", cerr)
		return 1
	}
	return 0
}
