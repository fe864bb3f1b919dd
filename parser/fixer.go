package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
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
	out, shifts := fixJSON(payload)
	fixed := bytes.TrimLeftFunc(out, unicode.IsSpace)
	lead := len(out) - len(fixed)
	fixed = bytes.TrimRightFunc(fixed, unicode.IsSpace)
	if len(fixed) == 0 {
		return nil, ErrEmptyBlock
	}
	// at is the payload offset of fixed[i].
	at := func(i int) int64 { return int64(shifts.source(lead + i)) }
	if err := messageError(fixed, 0); err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			se.Offset = at(int(se.Offset))
		}
		return nil, err
	}
	switch fixed[0] {
	case '{':
		return []json.RawMessage{json.RawMessage(fixed)}, nil
	case '[':
		msgs := []json.RawMessage{}
		var bad error
		gjson.ParseBytes(fixed).ForEach(func(_, v gjson.Result) bool {
			if !v.IsObject() {
				bad = &SyntaxError{Offset: at(v.Index), Msg: "list element is not an A2UI message object"}
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

// fixShifts records where fixJSON's output comes from: from each entry's
// out offset on (to the next entry's), the output copies the input from
// the entry's in offset. The repairs (a dropped comma, a typographic quote
// of three bytes become one, an inserted backslash) start a new entry.
type fixShifts []struct{ out, in int }

// source returns the payload offset of output byte o.
func (s fixShifts) source(o int) int {
	k := sort.Search(len(s), func(k int) bool { return s[k].out > o }) - 1
	if k < 0 {
		return o
	}
	return s[k].in + o - s[k].out
}

// fixJSON applies the repairs of FixPayload in one pass over payload.
func fixJSON(payload []byte) ([]byte, fixShifts) {
	out := make([]byte, 0, len(payload))
	var shifts fixShifts
	shift := func(in int) { shifts = append(shifts, struct{ out, in int }{len(out), in}) }
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
					out = append(out, '\\')
					shift(i)
					out = append(out, '"')
					i++
					continue
				}
				inString = !inString
				smartOpened = false
			case !inString && c == ',':
				if j := jsonwire.SkipSpace(payload, i+1); j < len(payload) && (payload[j] == '}' || payload[j] == ']') {
					i++
					shift(i)
					continue
				}
			}
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(payload[i:])
		replaced := true
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
			replaced = false
		}
		i += size
		if replaced {
			shift(i)
		}
	}
	return out, shifts
}
