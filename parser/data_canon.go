package parser

// The canonical encoding of a JSON text, at byte level: what appendJSON
// writes for its decoding (object keys sorted, the last of equal keys
// kept, strings quoted as appendJSONString quotes them, numbers and
// literals as they are, no space), without decoding it into maps. A
// complete message is valid UTF-8 (the scanner checks it; a \u escape of a
// lone surrogate decodes as U+FFFD), so its canonical encoding is also
// its comparison encoding (see data_record.go). Complete data model
// messages are read in it (data_complete.go), and so is a v0.8 contents
// element that is not flat (data_elem.go).

import (
	"bytes"
	"iter"
	"slices"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// canonWriter writes canonical encodings; its fields are scratch.
type canonWriter struct {
	mem []canonMem // members of the objects being written
	tmp []byte     // an object's members while they are sorted
	unq []byte     // a string's decoded value
}

// canonMem is a member written at dst[a:b]: its key token dst[a:k], then
// ':' and its value.
type canonMem struct{ a, k, b int }

// canonical appends the canonical encoding of src (one JSON value,
// surrounding space allowed) to dst. It reports false when src is not one
// value of the grammar jsonDecoder accepts.
func (w *canonWriter) canonical(dst, src []byte) ([]byte, bool) {
	w.mem = w.mem[:0]
	dst, i, ok := w.value(dst, src, jsonwire.SkipSpace(src, 0), 0)
	return dst, ok && jsonwire.SkipSpace(src, i) == len(src)
}

// value appends the canonical encoding of the value at src[i] and returns
// the offset after it.
func (w *canonWriter) value(dst, src []byte, i, depth int) ([]byte, int, bool) {
	if depth > maxDecodeDepth || i >= len(src) {
		return dst, i, false
	}
	var ok bool
	switch c := src[i]; {
	case c == '{':
		base, start := len(w.mem), len(dst)
		dst = append(dst, '{')
		if i = jsonwire.SkipSpace(src, i+1); i < len(src) && src[i] == '}' {
			return append(dst, '}'), i + 1, true
		}
		for {
			if i >= len(src) || src[i] != '"' {
				return dst, i, false
			}
			if len(w.mem) > base {
				dst = append(dst, ',')
			}
			a := len(dst)
			if dst, i, ok = w.str(dst, src, i); !ok {
				return dst, i, false
			}
			k := len(dst)
			if i = jsonwire.SkipSpace(src, i); i >= len(src) || src[i] != ':' {
				return dst, i, false
			}
			dst = append(dst, ':')
			if dst, i, ok = w.value(dst, src, jsonwire.SkipSpace(src, i+1), depth+1); !ok {
				return dst, i, false
			}
			w.mem = append(w.mem, canonMem{a, k, len(dst)})
			var more bool
			if i, more, ok = jsonwire.Separator(src, i, '}'); !ok {
				return dst, i, false
			}
			if more {
				i = jsonwire.SkipSpace(src, i)
				continue
			}
			return append(w.sortMembers(dst, start, base), '}'), i, true
		}
	case c == '[':
		dst = append(dst, '[')
		if i = jsonwire.SkipSpace(src, i+1); i < len(src) && src[i] == ']' {
			return append(dst, ']'), i + 1, true
		}
		for n := 0; ; n++ {
			if n > 0 {
				dst = append(dst, ',')
			}
			if dst, i, ok = w.value(dst, src, i, depth+1); !ok {
				return dst, i, false
			}
			var more bool
			if i, more, ok = jsonwire.Separator(src, i, ']'); !ok {
				return dst, i, false
			}
			if more {
				i = jsonwire.SkipSpace(src, i)
				continue
			}
			return append(dst, ']'), i, true
		}
	case c == '"':
		return w.str(dst, src, i)
	case c == 't' || c == 'f' || c == 'n':
		n := jsonwire.LiteralLen(src, i)
		return append(dst, src[i:i+n]...), i + n, n > 0
	case c == '-' || c >= '0' && c <= '9':
		j, st := jsonwire.ScanNumber(src, i, jsonwire.NumStart)
		return append(dst, src[i:j]...), j, st.Complete()
	}
	return dst, i, false
}

// str appends the canonical encoding of the string token at src[i].
func (w *canonWriter) str(dst, src []byte, i int) ([]byte, int, bool) {
	ascii := true
	for j := i + 1; ; j++ {
		if j = jsonwire.PlainRun(src, j); j >= len(src) {
			return dst, j, false
		}
		switch c := src[j]; {
		case c == '"':
			// Without an escape and U+2028 or U+2029 (non-ASCII), the
			// token is its own canonical encoding.
			if tok := src[i : j+1]; ascii || canonicalScalar(tok) {
				return append(dst, tok...), j + 1, true
			}
			return appendJSONString(dst, string(src[i+1:j])), j + 1, true
		case c == '\\':
			out, n, ok := jsonwire.AppendUnescaped(w.unq[:0], src[i+1:])
			w.unq = out
			if end := i + 1 + n; ok && end < len(src) {
				return appendJSONString(dst, string(out)), end + 1, true
			}
			return dst, j, false
		case c < 0x20:
			return dst, j, false
		default:
			ascii = false
		}
	}
}

// sortMembers puts the members w.mem[base:] of the object written from
// dst[start] ('{') in key order, keeping the last of equal keys.
func (w *canonWriter) sortMembers(dst []byte, start, base int) []byte {
	ms := w.mem[base:]
	defer func() { w.mem = w.mem[:base] }()
	sorted := true
	for j := 1; j < len(ms) && sorted; j++ {
		sorted = compareKeys(dst[ms[j-1].a:ms[j-1].k], dst[ms[j].a:ms[j].k]) < 0
	}
	if sorted {
		return dst
	}
	slices.SortStableFunc(ms, func(x, y canonMem) int { return compareKeys(dst[x.a:x.k], dst[y.a:y.k]) })
	off := start + 1
	w.tmp = append(w.tmp[:0], dst[off:]...)
	dst = dst[:off]
	for j, m := range ms {
		if j+1 < len(ms) && compareKeys(w.tmp[m.a-off:m.k-off], w.tmp[ms[j+1].a-off:ms[j+1].k-off]) == 0 {
			continue // a later member of the same key wins
		}
		if len(dst) > off {
			dst = append(dst, ',')
		}
		dst = append(dst, w.tmp[m.a-off:m.b-off]...)
	}
	return dst
}

// compareKeys compares two canonical key tokens by their decoded values.
func compareKeys(a, b []byte) int {
	if bytes.IndexByte(a, '\\') < 0 && bytes.IndexByte(b, '\\') < 0 {
		return bytes.Compare(a[1:len(a)-1], b[1:len(b)-1])
	}
	// Decoded into storage on the stack (most keys fit): a sort compares
	// each key O(log n) times.
	var sa, sb [128]byte
	da, _, _ := jsonwire.AppendUnescaped(sa[:0], a[1:len(a)-1])
	db, _, _ := jsonwire.AppendUnescaped(sb[:0], b[1:len(b)-1])
	return bytes.Compare(da, db)
}

// keyString is the decoded value of a complete key or string token.
func keyString(tok []byte) string {
	if bytes.IndexByte(tok, '\\') < 0 {
		return string(tok[1 : len(tok)-1])
	}
	d := jsonDecoder{b: tok}
	s, _ := d.str()
	return s
}

// nextMember reads the member of the canonical object obj at obj[i] (just
// after '{' or ','): its key token obj[i:k] and value obj[k+1:vb]. It
// reports false at the object's end.
func nextMember(obj []byte, i int) (k, vb int, ok bool) {
	if obj[i] == '}' {
		return 0, 0, false
	}
	k = jsonwire.StringEnd(obj, i+1) + 1
	return k, skipCompact(obj, k+1), true
}

// canonGet returns the value of the member named name (a name that needs
// no escape) of the canonical object obj.
func canonGet(obj []byte, name string) ([]byte, bool) {
	if len(obj) == 0 || obj[0] != '{' {
		return nil, false
	}
	for i := 1; ; {
		k, vb, ok := nextMember(obj, i)
		if !ok {
			return nil, false
		}
		if k-i == len(name)+2 && string(obj[i+1:k-1]) == name {
			return obj[k+1 : vb], true
		}
		if i = vb; obj[i] == ',' {
			i++
		}
	}
}

// canonString returns the decoded value of v when it is a string token.
func canonString(v []byte, ok bool) (string, bool) {
	if !ok || v[0] != '"' {
		return "", false
	}
	return keyString(v), true
}

// elems yields the elements of the canonical list, in order.
func elems(list []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for i := 1; list[i] != ']'; {
			end := skipCompact(list, i)
			if !yield(list[i:end]) {
				return
			}
			if i = end; list[i] == ',' {
				i++
			}
		}
	}
}

