package jsonwire

import "strings"

// JSON Pointer (RFC 6901) reference tokens: inside a token "~" is written
// "~0" and "/" is written "~1".

// EscapePointerToken returns s escaped as one JSON Pointer reference
// token: s itself when it holds neither '~' nor '/'.
func EscapePointerToken(s string) string {
	if strings.IndexByte(s, '~') < 0 && strings.IndexByte(s, '/') < 0 {
		return s
	}
	return string(AppendPointerToken(make([]byte, 0, len(s)+4), s))
}

// AppendPointerToken appends s escaped as one JSON Pointer reference
// token to dst.
func AppendPointerToken(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// JoinPointer returns the JSON Pointer of the reference tokens segs, each
// escaped (AppendPointerToken) after a '/': "/a/0/b~1c" for a, 0 and b/c;
// "" (the whole document) for none.
func JoinPointer(segs []string) string {
	var b []byte
	for _, s := range segs {
		b = AppendPointerToken(append(b, '/'), s)
	}
	return string(b)
}

// UnescapePointerToken returns the value of the JSON Pointer reference
// token s: "~1" as "/", "~0" as "~" (s itself when it holds no '~'). ok is
// false when some '~' is not followed by '0' or '1'; such a '~' is kept as
// it is in the value (a lenient reader can use it).
func UnescapePointerToken(s string) (v string, ok bool) {
	i := strings.IndexByte(s, '~')
	if i < 0 {
		return s, true
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	ok = true
	for ; i < len(s); i++ {
		c := s[i]
		if c == '~' && i+1 < len(s) && (s[i+1] == '0' || s[i+1] == '1') {
			i++
			if s[i] == '1' {
				c = '/'
			}
		} else if c == '~' {
			ok = false
		}
		b = append(b, c)
	}
	return string(b), ok
}

// ValidPointerEscapes reports whether every '~' of s (a JSON Pointer or
// one of its tokens) is an escape: "~0" or "~1".
func ValidPointerEscapes(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '~' {
			if i+1 >= len(s) || (s[i+1] != '0' && s[i+1] != '1') {
				return false
			}
			i++
		}
	}
	return true
}
