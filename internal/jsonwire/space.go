package jsonwire

// IsSpace reports whether c is whitespace between JSON tokens.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the index of the first byte at or after s[i] that is
// not JSON whitespace, or len(s). After a newline it skips indentation
// eight spaces at a time.
func SkipSpace[T Text](s T, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\r':
			i++
		case '\n':
			for i++; i+8 <= len(s) && string(s[i:i+8]) == "        "; i += 8 {
			}
		default:
			return i
		}
	}
	return i
}

// TrimSpace returns s without its leading and trailing JSON whitespace.
func TrimSpace[T Text](s T) T {
	s = s[SkipSpace(s, 0):]
	n := len(s)
	for n > 0 && IsSpace(s[n-1]) {
		n--
	}
	return s[:n]
}

// Separator reads what follows a member or element of a container closed
// by closer ('}' or ']'), from s[i] on, whitespace skipped: a ',' (more,
// next just after it), the closer (next just after it), or anything else
// (ok false, next where it is).
func Separator[T Text](s T, i int, closer byte) (next int, more, ok bool) {
	i = SkipSpace(s, i)
	if i < len(s) {
		switch s[i] {
		case ',':
			return i + 1, true, true
		case closer:
			return i + 1, false, true
		}
	}
	return i, false, false
}
