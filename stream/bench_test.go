package stream

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/a2ui-stream/a2ui-stream/internal/shareddata"
	"github.com/a2ui-stream/a2ui-stream/sinks"
)

// BenchmarkPipelineV09Chunk16 runs the v0.9 corpus through one session in
// 16-byte chunks, in complete mode, into a buffered JSONL sink writing to
// io.Discard: what "a2ui-stream run --chunk 16" does after reading.
func BenchmarkPipelineV09Chunk16(b *testing.B) {
	benchPipeline(b, func() []Option {
		return []Option{WithSinks(sinks.NewJSONL(io.Discard, sinks.JSONLBuffered()))}
	})
}

// BenchmarkPipelineV09Chunk16NoSink is BenchmarkPipelineV09Chunk16 without
// a sink: the pipeline's own cost (parse, apply, encode events).
func BenchmarkPipelineV09Chunk16NoSink(b *testing.B) {
	benchPipeline(b, func() []Option { return nil })
}

// benchPipeline feeds the v0.9 corpus to one session of a new pipeline
// per iteration, in 16-byte chunks.
func benchPipeline(b *testing.B, opts func() []Option) {
	data, err := os.ReadFile(filepath.Join(shareddata.Dir(b), "corpus", "stream_v09.txt"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		pl, err := NewPipeline(append(opts(), WithIdleTimeout(0), WithEmitRetry(0, 0, 0, 0))...)
		if err != nil {
			b.Fatal(err)
		}
		for off := 0; off < len(data); off += 16 {
			if err := pl.Feed(ctx, "bench", data[off:min(off+16, len(data))]); err != nil {
				b.Fatal(err)
			}
		}
		if err := pl.End(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
		_ = pl.Close(ctx)
	}
}
