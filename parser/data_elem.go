package parser

// Data model members read as the reference reads them: data
// entries that are their own canonical encoding, and v0.8 contents
// elements, at byte level when they are flat.

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
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
// contentsToDict, latestEntries and pruneEntries do (see canonElement):
// flatElement reads the usual one in place, canonElement any other in its
// canonical encoding.
// The element's strings are in b or in the reader's scratch, valid until
// the next read (addElem copies them, clone too).
func (r *dataReader) readElement(b []byte) (dataElem, bool) {
	if el, ok := r.flatElement(b); ok {
		return el, true
	}
	c, ok := r.cw.canonical(r.canon[:0], b)
	r.canon = c
	if !ok {
		return dataElem{}, false
	}
	return r.canonElement(c), true
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
	// entryValue: the first of these present, unless null.
	var val []byte
	for _, vk := range [...]string{"value", "valueString", "valueNumber", "valueBoolean"} {
		if v, ok := get(vk); ok {
			val = v
			break
		}
	}
	el.hasVal = val != nil && string(val) != "null"
	if val == nil || !hasKey {
		if keyed {
			el.key = view(keyTok[1 : len(keyTok)-1])
		}
		if el.hasVal {
			el.cmp = view(val)
		}
		clear(ms)
		return el, true
	}
	// pruneEntries keeps an element with a key and a value member, which
	// appendJSON writes with its members sorted; the key and the value
	// are the bytes of its tokens there (held once, see slab).
	slices.SortFunc(ms, func(a, b flatMember) int { return bytes.Compare(a.name[1:len(a.name)-1], b.name[1:len(b.name)-1]) })
	out := append(r.enc[:0], '{')
	var ka, va int
	for k, m := range ms {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(append(out, m.name...), ':')
		switch &m.val[0] { // (a scalar token is never empty)
		case &keyTok[0]:
			ka = len(out)
		case &val[0]:
			va = len(out)
		}
		out = append(out, m.val...)
	}
	r.enc = append(out, '}')
	el.pruned = view(r.enc)
	if keyed {
		el.key = el.pruned[ka+1 : ka+len(keyTok)-1]
	}
	if el.hasVal {
		el.cmp = el.pruned[va : va+len(val)]
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
	if end, esc, ok := jsonwire.ScanString(b, i+1); ok && !esc {
		return end + 1
	}
	return -1
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

// canonElement reads a v0.8 contents element in canonical encoding as
// the reference's contentsToDict, latestEntries and pruneEntries do: its
// string "key", its value (entryValue) and the element as pruneEntries
// leaves it.
func (r *dataReader) canonElement(el []byte) dataElem {
	if !isObject(el) {
		return dataElem{}
	}
	var out dataElem
	key, _ := canonString(canonGet(el, "key"))
	out.key = key
	// Its strings are views of r.canon past el, which the next read
	// writes over (see readElement).
	a := len(r.canon)
	var ok bool
	if r.canon, ok = r.cw.appendEntryValue(r.canon, el); ok {
		out.hasVal = true
	} else {
		r.canon = r.canon[:a]
	}
	b := len(r.canon)
	if r.canon, ok = deltaengine.PrunedEntry(r.canon, el, 0); ok {
		out.pruned = view(r.canon[b:])
	}
	if out.hasVal {
		out.cmp = view(r.canon[a:b])
	}
	return out
}

// appendEntryValue appends the value contentsToDict reads from the v0.8
// data entry el (canonical): the first of value, valueString, valueNumber
// and valueBoolean it has (stopping at a null one), else its valueMap
// flattened (appendFlat). It reports false when there is none.
func (w *canonWriter) appendEntryValue(dst, el []byte) ([]byte, bool) {
	for _, vk := range [...]string{"value", "valueString", "valueNumber", "valueBoolean"} {
		if v, ok := canonGet(el, vk); ok {
			if string(v) != "null" {
				return append(dst, v...), true
			}
			break
		}
	}
	if vm, ok := canonGet(el, "valueMap"); ok {
		return w.appendFlat(dst, vm), true
	}
	return dst, false
}

// appendFlat appends v0.8 contents vm (canonical) flattened as
// contentsToDict does: an object as it is; a list of entries as the
// object of each keyed entry's value (appendEntryValue), the last of a key
// winning; anything else as an empty object.
func (w *canonWriter) appendFlat(dst, vm []byte) []byte {
	switch {
	case isObject(vm):
		return append(dst, vm...)
	case !isList(vm):
		return append(dst, "{}"...)
	}
	base, start := len(w.mem), len(dst)
	dst = append(dst, '{')
	for el, tok := range keyedEntries(vm) {
		pre := len(dst)
		if len(w.mem) > base {
			dst = append(dst, ',')
		}
		a := len(dst)
		dst = append(append(dst, tok...), ':')
		var ok bool
		if dst, ok = w.appendEntryValue(dst, el); !ok {
			dst = dst[:pre]
			continue
		}
		w.mem = append(w.mem, canonMem{a, a + len(tok), len(dst)})
	}
	return append(w.sortMembers(dst, start, base), '}')
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
