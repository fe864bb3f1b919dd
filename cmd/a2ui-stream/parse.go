package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// parseUsage is the help of "a2ui-stream parse".
const parseUsage = `usage: a2ui-stream parse [--framing tags|fences|jsonl] [--mode complete|progressive|delta]
                         [--catalog FILE] [--repair] [--emit parts|lists]
                         [--chunk N | --steps] [FILE]

Reads model output from FILE (or stdin when absent or "-") and writes one JSON
line per completed part: {"text":…}, {"a2ui":[…]} or both keys. Each message
is printed compacted: re-encoded without insignificant whitespace (in
complete mode with its key order and string escapes as the model wrote them;
progressive and delta modes sort the envelope's keys and decode escapes).
A failed block writes {"error":…} in its place, and parsing continues.

With --emit lists, it writes one line per A2UI block instead, the JSON array
of the messages the block yielded (the prose, and a block that yielded no
message, are left out), as "a2ui-stream apply" reads them:

  a2ui-stream parse --emit lists answer.txt | a2ui-stream apply

A failed block writes the messages it yielded before failing (if any) as a
list, then its {"error":…} line.

With --steps, each input line is a JSON string holding one chunk (an empty
line is an empty chunk), and the output has exactly one line per input line:
the JSON array of the parts that chunk completed ([] if none), or, when a
block failed in it, {"error":…,"parts":[…]} where "parts" (omitted when
empty) holds the parts that chunk completed. What the end of input releases
(held text, an unterminated block's error) goes into the last line. A line's
output is written when the next line arrives or the input ends. A line that
is not a JSON string gets {"error":"line N: …"} and the rest is read on.

Exit status: 0 when the input was read to the end (failed blocks included);
1 when some --steps line was not a JSON string (after reading all input); 2
for usage errors, an unusable catalog, and I/O errors (e.g. FILE or the
catalog file cannot be read).
`

// parseFlags holds the flags of "a2ui-stream parse".
type parseFlags struct {
	framing, mode, catalog, emit string
	chunk                        int
	steps, repair                bool
}

func (f *parseFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.framing, "framing", "tags", "how blocks are framed: `tags|fences|jsonl`")
	fs.StringVar(&f.mode, "mode", "complete", "what a block yields: `complete|progressive|delta`")
	fs.StringVar(&f.catalog, "catalog", "", "catalog `FILE` (JSON or YAML: version, s2c_schema, catalog_schema,\n"+
		"common_types_schema) that progressive and delta modes validate against;\n"+
		"only with --mode progressive or delta: complete mode forwards the model's\n"+
		"messages without validating them")
	fs.StringVar(&f.emit, "emit", "parts", "what a line holds: a part (text and messages) or a block's list of\n"+
		"messages (the JSON array apply reads), `parts|lists`; lists not with --steps")
	fs.IntVar(&f.chunk, "chunk", 0, fmt.Sprintf("feed the input in chunks of `N` bytes (0: as read; at most %d); not with --steps", maxChunkBytes))
	fs.BoolVar(&f.steps, "steps", false, "each input line is a JSON string holding one chunk; print one line per input line")
	fs.BoolVar(&f.repair, "repair", false, "repair typographic quotes and trailing commas in blocks as they arrive,\n"+
		"as a whole answer is repaired")
}

// maxChunkBytes bounds --chunk, which sizes the read buffer.
const maxChunkBytes = 64 << 20

// readBufferSize is how much parse (and run, see readChunks) reads at a
// time; --chunk N feeds the parser N-byte slices of what was read.
const readBufferSize = 256 << 10

