package protocol

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// fastTape is one JSON message parsed into a flat token list for the fast
// validity checks (fastSchema, fastLimits): one token per value, object
// members being a key token followed by the value's tokens, each token
// recording the index of the token after its subtree. The parse is
// deliberately conservative: anything the checks could read differently
// from encoding/json (invalid UTF-8, duplicate object keys, nesting deeper
// than MaxComponentDepth) makes it give up, and the caller takes the full
// path instead.
type fastTape struct {
	src  string
	toks []fastTok
}

type fastKind uint8

const (
	fkNull fastKind = iota
	fkFalse
	fkTrue
	fkNumber
	fkString
	fkObject
	fkArray
)

type fastTok struct {
	kind  fastKind
	esc   bool  // a string with escapes
	start int32 // first byte (of a string: after the opening quote)
	end   int32 // after the last byte (of a string: the closing quote)
	next  int32 // index of the token after this value's subtree
	n     int32 // members or items of an object or array
}

// fastTapeMaxBytes bounds a message the fast path reads (32-bit offsets).
const fastTapeMaxBytes = 1<<31 - 1

// parse fills the tape from src; false means "not decided here" (syntax
// error, invalid UTF-8, duplicate keys, too deep or too large).
func (tp *fastTape) parse(src string) bool {
	tp.src, tp.toks = src, tp.toks[:0]
	if want := len(src)/6 + 8; cap(tp.toks) < want {
		tp.toks = make([]fastTok, 0, want)
	}
	if len(src) > fastTapeMaxBytes || !utf8.ValidString(src) {
		return false
	}
	// Build on a local copy of the token slice: appending to the pooled
	// tape's slice would store its header back, with a write barrier, on
	// every token.
	b := fastBuilder{src: src, toks: tp.toks}
	i, ok := b.value(fastWS(src, 0), 0)
	tp.toks = b.toks
	return ok && fastWS(src, i) == len(src)
}

// fastBuilder fills a fastTape's tokens (see parse).
type fastBuilder struct {
	src  string
	toks []fastTok
}

func fastWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

func (tp *fastBuilder) value(i, depth int) (int, bool) {
	s := tp.src
	if i >= len(s) || depth > MaxComponentDepth {
		return i, false
	}
	var kind fastKind
	end, esc, ok := i, false, true
	switch c := s[i]; {
	case c == '"':
		kind = fkString
		end, esc, ok = fastString(s, i)
	case c == '{' || c == '[':
		return tp.container(i, depth)
	case c == '-' || (c >= '0' && c <= '9'):
		kind = fkNumber
		end, ok = fastNumber(s, i)
	case c == 't':
		kind, end, ok = fkTrue, i+4, strings.HasPrefix(s[i:], "true")
	case c == 'f':
		kind, end, ok = fkFalse, i+5, strings.HasPrefix(s[i:], "false")
	case c == 'n':
		kind, end, ok = fkNull, i+4, strings.HasPrefix(s[i:], "null")
	default:
		return i, false
	}
	if !ok {
		return i, false
	}
	if kind == fkString {
		tp.toks = append(tp.toks, fastTok{kind: kind, esc: esc, start: int32(i + 1), end: int32(end - 1), next: int32(len(tp.toks) + 1)})
	} else {
		tp.toks = append(tp.toks, fastTok{kind: kind, start: int32(i), end: int32(end), next: int32(len(tp.toks) + 1)})
	}
	return end, true
}

func (tp *fastBuilder) container(i, depth int) (int, bool) {
	s := tp.src
	at := len(tp.toks)
	obj := s[i] == '{'
	kind, closer := fkArray, byte(']')
	if obj {
		kind, closer = fkObject, '}'
	}
	tp.toks = append(tp.toks, fastTok{kind: kind, start: int32(i)})
	n := 0
	i = fastWS(s, i+1)
	if i < len(s) && s[i] == closer {
		i++
	} else {
		for {
			if obj {
				if i >= len(s) || s[i] != '"' {
					return i, false
				}
				end, esc, ok := fastString(s, i)
				if !ok || esc {
					return i, false // escaped keys are left to the full path
				}
				tp.toks = append(tp.toks, fastTok{kind: fkString, esc: esc, start: int32(i + 1), end: int32(end - 1), next: int32(len(tp.toks) + 1)})
				i = fastWS(s, end)
				if i >= len(s) || s[i] != ':' {
					return i, false
				}
				i = fastWS(s, i+1)
			}
			var ok bool
			if i < len(s) && s[i] == '"' && depth < MaxComponentDepth {
				// A string member or item (the most common value), inline.
				end, esc, ok := fastString(s, i)
				if !ok {
					return i, false
				}
				tp.toks = append(tp.toks, fastTok{kind: fkString, esc: esc, start: int32(i + 1), end: int32(end - 1), next: int32(len(tp.toks) + 1)})
				i = end
			} else if i, ok = tp.value(i, depth+1); !ok {
				return i, false
			}
			n++
			i = fastWS(s, i)
			if i < len(s) && s[i] == ',' {
				i = fastWS(s, i+1)
				continue
			}
			if i < len(s) && s[i] == closer {
				i++
				break
			}
			return i, false
		}
	}
	t := &tp.toks[at]
	t.end, t.next, t.n = int32(i), int32(len(tp.toks)), int32(n)
	if obj && n > 1 && tp.hasDuplicateKeys(at) {
		return i, false
	}
	return i, true
}

