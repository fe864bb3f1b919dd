package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

func TestMain(m *testing.M) { shareddata.Main(m) }

// TestSameAsParser holds the prototype to the parser, call by call and
// byte for byte, in delta and progressive mode, on both corpora at the
// chunk sizes of the parser's golden hashes and a few more, so that the
// prototype measures an engine that does the parser's work, not less.
func TestSameAsParser(t *testing.T) {
	for _, corpus := range []string{"v09", "v08"} {
		data, err := os.ReadFile(shareddata.Path(t, "corpus", "stream_"+corpus+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []string{"delta", "progressive"} {
			for _, chunk := range []int{1, 3, 7, 16, 64, 256, 1 << 16} {
				t.Run(fmt.Sprint(corpus, "/", mode, "/", chunk), func(t *testing.T) {
					r, err := compareWithParser(data, chunk, mode == "progressive")
					if err != nil {
						t.Fatal(err)
					}
					if r.differ > 0 {
						t.Errorf("%d of %d calls differ; first: %s", r.differ, r.calls, r.first)
					}
				})
			}
		}
	}
}

// TestTablesRead checks that -tables finds the parser's test-table blocks
// (a change to the tables' form would leave it measuring nothing) and
// that some agree: the count of the others is the work left (bench/
// README.md).
func TestTablesRead(t *testing.T) {
	r, err := compareTables("../../../parser")
	if err != nil {
		t.Fatal(err)
	}
	if r.total < 100 || r.agree == 0 {
		t.Fatalf("%d blocks read, %d agree", r.total, r.agree)
	}
}
