package parser

// A component with an empty child list or a template child list
// (entry_template.go) is read at byte level, but kept in
// the encoding the generic path gives it: the generic path held such a
// component as its decoded map, which is written with its keys sorted
// (appendJSON), while the byte-level path keeps the order of the stream.
// The outputs stay byte for byte what they were: the component's bytes are
// rewritten in that canonical encoding (keys sorted at every depth) and
// read again, so that its child ids and empty lists are found where they
// are in those bytes.

import (
	"slices"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// canonMember is a member of an object being rewritten: its key (with the
// quotes) at src[ka:va-1] and its value at src[va:vb].
type canonMember struct{ ka, va, vb int }

// canonical rewrites the component just read (compFast, with an empty
// list or a template) in its canonical encoding and reads that again. A
// string (key or value) that is not its own canonical encoding (an escape, U+2028 or
// U+2029, invalid UTF-8) takes the generic path instead.
func (c *compScanner) canonical() int {
	if !utf8.Valid(c.out) {
		c.slow = true
		return compSlow
	}
	canon, _, ok := c.canonValue(c.canon[:0], c.out, 0)
	c.canon = canon
	if !ok {
		c.slow = true
		return compSlow
	}
	if string(canon) == string(c.out) {
		return compFast // already in that order: the checkpoint stays good
	}
	v08 := c.v08
	r := c.scan(canon, v08)
	// Checkpoints of the rewritten bytes are not offsets of the object.
	c.mk.at = atNone
	return r
}

// canonValue appends the canonical encoding of the compact, valid JSON
// value at src[i] (no escape in a key: the scanner sends those to the
// generic path) and returns the offset after it.
func (c *compScanner) canonValue(dst, src []byte, i int) ([]byte, int, bool) {
	switch src[i] {
	case '{':
		base := len(c.members)
		j := i + 1
		for src[j] != '}' {
			ka := j
			j = jsonwire.StringEnd(src, j+1) + 2 // past the quote and ':'
			if !canonicalScalar(src[ka : j-1]) {
				c.members = c.members[:base]
				return dst, 0, false
			}
			vb := skipCompact(src, j)
			c.members = append(c.members, canonMember{ka, j, vb})
			if j = vb; src[j] == ',' {
				j++
			}
		}
		ms := c.members[base:]
		slices.SortFunc(ms, func(a, b canonMember) int {
			ka, kb := src[a.ka+1:a.va-2], src[b.ka+1:b.va-2]
			switch {
			case string(ka) < string(kb):
				return -1
			case string(ka) > string(kb):
				return 1
			}
			return 0
		})
		dst = append(dst, '{')
		for n := range len(ms) {
			m := c.members[base+n] // (c.members may grow below)
			if n > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, src[m.ka:m.va]...)
			var ok bool
			if dst, _, ok = c.canonValue(dst, src, m.va); !ok {
				c.members = c.members[:base]
				return dst, 0, false
			}
		}
		c.members = c.members[:base]
		return append(dst, '}'), j + 1, true
	case '[':
		dst = append(dst, '[')
		j := i + 1
		for src[j] != ']' {
			if j > i+1 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, j, ok = c.canonValue(dst, src, j); !ok {
				return dst, 0, false
			}
			if src[j] == ',' {
				j++
			}
		}
		return append(dst, ']'), j + 1, true
	}
	j := skipCompact(src, i)
	if src[i] == '"' && !canonicalScalar(src[i:j]) {
		return dst, 0, false
	}
	return append(dst, src[i:j]...), j, true
}

// skipCompact returns the offset after the compact, valid JSON value at
// src[i].
func skipCompact(src []byte, i int) int {
	depth := 0
	for {
		switch ch := src[i]; ch {
		case '"':
			i = jsonwire.StringEnd(src, i+1) + 1
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		default:
			// A number or a literal, up to the next delimiter (the
			// value's end or a container's).
			for i++; i < len(src) && src[i] != ',' && src[i] != '}' && src[i] != ']' && src[i] != ':'; i++ {
			}
		}
		if depth == 0 {
			return i
		}
		if src[i] == ',' || src[i] == ':' {
			i++
		}
	}
}
