package protocol

import (
	"errors"
	"fmt"
	"iter"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Tape is one JSON value (typically one A2UI message) parsed in a single
// validating pass into a flat list of tokens: one token per value, an
// object member being a key token followed by its value's tokens, token 0
// the whole value. Each token records where its text ends and the index
// of the token after its subtree, so reading a message never rescans its
// bytes, whatever the number of fields read.
//
// One tape serves every reader of a message: the processor reads the
// envelope, the components and their references from it, and
// Catalog.ValidTape decides schema validity and CheckLimits on it, so a
// message is parsed once.
//
// Token indexes are ints; a negative index stands for "absent", and the
// kind predicates (IsString, IsObject, IsArray) are false for it. A Tape
// is reused by calling Parse again (its token storage is kept). A Tape is
// not safe for concurrent use; the strings it returns are substrings of
// the parsed text (or fresh strings, for escaped ones) and stay valid.
type Tape struct {
	src        string
	toks       []tapeToken
	escapedKey bool // some object key has an escape
	parsed     bool // the last Parse succeeded
}

// TapeKind is the kind of a tape token's value.
type TapeKind uint8

// Token kinds.
const (
	TapeNull TapeKind = iota
	TapeFalse
	TapeTrue
	TapeNumber
	TapeString
	TapeObject
	TapeArray
)

type tapeToken struct {
	kind  TapeKind
	esc   bool  // a string with escapes
	start int32 // offset of the value's first byte (of a string: after the opening quote)
	end   int32 // offset after the value's last byte (of a string: the closing quote)
	next  int32 // index of the token after this value's subtree
	n     int32 // members of an object, items of an array
}

// ErrJSONSyntax is the sentinel of JSON syntax errors (see
// *JSONSyntaxError).
var ErrJSONSyntax = errors.New("protocol: invalid JSON")

// JSONSyntaxError is a JSON syntax error found by Tape.Parse (invalid
// UTF-8 included).
type JSONSyntaxError struct {
	Offset int    // byte offset of the error
	Reason string // what is wrong there
}

func (e *JSONSyntaxError) Error() string {
	return fmt.Sprintf("protocol: invalid JSON at offset %d: %s", e.Offset, e.Reason)
}

// Unwrap returns ErrJSONSyntax.
func (e *JSONSyntaxError) Unwrap() error { return ErrJSONSyntax }

// maxTapeBytes bounds a parsed text (token offsets are 32-bit).
const maxTapeBytes = 1<<31 - 1

// Parse validates src as one JSON value (RFC 8259, UTF-8, surrounding
// whitespace allowed) with no value nested more than MaxComponentDepth
// containers deep, and fills the tape with its tokens. Errors: a
// *JSONSyntaxError, or a *ValidationError of kind ErrRecursionLimit
// (MessageIndex -1). After an error the tape's tokens mean nothing.
func (tp *Tape) Parse(src string) error {
	tp.src, tp.toks, tp.escapedKey, tp.parsed = src, tp.toks[:0], false, false
	if want := len(src)/6 + 8; cap(tp.toks) < want {
		tp.toks = make([]tapeToken, 0, want)
	}
	if len(src) > maxTapeBytes {
		return &JSONSyntaxError{0, "text too large"}
	}
	if !utf8.ValidString(src) {
		return &JSONSyntaxError{0, "invalid UTF-8"}
	}
	// Build on a local copy of the token slice: appending to the (heap)
	// tape's slice would store its header back, with a write barrier, on
	// every token.
	b := tapeBuilder{src: src, toks: tp.toks}
	i, err := b.value(skipWS(src, 0), 0)
	tp.toks, tp.escapedKey = b.toks, b.escapedKey
	if err != nil {
		return err
	}
	if i = skipWS(src, i); i != len(src) {
		return &JSONSyntaxError{i, "unexpected data after the JSON value"}
	}
	tp.parsed = true
	return nil
}

// skipWS returns the offset of the first non-whitespace byte at or after
// s[i].
func skipWS(s string, i int) int {
	for i < len(s) && isWS[s[i]] {
		i++
	}
	return i
}

// isWS marks JSON's whitespace bytes.
var isWS = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// tapeBuilder fills a tape's tokens (see Parse).
type tapeBuilder struct {
	src        string
	toks       []tapeToken
	escapedKey bool
}

// value parses the value at s[i], depth containers deep.
func (tb *tapeBuilder) value(i, depth int) (int, error) {
	s := tb.src
	if i >= len(s) {
		return i, &JSONSyntaxError{i, "unexpected end of input"}
	}
	if depth > MaxComponentDepth {
		return i, &ValidationError{MessageIndex: -1, Message: fmt.Sprintf("Global recursion limit exceeded: Depth > %d", MaxComponentDepth), Kind: ErrRecursionLimit}
	}
	var (
		kind TapeKind
		end  int
		esc  bool
		err  error
	)
	switch c := s[i]; {
	case c == '"':
		kind = TapeString
		end, esc, err = scanString(s, i)
	case c == '{' || c == '[':
		return tb.container(i, depth)
	case c == '-' || (c >= '0' && c <= '9'):
		kind = TapeNumber
		end, err = scanNumber(s, i)
	case c == 't':
		kind = TapeTrue
		end, err = literal(s, i, "true")
	case c == 'f':
		kind = TapeFalse
		end, err = literal(s, i, "false")
	case c == 'n':
		kind = TapeNull
		end, err = literal(s, i, "null")
	default:
		return i, &JSONSyntaxError{i, fmt.Sprintf("unexpected character %q", c)}
	}
	if err != nil {
		return end, err
	}
	if kind == TapeString {
		tb.toks = append(tb.toks, tapeToken{kind: kind, esc: esc, start: int32(i + 1), end: int32(end - 1), next: int32(len(tb.toks) + 1)})
	} else {
		tb.toks = append(tb.toks, tapeToken{kind: kind, start: int32(i), end: int32(end), next: int32(len(tb.toks) + 1)})
	}
	return end, nil
}

// container parses the object or array at s[i].
func (tb *tapeBuilder) container(i, depth int) (int, error) {
	s := tb.src
	at := len(tb.toks)
	obj := s[i] == '{'
	kind, closer := TapeArray, byte(']')
	if obj {
		kind, closer = TapeObject, '}'
	}
	tb.toks = append(tb.toks, tapeToken{kind: kind, start: int32(i)})
	n := 0
	var err error
	i = skipWS(s, i+1)
	if i < len(s) && s[i] == closer {
		i++
	} else {
		for {
			if obj {
				if i >= len(s) || s[i] != '"' {
					return i, &JSONSyntaxError{i, "expected a string key"}
				}
				end, esc, err := scanString(s, i)
				if err != nil {
					return end, err
				}
				if esc {
					tb.escapedKey = true
				}
				tb.toks = append(tb.toks, tapeToken{kind: TapeString, esc: esc, start: int32(i + 1), end: int32(end - 1), next: int32(len(tb.toks) + 1)})
				i = end
				if i >= len(s) || s[i] != ':' {
					if i = skipWS(s, i); i >= len(s) || s[i] != ':' {
						return i, &JSONSyntaxError{i, "expected ':'"}
					}
				}
				if i++; i < len(s) && s[i] <= ' ' {
					i = skipWS(s, i)
				}
			}
			if i < len(s) && s[i] == '"' && depth < MaxComponentDepth {
				// A string member or item (the most common value), inline.
				end, esc, err := scanString(s, i)
				if err != nil {
					return end, err
				}
				tb.toks = append(tb.toks, tapeToken{kind: TapeString, esc: esc, start: int32(i + 1), end: int32(end - 1), next: int32(len(tb.toks) + 1)})
				i = end
			} else if i, err = tb.value(i, depth+1); err != nil {
				return i, err
			}
			n++
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
			return i, &JSONSyntaxError{i, "expected ',' or '" + string(closer) + "'"}
		}
	}
	t := &tb.toks[at]
	t.end, t.next, t.n = int32(i), int32(len(tb.toks)), int32(n)
	return i, nil
}

func literal(s string, i int, lit string) (int, error) {
	if strings.HasPrefix(s[i:], lit) {
		return i + len(lit), nil
	}
	return i, &JSONSyntaxError{i, "invalid literal"}
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
		// Eight bytes at a time (one load) while none is '"', '\\' or a
		// control character; the lowest flagged byte is the first such
		// one. Byte by byte for the last few.
		found := false
		for i+8 <= len(s) {
			b := s[i : i+8]
			w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
			if m := swarZeroMask(w^(swarLSB*'"')) | swarZeroMask(w^(swarLSB*'\\')) | swarLessMask(w, 0x20); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				found = true
				break
			}
			i += 8
		}
		if !found {
			for i < len(s) && strPlain[s[i]] {
				i++
			}
		}
		if i >= len(s) {
			return i, esc, &JSONSyntaxError{i, "unterminated string"}
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, esc, nil
		case c == '\\':
			esc = true
			if i+1 >= len(s) {
				return i, esc, &JSONSyntaxError{i, "unterminated escape"}
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s) || !isHex4(s[i+2:i+6]) {
					return i, esc, &JSONSyntaxError{i, "invalid \\u escape"}
				}
				i += 6
			default:
				return i, esc, &JSONSyntaxError{i, "invalid escape"}
			}
		default:
			return i, esc, &JSONSyntaxError{i, "control character in string"}
		}
	}
}

