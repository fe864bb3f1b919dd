package deltaengine_test

import (
	"bytes"
	"fmt"
	"os"
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
