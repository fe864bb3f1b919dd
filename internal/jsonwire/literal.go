package jsonwire

// Literal returns the JSON literal that starts with c: "true" for 't',
// "false" for 'f', "null" for 'n', and "" for any other byte. A streaming
// scanner that matches a literal one byte at a time keeps it and its
// position in it.
func Literal(c byte) string {
	switch c {
	case 't':
		return "true"
	case 'f':
		return "false"
	case 'n':
		return "null"
	}
	return ""
}

// LiteralLen returns the length of the JSON literal (true, false or null)
// that starts at s[i], or 0 when none does (s[i] starts none, or s ends
// or differs before the literal's end). It does not look past the
// literal: "nullx" starts a null. It compares fixed-size words, with no
// call, so that a scanner's loop can inline it.
func LiteralLen[T Text](s T, i int) int {
	if n := len(s) - i; n >= 4 && i >= 0 {
		w := string(s[i : i+4])
		if w == "true" || w == "null" {
			return 4
		}
		if w == "fals" && n >= 5 && s[i+4] == 'e' {
			return 5
		}
	}
	return 0
}
