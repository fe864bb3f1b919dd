package natssubj_test

import (
	"fmt"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/natssubj"
)

func TestPrefixProblem(t *testing.T) {
	tests := []struct{ name, prefix, want string }{
		{"one token", "a2ui", ""},
		{"several tokens", "a2ui.out.v1", ""},
		{"empty", "", "is empty"},
		{"empty token", "a2ui..out", "token 2 is empty"},
		{"trailing dot", "a2ui.", "token 2 is empty"},
		{"leading dot", ".a2ui", "token 1 is empty"},
		{"wildcard token", "a2ui.*", "token 2 holds a wildcard ('*' or '>')"},
		{"tail wildcard", "a2ui.>", "token 2 holds a wildcard ('*' or '>')"},
		{"wildcard inside", "a*b", "token 1 holds a wildcard ('*' or '>')"},
		{"space", "a2ui out", "token 1 holds a space"},
		{"tab", "a2ui\tout", "token 1 holds a control byte"},
		{"control byte", "a2ui.\x01", "token 2 holds a control byte"},
		{"delete", "a2ui\x7f", "token 1 holds a control byte"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := natssubj.PrefixProblem(tc.prefix); got != tc.want {
				t.Errorf("PrefixProblem(%q) = %q, want %q", tc.prefix, got, tc.want)
			}
		})
	}
}

func TestTokenProblem(t *testing.T) {
	tests := []struct{ name, token, want string }{
		{"plain", "session-1", ""},
		{"empty", "", "is empty"},
		{"dot", "a.b", "holds '.'"},
		{"star", "*", "holds a wildcard ('*' or '>')"},
		{"newline", "a\nb", "holds a control byte"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := natssubj.TokenProblem(tc.token); got != tc.want {
				t.Errorf("TokenProblem(%q) = %q, want %q", tc.token, got, tc.want)
			}
		})
	}
}

func Example() {
	fmt.Printf("%q\n", natssubj.PrefixProblem("a2ui.out"))
	fmt.Println(natssubj.PrefixProblem("a2ui.>"))
	// Output:
	// ""
	// token 2 holds a wildcard ('*' or '>')
}
