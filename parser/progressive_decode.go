package parser

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonDecoder is a small strict JSON decoder into the generic data model
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
}

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
	d := jsonDecoder{b: b, known: known, base: base}
	d.ws()
	if d.i >= len(b) || b[d.i] != '{' {
		return nil, false
	}
	v := d.value(0)
	d.ws()
	if d.err || d.i != len(b) {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

const maxDecodeDepth = 10000

func (d *jsonDecoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

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
			d.ws()
			if d.i >= len(d.b) {
				d.err = true
				return nil
			}
			if d.b[d.i] == ',' {
				d.i++
				continue
			}
			if d.b[d.i] == '}' {
				d.i++
				return m
			}
			d.err = true
			return nil
		}
	case c == '[':
		d.i++
		list := make([]any, 0, 4)
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == ']' {
			d.i++
			return list
		}
		for {
			v := d.value(depth + 1)
			if d.err {
				return nil
			}
			list = append(list, v)
			d.ws()
			if d.i >= len(d.b) {
				d.err = true
				return nil
			}
			if d.b[d.i] == ',' {
				d.i++
				continue
			}
			if d.b[d.i] == ']' {
				d.i++
				return list
			}
			d.err = true
			return nil
		}
	case c == '"':
		s, ok := d.str()
		if !ok {
			d.err = true
			return nil
		}
		return s
	case c == 't':
		return d.lit("true", true)
	case c == 'f':
		return d.lit("false", false)
	case c == 'n':
		return d.lit("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return d.num()
	}
	d.err = true
	return nil
}

func (d *jsonDecoder) lit(word string, v any) any {
	if len(d.b)-d.i < len(word) || string(d.b[d.i:d.i+len(word)]) != word {
		d.err = true
		return nil
	}
	d.i += len(word)
	return v
}

// num scans a JSON number (strict grammar).
func (d *jsonDecoder) num() any {
	start := d.i
	b := d.b
	if b[d.i] == '-' {
		d.i++
	}
	if d.i >= len(b) {
		d.err = true
		return nil
	}
	switch {
	case b[d.i] == '0':
		d.i++
	case b[d.i] >= '1' && b[d.i] <= '9':
		for d.i < len(b) && b[d.i] >= '0' && b[d.i] <= '9' {
			d.i++
		}
	default:
		d.err = true
		return nil
	}
	if d.i < len(b) && b[d.i] == '.' {
		d.i++
		n := d.i
		for d.i < len(b) && b[d.i] >= '0' && b[d.i] <= '9' {
			d.i++
		}
		if d.i == n {
			d.err = true
			return nil
		}
	}
	if d.i < len(b) && (b[d.i] == 'e' || b[d.i] == 'E') {
		d.i++
		if d.i < len(b) && (b[d.i] == '+' || b[d.i] == '-') {
			d.i++
		}
		n := d.i
		for d.i < len(b) && b[d.i] >= '0' && b[d.i] <= '9' {
			d.i++
		}
		if d.i == n {
			d.err = true
			return nil
		}
	}
	return json.Number(b[start:d.i])
}

// str decodes a string literal starting at the opening quote.
func (d *jsonDecoder) str() (string, bool) {
	b := d.b
	d.i++
	start := d.i
	for d.i < len(b) {
		c := b[d.i]
		switch {
		case c == '"':
			s := string(b[start:d.i])
			d.i++
			return s, true
		case c == '\\':
			return d.strEscaped(start)
		case c < 0x20:
			return "", false
		}
		d.i++
	}
	return "", false
}

func (d *jsonDecoder) strEscaped(start int) (string, bool) {
	b := d.b
	out := make([]byte, 0, d.i-start+16)
	out = append(out, b[start:d.i]...)
	for d.i < len(b) {
		c := b[d.i]
		switch {
		case c == '"':
			d.i++
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			d.i++
			continue
		}
		d.i++
		if d.i >= len(b) {
			return "", false
		}
		e := b[d.i]
		d.i++
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if d.i+1 < len(b) && b[d.i] == '\\' && b[d.i+1] == 'u' {
					save := d.i
					d.i += 2
					if x, ok := d.hex4(); ok {
						r2 = x
					} else {
						d.i = save
					}
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					r = dec
				} else {
					if r2 >= 0 {
						d.i -= 6 // not a pair: the second escape stands alone
					}
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", false
		}
	}
	return "", false
}

func (d *jsonDecoder) hex4() (rune, bool) {
	if len(d.b)-d.i < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(d.b[d.i:d.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.i += 4
	return rune(v), true
}
