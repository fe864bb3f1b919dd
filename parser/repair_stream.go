package parser

import (
	"unicode"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// payloadRepairer gives the content of a streamed block the repairs
// FixPayload gives a whole payload (see WithPayloadRepair), as the bytes
// arrive; the parser passes it each block's content, from the framing, and
// ends it at the block's end:
//
//   - typographic double quotes used as string delimiters become ASCII
//     quotes (and an ASCII quote inside such a string is escaped);
//   - typographic single quotes become ASCII apostrophes, inside strings
//     too;
//   - a trailing comma before '}' or ']' is dropped (never a comma inside a
//     string);
//   - a Unicode space (unicode.IsSpace, other than JSON's four) outside the
//     block's top-level JSON values, before or after them, becomes an
//     ASCII space: the fixer trims such spaces from the ends of a payload,
//     and the parser skips ASCII ones there (inside a value they stay, and
//     fail there as in the whole answer).
//
// Markdown fence markers pass unchanged (from a backtick outside a string
// to the end of its line or the first '[' or '{', the markers the parser
// skips and the whole-answer path strips before repairing). The repairs
// are those of one left-to-right pass, so the bytes passed on are the same
// however the block is chunked, and they are those of the fixer's pass
// over the whole payload but for the spaces it trims and one thing more: a
// comma outside a string is set down after the whitespace that follows it
// (right before the next byte, once that byte shows that the comma is not
// a trailing one), so that the whitespace, however long, is passed on at
// once and nothing but the comma waits for it. The JSON is the same, and
// so are the messages in every mode but complete, whose messages are the
// bytes passed on and so have the whitespace before the comma. Output
// waits only for what decides a repair: that comma, and the rest of a
// UTF-8 character that may be a typographic quote (at most 3 bytes held).
type payloadRepairer struct {
	out     []byte // output of the last call, reused
	scratch []byte // held bytes followed by the chunk
	held    []byte // unprocessed bytes kept for the next call

	// Fixer state (of the current block).
	inString    bool // in a JSON string
	comma       bool // a comma outside a string, not passed on yet
	smartOpened bool // the string was opened by a typographic quote
	escaped     bool // the previous byte was a backslash in a string
	fence       bool // in a markdown fence marker
	depth       int  // open '[' and '{' outside strings (never below 0)
}

// feed repairs the next bytes of the block and returns those ready for
// the parser, valid until the next call.
func (r *payloadRepairer) feed(seg []byte) []byte {
	data := seg
	if len(r.held) > 0 {
		r.scratch = append(append(r.scratch[:0], r.held...), seg...)
		r.held = r.held[:0]
		data = r.scratch
	}
	r.out = r.out[:0]
	for i := 0; i < len(data); {
		// Runs of bytes that need no repair are copied at once.
		n := 0
		switch {
		case r.inString && !r.escaped:
			n = plainStringRun(data[i:])
		case !r.inString && !r.comma && !r.fence:
			n = plainJSONRun(data[i:])
		}
		if n > 0 {
			r.out = append(r.out, data[i:i+n]...)
			i += n
			continue
		}
		n, hold := r.blockByte(data, i)
		if hold {
			r.held = append(r.held, data[i:]...)
			break
		}
		i += n
	}
	return r.out
}

// end returns, at the end of the block, the bytes still held, unrepaired
// (as the fixer leaves a comma or a partial character at the end of a
// payload), valid until the next call, and starts afresh for the next
// block.
func (r *payloadRepairer) end() []byte {
	r.out = r.out[:0]
	if r.comma {
		r.out = append(r.out, ',')
	}
	r.out = append(r.out, r.held...)
	r.held = r.held[:0]
	r.inString, r.comma, r.smartOpened, r.escaped, r.fence, r.depth = false, false, false, false, false, 0
	return r.out
}

// blockByte repairs the block bytes starting at data[i], appending them to
// r.out, and returns how many it consumed, or hold when they cannot be
// decided before more bytes arrive.
func (r *payloadRepairer) blockByte(data []byte, i int) (n int, hold bool) {
	c := data[i]
	switch {
	case r.escaped:
		// The byte after a backslash is copied, whatever it is.
		r.escaped = false
		r.out = append(r.out, c)
		return 1, false
	case r.fence:
		if c != '\n' && c != '[' && c != '{' {
			r.out = append(r.out, c)
			return 1, false
		}
		r.fence = false // the byte that ends the marker is JSON (or whitespace)
	case r.comma:
		// Whitespace after a comma goes on at once; the first other byte
		// decides the comma, which goes before it unless it is trailing.
		if jsonwire.IsSpace(c) {
			r.out = append(r.out, c)
			return 1, false
		}
		r.comma = false
		if c != '}' && c != ']' {
			r.out = append(r.out, ',')
		}
	}
	if c >= utf8.RuneSelf {
		return r.runeBytes(data, i)
	}
	switch {
	case r.inString && c == '\\':
		r.escaped = true
	case c == '"':
		if r.inString && r.smartOpened {
			// An ASCII quote inside a string a typographic quote opened.
			r.out = append(r.out, '\\', '"')
			return 1, false
		}
		r.inString, r.smartOpened = !r.inString, false
	case !r.inString && c == ',':
		r.comma = true // set down at the next byte that is not whitespace
		return 1, false
	case !r.inString && c == '`':
		r.fence = true
	case !r.inString && (c == '[' || c == '{'):
		r.depth++
	case !r.inString && (c == ']' || c == '}'):
		r.depth = max(r.depth-1, 0)
	case !r.inString && r.depth == 0 && (c == '\v' || c == '\f'):
		c = ' ' // a space the fixer trims (see payloadRepairer)
	}
	r.out = append(r.out, c)
	return 1, false
}

// runeBytes repairs the UTF-8 sequence at data[i] (or a byte that starts
// none), as blockByte.
func (r *payloadRepairer) runeBytes(data []byte, i int) (n int, hold bool) {
	if !utf8.FullRune(data[i:]) {
		return 0, true
	}
	q, size := utf8.DecodeRune(data[i:])
	switch {
	case q == leftSingle || q == rightSingle:
		r.out = append(r.out, '\'')
	case !r.inString && (q == leftDouble || q == rightDouble):
		r.out = append(r.out, '"')
		r.inString, r.smartOpened = true, true
	case r.inString && r.smartOpened && q == rightDouble:
		r.out = append(r.out, '"')
		r.inString, r.smartOpened = false, false
	case !r.inString && r.depth == 0 && unicode.IsSpace(q):
		r.out = append(r.out, ' ') // a space the fixer trims
	default:
		r.out = append(r.out, data[i:i+size]...)
	}
	return size, false
}

// plainStringRun returns the length of the run of string bytes at the start
// of b that the repairer copies as they are: ASCII other than a quote or a
// backslash.
func plainStringRun(b []byte) int {
	for i, c := range b {
		if c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return i
		}
	}
	return len(b)
}

// plainJSONRun returns the length of the run of bytes outside strings at
// the start of b that the repairer copies as they are (with no comma
// pending): JSON whitespace, ':' and the bytes of numbers and literals,
// anything ASCII but a quote, a comma, a backtick, a bracket or brace and
// the two spaces it replaces.
func plainJSONRun(b []byte) int {
	for i, c := range b {
		switch c {
		case '"', ',', '`', '[', ']', '{', '}', '\v', '\f':
			return i
		}
		if c >= utf8.RuneSelf {
			return i
		}
	}
	return len(b)
}
