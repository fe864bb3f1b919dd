package parser

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// Releasing a block's state (release.go) must not change an
// output: a stream whose surfaces are updated over several blocks yields
// the same parts whether the state is released at each block end or kept.

// releaseV09 updates one surface over four blocks: children that arrive
// blocks later, a repeated child, a component updated in a later block, a
// large component (more than 16 placeholders), and a component the generic
// path reads (a template).
var releaseV09 = func() string {
	var many []string
	for i := range 20 {
		many = append(many, strconv.Quote(fmt.Sprintf("m%d", i)))
	}
	var b strings.Builder
	b.WriteString(`intro <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
		`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
		`{"id":"root","component":"Column","children":["a","b","a","c","big"]},` +
		`{"id":"a","component":"Text","text":"A"},` +
		`{"id":"big","component":"Row","children":[` + strings.Join(many, ",") + `]}]}}]</a2ui-json> between` + "\n")
	b.WriteString(`<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
		`{"id":"b","component":"Row","children":["d","e","d"]},` +
		`{"id":"m0","component":"Text","text":"0"},{"id":"m1","component":"Text","text":"1"},` +
		`{"id":"root","component":"Column","children":["a","b","c","f","big","g"]},` +
		`{"id":"g","component":"List","children":{"componentId":"d","path":"/items"}}]}}]</a2ui-json>` + "\n")
	b.WriteString(`text <a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
		`{"id":"d","component":"Text","text":"D"},{"id":"c","component":"Card","child":"d"},` +
		`{"id":"m2","component":"Text","text":"2"},{"id":"b","component":"Row","children":["d","e","h"]}]}}]</a2ui-json>` + "\n")
	b.WriteString(`<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
		`{"id":"e","component":"Text","text":"E"},{"id":"root","component":"Column","children":["a","b","c","e"]}]}}]</a2ui-json> end`)
	return b.String()
}()

// releaseV08 is the same for v0.8.
const releaseV08 = `intro <a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},` +
	`{"surfaceUpdate":{"surfaceId":"s","components":[` +
	`{"id":"root","component":{"Column":{"children":{"explicitList":["a","b","a","c"]}}}},` +
	`{"id":"a","component":{"Text":{"text":{"literalString":"A"}}}}]}}]</a2ui-json> between
<a2ui-json>[{"surfaceUpdate":{"surfaceId":"s","components":[` +
	`{"id":"b","component":{"Row":{"children":{"explicitList":["d","e"]}}}},` +
	`{"id":"root","component":{"Column":{"children":{"explicitList":["a","b","c","f"]}}}}]}}]</a2ui-json>
