package jsonwire

import "bytes"

// AppendCompact appends src, a valid JSON value, without its
// insignificant whitespace: the value on one line, its strings, numbers
// and key order unchanged (as encoding/json writes a json.RawMessage, but
// without validating it again). src must be valid JSON (as the parser's
// messages are); other input is copied with its whitespace outside
// strings removed.
func AppendCompact(dst, src []byte) []byte {
	start := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"':
			i = StringEnd(src, i+1)
		case IsSpace(c):
			dst = append(dst, src[start:i]...)
			start = i + 1
		}
	}
	return append(dst, src[start:]...)
}

// StringEnd returns the index of the quote that closes the JSON string
// whose contents start at b[i] (a quote preceded by an even run of
// backslashes), or len(b) when there is none.
func StringEnd(b []byte, i int) int {
	for {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return len(b)
		}
		q += i
		n := 0
		for j := q - 1; j >= i && b[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return q
		}
		i = q + 1
	}
}
