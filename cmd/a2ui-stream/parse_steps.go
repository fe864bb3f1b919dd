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

// maxStepLineBytes bounds one --steps input line; it is the bound of
// readLine.
const maxStepLineBytes = maxListBytes

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

// badStepsError reports the --steps input lines that were not JSON strings
// (or too long): how many, and the first.
type badStepsError struct {
	Count int
	First *stepLineError
}

func (e *badStepsError) Error() string {
	if e.Count == 1 {
		return fmt.Sprintf("1 input line was not used: %v", e.First)
	}
	return fmt.Sprintf("%d input lines were not used; the first: %v", e.Count, e.First)
}

// Unwrap returns the first bad line's error.
func (e *badStepsError) Unwrap() error { return e.First }

// parseSteps reads one JSON string per line and feeds it as one chunk (an
// empty line is an empty chunk). It writes exactly one line per input line
// (see writeStep); what Close releases is merged into the last line, so each
// line's output is held until the next line arrives or the input ends. A
// line that is not a JSON string (or is longer than maxStepLineBytes) gets
// an error line of its own, {"error":"line N: …"}, feeds nothing, and the
// lines after it are read on: the run then ends with a *badStepsError.
func parseSteps(p *parser.Parser, in io.Reader, out *bufio.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	var held *step // the previous line's result, not yet written
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
	var bad *badStepsError
	for line := 1; ; line++ {
		data, tooLong, readErr := readLine(r)
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			if werr := writeHeld(); werr != nil {
				return werr
			}
			return readErr
		}
		if readErr != nil && len(data) == 0 && !tooLong {
			break // the input ended with its last line's newline
		}
		if werr := writeHeld(); werr != nil {
			return werr
		}
		var lerr error
		var chunk []byte
		if tooLong {
			lerr = fmt.Errorf("the line is longer than %d bytes", maxStepLineBytes)
		} else {
			chunk, lerr = stepChunk(data)
		}
		if lerr != nil {
			se := &stepLineError{Line: line, Err: lerr}
			if bad == nil {
				bad = &badStepsError{First: se}
			}
			bad.Count++
			held = &step{err: se}
		} else {
			parts, ferr := p.Feed(chunk)
			held = &step{parts, ferr}
		}
		if readErr != nil { // io.EOF after a last line without a newline
			break
		}
	}
	parts, cerr := p.Close()
	if held == nil && (len(parts) > 0 || cerr != nil) {
		held = &step{} // no input lines, yet Close released something
	}
	if held != nil {
		held.parts = append(held.parts, parts...)
		held.err = errors.Join(held.err, cerr)
	}
	if err := writeHeld(); err != nil {
		return err
	}
	if bad != nil {
		return bad
	}
	return nil
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
