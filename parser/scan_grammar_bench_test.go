package parser

import (
	"bytes"
	"os"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
)

// BenchmarkProgressiveGrammarV09Chunk16 measures what running complete
// mode's grammar costs the progressive modes (scan_grammar.go): the
// grammar pass alone, as the engine runs it, over the v0.9 corpus's block
// contents in 16-byte segments. Compare with
// BenchmarkProgressiveV09Chunk16Borrowed, which includes it.
func BenchmarkProgressiveGrammarV09Chunk16(b *testing.B) {
	data, err := os.ReadFile(shareddata.Path(b, "corpus", "stream_v09.txt"))
	if err != nil {
		b.Fatal(err)
	}
	var blocks [][]byte
	for rest := data; ; {
		i := bytes.Index(rest, tagOpen)
		if i < 0 {
			break
		}
		rest = rest[i+len(tagOpen):]
		j := bytes.Index(rest, tagClose)
		blocks = append(blocks, rest[:j])
		rest = rest[j:]
	}
	b.SetBytes(int64(len(data)))
	eng, _ := newProgressiveEngine(&config{mode: ModeProgressive})
	e := eng.(*progressiveEngine)
	for b.Loop() {
		for _, blk := range blocks {
			e.resetGrammar()
			for i := 0; i < len(blk); i += 16 {
				if _, err := e.grammar(blk[i:min(i+16, len(blk))], int64(i)); err != nil {
					b.Fatal(err)
				}
			}
			if err := e.grammarEnd(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
