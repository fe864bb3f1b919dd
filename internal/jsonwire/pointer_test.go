package jsonwire

import (
	"strings"
	"testing"
)

func TestPointerToken(t *testing.T) {
	for _, tc := range []struct {
		name, value, token string
	}{
		{"plain", "abc", "abc"},
		{"empty", "", ""},
		{"slash", "a/b", "a~1b"},
		{"tilde", "a~b", "a~0b"},
		{"tilde then one", "~1", "~01"},
		{"both", "/~/", "~1~0~1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := EscapePointerToken(tc.value); got != tc.token {
				t.Errorf("EscapePointerToken(%q) = %q, want %q", tc.value, got, tc.token)
			}
			if got := string(AppendPointerToken([]byte("x"), tc.value)); got != "x"+tc.token {
				t.Errorf("AppendPointerToken(x, %q) = %q, want x%q", tc.value, got, tc.token)
			}
			if got, ok := UnescapePointerToken(tc.token); got != tc.value || !ok {
				t.Errorf("UnescapePointerToken(%q) = %q, %v, want %q, true", tc.token, got, ok, tc.value)
			}
			if !ValidPointerEscapes(tc.token) {
				t.Errorf("ValidPointerEscapes(%q) = false", tc.token)
			}
		})
	}
}

func TestJoinPointer(t *testing.T) {
	for _, tc := range []struct {
		name string
		segs []string
		want string
	}{
		{"none", nil, ""},
		{"one", []string{"a"}, "/a"},
		{"empty token", []string{""}, "/"},
		{"several", []string{"a", "0", "b"}, "/a/0/b"},
		{"escaped", []string{"a/b", "~"}, "/a~1b/~0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := JoinPointer(tc.segs); got != tc.want {
				t.Errorf("JoinPointer(%q) = %q, want %q", tc.segs, got, tc.want)
			}
		})
	}
}

func TestUnescapePointerTokenInvalid(t *testing.T) {
	for _, tc := range []struct {
		name, token, value string
	}{
		{"tilde at the end", "a~", "a~"},
		{"tilde two", "~2", "~2"},
		{"tilde tilde one", "~~1", "~/"},
		{"tilde tilde zero", "~~0", "~~"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := UnescapePointerToken(tc.token); got != tc.value || ok {
				t.Errorf("UnescapePointerToken(%q) = %q, %v, want %q, false", tc.token, got, ok, tc.value)
			}
			if ValidPointerEscapes(tc.token) {
				t.Errorf("ValidPointerEscapes(%q) = true", tc.token)
			}
		})
	}
}

// FuzzPointerToken holds the token functions to the two-pass string
// replacements the packages used before them: escaping then unescaping
// gives the value back, and the lenient unescaping is "~1" to "/" then
// "~0" to "~".
func FuzzPointerToken(f *testing.F) {
	for _, s := range []string{"", "a/b", "~0~1", "~~1", "~2/~", "~01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		esc := EscapePointerToken(s)
		if want := strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1"); esc != want {
			t.Fatalf("EscapePointerToken(%q) = %q, want %q", s, esc, want)
		}
		if v, ok := UnescapePointerToken(esc); v != s || !ok {
			t.Fatalf("UnescapePointerToken(%q) = %q, %v, want %q", esc, v, ok, s)
		}
		v, ok := UnescapePointerToken(s)
		if want := strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~"); v != want {
			t.Fatalf("UnescapePointerToken(%q) = %q, want %q", s, v, want)
		}
		if ok != ValidPointerEscapes(s) {
			t.Fatalf("UnescapePointerToken(%q) ok %v, ValidPointerEscapes %v", s, ok, !ok)
		}
	})
}
