package parser

import (
	"flag"
	"testing"
)

var deltaFirstFlag = flag.Bool("deltafirst", false, "run every parser of the progressive modes on internal/deltaengine (to see what it does not do yet)")

// withDeltaFirst selects internal/deltaengine for the progressive modes
// (engine_deltafirst.go).
func withDeltaFirst() Option {
	return func(c *config) error {
		c.deltaFirst = true
		return nil
	}
}

// TestDeltaFirstGoldenCorpora holds internal/deltaengine, run by the
// parser, to the golden hashes the progressive engine recorded for both
// corpora in each framing, in progressive and delta mode: the same keys
// TestGoldenHashes checks (all of them with -golden.full).
func TestDeltaFirstGoldenCorpora(t *testing.T) {
	for _, corpus := range []string{"stream_v09", "stream_v08"} {
		for _, fr := range goldenFramings {
			for _, mode := range []Mode{ModeProgressive, ModeDelta} {
				t.Run(corpus+fr.suffix+"/"+mode.String(), func(t *testing.T) {
					t.Parallel()
					goldenCorpusHashes(t, corpus, fr.framing, fr.suffix, mode, withDeltaFirst())
				})
			}
		}
	}
}

// TestDeltaFirstConformance runs the streaming conformance suite, each
// case with its catalog, on internal/deltaengine: every case passes, as on
// the progressive engine (TestConformanceStreamingParser).
func TestDeltaFirstConformance(t *testing.T) {
	cases, confDir := loadStreamingSuite(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			cat, err := loadCaseCatalog(c, confDir)
			if err != nil {
				t.Fatalf("catalog: %v", err)
			}
			if err := runStreamingSteps(c, cat, withDeltaFirst()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// progressiveOf returns eng as the progressive engine. Under -deltafirst,
// where it is internal/deltaengine, it skips tb: the test reads the
// progressive engine's own state.
func progressiveOf(tb testing.TB, eng engine) *progressiveEngine {
	tb.Helper()
	e, ok := eng.(*progressiveEngine)
	if !ok {
		tb.Skip("reads the progressive engine's state; -deltafirst runs internal/deltaengine")
	}
	return e
}
