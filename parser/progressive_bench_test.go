package parser

import (
	"fmt"
	"os"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/internal/speccatalog"
)

func benchCorpus(b *testing.B, name string, mode Mode, chunk int, opts ...Option) {
	benchData(b, readCorpus(b, name), mode, chunk, opts...)
}

// readCorpus returns a corpus stream's bytes (name: its file's).
func readCorpus(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(shareddata.Path(tb, "corpus", name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// benchData feeds data to a fresh parser in chunks, then closes it, once
// per iteration.
func benchData(b *testing.B, data []byte, mode Mode, chunk int, opts ...Option) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p, err := New(append([]Option{WithMode(mode)}, opts...)...)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < len(data); i += chunk {
			j := min(i+chunk, len(data))
			if _, err := p.Feed(data[i:j]); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := p.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkProgressiveV09Chunk16(b *testing.B) {
	benchCorpus(b, "stream_v09.txt", ModeProgressive, 16)
}
func BenchmarkDeltaV09Chunk16(b *testing.B) { benchCorpus(b, "stream_v09.txt", ModeDelta, 16) }
func BenchmarkProgressiveV08Chunk16(b *testing.B) {
	benchCorpus(b, "stream_v08.txt", ModeProgressive, 16)
}
func BenchmarkDeltaV08Chunk16(b *testing.B) { benchCorpus(b, "stream_v08.txt", ModeDelta, 16) }
func BenchmarkProgressiveV09Chunk16Borrowed(b *testing.B) {
	benchCorpus(b, "stream_v09.txt", ModeProgressive, 16, WithBorrowedOutput())
}
func BenchmarkDeltaV09Chunk16Borrowed(b *testing.B) {
	benchCorpus(b, "stream_v09.txt", ModeDelta, 16, WithBorrowedOutput())
}
func BenchmarkProgressiveV08Chunk16Borrowed(b *testing.B) {
	benchCorpus(b, "stream_v08.txt", ModeProgressive, 16, WithBorrowedOutput())
}
func BenchmarkDeltaV08Chunk16Borrowed(b *testing.B) {
	benchCorpus(b, "stream_v08.txt", ModeDelta, 16, WithBorrowedOutput())
}

// scalingInput is one updateComponents of n components (a root column and
// n-1 texts) in a block, after its createSurface.
func scalingInput(n int) []byte {
	var b []byte
	b = append(b, `<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[`...)
	for i := 1; i < n; i++ {
		if i > 1 {
			b = append(b, ',')
		}
		b = append(b, fmt.Sprintf(`"t%d"`, i)...)
	}
	b = append(b, `]}`...)
	for i := 1; i < n; i++ {
		b = append(b, fmt.Sprintf(`,{"id":"t%d","component":"Text","text":"Item number %d of the list"}`, i, i)...)
	}
	b = append(b, `]}}]</a2ui-json>`...)
	return b
}

func benchScaling(b *testing.B, mode Mode) {
	for _, n := range []int{100, 1000, 10000} {
		data := scalingInput(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				p, _ := New(WithMode(mode))
				for i := 0; i < len(data); i += 16 {
					if _, err := p.Feed(data[i:min(i+16, len(data))]); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := p.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkScalingDelta(b *testing.B)       { benchScaling(b, ModeDelta) }
func BenchmarkScalingProgressive(b *testing.B) { benchScaling(b, ModeProgressive) }

func BenchmarkProgressiveV09Chunk64K(b *testing.B) {
	benchCorpus(b, "stream_v09.txt", ModeProgressive, 65536)
}

func BenchmarkDeltaV09Chunk64K(b *testing.B) { benchCorpus(b, "stream_v09.txt", ModeDelta, 65536) }

// With the specification's basic catalog, which validates every snapshot.
func BenchmarkProgressiveV09Chunk16Catalog(b *testing.B) {
	benchCorpus(b, "stream_v09.txt", ModeProgressive, 16, WithCatalog(speccatalog.BasicV09(b)), WithBorrowedOutput())
}
func BenchmarkDeltaV09Chunk16Catalog(b *testing.B) {
	benchCorpus(b, "stream_v09.txt", ModeDelta, 16, WithCatalog(speccatalog.BasicV09(b)), WithBorrowedOutput())
}