<a2ui-json>[{"surfaceUpdate":{"surfaceId":"s","components":[` +
	`{"id":"d","component":{"Text":{"text":{"path":"/x"}}}},{"id":"c","component":{"Card":{"child":"d"}}}]}}]</a2ui-json> end`

// releaseRestV09 updates two surfaces over five blocks, each ending with
// both at rest (every child arrived), so that each block end freezes them
// and the next block thaws what it touches (release_freeze.go): a
// component changed, a child added (missing, then arriving in the same
// block), a root that arrives last, a data model update, an empty list, a
// surface deleted and created again.
const releaseRestV09 = `a <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"root","component":"Column","children":["a","b","a"]},{"id":"a","component":"Text","text":"A"},` +
	`{"id":"b","component":"Row","children":[]}]}},` +
	`{"version":"v0.9","createSurface":{"surfaceId":"t","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[` +
	`{"id":"x","component":"Card","child":"y"},{"id":"y","component":"Text","text":"Y"},{"id":"root","component":"Column","children":["x"]}]}}]</a2ui-json> b
<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"a","component":"Text","text":"A2"},{"id":"b","component":"Row","children":["c"]},{"id":"c","component":"Text","text":"C"}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"t","path":"/v","value":1}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[{"id":"y","component":"Text","text":{"path":"/v"}}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"root","component":"Column","children":["c","a"]}]}},` +
	`{"version":"v0.9","deleteSurface":{"surfaceId":"t"}},{"version":"v0.9","createSurface":{"surfaceId":"t","catalogId":"c"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[{"id":"root","component":"Text","text":"T"}]}}]</a2ui-json>
<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"b","component":"Row","children":["a","c"]},{"id":"root","component":"Column","children":["a","b","c"]}]}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"t","components":[{"id":"root","component":"Text","text":"T2"}]}}]</a2ui-json> end`

// releaseRestV08 is the same for v0.8.
const releaseRestV08 = `a <a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},` +
	`{"surfaceUpdate":{"surfaceId":"s","components":[` +
	`{"id":"root","component":{"Column":{"children":{"explicitList":["a","b"]}}}},` +
	`{"id":"a","component":{"Text":{"text":{"literalString":"A"}}}},{"id":"b","component":{"Text":{"text":{"path":"/x"}}}}]}}]</a2ui-json> b
<a2ui-json>[{"surfaceUpdate":{"surfaceId":"s","components":[` +
	`{"id":"a","component":{"Text":{"text":{"literalString":"A2"}}}}]}}]</a2ui-json>
<a2ui-json>[{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"x","valueString":"X"}]}},` +
	`{"surfaceUpdate":{"surfaceId":"s","components":[` +
	`{"id":"root","component":{"Column":{"children":{"explicitList":["b","c","a"]}}}},{"id":"c","component":{"Card":{"child":"a"}}}]}}]</a2ui-json> end`

// releaseRun feeds chunks to a parser of mode, releasing (or keeping,
// keep) each block's state, and renders every call.
func releaseRun(t *testing.T, mode Mode, keep bool, chunks [][]byte) string {
	t.Helper()
	out, _, _ := releaseRunCounts(t, mode, keep, chunks)
	return out
}

// releaseRunCounts is releaseRun, which also returns how many times a
// surface was frozen and thawed (release_freeze.go).
func releaseRunCounts(t *testing.T, mode Mode, keep bool, chunks [][]byte) (out string, freezes, thaws int) {
	out, e := releaseRunEngine(t, mode, keep, chunks)
	return out, e.freezes, e.thaws
}

// releaseRunEngine is releaseRun, which also returns the parser's engine.
func releaseRunEngine(t *testing.T, mode Mode, keep bool, chunks [][]byte) (string, *progressiveEngine) {
	t.Helper()
	p, err := New(WithMode(mode))
	if err != nil {
		t.Fatal(err)
	}
	e := progressiveOf(t, p.eng)
	e.keepIdle = keep
	return renderFeeds(p, chunks), e
}

// renderFeeds feeds chunks to p and closes it, rendering each call's
// parts as it returns them (goldenRender).
func renderFeeds(p *Parser, chunks [][]byte) string {
	var w bytes.Buffer
	for _, c := range chunks {
		parts, ferr := p.Feed(c)
		goldenRender(&w, "feed", parts, ferr)
	}
	parts, cerr := p.Close()
	goldenRender(&w, "close", parts, cerr)
	return w.String()
}

// chunksOf splits b into chunks of n bytes.
func chunksOf(b []byte, n int) [][]byte {
	var out [][]byte
	for i := 0; i < len(b); i += n {
		out = append(out, b[i:min(i+n, len(b))])
	}
	return out
}

// checkReleaseSame fails when releasing changes the output of chunks.
func checkReleaseSame(t *testing.T, mode Mode, chunks [][]byte, what string) bool {
	t.Helper()
	ok, _, _ := checkReleaseCounts(t, mode, chunks, what)
	return ok
}

// checkReleaseCounts is checkReleaseSame, which also returns how many
// times the releasing parser froze and thawed a surface.
func checkReleaseCounts(t *testing.T, mode Mode, chunks [][]byte, what string) (ok bool, freezes, thaws int) {
	t.Helper()
	kept := releaseRun(t, mode, true, chunks)
	released, freezes, thaws := releaseRunCounts(t, mode, false, chunks)
	if kept != released {
		t.Errorf("%s: output differs when the blocks' state is released\nkept:\n%s\nreleased:\n%s", what, kept, released)
		return false, freezes, thaws
	}
	return true, freezes, thaws
}

// feedEach feeds chunks to a new releasing parser of mode and calls check
// with its engine after each Feed; it returns check's first complaint
// ("": none), where it stops.
func feedEach(t *testing.T, mode Mode, chunks [][]byte, check func(e *progressiveEngine) string) string {
	t.Helper()
	p, err := New(WithMode(mode))
	if err != nil {
		t.Fatal(err)
	}
	e := progressiveOf(t, p.eng)
	for _, c := range chunks {
		if _, err := p.Feed(c); err != nil {
			t.Fatal(err)
		}
		if bad := check(e); bad != "" {
			return bad
		}
	}
	return ""
}

// TestReleaseKeepsOutput checks releaseV09, releaseV08 and the streams at
// rest split at every byte and fed one byte at a time.
func TestReleaseKeepsOutput(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests, after the sequential ones (the heap measurements among them)
	for _, tc := range []struct {
		name   string
		stream string
	}{
		{"v09", releaseV09},
		{"v08", releaseV08},
		{"v09_rest", releaseRestV09},
		{"v08_rest", releaseRestV08},
	} {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(fmt.Sprintf("%s_%v", tc.name, mode), func(t *testing.T) {
				b := []byte(tc.stream)
				ok, freezes, thaws := checkReleaseCounts(t, mode, chunksOf(b, 1), "one byte at a time")
				if !ok {
					return
				}
				t.Logf("%d surfaces frozen, %d thawed", freezes, thaws)
				if strings.HasSuffix(tc.name, "_rest") && thaws < 2 {
					t.Errorf("%d surfaces thawed, want at least 2", thaws)
				}
				for i := 1; i < len(b); i++ {
					if !checkReleaseSame(t, mode, [][]byte{b[:i], b[i:]}, fmt.Sprintf("split at %d", i)) {
						return
					}
				}
			})
		}
	}
}

// TestReleaseKeepsOutputCorpus checks whole corpus streams (200 turns, so
// 200 blocks, in one parser) at 16-byte chunks.
func TestReleaseKeepsOutputCorpus(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests, after the sequential ones (the heap measurements among them)
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		data := readCorpus(t, corpus+".txt")
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(fmt.Sprintf("%s_%v", corpus, mode), func(t *testing.T) {
				checkReleaseSame(t, mode, chunksOf(data, 16), "chunks of 16 bytes")
			})
		}
	}
}

