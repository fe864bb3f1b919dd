package parser

// A component is read at byte level in its canonical encoding (keys
// sorted at every depth, the last of equal keys kept, strings quoted as
// appendJSONString quotes them: what appendJSON writes for its decoding,
// see data_canon.go) where the outputs the golden hashes pin have it so
// (the reader keeps the order of the stream otherwise): a component with
// an empty child list or a template child
// list (entry_template.go), and one whose stream order the reader does
// not take: a key twice, more than maxFastKeys keys in an object, an
// escape in a key or an id (see needCanon). The component's bytes are
// rewritten in that encoding and read again, so that its child ids and
// empty lists are found where they are in those bytes.

import (
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// canonical rewrites the component just read, b (compFast with an empty
// list or a template, or compUnread with recanon), in its canonical encoding
// and reads that again. Invalid UTF-8 is compUnread (a stream's is an
// error before it reaches a component); bytes that are no JSON object
// (the read stopped before it could tell) are compInvalid.
func (c *compScanner) canonical(b []byte) int {
	src := c.out // (compFast: b, compact)
	if c.stopped {
		src = b
	}
	return c.reread(src, false)
}

// reread reads src again in its canonical encoding; unless force (which
// makes it a rewrite), a read whose bytes are already in that order is
// kept as it is (with its checkpoint).
func (c *compScanner) reread(src []byte, force bool) int {
	if !utf8.Valid(src) {
		c.stopped = true
		return compUnread
	}
	canon, ok := c.x().cw.canonical(c.x().canon[:0], src)
	c.x().canon = canon
	if !ok {
		// No JSON value of the decoder's grammar (a healed object the
		// read stopped in before it could tell): the message decoder
		// fails on it too.
		return compInvalid
	}
	if !force && !c.stopped && string(canon) == string(c.out) {
		return compFast // already in that order: the checkpoint stays good
	}
	rewrite := c.stopped || c.rewrote || force
	c.canonIn = true
	r := c.scan(canon, c.v08)
	c.canonIn, c.rewrote = false, rewrite && r == compFast
	// Checkpoints of the rewritten bytes are not offsets of the object.
	c.mk.at = atNone
	if r == compInvalid {
		return compUnread // (valid bytes the reader does not take)
	}
	return r
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
