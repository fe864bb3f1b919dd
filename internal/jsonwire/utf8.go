package jsonwire

import "unicode/utf8"

// utf8First describes each byte that can lead a UTF-8 sequence of two bytes
// or more: its low three bits are the sequence's length (0 for a byte that
// cannot lead one, ASCII included), the rest the index in utf8Second of the
// range its second byte must fall in.
var utf8First = func() (t [256]uint8) {
	for c := 0xC2; c <= 0xF4; c++ {
		switch {
		case c <= 0xDF:
			t[c] = 2
		case c == 0xE0:
			t[c] = 1<<3 | 3
		case c == 0xED:
			t[c] = 2<<3 | 3
		case c <= 0xEF:
			t[c] = 3
		case c == 0xF0:
			t[c] = 3<<3 | 4
		case c == 0xF4:
			t[c] = 4<<3 | 4
		default:
			t[c] = 4
		}
	}
	return t
}()

// utf8Second holds the ranges of a UTF-8 sequence's second byte (which
// exclude overlong encodings, surrogates and code points above U+10FFFF).
var utf8Second = [5][2]byte{{0x80, 0xBF}, {0xA0, 0xBF}, {0x80, 0x9F}, {0x90, 0xBF}, {0x80, 0x8F}}

// UTF8Lead describes c as the first byte of a multi-byte UTF-8 sequence:
// the sequence's length in bytes, and the range lo..hi its second byte
// must fall in (its other bytes are in 0x80..0xBF). size is 0 for a byte
// that cannot lead one (ASCII included), as utf8.Valid decides: one byte
// at a time, it checks UTF-8 in a stream cut anywhere.
func UTF8Lead(c byte) (size int, lo, hi byte) {
	x := utf8First[c]
	r := &utf8Second[x>>3]
	return int(x & 7), r[0], r[1]
}

// InvalidUTF8At returns the offset of the first byte of s that does not
// start (or continue) a valid UTF-8 sequence, or -1 when s is UTF-8.
func InvalidUTF8At[T Text](s T) int {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		size := UTF8SeqLen(s, i)
		if size == 0 {
			return i
		}
		i += size
	}
	return -1
}

// UTF8SeqLen returns the length of the valid multi-byte UTF-8 sequence
// that starts at s[i] (a byte >= utf8.RuneSelf), or 0 when none does
// there: a byte that cannot lead one, a sequence cut by the end of s, a
// wrong continuation byte, an overlong form, a surrogate or a code point
// above U+10FFFF, as utf8.Valid decides.
func UTF8SeqLen[T Text](s T, i int) int {
	size, lo, hi := UTF8Lead(s[i])
	if size == 0 || i+size > len(s) || s[i+1] < lo || s[i+1] > hi ||
		size > 2 && s[i+2]&0xC0 != 0x80 || size > 3 && s[i+3]&0xC0 != 0x80 {
		return 0
	}
	return size
}
