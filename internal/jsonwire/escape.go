package jsonwire

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// strPlain marks the bytes a string may hold as they are: printable ASCII
// but '"' and '\\'. Any other byte in a string needs a closer look.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// IsPlain reports whether a string may hold c as it is, without a closer
// look: printable ASCII but '"' and '\\'.
func IsPlain(c byte) bool { return strPlain[c] }

// StopBytes returns, for eight string bytes in little-endian order, a mask
// with the high bit set in the lowest byte that is not plain (IsPlain):
// '"', '\\', a control byte or a non-ASCII byte. Bits above it may be set
// too. It is QuoteBytes(x) | OtherStopBytes(x), computed with one mask
// (the scanners' hot loops take it once per eight bytes).
func StopBytes(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ ('"' * ones)
	b := x ^ ('\\' * ones)
	return (x | (x - 0x20*ones) | (q-ones)&^q | (b-ones)&^b) & highs
}

// QuoteBytes returns, for eight string bytes in little-endian order, a
// mask with the high bit set in each '"'; borrows can also flag bytes above
// a flagged one, so only the lowest flag is exact. A scanner that looks for
// a string's end splits StopBytes in two: the quote's position depends on
// this mask alone, the other stop bytes (OtherStopBytes) only decide a
// branch.
func QuoteBytes(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ ('"' * ones)
	return (q - ones) &^ q & highs
}

// OtherStopBytes returns, for eight string bytes in little-endian order, a
// mask with the high bit set in each byte that is not plain (IsPlain) but
// for '"': '\\', a control byte or a non-ASCII byte. Borrows can also flag
// bytes above a flagged one, so only the lowest flag is exact.
func OtherStopBytes(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	b := x ^ ('\\' * ones)
	// (b - ones) &^ b flags b's zero bytes; x - 0x20 per byte flags the
	// bytes below 0x20 (or with the high bit set, as x does).
	return ((b-ones)&^b | (x - 0x20*ones) | x) & highs
}

// IsEscape reports whether c may follow a backslash in a string: one of
// "\\/bfnrt or u (which four hex digits follow).
func IsEscape(c byte) bool {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u':
		return true
	}
	return false
}

// EscapeLen returns the length of the escape at s[i] (a backslash): 2, or
// 6 for \uXXXX; 0 when it is not a valid escape or s ends inside it.
func EscapeLen[T Text](s T, i int) int {
	if i+1 >= len(s) {
		return 0
	}
	switch s[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(s)-i < 6 {
			return 0
		}
		if _, ok := Hex4(s[i+2:]); ok {
			return 6
		}
	}
	return 0
}

// AppendUnescaped appends the value of the string body s[0:] to dst,
// decoding its escapes, up to its closing quote (an unescaped '"') or the
// end of s. It returns dst, the index of the closing quote (len(s) when
// there is none), and ok false at a control byte or an escape that is
// invalid or cut by the end of s (then n is where the problem is). Bytes
// that are not escapes, invalid UTF-8 included, are copied as they are. A
// \u escape of a UTF-16 surrogate that does not pair with the next escape
// decodes as U+FFFD and leaves that escape to stand alone, as
// encoding/json reads it.
func AppendUnescaped[T Text](dst []byte, s T) (out []byte, n int, ok bool) {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return dst, i, true
		case c < 0x20:
			return dst, i, false
		case c != '\\':
			dst = append(dst, c)
			i++
			continue
		}
		k := EscapeLen(s, i)
		if k == 0 {
			return dst, i, false
		}
		e := s[i+1]
		i += k
		switch e {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, _ := Hex4(s[i-4:])
			if utf16.IsSurrogate(r) {
				dec := utf8.RuneError
				if i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' && EscapeLen(s, i) == 6 {
					r2, _ := Hex4(s[i+2:])
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						dec = d
						i += 6
					}
				}
				r = dec
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, e)
		}
	}
	return dst, i, true
}

// Unescape returns the value of the string body s, which holds no
// unescaped '"', decoding its escapes as AppendUnescaped does; ok is false
// when it is not a valid string body.
func Unescape[T Text](s T) (string, bool) {
	out, n, ok := AppendUnescaped(make([]byte, 0, len(s)), s)
	return string(out), ok && n == len(s)
}

// PlainRun returns the index of the first byte from b[i] on that is not
// plain (IsPlain), or len(b): eight bytes at a time, then one at a time.
func PlainRun(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := StopBytes(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(b) && strPlain[b[i]] {
		i++
	}
	return i
}

// ScanString reads the body of a JSON string whose contents start at b[i]
// (after the opening quote), checking its escapes and control bytes but
// not its UTF-8. It returns the index of the closing quote and ok, and
// whether the body holds an escape. When the body is not valid, ok is
// false and end is the byte at fault: a control byte, the backslash of an
// escape that is invalid or cut by the end of b, or len(b) when b ends
// inside the string. StringEnd finds the same quote in a string already
// known to be valid.
func ScanString(b []byte, i int) (end int, esc, ok bool) {
	for {
		// PlainRun, written out: the component scanner's hot loop calls
		// ScanString once a string.
		for i+8 <= len(b) {
			if m := StopBytes(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto stop
			}
			i += 8
		}
		for i < len(b) && strPlain[b[i]] {
			i++
		}
		if i >= len(b) {
			return i, esc, false
		}
	stop:
		switch c := b[i]; {
		case c == '"':
			return i, esc, true
		case c == '\\':
			esc = true
			k := EscapeLen(b, i)
			if k == 0 {
				return i, esc, false
			}
			i += k
			continue
		case c < 0x20:
			return i, esc, false
		}
		i++
	}
}
