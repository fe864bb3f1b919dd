package parser

import (
	"encoding/json"
	"sync"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// jsonDecoder is a small strict JSON decoder into Go's generic data model
// (map[string]any, []any, string, json.Number, bool, nil), several times
// faster than encoding/json for the progressive engine's many small
// documents. Input must be valid UTF-8 (the scanner checks it).
type jsonDecoder struct {
	b   []byte
	i   int
	err bool

	// known holds objects of b decoded before (by offset in b + base), to
	// reuse instead of decoding them again.
	known map[int]knownObject
	base  int
	// elems holds the elements of the lists being decoded, innermost
	// last: each list is then allocated once, at its size (see
	// decodeElems).
	elems []any
}

// decodeElems holds the emptied element stacks of finished decoders.
var decodeElems = sync.Pool{New: func() any { return new([]any) }}

// knownObject is an object decoded before (a map, or a *fastComp read at
// byte level), and the offset just past it.
type knownObject struct {
	end int
	v   any
}

// decodeObject decodes b as exactly one JSON object (surrounding
// whitespace allowed). It reports false for anything else.
func decodeObject(b []byte) (map[string]any, bool) {
	return decodeObjectKnown(b, 0, nil)
}

// decodeObjectKnown is decodeObject reusing the objects in known (keyed by
// offset, b starting at offset base).
func decodeObjectKnown(b []byte, base int, known map[int]knownObject) (map[string]any, bool) {
	st := decodeElems.Get().(*[]any)
	d := jsonDecoder{b: b, known: known, base: base, elems: *st}
	v := d.value(0)
	if cap(d.elems) <= 4*keepScratch {
		clear(d.elems[:cap(d.elems)])
		*st = d.elems[:0]
		decodeElems.Put(st)
	}
	d.ws()
	if m, ok := v.(map[string]any); ok && !d.err && d.i == len(b) {
		return m, true
	}
	return nil, false
}

const maxDecodeDepth = 10000

func (d *jsonDecoder) ws() { d.i = jsonwire.SkipSpace(d.b, d.i) }

func (d *jsonDecoder) value(depth int) any {
	if depth > maxDecodeDepth {
		d.err = true
		return nil
	}
	d.ws()
	if d.i >= len(d.b) {
		d.err = true
		return nil
	}
	switch c := d.b[d.i]; {
	case c == '{':
		if k, ok := d.known[d.base+d.i]; ok && k.end-d.base <= len(d.b) {
			d.i = k.end - d.base
			return k.v
		}
		d.i++
		m := make(map[string]any, 4)
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == '}' {
			d.i++
			return m
		}
		for {
			d.ws()
			if d.i >= len(d.b) || d.b[d.i] != '"' {
				d.err = true
				return nil
			}
			k, ok := d.str()
			if !ok {
				d.err = true
				return nil
			}
			d.ws()
			if d.i >= len(d.b) || d.b[d.i] != ':' {
				d.err = true
				return nil
			}
			d.i++
			v := d.value(depth + 1)
			if d.err {
				return nil
			}
			m[k] = v
			if !d.sep('}') {
				if d.err {
					return nil
				}
				return m
			}
		}
	case c == '[':
		d.i++
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == ']' {
			d.i++
			return []any{}
		}
		base := len(d.elems)
		for {
			v := d.value(depth + 1)
			if d.err {
				return nil
			}
			d.elems = append(d.elems, v)
			if !d.sep(']') {
				if d.err {
					return nil
				}
				list := append(make([]any, 0, len(d.elems)-base), d.elems[base:]...)
				d.elems = d.elems[:base]
				return list
			}
		}
	case c == '"':
		s, ok := d.str()
		if !ok {
			d.err = true
			return nil
		}
		return s
	case c == 't' || c == 'f' || c == 'n':
		return d.lit(c)
	case c == '-' || (c >= '0' && c <= '9'):
		return d.num()
	}
	d.err = true
	return nil
}

// sep reads what follows a member or an element: a ',' (more is true) or
// closer, the container's end; anything else sets d.err.
func (d *jsonDecoder) sep(closer byte) (more bool) {
	var ok bool
	d.i, more, ok = jsonwire.Separator(d.b, d.i, closer)
	d.err = d.err || !ok
	return more
}

// lit decodes the literal that starts with c at d.b[d.i].
func (d *jsonDecoder) lit(c byte) any {
	n := jsonwire.LiteralLen(d.b, d.i)
	if n == 0 {
		d.err = true
		return nil
	}
	d.i += n
	switch c {
	case 't':
		return true
	case 'f':
		return false
	}
	return nil
}

// num scans a JSON number (strict grammar).
func (d *jsonDecoder) num() any {
	start := d.i
	var st jsonwire.NumState
	if d.i, st = jsonwire.ScanNumber(d.b, d.i, jsonwire.NumStart); !st.Complete() {
		d.err = true
		return nil
	}
	return json.Number(d.b[start:d.i])
}

// str decodes a string literal starting at the opening quote.
func (d *jsonDecoder) str() (string, bool) {
	start := d.i + 1
	end, esc, ok := jsonwire.ScanString(d.b, start)
	if !ok {
		return "", false
	}
	d.i = end + 1
	if !esc {
		return string(d.b[start:end]), true
	}
	return jsonwire.Unescape(d.b[start:end])
}
