package bench

import (
	"fmt"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// feedAll parses data in chunks of n bytes and returns the number of
// messages yielded.
func feedAll(tb testing.TB, data []byte, n int, opts ...parser.Option) int {
	p, err := parser.New(opts...)
	if err != nil {
		tb.Fatal(err)
	}
	msgs := 0
	for i := 0; i < len(data); i += n {
		parts, _ := p.Feed(data[i:min(i+n, len(data))])
		msgs += CountMessages(parts)
	}
	parts, _ := p.Close()
	return msgs + CountMessages(parts)
}

// BenchmarkParser parses the corpus streams in every mode at chunk sizes 4,
// 16, 256 and 65536 bytes, with owned output (the default) and, in the
// sub-benchmarks ending in /borrowed, with parser.WithBorrowedOutput.
func BenchmarkParser(b *testing.B) {
	for _, corpus := range []string{CorpusV09, CorpusV08} {
		data := LoadCorpus(b, corpus)
		for _, mode := range []parser.Mode{parser.ModeComplete, parser.ModeDelta, parser.ModeProgressive} {
			for _, n := range []int{4, 16, 256, 65536} {
				for _, borrow := range []bool{false, true} {
					name := fmt.Sprintf("%s/%s/chunk=%d", corpus[:len(corpus)-4], mode, n)
					opts := []parser.Option{parser.WithMode(mode)}
					if borrow {
						name += "/borrowed"
						opts = append(opts, parser.WithBorrowedOutput())
					}
					b.Run(name, func(b *testing.B) {
						b.SetBytes(int64(len(data)))
						b.ReportAllocs()
						for b.Loop() {
							feedAll(b, data, n, opts...)
						}
					})
				}
			}
		}
	}
}

// BenchmarkFeedFixedCost measures the fixed cost of one Feed call with a
// 1-byte chunk: inside a JSON string of an open block (nothing completes), and
// in prose (a text part completes).
func BenchmarkFeedFixedCost(b *testing.B) {
	for _, mode := range []parser.Mode{parser.ModeComplete, parser.ModeDelta, parser.ModeProgressive} {
		for _, borrow := range []bool{false, true} {
			name := "in-block/" + mode.String()
			opts := []parser.Option{parser.WithMode(mode), parser.WithMaxBlockSize(1<<31 - 1)} // (the largest)
			if borrow {
				name += "/borrowed"
				opts = append(opts, parser.WithBorrowedOutput())
			}
			b.Run(name, func(b *testing.B) {
				p, err := parser.New(opts...)
				if err != nil {
					b.Fatal(err)
				}
				p.Feed([]byte(`<a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/x","value":"`))
				chunk := []byte("a")
				b.ReportAllocs()
				for b.Loop() {
					p.Feed(chunk)
				}
			})
		}
	}
	b.Run("prose", func(b *testing.B) {
		p, _ := parser.New()
		chunk := []byte("a")
		b.ReportAllocs()
		for b.Loop() {
			p.Feed(chunk)
		}
	})
}

// TestCorpusMessageCount checks that complete mode yields every message of
// the corpus at every chunk size (the corpus metadata gives 600 per stream).
func TestCorpusMessageCount(t *testing.T) {
	for _, corpus := range []string{CorpusV09, CorpusV08} {
		data := LoadCorpus(t, corpus)
		for _, n := range []int{1, 7, 16, 65536} {
			if got := feedAll(t, data, n); got != 600 {
				t.Errorf("%s chunk %d: %d messages, want 600", corpus, n, got)
			}
		}
	}
}
