package bench

import (
	"bytes"
	"os"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// Corpus files in ../shared/corpus.
const (
	CorpusV09 = "stream_v09.txt"
	CorpusV08 = "stream_v08.txt"
)

// LoadCorpus reads a corpus stream, skipping (or failing under CI) when the
// shared data is absent.
func LoadCorpus(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(shareddata.Path(tb, "corpus", name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// Blocks returns the JSON payloads of the <a2ui-json> blocks of a stream, in
// order (each is one list of messages).
func Blocks(stream []byte) [][]byte {
	open, close := []byte("<a2ui-json>"), []byte("</a2ui-json>")
	var out [][]byte
	for {
		i := bytes.Index(stream, open)
		if i < 0 {
			return out
		}
		stream = stream[i+len(open):]
		j := bytes.Index(stream, close)
		if j < 0 {
			return out
		}
		out = append(out, stream[:j])
		stream = stream[j+len(close):]
	}
}
