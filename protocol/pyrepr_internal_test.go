package protocol

import (
	"encoding/json"
	"testing"
)

func TestPyRepr(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"string", "abc", `'abc'`},
		{"string_with_single_quote", "it's", `"it's"`},
		{"string_with_both_quotes", `it's "x"`, `'it\'s "x"'`},
		{"control_chars", "a\nb\t\x01", `'a\nb\t\x01'`},
		{"unicode", "18°C 日本", `'18°C 日本'`},
		{"int_number", json.Number("123"), `123`},
		{"float_number", json.Number("1.5"), `1.5`},
		{"exp_number", json.Number("1e2"), `100.0`},
		{"float64_integral", float64(7), `7`},
		{"float64_fraction", 0.25, `0.25`},
		{"bools_null", []any{true, false, nil}, `[True, False, None]`},
		{"object_sorted", map[string]any{"b": json.Number("1"), "a": "x"}, `{'a': 'x', 'b': 1}`},
		{"int", 42, `42`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pyRepr(tt.in); got != tt.want {
				t.Fatalf("pyRepr(%#v) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
	long := make([]any, 500)
	for i := range long {
		long[i] = "xxxxxxxx"
	}
	if got := pyRepr(long); len(got) > pyReprLimit+40 {
		t.Fatalf("long value not capped: %d bytes", len(got))
	}
}

func TestValidPath(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"", true}, {"/", true}, {"/a/b", true}, {"a/b", true}, {"/a~0~1", true},
		{"/a~2", false}, {"~", false}, {"/a/~", false}, {"x~x", false},
	}
	for _, tt := range tests {
		if got := ValidPath(tt.path); got != tt.want {
			t.Errorf("ValidPath(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
