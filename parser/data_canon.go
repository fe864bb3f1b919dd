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
			if i = jsonwire.SkipSpace(src, i); i >= len(src) {
				return dst, i, false
			}
			if src[i] == ',' {
				i = jsonwire.SkipSpace(src, i+1)
				continue
			}
			if src[i] != '}' {
				return dst, i, false
			}
			return append(w.sortMembers(dst, start, base), '}'), i + 1, true
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
			if i = jsonwire.SkipSpace(src, i); i >= len(src) {
				return dst, i, false
			}
			if src[i] == ',' {
				i = jsonwire.SkipSpace(src, i+1)
				continue
			}
			if src[i] != ']' {
				return dst, i, false
			}
			return append(dst, ']'), i + 1, true
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
	for j := i + 1; ; j++ {
		if j = jsonwire.PlainRun(src, j); j >= len(src) {
			return dst, j, false
		}
		switch c := src[j]; {
		case c == '"':
			if tok := src[i : j+1]; canonicalScalar(tok) {
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
	return bytes.Compare([]byte(decodeKey(a)), []byte(decodeKey(b)))
}

// keyString is the decoded value of a canonical key or string token.
func keyString(tok []byte) string {
	if bytes.IndexByte(tok, '\\') < 0 {
		return string(tok[1 : len(tok)-1])
	}
	return decodeKey(tok)
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
	a, b, ok := canonFind(obj, name)
	return obj[a:b], ok
}

// canonFind is canonGet returning where the value is: obj[a:b].
func canonFind(obj []byte, name string) (a, b int, ok bool) {
	if len(obj) == 0 || obj[0] != '{' {
		return 0, 0, false
	}
	for i := 1; ; {
		k, vb, ok := nextMember(obj, i)
		if !ok {
			return 0, 0, false
		}
		if k-i == len(name)+2 && string(obj[i+1:k-1]) == name {
			return k + 1, vb, true
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

// nextElem reads the element of the canonical list at list[i] (just after
// '[' or ','): list[i:end]. It reports false at the list's end.
func nextElem(list []byte, i int) (end int, ok bool) {
	if list[i] == ']' {
		return 0, false
	}
	return skipCompact(list, i), true
}

// isObject and isList report whether a canonical value is an object or a
// list.
func isObject(v []byte) bool { return len(v) > 0 && v[0] == '{' }
func isList(v []byte) bool   { return len(v) > 0 && v[0] == '[' }
