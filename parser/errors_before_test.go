package parser

import (
	"errors"
	"testing"
)

// TestBlockErrorBeforeAfterDroppedParts checks that a failure's Before
// still counts the parts that precede it when delta mode drops a part it
// reduced to nothing in the same call (a complete message whose entries
// were all yielded already).
func TestBlockErrorBeforeAfterDroppedParts(t *testing.T) {
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
