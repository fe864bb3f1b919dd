package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Typographic quotes that models sometimes emit in place of ASCII quotes.
const (
	leftDouble  = '\u201c' // “
	rightDouble = '\u201d' // ”
	leftSingle  = '\u2018' // ‘
	rightSingle = '\u2019' // ’
)

// FixPayload repairs the common defects of a model-written A2UI payload and
// returns its messages:
//
//   - a trailing comma before '}' or ']' is dropped (never a comma inside a
//     string);
//   - typographic double quotes used as string delimiters become ASCII
//     quotes, and typographic single quotes become ASCII apostrophes;
//   - a single object is wrapped into a one-element list.
//
// A payload that is still not valid JSON gives a *SyntaxError whose Offset is
// relative to the payload.
func FixPayload(payload []byte) ([]json.RawMessage, error) {
	fixed := fixJSON(payload)
	fixed = bytes.TrimSpace(fixed)
	if len(fixed) == 0 {
		return nil, ErrEmptyBlock
	}
	if !utf8.Valid(fixed) {
		return nil, &SyntaxError{Msg: "invalid UTF-8", Err: ErrInvalidUTF8}
	}
	if !gjson.ValidBytes(fixed) {
		var v any
		err := json.Unmarshal(fixed, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, &SyntaxError{Offset: se.Offset - 1, Msg: se.Error()}
		}
		return nil, &SyntaxError{Msg: "invalid JSON"}
	}
	switch fixed[0] {
	case '{':
		return []json.RawMessage{json.RawMessage(fixed)}, nil
	case '[':
		msgs := []json.RawMessage{}
		var bad error
		gjson.ParseBytes(fixed).ForEach(func(_, v gjson.Result) bool {
			if !v.IsObject() {
				bad = &SyntaxError{Offset: int64(v.Index), Msg: "list element is not an A2UI message object"}
				return false
			}
			msgs = append(msgs, json.RawMessage(fixed[v.Index:v.Index+len(v.Raw)]))
			return true
		})
		if bad != nil {
			return nil, bad
		}
		return msgs, nil
	}
	return nil, &SyntaxError{Msg: "payload is neither an object nor a list of objects"}
}

// fixJSON applies the repairs of FixPayload in one pass over payload.
func fixJSON(payload []byte) []byte {
	out := make([]byte, 0, len(payload))
	inString := false
	smartOpened := false // the current string was opened by a typographic quote
	for i := 0; i < len(payload); {
		c := payload[i]
		if c < utf8.RuneSelf {
			switch {
			case inString && c == '\\' && i+1 < len(payload):
				out = append(out, c, payload[i+1])
				i += 2
				continue
			case c == '"':
				if inString && smartOpened {
					out = append(out, '\\', '"')
					i++
					continue
				}
				inString = !inString
				smartOpened = false
			case !inString && c == ',':
				if j := skipWhitespace(payload, i+1); j < len(payload) && (payload[j] == '}' || payload[j] == ']') {
					i++
					continue
				}
			}
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(payload[i:])
		switch {
		case r == leftSingle || r == rightSingle:
			out = append(out, '\'')
		case !inString && (r == leftDouble || r == rightDouble):
			out = append(out, '"')
			inString, smartOpened = true, true
		case inString && smartOpened && r == rightDouble:
			out = append(out, '"')
			inString, smartOpened = false, false
		default:
			out = append(out, payload[i:i+size]...)
		}
		i += size
	}
	return out
}

func skipWhitespace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
