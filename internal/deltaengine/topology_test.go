package deltaengine_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
	"github.com/a2ui-stream/a2ui-stream/parser"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// TestTopologyErrors fails a block whose components reference themselves
// or form a cycle from the root, at every chunk size, with the protocol's
// error, whose text is the parser's.
func TestTopologyErrors(t *testing.T) {
	for _, tc := range []struct {
		name, block string
		kind        error
		msg         string
	}{
		{"v0.9 self-reference", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"root"}]}}]`,
			protocol.ErrSelfReference, "Self-reference detected: Component 'root' references itself in field 'child'"},
		{"v0.9 cycle through the root", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"a"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Column","children":["b","root"]}]}}]`,
			protocol.ErrCycle, "Circular reference detected involving component 'root'"},
		{"v0.8 cycle below the root", `[{"beginRendering":{"surfaceId":"s","root":"r"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"r","component":{"Card":{"child":"a"}}},{"id":"b","component":{"Card":{"child":"a"}}},{"id":"a","component":{"Column":{"children":{"explicitList":["b"]}}}}]}}]`,
			protocol.ErrCycle, "Circular reference detected involving component 'a'"},
		{"v0.8 self-reference in a list", `[{"beginRendering":{"surfaceId":"s","root":"r"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"r","component":{"Column":{"children":{"explicitList":["x","r"]}}}}]}}]`,
			protocol.ErrSelfReference, "Self-reference detected: Component 'r' references itself in field 'children.explicitList'"},
		// An escaped id is named decoded, and its field found.
		{"v0.9 escaped self-reference", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"child":"b\\","component":"Card","id":"root"},{"child":"b\u005c","component":"Card","id":"b\\"}]}}]`,
			protocol.ErrSelfReference, "Self-reference detected: Component 'b\\' references itself in field 'child'"},
		{"v0.9 escaped cycle", `[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"q\"x"},{"id":"q\"x","component":"Card","child":"p"},{"id":"p","component":"Card","child":"q\u0022x"}]}}]`,
			protocol.ErrCycle, "Circular reference detected involving component 'q\"x'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := "parser: block 0 (at byte 11) dropped: protocol: " + tc.msg
			if got := parserError(t, "<a2ui-json>"+tc.block+"</a2ui-json>"); got != want {
				t.Fatalf("the parser's error is %q, not the table's", got)
			}
			for _, progressive := range []bool{false, true} {
				for chunk := 1; chunk <= len(tc.block); chunk++ {
					k := deltaengine.New(deltaengine.Options{Progressive: progressive})
					k.Begin()
					for i := 0; i < len(tc.block); i += chunk {
						k.Data([]byte(tc.block[i:min(i+chunk, len(tc.block))]))
						k.Flush()
					}
					k.End()
					k.Messages()
					err := k.Err()
					if k.Failed() != 1 || !errors.Is(err, tc.kind) || !strings.HasSuffix(err.Error(), tc.msg) {
						t.Fatalf("progressive %v, %d-byte chunks: %d failed, error %v", progressive, chunk, k.Failed(), err)
					}
				}
			}
		})
	}
}

// TestRootChangedByASecondBeginRendering: a v0.8 beginRendering of a
// surface begun already is not yielded, but its root is the surface's
// from then on: what it reaches is yielded (as the parser does, once the
// message ends).
func TestRootChangedByASecondBeginRendering(t *testing.T) {
	block := `[{"beginRendering":{"surfaceId":"s","root":"a"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"x"}}}},{"id":"b","component":{"Text":{"text":{"literalString":"y"}}}}]}},{"beginRendering":{"surfaceId":"s","root":"b"}}]`
	for _, progressive := range []bool{false, true} {
		k := deltaengine.New(deltaengine.Options{Progressive: progressive})
		k.Begin()
		k.Data([]byte(block))
		msgs := k.Flush()
		k.End()
		msgs = append(msgs, k.Messages()...)
		last := string(msgs[len(msgs)-1])
		if len(msgs) != 3 || !strings.Contains(last, `"id":"b"`) || strings.Contains(last, `"id":"a"`) {
			t.Errorf("progressive %v: yields %q, want b's component last, no second beginRendering", progressive, msgs)
		}
	}
}

// TestSnapshotsBeforeACycle: in progressive mode, a v0.8 block whose
// second surfaceUpdate closes a cycle, in one chunk, yields the snapshot
// of the first before it fails, as the parser does; two surfaceUpdates
// that end in one chunk yield one snapshot.
func TestSnapshotsBeforeACycle(t *testing.T) {
	for _, tc := range []struct {
		name, block string
		fails       bool
	}{
		{"cycle", `[{"beginRendering":{"root":"c1","surfaceId":"s1"}},{"surfaceUpdate":{"surfaceId":"s1","components":[{"id":"c1","component":{"Card":{"child":"c2"}}}]}},{"surfaceUpdate":{"surfaceId":"s1","components":[{"id":"c2","component":{"Card":{"child":"c1"}}}]}}]`, true},
		{"no cycle", `[{"beginRendering":{"root":"c1","surfaceId":"s1"}},{"surfaceUpdate":{"surfaceId":"s1","components":[{"id":"c1","component":{"Card":{"child":"c2"}}}]}},{"surfaceUpdate":{"surfaceId":"s1","components":[{"id":"c2","component":{"Card":{"child":"c3"}}}]}}]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parser.New(parser.WithMode(parser.ModeProgressive))
			if err != nil {
				t.Fatal(err)
			}
			parts, err := p.Feed([]byte("<a2ui-json>" + tc.block + "</a2ui-json>"))
			if (err != nil) != tc.fails {
				t.Fatalf("the parser's error: %v", err)
			}
			var want []string
			for _, pt := range parts {
				for _, m := range pt.Messages {
					want = append(want, string(m))
				}
			}
			k := deltaengine.New(deltaengine.Options{Progressive: true})
			k.Begin()
			k.Data([]byte(tc.block))
			k.End()
			var got []string
			for _, m := range k.Messages() {
				got = append(got, string(m))
			}
			if !slices.Equal(got, want) || (k.Failed() != 0) != tc.fails {
				t.Errorf("yields %q (%d failed), the parser %q", got, k.Failed(), want)
			}
		})
	}
}
