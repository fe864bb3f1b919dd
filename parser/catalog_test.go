package parser

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// TestCatalogVerdictMatchesValidate: the engine's catalog verdict (the
// fast validator on the encoding, then the integrity checks) is the
// catalog's Validate verdict, strict and loose, on every message of the
// first turns of the v0.9 corpus and on variants of each component message with one property
// of one component removed (most of which the schema rejects), as partial
// components are.
func TestCatalogVerdictMatchesValidate(t *testing.T) {
	data := readCorpus(t, "stream_v09.txt")
	cat := speccatalog.BasicV09(t)
	e := &progressiveEngine{cat: cat}
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	parts, err := p.Feed(data)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []map[string]any
	for _, part := range parts {
		for _, raw := range part.Messages {
			m, ok := decodeObject(raw)
			if !ok {
				t.Fatalf("corpus message does not decode: %.80s", raw)
			}
			msgs = append(msgs, m)
			msgs = append(msgs, componentVariants(raw)...)
		}
	}
	if len(msgs) > 40 {
		msgs = msgs[:40] // the schema library takes tens of ms on an invalid one
	}
	checked, invalid := 0, 0
	for i, m := range msgs {
		for _, strict := range []bool{false, true} {
			want := cat.Validate([]any{m}, protocol.WithStrictIntegrity(strict))
			if got := e.valid(m, strict); got != (want == nil) {
				t.Fatalf("message %d, strict %v: valid %v, Validate says %v", i, strict, got, want)
			}
			got := e.validate(m, strict)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("message %d, strict %v: validate %v, Validate %v", i, strict, got, want)
			}
			checked++
			if want != nil {
				invalid++
			}
		}
	}
	if invalid == 0 || invalid == checked {
		t.Fatalf("%d of %d verdicts invalid: the variants test nothing", invalid, checked)
	}
	t.Logf("%d verdicts, %d invalid", checked, invalid)
}

// componentVariants decodes raw once per property of its first component,
// with that property removed.
func componentVariants(raw []byte) []map[string]any {
	var out []map[string]any
	for k := 0; ; k++ {
		m, _ := decodeObject(raw)
		body, _ := m["updateComponents"].(map[string]any)
		comps, _ := body["components"].([]any)
		if len(comps) == 0 {
			return out
		}
		comp, _ := comps[0].(map[string]any)
		if k >= len(comp) {
			return out
		}
		delete(comp, slices.Sorted(maps.Keys(comp))[k])
		out = append(out, m)
	}
}

// TestFastPathMatchesRecordedWithCatalog: with a catalog, components read at
// byte level give, call by call, their recorded messages (the generic
// path's) up to key order (renderCanonical): on the streaming suite's
// cases that name a catalog, on corpus turns with the specification's
// catalogs, and on the byte-level path's own cases.
func TestFastPathMatchesRecordedWithCatalog(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests, after the sequential ones (the heap measurements among them)
	g := newPathGolden(t)
	v09, v08 := WithCatalog(speccatalog.BasicV09(t)), WithCatalog(speccatalog.StandardV08(t))
	cases, confDir := loadStreamingSuite(t)
	for _, c := range cases {
		if c.Catalog == nil {
			continue
		}
		t.Run("suite/"+c.Name, func(t *testing.T) {
			cat, err := loadCaseCatalog(c, confDir)
			if err != nil {
				t.Fatalf("catalog: %v", err)
			}
			var all []byte
			for _, st := range c.Steps {
				all = append(all, st.Input...)
			}
			g.checkModes(t, t.Name()[len(g.name)+1:], renderCanonical, splitsOf(all, false, 1, 3, 16, 0), WithCatalog(cat))
		})
	}
	picked := []int{0, 1, 7, 42, 150}
	for _, corpus := range []struct {
		name string
		cat  Option
	}{{"stream_v09", v09}, {"stream_v08", v08}} {
		turns := corpusTurns(t, corpus.name, picked...)
		for ti, turn := range turns {
			for _, n := range []int{1, 16, 256} {
				name := fmt.Sprintf("%s/turn%d/chunk%d", corpus.name, picked[ti], n)
				t.Run(name, func(t *testing.T) {
					g.checkModes(t, name, renderCanonical, [][][]byte{chunked(turn, n)}, corpus.cat)
				})
			}
		}
	}
	for _, tc := range fastPathCases {
		cat := v09
		if strings.HasPrefix(tc.name, "v08") {
			cat = v08
		}
		t.Run("case/"+tc.name, func(t *testing.T) {
			g.checkModes(t, "case/"+tc.name, renderCanonical, splitsOf([]byte(tc.in), false, 1, 7, 0), cat)
		})
	}
}

// TestPlaceholderVerdictMatchesSchema: a placeholder's verdict taken on
// its bytes (placeholderValid) is the schema library's on the decoded
// message, under the specification's v0.9 and v0.8 catalogs and under a
// v0.9 catalog whose Row requires a property placeholders lack (where every
// placeholder is invalid),
// for ids of several shapes (after the first, the verdict is the one the
// surface keeps for all placeholders, closingEnc.ph).
func TestPlaceholderVerdictMatchesSchema(t *testing.T) {
	spec := speccatalog.BasicV09Spec(t)
	noRow := readSchema(t, spec.CatalogSchema)
	// Row requires a property no placeholder has.
	comps := noRow["components"].(map[string]any)
	comps["Row"] = map[string]any{"allOf": []any{comps["Row"], map[string]any{"required": []any{"zzRequired"}}}}
	spec.CatalogSchema = noRow
	noRowCat, err := protocol.LoadCatalog(spec, "")
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"loading_a", "loading_children_root", "loading_é \"q\" \u2028", "loading_" + strings.Repeat("x", 300), "loading_"}
	for _, tc := range []struct {
		name      string
		cat       *protocol.Catalog
		fam       protocol.Family
		wantValid bool
	}{
		{"v0.9 basic", speccatalog.BasicV09(t), protocol.FamilyV09, true},
		{"v0.8 standard", speccatalog.StandardV08(t), protocol.FamilyV08, true},
		{"v0.9, Row requiring more", noRowCat, protocol.FamilyV09, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(WithMode(ModeProgressive), WithCatalog(tc.cat))
			if err != nil {
				t.Fatal(err)
			}
			e := progressiveOf(t, p.eng)
			e.setFamily(tc.fam)
			for _, ph := range ids {
				got := e.placeholderValid("s", ph)
				if _, decided, _ := e.componentVerdict("s", e.placeholderJSON(ph), "id", nil); !decided {
					t.Errorf("placeholder %q: the fast validator did not decide (the test then checks only the fallback)", ph)
				}
				want := e.valid(e.componentMessage("s", []any{e.placeholder(ph)}), false)
				if got != want {
					t.Errorf("placeholder %q: verdict on its bytes %v, schema library %v", ph, got, want)
				}
				if got != tc.wantValid {
					t.Errorf("placeholder %q: valid %v, want %v", ph, got, tc.wantValid)
				}
			}
		})
	}
}