// keyedEntries yields the elements of the canonical v0.8 contents list
// that are objects with a non-empty string "key", each with its key token.
func keyedEntries(list []byte) iter.Seq2[[]byte, []byte] {
	return func(yield func(el, tok []byte) bool) {
		for el := range elems(list) {
			if !isObject(el) {
				continue
			}
			if tok, ok := canonGet(el, "key"); ok && tok[0] == '"' && len(tok) > 2 && !yield(el, tok) {
				return
			}
		}
	}
}

// isObject and isList report whether a canonical value is an object or a
// list.
func isObject(v []byte) bool { return len(v) > 0 && v[0] == '{' }
func isList(v []byte) bool   { return len(v) > 0 && v[0] == '[' }

// msgLayout is where the members of a canonical message are, and those of
// its body under one kind, each read once.
type msgLayout struct {
	msg  []byte
	top  []canonMem // the message's members (offsets in msg)
	kind string     // the kind whose body was read ("": none)
	ok   bool       // that body is an object
	// The body, msg[a:b], and its members.
	a, b int
	body []canonMem
}

// read makes l the layout of msg.
func (l *msgLayout) read(msg []byte) {
	l.msg, l.top, l.kind, l.ok = msg, readMembers(msg, 0, l.top[:0]), "", false
}

