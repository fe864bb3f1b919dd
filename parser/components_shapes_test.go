package parser

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
)

// byteLevelShapes are component shapes the parser writes in canonical
// (sorted-key) encoding once their shape shows: a child named like the
// placeholder of an open empty list, v0.8 empty definitions and empty
// "children" objects. The other components have their keys in sorted
// order, and these theirs up to their id, so that the stream order and
// the canonical one differ only where the shape itself does.
var byteLevelShapes = []byteShape{
	// A child named children_<id>, the placeholder of an empty list of
	// the component while it is open: one placeholder for both, the
	// component in canonical encoding.
	{"v09_clash_in_list_with_open_list", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["a","children_root","children_root"],"component":"Card","explicitList":[],"id":"root","z":1,"b":{"y":2,"x":1}},{"component":"Text","id":"a","text":"x"}]}}]</a2ui-json>`},
	{"v09_clash_open_list_first", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Card","contentChild":"children_root","explicitList":[],"id":"root","text":"t","child":"children_root"}]}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text","id":"children_root","text":"late"}]}}]</a2ui-json>`},
	{"v09_clash_only_child", fastCS + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"children":["children_root","b"],"component":"Column","id":"root","gap":1},{"component":"Text","id":"b","text":"bee"}]}}]</a2ui-json>`},
	{"v08_clash", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Card":{"child":"children_root","children":{"explicitList":[]},"a":2}},"id":"root","weight":1,"b":0},{"component":{"Text":{"text":{"literalString":"c"}}},"id":"children_root"}]}}]</a2ui-json>`},
	// v0.8 empty definitions and empty {"explicitList"} objects: never
	// rendered while they arrive, kept once complete (in canonical
	// encoding).
	{"v08_empty_definition", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Column":{"children":{"explicitList":["e","w"]}}},"id":"root"},{"id":"e","component":{}},{"weight":2,"id":"w","component":{ },"z":{"b":1,"a":[{"d":1,"c":2}]}}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Text":{"text":{"literalString":"now"}}},"id":"e"}]}}]</a2ui-json>`},
	{"v08_empty_children_object", fastCSv08 + `{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Row":{"children":{ },"alignment":"center"}},"id":"root"},{"id":"x","component":{"Card":{"child":"y","children":{}}},"weight":1}]}},{"surfaceUpdate":{"surfaceId":"s","components":[{"component":{"Row":{"children":{"explicitList":["x"]}}},"id":"root"}]}}]</a2ui-json>`},
}

// TestByteLevelShapes checks that each shape gives, call by call, its
// recorded messages (see golden_paths_test.go) byte for byte, with and
// without a catalog, fed one byte at a time, in two pieces split at every
// byte and at a few chunk sizes.
func TestByteLevelShapes(t *testing.T) {
	t.Parallel() // long: runs beside the other long tests
	checkByteLevelShapes(t, byteLevelShapes)
}

// byteShape is a stream (keys in order, see byteLevelShapes).
type byteShape struct {
	name string
	in   string
}

// checkByteLevelShapes checks that each shape gives its recorded bytes
// (renderBytes), call by call, both modes, one byte at a time, split at
// every byte and at a few chunk sizes, with and without the family's
// catalog (a name that starts with v08 is v0.8). t is the top-level test.
func checkByteLevelShapes(t *testing.T, shapes []byteShape) {
	g := newPathGolden(t)
	v09, v08 := WithCatalog(speccatalog.BasicV09(t)), WithCatalog(speccatalog.StandardV08(t))
	for _, tc := range shapes {
		cat := v09
		if strings.HasPrefix(tc.name, "v08") {
			cat = v08
		}
		in := []byte(tc.in)
		t.Run(tc.name, func(t *testing.T) {
			splits := splitsOf(in, true, 1, 3, 16, 0)
			g.checkModes(t, tc.name+"/no catalog", renderBytes, splits)
			g.checkModes(t, tc.name+"/catalog", renderBytes, splits, cat)
		})
	}
}

// randomSplits are the chunkings a random-stream test feeds in: one
// byte at a time, chunks of a random size, and three two-piece splits at
// random bytes (r seeded by the stream's seed).
func randomSplits(in []byte, r *rand.Rand) [][][]byte {
	splits := [][][]byte{chunked(in, 1), chunked(in, 2+r.Intn(20))}
	for range 3 {
		k := 1 + r.Intn(len(in)-1)
		splits = append(splits, [][]byte{in[:k], in[k:]})
	}
	return splits
}

// writeSurfaceStart writes a block that starts surface "s" (root "root"),
// v0.8 or v0.9.
func writeSurfaceStart(b *strings.Builder, v08 bool) {
	if v08 {
		b.WriteString(`<a2ui-json>[{"beginRendering":{"root":"root","surfaceId":"s"}}]</a2ui-json>` + "\n")
	} else {
		b.WriteString(`<a2ui-json>[{"createSurface":{"catalogId":"c","surfaceId":"s"},"version":"v0.9"}]</a2ui-json>` + "\n")
	}
}

// writeComponentBlock writes a block of one component update holding
// comps, v0.8 or v0.9, for surface "s".
func writeComponentBlock(b *strings.Builder, v08 bool, comps []string) {
	if v08 {
		fmt.Fprintf(b, `<a2ui-json>[{"surfaceUpdate":{"components":[%s],"surfaceId":"s"}}]</a2ui-json>`+"\n", strings.Join(comps, ","))
	} else {
		fmt.Fprintf(b, `<a2ui-json>[{"updateComponents":{"components":[%s],"surfaceId":"s"},"version":"v0.9"}]</a2ui-json>`+"\n", strings.Join(comps, ","))
	}
}

// randomStreams is how many random streams a test of g feeds: n (its
// -X.streams flag) when set, else def (a quarter with -short); any other
// count than def is a partial run (see pathGolden.partial), whose streams
// beyond def must be recorded first.
func (g *pathGolden) randomStreams(n, def int) int {
	if n == 0 {
		n = def
		if testing.Short() {
			n = def / 4
		}
	}
	g.partial = n != def
	return n
}

// checkRandomRecorded feeds n random streams of each family (stream, by
// seed), with opts (by family), in the chunkings of randomSplits, and
// checks that they give their recorded bytes (renderBytes), key
// "seed=SEED v08=V08"; it stops at the first stream that differs. g is the
// top-level test's.
func checkRandomRecorded(t *testing.T, g *pathGolden, n int, stream func(seed int64, v08 bool) []byte, opts func(v08 bool) []Option) {
	t.Helper()
	checkRandomRecordedAs(t, g, "", n, stream, opts)
}

// checkRandomRecordedAs is checkRandomRecorded with keys that start with
// prefix (a test that feeds the same seeds with other options).
func checkRandomRecordedAs(t *testing.T, g *pathGolden, prefix string, n int, stream func(seed int64, v08 bool) []byte, opts func(v08 bool) []Option) {
	t.Helper()
	for seed := range int64(n) {
		for _, v08 := range []bool{false, true} {
			in := stream(seed, v08)
			splits := randomSplits(in, rand.New(rand.NewSource(seed)))
			key := fmt.Sprintf("%sseed=%d v08=%v", prefix, seed, v08)
			if !t.Run(fmt.Sprintf("seed%d_v08_%v", seed, v08), func(t *testing.T) {
				g.checkModes(t, key, renderBytes, splits, opts(v08)...)
			}) {
				t.Fatalf("input:\n%s", in)
			}
		}
	}
}
