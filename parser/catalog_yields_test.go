package parser

import (
	"bytes"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/protocol"
)

// TestYieldsPassTheCatalog feeds each streaming conformance case with its
// catalog at 1, 7 and 16 bytes, in both modes: every message yielded
// passes the catalog (the loose verdict, the one
// the parser judges a yield by). Delta mode's data model updates split by
// member are left out: they are judged before they are split, as one
// message (their "path" is more than the simplified test schemas allow).
//
// A placeholder held back with its change was once yielded unjudged with a
// later change by internal/deltaengine. The parser's previous engine,
// which it ran until session 24, failed this test: it yielded Row
// placeholders the catalogs have no type for (cases
// test_partial_children_lists_v09 and
// test_multiple_re_yielding_scenarios_v09, at 1 and 7 bytes).
func TestYieldsPassTheCatalog(t *testing.T) {
	cases, confDir := loadStreamingSuite(t)
	judged := 0
	for _, c := range cases {
		if c.Catalog == nil {
			continue
		}
		cat, err := loadCaseCatalog(c, confDir)
		if err != nil {
			t.Fatalf("%s: catalog: %v", c.Name, err)
		}
		var joined []byte
		for _, st := range c.Steps {
			joined = append(joined, st.Input...)
		}
		for _, mode := range []Mode{ModeProgressive, ModeDelta} {
			for _, size := range []int{1, 7, 16} {
				p, err := New(WithMode(mode), WithCatalog(cat))
				if err != nil {
					t.Fatal(err)
				}
				for _, ch := range chunked(joined, size) {
					parts, _ := p.Feed(ch)
					for _, pt := range parts {
						for _, m := range pt.Messages {
							if mode == ModeDelta && bytes.HasPrefix(m, []byte(`{"updateDataModel":{"path":`)) {
								continue // (split by member)
							}
							judged++
							if err := cat.ValidateJSON(m, protocol.WithStrictIntegrity(false)); err != nil {
								t.Errorf("%s %s at %d-byte chunks: yields %s, which the catalog rejects: %v", c.Name, mode, size, m, err)
							}
						}
					}
				}
			}
		}
	}
	if judged == 0 {
		t.Fatal("no yield judged: the suite's cases hold no catalog")
	}
}
