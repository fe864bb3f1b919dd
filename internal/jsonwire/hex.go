package jsonwire

// IsHex reports whether c is a hexadecimal digit.
func IsHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Hex4 decodes the four hexadecimal digits of a \u escape, s[:4] (s must
// hold at least four bytes); ok is false when one is not a hex digit.
func Hex4[T Text](s T) (r rune, ok bool) {
	for k := range 4 {
		c, d := s[k], byte(0)
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}
