package parser

import (
	"fmt"
	"testing"
	"unsafe"
)

// A surface's entries are taken from chunks of entries only its own new
// components take, and the chunks of a frozen surface go, emptied, to
// the next surfaces' new entries (newEntry, spareEntries): no entry of a
// live surface may lie in another surface's chunk nor in a spare one.

// entriesV09 has, in its first block, "s" and "t" arriving interleaved:
// "t" freezes at the block's end while "s" stays in full form (a child
// missing). In the second block a new surface "u" takes the spare chunks
// while "s" gets its missing child and more; the third thaws "s" and "t"
// and adds to them, while "u" stays in full form.
const entriesV09 = `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
	`{"version":"v0.9","createSurface":{"surfaceId":"t","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"root","component":"Column","children":["a","b","miss"]},{"id":"a","component":"Text","text":"A"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[` +
	`{"id":"root","component":"Row","children":["x","y","w"]},{"id":"x","component":"Text","text":"X"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"b","component":"Text","text":"B"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[` +
	`{"id":"y","component":"Text","text":"Y"},{"id":"w","component":"Text","text":"W"}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"u","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"u","components":[` +
	`{"id":"root","component":"Column","children":["p","q","r"]},{"id":"p","component":"Text","text":"P"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"miss","component":"Card","child":"c"},{"id":"c","component":"Text","text":"C"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"u","components":[` +
	`{"id":"q","component":"Text","text":"Q"},{"id":"r","component":"Text","text":"R"}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"c","component":"Row","children":["d"]},{"id":"d","component":"Text","text":"D"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"u","components":[{"id":"r","component":"Card","child":"late"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[` +
	`{"id":"w","component":"Column","children":["z"]},{"id":"z","component":"Text","text":"Z"}]}}]</a2ui-json>`

// TestEntryChunksNotShared feeds entriesV09 in chunks of every size up to
// 32 bytes: the output is the same as a parser's that keeps its blocks'
// state, after each call no entry of a live surface lies in another
// surface's chunk of entries or in a spare one, and after a block no
// surface holds its chunks (see letGoEntries).
func TestEntryChunksNotShared(t *testing.T) {
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			spared, taken := 0, 0
			for n := 1; n <= 32; n++ {
				chunks := chunksOf([]byte(entriesV09), n)
				if !checkReleaseSame(t, mode, chunks, fmt.Sprintf("chunks of %d", n)) {
					return
				}
				bad := feedEach(t, mode, chunks, func(e *progressiveEngine) string {
					if e.scratch != nil {
						spared += len(e.scratch.entSpare)
					}
					for sid, s := range e.seen {
						if s.ents != nil {
							taken += len(s.ents.all)
							if !e.inBlock {
								return fmt.Sprintf("surface %q holds its chunks of entries after the block", sid)
							}
						}
					}
					return sharedEntry(e)
				})
				if bad != "" {
					t.Fatalf("chunks of %d: %s", n, bad)
				}
			}
			if spared == 0 || taken == 0 {
				t.Fatalf("%d chunks spared, %d taken: the test does not test", spared, taken)
			}
		})
	}
}

// sharedEntry returns which entry of e's live surfaces lies in another
// surface's chunk of entries or in a spare one ("": none).
func sharedEntry(e *progressiveEngine) string {
	in := func(ent *compEntry, c []compEntry) bool {
		if cap(c) == 0 {
			return false
		}
		p, a := uintptr(unsafe.Pointer(ent)), uintptr(unsafe.Pointer(unsafe.SliceData(c)))
		return p >= a && p < a+uintptr(cap(c))*unsafe.Sizeof(compEntry{})
	}
	for sid, s := range e.seen {
		for id, ent := range s.comps {
			for oid, o := range e.seen {
				if o == s || o.ents == nil {
					continue
				}
				for _, c := range o.ents.all {
					if in(ent, c) {
						return fmt.Sprintf("entry %q of surface %q lies in a chunk of surface %q", id, sid, oid)
					}
				}
			}
			if e.scratch != nil {
				for _, c := range e.scratch.entSpare {
					if in(ent, c) {
						return fmt.Sprintf("entry %q of surface %q lies in a spare chunk", id, sid)
					}
				}
			}
		}
	}
	return ""
}
