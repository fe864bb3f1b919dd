package parser

import (
	"fmt"
	"testing"
	"unsafe"
)

// The bytes of components that complete in a block are copied to the
// block's chunk (release_carve.go), which the next block fills again:
// once a block ended, nothing may point into it.

// carveV09 completes "a" in one block, its surface waiting for "late"
// (not frozen), and fills the chunk with "z" in the next, where "late"
// arrives and the snapshot holds "a" again. "root" and "r" complete with
// children missing: their processed forms are written to the open
// buffers while they arrive (procBuf), one after the other.
const carveV09 = `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"root","component":"Column","children":["a","late","r"]},` +
	`{"id":"a","component":"Text","text":"the first block's text, long enough to span chunks"},` +
	`{"id":"r","component":"Row","children":["late","a","late2"]}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"z","component":"Text","text":"ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"},` +
	`{"id":"late","component":"Text","text":"L"},{"id":"late2","component":"Text","text":"L2"}]}}]</a2ui-json>`

// carveV08 holds two forms of "a" in messages that wait for
// beginRendering (the first one no entry keeps), which the next block
// sends after filling the chunk with another surface's component.
const carveV08 = `<a2ui-json>[{"surfaceUpdate":{"surfaceId":"s","components":[` +
	`{"id":"root","component":{"Column":{"children":{"explicitList":["a"]}}}},` +
	`{"id":"a","component":{"Text":{"text":{"literalString":"the first form of a, long enough to span chunks"}}}}]}},` +
	`{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"the second form"}}}}]}}]</a2ui-json>
<a2ui-json>[{"surfaceUpdate":{"surfaceId":"t","components":[` +
	`{"id":"z","component":{"Text":{"text":{"literalString":"ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"}}}}]}},` +
	`{"beginRendering":{"surfaceId":"s","root":"root"}}]</a2ui-json>`

// TestCarvedComponentsOutliveTheirBlock feeds the streams above in chunks
// of every size up to 48 bytes: the output is the same as a parser's that
// keeps its blocks' state, and after each call outside a block no
// component, processed form or held message points into the chunk.
func TestCarvedComponentsOutliveTheirBlock(t *testing.T) {
	for _, tc := range []struct{ name, stream string }{{"v09", carveV09}, {"v08", carveV08}} {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(fmt.Sprintf("%s_%v", tc.name, mode), func(t *testing.T) {
				carved := 0
				for n := 1; n <= 48; n++ {
					chunks := chunksOf([]byte(tc.stream), n)
					if !checkReleaseSame(t, mode, chunks, fmt.Sprintf("chunks of %d", n)) {
						return
					}
					c, bad := carveRun(t, mode, chunks)
					carved += c
					if bad != "" {
						t.Fatalf("chunks of %d: %s", n, bad)
					}
				}
				if carved == 0 {
					t.Fatal("no component was carved: the test does not test")
				}
			})
		}
	}
}

// carveRun feeds chunks to a releasing parser of mode; it returns how
// many components it found carved within a block, and what pointed into
// the chunk after one ("": nothing).
func carveRun(t *testing.T, mode Mode, chunks [][]byte) (carved int, bad string) {
	t.Helper()
	var chunk, openP []byte // the last chunk and buffer of processed forms seen
	bad = feedEach(t, mode, chunks, func(e *progressiveEngine) string {
		x := e.cs.side
		if x != nil && e.inBlock {
			carved += len(x.chunks.carved)
			if x.chunks.cur != nil {
				chunk = x.chunks.cur
			}
			if cap(x.openP) > 0 {
				openP = x.openP
			}
		}
		for sid, s := range e.seen {
			for id, ent := range s.comps {
				if x != nil && e.inBlock && ent != x.holderEnt && pointsInto(ent.pjson, x.openP) {
					return fmt.Sprintf("the processed form of %q of %q, not the open component, is in the open buffer", id, sid)
				}
				if e.inBlock {
					continue
				}
				if ent.fast != nil && pointsInto(ent.fast.src, chunk) {
					return fmt.Sprintf("component %q of %q points into the block's chunk after the block", id, sid)
				}
				if pointsInto(ent.pjson, chunk) || pointsInto(ent.pjson, openP) {
					return fmt.Sprintf("the processed form of %q of %q points into the block's buffers after the block", id, sid)
				}
			}
		}
		if e.inBlock || chunk == nil {
			return ""
		}
		in := func(b []byte) bool { return pointsInto(b, chunk) }
		for sid, list := range e.pending {
			for _, m := range list {
				if heldPointsInto(m, in) {
					return fmt.Sprintf("a message held for %q points into the block's chunk after the block", sid)
				}
			}
		}
		return ""
	})
	return carved, bad
}

// heldPointsInto reports whether a component in the decoded value v has
// bytes for which in is true.
func heldPointsInto(v any, in func([]byte) bool) bool {
	switch v := v.(type) {
	case *fastComp:
		return in(v.src)
	case map[string]any:
		for _, x := range v {
			if heldPointsInto(x, in) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if heldPointsInto(x, in) {
				return true
			}
		}
	}
	return false
}

// pointsInto reports whether b lies in the array of buf.
func pointsInto(b, buf []byte) bool {
	if len(b) == 0 || cap(buf) == 0 {
		return false
	}
	p, a := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	return p >= a && p < a+uintptr(cap(buf))
}