// done drops the message (which may be large) once yielded.
func (l *msgLayout) done() {
	l.msg, l.kind, l.ok = nil, "", false
	l.top, l.body = shrink(l.top[:0], keepScratch), shrink(l.body[:0], keepScratch)
}

// readMembers appends the members of the canonical object at obj[a].
func readMembers(obj []byte, a int, dst []canonMem) []canonMem {
	for i := a + 1; ; {
		k, vb, ok := nextMember(obj, i)
		if !ok {
			return dst
		}
		dst = append(dst, canonMem{i, k, vb})
		if i = vb; obj[i] == ',' {
			i++
		}
	}
}

// lookupMember returns the value of the member named name (a name that needs
// no escape) among mems, members of obj.
func lookupMember(obj []byte, mems []canonMem, name string) ([]byte, bool) {
	for _, m := range mems {
		if m.k-m.a == len(name)+2 && string(obj[m.a+1:m.k-1]) == name {
			return obj[m.k+1 : m.b], true
		}
	}
	return nil, false
}

// get returns the value of the message's member named name.
func (l *msgLayout) get(name string) ([]byte, bool) { return lookupMember(l.msg, l.top, name) }

// bodyOf reads the body under kind, reporting false when the message has
// none that is an object.
func (l *msgLayout) bodyOf(kind string) bool {
	if l.kind == kind {
		return l.ok
	}
	l.kind, l.ok = kind, false
	if v, ok := l.get(kind); ok && isObject(v) {
		l.a, l.b = l.offset(v), l.offset(v)+len(v)
		l.body = readMembers(l.msg, l.a, l.body[:0])
		l.ok = true
	}
	return l.ok
}

// offset is the offset in the message of v, a slice of it.
func (l *msgLayout) offset(v []byte) int { return cap(l.msg) - cap(v) }

// bodyGet returns the value of the body's member named name.
func (l *msgLayout) bodyGet(name string) ([]byte, bool) { return lookupMember(l.msg, l.body, name) }

// slot is the surface and path the body addresses, for the record of
// yielded data.
func (l *msgLayout) slot() dataSlot {
	s, _ := canonString(l.bodyGet("surfaceId"))
	p, _ := canonString(l.bodyGet("path"))
	return dataSlot{s, p}
}

// appendReplaced appends the message with the member field of its body
// replaced by val, and with setPath the body's path set to path (in its
// place in key order).
func (l *msgLayout) appendReplaced(dst []byte, field string, val []byte, path string, setPath bool) []byte {
	msg := l.msg
	dst = append(append(dst, msg[:l.a]...), '{')
	n := 0
	for j := 0; ; j++ {
		done := j == len(l.body)
		var m canonMem
		if !done {
			m = l.body[j]
		}
		if setPath && (done || compareKeys(msg[m.a:m.k], []byte(`"path"`)) >= 0) {
			if n > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(append(dst, `"path":`...), path)
			n++
			setPath = false
			if !done && string(msg[m.a:m.k]) == `"path"` {
				continue
			}
		}
		if done {
			break
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(dst, msg[m.a:m.k+1]...)
		if string(msg[m.a:m.k]) == `"`+field+`"` {
			dst = append(dst, val...)
		} else {
			dst = append(dst, msg[m.k+1:m.b]...)
		}
	}
	return append(append(dst, '}'), msg[l.b:]...)
}
