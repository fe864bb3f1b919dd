package parser

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// appendJSON encodes a decoded JSON value (map[string]any, []any, string,
// json.Number, bool, nil, float64) with object keys sorted, as
// encoding/json does, but without HTML escaping and without reflection.
func appendJSON(dst []byte, v any) []byte { return appendValue(dst, v, false) }

// appendCmp appends the comparison encoding of a decoded value (see
// progressive_datacmp.go).
func appendCmp(dst []byte, v any) []byte { return appendValue(dst, v, true) }

// appendValue is appendJSON, or with cmp appendCmp: strings written by
// appendQuoted with rawInvalid = cmp, and values held as their encodings
// (*encodedValue) written as the matching one.
func appendValue(dst []byte, v any, cmp bool) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		if x {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case string:
		return appendQuoted(dst, x, cmp)
	case json.Number:
		if x == "" {
			return append(dst, '0')
		}
		return append(dst, x...)
	case float64:
		return strconv.AppendFloat(dst, x, 'g', -1, 64)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case map[string]any:
		dst = append(dst, '{')
		var small [16]string
		keys := small[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendQuoted(dst, k, cmp)
			dst = append(dst, ':')
			dst = appendValue(dst, x[k], cmp)
		}
		return append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for i, item := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendValue(dst, item, cmp)
		}
		return append(dst, ']')
	case *encodedValue: // a value held as its encodings
		if cmp {
			return append(dst, x.cmp...)
		}
		return append(dst, x.out...)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return append(dst, "null"...)
	}
	return append(dst, b...)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string literal.
func appendJSONString(dst []byte, s string) []byte {
	return appendQuoted(dst, s, false)
}

// appendQuoted appends s as a JSON string literal, with each byte of
// invalid UTF-8 written as \ufffd, or with rawInvalid as \xHH (which is
// not JSON: the comparison encodings of progressive_datacmp.go).
func appendQuoted(dst []byte, s string, rawInvalid bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
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
