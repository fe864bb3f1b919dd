package deltaengine

import (
	"bytes"
	"slices"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// canonWriter writes compact JSON with the members of every object sorted
// by key, as the parser encodes a message it rebuilt. Its member list is
// reused from call to call (each object sorts its own segment of it).
type canonWriter struct {
	ms     []member
	str    []byte // a string's decoding
	ka, kb []byte // two keys' (see compareKeys)
	// prune: in the lists of entries of a v0.8 data model message (the
	// values of "contents" and "valueMap"), the elements that are not
	// entries yet are left out, as the reference prunes them: an entry is
	// an object with a "key" and another member. entry asks canonical to
	// check that of the object it writes next (it writes nothing if not).
	prune, entry bool
}

// hasLineSep reports whether b holds U+2028 or U+2029, which the parser
// writes escaped.
func hasLineSep(b []byte) bool {
	for {
		i := bytes.IndexByte(b, 0xe2)
		if i < 0 || i+2 >= len(b) {
			return false
		}
		if b[i+1] == 0x80 && (b[i+2] == 0xa8 || b[i+2] == 0xa9) {
			return true
		}
		b = b[i+1:]
	}
}

// member is an object member being sorted: its key (quoted) at k, its
// value at v (int32: a large object lists many).
type member struct{ k, v int32 }

// canonical appends to dst the value at src[i] of compact JSON (no space
// outside strings) in canonical form, and returns the end of the value in
// src.
func (w *canonWriter) canonical(dst, src []byte, i int) ([]byte, int) {
	switch src[i] {
	case '{':
		base, j := len(w.ms), i+1
		for src[j] != '}' {
			k := j
			j = jsonwire.StringEnd(src, j+1) + 1
			v := j + 1 // after the colon
			e := valueEnd(src, v)
			w.ms = append(w.ms, member{int32(k), int32(v)})
			if j = e; src[j] == ',' {
				j++
			}
		}
		seg := w.ms[base:]
		if w.entry {
			w.entry = false
			entry := false
			for _, m := range seg {
				entry = entry || string(src[m.k:m.v-1]) == `"key"` && len(seg) > 1
			}
			if !entry {
				w.ms = w.ms[:base]
				return dst, j + 1
			}
		}
		// Stable: of a key given twice, the last wins (as decoding it).
		slices.SortStableFunc(seg, func(a, b member) int {
			return w.compareKeys(src[a.k:a.v-1], src[b.k:b.v-1])
		})
		dst = append(dst, '{')
		first := true
		for n := base; n < len(w.ms); n++ {
			m := w.ms[n]
			if n+1 < len(w.ms) && w.compareKeys(src[m.k:m.v-1], src[w.ms[n+1].k:w.ms[n+1].v-1]) == 0 {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst, _ = w.canonical(dst, src, int(m.k)) // (its key decoded and written again)
			dst = append(dst, ':')
			if key := src[m.k+1 : m.v-2]; w.prune && src[m.v] == '[' && (string(key) == "contents" || string(key) == "valueMap") {
				dst = w.entries(dst, src, int(m.v))
				continue
			}
			dst, _ = w.canonical(dst, src, int(m.v))
		}
		w.ms = w.ms[:base]
		return append(dst, '}'), j + 1
	case '[':
		dst = append(dst, '[')
		j := i + 1
		for src[j] != ']' {
			if j > i+1 {
				dst = append(dst, ',')
			}
			dst, j = w.canonical(dst, src, j)
			if src[j] == ',' {
				j++
			}
		}
		return append(dst, ']'), j + 1
	case '"':
		e := jsonwire.StringEnd(src, i+1) + 1
		if bytes.IndexByte(src[i+1:e-1], '\\') < 0 && !hasLineSep(src[i+1:e-1]) {
			return append(dst, src[i:e]...), e
		}
		// Decoded and written again, as the parser writes the messages it
		// rebuilds (jsonwire.AppendQuoted).
		w.str, _, _ = jsonwire.AppendUnescaped(w.str[:0], src[i+1:e-1])
		return jsonwire.AppendQuoted(dst, string(w.str), false), e
	}
	e := i
	for e < len(src) && src[e] != ',' && src[e] != '}' && src[e] != ']' {
		e++
	}
	return append(dst, src[i:e]...), e
}

// compareKeys compares two keys (quoted) as decoded strings (so "a"
// comes before "a!": the quotes are not compared).
func (w *canonWriter) compareKeys(a, b []byte) int {
	if bytes.IndexByte(a, '\\') < 0 && bytes.IndexByte(b, '\\') < 0 {
		return bytes.Compare(a[1:len(a)-1], b[1:len(b)-1])
	}
	w.ka, _, _ = jsonwire.AppendUnescaped(w.ka[:0], a[1:len(a)-1])
	w.kb, _, _ = jsonwire.AppendUnescaped(w.kb[:0], b[1:len(b)-1])
	return bytes.Compare(w.ka, w.kb)
}

// emptyObjects returns how many empty objects ({}) b, compact JSON, holds
// outside its strings, and the offset of the last one (-1: none).
func emptyObjects(b []byte) (n, last int) {
	last = -1
	if !bytes.Contains(b, []byte("{}")) {
		return 0, -1 // (the common case, in one vectorized search)
	}
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = jsonwire.StringEnd(b, i+1)
		case '{':
			if i+1 < len(b) && b[i+1] == '}' {
				n, last = n+1, i
			}
		}
	}
	return n, last
}

// entries is canonical for a list of v0.8 data entries at src[i], with
// prune: its elements that are not entries yet left out.
func (w *canonWriter) entries(dst, src []byte, i int) []byte {
	dst = append(dst, '[')
	j, n := i+1, 0
	for src[j] != ']' {
		e := valueEnd(src, j)
		if src[j] == '{' {
			at := len(dst)
			if n > 0 {
				dst = append(dst, ',')
			}
			before := len(dst)
			w.entry = true
			if dst, _ = w.canonical(dst, src, j); len(dst) == before {
				dst = dst[:at] // no entry yet (canonical wrote nothing)
			} else {
				n++
			}
		}
		if j = e; src[j] == ',' {
			j++
		}
	}
	return append(dst, ']')
}
