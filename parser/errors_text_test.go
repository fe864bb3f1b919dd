package parser

import (
	"strings"
	"testing"
)

// TestErrorTextsHaveOnePrefix checks that an error wrapping another of the
// package says "parser: " once.
func TestErrorTextsHaveOnePrefix(t *testing.T) {
	cases := []struct {
		name string
		err  error
	}{
		{"block error over a syntax error", &BlockError{Block: 1, Offset: 7, Err: &SyntaxError{Offset: 9, Msg: "bad"}}},
		{"block error over a sentinel", &BlockError{Err: ErrTooLarge}},
		{"block error over a limit error", &BlockError{Err: &LimitError{What: "surfaces", Max: 2, SurfaceID: "s"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := tc.err.Error()
			if !strings.HasPrefix(msg, "parser: ") || strings.Count(msg, "parser: ") != 1 {
				t.Fatalf("%q: want one \"parser: \" prefix", msg)
			}
		})
	}
}
