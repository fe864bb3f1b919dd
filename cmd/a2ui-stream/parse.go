package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// parseUsage is printed by "a2ui-stream parse -h" and after a usage error.
const parseUsage = `usage: a2ui-stream parse [--framing tags|fences|jsonl] [--mode complete|progressive|delta]
                         [--catalog FILE] [--repair] [--chunk N | --steps] [FILE]

Reads model output from FILE (or stdin when absent or "-") and writes one JSON
line per completed part: {"text":…}, {"a2ui":[…]} or both keys. Each message
is printed compacted: re-encoded without insignificant whitespace (in
complete mode with its key order and string escapes as the model wrote them;
progressive and delta modes sort the envelope's keys and decode escapes).
A failed block writes
{"error":…} in its place, and parsing continues.

With --steps, each input line is a JSON string holding one chunk (an empty
line is an empty chunk), and the output has exactly one line per input line:
the JSON array of the parts that chunk completed ([] if none), or, when a
block failed in it, {"error":…,"parts":[…]} where "parts" (omitted when
empty) holds the parts that chunk completed. What the end of input releases
(held text, an unterminated block's error) goes into the last line. A line's
output is written when the next line arrives or the input ends.

Exit status: 0 when the input was read to the end (failed blocks included);
1 when a --steps line is not a JSON string; 2 for usage errors, an unusable
catalog, and I/O errors (e.g. FILE or the catalog file cannot be read).

Flags:
`

