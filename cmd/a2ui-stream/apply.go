package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/a2ui-stream/a2ui-stream/processor"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// maxListBytes bounds one input line of `apply`.
const maxListBytes = 64 << 20

// applyLineError is what `apply` writes, in batch mode, for an input line
// that is not a JSON array of messages.
type applyLineError struct {
	List  int    `json:"list"`
	Error string `json:"error"`
}

// applyUsage is the help of "a2ui-stream apply".
const applyUsage = `usage: a2ui-stream apply [--catalog FILE] [--state] [FILE]

Reads JSON lines from FILE (or stdin when absent or "-"; a UTF-8 byte order
mark at its start is skipped); each non-blank line is one list, a JSON array
of A2UI messages (as "a2ui-stream parse --emit lists" writes them), applied
to one processor. Each message applies on its own: one that fails changes
nothing and is reported, and the rest of its list still applies.

By default it writes one JSON line per list, the list's batch
({"seq","applied","failed","results","changes"}), or {"list":N,"error":…}
for a line that is not a JSON array (the error says what is wrong and at
which byte of the line) or is longer than 64 MiB, each written before apply
waits for more input. With --state it writes nothing per list and prints
the final state once, in canonical form (keys sorted, 2-space indent), with
an "errors" entry {"list":N,"message":…} per failed message and per line
that is not a JSON array.

Exit status: 0 when every message applied; 1 when some message or line
failed (processing still goes on to the end); 2 for usage, catalog or I/O
errors.
`

// applyFlags holds the flags of "a2ui-stream apply".
type applyFlags struct {
	catalog string
	state   bool
}

func (f *applyFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.catalog, "catalog", "", "validate messages against the catalog `FILE` (JSON or YAML: version, s2c_schema,\n"+
		"catalog_schema, common_types_schema)")
	fs.BoolVar(&f.state, "state", false, "print the final state once, in canonical form, instead of one batch per list")
}

// runApply implements "a2ui-stream apply [--catalog FILE] [--state] [FILE]":
// see applyUsage for what it reads and writes and its exit status. The
// state is printed in the canonical form of stateJSON.
func runApply(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f applyFlags
	fs := newFlagSet("apply")
	f.register(fs)
	if code, done := parseArgs(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 1 {
		return usageFail(stderr, "apply", "at most one FILE, got %d arguments", fs.NArg())
	}
	var opts []processor.Option
	if f.catalog != "" {
		cat, err := protocol.LoadCatalogFile(f.catalog)
		if err != nil {
			fmt.Fprintf(stderr, "a2ui-stream apply: %v\n", err)
			return 2
		}
		opts = append(opts, processor.WithCatalog(cat))
	}
	p, err := processor.New(opts...)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream apply: %v\n", err)
		return 2
	}
	in, err := openInput(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "a2ui-stream apply: %v\n", err)
		return 2
	}
	defer in.Close()

	out := bufio.NewWriter(stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	var stateErrs []stateError
	failed := false
	r := bufio.NewReaderSize(in, 64<<10)
	// lineError records a line that is not a list.
	lineError := func(line int, msg string) error {
		failed = true
		stateErrs = append(stateErrs, stateError{List: line, Message: msg})
		if f.state {
			return nil
		}
		return enc.Encode(applyLineError{List: line, Error: msg})
	}
	for line := 0; ; line++ {
		data, tooLong, readErr := readLine(r)
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			fmt.Fprintf(stderr, "a2ui-stream apply: reading line %d: %v\n", line+1, readErr)
			out.Flush()
			return 2
		}
		bom := 0
		if line == 0 && bytes.HasPrefix(data, utf8BOM) {
			bom = len(utf8BOM) // a byte order mark, as some editors write
		}
		var err error
		switch {
		case tooLong:
			err = lineError(line, fmt.Sprintf("a2ui-stream apply: line %d is longer than %d bytes", line+1, maxListBytes))
		case len(bytes.TrimSpace(data[bom:])) > 0:
			b, perr := p.ProcessJSON(data[bom:])
			if perr != nil {
				err = lineError(line, newListError(line, data, bom, perr).Error())
				break
			}
			for _, me := range b.Errors() {
				failed = true
				stateErrs = append(stateErrs, stateError{List: line, Message: me.Error()})
			}
			if !f.state {
				err = enc.Encode(b)
			}
		}
		if err == nil && !f.state && !lineBuffered(r) {
			// The next read may wait for a live stream: what was
			// applied so far is written first.
			err = out.Flush()
		}
		if err != nil {
			fmt.Fprintf(stderr, "a2ui-stream apply: %v\n", err)
			return 2
		}
		if readErr != nil { // io.EOF
			break
		}
	}
	if f.state {
		state, err := stateJSON(p, stateErrs)
		if err != nil {
			fmt.Fprintf(stderr, "a2ui-stream apply: %v\n", err)
			return 2
		}
		out.Write(state)
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "a2ui-stream apply: %v\n", err)
		return 2
	}
	if failed {
		return 1
	}
	return 0
}

// readLine reads one line without its end of line, of any length up to
// maxListBytes. A longer line is read to its end and dropped: tooLong is
// set and line is nil. At the end of input it returns the last line with
// io.EOF.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, rerr := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			n := len(line)
			if rerr == nil {
				n-- // the newline ending the line is not part of it
			}
			if n > maxListBytes {
				line, tooLong = nil, true
			}
		}
		switch {
		case rerr == nil:
			return bytes.TrimRight(line, "\r\n"), tooLong, nil
		case errors.Is(rerr, bufio.ErrBufferFull):
			continue
		default:
			return bytes.TrimRight(line, "\r\n"), tooLong, rerr
		}
	}
}

// lineBuffered reports whether r already holds a whole line, so that
// reading it cannot wait for input.
func lineBuffered(r *bufio.Reader) bool {
	b, _ := r.Peek(r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}