// TestReleasePrunesAroundWokenComponents: a component that became
// unreachable and was then woken by its child's arrival (so never
// processed again) keeps only its own placeholders in the record of
// yielded ones; those of other arrived children are dropped at the
// release (all were kept for good while any component was woken).
func TestReleasePrunesAroundWokenComponents(t *testing.T) {
	p, err := New(WithMode(ModeDelta))
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range []string{
		`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","q1","q2"]},{"id":"a","component":"Column","children":["x"]}]}}]</a2ui-json>` + "\n",
		`<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["b","q1","q2"]},{"id":"b","component":"Text","text":"B"}]}}]</a2ui-json>` + "\n",
		`<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"x","component":"Text","text":"X"},{"id":"q1","component":"Text","text":"1"},{"id":"q2","component":"Text","text":"2"}]}}]</a2ui-json>` + "\n",
		"more text\n",
	} {
		if _, err := p.Feed([]byte(block)); err != nil {
			t.Fatal(err)
		}
	}
	s := progressiveOf(t, p.eng).seen["s"]
	if s.wokenN == 0 {
		t.Fatal("the case no longer has a woken component (a, unreachable)")
	}
	var got []string
	for ph := range s.phYielded {
		got = append(got, ph)
	}
	if len(got) != 1 || got[0] != "loading_x" {
		t.Fatalf("placeholders recorded as yielded: %v, want [loading_x] (a still names it)", got)
	}
}

// TestFreezeWorkBoundedPerBlock: a block that touches a frozen surface
// pays for thawing it and freezing it again, so what a block pays must not
// grow with the surface. A surface of 2,000 components (its root lists
// them), then 100 blocks each updating one of them, or (v0.8) only the
// data model: the components frozen and thawed stay within what surfaces
// of maxFrozenComps components would cost, and the output is the same as
// with no release at all. With every surface at rest frozen, the stream
// froze and thawed 2,000 components per block (and each freeze compared
// every reference with every slot).
func TestFreezeWorkBoundedPerBlock(t *testing.T) {
	const n, blocks = 2000, 100
	var v09, v08 bytes.Buffer
	v09.WriteString(`<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[`)
	v08.WriteString(`<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Column":{"children":{"explicitList":[`)
	for i := range n {
		if i > 0 {
			v09.WriteByte(',')
			v08.WriteByte(',')
		}
		fmt.Fprintf(&v09, `"c%d"`, i)
		fmt.Fprintf(&v08, `"c%d"`, i)
	}
	v09.WriteString(`]}`)
	v08.WriteString(`]}}}}`)
	for i := range n {
		fmt.Fprintf(&v09, `,{"id":"c%d","component":"Text","text":"t"}`, i)
		fmt.Fprintf(&v08, `,{"id":"c%d","component":{"Text":{"text":{"literalString":"t"}}}}`, i)
	}
	v09.WriteString(`]}}]</a2ui-json>`)
	v08.WriteString(`]}}]</a2ui-json>`)
	v08d := bytes.Clone(v08.Bytes())
	for i := range blocks {
		fmt.Fprintf(&v09, `<a2ui-json>[{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"c%d","component":"Text","text":"u%d"}]}}]</a2ui-json>`, i, i)
		fmt.Fprintf(&v08, `<a2ui-json>[{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"c%d","component":{"Text":{"text":{"literalString":"u%d"}}}}]}}]</a2ui-json>`, i, i)
		v08d = fmt.Appendf(v08d, `<a2ui-json>[{"dataModelUpdate":{"surfaceId":"s","contents":[{"key":"k","valueString":"v%d"}]}}]</a2ui-json>`, i)
	}
	for _, c := range []struct {
		name   string
		stream []byte
	}{
		{"v09_component_updates", v09.Bytes()},
		{"v08_component_updates", v08.Bytes()},
		{"v08_data_updates", v08d},
	} {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			t.Run(c.name+"/"+mode.String(), func(t *testing.T) {
				// A call a block: the state is released at the end of a call.
				var chunks [][]byte
				for _, b := range bytes.SplitAfter(c.stream, []byte("</a2ui-json>")) {
					if len(b) > 0 {
						chunks = append(chunks, b)
					}
				}
				released, e := releaseRunEngine(t, mode, false, chunks)
				kept, _ := releaseRunEngine(t, mode, true, chunks)
				work := e.frozenWork
				if released != kept {
					t.Fatalf("output differs from a parser that releases nothing")
				}
				if max := 2 * 256 * (blocks + 1); work > max { // 256: maxFrozenComps
					t.Errorf("%d components frozen and thawed in %d blocks, want at most %d", work, blocks+1, max)
				}
			})
		}
	}
}
