package deltaengine_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/deltaengine"
	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// TestMain runs the tests and says, in one line, how many were skipped for
// want of the shared reference data (see shareddata.Main).
func TestMain(m *testing.M) {
	*deltaengine.VerifyBodies = true // (see TestSnapshotsFromBodies)
	shareddata.Main(m)
}

// TestSnapshotsFromBodies reads each corpus's blocks in progressive mode,
// in chunks of 1, 7, 16 and 256 bytes: every snapshot the engine writes
// from what it kept of the last one (its snapBody) is checked against the
// same built anew from every component (VerifyBodies, on for all the
// tests of this package and FuzzEngineYieldsJSON: a difference panics).
func TestSnapshotsFromBodies(t *testing.T) {
	for _, corpus := range []string{"stream_v09.txt", "stream_v08.txt"} {
		data, err := os.ReadFile(shareddata.Path(t, "corpus", corpus))
		if err != nil {
			t.Fatal(err)
		}
		blocks := corpusBlocks(data)
		if len(blocks) < 100 {
			t.Fatalf("%s: %d blocks", corpus, len(blocks))
		}
		for _, n := range []int{1, 7, 16, 256} {
			t.Run(fmt.Sprintf("%s/%d", corpus, n), func(t *testing.T) {
				k := deltaengine.New(deltaengine.Options{Progressive: true})
				yields := 0
				for _, b := range blocks {
					k.Begin()
					for i := 0; i < len(b); i += n {
						k.Data(b[i:min(i+n, len(b))])
						yields += len(k.Flush())
					}
					k.End()
					yields += len(k.Messages())
				}
				if k.Failed() > 0 || yields == 0 {
					t.Errorf("%d blocks failed, %d messages yielded", k.Failed(), yields)
				}
			})
		}
	}
}

// corpusBlocks returns the contents of the <a2ui-json> blocks of data.
func corpusBlocks(data []byte) [][]byte {
	const open, close = "<a2ui-json>", "</a2ui-json>"
	var blocks [][]byte
	for {
		i := bytes.Index(data, []byte(open))
		if i < 0 {
			return blocks
		}
		data = data[i+len(open):]
		j := bytes.Index(data, []byte(close))
		if j < 0 {
			return blocks
		}
		blocks = append(blocks, data[:j])
		data = data[j+len(close):]
	}
}

// TestSnapshotsFromBodiesCases is TestSnapshotsFromBodies on blocks that
// take a body's rarer paths, fed at every chunk size: each snapshot
// written from a body is checked against one built anew (a difference
// panics).
func TestSnapshotsFromBodiesCases(t *testing.T) {
	const cs = `{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`
	for _, tc := range []struct{ name, block string }{
		// a leaves the reachable components and comes back, still
		// naming the placeholder of m, which never arrives: its form is
		// the one it had, its placeholder comes back with it.
		{"reachable again with a placeholder", `[` + cs +
			`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a"]},{"id":"a","component":"Card","child":"m"}]}},` +
			`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["b"]},{"id":"b","component":"Text","text":"bee"}]}},` +
			`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["b","a"]}]}}]`},
		// p names the component loading_a, then a, missing, whose
		// placeholder is named so too: p's form stays the same bytes,
		// but it comes to name a placeholder.
		{"placeholders changed, not the form", `[` + cs +
			`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["p","q"]},{"id":"p","component":"Row","children":["loading_a"]},{"id":"loading_a","component":"Text","text":"l"}]}},` +
			`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"p","component":"Row","children":["a"]},{"id":"q","component":"Text","text":"q"}]}}]`},
		// The same once a's placeholder was yielded and dropped (q
		// named a, then b): it is back in the snapshot with p.
		{"placeholders changed alone", `[` + cs +
			`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["p","q"]},{"id":"p","component":"Row","children":["loading_a"]},{"id":"loading_a","component":"Text","text":"l"},{"id":"q","component":"Card","child":"a"}]}},` +
			`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"q","component":"Card","child":"b"},{"id":"b","component":"Text","text":"b"}]}},` +
			`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"p","component":"Row","children":["a"]},{"id":"b","component":"Text","text":"bee"}]}}]`},
		// More than maxRewrites components change at once (a list that
		// arrives whole in a large chunk), and a child named by two
		// parents arrives.
		{"many at once", `[` + cs + `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[` +
			`{"id":"root","component":"Column","children":["a","b","c","d","e","f","g","h","i","j"]},` +
			`{"id":"a","component":"Card","child":"z"},{"id":"b","component":"Card","child":"z"},{"id":"c","component":"Text","text":"c"},{"id":"d","component":"Text","text":"d"},` +
			`{"id":"e","component":"Text","text":"e"},{"id":"f","component":"Text","text":"f"},{"id":"g","component":"Text","text":"g"},{"id":"h","component":"Text","text":"h"},` +
			`{"id":"i","component":"Text","text":"i"},{"id":"j","component":"Text","text":"j"},{"id":"z","component":"Text","text":"zed"}]}}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for n := 1; n <= len(tc.block); n++ {
				if out := engineCalls(tc.block, n, true); !strings.HasSuffix(out, "\n0 failed\n") {
					t.Fatalf("%d-byte chunks: the block failed:\n%s", n, out)
				}
			}
		})
	}
}
