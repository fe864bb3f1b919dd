package parser

// Data model members read as the reference reads them: data
// entries that are their own canonical encoding, and v0.8 contents
// elements, at byte level when they are flat.

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// canonicalScalar reports whether b, a valid JSON value in valid UTF-8, is
// its own canonical encoding (what appendJSON writes for its decoding): a
// number or literal, or a string without escapes and without the
// characters appendJSONString escapes (U+2028 and U+2029; control
// characters cannot be in a valid string).
func canonicalScalar(b []byte) bool {
	switch b[0] {
	case '{', '[':
		return false
	case '"':
		if bytes.IndexByte(b, '\\') >= 0 {
			return false
		}
		for i := bytes.IndexByte(b, 0xE2); i >= 0 && i+2 < len(b); {
			if b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
				return false
			}
			j := bytes.IndexByte(b[i+1:], 0xE2)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return true
}

// readElement reads a v0.8 contents element (valid JSON) as
// contentsToDict, latestEntries and pruneEntries do.
func (r *dataReader) readElement(b []byte) (dataElem, bool) {
	if el, ok := r.flatElement(b); ok {
		return el, true
	}
	v, ok := decodeValue(b)
	if !ok {
		return dataElem{}, false
	}
	return r.element(v), true
}

// flatMember is a member of a flat element: its name and value tokens.
type flatMember struct{ name, val []byte }

// flatElement is readElement, without decoding, for the usual element: an
// object of at most 8 members with distinct names, scalar values, no
// valueMap, no escapes and nothing appendJSON would write differently. It
// reports false for any other (the caller decodes it).
func (r *dataReader) flatElement(b []byte) (dataElem, bool) {
	if !utf8.Valid(b) {
		return dataElem{}, false
	}
	ms := r.flat[:0]
	i := jsonwire.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return dataElem{}, false
	}
	i = jsonwire.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		i++
	} else {
		for {
			j := flatString(b, i)
			if j < 0 {
				return dataElem{}, false
			}
			name := b[i:j]
			if i = jsonwire.SkipSpace(b, j); i >= len(b) || b[i] != ':' {
				return dataElem{}, false
			}
			i = jsonwire.SkipSpace(b, i+1)
			if j = flatScalar(b, i); j < 0 {
				return dataElem{}, false
			}
			val := b[i:j]
			inner := string(name[1 : len(name)-1])
			if inner == "valueMap" || len(ms) == 8 || !canonicalScalar(name) || !canonicalScalar(val) {
				return dataElem{}, false
			}
			for _, m := range ms {
				if string(m.name) == string(name) {
					return dataElem{}, false
				}
			}
			ms = append(ms, flatMember{name, val})
			if i = jsonwire.SkipSpace(b, j); i >= len(b) {
				return dataElem{}, false
			}
			if b[i] == '}' {
				i++
				break
			}
			if b[i] != ',' {
				return dataElem{}, false
			}
			i = jsonwire.SkipSpace(b, i+1)
		}
	}
	r.flat = ms
	if jsonwire.SkipSpace(b, i) != len(b) {
		return dataElem{}, false
	}
	get := func(name string) ([]byte, bool) {
		for _, m := range ms {
			if string(m.name[1:len(m.name)-1]) == name {
				return m.val, true
			}
		}
		return nil, false
	}
	var el dataElem
	keyTok, hasKey := get("key")
	keyed := hasKey && keyTok[0] == '"'
	if keyed {
		el.key = string(keyTok[1 : len(keyTok)-1])
	}
	// entryValue: the first of these present, unless null.
	hasVal := false
	for _, vk := range [...]string{"value", "valueString", "valueNumber", "valueBoolean"} {
		if v, ok := get(vk); ok {
			hasVal = true
			if string(v) != "null" {
				el.hasVal, el.cmp = true, string(v)
			}
			break
		}
	}
	// pruneEntries keeps an element with a key and a value member, which
	// appendJSON writes with its members sorted.
	if hasVal && hasKey {
		slices.SortFunc(ms, func(a, b flatMember) int { return bytes.Compare(a.name[1:len(a.name)-1], b.name[1:len(b.name)-1]) })
		out := append(r.enc[:0], '{')
		for k, m := range ms {
			if k > 0 {
				out = append(out, ',')
			}
			out = append(append(append(out, m.name...), ':'), m.val...)
		}
		r.enc = append(out, '}')
		el.pruned = &encodedValue{out: string(r.enc), key: el.key, keyed: keyed}
	}
	clear(ms)
	return el, true
}

// flatString returns the index just past the string token at b[i], or -1
// when there is none or it holds an escape or a control character.
func flatString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for j := i + 1; ; j++ {
		if j = jsonwire.PlainRun(b, j); j >= len(b) {
			return -1
		}
		switch c := b[j]; {
		case c == '"':
			return j + 1
		case c == '\\' || c < 0x20:
			return -1
		}
	}
}

// flatScalar returns the index just past the string, number or literal at
// b[i], or -1 when there is none (or a string with an escape).
func flatScalar(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return flatString(b, i)
	case c == 't', c == 'f', c == 'n':
		if n := jsonwire.LiteralLen(b, i); n > 0 {
			return i + n
		}
		return -1
	case c == '-' || c >= '0' && c <= '9':
		j, s := jsonwire.ScanNumber(b, i, jsonwire.NumStart)
		if !s.Complete() {
			return -1
		}
		return j
	}
	return -1
}

// element reads a decoded v0.8 contents element as contentsToDict,
// latestEntries and pruneEntries do.
func (r *dataReader) element(v any) dataElem {
	entry, ok := v.(map[string]any)
	if !ok {
		return dataElem{}
	}
	var el dataElem
	el.key, _ = entry["key"].(string)
	val := entryValue(entry)
	if val != nil {
		el.hasVal = true
		el.cmp = string(appendCmp(r.enc[:0], val))
	}
	if p := pruneEntries([]any{entry}); len(p) == 1 {
		key, keyed := entry["key"].(string)
		el.pruned = &encodedValue{out: string(appendJSON(r.enc[:0], p[0])), key: key, keyed: keyed}
	}
	return el
}

// decodeValue decodes b as exactly one JSON value.
func decodeValue(b []byte) (any, bool) {
	d := jsonDecoder{b: b}
	v := d.value(0)
	d.ws()
	if d.err || d.i != len(b) {
		return nil, false
	}
	return v, true
}
