package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// ErrJSONSyntax is the sentinel of JSON syntax errors (see
// *JSONSyntaxError).
var ErrJSONSyntax = errors.New("protocol: invalid JSON")

// JSONSyntaxError is a JSON syntax error (invalid UTF-8 included) in a
// JSON document the package reads: a catalog, a schema, a message.
type JSONSyntaxError struct {
	Offset int    // byte offset of the error
	Reason string // what is wrong there
}

func (e *JSONSyntaxError) Error() string {
	return fmt.Sprintf("protocol: invalid JSON at offset %d: %s", e.Offset, e.Reason)
}

// Unwrap returns ErrJSONSyntax.
func (e *JSONSyntaxError) Unwrap() error { return ErrJSONSyntax }

// utf8BOM is the byte order mark some editors put at the start of a file.
var utf8BOM = []byte("\ufeff")

// maxJunkQuote bounds how much of the data after a JSON value an error
// quotes.
const maxJunkQuote = 16

// decodeJSON decodes exactly one JSON value (surrounding JSON whitespace
// allowed) with numbers as json.Number. Every failure is a
// *JSONSyntaxError whose Offset is the byte of data at fault: invalid
// UTF-8, a syntax error, the end of a truncated value, or the first byte of
// anything after the value.
func decodeJSON(data []byte) (any, error) {
	if at := jsonwire.InvalidUTF8At(data); at >= 0 {
		// encoding/json would replace the bad bytes and accept the text.
		return nil, &JSONSyntaxError{Offset: at, Reason: "invalid UTF-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonSyntaxError(data, err)
	}
	// The decoder stops at the value's end and does not look further, so
	// anything after it is checked here.
	rest := data[jsonwire.SkipSpace(data, int(dec.InputOffset())):]
	if len(rest) > 0 {
		return nil, &JSONSyntaxError{
			Offset: len(data) - len(rest),
			Reason: "trailing data " + quoteJunk(rest) + " after the JSON value",
		}
	}
	return v, nil
}

// jsonSyntaxError turns an encoding/json decoding error of data into a
// *JSONSyntaxError.
func jsonSyntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// Offset counts the bytes read, the bad one included.
		return &JSONSyntaxError{Offset: max(int(se.Offset)-1, 0), Reason: se.Error()}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &JSONSyntaxError{Offset: len(data), Reason: "unexpected end of JSON input"}
	default:
		return &JSONSyntaxError{Offset: 0, Reason: err.Error()}
	}
}

// quoteJunk quotes the start of b (valid UTF-8) for an error message,
// cutting it after maxJunkQuote bytes at a character boundary.
func quoteJunk(b []byte) string {
	if len(b) <= maxJunkQuote {
		return strconv.Quote(string(b))
	}
	n := maxJunkQuote
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return strconv.Quote(string(b[:n])) + "..."
}

// decodeDocument decodes a catalog block or schema file in the package's
// JSON data model. A document whose first byte after an optional UTF-8 BOM
// and whitespace is '{' or '[' is JSON and is decoded strictly (see
// decodeJSON; offsets count from the start of data, BOM included), so
// that a stray byte after the value is an error instead of something a
// YAML reader would skip. Any other document is YAML.
func decodeDocument(data []byte) (any, error) {
	body := bytes.TrimPrefix(data, utf8BOM)
	if i := jsonwire.SkipSpace(body, 0); i < len(body) && (body[i] == '{' || body[i] == '[') {
		v, err := decodeJSON(body)
		if err != nil {
			var se *JSONSyntaxError
			if errors.As(err, &se) {
				se.Offset += len(data) - len(body)
			}
			return nil, err
		}
		return v, nil
	}
	var y any
	if err := yaml.Unmarshal(data, &y); err != nil {
		return nil, fmt.Errorf("invalid YAML: %v", err)
	}
	return toJSONValue(y)
}

// fileError attributes an error to the file it came from.
type fileError struct {
	path string
	err  error
}

// Error renders "<path>: <cause>" without the cause's "protocol: " prefix
// (the enclosing error has it).
func (e *fileError) Error() string {
	return e.path + ": " + strings.TrimPrefix(e.err.Error(), "protocol: ")
}

// Unwrap returns the cause.
func (e *fileError) Unwrap() error { return e.err }
