package protocol

import (
	"errors"
	"strings"
	"testing"
)

// TestCatalogErrorHasOnePrefix checks that a catalog error wrapping another
// error of the package says "protocol: " once, and still unwraps to both.
func TestCatalogErrorHasOnePrefix(t *testing.T) {
	inner := errors.New("protocol: malformed version")
	cases := []struct {
		name string
		err  *CatalogError
	}{
		{"with a source", &CatalogError{Source: "version", Err: inner}},
		{"without a source", &CatalogError{Err: inner}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := tc.err.Error()
			if strings.Count(msg, "protocol: ") != 1 || !strings.HasPrefix(msg, "protocol: catalog") {
				t.Fatalf("%q: want one \"protocol: \" prefix", msg)
			}
			if !errors.Is(tc.err, ErrCatalog) || !errors.Is(tc.err, inner) {
				t.Fatal("the error no longer unwraps to ErrCatalog and its cause")
			}
		})
	}
}