// runParse implements "a2ui-stream parse": model output in, one JSON line
// per completed part (or per block, with --emit lists) out. See parseUsage
// for the output and exit status.
func runParse(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f parseFlags
	fs := newFlagSet("parse")
	f.register(fs)
	if code, done := parseArgs(fs, args, stdout, stderr); done {
		return code
	}
	usageErr := func(format string, a ...any) int { return usageFail(stderr, "parse", format, a...) }
	chunkSet := false
	fs.Visit(func(fl *flag.Flag) { chunkSet = chunkSet || fl.Name == "chunk" })
	switch {
	case fs.NArg() > 1:
		return usageErr("at most one FILE, got %d arguments", fs.NArg())
	case f.chunk < 0 || f.chunk > maxChunkBytes:
		return usageErr("--chunk must be from 0 to %d, got %d", maxChunkBytes, f.chunk)
	case f.steps && chunkSet:
		return usageErr("--chunk and --steps cannot be used together: with --steps, each input line is one chunk")
	case f.emit != "parts" && f.emit != "lists":
		return usageErr("unknown --emit %q: want parts or lists", f.emit)
	case f.steps && f.emit == "lists":
		return usageErr("--emit lists and --steps cannot be used together: --steps writes the parts of each chunk")
	}
	opts, err := parseOptions(f.framing, f.mode, f.catalog)
	if err != nil {
		var ue flagValueError
		if errors.As(err, &ue) {
			return usageErr("%v", err)
		}
		fmt.Fprintf(stderr, "a2ui-stream parse: %v\n", err)
		return 2
	}
	if f.repair {
		opts = append(opts, parser.WithPayloadRepair())
	}
	if !f.steps {
		// Each call's parts are written before the next call (--steps holds
		// the last Feed's parts until Close, so it keeps owned output).
		opts = append(opts, parser.WithBorrowedOutput())
	}
	var w partsWriter = new(partLines)
	if f.emit == "lists" {
		opts = append(opts, parser.WithListEnds())
		w = &listLines{max: maxListBytes}
	}
	p, err := parser.New(opts...)
	if err != nil {
		return usageErr("%v", err)
	}
	in, err := openInput(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream parse: %v\n", err)
		return 2
	}
	defer in.Close()
	out := bufio.NewWriterSize(stdout, 64<<10)
	if f.steps {
		err = parseSteps(p, in, out)
	} else {
		err = parseChunks(p, in, out, f.chunk, w)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream parse: %v\n", err)
		var se *stepLineError
		if errors.As(err, &se) {
			return 1
		}
		return 2
	}
	return 0
}

// flagValueError is a bad flag value or combination (exit status 2, with a
// pointer to the usage).
type flagValueError struct{ msg string }

func (e flagValueError) Error() string { return e.msg }

// parseOptions turns the flag values into parser options. Bad values are
// flagValueErrors; a catalog that cannot be read or loaded is returned as
// is.
func parseOptions(framing, mode, catalogFile string) ([]parser.Option, error) {
	f, err := parser.ParseFraming(framing)
	if err != nil {
		return nil, flagValueError{err.Error()}
	}
	m, err := parser.ParseMode(mode)
	if err != nil {
		return nil, flagValueError{err.Error()}
	}
	opts := []parser.Option{parser.WithFraming(f), parser.WithMode(m)}
	if catalogFile != "" {
		if m == parser.ModeComplete {
			return nil, flagValueError{"--catalog applies to --mode progressive and delta; complete mode (the default) forwards the model's messages without validating them"}
		}
		cat, err := protocol.LoadCatalogFile(catalogFile)
		if err != nil {
			return nil, err
		}
		opts = append(opts, parser.WithCatalog(cat))
	}
	return opts, nil
}

// partsWriter writes what the parser returned from one Feed or Close call.
type partsWriter interface {
	// write writes parts and the block errors joined in err; last is set
	// for Close's result, the end of the stream.
	write(out *bufio.Writer, parts []parser.Part, err error, last bool) error
}

// parseChunks feeds the input in chunks of n bytes (each read whole when
// n is 0, see readChunks) and has w write what each call returns. Output
// is flushed before each read, so that a live stream is echoed as it
// arrives.
func parseChunks(p *parser.Parser, in io.Reader, out *bufio.Writer, n int, w partsWriter) error {
	flush := func() error {
		if out.Buffered() == 0 {
			return nil
		}
		return out.Flush()
	}
	err := readChunks(in, n, flush, func(chunk []byte) error {
		parts, err := p.Feed(chunk)
		return w.write(out, parts, err, false)
	})
	if err != nil {
		return err
	}
	parts, err := p.Close()
	return w.write(out, parts, err, true)
}

// partLines writes each part as a JSON line (see appendPart), and each
// block error as an {"error":…} line in its place among them.
type partLines struct{}

func (partLines) write(out *bufio.Writer, parts []parser.Part, err error, _ bool) error {
	return interleave(parts, err, func(pt parser.Part) error {
		_, werr := out.Write(append(appendPart(out.AvailableBuffer(), pt), '\n'))
		return werr
	}, func(e error) error {
		return writeErrorLine(out, e.Error())
	})
}

// interleave calls part for each part and blockErr for each error joined
// in err, each error before the first part that came after it in the
// stream (see parser.BlockError.Before).
func interleave(parts []parser.Part, err error, part func(parser.Part) error, blockErr func(error) error) error {
	errs := parser.BlockErrors(err)
	next := 0
	for i := 0; i <= len(parts); i++ {
		for next < len(errs) && errorBefore(errs[next]) <= i {
			if werr := blockErr(errs[next]); werr != nil {
				return werr
			}
			next++
		}
		if i < len(parts) {
			if werr := part(parts[i]); werr != nil {
				return werr
			}
		}
	}
	return nil
}

// errorBefore reports how many parts precede a block error (all of them for
// other errors).
func errorBefore(err error) int {
	var be *parser.BlockError
	if errors.As(err, &be) {
		return be.Before
	}
	return int(^uint(0) >> 1)
}
