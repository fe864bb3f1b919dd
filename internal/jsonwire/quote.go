package jsonwire

import (
	"encoding/binary"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string literal exactly as encoding/json
// writes it with HTML escaping off: \b, \f, \n, \r and \t in their short
// forms, other control characters as \u00XX, each byte of invalid UTF-8 as
// \ufffd, and U+2028 and U+2029 escaped. Event lines and the command line's
// output use it.
func AppendString(dst []byte, s string) []byte {
	return appendQuoted(dst, s, false, true)
}

// AppendQuoted appends s as a JSON string literal as the parser writes the
// messages it re-encodes: control characters other than \n, \r and \t as
// \u00XX (so \b is \u0008), each byte of invalid UTF-8 as \ufffd, or with
// rawInvalid as \xHH (which is not JSON: the comparison encodings of the
// parser's data model), and U+2028 and U+2029 escaped.
func AppendQuoted(dst []byte, s string, rawInvalid bool) []byte {
	return appendQuoted(dst, s, rawInvalid, false)
}

func appendQuoted(dst []byte, s string, rawInvalid, shortBF bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && StopBytes(binary.LittleEndian.Uint64([]byte(s[i:i+8]))) == 0 {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch {
			case c == '"', c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\b' && shortBF:
				dst = append(dst, '\\', 'b')
			case c == '\f' && shortBF:
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			if rawInvalid {
				dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
			} else {
				dst = append(dst, `\ufffd`...)
			}
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
