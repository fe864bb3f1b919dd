package deltaengine_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
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
// of the first before it fails, as the parser's progressive engine did
// (the table's yields are its); two surfaceUpdates that end in one chunk
// yield one snapshot.
func TestSnapshotsBeforeACycle(t *testing.T) {
	const begin = `{"beginRendering":{"root":"c1","surfaceId":"s1"}}`
	for _, tc := range []struct {
		name, block string
		fails       bool
		want        []string
	}{
		{"cycle", `[{"beginRendering":{"root":"c1","surfaceId":"s1"}},{"surfaceUpdate":{"surfaceId":"s1","components":[{"id":"c1","component":{"Card":{"child":"c2"}}}]}},{"surfaceUpdate":{"surfaceId":"s1","components":[{"id":"c2","component":{"Card":{"child":"c1"}}}]}}]`, true,
			[]string{begin, `{"surfaceUpdate":{"components":[{"id":"c1","component":{"Card":{"child":"loading_c2"}}},{"component":{"Row":{"children":{"explicitList":[]}}},"id":"loading_c2"}],"surfaceId":"s1"}}`}},
		{"no cycle", `[{"beginRendering":{"root":"c1","surfaceId":"s1"}},{"surfaceUpdate":{"surfaceId":"s1","components":[{"id":"c1","component":{"Card":{"child":"c2"}}}]}},{"surfaceUpdate":{"surfaceId":"s1","components":[{"id":"c2","component":{"Card":{"child":"c3"}}}]}}]`, false,
			[]string{begin, `{"surfaceUpdate":{"components":[{"id":"c1","component":{"Card":{"child":"c2"}}},{"id":"c2","component":{"Card":{"child":"loading_c3"}}},{"component":{"Row":{"children":{"explicitList":[]}}},"id":"loading_c3"}],"surfaceId":"s1"}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := deltaengine.New(deltaengine.Options{Progressive: true})
			k.Begin()
			k.Data([]byte(tc.block))
			k.End()
			var got []string
			for _, m := range k.Messages() {
				got = append(got, string(m))
			}
			if !slices.Equal(got, tc.want) || (k.Failed() != 0) != tc.fails {
				t.Errorf("yields %q (%d failed), want %q", got, k.Failed(), tc.want)
			}
		})
	}
}

// TestTopologyErrorsStay: as the reference checks every component of a
// surface each time it reads a component message of it, a component that
// references itself, or a cycle, left in the surface by a failed block
// fails each later block that sends the surface components (one whose
// components are all skipped too), until a component replaces it; the
// component named is the first in the order the components first
// arrived; a catalog's reference field is named. No yield holds the
// self-reference. The table's verdicts are the reference's (the progressive
// engine's, which the parser ran until session 24).
func TestTopologyErrorsStay(t *testing.T) {
	const (
		cs     = `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}}`
		selfIn = "Self-reference detected: Component 'root' references itself in field 'child'"
		cycle  = "Circular reference detected involving component 'root'"
	)
	upd := func(comps string) string {
		return `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` + comps + `]}}`
	}
	for _, tc := range []struct {
		name   string
		blocks []string
		errs   []string // by block: the error's text ("": none)
		cat    bool
	}{
		{"self-reference stays", []string{`[` + cs + `,` + upd(`{"id":"root","component":"Card","child":"root"}`) + `]`, `[` + upd(`{"id":"b","component":"Text","text":"x"}`) + `]`},
			[]string{selfIn, selfIn}, false},
		{"self-reference stays through skipped components", []string{`[` + cs + `,` + upd(`{"id":"root","component":"Card","child":"root"}`) + `]`, `[` + upd(`{"component":"Text"},{"id":7,"component":"Text"}`) + `]`},
			[]string{selfIn, selfIn}, false},
		{"self-reference replaced", []string{`[` + cs + `,` + upd(`{"id":"root","component":"Card","child":"root"}`) + `]`, `[` + upd(`{"id":"root","component":"Text","text":"x"}`) + `]`},
			[]string{selfIn, ""}, false},
		{"cycle stays", []string{`[` + cs + `,` + upd(`{"id":"root","component":"Card","child":"a"},{"id":"a","component":"Card","child":"root"}`) + `]`, `[` + upd(`{"id":"b","component":"Text","text":"x"}`) + `]`},
			[]string{cycle, cycle}, false},
		{"cycle broken", []string{`[` + cs + `,` + upd(`{"id":"root","component":"Card","child":"a"},{"id":"a","component":"Card","child":"root"}`) + `]`, `[` + upd(`{"id":"a","component":"Text","text":"x"}`) + `]`},
			[]string{cycle, ""}, false},
		// (The surface named after the components: they are checked at
		// the message's end.)
		{"first self-reference by arrival", []string{`[` + cs + `,{"version":"v0.9","updateComponents":{"components":[{"id":"root","component":"Card","child":"b"},{"id":"a","component":"Card","detail":"a"},{"id":"root","component":"Column","children":["root"]}],"surfaceId":"s"}}]`},
			[]string{"Self-reference detected: Component 'root' references itself in field 'children'"}, false},
		{"catalog reference field", []string{`[` + cs + `,` + upd(`{"id":"root","component":"Modal","trigger":"root","content":"x"}`) + `]`},
			[]string{"Self-reference detected: Component 'root' references itself in field 'trigger'"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []parser.Option
			var cat *protocol.Catalog
			if tc.cat {
				cat = speccatalog.BasicV09(t)
				opts = append(opts, parser.WithCatalog(cat))
			}
			for _, progressive := range []bool{false, true} {
				for chunk := 1; chunk <= 64; chunk++ {
					k := deltaengine.New(deltaengine.Options{Progressive: progressive, Catalog: cat})
					for b, block := range tc.blocks {
						failed := k.Failed()
						var yields []string
						k.Begin()
						for i := 0; i < len(block); i += chunk {
							k.Data([]byte(block[i:min(i+chunk, len(block))]))
							for _, m := range k.Flush() {
								yields = append(yields, string(m))
							}
						}
						k.End()
						for _, m := range k.Messages() {
							yields = append(yields, string(m))
						}
						got := ""
						if k.Failed() != failed {
							got = k.Err().Error()
						}
						if !strings.HasSuffix(got, tc.errs[b]) || (got == "") != (tc.errs[b] == "") {
							t.Fatalf("progressive %v, %d-byte chunks, block %d: error %q, want %q", progressive, chunk, b, got, tc.errs[b])
						}
						for _, y := range yields {
							if strings.Contains(y, `"child":"root","component":"Card","id":"root"`) {
								t.Fatalf("progressive %v, %d-byte chunks, block %d: yields the self-reference: %s", progressive, chunk, b, y)
							}
						}
					}
				}
			}
			// The parser's verdicts are the table's.
			var in string
			for _, b := range tc.blocks {
				in += "<a2ui-json>" + b + "</a2ui-json>"
			}
			p, err := parser.New(append(opts, parser.WithMode(parser.ModeProgressive))...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Feed([]byte(in))
			errs := parser.BlockErrors(err)
			var texts []string
			for _, e := range errs {
				texts = append(texts, e.Error())
			}
			n := 0
			for _, w := range tc.errs {
				if w != "" {
					n++
				}
			}
			if len(texts) != n {
				t.Fatalf("the parser's errors: %q", texts)
			}
		})
	}
}
