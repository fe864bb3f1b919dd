package jsonwire

import (
	"testing"
	"unicode/utf8"
)

// invalidUTF8AtRef is InvalidUTF8At by the standard library.
func invalidUTF8AtRef(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

func TestInvalidUTF8At(t *testing.T) {
	tests := []struct {
		name, in string
		want     int
	}{
		{"ascii", "abc", -1},
		{"multibyte", "héllo ☃ 😀", -1},
		{"lone continuation", "a\x80", 1},
		{"overlong", "\xC0\xAF", 0},
		{"overlong three", "ab\xE0\x80\x80", 2},
		{"surrogate", "\xED\xA0\x80", 0},
		{"above U+10FFFF", "\xF4\x90\x80\x80", 0},
		{"cut", "x\xE2\x98", 1},
		{"bad third byte", "\xE2\x98x", 0},
		{"max", "\xF4\x8F\xBF\xBF", -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := InvalidUTF8At(tc.in); got != tc.want {
				t.Errorf("InvalidUTF8At(%q) = %d, want %d", tc.in, got, tc.want)
			}
			if ref := invalidUTF8AtRef(tc.in); ref != tc.want {
				t.Fatalf("the test is wrong: the standard library says %d", ref)
			}
		})
	}
}

// TestUTF8Lead checks every lead byte and second byte against utf8.Valid.
func TestUTF8Lead(t *testing.T) {
	for c := 0; c < 256; c++ {
		size, lo, hi := UTF8Lead(byte(c))
		for d := 0; d < 256; d++ {
			seq := []byte{byte(c), byte(d), 0x80, 0x80}
			validAsLead := size >= 2 && byte(d) >= lo && byte(d) <= hi
			want := c >= 0x80 && utf8.Valid(seq[:max(size, 2)])
			if validAsLead != want {
				t.Fatalf("UTF8Lead(%#x) = %d, %#x..%#x: second byte %#x accepted %v, utf8.Valid says %v", c, size, lo, hi, d, validAsLead, want)
			}
		}
	}
}

func FuzzInvalidUTF8At(f *testing.F) {
	for _, s := range []string{"", "abc", "\xED\xA0\x80", "é\xE2\x98", "\xF4\x8F\xBF\xBF"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := InvalidUTF8At(s), invalidUTF8AtRef(s); got != want {
			t.Errorf("InvalidUTF8At(%q) = %d, want %d", s, got, want)
		}
	})
}

// TestUTF8SeqLen checks every first and second byte, each with the third
// and fourth bytes that matter (a continuation byte or not, present or
// cut), against utf8.DecodeRune.
func TestUTF8SeqLen(t *testing.T) {
	tails := [][]byte{nil, {0x80}, {0x80, 0xBF}, {0xBF, 'x'}, {'x', 0x80}, {0xC0, 0x80}}
	for c := 0x80; c < 256; c++ {
		for d := 0; d < 256; d++ {
			for _, tail := range tails {
				s := append([]byte{'a', byte(c), byte(d)}, tail...)
				r, n := utf8.DecodeRune(s[1:])
				want := n
				if r == utf8.RuneError && n == 1 {
					want = 0
				}
				if got := UTF8SeqLen(s, 1); got != want {
					t.Fatalf("UTF8SeqLen(% x, 1) = %d, want %d", s, got, want)
				}
			}
			if got := UTF8SeqLen(string([]byte{byte(c)}), 0); got != 0 {
				t.Fatalf("UTF8SeqLen(%#x cut) = %d, want 0", c, got)
			}
		}
	}
}
