package parser

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/a2ui-stream/a2ui-stream/internal/jsonwire"
)

// scanner is an incremental JSON structure scanner over a block's content.
//
// It finds the top-level A2UI messages of a block, each either an element
// object of a top-level array or a bare object, and reports each the moment
// its closing brace arrives. Its state survives segment boundaries, so each
// byte is looked at once however the input is chunked; only the bytes of the
// message in progress are buffered. Whitespace, commas between messages and,
// outside a message list, markdown fence markers are skipped; anything else
// there is a syntax error. A fence marker starts with a backtick and runs to
// the end of its line or up to the first '[' or '{', excluded: ```json and
// ``` lines, and also ```json [ … ] ``` on one line, which gives its
// messages. A block that holds fence markers and neither a message nor a
// message list is a syntax error (see fenceOnly): ```json garbage is not
// silently empty.
//
// Inside a message the scanner checks the JSON grammar and UTF-8 in the same
// pass (see scanner_validate.go). A message that passes is emitted as is. A
// message that fails is scanned for its structure only (scanLoose) until it
// ends, and is then checked once more by check, which gives the error its
// exact message and offset. Either way the cost stays linear in the input.
type scanner struct {
	maxDepth int

	stack  []byte // open containers: '{' or '['; stack[0] is the list when inList
	inList bool   // a top-level array of messages is open
	inMsg  bool   // inside a message
	fence  bool   // in a fence marker between messages
	done   bool   // the last call returned a message held in buf

	// Grammar state of the message in progress (scanner_validate.go).
	loose    bool              // the message broke the grammar: structure only
	looseAt  int64             // stream offset of the byte the grammar rejected (when loose)
	looseVs  uint8             // the grammar state that rejected it (scanner_tail.go)
	looseTop byte              // the innermost open container then
	vs       uint8             // grammar state
	strEnd   uint8             // grammar state after the current string's closing quote
	aux      uint8             // literal position, hex digits or UTF-8 bytes still expected
	auxEnd   uint8             // end position of the current literal
	lo, hi   byte              // range of the next UTF-8 continuation byte
	num      jsonwire.NumState // number grammar state (vsNumber)

	// Structure state once loose.
	inString bool // inside a JSON string
	escape   bool // the previous byte was an unpaired backslash in a string

	buf    []byte // bytes of a message that spans segments (in tail mode: of its loose tail)
	msgOff int64  // stream offset of the current message's '{'

	// tail: keep no message bytes but a loose message's, from the byte the
	// grammar rejected (scanner_tail.go). Set once, for the progressive
	// modes' grammar pass, which uses no message.
	tail bool

	// What the block held so far, for fenceOnly.
	fenced   bool  // a fence marker
	fenceOff int64 // stream offset of the first fence marker
	opened   bool  // a message or a message list

	looseMsgs int // messages that failed the inline check (for tests)
}

func newScanner(maxDepth int) scanner {
	return scanner{maxDepth: maxDepth, stack: make([]byte, 0, 16)}
}

// reset drops all state, keeping allocated buffers.
func (s *scanner) reset() {
	s.stack = s.stack[:0]
	s.inList, s.inMsg, s.done = false, false, false
	s.fence, s.fenced, s.opened = false, false, false
	s.loose, s.inString, s.escape = false, false, false
	s.buf = s.buf[:0]
}

// base is the stack height outside any message.
func (s *scanner) base() int {
	if s.inList {
		return 1
	}
	return 0
}

// next consumes seg, whose first byte is at stream offset off, up to and
// including the end of the first message completed in it. It returns the
// number of bytes consumed and that message, or nil when seg ended first.
// The message is valid until the next call or reset. In tail mode it is
// always nil (see tailNext).
func (s *scanner) next(seg []byte, off int64) (int, []byte, error) {
	if s.done {
		s.buf = s.buf[:0]
		s.done = false
	}
	start := 0 // where the current message's bytes begin in seg
	i, n := 0, len(seg)
	for i < n {
		if s.inMsg {
			var end bool
			var err error
			if s.loose {
				i, end, err = s.scanLoose(seg, i, off)
			} else {
				i, end, err = s.scanValid(seg, i, off)
			}
			if err != nil {
				return i, nil, err
			}
			if s.tail {
				return s.tailNext(seg, off, start, i, end)
			}
			if !end {
				break
			}
			msg := seg[start:i]
			if len(s.buf) > 0 {
				s.keep(msg)
				msg = s.buf
				s.done = true
			}
			s.inMsg = false
			if s.loose {
				s.loose = false
				s.looseMsgs++
				if err := s.check(msg); err != nil {
					return i, nil, err
				}
			}
			return i, msg, nil
		}
		c := seg[i]
		// Between messages.
		if s.fence {
			j := fenceMarkerEnd(seg[i:])
			if j < 0 {
				i = n
				break
			}
			s.fence = false
			i += j // at the marker's '\n' (whitespace) or the JSON's first byte
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case '{':
			s.inMsg, s.opened = true, true
			s.msgOff = off + int64(i)
			start = i
			if len(s.stack) >= s.maxDepth {
				return i, nil, s.tooDeep(off + int64(i))
			}
			s.stack = append(s.stack, '{')
			s.vs = vsKeyOrEnd
		case ',':
			if !s.inList {
				return i, nil, s.unexpected(c, off+int64(i))
			}
		case '[':
			if s.inList {
				return i, nil, s.unexpected(c, off+int64(i))
			}
			s.inList, s.opened = true, true
			s.stack = append(s.stack, '[')
		case ']':
			if !s.inList {
				return i, nil, s.unexpected(c, off+int64(i))
			}
			s.inList = false
			s.stack = s.stack[:0]
		case '`':
			if s.inList {
				return i, nil, s.unexpected(c, off+int64(i))
			}
			s.fence = true
			if !s.fenced {
				s.fenced, s.fenceOff = true, off+int64(i)
			}
		default:
			return i, nil, s.unexpected(c, off+int64(i))
		}
		i++
	}
	if s.inMsg && !s.tail {
		s.keep(seg[start:])
	}
	return n, nil, nil
}

