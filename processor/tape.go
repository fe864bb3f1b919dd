package processor

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// A tape is a message parsed in one validating pass into a flat list of
// tokens, one per JSON value (object members are a key token followed by
// the value's tokens). Each token records where its value ends and which
// token follows its subtree, so walking the tape never rescans bytes: the
// processor reads a message in a single pass over its text, whatever the
// number of fields it looks at.
type tape struct {
	src  string
	toks []token
}

type tokKind uint8

const (
	tokNull tokKind = iota
	tokFalse
	tokTrue
	tokNumber
	tokString
	tokObject
	tokArray
)

type token struct {
	kind  tokKind
	esc   bool  // a string with escapes
	start int32 // offset of the value's first byte (a string's opening quote)
	end   int32 // offset after the value's last byte
	next  int32 // index of the token after this value's subtree
}

// syntaxError is a JSON syntax error in a message.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

// maxMessageBytes bounds one message (token offsets are 32-bit).
const maxMessageBytes = 1<<31 - 1

// parse validates src as one JSON value (RFC 8259, UTF-8) with no value
// more than protocol.MaxComponentDepth containers deep, and fills the tape.
// Errors: *syntaxError, or a *protocol.ValidationError of kind
// protocol.ErrRecursionLimit.
func (tp *tape) parse(src string) error {
	tp.src, tp.toks = src, tp.toks[:0]
	if want := len(src)/8 + 8; cap(tp.toks) < want {
		tp.toks = make([]token, 0, want)
	}
	if len(src) > maxMessageBytes {
		return &syntaxError{0, "message too large"}
	}
	if !utf8.ValidString(src) {
		return &syntaxError{0, "invalid UTF-8"}
	}
	// Build on a local copy of the token slice: appending to the heap
	// tape's slice would store its header (a pointer) back, with a write
	// barrier, on every token.
	b := tapeBuilder{src: src, toks: tp.toks}
	i, err := b.value(skipWS(src, 0), 0)
	tp.toks = b.toks
	if err != nil {
		return err
	}
	if i = skipWS(src, i); i != len(src) {
		return &syntaxError{i, "unexpected data after the JSON value"}
	}
	return nil
}

func skipWS(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value parses the value at s[i], depth containers deep.
// tapeBuilder fills a tape's tokens (see parse).
type tapeBuilder struct {
	src  string
	toks []token
}

func (tp *tapeBuilder) value(i, depth int) (int, error) {
	s := tp.src
	if i >= len(s) {
		return i, &syntaxError{i, "unexpected end of input"}
	}
	if depth > protocol.MaxComponentDepth {
		return i, &protocol.ValidationError{MessageIndex: -1, Message: fmt.Sprintf("Global recursion limit exceeded: Depth > %d", protocol.MaxComponentDepth), Kind: protocol.ErrRecursionLimit}
	}
	var (
		kind tokKind
		end  int
		esc  bool
		err  error
	)
	switch c := s[i]; {
	case c == '"':
		kind = tokString
		end, esc, err = scanString(s, i)
	case c == '{' || c == '[':
		return tp.container(i, depth)
	case c == '-' || (c >= '0' && c <= '9'):
		kind = tokNumber
		end, err = scanNumber(s, i)
	case c == 't':
		kind = tokTrue
		end, err = literal(s, i, "true")
	case c == 'f':
		kind = tokFalse
		end, err = literal(s, i, "false")
	case c == 'n':
		kind = tokNull
		end, err = literal(s, i, "null")
	default:
		return i, &syntaxError{i, fmt.Sprintf("unexpected character %q", c)}
	}
	if err != nil {
		return end, err
	}
	tp.toks = append(tp.toks, token{kind: kind, esc: esc, start: int32(i), end: int32(end), next: int32(len(tp.toks) + 1)})
	return end, nil
}

// container parses the object or array at s[i].
func (tp *tapeBuilder) container(i, depth int) (int, error) {
	s := tp.src
	at := len(tp.toks)
	obj := s[i] == '{'
	kind, closer := tokArray, byte(']')
	if obj {
		kind, closer = tokObject, '}'
	}
	tp.toks = append(tp.toks, token{kind: kind, start: int32(i)})
	var err error
	i = skipWS(s, i+1)
	if i < len(s) && s[i] == closer {
		i++
	} else {
		for {
			if obj {
				if i >= len(s) || s[i] != '"' {
					return i, &syntaxError{i, "expected a string key"}
				}
				end, esc, err := scanString(s, i)
				if err != nil {
					return end, err
				}
				tp.toks = append(tp.toks, token{kind: tokString, esc: esc, start: int32(i), end: int32(end), next: int32(len(tp.toks) + 1)})
				i = end
				if i >= len(s) || s[i] != ':' {
					if i = skipWS(s, i); i >= len(s) || s[i] != ':' {
						return i, &syntaxError{i, "expected ':'"}
					}
				}
				if i++; i < len(s) && s[i] <= ' ' {
					i = skipWS(s, i)
				}
			}
			if i < len(s) && s[i] == '"' && depth < protocol.MaxComponentDepth {
				// A string member or item (the most common value), inline.
				end, esc, err := scanString(s, i)
				if err != nil {
					return end, err
				}
				tp.toks = append(tp.toks, token{kind: tokString, esc: esc, start: int32(i), end: int32(end), next: int32(len(tp.toks) + 1)})
				i = end
			} else if i, err = tp.value(i, depth+1); err != nil {
				return i, err
			}
			if i < len(s) && s[i] <= ' ' {
				i = skipWS(s, i)
			}
			if i < len(s) && s[i] == ',' {
				if i++; i < len(s) && s[i] <= ' ' {
					i = skipWS(s, i)
				}
				continue
			}
			if i < len(s) && s[i] == closer {
				i++
				break
			}
			return i, &syntaxError{i, "expected ',' or '" + string(closer) + "'"}
		}
	}
	t := &tp.toks[at]
	t.end, t.next = int32(i), int32(len(tp.toks))
	return i, nil
}

func literal(s string, i int, lit string) (int, error) {
	if strings.HasPrefix(s[i:], lit) {
		return i + len(lit), nil
	}
	return i, &syntaxError{i, "invalid literal"}
}

// strPlain marks the bytes a string can hold without a closer look: not
// '"', not '\\' and not a control character.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanString checks the string opening at s[i] and returns the offset
// after its closing quote and whether it has escapes.
func scanString(s string, i int) (int, bool, error) {
	esc := false
	i++
	for {
		// Eight bytes at a time while none is '"', '\\' or a control
		// character, then byte by byte.
		for i+8 <= len(s) {
			w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			if hasZeroByte(w^(lsb*'"')) || hasZeroByte(w^(lsb*'\\')) || hasLessThan(w, 0x20) {
				break
			}
			i += 8
		}
		for i < len(s) && strPlain[s[i]] {
			i++
		}
		if i >= len(s) {
			return i, esc, &syntaxError{i, "unterminated string"}
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, esc, nil
		case c == '\\':
			esc = true
			if i+1 >= len(s) {
				return i, esc, &syntaxError{i, "unterminated escape"}
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s) || !isHex4(s[i+2:i+6]) {
					return i, esc, &syntaxError{i, "invalid \\u escape"}
				}
				i += 6
			default:
				return i, esc, &syntaxError{i, "invalid escape"}
			}
		default:
			return i, esc, &syntaxError{i, "control character in string"}
		}
	}
}

