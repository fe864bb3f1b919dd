package a2a

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/parser"
)

// BenchmarkChunkParts measures streamed model output to A2A parts (parser
// included) at 16-byte chunks.
func BenchmarkChunkParts(b *testing.B) {
	answer := []byte(strings.Repeat(streamedAnswer, 20))
	b.ReportAllocs()
	b.SetBytes(int64(len(answer)))
	for b.Loop() {
		p, err := parser.New()
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < len(answer); i += 16 {
			if _, err := ChunkParts(p, answer[i:min(i+16, len(answer))], PartOptions{Shape: ShapeV10}); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := CloseParts(p, PartOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPartRoundTrip measures writing and reading back an A2UI data part.
func BenchmarkPartRoundTrip(b *testing.B) {
	data := json.RawMessage(`[{"version":"v0.9.1","updateComponents":{"surfaceId":"form","components":[{"id":"root","component":"Text","text":"Name"}]}}]`)
	p := NewDataPart(data, "0.9.1", ShapeV10)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		out, err := json.Marshal(p)
		if err != nil {
			b.Fatal(err)
		}
		q, err := ParsePart(out)
		if err != nil || !q.IsA2UI() {
			b.Fatal(err)
		}
	}
}