const swarLSB = 0x0101010101010101

// swarZeroMask flags (with its high bit) each zero byte of w; borrows can
// also flag bytes above a zero byte, so only the lowest flag is exact.
func swarZeroMask(w uint64) uint64 { return (w - swarLSB) &^ w & (swarLSB * 0x80) }

// swarLessMask flags each byte of w less than n (n <= 128), with the same
// caveat as swarZeroMask.
func swarLessMask(w uint64, n uint64) uint64 { return (w - swarLSB*n) &^ w & (swarLSB * 0x80) }

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
		return start, &JSONSyntaxError{start, "invalid number"}
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return start, &JSONSyntaxError{start, "invalid number"}
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return start, &JSONSyntaxError{start, "invalid number"}
		}
	}
	return i, nil
}

// Source returns the text the tape was parsed from.
func (tp *Tape) Source() string { return tp.src }

// Len returns the number of tokens.
func (tp *Tape) Len() int { return len(tp.toks) }

// Kind returns token t's kind.
func (tp *Tape) Kind(t int) TapeKind { return tp.toks[t].kind }

// Next returns the index of the token after token t's subtree (for the
// key token of a member, that is its value's token).
func (tp *Tape) Next(t int) int { return int(tp.toks[t].next) }

// Count returns the number of members of an object token or items of an
// array token (0 for other kinds).
func (tp *Tape) Count(t int) int { return int(tp.toks[t].n) }

