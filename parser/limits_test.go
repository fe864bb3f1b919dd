package parser

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// limitRun is what a stream fed in chunks gave: every message (as text)
// and every limit error, in order.
type limitRun struct {
	msgs   []string
	limits []string // "what:surface" of each *LimitError
	other  []error
}

// feedLimited feeds in in chunks of size n (0: whole) to p and collects
// what it gave.
func feedLimited(t *testing.T, p *Parser, in string, n int) limitRun {
	t.Helper()
	var r limitRun
	collect := func(parts []Part, err error) {
		for _, pt := range parts {
			for _, m := range pt.Messages {
				r.msgs = append(r.msgs, string(m))
			}
		}
		if err == nil {
			return
		}
		var errs []error
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap()
		} else {
			errs = []error{err}
		}
		for _, e := range errs {
			var le *LimitError
			if errors.As(e, &le) && errors.Is(e, ErrLimit) {
				var be *BlockError
				if !errors.As(e, &be) {
					t.Fatalf("a limit error outside a *BlockError: %v", e)
				}
				if !strings.HasPrefix(e.Error(), "parser: ") {
					t.Fatalf("error text without the package prefix: %q", e.Error())
				}
				r.limits = append(r.limits, le.What+":"+le.SurfaceID)
				continue
			}
			r.other = append(r.other, e)
		}
	}
	if n <= 0 {
		n = len(in)
	}
	for i := 0; i < len(in); i += n {
		collect(p.Feed([]byte(in[i:min(i+n, len(in))])))
	}
	collect(p.Close())
	return r
}

// TestDeletedSurfacesForgottenOldestFirst deletes more v0.8 surfaces than
// the parser remembers: the oldest is forgotten (its late message is read
// as for a surface never seen, and yielded), the others stay deleted (their
// late messages are ignored), the same way every run.
func TestDeletedSurfacesForgottenOldestFirst(t *testing.T) {
	cases := []struct {
		name      string
		deletions []string // surfaces begun and deleted, in order
		forgotten string   // the one whose late data is yielded
	}{
		{"three surfaces", []string{"a", "b", "c"}, "a"},
		// a's second deletion is the one that counts: b is the oldest.
		{"a surface deleted again", []string{"a", "b", "a", "c"}, "b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			for _, s := range tc.deletions {
				fmt.Fprintf(&b, `<a2ui-json>[{"beginRendering":{"surfaceId":%q,"root":"root"}},{"deleteSurface":{"surfaceId":%q}}]</a2ui-json>`, s, s)
			}
			for _, s := range []string{"a", "b", "c"} {
				fmt.Fprintf(&b, `<a2ui-json>[{"dataModelUpdate":{"surfaceId":%q,"contents":[{"key":"late","valueString":%q}]}}]</a2ui-json>`, s, s)
			}
			for run := range 20 {
				p, err := New(WithMode(ModeProgressive), WithMaxSurfaces(2))
				if err != nil {
					t.Fatal(err)
				}
				r := feedLimited(t, p, b.String(), 0)
				var late []string
				for _, m := range r.msgs {
					if strings.Contains(m, `"late"`) {
						late = append(late, m)
					}
				}
				if len(late) != 1 || !strings.Contains(late[0], `"surfaceId":"`+tc.forgotten+`"`) {
					t.Fatalf("run %d: late messages yielded %v, want only %s's", run, late, tc.forgotten)
				}
			}
		})
	}
}
