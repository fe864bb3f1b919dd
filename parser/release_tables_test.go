package parser

import (
	"fmt"
	"reflect"
	"testing"
)

// A frozen surface's tables go, emptied, to the next new surface
// (spareTables, presize): no two live surfaces, nor a live surface and
// the spares, may share one.

// tablesV09 freezes "s" in its first block; a new surface takes its
// tables in the second and stays in full form (a child missing), as the
// third's new surface does, while the third block thaws "s" and changes
// it.
const tablesV09 = `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":"A"},` +
	`{"id":"b","component":"Text","text":"B"}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"t","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[` +
	`{"id":"root","component":"Row","children":["x","late"]},{"id":"x","component":"Text","text":"X"}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"u","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"u","components":[` +
	`{"id":"root","component":"Card","child":"y"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"b","component":"Text","text":"B2"}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[{"id":"late","component":"Text","text":"L"}]}}]</a2ui-json>`

// TestSpareTablesNotShared feeds tablesV09 in chunks of every size up to
// 32 bytes: the output is the same as a parser's that keeps its blocks'
// state, and after each call no table of a live surface is another's or
// a spare one.
func TestSpareTablesNotShared(t *testing.T) {
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			spared := 0
			for n := 1; n <= 32; n++ {
				chunks := chunksOf([]byte(tablesV09), n)
				if !checkReleaseSame(t, mode, chunks, fmt.Sprintf("chunks of %d", n)) {
					return
				}
				bad := feedEach(t, mode, chunks, func(e *progressiveEngine) string {
					if e.scratch != nil {
						spared += len(e.scratch.tables)
					}
					return sharedTable(e)
				})
				if bad != "" {
					t.Fatalf("chunks of %d: %s", n, bad)
				}
			}
			if spared == 0 {
				t.Fatal("no table was spared: the test does not test")
			}
		})
	}
}

// sharedTable returns which table of e's live surfaces is also another
// live surface's or a spare one ("": none).
func sharedTable(e *progressiveEngine) string {
	owner := map[uintptr]string{}
	check := func(who string, t surfaceTables) string {
		for _, p := range []struct {
			what string
			v    any
		}{{"components", t.comps}, {"targets index", t.tidx}, {"order", t.order}, {"targets", t.tgts}, {"sorted", t.sorted}} {
			v := reflect.ValueOf(p.v)
			if v.IsNil() || (v.Kind() == reflect.Slice && v.Cap() == 0) {
				continue
			}
			ptr := uintptr(v.UnsafePointer())
			if o, ok := owner[ptr]; ok {
				return fmt.Sprintf("the %s table of %s is also %s's", p.what, who, o)
			}
			owner[ptr] = who
		}
		return ""
	}
	for sid, s := range e.seen {
		if bad := check(fmt.Sprintf("surface %q", sid), tablesOf(s)); bad != "" {
			return bad
		}
	}
	if e.scratch != nil {
		for i, t := range e.scratch.tables {
			if bad := check(fmt.Sprintf("spare %d", i), t); bad != "" {
				return bad
			}
		}
	}
	return ""
}