// IsString reports whether t is a token (t >= 0) holding a string.
func (tp *Tape) IsString(t int) bool { return t >= 0 && tp.toks[t].kind == TapeString }

// IsObject reports whether t is a token (t >= 0) holding an object.
func (tp *Tape) IsObject(t int) bool { return t >= 0 && tp.toks[t].kind == TapeObject }

// IsArray reports whether t is a token (t >= 0) holding an array.
func (tp *Tape) IsArray(t int) bool { return t >= 0 && tp.toks[t].kind == TapeArray }

// Raw returns token t's JSON text (a substring of the parsed text).
func (tp *Tape) Raw(t int) string {
	k := &tp.toks[t]
	if k.kind == TapeString {
		return tp.src[k.start-1 : k.end+1]
	}
	return tp.src[k.start:k.end]
}

// Str returns string token t's value, unescaped: a substring of the
// parsed text when it has no escapes. Invalid surrogate escapes become
// U+FFFD, as in encoding/json.
func (tp *Tape) Str(t int) string {
	k := &tp.toks[t]
	if k.esc {
		return tp.unescaped(t)
	}
	return tp.src[k.start:k.end]
}

// Text returns string token t's text between its quotes and whether it
// has escapes (then Str gives its value). Unlike Str it always inlines,
// for loops that read many strings, nearly all without escapes:
//
//	s, esc := tp.Text(t)
//	if esc {
//		s = tp.Str(t)
//	}
func (tp *Tape) Text(t int) (s string, escaped bool) {
	k := &tp.toks[t]
	return tp.src[k.start:k.end], k.esc
}

// unescaped is Str for a string with escapes (kept apart so that Str
// inlines).
func (tp *Tape) unescaped(t int) string {
	k := &tp.toks[t]
	return unescapeJSON(tp.src[k.start:k.end])
}

// unescapeJSON decodes the escapes of a validated JSON string body.
func unescapeJSON(s string) string {
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

// Members iterates an object token's members in order: the key (unescaped)
// and the value's token.
func (tp *Tape) Members(obj int) iter.Seq2[string, int] {
	return func(yield func(string, int) bool) {
		end := int(tp.toks[obj].next)
		for j := obj + 1; j < end; {
			v := j + 1
			k := &tp.toks[j]
			key := tp.src[k.start:k.end]
			if k.esc {
				key = tp.unescaped(j)
			}
			if !yield(key, v) {
				return
			}
			j = int(tp.toks[v].next)
		}
	}
}

// Items iterates an array token's items in order: the index and the
// item's token.
func (tp *Tape) Items(arr int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		end := int(tp.toks[arr].next)
		for j, i := arr+1, 0; j < end; i++ {
			if !yield(i, j) {
				return
			}
			j = int(tp.toks[j].next)
		}
	}
}

// Member returns the value token of an object's member key (the last one
// when the key repeats, as encoding/json reads it), or -1.
func (tp *Tape) Member(obj int, key string) int {
	found := -1
	end := int(tp.toks[obj].next)
	for j := obj + 1; j < end; j = int(tp.toks[j+1].next) {
		k := &tp.toks[j]
		if k.esc {
			if tp.unescaped(j) == key {
				found = j + 1
			}
		} else if tp.src[k.start:k.end] == key {
			found = j + 1
		}
	}
	return found
}
