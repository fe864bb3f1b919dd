package parser

import (
	"strings"
	"testing"
)

// TestYieldGateFollowsRootChange checks that a message that changes a
// surface's root changes what is yielded: a second beginRendering of
// surface s names root b, already arrived, and the next yield is b's
// snapshot (with the old root a still in use, a's again, or nothing).
func TestYieldGateFollowsRootChange(t *testing.T) {
	steps := []string{
		`<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"a"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"x"}}}},{"id":"b","component":{"Text":{"text":{"literalString":"y"}}}}]}},`,
		`{"beginRendering":{"surfaceId":"s","root":"b"}},`,
		`{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"c","component":{"Text":{"text":{"literalString":"z"}}}}]}}]</a2ui-json>`,
	}
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := New(WithMode(mode))
			if err != nil {
				t.Fatal(err)
			}
			msgs, errs := feedSteps(t, p, steps...)
			if len(errs) > 0 {
				t.Fatalf("unexpected errors %v", errs)
			}
			last := msgs[len(msgs)-1]
			if !strings.Contains(last, `"id":"b"`) || strings.Contains(last, `"id":"a"`) {
				t.Fatalf("messages %q: want the last to be root b's snapshot", msgs)
			}
		})
	}
}
