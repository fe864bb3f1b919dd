package parser

import (
	"fmt"
	"strings"
	"testing"
)

// TestHeldBackSnapshotFlushedAtBlockEnd checks that a snapshot the size
// rule held back (a surface past 32 KiB whose last change is small) is
// yielded when the block ends, here a block closed inside an unfinished
// message.
func TestHeldBackSnapshotFlushedAtBlockEnd(t *testing.T) {
	var ids []string
	for i := range 40 {
		ids = append(ids, fmt.Sprintf(`"t%d"`, i))
	}
	var steps []string
	steps = append(steps, `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[`+strings.Join(ids, ",")+`]}`)
	var big strings.Builder
	for i := range 39 {
		fmt.Fprintf(&big, `,{"id":"t%d","component":"Text","text":"%s"}`, i, strings.Repeat("x", 1000))
	}
	// The 39 large children arrive at once (a snapshot is yielded); the
	// last, small one is held back; the block then ends inside the
	// unfinished message.
	steps = append(steps, big.String(), `,{"id":"t39","component":"Text","text":"y"}`, `</a2ui-json>`)
	p, err := New(WithMode(ModeProgressive))
	if err != nil {
		t.Fatal(err)
	}
	var last string
	for _, s := range steps {
		parts, err := p.Feed([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		for _, pt := range parts {
			for _, m := range pt.Messages {
				last = string(m)
			}
		}
	}
	if !strings.Contains(last, `"t39"`) || strings.Contains(last, `loading_t39`) {
		t.Fatalf("last snapshot does not hold t39: the held-back snapshot was not flushed at block end")
	}
}
