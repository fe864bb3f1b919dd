package parser

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/protocoltape"
	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// TestKeptVerdictMatch: a kept verdict is given again only for a form
// that is the kept one with some of the unread texts changed to plain
// texts and its unread lists grown by plain string items, in the same
// wrapper.
func TestKeptVerdictMatch(t *testing.T) {
	const kept = `{"id":"a","component":"Row","children":["b","loading_c"],"text":"He"}`
	// The texts of the id, the children and the text (the type is read),
	// and the list of children.
	span := func(s string) []int32 {
		at := int32(strings.Index(kept, `"`+s+`"`) + 1)
		return []int32{at, at + int32(len(s))}
	}
	u := protocoltape.Unread{
		Texts: slices.Concat(span("a"), span("b"), span("loading_c"), span("He")),
		Lists: []int32{int32(strings.IndexByte(kept, ']'))},
	}
	tests := []struct {
		name, comp string
		epoch      uint32
		want       bool
	}{
		{name: "the same", comp: kept, epoch: 1, want: true},
		{name: "text grown", comp: `{"id":"a","component":"Row","children":["b","loading_c"],"text":"Hello there (86)"}`, epoch: 1, want: true},
		{name: "text emptied", comp: `{"id":"a","component":"Row","children":["b","loading_c"],"text":""}`, epoch: 1, want: true},
		{name: "child arrived", comp: `{"id":"a","component":"Row","children":["b","c"],"text":"He"}`, epoch: 1, want: true},
		{name: "list grown", comp: `{"id":"a","component":"Row","children":["b","loading_c","d","loading_e"],"text":"He"}`, epoch: 1, want: true},
		{name: "list grown, ids changed", comp: `{"id":"x","component":"Row","children":["","c","loading_d"],"text":"Hey"}`, epoch: 1, want: true},
		{name: "list shrunk", comp: `{"id":"a","component":"Row","children":["b"],"text":"He"}`, epoch: 1},
		{name: "list grown by a number", comp: `{"id":"a","component":"Row","children":["b","loading_c",1],"text":"He"}`, epoch: 1},
		{name: "list grown by an object", comp: `{"id":"a","component":"Row","children":["b","loading_c",{}],"text":"He"}`, epoch: 1},
		{name: "list grown with a space", comp: `{"id":"a","component":"Row","children":["b","loading_c", "d"],"text":"He"}`, epoch: 1},
		{name: "list grown by an escape", comp: `{"id":"a","component":"Row","children":["b","loading_c","d\"e"],"text":"He"}`, epoch: 1},
		{name: "list grown, cut", comp: `{"id":"a","component":"Row","children":["b","loading_c","d`, epoch: 1},
		{name: "type changed, same length", comp: `{"id":"a","component":"Rox","children":["b","loading_c"],"text":"He"}`, epoch: 1},
		{name: "type changed", comp: `{"id":"a","component":"Rows","children":["b","loading_c"],"text":"He"}`, epoch: 1},
		{name: "member added", comp: `{"id":"a","component":"Row","children":["b","loading_c"],"text":"He","variant":"bogus"}`, epoch: 1},
		{name: "member added inside a text's place", comp: `{"id":"a","component":"Row","children":["b","loading_c"],"text":"He","x":"y"}`, epoch: 1},
		{name: "text with an escape", comp: `{"id":"a","component":"Row","children":["b","loading_c"],"text":"He\"y"}`, epoch: 1},
		{name: "text not ASCII", comp: `{"id":"a","component":"Row","children":["b","loading_c"],"text":"H\u00e9"}`, epoch: 1},
		{name: "text raw not ASCII", comp: "{\"id\":\"a\",\"component\":\"Row\",\"children\":[\"b\",\"loading_c\"],\"text\":\"H\xc3\xa9\"}", epoch: 1},
		{name: "text a number", comp: `{"id":"a","component":"Row","children":["b","loading_c"],"text":7}`, epoch: 1},
		{name: "cut short", comp: `{"id":"a","component":"Ro`, epoch: 1},
		{name: "empty", comp: ``, epoch: 1},
		{name: "trailing space", comp: kept + ` `, epoch: 1},
		{name: "other wrapper", comp: kept, epoch: 2},
		{name: "wrappers run out", comp: kept, epoch: noWrapper},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v keptVerdict
			v.keep(nil, []byte(kept), &u, 1, true)
			if tt.epoch == noWrapper {
				v.keep(nil, []byte(kept), &u, noWrapper, true)
			}
			valid, ok := v.match([]byte(tt.comp), tt.epoch)
			if ok != tt.want || ok && !valid {
				t.Errorf("match: (%v, %v), want a match: %v", valid, ok, tt.want)
			}
		})
	}
}

