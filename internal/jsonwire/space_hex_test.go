package jsonwire

import (
	"strconv"
	"testing"
)

func TestSkipSpace(t *testing.T) {
	tests := []struct {
		name string
		in   string
		from int
		want int
	}{
		{"empty", "", 0, 0},
		{"none", "x", 0, 0},
		{"all kinds", " \t\r\n x", 0, 5},
		{"indentation", "\n" + "                " + "   {", 0, 20},
		{"indentation to the end", "\n        ", 0, 9},
		{"from the middle", "a  b", 1, 3},
		{"only space", " \n\t", 0, 3},
		{"not json space", "\v\f", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SkipSpace(tc.in, tc.from); got != tc.want {
				t.Errorf("SkipSpace(%q, %d) = %d, want %d", tc.in, tc.from, got, tc.want)
			}
			if got := SkipSpace([]byte(tc.in), tc.from); got != tc.want {
				t.Errorf("SkipSpace([]byte(%q), %d) = %d, want %d", tc.in, tc.from, got, tc.want)
			}
		})
	}
}

func FuzzSkipSpace(f *testing.F) {
	for _, s := range []string{"", " x", "\n         \t}", "\r\n\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := 0
		for want < len(s) && IsSpace(s[want]) {
			want++
		}
		if got := SkipSpace(s, 0); got != want {
			t.Errorf("SkipSpace(%q, 0) = %d, want %d", s, got, want)
		}
	})
}

func TestIsHexAndHex4(t *testing.T) {
	for c := 0; c < 256; c++ {
		_, err := strconv.ParseUint(string(rune(c)), 16, 8)
		if want := err == nil && c < 0x80; IsHex(byte(c)) != want {
			t.Errorf("IsHex(%q) = %v, want %v", byte(c), !want, want)
		}
	}
	tests := []struct {
		name, in string
		want     rune
		ok       bool
	}{
		{"digits", "0041", 'A', true},
		{"lower", "00e9", 'é', true},
		{"upper", "00E9", 'é', true},
		{"surrogate", "D83D", 0xD83D, true},
		{"longer input", "20ACxyz", '€', true},
		{"bad digit", "00g0", 0, false},
		{"sign", "+041", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := Hex4(tc.in)
			if ok != tc.ok || ok && r != tc.want {
				t.Errorf("Hex4(%q) = %U, %v, want %U, %v", tc.in, r, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestTrimSpace(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"only space", " \r\n\t ", ""},
		{"both ends", "\n [1, 2] \t", "[1, 2]"},
		{"inner space kept", "a b", "a b"},
		{"not json space", "\v1\f", "\v1\f"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := TrimSpace(tc.in); got != tc.want {
				t.Errorf("TrimSpace(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := TrimSpace([]byte(tc.in)); string(got) != tc.want {
				t.Errorf("TrimSpace([]byte(%q)) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSeparator(t *testing.T) {
	for _, c := range []struct {
		name     string
		in       string
		closer   byte
		next     int
		more, ok bool
	}{
		{"comma", `,"b"`, '}', 1, true, true},
		{"comma_after_space", " \n\t,1", ']', 4, true, true},
		{"object_closer", " }", '}', 2, false, true},
		{"array_closer", "]", ']', 1, false, true},
		{"other_closer", " ]", '}', 1, false, false},
		{"other_byte", " :", '}', 1, false, false},
		{"end_of_input", "  ", ']', 2, false, false},
		{"empty", "", '}', 0, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			next, more, ok := Separator(c.in, 0, c.closer)
			if next != c.next || more != c.more || ok != c.ok {
				t.Errorf("Separator(%q, 0, %q) = %d, %v, %v, want %d, %v, %v", c.in, c.closer, next, more, ok, c.next, c.more, c.ok)
			}
		})
	}
}
