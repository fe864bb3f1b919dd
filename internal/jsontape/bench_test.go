package jsontape_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/jsontape"
	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// corpusMessages returns the messages of the v0.9 corpus stream (the
// items of its <a2ui-json> lists, as their exact text) and their total
// size.
func corpusMessages(tb testing.TB) (msgs []string, size int) {
	tb.Helper()
	data, err := os.ReadFile(shareddata.Path(tb, "corpus", "stream_v09.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	const open, close = "<a2ui-json>", "</a2ui-json>"
	for s := string(data); ; {
		i := strings.Index(s, open)
		if i < 0 {
			break
		}
		s = s[i+len(open):]
		j := strings.Index(s, close)
		if j < 0 {
			break
		}
		var list []json.RawMessage
		if err := json.Unmarshal([]byte(s[:j]), &list); err != nil {
			tb.Fatalf("corpus block is not a list: %v", err)
		}
		for _, m := range list {
			msgs = append(msgs, string(m))
			size += len(m)
		}
		s = s[j+len(close):]
	}
	if len(msgs) == 0 {
		tb.Fatal("no messages in the corpus")
	}
	return msgs, size
}

// BenchmarkTapeParse parses each message of the v0.9 corpus (600) onto one
// reused Tape; ns/op and allocs/op are per pass over the corpus.
func BenchmarkTapeParse(b *testing.B) {
	msgs, size := corpusMessages(b)
	var tp jsontape.Tape
	b.ReportAllocs()
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, m := range msgs {
			if err := tp.Parse(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
}
