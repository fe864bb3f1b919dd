package parser

import (
	"fmt"
	"testing"
	"unsafe"
)

// The slabs of placeholder records of a block are emptied at its end and
// reused by the next block (nameChunks): no component may hold a record
// (its lookups, fastComp.pns) past its block, neither a component of a
// surface nor one a held v0.8 message keeps.

// heldLookupsV08 holds a surfaceUpdate, whose root names missing
// children, until a later block's beginRendering, while the surface it
// begins and another take placeholders in each block.
const heldLookupsV08 = `a <a2ui-json>[{"beginRendering":{"surfaceId":"t","root":"root"}},` +
	`{"surfaceUpdate":{"surfaceId":"t","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["x","y","z"]}}}}]}},` +
	`{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":["a","b"]}}}},` +
	`{"id":"a","component":{"Text":{"text":{"literalString":"A"}}}},{"id":"root","component":{"Column":{"children":{"explicitList":["a","b","c"]}}}}]}}]</a2ui-json> b ` +
	`<a2ui-json>[{"surfaceUpdate":{"surfaceId":"t","components":[{"id":"x","component":{"Row":{"children":{"explicitList":["p","q"]}}}}]}},` +
	`{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"b","component":{"Text":{"text":{"literalString":"B"}}}}]}}]</a2ui-json> c ` +
	`<a2ui-json>[{"surfaceUpdate":{"surfaceId":"t","components":[{"id":"y","component":{"Card":{"child":"r"}}},{"id":"p","component":{"Text":{"text":{"literalString":"P"}}}}]}}]</a2ui-json>`

// TestPlaceholderRecordsNotHeld feeds streams that look placeholders up
// in several blocks, in chunks of every size up to 32 bytes: the output
// is the same as a parser's that keeps its blocks' state, after each call
// that ends a block no component holds a lookup of a placeholder, and
// slabs of records are reused.
func TestPlaceholderRecordsNotHeld(t *testing.T) {
	streams := []struct{ name, s string }{
		{"v09", releaseV09}, {"v08", releaseV08}, {"rest_v09", releaseRestV09}, {"rest_v08", releaseRestV08},
		{"lists_v09", reuseListsV09}, {"held_v08", heldLookupsV08},
	}
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			reused := 0
			for _, st := range streams {
				for n := 1; n <= 32; n++ {
					chunks := chunksOf([]byte(st.s), n)
					what := fmt.Sprintf("%s in chunks of %d", st.name, n)
					if !checkReleaseSame(t, mode, chunks, what) {
						return
					}
					r, bad := lookupsRun(t, mode, chunks)
					if bad != "" {
						t.Fatalf("%s: %s", what, bad)
					}
					reused += r
				}
			}
			if reused == 0 {
				t.Fatal("no slab of records was reused: the test does not test")
			}
		})
	}
}

// lookupsRun feeds chunks to a releasing parser of mode; it returns how
// many slabs of records a block used that an earlier block had used, and
// which component held a lookup of a placeholder after a block ("":
// none).
func lookupsRun(t *testing.T, mode Mode, chunks [][]byte) (reused int, bad string) {
	t.Helper()
	slabBlock := map[*phName]int{} // a slab's first record -> the block that last used it
	block := 0
	bad = feedEach(t, mode, chunks, func(e *progressiveEngine) string {
		if e.inBlock {
			if ch := e.names.ch; ch != nil {
				for _, sl := range append([][]phName{ch.slab}, ch.slabs...) {
					if cap(sl) == 0 {
						continue
					}
					first := unsafe.SliceData(sl)
					if b, ok := slabBlock[first]; ok && b != block {
						reused++
					}
					slabBlock[first] = block
				}
			}
			return ""
		}
		block++
		for sid, s := range e.seen {
			for id, ent := range s.comps {
				if ent.fast != nil && ent.fast.pns != nil {
					return fmt.Sprintf("component %q of %q holds lookups of placeholders after the block", id, sid)
				}
			}
		}
		for sid, list := range e.pending {
			for _, m := range list {
				su, _ := m[kSurfaceUpdate].(map[string]any)
				comps, _ := su["components"].([]any)
				for _, c := range comps {
					if fc, ok := c.(*fastComp); ok && fc.pns != nil {
						return fmt.Sprintf("component %q held for %q holds lookups of placeholders after the block", fc.id, sid)
					}
				}
			}
		}
		return ""
	})
	return reused, bad
}

// TestInternedIDsKeepPastRelease: the ids interned in a block (in the
// block's chunks of ids, see carveID) keep their values after the caches
// are released and the next blocks, of this engine and of another that
// takes the pooled set, intern many more: a chunk of ids is never written
// over nor reused.
func TestInternedIDsKeepPastRelease(t *testing.T) {
	var e progressiveEngine
	e.takeScratch()
	buf := []byte{}
	var made, want []string
	for i := range 40 {
		buf = fmt.Appendf(buf[:0], "comp_%d", i)
		id := e.names.id(buf)
		made, want = append(made, id), append(want, string(buf))
	}
	buf = append(buf[:0], "zzzzzzzz"...) // (the interned ids are copies)
	e.names.release()
	e.putScratch()
	var other progressiveEngine
	for _, eng := range []*progressiveEngine{&e, &other} {
		eng.takeScratch()
		for i := range 400 {
			eng.names.id(fmt.Appendf(buf[:0], "other_%d", i))
		}
		eng.names.release()
		eng.putScratch()
	}
	for i, id := range made {
		if id != want[i] {
			t.Errorf("id %q changed after the release: %q", want[i], id)
		}
	}
}
