package jsonwire

// AppendCompact appends src, a valid JSON value, without its
// insignificant whitespace: the value on one line, its strings, numbers
// and key order unchanged. src must be valid JSON (as the parser's
// messages are); other input is copied with its whitespace outside
// strings removed.
func AppendCompact(dst, src []byte) []byte {
	start := 0
	inStr := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
		case IsSpace(c):
			dst = append(dst, src[start:i]...)
			start = i + 1
		}
	}
	return append(dst, src[start:]...)
}
