package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// maxStepLineBytes bounds one --steps input line.
const maxStepLineBytes = 64 << 20

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

// parseSteps reads one JSON string per line and feeds it as one chunk (an
// empty line is an empty chunk). It writes exactly one line per input line
// (see writeStep); what Close releases is merged into the last line, so each
// line's output is held until the next line arrives or the input ends. A
// line that is not a JSON string (or is longer than maxStepLineBytes) stops
// the run with a *stepLineError, after the previous lines' output.
func parseSteps(p *parser.Parser, in io.Reader, out *bufio.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxStepLineBytes+1) // the line and its newline
	var held *step                                      // the previous line's result, not yet written
	writeHeld := func() error {
		if held == nil {
			return nil
		}
		if err := writeStep(out, held.parts, held.err); err != nil {
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
func writeStep(out *bufio.Writer, parts []parser.Part, err error) error {
	b := out.AvailableBuffer()
	if err != nil {
		b = append(b, `{"error":`...)
		b = appendJSONString(b, err.Error())
		if len(parts) > 0 {
			b = append(b, `,"parts":`...)
		}
	}
	if err == nil || len(parts) > 0 {
		b = append(b, '[')
		for i, pt := range parts {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPart(b, pt)
		}
		b = append(b, ']')
	}
	if err != nil {
		b = append(b, '}')
	}
	_, werr := out.Write(append(b, '\n'))
	return werr
}