const lsb = 0x0101010101010101

// hasZeroByte reports whether some byte of w is zero.
func hasZeroByte(w uint64) bool { return (w-lsb)&^w&(lsb*0x80) != 0 }

// hasLessThan reports whether some byte of w is less than n (n <= 128).
func hasLessThan(w uint64, n uint64) bool { return (w-lsb*n)&^w&(lsb*0x80) != 0 }

func isHex4(s string) bool {
	for i := 0; i < 4; i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func scanNumber(s string, i int) (int, error) {
	start := i
	if s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return start, &syntaxError{start, "invalid number"}
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return start, &syntaxError{start, "invalid number"}
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return start, &syntaxError{start, "invalid number"}
		}
	}
	return i, nil
}

// raw returns token t's JSON text.
func (tp *tape) raw(t int) string {
	k := tp.toks[t]
	return tp.src[k.start:k.end]
}

// str returns string token t's value, unescaped (a substring of the
// message when it has no escapes).
func (tp *tape) str(t int) string {
	k := tp.toks[t]
	s := tp.src[k.start+1 : k.end-1]
	if !k.esc {
		return s
	}
	return unescape(s)
}

// unescape decodes the escapes of a validated JSON string body.
func unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r := rune(hex4(s[i+1 : i+5]))
			i += 4 // at the escape's last hex digit
			if utf16.IsSurrogate(r) {
				decoded := utf8.RuneError
				if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
					if d := utf16.DecodeRune(r, rune(hex4(s[i+3:i+7]))); d != utf8.RuneError {
						decoded = d
						i += 6
					}
				}
				r = decoded
			}
			b.WriteRune(r)
		default: // '"', '\\', '/'
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func hex4(s string) uint64 {
	n, _ := strconv.ParseUint(s, 16, 32)
	return n
}

// members iterates an object token's members: fn gets the key and the
// value's token index; returning false stops.
func (tp *tape) members(obj int, fn func(key string, val int) bool) {
	end := int(tp.toks[obj].next)
	for j := obj + 1; j < end; {
		v := j + 1
		if !fn(tp.str(j), v) {
			return
		}
		j = int(tp.toks[v].next)
	}
}

// items iterates an array token's items; returning false stops.
func (tp *tape) items(arr int, fn func(i, val int) bool) {
	end := int(tp.toks[arr].next)
	for j, i := arr+1, 0; j < end; i++ {
		if !fn(i, j) {
			return
		}
		j = int(tp.toks[j].next)
	}
}

// member returns the value token of an object's key, or -1.
func (tp *tape) member(obj int, key string) int {
	found := -1
	tp.members(obj, func(k string, v int) bool {
		if k == key {
			found = v
		}
		return true
	})
	return found
}

func (tp *tape) kind(t int) tokKind { return tp.toks[t].kind }

func (tp *tape) isString(t int) bool { return t >= 0 && tp.toks[t].kind == tokString }
func (tp *tape) isObject(t int) bool { return t >= 0 && tp.toks[t].kind == tokObject }
func (tp *tape) isArray(t int) bool  { return t >= 0 && tp.toks[t].kind == tokArray }