// runParse implements "a2ui-stream parse": model output in, one JSON line per
// completed part out. See parseUsage for the output and exit status.
func runParse(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	framing := fs.String("framing", "tags", "block framing: tags, fences or jsonl")
	mode := fs.String("mode", "complete", "yield mode: complete, progressive or delta")
	catalogFile := fs.String("catalog", "", "catalog `FILE` (JSON or YAML: version, s2c_schema, catalog_schema,\n"+
		"common_types_schema) that progressive and delta modes validate against;\n"+
		"only with --mode progressive or delta: complete mode forwards the model's\n"+
		"messages without validating them")
	chunk := fs.Int("chunk", 0, "feed the input in chunks of `N` bytes (0: as read); not with --steps")
	steps := fs.Bool("steps", false, "each input line is a JSON string holding one chunk; print one line per input line")
	repair := fs.Bool("repair", false, "repair typographic quotes and trailing commas in blocks as they arrive,\n"+
		"as a whole answer is repaired")
	fs.Usage = func() {
		fmt.Fprint(stderr, parseUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "a2ui-stream parse: "+format+"\n", a...)
		fmt.Fprintln(stderr, `Run "a2ui-stream parse -h" for usage.`)
		return 2
	}
	chunkSet := false
	fs.Visit(func(f *flag.Flag) { chunkSet = chunkSet || f.Name == "chunk" })
	switch {
	case fs.NArg() > 1:
		return usageErr("at most one FILE, got %d arguments", fs.NArg())
	case *chunk < 0:
		return usageErr("--chunk must be 0 or more, got %d", *chunk)
	case *steps && chunkSet:
		return usageErr("--chunk and --steps cannot be used together: with --steps, each input line is one chunk")
	}
	opts, err := parseOptions(*framing, *mode, *catalogFile)
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			return usageErr("%v", err)
		}
		fmt.Fprintf(stderr, "a2ui-stream parse: %v\n", err)
		return 2
	}
	if *repair {
		opts = append(opts, parser.WithPayloadRepair())
	}
	if !*steps {
		// Each call's parts are written before the next call (--steps holds
		// the last Feed's parts until Close, so it keeps owned output).
		opts = append(opts, parser.WithBorrowedOutput())
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
	out := bufio.NewWriter(stdout)
	if *steps {
		err = parseSteps(p, in, out)
	} else {
		err = parseChunks(p, in, out, *chunk)
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

// usageError is a bad flag value or combination (exit status 2, with a
// pointer to the usage).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// stepLineError is a --steps input line that is not a JSON string, or too
// long to read.
type stepLineError struct {
	Line int
	Err  error
}

func (e *stepLineError) Error() string {
	return fmt.Sprintf("line %d: want a JSON string holding one chunk: %v", e.Line, e.Err)
}

func (e *stepLineError) Unwrap() error { return e.Err }

// parseOptions turns the flag values into parser options. Bad values are
// usageErrors; a catalog that cannot be read or loaded is returned as is.
func parseOptions(framing, mode, catalogFile string) ([]parser.Option, error) {
	f, err := parser.ParseFraming(framing)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	m, err := parser.ParseMode(mode)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	opts := []parser.Option{parser.WithFraming(f), parser.WithMode(m)}
	if catalogFile != "" {
		if m == parser.ModeComplete {
			return nil, usageError{"--catalog applies to --mode progressive and delta; complete mode (the default) forwards the model's messages without validating them"}
		}
		cat, err := protocol.LoadCatalogFile(catalogFile)
		if err != nil {
			return nil, err
		}
		opts = append(opts, parser.WithCatalog(cat))
	}
	return opts, nil
}

// parseChunks feeds the input in chunks of n bytes (or as read when n is 0)
// and writes each part, and each block error, as a JSON line. Output is
// flushed after every chunk so that a live stream is echoed as it arrives.
func parseChunks(p *parser.Parser, in io.Reader, out *bufio.Writer, n int) error {
	size := n
	if size == 0 {
		size = 32 << 10
	}
	buf := make([]byte, size)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		var k int
		var rerr error
		if n > 0 {
			k, rerr = io.ReadFull(in, buf)
			if errors.Is(rerr, io.ErrUnexpectedEOF) {
				rerr = io.EOF
			}
		} else {
			k, rerr = in.Read(buf)
		}
		if k > 0 {
			parts, err := p.Feed(buf[:k])
			if werr := writeParts(enc, parts, err); werr != nil {
				return werr
			}
			if werr := out.Flush(); werr != nil {
				return werr
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return rerr
		}
	}
	parts, err := p.Close()
	return writeParts(enc, parts, err)
}

// writeParts writes parts as JSON lines, each block error as an
// {"error": …} line in its place among them.
func writeParts(enc *json.Encoder, parts []parser.Part, err error) error {
	errs := splitErrors(err)
	next := 0
	for i := 0; i <= len(parts); i++ {
		for next < len(errs) && errorBefore(errs[next]) <= i {
			if werr := enc.Encode(map[string]string{"error": errs[next].Error()}); werr != nil {
				return werr
			}
			next++
		}
		if i < len(parts) {
			if werr := enc.Encode(parts[i]); werr != nil {
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

// parseSteps reads one JSON string per line and feeds it as one chunk (an
// empty line is an empty chunk). It writes exactly one line per input line
// (see writeStep); what Close releases is merged into the last line, so each
// line's output is held until the next line arrives or the input ends. A
// line that is not a JSON string (or is longer than maxStepLineBytes) stops
// the run with a *stepLineError, after the previous lines' output.
func parseSteps(p *parser.Parser, in io.Reader, out *bufio.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxStepLineBytes+1) // the line and its newline
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	var held *step // the previous line's result, not yet written
	writeHeld := func() error {
		if held == nil {
			return nil
		}
		if err := writeStep(enc, held.parts, held.err); err != nil {
			return err
		}
		held = nil
		return out.Flush()
	}
	line := 0
	for sc.Scan() {
		line++
		chunk, err := stepChunk(sc.Bytes())
		if werr := writeHeld(); werr != nil {
			return werr
		}
		if err != nil {
			return &stepLineError{Line: line, Err: err}
		}
		parts, ferr := p.Feed(chunk)
		held = &step{parts, ferr}
	}
	if err := sc.Err(); err != nil {
		if werr := writeHeld(); werr != nil {
			return werr
		}
		if errors.Is(err, bufio.ErrTooLong) {
			return &stepLineError{Line: line + 1, Err: fmt.Errorf("the line is longer than %d bytes", maxStepLineBytes)}
		}
		return err
	}
	parts, cerr := p.Close()
	if held == nil {
		if len(parts) == 0 && cerr == nil {
			return nil
		}
		held = &step{} // no input lines, yet Close released something
	}
	held.parts = append(held.parts, parts...)
	held.err = errors.Join(held.err, cerr)
	return writeHeld()
}

// maxStepLineBytes bounds one --steps input line.
const maxStepLineBytes = 64 << 20

// step is what one --steps line produced.
type step struct {
	parts []parser.Part
	err   error
}

// stepChunk decodes a --steps line: a JSON string, or nothing (blank) for
// an empty chunk.
func stepChunk(line []byte) ([]byte, error) {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, nil
	}
	var chunk string
	if err := json.Unmarshal(line, &chunk); err != nil {
		return nil, err
	}
	return []byte(chunk), nil
}

// writeStep writes one --steps output line: the JSON array of parts, or,
// when err is set, {"error":…,"parts":[…]} with the parts (omitted when
// none).
func writeStep(enc *json.Encoder, parts []parser.Part, err error) error {
	if parts == nil {
		parts = []parser.Part{}
	}
	if err == nil {
		return enc.Encode(parts)
	}
	v := struct {
		Error string        `json:"error"`
		Parts []parser.Part `json:"parts,omitempty"`
	}{err.Error(), parts}
	return enc.Encode(v)
}

// splitErrors lists the errors joined in err.
func splitErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
