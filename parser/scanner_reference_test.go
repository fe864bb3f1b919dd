package parser

import (
	"bytes"
	"fmt"
)

// refScanner is the scanner as it was before the inline grammar check: a
// structure scan with a utf8.Valid and gjson.ValidBytes pass over every
// complete message. The differential tests hold the scanner to its output.
type refScanner struct {
	maxDepth int

	stack     []byte // open containers: '{' or '['; stack[0] is the list when inList
	inList    bool   // a top-level array of messages is open
	inMsg     bool   // inside a message
	inString  bool   // inside a JSON string (only tracked inside messages)
	escape    bool   // the previous byte was an unpaired backslash in a string
	fenceLine bool   // skipping a ``` fence marker between messages

	buf    []byte // bytes of a message that spans segments
	msgOff int64  // stream offset of the current message's '{'
}

func newRefScanner(maxDepth int) refScanner {
	return refScanner{maxDepth: maxDepth, stack: make([]byte, 0, 16)}
}

// base is the stack height outside any message.
func (s *refScanner) base() int {
	if s.inList {
		return 1
	}
	return 0
}

// scan consumes seg, whose first byte is at stream offset off. For each
// message completed in seg it calls emit with the message's bytes, valid only
// during the call.
func (s *refScanner) scan(seg []byte, off int64, emit func(msg []byte) error) error {
	start := 0 // where the current message's bytes begin in seg
	i, n := 0, len(seg)
	for i < n {
		if s.inString {
			j := bytes.IndexByte(seg[i:], '"')
			if j < 0 {
				s.escape = escapedAtEnd(seg[i:], s.escape)
				i = n
				break
			}
			k := i + j
			bs := 0
			for k-1-bs >= i && seg[k-1-bs] == '\\' {
				bs++
			}
			if k-bs == i && s.escape {
				bs++
			}
			s.escape = false
			if bs%2 == 0 {
				s.inString = false
			}
			i = k + 1
			continue
		}
		c := seg[i]
		if s.inMsg {
			switch c {
			case '"':
				s.inString = true
			case '{', '[':
				if len(s.stack) >= s.maxDepth {
					return &SyntaxError{Offset: off + int64(i), Msg: fmt.Sprintf("nesting deeper than %d", s.maxDepth), Err: ErrTooDeep}
				}
				s.stack = append(s.stack, c)
			case '}', ']':
				top := s.stack[len(s.stack)-1]
				if (c == '}') != (top == '{') {
					return &SyntaxError{Offset: off + int64(i), Msg: fmt.Sprintf("mismatched %q closes %q", c, top)}
				}
				s.stack = s.stack[:len(s.stack)-1]
				if len(s.stack) == s.base() {
					msg := seg[start : i+1]
					if len(s.buf) > 0 {
						s.buf = append(s.buf, msg...)
						msg = s.buf
					}
					s.inMsg = false
					if err := s.check(msg); err != nil {
						return err
					}
					if err := emit(msg); err != nil {
						return err
					}
					s.buf = s.buf[:0]
				}
			}
			i++
			continue
		}
		// Between messages.
		if s.fenceLine {
			// A fence marker ends with its line ('\n', consumed) or just
			// before the '[' or '{' that starts the JSON.
			switch c {
			case '\n':
				s.fenceLine = false
				i++
			case '[', '{':
				s.fenceLine = false
			default:
				i++
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case '{':
			s.inMsg = true
			s.msgOff = off + int64(i)
			start = i
			if len(s.stack) >= s.maxDepth {
				return &SyntaxError{Offset: off + int64(i), Msg: fmt.Sprintf("nesting deeper than %d", s.maxDepth), Err: ErrTooDeep}
			}
			s.stack = append(s.stack, '{')
		case ',':
			if !s.inList {
				return s.unexpected(c, off+int64(i))
			}
		case '[':
			if s.inList {
				return s.unexpected(c, off+int64(i))
			}
			s.inList = true
			s.stack = append(s.stack, '[')
		case ']':
			if !s.inList {
				return s.unexpected(c, off+int64(i))
			}
			s.inList = false
			s.stack = s.stack[:0]
		case '`':
			if s.inList {
				return s.unexpected(c, off+int64(i))
			}
			s.fenceLine = true
		default:
			return s.unexpected(c, off+int64(i))
		}
		i++
	}
	if s.inMsg {
		s.buf = append(s.buf, seg[start:]...)
	}
	return nil
}

// The reference reports errors with the scanner's own wording: the
// differential tests compare the scan loops, not the error texts.
func (s *refScanner) unexpected(c byte, off int64) error { return unexpectedByte(c, off, s.inList) }

func (s *refScanner) check(msg []byte) error { return messageError(msg, s.msgOff) }
