package perf

import (
	"bytes"
	"os"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/parser"
)

// parserMessages parses data in complete mode (owned output) in chunks
// and returns its messages and the block each came from.
func parserMessages(t *testing.T, data []byte, chunk int) ([][]byte, []int) {
	t.Helper()
	p, err := parser.New(parser.WithMode(parser.ModeComplete))
	if err != nil {
		t.Fatal(err)
	}
	var msgs [][]byte
	var blocks []int
	keep := func(parts []parser.Part, err error) {
		if err != nil {
			t.Fatalf("parser: %v", err)
		}
		for _, pt := range parts {
			for _, m := range pt.Messages {
				msgs = append(msgs, m)
				blocks = append(blocks, pt.List)
			}
		}
	}
	feedChunks(data, chunk, func(c []byte) { keep(p.Feed(c)) })
	keep(p.Close())
	return msgs, blocks
}

// checkAgainstParser checks that the scanner, at chunk bytes, finds
// exactly the messages the parser yields, at the byte ranges they came
// from, in the same blocks.
func checkAgainstParser(t *testing.T, data []byte, chunk int) {
	t.Helper()
	msgs, blocks := parserMessages(t, data, chunk)
	found, _ := ScanBoundaries(data, chunk)
	if len(found) != len(msgs) {
		t.Fatalf("chunk %d: scanner found %d messages, parser %d", chunk, len(found), len(msgs))
	}
	for i, b := range found {
		if got := data[b.Start:b.End]; !bytes.Equal(got, msgs[i]) {
			t.Fatalf("chunk %d: message %d: scanner has [%d:%d] %.60q, parser %.60q", chunk, i, b.Start, b.End, got, msgs[i])
		}
		if b.Block != blocks[i] {
			t.Fatalf("chunk %d: message %d: scanner block %d, parser list %d", chunk, i, b.Block, blocks[i])
		}
	}
}

func TestScannerMatchesParserOnCorpus(t *testing.T) {
	for _, name := range []string{"stream_v09.txt", "stream_v08.txt"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(shareddata.Path(t, "corpus", name))
			if err != nil {
				t.Fatal(err)
			}
			for _, chunk := range []int{1, 4, 16, 7919, 1 << 20} {
				checkAgainstParser(t, data, chunk)
			}
			found, blocks := ScanBoundaries(data, 16)
			if len(found) != 600 || blocks != 200 {
				t.Errorf("%d messages in %d blocks, want 600 in 200 (the corpus README)", len(found), blocks)
			}
		})
	}
}

func TestScannerMatchesParser(t *testing.T) {
	tests := []struct{ name, data string }{
		{"two blocks", `Hi <a2ui-json>[{"a":1},{"b":[1,{"c":2}]}]</a2ui-json> and <a2ui-json>[{"d":"x"}]</a2ui-json> bye`},
		{"brackets, tags and quotes in strings", `x<a2ui-json>[{"s":"}]<\/a2ui-json> \" ] {"}, {"t":"\\"}]</a2ui-json>`},
		{"escaped backslash before quote", `<a2ui-json>[{"s":"a\\\\"},{"u":"\u0022}"}]</a2ui-json>`},
		{"prose with angle brackets", `a < b <a2ui <a2ui-js> <<a2ui-json>[{"k":"v"}]</a2ui-json> c > d`},
		{"whitespace around messages", "<a2ui-json>\n[\n  {\"a\": 1} ,\n  {\"b\": 2}\n]\n</a2ui-json>"},
		{"empty list", `<a2ui-json>[]</a2ui-json><a2ui-json>[{"z":0}]</a2ui-json>`},
		{"multi-byte text", `héllo ✓ <a2ui-json>[{"t":"ünïcödé ✓ 😀"}]</a2ui-json> 😀`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.data)
			for chunk := 1; chunk <= len(data); chunk++ {
				checkAgainstParser(t, data, chunk)
			}
		})
	}
}

func TestScannerCounts(t *testing.T) {
	tests := []struct {
		name           string
		data           string
		msgs, blocks   int
		offsetAfterAll int64
	}{
		{"prose only", "no blocks < here >", 0, 0, 18},
		{"unclosed block", `<a2ui-json>[{"a":1},{"b":`, 1, 0, 25},
		{"nested list does not count", `<a2ui-json>[{"a":[[1],[2]]}]</a2ui-json>`, 1, 1, 40},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Scanner
			feedChunks([]byte(tt.data), 3, s.Write)
			if s.Messages != tt.msgs || s.Blocks != tt.blocks || s.Offset() != tt.offsetAfterAll {
				t.Errorf("messages %d, blocks %d, offset %d; want %d, %d, %d", s.Messages, s.Blocks, s.Offset(), tt.msgs, tt.blocks, tt.offsetAfterAll)
			}
		})
	}
}
