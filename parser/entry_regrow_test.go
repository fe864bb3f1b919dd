package parser

import (
	"fmt"
	"strings"
	"testing"
)

// regrowStreams are component streams whose child lists grow and whose
// children arrive in the orders the incremental processing (processGrown)
// must follow: a list filled before its children, children before and
// inside their list, a child named twice, more than 16 and more than 64
// children, and a list that loses its tail.
var regrowStreams = []struct{ name, in string }{
	{"v09 list then children", `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b","c","d"]},` +
		`{"id":"c","component":"Text","text":"cc"},{"id":"a","component":"Text","text":"aa"},{"id":"d","component":"Text","text":"dd"},{"id":"b","component":"Text","text":"bb"}]}}]</a2ui-json>`},
	{"v09 children around the list", `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"b","component":"Text","text":"bb"},{"id":"root","component":"Card","child":"col"},` +
		`{"id":"col","component":"Row","children":["a","b","a","c","b","e"],"gap":1},{"id":"a","component":"Text","text":"aa"},{"id":"e","component":"Column","children":["c","f"]},` +
		`{"id":"c","component":"Text","text":"cc"},{"id":"f","component":"Text","text":"ff"}]}}]</a2ui-json>`},
	{"v09 two blocks", `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["x1","x2","x3"]},{"id":"x2","component":"Text","text":"2"}]}}]</a2ui-json>` +
		`prose <a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"x3","component":"Text","text":"3"},{"id":"root","component":"Column","children":["x1","x2","x3","x4"]},{"id":"x1","component":"Text","text":"1"}]}}]</a2ui-json>`},
	{"v09 many children", manyChildren(20)},
	{"v09 large snapshot held back", `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["big","col"]},` +
		`{"id":"big","component":"Text","text":"` + strings.Repeat("x", 40<<10) + `"},` +
		`{"id":"col","component":"Column","children":["k1","k2","k3","k4"]},{"id":"k2","component":"Text","text":"2"},` +
		`{"id":"k3","component":"Text","text":"3"},{"id":"k1","component":"Text","text":"1"},{"id":"k4","component":"Text","text":"4"}]}}]</a2ui-json>`},
	{"v09 more than 64 children", manyChildren(70)},
	{"v08 explicitList", `<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[` +
		`{"id":"root","component":{"Column":{"children":{"explicitList":["p","q","p","r"]}}}},{"id":"q","component":{"Text":{"text":{"literalString":"q"}}}},` +
		`{"id":"r","component":{"Text":{"text":{"literalString":"r"}}}},{"id":"p","component":{"Text":{"text":{"literalString":"p"}}}}]}}]</a2ui-json>`},
}

// manyChildren is a stream whose root lists n children that arrive after
// it, in reverse order.
func manyChildren(n int) string {
	var ids, comps []string
	for i := range n {
		ids = append(ids, fmt.Sprintf(`"k%02d"`, i))
		comps = append(comps, fmt.Sprintf(`{"id":"k%02d","component":"Text","text":"t%d"}`, n-1-i, i))
	}
	return `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[` + strings.Join(ids, ",") + `]},` +
		strings.Join(comps, ",") + `]}}]</a2ui-json>`
}

// TestIncrementalProcessingMatchesFull feeds streams split at every byte
// (and in chunks of 3 and 16 bytes) twice: as they are, and with every
// component's last processing forgotten after each call, so that each is
// processed again from scratch (processFast, registerWaits). The outputs
// must be the same, byte for byte.
func TestIncrementalProcessingMatchesFull(t *testing.T) {
	checkSameWithHook(t, regrowStreams, "incremental", "from scratch", func(e *progressiveEngine) {
		for _, s := range e.seen {
			for _, ent := range s.comps {
				ent.slotsKept = false
			}
		}
	})
}