// fenceMarkerEnd returns the index in b of the byte that ends a fence
// marker: its line's '\n', or a '[' or '{' that starts the JSON. It returns
// -1 when b ends first.
func fenceMarkerEnd(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '[' || c == '{' {
			return i
		}
	}
	return -1
}

// endErr returns the error of a block that ends in the scanner's state: it
// ended inside an unfinished message (ErrUnterminated), or holding fence
// markers and nothing else (see fenceOnly); nil if neither.
func (s *scanner) endErr() error {
	if s.inMsg {
		return &SyntaxError{Offset: s.msgOff, Msg: "block ended inside an unfinished message", Err: ErrUnterminated}
	}
	return s.fenceOnly()
}

// fenceOnly returns the error of a block that ended holding fence markers and
// neither a message nor a message list, or nil.
func (s *scanner) fenceOnly() error {
	if s.fenced && !s.opened {
		return &SyntaxError{Offset: s.fenceOff, Msg: "markdown fence holds no A2UI message"}
	}
	return nil
}

// keep appends b to the message buffer, storing the buffer's pointer only
// when it grows (a pointer store costs a write barrier while the GC runs).
func (s *scanner) keep(b []byte) {
	n := len(s.buf)
	if n+len(b) > cap(s.buf) {
		s.buf = append(s.buf, b...)
		return
	}
	s.buf = s.buf[:n+len(b)]
	copy(s.buf[n:], b)
}

// scanLoose follows the structure of a message that broke the grammar:
// strings and nesting only. It starts at seg[i] and returns the index after
// the message's closing brace with end set, or len(seg) when seg ended first.
func (s *scanner) scanLoose(seg []byte, i int, off int64) (int, bool, error) {
	n := len(seg)
	for i < n {
		if s.inString {
			if s.escape { // seg starts with the byte a backslash escaped
				s.escape = false
				i++
				continue
			}
			k := jsonwire.StringEnd(seg, i)
			if k == n {
				s.escape = escapedAtEnd(seg[i:], false)
				return n, false, nil
			}
			s.inString = false
			i = k + 1
			continue
		}
		switch c := seg[i]; c {
		case '"':
			s.inString = true
		case '{', '[':
			if len(s.stack) >= s.maxDepth {
				return i, false, s.tooDeep(off + int64(i))
			}
			s.stack = append(s.stack, c)
		case '}', ']':
			top := s.stack[len(s.stack)-1]
			if (c == '}') != (top == '{') {
				return i, false, &SyntaxError{Offset: off + int64(i), Msg: fmt.Sprintf("mismatched %q closes %q", c, top)}
			}
			s.stack = s.stack[:len(s.stack)-1]
			if len(s.stack) == s.base() {
				return i + 1, true, nil
			}
		}
		i++
	}
	return n, false, nil
}

func (s *scanner) tooDeep(off int64) error {
	return &SyntaxError{Offset: off, Msg: fmt.Sprintf("nesting deeper than %d", s.maxDepth), Err: ErrTooDeep}
}

func (s *scanner) unexpected(c byte, off int64) error { return unexpectedByte(c, off, s.inList) }

// unexpectedByte is the error for byte c, at stream offset off, outside a
// message: before the message list, or between messages when inList.
func unexpectedByte(c byte, off int64, inList bool) error {
	where := "before the message list"
	if inList {
		where = "between messages"
	}
	if c >= 0x20 && c < 0x7f {
		return &SyntaxError{Offset: off, Msg: fmt.Sprintf("unexpected %q %s; want an A2UI message object", c, where)}
	}
	return &SyntaxError{Offset: off, Msg: fmt.Sprintf("unexpected byte 0x%02x %s; want an A2UI message object", c, where)}
}

// check gives the error of a message that failed the inline grammar check.
func (s *scanner) check(msg []byte) error { return messageError(msg, s.msgOff) }

// messageError checks a complete message whose '{' is at stream offset
// msgOff, UTF-8 first, then JSON syntax, and gives its error (nil for a
// valid message) with the offset and text encoding/json reports.
func messageError(msg []byte, msgOff int64) error {
	if pos := jsonwire.InvalidUTF8At(msg); pos >= 0 {
		return &SyntaxError{Offset: msgOff + int64(pos), Msg: "invalid UTF-8", Err: ErrInvalidUTF8}
	}
	if gjson.ValidBytes(msg) {
		return nil
	}
	return jsonError(msg, msgOff)
}

// jsonError gives the error encoding/json reports for msg, a message in
// valid UTF-8 whose '{' is at stream offset msgOff and that it rejects.
func jsonError(msg []byte, msgOff int64) error {
	var v any
	err := json.Unmarshal(msg, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &SyntaxError{Offset: msgOff + se.Offset - 1, Msg: se.Error()}
	}
	if err == nil {
		err = errors.New("invalid JSON")
	}
	return &SyntaxError{Offset: msgOff, Msg: err.Error()}
}

// escapedAtEnd reports whether the byte after b would be escaped: b ends in
// an odd run of backslashes, counting a carried escape when the run spans
// all of b.
func escapedAtEnd(b []byte, carried bool) bool {
	r := 0
	for r < len(b) && b[len(b)-1-r] == '\\' {
		r++
	}
	if r == len(b) && carried {
		r++
	}
	return r%2 == 1
}
