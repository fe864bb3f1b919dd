package parser

import (
	"fmt"
	"testing"
)

// reuseListsV09 empties components' lists (every child arrived) while
// others start theirs, in one block and across blocks and surfaces, so
// that lists emptied are taken again (dropEmptyLists, takeLists): p's
// children arrive, r's empty list is open (a placeholder, no wait) while
// u's child is there, then q waits for c while p names a new child d, then
// c and d arrive; in the next block, t's root waits for three children
// (one named as s's d, whose placeholder s yielded) while s's p names
// another. (Records of yielded placeholders are reused too, sparePhMap.)
const reuseListsV09 = `a <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"root","component":"Column","children":["p","q","r"]},{"id":"p","component":"Column","children":["a","b"]},` +
	`{"id":"r","component":"Row","children":[]},{"id":"u","component":"Row","children":["a"]},` +
	`{"id":"a","component":"Text","text":"A"},{"id":"b","component":"Text","text":"B"},` +
	`{"id":"q","component":"Row","children":["c","a"]},{"id":"p","component":"Column","children":["a","b","d"]},` +
	`{"id":"d","component":"Text","text":"D"},{"id":"c","component":"Text","text":"C"}]}}]</a2ui-json> b
<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"t","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[` +
	`{"id":"root","component":"Column","children":["x","y","d"]}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"p","component":"Column","children":["a","e","b"]},{"id":"q","component":"Row","children":["c"]}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[` +
	`{"id":"x","component":"Text","text":"X"},{"id":"y","component":"Card","child":"z"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"e","component":"Text","text":"E"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[{"id":"z","component":"Text","text":"Z"},{"id":"d","component":"Text","text":"TD"}]}}]</a2ui-json> c`

// TestReusedListsKeepOutput: lists emptied and taken again by another
// component give the output of a parser that keeps each component's own
// (keepIdle also keeps emptied lists), with the stream split at every byte
// and fed one byte at a time, in both progressive modes.
func TestReusedListsKeepOutput(t *testing.T) {
	b := []byte(reuseListsV09)
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			if !checkReleaseSame(t, mode, chunksOf(b, 1), "one byte at a time") {
				return
			}
			for i := 1; i < len(b); i++ {
				if !checkReleaseSame(t, mode, [][]byte{b[:i], b[i:]}, fmt.Sprintf("split at %d", i)) {
					return
				}
			}
		})
	}
}
