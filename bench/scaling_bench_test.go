package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// scalingBlock returns a model answer holding a createSurface and one
// updateComponents of n components: a root Column whose children are n-1
// Text components.
func scalingBlock(n int) []byte {
	var b strings.Builder
	b.WriteString(`Here you go. <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},`)
	b.WriteString(`{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":[`)
	for i := 1; i < n; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"t%d"`, i)
	}
	b.WriteString(`]}`)
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, `,{"id":"t%d","component":"Text","text":"Item number %d of the list"}`, i, i)
	}
	b.WriteString(`]}}]</a2ui-json> Done.`)
	return []byte(b.String())
}

// BenchmarkScaling feeds one updateComponents of 100, 1,000 and 10,000
// components in 16-byte chunks. Per-byte time (ns/op divided by bytes, or
// MB/s) must stay flat across sizes in complete and delta modes.
func BenchmarkScaling(b *testing.B) {
	for _, mode := range []parser.Mode{parser.ModeComplete, parser.ModeDelta, parser.ModeProgressive} {
		for _, n := range []int{100, 1000, 10000} {
			data := scalingBlock(n)
			b.Run(fmt.Sprintf("%s/components=%d", mode, n), func(b *testing.B) {
				if _, err := parser.New(parser.WithMode(mode)); err != nil {
					b.Skip(err)
				}
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					feedAll(b, data, 16, parser.WithMode(mode))
				}
			})
		}
	}
}

// BenchmarkScalingFloor times only allocating and copying what the
// progressive and delta modes yield for the blocks of BenchmarkScaling
// (see CopyOutput). The parser's time less this floor is the cost beyond
// its output's own size, which must stay linear in the input.
func BenchmarkScalingFloor(b *testing.B) {
	for _, mode := range []parser.Mode{parser.ModeDelta, parser.ModeProgressive} {
		for _, n := range []int{100, 1000, 10000} {
			data := scalingBlock(n)
			b.Run(fmt.Sprintf("%s/components=%d", mode, n), func(b *testing.B) {
				outs, err := RecordOutput(data, 16, parser.WithMode(mode))
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					CopyOutput(outs)
				}
			})
		}
	}
}