// keptVerdictStream is a v0.9 turn whose components change between
// forms in unread texts and in what the basic catalog reads: a variant
// out of its enum arriving after a text, a child id giving way to the
// child, a type that is not the catalog's.
const keptVerdictStream = `Here. <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/basic_catalog.json"}},` +
	`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
	`{"id":"root","component":"Column","children":["t1","t2","t3","t4","t5"]},` +
	`{"id":"t1","component":"Text","text":"Arrival new shows option departure price","variant":"bogus"},` +
	`{"id":"t2","component":"Text","text":"Below latest weather seat","variant":"h1"},` +
	`{"id":"t3","component":"Texts","text":"Let recommended (86) seats go"},` +
	`{"id":"t4","component":"Text","text":{"path":"/a/b"}},` +
	`{"id":"t5","component":"Text","text":"Calendar schedule","extra":"no"}` +
	`]}}]</a2ui-json> Done.`

// TestKeptVerdictsMatchMessageVerdict: every verdict the engine gives
// again from a kept one (keptVerdict) is MessageVerdict's on the
// component's message, on both corpora with the specification's catalogs
// and on a turn whose components turn invalid between forms, in both
// progressive modes, at several chunk sizes; and some are given again.
func TestKeptVerdictsMatchMessageVerdict(t *testing.T) {
	v09, v08 := readCorpus(t, "stream_v09.txt"), readCorpus(t, "stream_v08.txt")
	streams := []struct {
		name  string
		cat   *protocol.Catalog
		input []byte
		sizes []int
	}{
		{"v0.9 corpus", speccatalog.BasicV09(t), v09, []int{16, 61}},
		{"v0.8 corpus", speccatalog.StandardV08(t), v08, []int{16, 61}},
		{"components turning invalid", speccatalog.BasicV09(t), []byte(keptVerdictStream), []int{1, 2, 3, 5, 7, 16}},
	}
	for _, st := range streams {
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			for _, n := range st.sizes {
				t.Run(fmt.Sprintf("%s/%v/%d", st.name, mode, n), func(t *testing.T) {
					c := checkKeptVerdicts(t, st.cat, st.input, mode, n)
					if c.given == 0 {
						t.Error("no verdict given again")
					}
					t.Logf("%d verdicts asked, %d given again (%d of them invalid); by type, judged/given: %v", c.given+c.judged, c.given, c.invalid, c.byType)
				})
			}
		}
	}
}

// keptCounts are the component verdicts a parse asked for: judged,
// given again from a kept one (invalid: how many of those were invalid),
// and both by the component's type (see componentType).
type keptCounts struct {
	judged, given, invalid int
	byType                 map[string][2]int
}

// componentType is comp's type where models write it, else "other".
func componentType(comp []byte) string {
	if typ := leadingType(comp); typ != nil {
		return string(typ)
	}
	if typ, _ := leadingDefinition(comp); typ != nil {
		return string(typ)
	}
	return "other"
}

// checkKeptVerdicts feeds input in chunks of n bytes to a parser in mode
// with cat, checks each verdict given again from a kept one against
// MessageVerdict, and counts the verdicts asked (keptVerdictGiven and
// verdictAsked: the caller must not run in parallel).
func checkKeptVerdicts(t *testing.T, cat *protocol.Catalog, input []byte, mode Mode, n int) keptCounts {
	t.Helper()
	defer func() { keptVerdictGiven, verdictAsked = nil, nil }()
	c := keptCounts{byType: map[string][2]int{}}
	keptVerdictGiven = func(open, close, comp []byte, valid bool) {
		c.given++
		if !valid {
			c.invalid++
		}
		k := c.byType[componentType(comp)]
		c.byType[componentType(comp)] = [2]int{k[0], k[1] + 1}
		if v, d := cat.MessageVerdict(string(open) + string(comp) + string(close)); v != valid || !d {
			t.Errorf("%.120s: kept verdict %v, MessageVerdict (%v, %v)", comp, valid, v, d)
		}
	}
	verdictAsked = func(_, _, comp []byte, key string) {
		if key == "" { // (a component's, not a placeholder's)
			c.judged++
			k := c.byType[componentType(comp)]
			c.byType[componentType(comp)] = [2]int{k[0] + 1, k[1]}
		}
	}
	feedWithCatalog(t, cat, mode, input, n)
	return c
}

// FuzzKeptVerdicts: on any stream, each verdict the engine gives again
// from a kept one is MessageVerdict's (seeded with keptVerdictStream and
// variants of its components).
func FuzzKeptVerdicts(f *testing.F) {
	f.Add(keptVerdictStream, uint8(3))
	f.Add(strings.ReplaceAll(keptVerdictStream, `"variant":"bogus"`, `"variant":"h2"`), uint8(1))
	f.Add(strings.ReplaceAll(keptVerdictStream, `"t3","t4"`, `"t3","t4","t6"`), uint8(5))
	cat := speccatalog.BasicV09(f)
	f.Fuzz(func(t *testing.T, input string, n uint8) {
		checkKeptVerdicts(t, cat, []byte(input), ModeDelta, int(n%32)+1)
	})
}

// TestCatalogScratchLetGo: once its block ends, a stream holds no catalog
// scratch (the kept verdicts' bytes and entries, the encoding buffer), and
// the scratch it handed on keeps no entry.
func TestCatalogScratchLetGo(t *testing.T) {
	for _, mode := range []Mode{ModeProgressive, ModeDelta} {
		t.Run(mode.String(), func(t *testing.T) {
			p, err := New(WithMode(mode), WithCatalog(speccatalog.BasicV09(t)))
			if err != nil {
				t.Fatal(err)
			}
			e := progressiveOf(t, p.eng)
			var seen *catalogScratch
			for _, c := range chunked([]byte(keptVerdictStream), 7) {
				_, _ = p.Feed(c) // (its invalid components are errors)
				if e.catS != nil {
					seen = e.catS
				}
			}
			if seen == nil {
				t.Fatal("the block used no catalog scratch")
			}
			if e.catS != nil {
				t.Error("the stream holds its catalog scratch after its block")
			}
			for i, v := range seen.kept {
				if v.ent != nil || v.epoch != 0 {
					t.Errorf("kept verdict %d still names an entry (%p) or a wrapper (%d)", i, v.ent, v.epoch)
				}
			}
		})
	}
}
