package parser

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// testPlaceholderJSON encodes a v0.9 placeholder as the engine does.
var testPlaceholderJSON = (&progressiveEngine{fam: protocol.FamilyV09}).appendChildPlaceholderJSON

// TestPlaceholdersKeepPastRelease: the names and encodings of the
// placeholders made in a block (what components keep of them: the
// strings and bytes, not the records, whose slabs the next block reuses)
// keep their values after the caches are released and reused (their maps
// and holder of chunks, through the pool, by this engine or another),
// while the next block's placeholders fill chunks of their own.
func TestPlaceholdersKeepPastRelease(t *testing.T) {
	for _, tc := range []struct {
		name string
		ids  []string
	}{
		{"plain", []string{"a", "b", "header"}},
		{"escaped", []string{`q"uote`, "tab\there", "é"}},
		{"longer_than_a_chunk", []string{strings.Repeat("x", encChunk), "y"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e progressiveEngine
			e.takeScratch()
			type kept struct {
				id, ph string // as the components keep them (in place)
				js     []byte
				want   [3]string // their values, copied
			}
			var made []kept
			for _, id := range tc.ids {
				p := e.names.placeholderOf(id, testPlaceholderJSON)
				made = append(made, kept{id: p.id(), ph: p.ph, js: p.js, want: [3]string{strings.Clone(p.id()), strings.Clone(p.ph), string(p.js)}})
				if p.id() != id || p.ph != "loading_"+id || string(p.js) != string(testPlaceholderJSON(nil, id)) {
					t.Fatalf("placeholder of %q: id %q, ph %q, js %s", id, p.id(), p.ph, p.js)
				}
			}
			// The block ends; the next blocks (of this engine, and of
			// another that takes the pooled set) make many placeholders.
			e.names.release()
			e.putScratch()
			var other progressiveEngine
			for _, eng := range []*progressiveEngine{&e, &other} {
				eng.takeScratch()
				for i := range 200 {
					id := fmt.Sprintf("%s_%d", tc.ids[i%len(tc.ids)], i)
					eng.names.placeholderOf(id, testPlaceholderJSON)
				}
				// Released caches hold none of the earlier placeholders:
				// this one is made again, with an encoding of its own.
				if p := eng.names.placeholderOf(tc.ids[0], testPlaceholderJSON); unsafe.SliceData(p.js) == unsafe.SliceData(made[0].js) {
					t.Errorf("placeholder of %q taken from a released cache", tc.ids[0])
				}
				eng.names.release()
				eng.putScratch()
			}
			for _, k := range made {
				if got := [3]string{k.id, k.ph, string(k.js)}; got != k.want {
					t.Errorf("placeholder of %q changed after the release: id, ph, js %q; want %q", k.want[0], got, k.want)
				}
			}
		})
	}
}
