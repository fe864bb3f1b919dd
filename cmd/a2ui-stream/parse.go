package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// runParse implements "a2ui-stream parse": model output in, one JSON line per
// completed part out.
func runParse(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	framing := fs.String("framing", "tags", "block framing: tags, fences or jsonl")
	mode := fs.String("mode", "complete", "yield mode: complete, progressive or delta")
	catalogFile := fs.String("catalog", "", "catalog `FILE` (JSON or YAML: version, s2c_schema, catalog_schema, common_types_schema)")
	chunk := fs.Int("chunk", 0, "feed the input in chunks of `N` bytes (0: as read)")
	steps := fs.Bool("steps", false, "each input line is a JSON string holding one chunk; print one JSON array of parts per line")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 1 || *chunk < 0 {
		fmt.Fprintln(stderr, "a2ui-stream parse: want at most one FILE and a non-negative --chunk")
		return 2
	}
	opts, err := parseOptions(*framing, *mode, *catalogFile)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream parse: %v\n", err)
		return 2
	}
	p, err := parser.New(opts...)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream parse: %v\n", err)
		return 2
	}
	in, err := openInput(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream parse: %v\n", err)
		return 1
	}
	defer in.Close()
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if *steps {
		err = parseSteps(p, in, out)
	} else {
		err = parseChunks(p, in, out, *chunk)
	}
	if err != nil {
		out.Flush()
		fmt.Fprintf(stderr, "a2ui-stream parse: %v\n", err)
		return 1
	}
	return 0
}

func parseOptions(framing, mode, catalogFile string) ([]parser.Option, error) {
	f, err := parser.ParseFraming(framing)
	if err != nil {
		return nil, err
	}
	m, err := parser.ParseMode(mode)
	if err != nil {
		return nil, err
	}
	opts := []parser.Option{parser.WithFraming(f), parser.WithMode(m)}
	if catalogFile != "" {
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

// parseSteps reads one JSON string per line, feeds it as one chunk, and
// writes one line per input line: the JSON array of the parts it completed,
// or {"error": …} (with the parts completed alongside, if any). The parts of
// Close, if any, make one more line.
func parseSteps(p *parser.Parser, in io.Reader, out *bufio.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	line := 0
	for sc.Scan() {
		line++
		var chunk string
		if err := json.Unmarshal(sc.Bytes(), &chunk); err != nil {
			return fmt.Errorf("line %d: want a JSON string holding one chunk: %v", line, err)
		}
		parts, err := p.Feed([]byte(chunk))
		if werr := writeStep(enc, parts, err); werr != nil {
			return werr
		}
		if werr := out.Flush(); werr != nil {
			return werr
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	parts, err := p.Close()
	if len(parts) == 0 && err == nil {
		return nil
	}
	return writeStep(enc, parts, err)
}

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