// hasDuplicateKeys reports whether an object repeats a key (keys have no
// escapes: container gives up on those).
func (tp *fastBuilder) hasDuplicateKeys(obj int) bool {
	n := int(tp.toks[obj].n)
	if n <= 12 {
		var keys [12]string
		k := 0
		for j := obj + 1; j < int(tp.toks[obj].next); j = int(tp.toks[j+1].next) {
			key := tp.src[tp.toks[j].start:tp.toks[j].end]
			for _, prev := range keys[:k] {
				if prev == key {
					return true
				}
			}
			keys[k] = key
			k++
		}
		return false
	}
	seen := make(map[string]struct{}, n)
	for j := obj + 1; j < int(tp.toks[obj].next); j = int(tp.toks[j+1].next) {
		key := tp.src[tp.toks[j].start:tp.toks[j].end]
		if _, dup := seen[key]; dup {
			return true
		}
		seen[key] = struct{}{}
	}
	return false
}

// fastString scans the string opening at s[i]: the offset after its
// closing quote and whether it has escapes.
func fastString(s string, i int) (int, bool, bool) {
	esc := false
	i++
	for {
		// Eight bytes at a time while none is '"', '\\' or a control
		// character.
		for i+8 <= len(s) {
			w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			if swarZero(w^(swarLSB*'"')) || swarZero(w^(swarLSB*'\\')) || swarLess(w, 0x20) {
				break
			}
			i += 8
		}
		for i < len(s) && s[i] >= 0x20 && s[i] != '"' && s[i] != '\\' {
			i++
		}
		if i >= len(s) {
			return i, esc, false
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, esc, true
		case c == '\\':
			esc = true
			if i+1 >= len(s) {
				return i, esc, false
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s) {
					return i, esc, false
				}
				for _, h := range []byte(s[i+2 : i+6]) {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return i, esc, false
					}
				}
				i += 6
			default:
				return i, esc, false
			}
		default:
			return i, esc, false // a control character
		}
	}
}

const swarLSB = 0x0101010101010101

// swarZero reports whether some byte of w is zero.
func swarZero(w uint64) bool { return (w-swarLSB)&^w&(swarLSB*0x80) != 0 }

// swarLess reports whether some byte of w is less than n (n <= 128).
func swarLess(w uint64, n uint64) bool { return (w-swarLSB*n)&^w&(swarLSB*0x80) != 0 }

func fastNumber(s string, i int) (int, bool) {
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
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return i, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return i, false
		}
	}
	return i, true
}

// raw is token t's JSON text.
func (tp *fastTape) raw(t int) string {
	k := &tp.toks[t]
	if k.kind == fkString {
		return tp.src[k.start-1 : k.end+1]
	}
	return tp.src[k.start:k.end]
}

// key is object key token t's value: keys never have escapes (parse
// gives up on those, see hasDuplicateKeys).
func (tp *fastTape) key(t int) string {
	k := &tp.toks[t]
	return tp.src[k.start:k.end]
}

// str is string token t's value.
func (tp *fastTape) str(t int) string {
	if k := &tp.toks[t]; !k.esc {
		return tp.src[k.start:k.end]
	}
	return tp.unescape(t)
}

func (tp *fastTape) unescape(t int) string {
	var s string
	if err := json.Unmarshal([]byte(tp.raw(t)), &s); err != nil {
		return ""
	}
	return s
}

// decode is token t's value in the package's JSON data model (json.Number
// numbers), for the rare comparisons the fast path does not do on the
// text itself.
func (tp *fastTape) decode(t int) any {
	v, err := decodeJSON([]byte(tp.raw(t)))
	if err != nil {
		return nil
	}
	return v
}
