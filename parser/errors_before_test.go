package parser

import (
	"errors"
	"testing"
)

// TestBlockErrorBeforeAfterEmptyReductions checks that a failure's Before
// counts the parts that precede it when delta mode reduces a message of
// the same call to nothing (a complete message whose entries were all
// yielded already), which places nothing.
func TestBlockErrorBeforeAfterEmptyReductions(t *testing.T) {
	chunks := []string{
		`pre <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/u","value":{"a":1,"b":2}`,
		`}}]</a2ui-json><a2ui-json>garbage</a2ui-json>tail text`,
	}
	for _, mode := range []Mode{ModeComplete, ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := New(WithMode(mode))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Feed([]byte(chunks[0])); err != nil {
				t.Fatal(err)
			}
			parts, err := p.Feed([]byte(chunks[1]))
			var be *BlockError
			if !errors.As(err, &be) {
				t.Fatalf("error %v, want a *BlockError", err)
			}
			if be.Before < 0 || be.Before >= len(parts) || parts[be.Before].Text != "tail text" {
				t.Fatalf("Before = %d with %d parts (%+v): the failure must come right before the text after the failed block", be.Before, len(parts), parts)
			}
		})
	}
}

// TestBlockErrorBeforeWhenReductionYieldsNothing checks that a delta-mode
// message reduced to nothing at the start of a call leaves no part behind:
// the failure that follows it precedes the next block's message, so its
// Before is 0.
func TestBlockErrorBeforeWhenReductionYieldsNothing(t *testing.T) {
	p, err := New(WithMode(ModeDelta))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Feed([]byte(`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/u","value":{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	parts, err := p.Feed([]byte(`}}]</a2ui-json><a2ui-json>garbage</a2ui-json><a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"b":2}}}]</a2ui-json>`))
	var be *BlockError
	if !errors.As(err, &be) {
		t.Fatalf("error %v, want a *BlockError", err)
	}
	if len(parts) != 1 || len(parts[0].Messages) != 1 {
		t.Fatalf("parts %+v, want one part with the second block's message", parts)
	}
	if be.Before != 0 {
		t.Fatalf("Before = %d, want 0: the only part holds a message that follows the failure", be.Before)
	}
}
