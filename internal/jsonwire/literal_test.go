package jsonwire

import "testing"

func TestLiteral(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := map[byte]string{'t': "true", 'f': "false", 'n': "null"}[byte(c)]
		if got := Literal(byte(c)); got != want {
			t.Errorf("Literal(%q) = %q, want %q", byte(c), got, want)
		}
	}
}

func TestLiteralLen(t *testing.T) {
	for _, tc := range []struct {
		name, s string
		i, want int
	}{
		{"true", "true", 0, 4},
		{"false", "false", 0, 5},
		{"null", "null", 0, 4},
		{"inside", "[1,true]", 3, 4},
		{"followed", "nullx", 0, 4},
		{"cut true", "tru", 0, 0},
		{"cut false", "fals", 0, 0},
		{"cut null at the end", "[nul", 1, 0},
		{"wrong letter", "trUe", 0, 0},
		{"false misspelt", "falsy", 0, 0},
		{"not a literal", "1234", 0, 0},
		{"at the end", "true", 4, 0},
		{"past the end", "true", 9, 0},
		{"empty", "", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := LiteralLen(tc.s, tc.i); got != tc.want {
				t.Errorf("LiteralLen(%q, %d) = %d, want %d", tc.s, tc.i, got, tc.want)
			}
			if got := LiteralLen([]byte(tc.s), tc.i); got != tc.want {
				t.Errorf("LiteralLen([]byte(%q), %d) = %d, want %d", tc.s, tc.i, got, tc.want)
			}
		})
	}
}
