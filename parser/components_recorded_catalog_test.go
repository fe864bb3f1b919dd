package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
)

// TestFastPathMatchesRecordedWithCatalog: with a catalog, streams give,
// call by call, their recorded messages (see golden_paths_test.go) up to
// key order (renderCanonical): the streaming suite's cases that name a
// catalog, with it; corpus turns, and fastPathCases, with the
// specification's catalog of their family.
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
