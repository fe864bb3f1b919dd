package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// utf8BOM is the UTF-8 byte order mark, which apply skips at the start of
// its input.
var utf8BOM = []byte("\xef\xbb\xbf")

// listError is an input line of apply that is not a JSON array of
// messages: what is wrong with it and where.
type listError struct {
	// Line is the 1-based line number.
	Line int
	// Offset is the 0-based byte offset in the line (as read, a byte order
	// mark counted) of the first byte that is wrong, or the line's length
	// when it ends too early; -1 when no byte is to blame.
	Offset int
	// Reason says what is wrong.
	Reason string
	// Err is the processor's error (processor.ErrNotArray).
	Err error
}

func (e *listError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("a2ui-stream apply: line %d is not a JSON array of messages: %s", e.Line, e.Reason)
	}
	return fmt.Sprintf("a2ui-stream apply: line %d is not a JSON array of messages: %s (at byte %d)", e.Line, e.Reason, e.Offset)
}

// Unwrap returns the processor's error.
func (e *listError) Unwrap() error { return e.Err }

// newListError explains why line (0-based index line; data as read, skip
// the length of a leading byte order mark) is not a list: the JSON syntax
// error and its offset, or the kind of value it holds instead of an array.
// perr is the processor's error.
func newListError(line int, data []byte, skip int, perr error) *listError {
	e := &listError{Line: line + 1, Offset: -1, Reason: perr.Error(), Err: perr}
	body := data[skip:]
	lead := jsonwire.SkipSpace(body, 0)
	var raw json.RawMessage
	err := json.Unmarshal(body, &raw)
	var se *json.SyntaxError
	ended := errors.As(err, &se) && se.Error() == "unexpected end of JSON input"
	switch {
	case bytes.HasPrefix(body, utf8BOM):
		e.Reason, e.Offset = "it begins with a byte order mark (only the input's first line may)", skip
	case ended && lead < len(body) && body[lead] == '[':
		e.Reason, e.Offset = "the line ends before the array is closed", len(data)
	case ended:
		e.Reason, e.Offset = "the line ends inside a JSON value", len(data)
	case se != nil && body[lead] != '[':
		e.Reason, e.Offset = "it begins with "+describeByte(body[lead])+", not '['", skip+lead
	case se != nil:
		e.Reason, e.Offset = se.Error(), skip+int(se.Offset)-1
	case err == nil && raw[0] != '[':
		e.Reason, e.Offset = "it is a JSON "+jsonKind(raw[0])+", not an array", skip+lead
	}
	return e
}

// jsonKind names the kind of JSON value that begins with b.
func jsonKind(b byte) string {
	switch b {
	case '{':
		return "object"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// describeByte names a byte for an error: quoted when it is printable
// ASCII, in hex otherwise.
func describeByte(b byte) string {
	if b >= 0x20 && b < 0x7f {
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("byte 0x%02X", b)
}
